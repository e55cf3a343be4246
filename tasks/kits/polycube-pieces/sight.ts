/**
 * Whether a polycube piece lying on a table is out of sight from a camera behind an upright
 * wall: every sight line from the camera's eye to a corner of the piece's bounding box passes
 * through the wall (shrunk by a margin). The wall is a convex box, so the whole piece is then
 * hidden (A1, A3).
 */
import type { CameraSpec } from '../../../render/camera-spec.ts';
import type { Vec3 } from '../../../sim/types.ts';
import type { Cell } from '../../../solvers/polycube.ts';
import { CELL, pieceMid } from './pieces.ts';

/** An axis-aligned wall: its corners. */
export interface WallBox {
  min: Vec3;
  max: Vec3;
}

/** The eye point of a camera spec (azimuth 0 looks from +z towards −z). */
export function eyeOf(cam: CameraSpec): Vec3 {
  const az = (cam.azimuth * Math.PI) / 180;
  const el = (cam.elevation * Math.PI) / 180;
  return [
    cam.target[0] + cam.distance * Math.cos(el) * Math.sin(az),
    cam.target[1] + cam.distance * Math.sin(el),
    cam.target[2] + cam.distance * Math.cos(el) * Math.cos(az),
  ];
}

/** Whether the segment a→b passes through the box [min, max]. */
export function segmentHitsBox(a: Vec3, b: Vec3, min: Vec3, max: Vec3): boolean {
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
 * Whether a piece lying with its body origin at `position` (its cells as they lie) is hidden
 * from `camera` by `wall`: the sight line to every corner of its bounding box passes through
 * the wall shrunk by `margin` metres (default 3 mm).
 */
export function hiddenBehindWall(cells: readonly Cell[], position: Vec3, camera: CameraSpec, wall: WallBox, margin = 0.003): boolean {
  const eye = eyeOf(camera);
  const mid = pieceMid(cells);
  const lo: Vec3 = [0, 0, 0];
  const hi: Vec3 = [0, 0, 0];
  for (let a = 0; a < 3; a++) {
    const vs = cells.map((c) => c[a]);
    lo[a] = position[a] + (Math.min(...vs) - mid[a]) * CELL - CELL / 2;
    hi[a] = position[a] + (Math.max(...vs) - mid[a]) * CELL + CELL / 2;
  }
  const wMin = wall.min.map((v) => v + margin) as Vec3;
  const wMax = wall.max.map((v) => v - margin) as Vec3;
  for (let c = 0; c < 8; c++) {
    const p: Vec3 = [c & 1 ? hi[0] : lo[0], c & 2 ? hi[1] : lo[1], c & 4 ? hi[2] : lo[2]];
    if (!segmentHitsBox(eye, p, wMin, wMax)) return false;
  }
  return true;
}
