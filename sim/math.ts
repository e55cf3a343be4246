/**
 * Small rigid-body math on plain tuples ({@link Vec3}, {@link Quat}, {@link Pose}).
 *
 * Everything is pure and allocation-light; quaternions are `[x, y, z, w]` (Rapier's order).
 * Interpolation in SE(3) is linear in position and spherical (slerp) in rotation, which is the
 * motion model of every swept move in the world.
 */
import type { Pose, Quat, Vec3 } from './types.ts';

/** `a + b` */
export function vadd(a: Vec3, b: Vec3): Vec3 {
  return [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
}

/** `a - b` */
export function vsub(a: Vec3, b: Vec3): Vec3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}

/** `a * s` */
export function vscale(a: Vec3, s: number): Vec3 {
  return [a[0] * s, a[1] * s, a[2] * s];
}

/** Dot product. */
export function vdot(a: Vec3, b: Vec3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/** Cross product. */
export function vcross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

/** Euclidean length. */
export function vlen(a: Vec3): number {
  return Math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

/** Distance between two points. */
export function vdist(a: Vec3, b: Vec3): number {
  return vlen(vsub(a, b));
}

/** `a + (b - a) * t` */
export function vlerp(a: Vec3, b: Vec3, t: number): Vec3 {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

/** Hamilton product `a * b` (apply `b` first, then `a`). */
export function qmul(a: Quat, b: Quat): Quat {
  const [ax, ay, az, aw] = a;
  const [bx, by, bz, bw] = b;
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}

/** Inverse of a unit quaternion. */
export function qconj(q: Quat): Quat {
  return [-q[0], -q[1], -q[2], q[3]];
}

/** Quaternion norm. */
export function qlen(q: Quat): number {
  return Math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
}

/** `q / |q|` (the caller guarantees `|q| > 0`). */
export function qnormalize(q: Quat): Quat {
  const n = qlen(q);
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
}

/** Rotates `v` by the unit quaternion `q`. */
export function qrotate(q: Quat, v: Vec3): Vec3 {
  // v' = v + 2w (u x v) + 2 u x (u x v), u = q.xyz
  const [x, y, z, w] = q;
  const tx = 2 * (y * v[2] - z * v[1]);
  const ty = 2 * (z * v[0] - x * v[2]);
  const tz = 2 * (x * v[1] - y * v[0]);
  return [
    v[0] + w * tx + (y * tz - z * ty),
    v[1] + w * ty + (z * tx - x * tz),
    v[2] + w * tz + (x * ty - y * tx),
  ];
}

/** Unit quaternion for a rotation of `angleRad` about the unit `axis`. */
export function qaxisAngle(axis: Vec3, angleRad: number): Quat {
  const s = Math.sin(angleRad / 2);
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angleRad / 2)];
}

/** Rotation angle in radians (0..π) between two unit quaternions. */
export function qangle(a: Quat, b: Quat): number {
  const d = Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);
  return 2 * Math.acos(Math.min(1, d));
}

/** Spherical interpolation along the shorter arc; `t` in 0..1. */
export function qslerp(a: Quat, b: Quat, t: number): Quat {
  let bx = b[0];
  let by = b[1];
  let bz = b[2];
  let bw = b[3];
  let cos = a[0] * bx + a[1] * by + a[2] * bz + a[3] * bw;
  if (cos < 0) {
    cos = -cos;
    bx = -bx;
    by = -by;
    bz = -bz;
    bw = -bw;
  }
  let wa: number;
  let wb: number;
  if (cos > 0.9999995) {
    // Nearly equal: linear blend then normalise (slerp's sin ratio loses precision here).
    wa = 1 - t;
    wb = t;
  } else {
    const theta = Math.acos(cos);
    const sin = Math.sin(theta);
    wa = Math.sin((1 - t) * theta) / sin;
    wb = Math.sin(t * theta) / sin;
  }
  return qnormalize([wa * a[0] + wb * bx, wa * a[1] + wb * by, wa * a[2] + wb * bz, wa * a[3] + wb * bw]);
}

/** Rotation taking the world to a pose's frame applied to a point: `pose.p + pose.q * v`. */
export function transformPoint(pose: Pose, v: Vec3): Vec3 {
  return vadd(pose.p, qrotate(pose.q, v));
}

/** Inverse of {@link transformPoint}: a world point in the pose's local frame. */
export function inverseTransformPoint(pose: Pose, v: Vec3): Vec3 {
  return qrotate(qconj(pose.q), vsub(v, pose.p));
}

/** `a ∘ b`: the pose `b` (given in `a`'s frame) expressed in `a`'s parent frame. */
export function composePose(a: Pose, b: Pose): Pose {
  return { p: transformPoint(a, b.p), q: qnormalize(qmul(a.q, b.q)) };
}

/** The inverse rigid transform. */
export function invertPose(a: Pose): Pose {
  const qi = qconj(a.q);
  return { p: vscale(qrotate(qi, a.p), -1), q: qi };
}

/** `a⁻¹ ∘ b`: `b` expressed in `a`'s frame. */
export function relativePose(a: Pose, b: Pose): Pose {
  return composePose(invertPose(a), b);
}

/** SE(3) interpolation used by swept moves: linear position, slerp rotation. */
export function interpolatePose(a: Pose, b: Pose, t: number): Pose {
  if (t <= 0) return clonePose(a);
  if (t >= 1) return clonePose(b);
  return { p: vlerp(a.p, b.p, t), q: qslerp(a.q, b.q, t) };
}

/** A deep copy. */
export function clonePose(a: Pose): Pose {
  return { p: [a.p[0], a.p[1], a.p[2]], q: [a.q[0], a.q[1], a.q[2], a.q[3]] };
}

/** Quaternion for a rotation of `deg` degrees about +Y (a yaw in the Y-up world). */
export function yawQuat(deg: number): Quat {
  // Exact values at multiples of 90° keep grid-aligned poses free of trigonometric round-off.
  const k = deg / 90;
  if (Number.isInteger(k)) {
    const h = Math.SQRT1_2;
    const table: Quat[] = [
      [0, 0, 0, 1],
      [0, h, 0, h],
      [0, 1, 0, 0],
      [0, h, 0, -h],
    ];
    return table[((k % 4) + 4) % 4];
  }
  return qaxisAngle([0, 1, 0], (deg * Math.PI) / 180);
}
