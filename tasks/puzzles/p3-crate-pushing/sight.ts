/**
 * What the first view of a P3 room shows: the first camera, and which crates and marked cells
 * the walls hide from it (a ray from the camera to points on the part, tested against the wall
 * blocks, the platform and ramp, the other crates and the pusher). The L7 lever (`+occ`) needs the tall walls to hide exactly one of them at first; the
 * lower tiers' first view hides none. Pure geometry, no rendering, so the generator can ask.
 */
import type { CameraSpec } from '../../../render/camera-spec.ts';
import type { Vec3 } from '../../../sim/types.ts';
import { DIRECTION_STEP, TRAY_DIRECTIONS } from '../../kits/grid-tray.ts';
import { parseLevel } from './level.ts';
import { CRATE_HALF, PUSHER_HALF_HEIGHT, PUSHER_RADIUS, WALL_HEIGHT, type P3Scene } from './scene.ts';

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
 * one (L7), from the first side (south, north, east, west) whose walls hide exactly one crate or
 * marked cell wholly (what the tier text promises, no more) while every other part the rules name (the other crates and marked cells, the
 * pusher, the ramp) stays mostly in sight: the lever hides what it means to hide, no more.
 */
export function firstCamera(s: P3Scene): CameraSpec {
  if (s.wallHeight <= WALL_HEIGHT) return camera(s, 0);
  for (const az of LOW_AZIMUTHS) {
    const c = camera(s, az);
    if (hiddenFrom(s, c).length === 1 && halfHiddenFrom(s, c).length === 0 && !rampFacesAway(s, az)) return c;
  }
  return camera(s, 0);
}

/**
 * Whether the ramp does not rise away from a camera at this azimuth: rising toward it, its slope
 * faces away; rising across the view, its rails stand in front of it. Either way a low camera
 * sees it only at a grazing angle.
 */
function rampFacesAway(s: P3Scene, azimuth: number): boolean {
  const level = parseLevel(s);
  const ramp = level.kind.indexOf('ramp');
  if (ramp < 0) return false;
  const [dc, dr] = DIRECTION_STEP[TRAY_DIRECTIONS[level.rise[ramp]]];
  // The camera stands toward (sin az, cos az) from the room's centre (azimuth 0: the south, +z).
  const toward: [number, number] = azimuth === 0 ? [0, 1] : azimuth === 180 ? [0, -1] : azimuth === 90 ? [1, 0] : [-1, 0];
  return dc * toward[0] + dr * toward[1] >= 0;
}

/** Whether the first view of a tall-walled room looks up the ramp's slope from its low side (always true when the walls are low or there is no ramp). */
export function firstViewSeesRamp(s: P3Scene): boolean {
  return s.wallHeight <= WALL_HEIGHT || !rampFacesAway(s, firstCamera(s).azimuth);
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

/**
 * Points on every crate top and marked cell (and, with `all`, the pusher's top, the ramp's
 * slope and the platform's cells), world frame, with what they are and the body that draws them.
 */
export function partPoints(s: P3Scene, all = false): Array<{ what: string; body: string; cell: number; points: Vec3[] }> {
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
  const out: Array<{ what: string; body: string; cell: number; points: Vec3[] }> = [];
  // Body names as episode.ts numbers them: mark-k and crate-k, 1-based in the order of the map.
  level.goals.forEach((g, k) => out.push({ what: `marked cell at column ${g % s.cols}, row ${Math.floor(g / s.cols)}`, body: `mark-${k + 1}`, cell: g, points: at(g, base(g) + 0.001) }));
  level.crates.forEach((c, k) => out.push({ what: `crate at column ${c % s.cols}, row ${Math.floor(c / s.cols)}`, body: `crate-${k + 1}`, cell: c, points: at(c, base(c) + 2 * CRATE_HALF) }));
  if (all) {
    const lift = (i: number): number => (level.kind[i] === 'ramp' ? s.platformHeight / 2 : base(i));
    const p = level.pusher;
    // The pusher's top: its centre and four points within its radius.
    const [px, py, pz] = at(p, lift(p) + 2 * PUSHER_HALF_HEIGHT)[0];
    const e = PUSHER_RADIUS * 0.7;
    out.push({ what: 'pusher', body: 'pusher', cell: p, points: [[px, py, pz], [px - e, py, pz - e], [px + e, py, pz - e], [px - e, py, pz + e], [px + e, py, pz + e]] });
    const ramp = level.kind.indexOf('ramp');
    if (ramp >= 0) out.push({ what: 'ramp', body: 'ramp', cell: ramp, points: at(ramp, s.platformHeight / 2) });
    // The platform: the centre of each of its cells (a view that shows it only as a sliver fails).
    const top = level.kind.flatMap((k, i) => (k === 'platform' ? [at(i, s.platformHeight + 0.001)[0]] : []));
    if (top.length) out.push({ what: 'platform', body: 'platform', cell: -1, points: top });
  }
  return out;
}

/** The crates and marked cells the walls hide wholly from the first camera (every test point blocked). */
export function firstViewHides(s: P3Scene): string[] {
  return hiddenFrom(s, firstCamera(s)).map((p) => p.what);
}

/** The parts the walls hide for the most part but not wholly from the first camera (the pusher and ramp also when wholly): none may be. */
export function firstViewHalfHidden(s: P3Scene): string[] {
  return halfHiddenFrom(s, firstCamera(s));
}

/** The bodies (`crate-k`, `mark-k`) the walls hide wholly from the first camera: what the L7 lever hides on purpose. */
export function firstViewHiddenBodies(s: P3Scene): string[] {
  return hiddenFrom(s, firstCamera(s)).map((p) => p.body);
}

function hiddenFrom(s: P3Scene, cam: CameraSpec): Array<{ what: string; body: string }> {
  return blockedFrom(s, cam, false)
    .filter((p) => p.blocked === p.total)
    .map(({ what, body }) => ({ what, body }));
}

/**
 * The parts not wholly hidden from a camera of which the walls still hide two test points
 * or more (the pusher and the ramp included): a first view that shows them only as slivers.
 */
function halfHiddenFrom(s: P3Scene, cam: CameraSpec): string[] {
  return blockedFrom(s, cam, true)
    .filter((p) => p.blocked < p.total || p.body === 'pusher' || p.body === 'ramp' || p.body === 'platform')
    .filter((p) => p.blocked >= 2)
    .map((p) => p.what);
}

/** For every part, how many of its test points the wall blocks hide from the camera. */
function blockedFrom(s: P3Scene, cam: CameraSpec, all: boolean): Array<{ what: string; body: string; blocked: number; total: number }> {
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
  // The crates and the pusher stand in the way too (a low view sees a green cell behind a
  // crate no better than behind a wall); a part is never hidden by what stands on its own cell.
  const level = parseLevel(s);
  const pieces: Array<{ cell: number; box: [Vec3, Vec3] }> = [];
  const pieceBox = (cell: number, half: number, height: number): [Vec3, Vec3] => {
    const c = cell % s.cols;
    const r = (cell - c) / s.cols;
    const x = (c + 0.5 - s.cols / 2) * s.cell;
    const z = (r + 0.5 - s.rows / 2) * s.cell;
    const y0 = level.kind[cell] === 'platform' ? s.platformHeight : level.kind[cell] === 'ramp' ? s.platformHeight / 2 : 0;
    return [
      [x - half + m, y0, z - half + m],
      [x + half - m, y0 + height - m, z + half - m],
    ];
  };
  // The raised platform hides a green cell on the floor behind it from a low view; the ramp
  // is counted as a block half as high (it rises from the floor to the platform).
  level.kind.forEach((k, cell) => {
    if (k === 'platform' || k === 'ramp') {
      const c = cell % s.cols;
      const r = (cell - c) / s.cols;
      const x = (c + 0.5 - s.cols / 2) * s.cell;
      const z = (r + 0.5 - s.rows / 2) * s.cell;
      walls.push([
        [x - s.cell / 2 + m, 0, z - s.cell / 2 + m],
        [x + s.cell / 2 - m, (k === 'platform' ? s.platformHeight : s.platformHeight / 2) - m, z + s.cell / 2 - m],
      ]);
    }
  });
  for (const c of level.crates) pieces.push({ cell: c, box: pieceBox(c, CRATE_HALF, 2 * CRATE_HALF) });
  pieces.push({ cell: level.pusher, box: pieceBox(level.pusher, PUSHER_RADIUS * 0.7, 2 * PUSHER_HALF_HEIGHT) });
  return partPoints(s, all).map((part) => {
    // The platform's own cells are judged against the walls only: a crate standing on one is on it, not in front of it.
    const boxes = part.body === 'platform' ? walls : [...walls, ...pieces.filter((q) => q.cell !== part.cell).map((q) => q.box)];
    return {
      what: part.what,
      body: part.body,
      blocked: part.points.filter((p) => boxes.some(([lo, hi]) => segmentHitsBox(from, p, lo, hi))).length,
      total: part.points.length,
    };
  });
}
