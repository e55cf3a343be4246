/**
 * What the first view of an A1 instance can see: whether a piece lying behind the hiding wall is
 * really out of sight from the initial camera (every sight line to its bounding box passes
 * through the wall). The generator places hidden pieces with it, and a shortcut filter checks
 * every instance with it.
 */
import type { Vec3 } from '../../../sim/types.ts';
import type { Cell } from '../../../solvers/polycube.ts';
import { CELL, pieceMid } from '../../kits/polycube-pieces/pieces.ts';
import { HIDE_WALL, INITIAL_CAMERA } from './scene.ts';

/** The eye point of a camera spec. */
function eyeOf(cam = INITIAL_CAMERA): Vec3 {
  const az = (cam.azimuth * Math.PI) / 180;
  const el = (cam.elevation * Math.PI) / 180;
  return [
    cam.target[0] + cam.distance * Math.cos(el) * Math.sin(az),
    cam.target[1] + cam.distance * Math.sin(el),
    cam.target[2] + cam.distance * Math.cos(el) * Math.cos(az),
  ];
}

/** Whether the segment a→b passes through the box [min, max]. */
function segmentHitsBox(a: Vec3, b: Vec3, min: Vec3, max: Vec3): boolean {
  let t0 = 0;
  let t1 = 1;
  for (let i = 0; i < 3; i++) {
    const d = b[i] - a[i];
    if (Math.abs(d) < 1e-12) {
      if (a[i] < min[i] || a[i] > max[i]) return false;
      continue;
    }
    let u = (min[i] - a[i]) / d;
    let v = (max[i] - a[i]) / d;
    if (u > v) [u, v] = [v, u];
    t0 = Math.max(t0, u);
    t1 = Math.min(t1, v);
    if (t0 > t1) return false;
  }
  return true;
}

/**
 * Whether a piece is hidden from the first view: the sight line to every corner of its bounding
 * box passes through the wall (shrunk by 3 mm for margin). The wall is convex, so the whole box
 * is then hidden.
 */
export function hiddenFromFirstView(cells: readonly Cell[], position: Vec3): boolean {
  const eye = eyeOf();
  const mid = pieceMid(cells);
  const lo: Vec3 = [0, 0, 0];
  const hi: Vec3 = [0, 0, 0];
  for (let a = 0; a < 3; a++) {
    const vs = cells.map((c) => c[a]);
    lo[a] = position[a] + (Math.min(...vs) - mid[a]) * CELL - CELL / 2;
    hi[a] = position[a] + (Math.max(...vs) - mid[a]) * CELL + CELL / 2;
  }
  const m = 0.003;
  const wallMin: Vec3 = [-HIDE_WALL.halfLength + m, m, HIDE_WALL.zFront - HIDE_WALL.thickness + m];
  const wallMax: Vec3 = [HIDE_WALL.halfLength - m, HIDE_WALL.height - m, HIDE_WALL.zFront - m];
  for (let c = 0; c < 8; c++) {
    const p: Vec3 = [c & 1 ? hi[0] : lo[0], c & 2 ? hi[1] : lo[1], c & 4 ? hi[2] : lo[2]];
    if (!segmentHitsBox(eye, p, wallMin, wallMax)) return false;
  }
  return true;
}
