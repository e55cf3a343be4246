import { expect } from 'chai';
import { SpaceActError } from '../core/errors.ts';
import { qaxisAngle } from '../sim/math.ts';
import { pinGear as gear } from '../sim/gears.ts';
import type { Vec3 } from '../sim/types.ts';
import { World } from '../sim/world.ts';

const I: [number, number, number, number] = [0, 0, 0, 1];

/** Unwraps a sequence of angles in degrees (each step less than 180°). */
function unwrap(samples: number[]): number[] {
  const out = [samples[0]];
  for (let i = 1; i < samples.length; i++) {
    let d = samples[i] - samples[i - 1];
    if (d > 180) d -= 360;
    if (d < -180) d += 360;
    out.push(out[i - 1] + d);
  }
  return out;
}

describe('sim: joints — prismatic, limits, motors, driven mechanisms', () => {
  let world: World;
  beforeEach(async () => {
    world = await World.create({ gravity: [0, 0, 0] });
    world.addBody({ name: 'ground', kind: 'static', pose: { p: [0, 0, 0], q: I }, shapes: [{ type: 'box', half: [0.5, 0.01, 0.5] }] });
  });
  afterEach(() => world.free());

  it('a motor-driven gear pair turns at the tooth ratio within 1 %', () => {
    const m = 0.005;
    const [za, zb] = [12, 24];
    const [ra, rb] = [(m * za) / 2, (m * zb) / 2];
    // Gear B sits on +X; a tooth of A points at it (angle 0), B shows it a gap (half a pitch off π).
    world.addBody({ name: 'A', kind: 'dynamic', pose: { p: [0, 0.1, 0], q: I }, shapes: gear(za, m, 0), material: { friction: 0 } });
    world.addBody({ name: 'B', kind: 'dynamic', pose: { p: [ra + rb, 0.1, 0], q: I }, shapes: gear(zb, m, Math.PI + Math.PI / zb), material: { friction: 0 } });
    world.addJoint({ name: 'axleA', type: 'revolute', bodyA: 'ground', bodyB: 'A', anchor: [0, 0.1, 0], axis: [0, 1, 0], contacts: false, motor: { velocity: 90, damping: 200 } });
    world.addJoint({ name: 'axleB', type: 'revolute', bodyA: 'ground', bodyB: 'B', anchor: [ra + rb, 0.1, 0], axis: [0, 1, 0], contacts: false });
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i <= 120; i++) {
      a.push(world.jointPosition('axleA'));
      b.push(world.jointPosition('axleB'));
      world.advance(1 / 40);
    }
    const ua = unwrap(a);
    const ub = unwrap(b);
    // Judge after the first half second (the motor spins up, backlash closes).
    const turnedA = ua[ua.length - 1] - ua[20];
    const turnedB = ub[ub.length - 1] - ub[20];
    expect(turnedA).to.be.closeTo(90 * 2.5, 90 * 2.5 * 0.05);
    const ratio = turnedB / turnedA;
    expect(ratio).to.be.closeTo(-za / zb, (za / zb) * 0.01);
  });

  it('a prismatic joint slides along its axis only and stops at its limits', () => {
    const axis: Vec3 = [1, 0, 1].map((x) => x / Math.SQRT2) as Vec3;
    world.addBody({ name: 'slider', kind: 'dynamic', pose: { p: [0, 0.1, 0], q: I }, shapes: [{ type: 'box', half: [0.02, 0.02, 0.02] }] });
    world.addJoint({ name: 'rail', type: 'prismatic', bodyA: 'ground', bodyB: 'slider', anchor: [0, 0.1, 0], axis, limits: [-0.05, 0.1], motor: { velocity: 0.2 }, contacts: false });
    let most = -Infinity;
    for (let i = 0; i < 60; i++) {
      world.advance(1 / 30);
      most = Math.max(most, world.jointPosition('rail'));
    }
    // 0.2 m/s for 2 s would be 0.4 m: the upper limit holds it at 0.1 m.
    expect(world.jointPosition('rail')).to.be.closeTo(0.1, 0.001);
    expect(most).to.be.at.most(0.1 + 0.001);
    const p = world.getPose('slider');
    // Along the axis, not off it, and not turned.
    expect(p.p[0]).to.be.closeTo(0.1 * axis[0], 0.001);
    expect(p.p[2]).to.be.closeTo(0.1 * axis[2], 0.001);
    expect(p.p[1]).to.be.closeTo(0.1, 0.001);
    // Reversed, it runs to the lower limit.
    world.setJointMotor('rail', { velocity: -0.2 });
    world.advance(2);
    expect(world.jointPosition('rail')).to.be.closeTo(-0.05, 0.001);
    // A position motor holds it where it is told.
    world.setJointMotor('rail', { position: 0.03, stiffness: 400, damping: 40 });
    world.advance(2);
    expect(world.jointPosition('rail')).to.be.closeTo(0.03, 0.001);
    expect(world.jointSpec('rail').motor).to.deep.equal({ position: 0.03, stiffness: 400, damping: 40 });
  });

  it('a lever falls to its revolute limit under gravity; a position motor lifts it to 45°', async () => {
    const w = await World.create();
    try {
      w.addBody({ name: 'post', kind: 'static', pose: { p: [0, 0.5, 0], q: I }, shapes: [{ type: 'box', half: [0.01, 0.01, 0.01] }] });
      w.addBody({ name: 'lever', kind: 'dynamic', pose: { p: [0.2, 0.5, 0], q: I }, shapes: [{ type: 'box', half: [0.2, 0.01, 0.01] }] });
      // Hinge about +Z at the post: gravity turns the lever's free end down, i.e. negative angles.
      w.addJoint({ name: 'hinge', type: 'revolute', bodyA: 'post', bodyB: 'lever', anchor: [0, 0.5, 0], axis: [0, 0, 1], limits: [-30, 30], contacts: false });
      w.advance(2);
      expect(w.jointPosition('hinge')).to.be.closeTo(-30, 1);
      w.setJointMotor('hinge', { position: 45, stiffness: 1e5, damping: 2000 });
      w.advance(2);
      // The limit still holds: 45° is beyond it, so the lever stops at +30°.
      expect(w.jointPosition('hinge')).to.be.closeTo(30, 1);
      w.setJointMotor('hinge', { position: 10, stiffness: 1e5, damping: 2000 });
      w.advance(2);
      expect(w.jointPosition('hinge')).to.be.closeTo(10, 1);
    } finally {
      w.free();
    }
  });

  it('rejects bad joint input and changes nothing', () => {
    world.addBody({ name: 'turned', kind: 'dynamic', pose: { p: [0, 0.2, 0], q: qaxisAngle([0, 1, 0], 0.3) }, shapes: [{ type: 'box', half: [0.02, 0.02, 0.02] }] });
    world.addBody({ name: 'block', kind: 'dynamic', pose: { p: [0, 0.3, 0], q: I }, shapes: [{ type: 'box', half: [0.02, 0.02, 0.02] }] });
    const hash = world.stateHash();
    const base = { name: 'j', type: 'prismatic', bodyA: 'ground', bodyB: 'block', anchor: [0, 0.3, 0], axis: [1, 0, 0] };
    for (const bad of [
      { ...base, bodyB: 'turned', anchor: [0, 0.2, 0] },
      { ...base, limits: [0.1, 0.2] },
      { ...base, limits: [-0.1, NaN] },
      { ...base, limits: [-1e300, 0.1] },
      { ...base, motor: {} },
      { ...base, motor: { velocity: Infinity } },
      { ...base, motor: { velocity: 1, maxForce: 0 } },
      { ...base, type: 'fixed', limits: [-1, 1] },
      { ...base, type: 'spherical', motor: { velocity: 1 } },
      { ...base, type: 'revolute', limits: [-400, 10] },
      { ...base, multibody: true, motor: { velocity: 1 } },
    ]) {
      expect(() => world.addJoint(bad as never), JSON.stringify(bad)).to.throw(SpaceActError);
      expect(world.stateHash()).to.equal(hash);
    }
    world.addJoint({ name: 'fix', type: 'fixed', bodyA: 'ground', bodyB: 'block', anchor: [0, 0.3, 0] });
    const after = world.stateHash();
    expect(() => world.setJointMotor('fix', { velocity: 1 })).to.throw(SpaceActError);
    expect(() => world.jointPosition('fix')).to.throw(SpaceActError);
    expect(() => world.setJointMotor('ghost', { velocity: 1 })).to.throw(SpaceActError);
    expect(world.stateHash()).to.equal(after);
  });
});
