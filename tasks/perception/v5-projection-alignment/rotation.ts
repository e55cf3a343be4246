/**
 * Exact rotation arithmetic for V5: the 24 discrete actions, their composition in the world
 * frame (R ← Q(a)·R) and the working frame of the `+rot` lever.
 *
 * Rotations are unit quaternions `[x, y, z, w]` in double precision. No `Math.sin`/`Math.cos`
 * is evaluated here: the half-angle sines and cosines of the four step sizes are written out
 * as literals, so every engine composes bit-identical poses, and an action followed by its
 * inverse multiplies by exactly conjugate quaternions.
 */

import { qmul as worldQmul } from '../../../sim/math.ts';

/** A unit quaternion `[x, y, z, w]`. */
export type Quaternion = [number, number, number, number];

/** A 3×3 rotation matrix, row-major. */
export type Matrix3 = [number, number, number, number, number, number, number, number, number];

/** The step sizes an action may take, degrees. */
export const ANGLES_DEG = [1, 5, 10, 30] as const;
/** A step size. */
export type AngleDeg = (typeof ANGLES_DEG)[number];
/** The three rotation axes by name: x points right in the view, y up, z toward the viewer. */
export const AXES = ['x', 'y', 'z'] as const;
/** An axis name. */
export type AxisName = (typeof AXES)[number];
/** The two turning directions (right-hand rule about the axis). */
export const DIRECTIONS = ['+', '-'] as const;
/** A direction. */
export type Direction = (typeof DIRECTIONS)[number];

/** One of the 24 discrete rotations. */
export interface Action {
  axis: AxisName;
  direction: Direction;
  angle: AngleDeg;
}

/** cos and sin of half of each step size (0.5°, 2.5°, 5°, 15°), as exact literals. */
const HALF: Record<AngleDeg, [number, number]> = {
  1: [0.9999619230641713, 0.008726535498373935],
  5: [0.9990482215818578, 0.043619387365336],
  10: [0.9961946980917455, 0.08715574274765817],
  30: [0.9659258262890683, 0.25881904510252074],
};

/** The identity rotation. */
export const IDENTITY: Quaternion = [0, 0, 0, 1];

/** Hamilton product a ⊗ b (apply b first, then a), in double precision. */
export function qmul(a: readonly number[], b: readonly number[]): Quaternion {
  return worldQmul(a as Quaternion, b as Quaternion);
}

/** The conjugate (inverse of a unit quaternion). */
export function qconjugate(q: readonly number[]): Quaternion {
  return [-q[0], -q[1], -q[2], q[3]];
}

/**
 * Scales to unit length. `Math.sqrt` is correctly rounded on every engine, so normalising
 * keeps composition deterministic while stopping drift over many steps.
 */
export function qnormalize(q: readonly number[]): Quaternion {
  const n = Math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
}

/** The rotation matrix of a unit quaternion (row-major). */
export function qmatrix(q: readonly number[]): Matrix3 {
  const [x, y, z, w] = q;
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
    2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
    2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y),
  ];
}

/** Rotates a vector by a unit quaternion. */
export function qrotate(q: readonly number[], v: readonly number[]): [number, number, number] {
  const m = qmatrix(q);
  return [
    m[0] * v[0] + m[1] * v[1] + m[2] * v[2],
    m[3] * v[0] + m[4] * v[1] + m[5] * v[2],
    m[6] * v[0] + m[7] * v[1] + m[8] * v[2],
  ];
}

/** Rotation angle of a unit quaternion, degrees in [0, 180]. */
export function qangleDeg(q: readonly number[]): number {
  const v = Math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
  return (2 * Math.atan2(v, Math.abs(q[3])) * 180) / Math.PI;
}

/** The quaternion of an action about the plain view axes (no working frame). */
export function baseActionQuaternion(a: Action): Quaternion {
  const [c, s] = HALF[a.angle];
  const signed = a.direction === '+' ? s : -s;
  const q: Quaternion = [0, 0, 0, c];
  q[AXES.indexOf(a.axis)] = signed;
  return q;
}

/** All 24 actions in a fixed order: axis x, y, z; direction +, −; angle 1, 5, 10, 30. */
export const ACTIONS: readonly Action[] = AXES.flatMap((axis) =>
  DIRECTIONS.flatMap((direction) => ANGLES_DEG.map((angle) => ({ axis, direction, angle }))),
);

/** The action that undoes `a`. */
export function inverseAction(a: Action): Action {
  return { axis: a.axis, direction: a.direction === '+' ? '-' : '+', angle: a.angle };
}

/** A short label such as `y+10`. */
export function actionLabel(a: Action): string {
  return `${a.axis}${a.direction}${a.angle}`;
}

/** Index of an action in {@link ACTIONS}. */
export function actionIndex(a: Action): number {
  return ACTIONS.findIndex((b) => b.axis === a.axis && b.direction === a.direction && b.angle === a.angle);
}

/**
 * The orientation of the working frame whose axes the actions turn about: the identity, or
 * for the `+rot` lever the view frame turned by `yawSteps` about the vertical axis and then
 * by `pitchSteps` about the turned horizontal axis. Each list holds step sizes of the same
 * sign as the turn (e.g. 40° = 30° + 10°), so the frame too is built without trigonometry.
 */
export interface WorkingFrame {
  /** Signed degrees about the vertical (view y) axis, as a sum of step sizes. */
  yawDeg: number;
  /** Signed degrees about the turned horizontal axis. */
  pitchDeg: number;
}

/** Splits |deg| into step sizes, largest first (deg must be a multiple of 5, or of 1). */
function stepsOf(deg: number): AngleDeg[] {
  const out: AngleDeg[] = [];
  let left = Math.abs(deg);
  for (const s of [30, 10, 5, 1] as const) {
    while (left >= s) {
      out.push(s);
      left -= s;
    }
  }
  return out;
}

/** The quaternion of a working frame (identity for yaw = pitch = 0). */
export function frameQuaternion(frame: WorkingFrame | null): Quaternion {
  if (!frame) return IDENTITY;
  let q: Quaternion = IDENTITY;
  const dirOf = (d: number): Direction => (d >= 0 ? '+' : '-');
  // Intrinsic order: first about the view's vertical, then about the turned x axis (right-multiplied).
  for (const angle of stepsOf(frame.yawDeg)) q = qmul(q, baseActionQuaternion({ axis: 'y', direction: dirOf(frame.yawDeg), angle }));
  for (const angle of stepsOf(frame.pitchDeg)) q = qmul(q, baseActionQuaternion({ axis: 'x', direction: dirOf(frame.pitchDeg), angle }));
  return qnormalize(q);
}

/**
 * The 24 action quaternions in a working frame W: Q'(a) = W·Q(a)·W⁻¹, in {@link ACTIONS} order.
 * With no frame these are the plain axis rotations.
 */
export function actionQuaternions(frame: WorkingFrame | null): Quaternion[] {
  const w = frameQuaternion(frame);
  const wi = qconjugate(w);
  return ACTIONS.map((a) => {
    const base = baseActionQuaternion(a);
    return frame ? qnormalize(qmul(qmul(w, base), wi)) : base;
  });
}

/** Applies an action quaternion in the world frame: R ← Q·R, normalised. */
export function applyRotation(q: readonly number[], pose: readonly number[]): Quaternion {
  return qnormalize(qmul(q, pose));
}

/** Largest absolute difference between two rotations (sign of the quaternion ignored). */
export function rotationDistance(a: readonly number[], b: readonly number[]): number {
  const ma = qmatrix(a);
  const mb = qmatrix(b);
  let d = 0;
  for (let i = 0; i < 9; i++) d = Math.max(d, Math.abs(ma[i] - mb[i]));
  return d;
}
