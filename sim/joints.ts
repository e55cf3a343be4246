/**
 * Joint helpers of the world (split from `sim/world.ts`): Rapier joint data from world anchors
 * and axes, motor validation and configuration, and a joint's position from its bodies' poses.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import { inverseTransformPoint, qconj, qmul, qrotate, relativePose, transformPoint, vdot, vsub } from './math.ts';
import type { Pose, Vec3 } from './types.ts';
import * as valid from './validate.ts';
import type { JointMotor, JointSpec } from './world-types.ts';

/**
 * Rapier joint data pinning two bodies (at poses `pa`, `pb`) at the world point `anchor`; `axis`
 * (world) for revolute and prismatic joints. Fixed joints keep the current relative pose.
 */
export function jointData(type: JointSpec['type'], pa: Pose, pb: Pose, anchor: Vec3, axis?: Vec3): RAPIER.JointData {
  const a1 = vector(inverseTransformPoint(pa, anchor));
  const a2 = vector(inverseTransformPoint(pb, anchor));
  const rot = (q: Pose['q']): RAPIER.Rotation => ({ x: q[0], y: q[1], z: q[2], w: q[3] });
  if (type === 'fixed') return RAPIER.JointData.fixed(a1, rot(qconj(pa.q)), a2, rot(qconj(pb.q)));
  if (type === 'spherical') return RAPIER.JointData.spherical(a1, a2);
  if (type === 'prismatic') return RAPIER.JointData.prismatic(a1, a2, vector(qrotate(qconj(pa.q), axis!)));
  return RAPIER.JointData.revoluteWithAxes(a1, a2, vector(qrotate(qconj(pa.q), axis!)), vector(qrotate(qconj(pb.q), axis!)));
}

function vector(v: Vec3): RAPIER.Vector {
  return { x: v[0], y: v[1], z: v[2] };
}

/** Displacement (m) of a prismatic joint along its axis: the anchor on B minus the anchor on A. */
export function prismaticDisplacement(pa: Pose, pb: Pose, localAxisA: Vec3, localAnchorA: Vec3, localAnchorB: Vec3): number {
  const d = vsub(transformPoint(pb, localAnchorB), transformPoint(pa, localAnchorA));
  return vdot(d, qrotate(pa.q, localAxisA));
}

/** Angle (degrees, −180..180) of a revolute joint: B's turn about the axis relative to A since `rest`. */
export function revoluteAngleDeg(pa: Pose, pb: Pose, localAxisA: Vec3, rest: Pose): number {
  // Relative rotation now against the rest relative rotation, as a twist about the axis.
  const now = relativePose(pa, pb).q;
  const delta = qmul(now, qconj(rest.q));
  const la = localAxisA;
  const twist = 2 * Math.atan2(delta[0] * la[0] + delta[1] * la[1] + delta[2] * la[2], delta[3]);
  let deg = (twist * 180) / Math.PI;
  if (deg > 180) deg -= 360;
  if (deg <= -180) deg += 360;
  return deg;
}

/** A validated copy of a joint motor (units of the joint type: degrees or metres). */
export function validMotor(value: unknown, path: string, type: 'revolute' | 'prismatic'): JointMotor {
  const m = valid.plainObject(value, path);
  const big = type === 'revolute' ? 36000 : valid.MAX_SPEED;
  const out: JointMotor = {};
  if (m.velocity !== undefined) out.velocity = valid.finiteNumber(m.velocity, `${path}.velocity`, { min: -big, max: big });
  if (m.position !== undefined) out.position = valid.finiteNumber(m.position, `${path}.position`, { min: type === 'revolute' ? -360 : -valid.MAX_POSITION, max: type === 'revolute' ? 360 : valid.MAX_POSITION });
  if (out.velocity === undefined && out.position === undefined) valid.invalid(path, 'give a velocity, a position or both', value);
  if (m.stiffness !== undefined) out.stiffness = valid.finiteNumber(m.stiffness, `${path}.stiffness`, { min: 0, max: 1e9 });
  if (m.damping !== undefined) out.damping = valid.finiteNumber(m.damping, `${path}.damping`, { min: 0, max: 1e9 });
  if (m.maxForce !== undefined) out.maxForce = valid.finiteNumber(m.maxForce, `${path}.maxForce`, { above: 0, max: 1e9 });
  return out;
}

/** Configures a Rapier unit joint's motor; `k` converts the joint's units (degrees) to Rapier's (radians). */
export function applyMotor(joint: RAPIER.UnitImpulseJoint, m: JointMotor, k: number): void {
  joint.configureMotorModel(RAPIER.MotorModel.AccelerationBased);
  const positional = m.position !== undefined;
  const stiffness = m.stiffness ?? (positional ? 1000 : 0);
  const damping = m.damping ?? (positional ? 50 : 100);
  joint.configureMotor((m.position ?? 0) * k, (m.velocity ?? 0) * k, stiffness, damping);
  joint.setMotorMaxForce(m.maxForce ?? Number.MAX_VALUE);
}
