/**
 * What the first view of a P3 room shows: the first camera, and which crates and marked cells
 * the walls hide from it (a ray from the camera to points on the part, tested against the wall
 * blocks). The L7 lever (`+occ`) needs the tall walls to hide at least one of them at first; the
 * lower tiers' first view hides none. Pure geometry, no rendering, so the generator can ask.
 */
import type { CameraSpec } from '../../../render/camera-spec.ts';
import type { Vec3 } from '../../../sim/types.ts';
import { parseLevel } from './level.ts';
import { CRATE_HALF, WALL_HEIGHT, type P3Scene } from './scene.ts';

const r6 = (x: number): number => Math.round(x * 1e6) / 1e6;

/** The low view's azimuths, tried in this order (from the south, north, east, west). */
const LOW_AZIMUTHS = [0, 180, 90, 270];

function camera(s: P3Scene, azimuth: number): CameraSpec {
  const span = Math.max(s.cols, s.rows) * s.cell;
  const tall = s.wallHeight > WALL_HEIGHT;
  return {
    azimuth,
    elevation: tall ? 36 : 68,
    distance: r6(span * (tall ? 1.9 : 1.75) + 0.1),
    target: [0, 0, 0],
  };
}

/**
 * The first camera of a room: from the south, high above a flat room; low above a tall-walled
 * one (L7), from the first side (south, north, east, west) whose walls hide a crate or a marked
 * cell.
 */
export function firstCamera(s: P3Scene): CameraSpec {
  if (s.wallHeight <= WALL_HEIGHT) return camera(s, 0);
  for (const az of LOW_AZIMUTHS) {
    const c = camera(s, az);
    if (hiddenFrom(s, c).length) return c;
  }
  return camera(s, 0);
}

function eye(c: CameraSpec): Vec3 {
  const az = (c.azimuth * Math.PI) / 180;
  const el = (c.elevation * Math.PI) / 180;
  // Rounded: the answer must not hang on the last bit of a sine.
  return [r6(c.target[0] + c.distance * Math.cos(el) * Math.sin(az)), r6(c.target[1] + c.distance * Math.sin(el)), r6(c.target[2] + c.distance * Math.cos(el) * Math.cos(az))];
}

/** Whether the segment from a to b passes through the box (slab test). */
function segmentHitsBox(a: Vec3, b: Vec3, min: Vec3, max: Vec3): boolean {
  let t0 = 0;
  let t1 = 1;
  for (let k = 0; k < 3; k++) {
    const d = b[k] - a[k];
    if (Math.abs(d) < 1e-12) {
      if (a[k] < min[k] || a[k] > max[k]) return false;
      continue;
    }
    let u0 = (min[k] - a[k]) / d;
    let u1 = (max[k] - a[k]) / d;
    if (u0 > u1) [u0, u1] = [u1, u0];
    t0 = Math.max(t0, u0);
    t1 = Math.min(t1, u1);
    if (t0 > t1) return false;
  }
  return true;
}

/** Points on every crate top and marked cell, world frame, with what they are. */
export function partPoints(s: P3Scene): Array<{ what: string; points: Vec3[] }> {
  const level = parseLevel(s);
  const at = (i: number, y: number): Vec3[] => {
    const c = i % s.cols;
    const r = (i - c) / s.cols;
    const x = (c + 0.5 - s.cols / 2) * s.cell;
    const z = (r + 0.5 - s.rows / 2) * s.cell;
    const e = s.cell * 0.3;
    return [[x, y, z], [x - e, y, z - e], [x + e, y, z - e], [x - e, y, z + e], [x + e, y, z + e]];
  };
  const base = (i: number): number => (level.kind[i] === 'platform' ? s.platformHeight : 0);
  const out: Array<{ what: string; points: Vec3[] }> = [];
  for (const g of level.goals) out.push({ what: `marked cell at column ${g % s.cols}, row ${Math.floor(g / s.cols)}`, points: at(g, base(g) + 0.001) });
  for (const c of level.crates) out.push({ what: `crate at column ${c % s.cols}, row ${Math.floor(c / s.cols)}`, points: at(c, base(c) + 2 * CRATE_HALF) });
  return out;
}

/** The crates and marked cells the walls hide wholly from the first camera (every test point blocked). */
export function firstViewHides(s: P3Scene): string[] {
  return hiddenFrom(s, firstCamera(s));
}

function hiddenFrom(s: P3Scene, cam: CameraSpec): string[] {
  const from = eye(cam);
  const walls: Array<[Vec3, Vec3]> = [];
  // Walls shrunk by 1 mm, so a grazing ray counts as seen.
  const m = 0.001;
  s.map.forEach((row, r) =>
    [...row].forEach((ch, c) => {
      if (ch !== '#') return;
      const x = (c + 0.5 - s.cols / 2) * s.cell;
      const z = (r + 0.5 - s.rows / 2) * s.cell;
      walls.push([
        [x - s.cell / 2 + m, 0, z - s.cell / 2 + m],
        [x + s.cell / 2 - m, s.wallHeight - m, z + s.cell / 2 - m],
      ]);
    }),
  );
  return partPoints(s)
    .filter((part) => part.points.every((p) => walls.some(([lo, hi]) => segmentHitsBox(from, p, lo, hi))))
    .map((part) => part.what);
}
