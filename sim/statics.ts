/**
 * Statics judgements of the world (split from `sim/world.ts`), shared by loose blocks and bricks
 * alike: whether a structure stood through a settle, held a load, or where a load ramp made it
 * give way. Motion is measured by the largest displacement of a corner of a body's bounding box,
 * so a turn counts by how far it moves the body's points. The world runs the simulation; these
 * functions only compare its samples and word the result.
 */
import { qangle, vdist } from './math.ts';
import type { Pose, Vec3, Violation } from './types.ts';
import type { LoadTestResult, RampLoadResult } from './world-types.ts';

/** A body's pose and bounding-box corners at one instant. */
export interface BodyMotionSample {
  pose: Pose;
  corners: Vec3[];
}

/** Largest distance between corresponding corners. */
export function cornerShift(a: Vec3[], b: Vec3[]): number {
  return Math.max(...a.map((c, i) => vdist(c, b[i])));
}

/** Thresholds of a settle (see `SettleOptions`); angles Infinity when not tested. */
export interface SettleThresholds {
  seconds: number;
  linearTol: number;
  angularTolDeg: number;
  settleTol: number;
  settleAngleDeg: number;
}

/**
 * Judges a settle from samples at its start, half-way and end: a body fails when it is still
 * moving (second-half motion above `linearTol` and above half its first-half motion, or the same
 * for its rotation) or ends displaced by more than `settleTol` (`settleAngleDeg`).
 */
export function judgeSettle(watch: string[], start: Map<string, BodyMotionSample>, rested: Map<string, BodyMotionSample>, end: Map<string, BodyMotionSample>, t: SettleThresholds): Violation | null {
  const moved: Array<{ name: string; dist: number; angle: number; still: boolean }> = [];
  const deg = (a: Pose, b: Pose): number => (qangle(a.q, b.q) * 180) / Math.PI;
  for (const n of watch) {
    const [a, r, b] = [start.get(n)!, rested.get(n)!, end.get(n)!];
    const early = cornerShift(a.corners, r.corners);
    const late = cornerShift(r.corners, b.corners);
    const earlyAngle = deg(a.pose, r.pose);
    const lateAngle = deg(r.pose, b.pose);
    const dist = cornerShift(a.corners, b.corners);
    const angle = deg(a.pose, b.pose);
    const moving = (late > t.linearTol && late > early / 2) || (lateAngle > t.angularTolDeg && lateAngle > earlyAngle / 2);
    const displaced = dist > t.settleTol || angle > t.settleAngleDeg;
    if (moving || displaced) moved.push({ name: n, dist, angle, still: !moving });
  }
  if (!moved.length) return null;
  moved.sort((a, b) => b.dist - a.dist || b.angle - a.angle || (a.name < b.name ? -1 : 1));
  const parts = moved.slice(0, 5).map((m) => `'${m.name}' moved ${(m.dist * 1000).toFixed(1)} mm and turned ${m.angle.toFixed(1)}°${m.still ? ' before coming to rest' : ''}`);
  return {
    kind: 'statics',
    bodies: moved.map((m) => m.name),
    message: `Not stable: within ${t.seconds} s ${parts.join(', ')}${moved.length > 5 ? ` (and ${moved.length - 5} more)` : ''}.`,
  };
}

/** Judges a held load from the watched bodies' corners before and after. */
export function judgeLoad(body: string, force: Vec3, seconds: number, linearTol: number, before: Map<string, Vec3[]>, after: Map<string, Vec3[]>): LoadTestResult {
  const moved: Array<{ name: string; d: number }> = [];
  let maxDisplacement = 0;
  for (const [n, c0] of before) {
    const d = cornerShift(c0, after.get(n)!);
    maxDisplacement = Math.max(maxDisplacement, d);
    if (d > linearTol) moved.push({ name: n, d });
  }
  moved.sort((a, b) => b.d - a.d || (a.name < b.name ? -1 : 1));
  const held = moved.length === 0;
  const magnitude = Math.hypot(force[0], force[1], force[2]);
  const message = held
    ? `Held: a ${magnitude.toFixed(2)} N load on '${body}' for ${seconds} s moved nothing more than ${(linearTol * 1000).toFixed(1)} mm.`
    : `Failed: under a ${magnitude.toFixed(2)} N load on '${body}', ${moved.slice(0, 5).map((m) => `'${m.name}' moved ${(m.d * 1000).toFixed(1)} mm`).join(', ')}.`;
  return { held, maxDisplacement, moved: moved.map((m) => m.name), message };
}

/** Judges a load ramp: where (if anywhere) it gave way, and the watched bodies' final displacements. */
export function judgeRamp(body: string, magnitude: number, seconds: number, linearTol: number, failure: { step: number; steps: number; timestep: number } | null, displacements: Array<{ name: string; d: number }>): RampLoadResult {
  const moved = displacements.filter((m) => m.d > linearTol).sort((a, b) => b.d - a.d || (a.name < b.name ? -1 : 1));
  const failureForce = failure === null ? null : (magnitude * failure.step) / failure.steps;
  const elapsed = failure === null ? seconds : failure.step * failure.timestep;
  const message =
    failureForce === null
      ? `Held: a load on '${body}' ramped to ${magnitude.toFixed(2)} N over ${seconds} s moved nothing more than ${(linearTol * 1000).toFixed(1)} mm.`
      : `Gave way at ${failureForce.toFixed(2)} N (after ${elapsed.toFixed(2)} s of the ramp): ${moved.slice(0, 5).map((m) => `'${m.name}' moved ${(m.d * 1000).toFixed(1)} mm`).join(', ')}.`;
  return { gaveWay: failureForce !== null, failureForce, seconds: elapsed, moved: moved.map((m) => m.name), message };
}
