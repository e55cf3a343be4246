/**
 * M2 corridor rod: the critical-length bound against the world itself (a rod a hair over it has
 * no free pose at the 45° heading, one a hair under has), the corridor's shell, the tools, the
 * success test, the shortcut filters (a loose rod is refused; the straight move is blocked). The
 * family's sightless strategies run in the shared shortcut battery (check-suite and `verify`).
 */
import { expect } from 'chai';
import { qaxisAngle, qmul, qnormalize } from '../sim/math.ts';
import type { Pose, Vec3 } from '../sim/types.ts';
import { World } from '../sim/world.ts';
import { TaskEnv } from '../tasks/env.ts';
import { alongQuat, boxShapes, freeBoxes, goalPoses, rodShapes, shellBoxes } from '../tasks/manipulation/m2-corridor-rod/corridor.ts';
import { m2CorridorRod } from '../tasks/manipulation/m2-corridor-rod/family.ts';
import { SHORTCUT_FILTERS } from '../tasks/manipulation/m2-corridor-rod/filters.ts';
import { actionBudget, bendCritical, bendCriticals, flatCritical, TIERS, WALL, type M2Scene } from '../tasks/manipulation/m2-corridor-rod/scene.ts';
import { SightlessAgent } from '../agents/sightless/agent.ts';
import { runEpisode } from '../agents/loop.ts';
import { DEFAULT_MODE } from '../agents/modes.ts';
import type { SightlessStrategy } from '../tasks/sightless.ts';
import { TIERS as ALL_TIERS } from '../core/catalog.ts';
import type { Instance } from '../tasks/types.ts';

/** A one-bend corridor (+x then +z) of width a and height h, and a rod of radius r and axis length L. */
function lCorridor(a: number, h: number, r: number, axis: number): M2Scene {
  const mid = h / 2;
  return {
    corridor: { width: a, height: h, wall: WALL, points: [[-0.6, mid, 0], [0, mid, 0], [0, mid, 0.6]] },
    rod: { radius: r, axisLength: axis, length: axis + 2 * r },
    start: { p: [-0.6 + 0.02 + axis / 2 + r, mid, 0], q: [0, 0, 0, 1] },
    criticalAxis: bendCritical(a, a, h, r),
    slack: 0,
    tightness: 0.06,
  };
}

async function corridorWorld(s: M2Scene): Promise<World> {
  const world = await World.create();
  const shell = shellBoxes(s.corridor);
  world.addBody({ name: 'walls', kind: 'static', pose: { p: [0, 0, 0], q: [0, 0, 0, 1] }, shapes: boxShapes([...shell.walls, ...shell.roof]) });
  world.addBody({ name: 'rod', kind: 'kinematic', pose: s.start, shapes: rodShapes(s.rod) });
  return world;
}

/**
 * Whether any pose with the rod's heading at 45° across the bend (tilted by `tilt` radians
 * out of the floor's plane) is free near the corner: a grid search over the midpoint.
 */
function freeAt45(world: World, s: M2Scene, tilt: number): boolean {
  const q = qnormalize(qmul(qaxisAngle([0, 1, 0], -Math.PI / 4), qaxisAngle([0, 0, 1], tilt)));
  const a = s.corridor.width;
  for (let x = -a; x <= a / 2; x += 0.002) {
    for (let z = -a / 2; z <= a; z += 0.002) {
      world.setPose('rod', { p: [x, s.corridor.height / 2, z], q });
      if (world.contactsOf('rod').length === 0) return true;
    }
  }
  return false;
}

describe('M2 corridor rod', function () {
  this.timeout(600_000);

  it('the flat critical length is √2·(a + b − (2 + √2)·r), and the tilt adds √(P² + (H − 2r)²)', () => {
    expect(flatCritical(0.1, 0.1, 0)).to.be.closeTo(2 * Math.SQRT2 * 0.1, 1e-12);
    expect(flatCritical(0.12, 0.12, 0.01)).to.be.closeTo(Math.SQRT2 * (0.24 - 0.034142135623730951), 1e-12);
    expect(bendCritical(0.12, 0.12, 0.02, 0.01)).to.be.closeTo(flatCritical(0.12, 0.12, 0.01), 1e-12);
    expect(bendCritical(0.12, 0.12, 0.12, 0.01)).to.be.closeTo(Math.hypot(flatCritical(0.12, 0.12, 0.01), 0.1), 1e-12);
  });

  it('the world agrees with the bound: at the 45° heading a rod 2% over the flat critical length never fits, one 2% under does', async () => {
    // A ceiling 2 mm above the rod: no room to tilt, so the flat bound is the critical length.
    const a = 0.11;
    const r = 0.01;
    const h = 2 * r + 0.002;
    const crit = bendCritical(a, a, h, r);
    const over = lCorridor(a, h, r, 1.02 * crit);
    const under = lCorridor(a, h, r, 0.98 * crit);
    const w1 = await corridorWorld(over);
    const w2 = await corridorWorld(under);
    expect(freeAt45(w1, over, 0), 'a rod over the critical length found room at 45°').to.equal(false);
    expect(freeAt45(w2, under, 0), 'a rod under the critical length found no room at 45°').to.equal(true);
    w1.free();
    w2.free();
  });

  it('with room to tilt, a rod longer than the flat bound fits at 45° only when tilted', async () => {
    const a = 0.11;
    const r = 0.01;
    const h = 0.12;
    const flat = flatCritical(a, a, r);
    const s = lCorridor(a, h, r, 1.05 * flat);
    const world = await corridorWorld(s);
    expect(freeAt45(world, s, 0)).to.equal(false);
    // Tilted so the axis spans most of the height: it fits.
    expect(freeAt45(world, s, Math.asin((h - 2 * r - 0.004) / s.rod.axisLength))).to.equal(true);
    world.free();
  });

  it("the corridor's shell encloses the free space: only the exit is open", async () => {
    const s = lCorridor(0.11, 0.05, 0.01, 0.2);
    const world = await corridorWorld(s);
    const free = freeBoxes(s.corridor);
    expect(free).to.have.length(2);
    // Probe with a small ball: leaving through the closed end, a side, the floor or the ceiling is blocked; the exit is open.
    world.addBody({ name: 'probe', kind: 'kinematic', pose: { p: [-0.3, 0.025, 0.0], q: [0, 0, 0, 1] }, shapes: [{ type: 'ball', radius: 0.005 }] });
    const at = (p: Vec3): Pose => ({ p, q: [0, 0, 0, 1] });
    expect(world.sweep('probe', at([-0.9, 0.025, 0])).hit, 'closed end').to.equal(true);
    expect(world.sweep('probe', at([-0.3, 0.025, -0.4])).hit, 'side wall').to.equal(true);
    expect(world.sweep('probe', at([-0.3, -0.2, 0])).hit, 'floor').to.equal(true);
    expect(world.sweep('probe', at([-0.3, 0.4, 0])).hit, 'ceiling').to.equal(true);
    world.setPose('probe', at([0, 0.025, 0.3]));
    expect(world.sweep('probe', at([0, 0.025, 1.2])).hit, 'exit').to.equal(false);
    world.free();
  });

  it('tools: a move into a wall is rolled back; a free move goes through; the whole rod past the exit solves', async () => {
    const instance = m2CorridorRod.generate(100, 'L3');
    const env = await TaskEnv.create(m2CorridorRod, instance);
    const start = env.world.getPose('rod');
    // Sideways by half a metre hits a wall.
    const side = env.execute({ tool: 'translate', args: { dx_m: 0.5, dz_m: 0.5 } });
    expect(side.status).to.equal('violation');
    expect(side.violation?.kind).to.equal('collision');
    expect(env.world.getPose('rod')).to.deep.equal(start);
    // Straight to the goal in one call: blocked (the filter's claim, checked by the world).
    const goal = goalPoses(instance.scene)[0];
    expect(env.world.sweep('rod', goal).hit).to.equal(true);
    // A small turn in place is free.
    const turn = env.execute({ tool: 'rotate', args: { axis: 'y', angle_deg: 3 } });
    expect(turn.status).to.equal('ok');
    expect(env.solved()).to.equal(false);
    // Placed beyond the exit it is solved; one end still in the corridor is not.
    env.world.setPose('rod', goal);
    expect(env.solved()).to.equal(true);
    const { p, q } = goal;
    const out = goalPoses(instance.scene)[0];
    const back: Vec3 = [p[0] - (out.p[0] - instance.scene.corridor.points.at(-1)![0]), p[1], p[2] - (out.p[2] - instance.scene.corridor.points.at(-1)![2])];
    env.world.setPose('rod', { p: back, q });
    expect(env.solved()).to.equal(false);
    expect(env.progress()).to.be.within(0, 1);
    env.free();
  });

  it('the tightness filter refuses a generous rod, and the straight-line filter a corridor without a bend in the way', () => {
    const base = m2CorridorRod.generate(100, 'L3') as Instance<M2Scene>;
    const tight = SHORTCUT_FILTERS.find((f) => f.name === 'tight')!;
    const straight = SHORTCUT_FILTERS.find((f) => f.name === 'straight-line-blocked')!;
    expect(tight.check(base)).to.equal(null);
    const loose = structuredClone(base);
    loose.scene.rod.axisLength = base.scene.criticalAxis * 0.85;
    expect(tight.check(loose)).to.match(/would still be under the critical/);
    const wrong = structuredClone(base);
    wrong.scene.criticalAxis = base.scene.criticalAxis * 1.1;
    expect(tight.check(wrong)).to.match(/does not match/);
    expect(straight.check(base)).to.equal(null);
    // A straight corridor: start and goal in line.
    const flat = structuredClone(base);
    const p = flat.scene.corridor.points;
    flat.scene.corridor.points = [p[0], [p[0][0] + 2 * (p[1][0] - p[0][0]), p[0][1], p[0][2] + 2 * (p[1][2] - p[0][2])]];
    expect(straight.check(flat)).to.match(/could move straight/);
  });

  it('generated instances: every tier has its bends, the rod is the stated slack under the critical length, and the filters pass', () => {
    for (const tier of ALL_TIERS) {
      for (const seed of [1, 2, 3, 4, 5]) {
        const inst = m2CorridorRod.generate(seed, tier) as Instance<M2Scene>;
        const s = inst.scene;
        expect(s.corridor.points.length - 2).to.equal(TIERS[tier].bends);
        const crit = Math.min(...bendCriticals(s.corridor, s.rod.radius));
        expect(s.rod.axisLength / crit).to.be.closeTo(1 - s.slack, 1e-3);
        expect(s.slack).to.be.within(TIERS[tier].slack[0], TIERS[tier].slack[1]);
        for (const f of SHORTCUT_FILTERS) expect(f.check(inst), `${inst.id} ${f.name}`).to.equal(null);
        if (TIERS[tier].verticalSecond) expect(s.corridor.points.at(-1)![1]).to.be.greaterThan(s.corridor.points.at(-2)![1]);
      }
    }
  });


  it('the rod starts along the first stretch, clear of everything', async () => {
    for (const tier of ALL_TIERS) {
      const inst = m2CorridorRod.generate(100, tier) as Instance<M2Scene>;
      const env = await TaskEnv.create(m2CorridorRod, inst);
      expect(env.world.contactsOf('rod'), inst.id).to.deep.equal([]);
      expect(inst.scene.start.q).to.deep.equal(alongQuat([inst.scene.corridor.points[1][0] - inst.scene.corridor.points[0][0], 0, inst.scene.corridor.points[1][2] - inst.scene.corridor.points[0][2]].map((v) => Math.sign(v)) as Vec3));
      env.free();
    }
  });
});

describe('M2 validity contract (issue 36)', function () {
  this.timeout(600000);

  it('rules, title and tool descriptions read alike for every seed of a tier and carry no number but the action budget', () => {
    for (const tier of ALL_TIERS) {
      const texts = new Set<string>();
      for (let seed = 0; seed < 12; seed++) {
        const inst = m2CorridorRod.generate(seed, tier);
        const text = [inst.title, inst.rules, ...inst.tools.filter((t) => t.kind === 'physical').map((t) => t.description)].join('\n');
        texts.add(text);
        // The budget, translate's per-call limit (the schema's, the same for every seed and shared
        // with M3–M6's tool descriptions) and its "omitted = 0".
        const numbers = new Set(text.match(/\d+(\.\d+)?/g) ?? []);
        expect([...numbers].sort(), inst.id).to.deep.equal([String(inst.budgets.actions), '0.5', '0'].sort());
        expect(inst.budgets.actions).to.equal(actionBudget(tier));
      }
      expect(texts.size, tier).to.equal(1);
    }
  });

  it('sizes are drawn continuously: many seeds give nearly as many corridor widths, rod radii and rod lengths', () => {
    const seen = { width: new Set<number>(), radius: new Set<number>(), length: new Set<number>() };
    for (let seed = 0; seed < 40; seed++) {
      const s = m2CorridorRod.generate(seed, 'L3').scene;
      seen.width.add(s.corridor.width);
      seen.radius.add(s.rod.radius);
      seen.length.add(s.rod.length);
    }
    // Draws kept to 0.1 mm: 300 possible widths and 40 radii, so a few repeats among 40 seeds
    // (the old grids had 7 and 5 values).
    expect(seen.width.size).to.be.at.least(32);
    expect(seen.radius.size).to.be.at.least(18);
    expect(seen.length.size).to.be.at.least(36);
  });

  it('refused calls count: a rod pushed into the floor again and again ends the episode at the action budget, unsolved, and no result carries a number', async () => {
    const instance = m2CorridorRod.generate(100, 'L1');
    const push: SightlessStrategy = { name: 'push', description: 'pushes the rod into the floor', bound: 1, next: () => [{ tool: 'translate', args: { dy_m: -0.3 } }] };
    const agent = new SightlessAgent(push, undefined, 0);
    const messages: string[] = [];
    const out = await runEpisode({ family: m2CorridorRod, instance, agent, mode: DEFAULT_MODE, renderer: null, render: 'never', onTurn: (t) => { for (const r of t.results ?? []) messages.push(r.message); } });
    expect(out.solved).to.equal(false);
    expect(out.endReason).to.equal('action-budget');
    expect(out.actions).to.equal(instance.budgets.actions);
    expect(messages.length).to.be.greaterThan(0);
    for (const m of messages) expect(m).to.not.match(/\d/);
  });
});
