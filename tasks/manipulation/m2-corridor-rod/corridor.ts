/**
 * M2 geometry derived from the scene: the corridor's free space as boxes, its walls and roof as
 * merged boxes (the shell of the free space, open at the exit), the rod's capsule, the route the
 * reference follows, and the goal test.
 */
import { qaxisAngle, qmul, qnormalize, qrotate, transformPoint } from '../../../sim/math.ts';
import type { Pose, Quat, ShapeSpec, Vec3 } from '../../../sim/types.ts';
import { segmentDirection, segmentSection, WALL, type M2Scene } from './scene.ts';

/** An axis-aligned box. */
export interface Box {
  min: Vec3;
  max: Vec3;
}

const EPS = 1e-9;

function axisOf(d: Vec3): number {
  return d.findIndex((v) => Math.abs(v) > 0.5);
}

/**
 * The corridor's free space: one box per segment, its section centred on the centre line,
 * reaching half the neighbouring section into each bend so the corner square is covered.
 */
export function freeBoxes(c: M2Scene['corridor']): Box[] {
  const n = c.points.length - 1;
  const boxes: Box[] = [];
  for (let i = 0; i < n; i++) {
    const d = segmentDirection(c.points, i);
    const k = axisOf(d);
    const sec = segmentSection(c, i);
    const a = c.points[i];
    const b = c.points[i + 1];
    const lo = Math.min(a[k], b[k]);
    const hi = Math.max(a[k], b[k]);
    // Into a bend: half of the other segment's extent along this one.
    const back = i > 0 ? segmentSection(c, i - 1)[k] / 2 : 0;
    const ahead = i < n - 1 ? segmentSection(c, i + 1)[k] / 2 : 0;
    const min: Vec3 = [0, 0, 0];
    const max: Vec3 = [0, 0, 0];
    for (let j = 0; j < 3; j++) {
      if (j === k) {
        const startExt = d[k] > 0 ? back : ahead;
        const endExt = d[k] > 0 ? ahead : back;
        min[j] = lo - startExt;
        max[j] = hi + endExt;
      } else {
        min[j] = a[j] - sec[j] / 2;
        max[j] = a[j] + sec[j] / 2;
      }
    }
    boxes.push({ min, max });
  }
  return boxes;
}

function inside(p: Vec3, b: Box, grow = 0): boolean {
  return p.every((v, j) => v > b.min[j] - grow + EPS && v < b.max[j] + grow - EPS);
}

/** The exit plane: its point and outward direction. */
export function exitPlane(c: M2Scene['corridor']): { point: Vec3; out: Vec3 } {
  const n = c.points.length - 1;
  return { point: c.points[n], out: segmentDirection(c.points, n - 1) };
}

/**
 * The green pad beyond a level exit, where the rod ends up: a floor patch as wide as the
 * corridor and as long as the rod, starting 3 cm past the exit plane. None for an upward exit
 * (L7's shaft). The episode draws it and the first camera frames it from this one place, so the
 * two cannot drift apart (version 6: the framing took a centre line 3 cm short of the pad's far
 * edge, and the pad's corners ran off the picture's bottom).
 */
export function goalPad(s: M2Scene): { centre: Vec3; half: Vec3 } | undefined {
  const c = s.corridor;
  const { point, out } = exitPlane(c);
  if (out[1] > 0.5) return undefined;
  const centre: Vec3 = [point[0] + out[0] * (s.rod.length / 2 + 0.03), 0.0008, point[2] + out[2] * (s.rod.length / 2 + 0.03)];
  const half: Vec3 = [Math.abs(out[0]) > 0.5 ? s.rod.length / 2 : c.width / 2, 0.0008, Math.abs(out[2]) > 0.5 ? s.rod.length / 2 : c.width / 2];
  return { centre, half };
}

function beyondExit(c: M2Scene['corridor'], p: Vec3): boolean {
  const { point, out } = exitPlane(c);
  return (p[0] - point[0]) * out[0] + (p[1] - point[1]) * out[1] + (p[2] - point[2]) * out[2] > 0;
}

/**
 * The shell around the free space (walls, floor, ceiling, the closed end), as boxes merged from a
 * grid of cells cut at every box face; nothing beyond the exit plane. `roof` holds the cells at
 * or above the horizontal segments' ceiling height (drawn see-through), `walls` the rest.
 */
export function shellBoxes(c: M2Scene['corridor']): { walls: Box[]; roof: Box[] } {
  const free = freeBoxes(c);
  const outer = free.map((b) => ({ min: b.min.map((v) => v - WALL) as Vec3, max: b.max.map((v) => v + WALL) as Vec3 }));
  const cuts = [0, 1, 2].map((j) => [...new Set([...free, ...outer].flatMap((b) => [b.min[j], b.max[j]]).map((v) => Math.round(v * 1e9) / 1e9))].sort((x, y) => x - y));
  const [xs, ys, zs] = cuts;
  const solid = (i: number, j: number, k: number): boolean => {
    const centre: Vec3 = [(xs[i] + xs[i + 1]) / 2, (ys[j] + ys[j + 1]) / 2, (zs[k] + zs[k + 1]) / 2];
    if (free.some((b) => inside(centre, b))) return false;
    if (beyondExit(c, centre)) return false;
    return outer.some((b) => inside(centre, b));
  };
  const walls: Box[] = [];
  const roof: Box[] = [];
  // Runs along x, merged across z, for each horizontal layer of cells.
  for (let j = 0; j < ys.length - 1; j++) {
    let open: Array<{ i0: number; i1: number; k0: number; k1: number }> = [];
    const done: Array<{ i0: number; i1: number; k0: number; k1: number }> = [];
    for (let k = 0; k < zs.length - 1; k++) {
      const runs: Array<{ i0: number; i1: number }> = [];
      for (let i = 0; i < xs.length - 1; i++) {
        if (!solid(i, j, k)) continue;
        const last = runs[runs.length - 1];
        if (last && last.i1 === i) last.i1 = i + 1;
        else runs.push({ i0: i, i1: i + 1 });
      }
      const next: typeof open = [];
      for (const r of runs) {
        const cont = open.find((o) => o.i0 === r.i0 && o.i1 === r.i1 && o.k1 === k);
        if (cont) {
          cont.k1 = k + 1;
          next.push(cont);
        } else next.push({ ...r, k0: k, k1: k + 1 });
      }
      for (const o of open) if (!next.includes(o)) done.push(o);
      open = next;
    }
    done.push(...open);
    for (const o of done) {
      const box: Box = { min: [xs[o.i0], ys[j], zs[o.k0]], max: [xs[o.i1], ys[j + 1], zs[o.k1]] };
      (ys[j] >= c.height - EPS ? roof : walls).push(box);
    }
  }
  return { walls, roof };
}

/** Box shapes (world coordinates, for a body at the origin) of a list of boxes. */
export function boxShapes(boxes: Box[]): ShapeSpec[] {
  return boxes.map((b) => ({
    type: 'box',
    half: [(b.max[0] - b.min[0]) / 2, (b.max[1] - b.min[1]) / 2, (b.max[2] - b.min[2]) / 2],
    pose: { p: [(b.max[0] + b.min[0]) / 2, (b.max[1] + b.min[1]) / 2, (b.max[2] + b.min[2]) / 2], q: [0, 0, 0, 1] },
  }));
}

/** The rod's shapes in its own frame: a cylinder along x and a ball at each end. */
export function rodShapes(rod: M2Scene['rod']): ShapeSpec[] {
  const h = rod.axisLength / 2;
  const I: Quat = [0, 0, 0, 1];
  return [
    { type: 'cylinder', radius: rod.radius, halfHeight: h, pose: { p: [0, 0, 0], q: [0, 0, -Math.SQRT1_2, Math.SQRT1_2] } },
    { type: 'ball', radius: rod.radius, pose: { p: [h, 0, 0], q: I } },
    { type: 'ball', radius: rod.radius, pose: { p: [-h, 0, 0], q: I } },
  ];
}

/** The orientation taking the rod's x axis onto the axis-aligned direction `d` (no roll). */
export function alongQuat(d: Vec3): Quat {
  const H = Math.SQRT1_2;
  const k = axisOf(d);
  const s = Math.sign(d[k]);
  if (k === 0) return s > 0 ? [0, 0, 0, 1] : [0, 1, 0, 0];
  if (k === 2) return s > 0 ? [0, -H, 0, H] : [0, H, 0, H];
  return s > 0 ? [0, 0, H, H] : [0, 0, -H, H];
}

/** The rod's two axis end points at a pose. */
export function rodEnds(rod: M2Scene['rod'], pose: Pose): [Vec3, Vec3] {
  const h = rod.axisLength / 2;
  return [transformPoint(pose, [h, 0, 0]), transformPoint(pose, [-h, 0, 0])];
}

/** Whether the whole rod is beyond the exit plane. */
export function rodOut(s: M2Scene, pose: Pose): boolean {
  const { point, out } = exitPlane(s.corridor);
  return rodEnds(s.rod, pose).every((e) => (e[0] - point[0]) * out[0] + (e[1] - point[1]) * out[1] + (e[2] - point[2]) * out[2] >= s.rod.radius);
}

/** The turn between two rod orientations, ignoring roll and end-for-end flips: the angle between their axes. */
export function rodTurn(a: Quat, b: Quat): number {
  const u = qrotate(a, [1, 0, 0]);
  const v = qrotate(b, [1, 0, 0]);
  return Math.acos(Math.min(1, Math.abs(u[0] * v[0] + u[1] * v[1] + u[2] * v[2])));
}

/** Goal poses beyond the exit: the rod along the exit direction, either end first. */
export function goalPoses(s: M2Scene): Pose[] {
  const { point, out } = exitPlane(s.corridor);
  const c: Vec3 = [0, 1, 2].map((j) => point[j] + out[j] * (s.rod.length / 2 + 0.03)) as Vec3;
  const q = alongQuat(out);
  // The same line, the other end first: a half turn about an axis across the rod.
  const flip = qnormalize(qmul(q, qaxisAngle([0, 0, 1], Math.PI)));
  return [
    { p: c, q },
    { p: [...c] as Vec3, q: flip },
  ];
}

/** The orientation taking the rod's x axis onto the unit vector `u` (shortest turn). */
function towardQuat(u: Vec3): Quat {
  const d = u[0];
  if (d > 1 - 1e-12) return [0, 0, 0, 1];
  if (d < -1 + 1e-12) return [0, 1, 0, 0];
  // Axis x × u, angle acos(d): the half-angle form avoids trigonometry.
  const q: Quat = [0, -u[2], u[1], 1 + d];
  return qnormalize(q);
}

/**
 * The tightest pose of a bend: the rod's axis at 45° across the bend's plane, its projection
 * tangent to the rounded inner corner with its ends on the outer walls' offsets (the critical
 * segment of `scene.ts`), tilted across the plane just enough for its projection to fit.
 */
export function bendPose(s: M2Scene, k: number): Pose {
  const c = s.corridor;
  const d0 = segmentDirection(c.points, k - 1);
  const d1 = segmentDirection(c.points, k);
  const s0 = segmentSection(c, k - 1);
  const s1 = segmentSection(c, k);
  const i0 = axisOf(d0);
  const i1 = axisOf(d1);
  const across = 3 - i0 - i1;
  const a = s0[i1];
  const h = Math.max(s0[across], s1[across]);
  const r = s.rod.radius;
  // Tilt across the plane to use most of the height (keeping half the slack), then move the
  // line off the rounded corner by a quarter of what the projection leaves free.
  const flat = Math.SQRT2 * (2 * a - (2 + Math.SQRT2) * r);
  const L = s.rod.axisLength;
  const sin = Math.min(1, (Math.max(0, h - 2 * r) * (1 - s.slack / 2)) / L);
  const cos = Math.sqrt(1 - sin * sin);
  const e = Math.max(0, (flat - L * cos) / 4);
  // The tangent point on the rounded inner corner, shifted toward the outer corner by e.
  const w = (a - Math.SQRT2 * r) / 2 - e / Math.SQRT2;
  const p = c.points[k];
  const mid: Vec3 = [0, 1, 2].map((j) => p[j] - w * d0[j] + w * d1[j]) as Vec3;
  const n: Vec3 = [0, 0, 0];
  n[across] = 1;
  const axis: Vec3 = [0, 1, 2].map((j) => (cos * (d0[j] + d1[j])) / Math.SQRT2 + sin * n[j]) as Vec3;
  const len = Math.hypot(...axis);
  return { p: mid, q: towardQuat([axis[0] / len, axis[1] / len, axis[2] / len]) };
}

/**
 * The route the reference follows: the start, then at every bend the rod along the incoming
 * segment just before it, at the bend's tightest pose, and along the outgoing segment just after
 * it, then the goal beyond the exit.
 */
export function routePoses(s: M2Scene): Pose[] {
  const c = s.corridor;
  const out: Pose[] = [s.start];
  const half = s.rod.length / 2;
  for (let k = 1; k < c.points.length - 1; k++) {
    const d0 = segmentDirection(c.points, k - 1);
    const d1 = segmentDirection(c.points, k);
    const p = c.points[k];
    out.push({ p: [p[0] - d0[0] * half, p[1] - d0[1] * half, p[2] - d0[2] * half], q: alongQuat(d0) });
    out.push(bendPose(s, k));
    out.push({ p: [p[0] + d1[0] * half, p[1] + d1[1] * half, p[2] + d1[2] * half], q: alongQuat(d1) });
  }
  out.push(goalPoses(s)[0]);
  return out;
}

/** Whether a point is in the corridor's free space or beyond its exit. */
export function inFreeSpace(c: M2Scene['corridor'], p: Vec3): boolean {
  return beyondExit(c, p) || freeBoxes(c).some((b) => inside(p, b));
}

/** The smallest and largest corner of the corridor's shell and of the open area beyond its exit. */
export function sceneBounds(s: M2Scene): Box {
  const free = freeBoxes(s.corridor);
  const { point, out } = exitPlane(s.corridor);
  const last = free[free.length - 1];
  const reach = s.rod.length + 0.12;
  const exitArea: Box = {
    min: last.min.map((v, j) => (out[j] < -0.5 ? point[j] - reach : out[j] > 0.5 ? point[j] : v - 0.06)) as Vec3,
    max: last.max.map((v, j) => (out[j] > 0.5 ? point[j] + reach : out[j] < -0.5 ? point[j] : v + 0.06)) as Vec3,
  };
  const all = [...free.map((b) => ({ min: b.min.map((v) => v - WALL) as Vec3, max: b.max.map((v) => v + WALL) as Vec3 })), exitArea];
  return {
    min: [0, 1, 2].map((j) => Math.min(...all.map((b) => b.min[j]))) as Vec3,
    max: [0, 1, 2].map((j) => Math.max(...all.map((b) => b.max[j]))) as Vec3,
  };
}

/** The first camera's azimuth, degrees (0 looks from +z, 90 from +x); the same for every seed. */
export const FIRST_AZIMUTH = 30;

/**
 * Where the frame arrows stand: on the floor round the closed end, at one of four spots (behind
 * the closed end on either side, beside the first stretch's start on either side): the one
 * nearest the first camera among those with no stretch of corridor just in front of them as the
 * camera sees them. Both rulers start at the closed end and their labels float at the walls' top
 * height, so on screen they fall beyond their foot, away from the camera, and walls hide only
 * what lies beyond them: a spot on the camera's side of the closed end is clear of both. At the
 * fixed spot behind the closed end the arrows lay under both rulers' "0" plates (issue 32).
 */
export function frameArrowPoint(c: M2Scene['corridor']): Vec3 {
  const d0 = segmentDirection(c.points, 0);
  const d1 = segmentDirection(c.points, 1);
  const p0 = c.points[0];
  // Far enough out that the labels' plates (3 cm out from the walls' top edge) stay clear of
  // the +y arrow, whose head stands as high as the walls.
  const side = c.width / 2 + WALL + 0.12;
  const back = WALL + 0.12;
  const a = (FIRST_AZIMUTH * Math.PI) / 180;
  const u = [Math.sin(a), Math.cos(a)];
  const spots: Vec3[] = [
    [-back, -side],
    [-back, side],
    [0.15, -side],
    [0.15, side],
  ].map(([along, across]): Vec3 => [p0[0] + d0[0] * along + d1[0] * across, 0.002, p0[2] + d0[2] * along + d1[2] * across]);
  // The corridor's centre line, every 2 cm, on the floor.
  const line: [number, number][] = [];
  for (let k = 0; k + 1 < c.points.length; k++) {
    const [p, q] = [c.points[k], c.points[k + 1]];
    const n = Math.max(1, Math.ceil(Math.hypot(q[0] - p[0], q[2] - p[2]) / 0.02));
    for (let t = 0; t <= n; t++) line.push([p[0] + ((q[0] - p[0]) * t) / n, p[2] + ((q[2] - p[2]) * t) / n]);
  }
  const ahead = (v: Vec3, x: number, z: number): number => (x - v[0]) * u[0] + (z - v[2]) * u[1];
  const across = (v: Vec3, x: number, z: number): number => Math.abs((x - v[0]) * u[1] - (z - v[2]) * u[0]);
  // A stretch of corridor up to 30 cm in front of the spot (toward the camera) and within its
  // walls' reach sideways stands between the camera and the arrows (which point toward it).
  const blocked = (v: Vec3): boolean => line.some(([x, z]) => ahead(v, x, z) > 0 && ahead(v, x, z) < 0.3 && across(v, x, z) < c.width / 2 + WALL + 0.08);
  const score = (v: Vec3): number => ahead(p0, v[0], v[2]);
  const open = spots.filter((v) => !blocked(v));
  // Ties (to a micrometre) go to the earlier spot, so the choice is the same on every machine.
  return (open.length ? open : spots).reduce((best, v) => (score(v) > score(best) + 1e-6 ? v : best));
}
