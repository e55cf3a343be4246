import { expect } from 'chai';
import { World } from '../sim/world.ts';
import type { Quat } from '../sim/types.ts';

/**
 * The capsule shape (issue 33): a rod with round ends as one shape, in Rapier's dynamics, in the
 * f64 sweep and distance verdicts (the sweep fuzz in test/sim-fuzz.test.ts pairs it with every
 * other shape), with hand-computed expectations here.
 */
const I: Quat = [0, 0, 0, 1];
/** A quarter turn about z: the capsule's axis (local Y) along world X. */
const LYING: Quat = [0, 0, Math.SQRT1_2, Math.SQRT1_2];
const R = 0.02;
const H = 0.06;

describe('sim: capsule', function () {
  this.timeout(120_000);
  let world: World;
  beforeEach(async () => {
    world = await World.create();
    world.addBody({ name: 'floor', kind: 'static', pose: { p: [0, -0.05, 0], q: I }, shapes: [{ type: 'box', half: [1, 0.05, 1] }] });
  });
  afterEach(() => world.free());

  it('a capsule dropped lying down comes to rest on its side, its axis a radius above the floor', () => {
    world.addBody({ name: 'rod', kind: 'dynamic', pose: { p: [0, 0.15, 0], q: LYING }, shapes: [{ type: 'capsule', radius: R, halfHeight: H }] });
    world.advance(1.5);
    const pose = world.getPose('rod');
    expect(pose.p[1]).to.be.closeTo(R, 0.001);
    // Its bounding box: the segment along x plus the radius all round.
    const box = world.bodyAabb('rod');
    expect(box.max[0] - box.min[0]).to.be.closeTo(2 * (H + R), 0.002);
    expect(box.max[1] - box.min[1]).to.be.closeTo(2 * R, 0.002);
  });

  it('a lying capsule slid end-first towards a wall stops with its round end touching it; the distance verdict agrees', () => {
    world.addBody({ name: 'wall', kind: 'static', pose: { p: [0.3, 0.2, 0], q: I }, shapes: [{ type: 'box', half: [0.01, 0.2, 0.2] }] });
    // Lying along x, its round end leads: it touches the wall's face (x = 0.29) when its centre is at 0.29 − H − R.
    world.addBody({ name: 'rod', kind: 'kinematic', pose: { p: [0, 0.1, 0], q: LYING }, shapes: [{ type: 'capsule', radius: R, halfHeight: H }] });
    const r = world.sweep('rod', { p: [0.5, 0.1, 0], q: LYING });
    expect(r.hit).to.equal(true);
    expect(r.bodies).to.deep.equal(['wall']);
    expect(r.lastFreePose.p[0]).to.be.within(0.29 - H - R - 0.0005, 0.29 - H - R);
    // Sideways, the same capsule's flank is a radius from its axis: 3 cm clear of a post 5 cm off.
    world.addBody({ name: 'post', kind: 'static', pose: { p: [0, 0.1, 0.06], q: I }, shapes: [{ type: 'box', half: [0.01, 0.1, 0.01] }] });
    expect(world.distance('rod', 'post')).to.be.closeTo(0.06 - 0.01 - R, 1e-6);
  });
});
