/**
 * The SE(3) planner: a part that provably cannot pass an opening gives "no path found" within
 * its budget while the same scene with the opening 5 % larger is solved; the same scene and seed
 * give the same path; the calls it returns replay through swept moves with no contact; bad
 * options change nothing; and the held-part motion model's calls reach the poses they were made
 * for.
 */
import { expect } from 'chai';
import { SpaceActError } from '../core/errors.ts';
import { qangle, qaxisAngle, qmul, qnormalize, vdist } from '../sim/math.ts';
import type { Pose, Quat } from '../sim/types.ts';
import { World } from '../sim/world.ts';
import { callLegs, callsBetween, planPath, type HeldPartMotion, type PlanFound, type PlannedCall } from '../solvers/se3-planner/index.ts';
import { addWall, buildSlotScene, slotForClearance, SLOT_GOAL, SLOT_WORKSPACE } from '../solvers/se3-planner/scenes.ts';

const BALL_DIAMETER = 0.04;
const BALL_START: Pose = { p: [0.05, 0.16, 0.12], q: [0, 0, 0, 1] };
const BALL_GOAL: Pose = { p: [-0.04, 0.23, -0.12], q: [0, 0, 0, 1] };

/**
 * A ball 40 mm across and a 10 mm wall with a square opening of side `side`, centred off the
 * straight line from the ball's start to its goal.
 */
async function ballScene(side: number): Promise<World> {
  const world = await World.create({ workspace: { min: [-0.25, 0, -0.25], max: [0.25, 0.4, 0.25] } });
  addWall(world, { width: side, height: side, thickness: 0.01, halfSize: { x: 0.25, y: 0.2 } });
  world.addBody({ name: 'ball', kind: 'kinematic', pose: BALL_START, shapes: [{ type: 'ball', radius: BALL_DIAMETER / 2 }] });
  return world;
}

/** Plays calls as tool handlers do (each call's legs from the pose the world reports) and returns the first refused leg, if any. */
function replay(world: World, body: string, motion: HeldPartMotion, calls: PlannedCall[]): string | null {
  for (const [i, call] of calls.entries()) {
    const legs = callLegs(motion, world.getPose(body), call);
    for (const leg of legs) {
      const r = world.attempt(() => world.moveSwept(body, leg));
      if (!r.ok) return `call ${i + 1} (${call.tool}): ${r.violation.message}`;
    }
  }
  return null;
}

describe('SE(3) planner', function () {
  this.timeout(300_000);

  it('a ball that provably cannot pass the opening gives "no path found" within its budget; 5 % wider, it is solved', async () => {
    // The opening is 1 % narrower than the ball: the ball's section through its centre, a 40 mm
    // disc, cannot lie inside a 39.6 mm square while the centre crosses the wall's mid-plane.
    const tight = await ballScene(0.99 * BALL_DIAMETER);
    const before = tight.stateHash();
    const none = planPath(tight, 'ball', BALL_GOAL, { seed: 3, maxSamples: 2000, rotation: 'fixed' });
    expect(none.found).to.equal(false);
    expect(none.samples).to.be.at.least(2000);
    expect(none.seconds).to.be.a('number');
    if (!none.found) {
      expect(none.reason).to.match(/no path found within 2000 samples: the sample budget ran out, which does not prove/);
      expect(none.proof, 'a sampling budget running out is not a proof').to.equal(false);
    }
    expect(tight.stateHash(), 'planning leaves the world as it was').to.equal(before);
    tight.free();

    const wider = await ballScene(1.05 * 0.99 * BALL_DIAMETER);
    const found = planPath(wider, 'ball', BALL_GOAL, { seed: 3, maxSamples: 2000, rotation: 'fixed' });
    expect(found.found, found.found ? '' : found.reason).to.equal(true);
    const f = found as PlanFound;
    expect(f.samples).to.be.at.most(2000);
    // The straight line is blocked, so the path turns somewhere.
    expect(wider.sweep('ball', BALL_GOAL).hit).to.equal(true);
    expect(f.poses.length).to.be.greaterThan(2);
    expect(replay(wider, 'ball', { combined: true }, f.calls)).to.equal(null);
    expect(vdist(wider.getPose('ball').p, BALL_GOAL.p)).to.be.below(1e-4);
    wider.free();
  });

  it('threads a 100 × 40 × 20 mm box through a slot 4 mm wider and taller, turning it on the way; the calls replay free', async () => {
    const world = await World.create({ workspace: SLOT_WORKSPACE });
    buildSlotScene(world, slotForClearance(0.002));
    expect(world.sweep('part', SLOT_GOAL).hit, 'the straight move is blocked').to.equal(true);
    const r = planPath(world, 'part', SLOT_GOAL, { seed: 2, maxSamples: 20000 });
    expect(r.found, r.found ? '' : r.reason).to.equal(true);
    const f = r as PlanFound;
    expect(replay(world, 'part', { combined: true }, f.calls)).to.equal(null);
    const end = world.getPose('part');
    expect(vdist(end.p, SLOT_GOAL.p)).to.be.below(1e-4);
    expect(qangle(end.q, SLOT_GOAL.q)).to.be.below(1e-3);
    world.free();
  });

  it('is deterministic: the same scene and seed give the same path and calls; another seed another path', async () => {
    const run = async (seed: number): Promise<PlanFound> => {
      const world = await ballScene(0.044);
      const r = planPath(world, 'ball', BALL_GOAL, { seed, maxSamples: 2000 });
      world.free();
      expect(r.found).to.equal(true);
      return r as PlanFound;
    };
    const a = await run(7);
    const b = await run(7);
    const c = await run(8);
    expect(b.calls).to.deep.equal(a.calls);
    expect(b.poses).to.deep.equal(a.poses);
    expect(b.samples).to.equal(a.samples);
    expect(c.calls).to.not.deep.equal(a.calls);
  });

  it('refuses bad input with a SpaceActError and changes nothing', async () => {
    const world = await ballScene(0.044);
    const before = world.stateHash();
    const bad: Array<() => unknown> = [
      () => planPath(world, 'nobody', BALL_GOAL),
      () => planPath(world, 'wall', BALL_GOAL),
      () => planPath(world, 'ball', { p: [0, Number.NaN, 0], q: [0, 0, 0, 1] }),
      () => planPath(world, 'ball', []),
      () => planPath(world, 'ball', BALL_GOAL, { maxSamples: 0 }),
      () => planPath(world, 'ball', BALL_GOAL, { stepLength: -1 }),
      () => planPath(world, 'ball', BALL_GOAL, { seed: 1.5 }),
      () => planPath(world, 'ball', BALL_GOAL, { relax: { mode: 'melt' as 'scale' } }),
      () => planPath(world, 'ball', BALL_GOAL, { sweep: { exclude: ['ghost'] } }),
      () => planPath(world, 'ball', BALL_GOAL, { narrowPassage: { bridge: 0.9, perturb: 0.9 } }),
    ];
    for (const f of bad) expect(f).to.throw(SpaceActError);
    expect(world.stateHash()).to.equal(before);
    world.free();
  });

  it('reports a start or goal that is not free instead of searching', async () => {
    const world = await ballScene(0.044);
    const inWall = planPath(world, 'ball', { p: [0.2, 0.1, 0], q: [0, 0, 0, 1] });
    expect(inWall.found).to.equal(false);
    if (!inWall.found) {
      expect(inWall.reason).to.match(/no goal pose is free.*'wall'/);
      expect(inWall.proof, 'a goal inside the wall is proof that no path reaches it').to.equal(true);
    }
    world.free();
  });

  describe('held-part motion model', () => {
    const a: Pose = { p: [0.1, 0.2, -0.05], q: qnormalize(qaxisAngle([0.3, 1, 0.2].map((v) => v / Math.hypot(0.3, 1, 0.2)) as [number, number, number], 0.7)) };
    const b: Pose = { p: [-0.4, 0.5, 0.9], q: qnormalize(qmul(qaxisAngle([1, 0, 0], 2.6), a.q)) };
    const end = (m: HeldPartMotion, calls: PlannedCall[]): Pose => {
      let at = a;
      for (const c of calls) for (const leg of callLegs(m, at, c)) at = leg;
      return at;
    };
    const models: Array<[string, HeldPartMotion]> = [
      ['rotate then translate, world frame', {}],
      ['combined move, world frame', { combined: true }],
      ['tool-frame turns', { rotationFrame: 'tool' }],
      ['a working frame turned 40° about the vertical', { frame: qaxisAngle([0, 1, 0], (40 * Math.PI) / 180) as Quat, combined: true }],
    ];
    for (const [name, m] of models) {
      it(`${name}: the calls between two poses reach the second (long moves split, big turns halved)`, () => {
        const calls = callsBetween(m, a, b, { round: true });
        const reached = end(m, calls);
        expect(vdist(reached.p, b.p)).to.be.below(1e-5);
        expect(qangle(reached.q, b.q)).to.be.below(1e-4);
        // 0.9 m along z needs two translations of at most 0.5 m each.
        for (const c of calls) for (const k of ['dx_m', 'dy_m', 'dz_m']) expect(Math.abs(Number(c.args[k] ?? 0))).to.be.at.most(0.5);
        expect(JSON.parse(JSON.stringify(calls))).to.deep.equal(calls);
      });
    }

    it('a turn over 90° runs as two legs about the same axis; a named axis turns about the frame axis', () => {
      const legs = callLegs({}, a, { tool: 'rotate', args: { axis: 'y', angle_deg: 150 } });
      expect(legs).to.have.length(2);
      expect(qangle(legs[0].q, qmul(qaxisAngle([0, 1, 0], (75 * Math.PI) / 180), a.q))).to.be.below(1e-6);
      expect(qangle(legs[1].q, qmul(qaxisAngle([0, 1, 0], (150 * Math.PI) / 180), a.q))).to.be.below(1e-6);
      const tool = callLegs({ rotationFrame: 'tool' }, a, { tool: 'rotate', args: { axis: 'x', angle_deg: 30 } });
      expect(qangle(tool[0].q, qmul(a.q, qaxisAngle([1, 0, 0], Math.PI / 6)))).to.be.below(1e-6);
    });

    it('refuses calls it cannot run', () => {
      expect(() => callLegs({}, a, { tool: 'fly', args: {} })).to.throw(SpaceActError);
      expect(() => callLegs({}, a, { tool: 'rotate', args: { axis: [0, 0, 0], angle_deg: 10 } })).to.throw(SpaceActError);
      expect(() => callLegs({}, a, { tool: 'translate', args: { dx_m: 2 } })).to.throw(SpaceActError);
      expect(() => callLegs({}, a, { tool: 'move', args: { dx_m: 0.1, axis: 'x', angle_deg: 10 } })).to.throw(SpaceActError);
    });
  });
});
