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
export function judgeSettle(
  watch: string[],
  start: Map<string, BodyMotionSample>,
  rested: Map<string, BodyMotionSample>,
  end: Map<string, BodyMotionSample>,
  t: SettleThresholds,
  /** How the message names a body, quotes included (the world's spoken names). */
  say: (name: string) => string = (n) => `'${n}'`,
): Violation | null {
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
  // The message names the bodies and whether they came to rest, never how far they moved: a
  // distance or angle in the text would tell a sightless prober what the picture shows (issue 36).
  const parts = moved.slice(0, 5).map((m) => `${say(m.name)} ${m.still ? 'shifted before coming to rest' : 'kept moving'}`);
  return {
    kind: 'statics',
    bodies: moved.map((m) => m.name),
    message: `Not stable: ${parts.join(', ')}${moved.length > 5 ? ` (and ${moved.length - 5} more)` : ''}.`,
  };
}

/** Judges a held load from the watched bodies' corners before and after. */
export function judgeLoad(body: string, _force: Vec3, _seconds: number, linearTol: number, before: Map<string, Vec3[]>, after: Map<string, Vec3[]>): LoadTestResult {
  const moved: Array<{ name: string; d: number }> = [];
  let maxDisplacement = 0;
  for (const [n, c0] of before) {
    const d = cornerShift(c0, after.get(n)!);
    maxDisplacement = Math.max(maxDisplacement, d);
    if (d > linearTol) moved.push({ name: n, d });
  }
  moved.sort((a, b) => b.d - a.d || (a.name < b.name ? -1 : 1));
  const held = moved.length === 0;
  // Names only: the displacements stay in the structured fields (for logs), out of the text a
  // model reads (issue 36); the force and duration are the caller's own.
  const message = held ? `Held: the load on '${body}' moved nothing.` : `Failed: under the load on '${body}', ${moved.slice(0, 5).map((m) => `'${m.name}'`).join(', ')} moved.`;
  return { held, maxDisplacement, moved: moved.map((m) => m.name), message };
}

/** Judges a load ramp: where (if anywhere) it gave way, and the watched bodies' final displacements. */
export function judgeRamp(body: string, magnitude: number, seconds: number, linearTol: number, failure: { step: number; steps: number; timestep: number } | null, displacements: Array<{ name: string; d: number }>): RampLoadResult {
  const moved = displacements.filter((m) => m.d > linearTol).sort((a, b) => b.d - a.d || (a.name < b.name ? -1 : 1));
  const failureForce = failure === null ? null : (magnitude * failure.step) / failure.steps;
  const elapsed = failure === null ? seconds : failure.step * failure.timestep;
  // Names only: where the ramp gave way (`failureForce`, `seconds`) stays in the structured fields.
  const message =
    failureForce === null
      ? `Held: the load on '${body}' ramped to its full size and moved nothing.`
      : `Gave way under the ramped load on '${body}': ${moved.slice(0, 5).map((m) => `'${m.name}'`).join(', ')} moved.`;
  return { gaveWay: failureForce !== null, failureForce, seconds: elapsed, moved: moved.map((m) => m.name), message };
}
