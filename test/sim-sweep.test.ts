import { expect } from 'chai';
import { SpaceActError } from '../core/errors.ts';
import { ViolationError } from '../sim/violation.ts';
import { interpolatePose, qaxisAngle } from '../sim/math.ts';
import type { Pose } from '../sim/types.ts';
import { World } from '../sim/world.ts';

const I: Pose['q'] = [0, 0, 0, 1];
const TOL = 1e-4;

/** Bisection for a root of a monotone function on [lo, hi]. */
function root(f: (x: number) => number, lo: number, hi: number): number {
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (Math.sign(f(mid)) === Math.sign(f(lo))) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

describe('sim: swept motion', () => {
  let world: World;
  beforeEach(async () => {
    world = await World.create();
    // A 2 mm thick wall whose near face is at x = 4.999.
    world.addBody({ name: 'wall', kind: 'static', pose: { p: [5, 0, 0], q: I }, shapes: [{ type: 'box', half: [0.001, 0.5, 0.5] }] });
    world.addBody({ name: 'part', kind: 'kinematic', pose: { p: [0, 0, 0], q: I }, shapes: [{ type: 'box', half: [0.025, 0.025, 0.025] }] });
  });
  afterEach(() => world.free());

  it('a thin wall stops a long fast move (no tunnelling) at the true first contact', () => {
    const target: Pose = { p: [10, 0, 0], q: I };
    const r = world.sweep('part', target);
    expect(r.hit).to.equal(true);
    expect(r.bodies).to.deep.equal(['wall']);
    // Front face reaches the wall when the centre is at 4.999 − 0.025.
    expect(r.toi * 10).to.be.closeTo(4.974, TOL);
    expect(r.point![0]).to.be.closeTo(4.999, 1e-3);
    expect(r.violation?.kind).to.equal('collision');
    expect(r.violation?.bodies).to.deep.equal(['part', 'wall']);
    // The end pose alone is free: only the continuous check sees the wall.
    const probe = world.snapshot();
    world.setPose('part', target);
    expect(world.contactsOf('part')).to.deep.equal([]);
    world.restore(probe);
    // The last free pose is collision-free and within the tolerance of the contact.
    world.setPose('part', r.lastFreePose);
    const d = world.distance('part', 'wall');
    expect(d).to.be.greaterThan(0);
    expect(d).to.be.at.most(TOL);
  });

  it('moveSwept leaves the part at the contact pose and throws a collision violation', () => {
    expect(() => world.moveSwept('part', { p: [10, 0, 0], q: I })).to.throw(ViolationError);
    const p = world.getPose('part').p;
    expect(p[0]).to.be.closeTo(4.974, TOL);
    world.setPose('part', { p: [0, 0, 0], q: I });
    const free = world.moveSwept('part', { p: [3, 1, 0], q: qaxisAngle([0, 1, 0], 1) });
    expect(free.hit).to.equal(false);
    expect(free.toi).to.equal(1);
    expect(world.getPose('part').p[0]).to.be.closeTo(3, 1e-6);
  });

  it('a rotation in place into a wall stops at the analytic contact angle', () => {
    // A 0.8 m bar pivoting about its centre 0.299 m from the wall face; its far corner touches at
    // 0.4 sin φ + 0.02 cos φ = 0.299.
    world.addBody({ name: 'bar', kind: 'kinematic', pose: { p: [4.7, 0, 0], q: I }, shapes: [{ type: 'box', half: [0.02, 0.02, 0.4] }] });
    for (const sign of [1, -1]) {
      const r = world.sweep('bar', { p: [4.7, 0, 0], q: qaxisAngle([0, 1, 0], (sign * Math.PI) / 2) }, { exclude: ['part'] });
      const phi = root((x) => 0.4 * Math.sin(x) + 0.02 * Math.cos(x) - 0.299, 0, Math.PI / 2);
      expect(r.hit).to.equal(true);
      expect(r.bodies).to.deep.equal(['wall']);
      // Arc length error at the corner (0.4 m out) within the contact tolerance.
      expect(Math.abs(r.toi * (Math.PI / 2) - phi) * 0.4).to.be.at.most(TOL);
      const probe = world.snapshot();
      world.setPose('bar', r.lastFreePose);
      expect(world.distance('bar', 'wall')).to.be.greaterThan(0);
      world.restore(probe);
    }
  });

  it('a 6-DoF move (translation and turn) is checked along the whole path, not only at its end', () => {
    // A 1 m bar along Z moves 0.1 m towards the wall while turning 180° about Y: both end poses
    // and the straight translation are clear, but half-way the bar lies along X and reaches the wall.
    world.addBody({ name: 'bar', kind: 'kinematic', pose: { p: [4.5, 0, 0], q: I }, shapes: [{ type: 'box', half: [0.02, 0.02, 0.5] }] });
    const start = world.getPose('bar');
    const target: Pose = { p: [4.6, 0, 0], q: qaxisAngle([0, 1, 0], Math.PI) };
    expect(world.sweep('bar', { p: target.p, q: I }, { exclude: ['part'] }).hit).to.equal(false);
    const r = world.sweep('bar', target, { exclude: ['part'] });
    expect(r.hit).to.equal(true);
    expect(r.bodies).to.deep.equal(['wall']);
    expect(r.toi).to.be.greaterThan(0.2).and.lessThan(0.5);
    const probe = world.snapshot();
    world.setPose('bar', target);
    expect(world.distance('bar', 'wall')).to.be.greaterThan(0.3);
    world.setPose('bar', r.lastFreePose);
    expect(world.distance('bar', 'wall')).to.be.greaterThan(0);
    // At the reported time of impact the bar is within the tolerance of the wall.
    world.setPose('bar', interpolatePose(start, target, r.toi));
    expect(world.distance('bar', 'wall')).to.be.at.most(TOL);
    world.restore(probe);
  });

  it('lifting off or sliding along a support is free; pressing into it is a contact', () => {
    world.addBody({ name: 'table', kind: 'static', pose: { p: [0, -0.55, 2], q: I }, shapes: [{ type: 'box', half: [1, 0.5, 1] }] });
    world.addBody({ name: 'cup', kind: 'kinematic', pose: { p: [0, -0.025, 2], q: I }, shapes: [{ type: 'cylinder', radius: 0.03, halfHeight: 0.025 }] });
    expect(world.distance('cup', 'table')).to.be.closeTo(0, 1e-6);
    expect(world.sweep('cup', { p: [0, 0.3, 2], q: I }).hit).to.equal(false);
    expect(world.sweep('cup', { p: [0.5, -0.025, 2.3], q: qaxisAngle([0, 1, 0], 2) }).hit).to.equal(false);
    const down = world.sweep('cup', { p: [0.2, -0.1, 2], q: I });
    expect(down.hit).to.equal(true);
    expect(down.bodies).to.deep.equal(['table']);
    expect(down.toi).to.be.lessThan(0.1);
    const strict = world.sweep('cup', { p: [0, 0.3, 2], q: I }, { strictInitialContacts: true });
    expect(strict.hit).to.equal(true);
    expect(strict.toi).to.equal(0);
  });

  it('centimetre-size parts get exact distances and contacts at any yaw', async () => {
    // Rapier's own queries misjudge such pairs by up to a centimetre; the world scales them up.
    const w = await World.create();
    try {
      w.addBody({ name: 'lower', kind: 'static', pose: { p: [0, 0, 0], q: I }, shapes: [{ type: 'box', half: [0.007, 0.006, 0.0059] }] });
      w.addBody({ name: 'upper', kind: 'kinematic', pose: { p: [0.001, 0.012, 0.001], q: I }, shapes: [{ type: 'box', half: [0.0035, 0.0055, 0.0038] }] });
      for (let deg = 0; deg < 180; deg += 5) {
        const q = qaxisAngle([0, 1, 0], (deg * Math.PI) / 180);
        w.setPose('upper', { p: [0.001, 0.012, 0.001], q });
        expect(w.distance('upper', 'lower'), `${deg}°`).to.be.closeTo(0.0005, 1e-6);
        const r = w.sweep('upper', { p: [0.001, 0.0, 0.001], q });
        expect(r.toi * 0.012, `${deg}°`).to.be.closeTo(0.0005, TOL);
      }
    } finally {
      w.free();
    }
  });

  it('a part slides through a long, snug channel in a triangle mesh without a false contact', async () => {
    // A square channel 0.3 m long whose inner walls stand 0.8 mm off a 20 mm box on every side.
    const a = 0.0108;
    const vertices: [number, number, number][] = [];
    for (const y of [0, 0.3]) for (const [x, z] of [[-a, -a], [a, -a], [a, a], [-a, a]]) vertices.push([x, y, z]);
    const indices: [number, number, number][] = [];
    for (let k = 0; k < 4; k++) {
      const k2 = (k + 1) % 4;
      indices.push([k, k2, 4 + k2], [k, 4 + k2, 4 + k]);
    }
    const w = await World.create();
    try {
      w.addBody({ name: 'channel', kind: 'static', pose: { p: [0, 0, 0], q: I }, shapes: [{ type: 'mesh', vertices, indices }] });
      w.addBody({ name: 'peg', kind: 'kinematic', pose: { p: [0, 0.32, 0], q: I }, shapes: [{ type: 'box', half: [0.01, 0.01, 0.01] }] });
      const through = w.sweep('peg', { p: [0, -0.02, 0], q: I });
      expect(through.hit, through.violation?.message).to.equal(false);
      // Off centre by more than the clearance, the same move touches the channel at its mouth.
      w.setPose('peg', { p: [0.0012, 0.32, 0], q: I });
      const off = w.sweep('peg', { p: [0.0012, -0.02, 0], q: I });
      expect(off.hit).to.equal(true);
      expect(off.bodies).to.deep.equal(['channel']);
    } finally {
      w.free();
    }
  });

  it('excluded bodies do not stop the sweep', () => {
    const r = world.sweep('part', { p: [10, 0, 0], q: I }, { exclude: ['wall'] });
    expect(r.hit).to.equal(false);
    expect(r.reached.p).to.deep.equal([10, 0, 0]);
  });

  it('leaving the workspace is a workspace violation at the boundary', async () => {
    const w = await World.create({ workspace: { min: [-1, -1, -1], max: [2, 1, 1] } });
    try {
      w.addBody({ name: 'part', kind: 'kinematic', pose: { p: [0, 0, 0], q: I }, shapes: [{ type: 'box', half: [0.05, 0.05, 0.05] }] });
      const r = w.sweep('part', { p: [4, 0, 0], q: I });
      expect(r.violation?.kind).to.equal('workspace');
      expect(r.toi * 4).to.be.closeTo(1.95, 1e-3);
      expect(r.lastFreePose.p[0] + 0.05).to.be.at.most(2);
      const res = w.attempt(() => w.moveSwept('part', { p: [4, 0, 0], q: I }));
      expect(res.ok).to.equal(false);
      expect(w.getPose('part').p).to.deep.equal([0, 0, 0]);
    } finally {
      w.free();
    }
  });

  it('sweeping is a query: it changes neither the state nor the clock', () => {
    world.addBody({ name: 'ball', kind: 'dynamic', pose: { p: [1, 2, 0], q: I }, shapes: [{ type: 'ball', radius: 0.1 }] });
    world.advance(0.1);
    const hash = world.stateHash();
    const [time, steps] = [world.time, world.steps];
    world.sweep('part', { p: [10, 0, 0], q: qaxisAngle([0, 0, 1], 2) });
    world.sweep('ball', { p: [1, -2, 0], q: I });
    expect(world.stateHash()).to.equal(hash);
    expect([world.time, world.steps]).to.deep.equal([time, steps]);
  });

  it('regression (#15): a sweep starting in overlap says so and never reports a deeper pose as free', () => {
    // The part starts 5 mm into the wall's near face (x = 4.999).
    world.setPose('part', { p: [4.999 - 0.025 + 0.005, 0, 0], q: I });
    const deeper = world.sweep('part', { p: [5.5, 0, 0], q: I });
    expect(deeper.startOverlap?.bodies).to.deep.equal(['wall']);
    expect(deeper.startOverlap!.depth).to.be.closeTo(0.005, 2e-4);
    expect(deeper.hit).to.equal(true);
    expect(deeper.toi).to.be.at.most(1e-3);
    // Whatever it reports reachable is no deeper than the start (plus the tolerance).
    const probe = world.snapshot();
    world.setPose('part', deeper.reached);
    expect(world.distance('part', 'wall')).to.be.at.least(-0.005 - TOL);
    world.restore(probe);
    // Backing out of the overlap is free, and says where it started.
    const out = world.sweep('part', { p: [4, 0, 0], q: I });
    expect(out.hit).to.equal(false);
    expect(out.startOverlap?.bodies).to.deep.equal(['wall']);
    // Touching within the tolerance is not an overlap.
    world.setPose('part', { p: [4.999 - 0.025 - 0.00005, 0, 0], q: I });
    expect(world.sweep('part', { p: [4, 1, 0], q: I }).startOverlap).to.equal(undefined);
  });

  it('regression (#15): cylinders grazing a box corner leave a last free pose that is free, and overlaps are never called apart', async () => {
    const w = await World.create({ gravity: [0, 0, 0] });
    try {
      w.addBody({ name: 'box', kind: 'static', pose: { p: [0, 0, 0], q: I }, shapes: [{ type: 'box', half: [0.02, 0.02, 0.02] }] });
      w.addBody({ name: 'cyl', kind: 'kinematic', pose: { p: [-0.1, 0, 0.035], q: I }, shapes: [{ type: 'cylinder', radius: 0.015, halfHeight: 0.03 }] });
      // Past the box's vertical edge at (0.02, ·, 0.02): the cylinder's side passes within ±20 µm of it.
      for (let k = 0; k < 40; k++) {
        const z = 0.035 - 0.00002 + k * 1e-6;
        w.setPose('cyl', { p: [-0.1, 0, z], q: I });
        const r = w.sweep('cyl', { p: [0.1, 0, z], q: qaxisAngle([0, 1, 0], 0.3) });
        w.setPose('cyl', r.lastFreePose);
        const d = w.distance('cyl', 'box');
        expect(d, `offset ${k}`).to.be.greaterThan(0);
        expect(w.contactsOf('cyl').length <= 1).to.equal(true);
      }
      // Overlapping by a few micrometres: a negative distance and a contact, never Infinity.
      w.setPose('cyl', { p: [0.02 + 0.015 - 0.000005, 0, 0], q: I });
      expect(w.distance('cyl', 'box')).to.be.at.most(0);
      expect(w.contactsOf('cyl')).to.deep.equal(['box']);
    } finally {
      w.free();
    }
  });

  it('rejects bad sweep input without changing anything', () => {
    const hash = world.stateHash();
    expect(() => world.sweep('nope', { p: [1, 0, 0], q: I })).to.throw(SpaceActError, /no body named "nope"/);
    expect(() => world.sweep('part', { p: [1, 0, 0], q: I }, { exclude: ['ghost'] })).to.throw(SpaceActError, /opts\.exclude\[0\]/);
    expect(() => world.moveSwept('part', { p: [NaN, 0, 0], q: I })).to.throw(SpaceActError, /target\.p\[0\]/);
    expect(() => world.moveSwept('part', { p: [1, 0, 0], q: [0, 0, 0, 0] })).to.throw(SpaceActError, /zero quaternion/);
    expect(world.stateHash()).to.equal(hash);
  });
});
