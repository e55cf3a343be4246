/**
 * M4 geometry derived from the scene: the wire's and the ring's shapes, the ring's linking with
 * the wire (the topology the world keeps), the route along the wire, and the goal.
 */
import { qnormalize, qrotate, vdist } from '../../../sim/math.ts';
import type { Pose, Quat, ShapeSpec, Vec3 } from '../../../sim/types.ts';
import type { M4Scene } from './scene.ts';

function sub(a: Vec3, b: Vec3): Vec3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}
function dot(a: Vec3, b: Vec3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
function unit(a: Vec3): Vec3 {
  const n = Math.hypot(...a);
  return [a[0] / n, a[1] / n, a[2] / n];
}

/** The orientation taking local +y onto the unit vector `u` (shortest turn). */
export function yToward(u: Vec3): Quat {
  if (u[1] > 1 - 1e-12) return [0, 0, 0, 1];
  if (u[1] < -1 + 1e-12) return [1, 0, 0, 0];
  return qnormalize([u[2], 0, -u[0], 1 + u[1]]);
}

/** The wire's shapes (world coordinates, for a body at the origin): a cylinder per stretch and a ball at every bend and at the free end. */
export function wireShapes(w: M4Scene['wire']): ShapeSpec[] {
  const out: ShapeSpec[] = [];
  for (let i = 0; i + 1 < w.points.length; i++) {
    const a = w.points[i];
    const b = w.points[i + 1];
    const len = vdist(a, b);
    out.push({ type: 'cylinder', radius: w.radius, halfHeight: len / 2, pose: { p: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2], q: yToward(unit(sub(b, a))) } });
    out.push({ type: 'ball', radius: w.radius, pose: { p: [...b], q: [0, 0, 0, 1] } });
  }
  return out;
}

/** The ring's pieces in its own frame: straight square-section boxes around the y axis, meeting without gaps at the outside. */
export function ringShapes(r: M4Scene['ring']): ShapeSpec[] {
  const out: ShapeSpec[] = [];
  const halfLen = (r.radius + r.halfThickness) * Math.tan(Math.PI / r.pieces);
  for (let k = 0; k < r.pieces; k++) {
    const th = (2 * Math.PI * k) / r.pieces;
    // Each piece's long side (its z) along the circle's tangent (−sin θ, 0, cos θ): a turn of −θ about y.
    out.push({
      type: 'box',
      half: [r.halfThickness, r.halfThickness, halfLen],
      pose: { p: [r.radius * Math.cos(th), 0, r.radius * Math.sin(th)], q: [0, Math.sin(-th / 2), 0, Math.cos(-th / 2)] },
    });
  }
  return out;
}

/** The free end: its point and outward direction. */
export function freeEnd(w: M4Scene['wire']): { point: Vec3; out: Vec3 } {
  const n = w.points.length;
  return { point: w.points[n - 1], out: unit(sub(w.points[n - 1], w.points[n - 2])) };
}

/** How many times the wire's centre line crosses the ring's disc (the flat disc inside its centre circle). */
export function crossings(s: M4Scene, pose: Pose): number {
  const axis = qrotate(pose.q, [0, 1, 0]);
  const c = pose.p;
  let n = 0;
  const pts = s.wire.points;
  for (let i = 0; i + 1 < pts.length; i++) {
    const da = dot(sub(pts[i], c), axis);
    const db = dot(sub(pts[i + 1], c), axis);
    if ((da > 0 && db > 0) || (da < 0 && db < 0) || da === db) continue;
    // The stretch meets the ring's plane; count it when it is inside the disc. A stretch ending
    // exactly on the plane counts at its start only (da === 0), so a vertex is not counted twice.
    if (db === 0) continue;
    const t = da / (da - db);
    const x: Vec3 = [pts[i][0] + t * (pts[i + 1][0] - pts[i][0]), pts[i][1] + t * (pts[i + 1][1] - pts[i][1]), pts[i][2] + t * (pts[i + 1][2] - pts[i][2])];
    if (vdist(x, c) < s.ring.radius) n++;
  }
  return n;
}

/** Whether the ring is on the wire: the wire passes through its disc (an odd number of times). */
export function linked(s: M4Scene, pose: Pose): boolean {
  return crossings(s, pose) % 2 === 1;
}

/** How far the ring's centre is past the free end's plane, metres (negative: not yet). */
export function pastEnd(s: M4Scene, pose: Pose): number {
  const { point, out } = freeEnd(s.wire);
  return dot(sub(pose.p, point), out);
}

/**
 * Where the ring may be off the wire: at the free end (its centre within the ring's radius plus
 * 3 cm of the end point) or past it. Anywhere else, off the wire means through the wire.
 */
export function offWireAllowed(s: M4Scene, pose: Pose): boolean {
  return pastEnd(s, pose) > 0 || vdist(pose.p, freeEnd(s.wire).point) < s.ring.radius + 0.03;
}

/** Solved: the ring is off the wire and its centre past the free end. */
export function ringFree(s: M4Scene, pose: Pose): boolean {
  return !linked(s, pose) && pastEnd(s, pose) > 0;
}

/** The direction of the wire at point i (the mean of its neighbouring stretches). */
function tangentAt(pts: Vec3[], i: number): Vec3 {
  const a = pts[Math.max(0, i - 1)];
  const b = pts[Math.min(pts.length - 1, i + 1)];
  return unit(sub(b, a));
}

/** The goal: the ring's centre a little past the free end, square to the wire's last stretch. */
export function goalPose(s: M4Scene): Pose {
  const { point, out } = freeEnd(s.wire);
  const d = s.ring.radius + 2 * s.ring.halfThickness + 0.03;
  return { p: [point[0] + out[0] * d, point[1] + out[1] * d, point[2] + out[2] * d], q: yToward(out) };
}

/** The route: the ring centred on the wire, square to it, from the start to the free end, then to the goal. */
export function routePoses(s: M4Scene): Pose[] {
  const pts = s.wire.points;
  // The wire point nearest the start: the route begins there.
  let first = 0;
  for (let i = 1; i < pts.length; i++) if (vdist(pts[i], s.start.p) < vdist(pts[first], s.start.p)) first = i;
  const out: Pose[] = [s.start];
  for (let i = first + 1; i < pts.length; i++) out.push({ p: [...pts[i]], q: yToward(tangentAt(pts, i)) });
  out.push(goalPose(s));
  return out;
}

/** The turn between two ring orientations, ignoring spin about the ring's axis and flips: the angle between their axes. */
export function ringTurn(a: Quat, b: Quat): number {
  const u = qrotate(a, [0, 1, 0]);
  const v = qrotate(b, [0, 1, 0]);
  return Math.acos(Math.min(1, Math.abs(dot(u, v))));
}

/** Distance from a point to the wire's centre line. */
export function distanceToWire(s: M4Scene, p: Vec3): number {
  let best = Infinity;
  const pts = s.wire.points;
  for (let i = 0; i + 1 < pts.length; i++) {
    const ab = sub(pts[i + 1], pts[i]);
    const t = Math.max(0, Math.min(1, dot(sub(p, pts[i]), ab) / dot(ab, ab)));
    best = Math.min(best, vdist(p, [pts[i][0] + t * ab[0], pts[i][1] + t * ab[1], pts[i][2] + t * ab[2]]));
  }
  return best;
}
