/**
 * B2 cantilever: the generator's guarantees (tiers, reach beyond fewer levels, brick budget, a
 * supply that does not name the design), the statics model against the world's brick statics,
 * the certificate in the real world on the released instances (the reference holds the payload;
 * the same layout with its stud joints to the table taken out tips over the edge), structures
 * that must fail through the episode's own tools (too short, one stud wide at L5), the tools
 * (refusals cost actions, the brick budget) and the progress measure (fraction of reach).
 */
import { expect } from 'chai';
import { BRICK_WORLD_OPTIONS, BrickSystem } from '../sim/bricks.ts';
import { World } from '../sim/world.ts';
import { b2Cantilever } from '../tasks/construction/b2-cantilever/family.ts';
import { sceneProblem } from '../tasks/construction/b2-cantilever/filters.ts';
import { actionBudget, brickBudget, gridToWorld, REFERENCE_MARGIN, TIER_SETTINGS, type B2Scene } from '../tasks/construction/b2-cantilever/scene.ts';
import { designPlan, oneWide, placeCall, referenceDesign } from '../tasks/construction/b2-cantilever/solver.ts';
import { planCapacityKg, planStatics, unanchoredHolds, unanchoredMoment } from '../tasks/construction/b2-cantilever/statics-model.ts';
import { TaskEnv } from '../tasks/env.ts';
import { brickType, PLATE } from '../tasks/kits/bricks/catalog.ts';
import type { Placement } from '../tasks/kits/bricks/plan.ts';
import type { Instance, TaskFamily, Tier, ToolCall } from '../tasks/types.ts';

const family = b2Cantilever as unknown as TaskFamily;
const TIERS: Tier[] = ['L1', 'L3', 'L5', 'L7'];
const RELEASED: Tier[] = ['L3', 'L5', 'L7'];

/** The reference's place calls (no commit) of an instance. */
function referencePlaces(inst: Instance<B2Scene>): ToolCall[] {
  const d = referenceDesign(inst.scene)!;
  return designPlan(inst.scene, d).map((p) => placeCall(inst.scene, p));
}

/** A world with the scene's table (unturned grid) and a plan placed through the BrickSystem. */
async function worldWith(s: B2Scene, plan: Placement[]): Promise<{ world: World; bricks: BrickSystem }> {
  const world = await World.create(BRICK_WORLD_OPTIONS);
  const bricks = new BrickSystem(world, { grid: { name: 'grid', origin: [0, s.tablePlates * PLATE, 0] } });
  bricks.addBaseplate({ name: 'table', size: [s.tableCols, s.rows], cell: [0, 0], top: 0, height: s.tablePlates });
  plan.forEach((p, i) => {
    const t = brickType(p.type);
    bricks.place({ name: `b${i + 1}`, size: [t.length, t.width], plate: t.plate, cell: [p.col, p.row], rot: p.rot });
  });
  return { world, bricks };
}

/** The world's statics verdict with `kg` at the target cell. */
function worldHolds(s: B2Scene, bricks: BrickSystem, kg: number): boolean {
  const top = bricks.partAt(s.targetCell)!;
  const info = bricks.partInfo(top);
  const point = bricks.gridPoint('grid', s.targetCell[0] + 0.5, s.targetCell[1] + 0.5, info.layer + info.height);
  return bricks.analyze([{ body: top, point, force: [0, -9.81 * kg, 0] }]).stable;
}

describe('B2 cantilever', function () {
  this.timeout(600_000);

  describe('generator', () => {
    for (const tier of TIERS) {
      it(`${tier}: the tier's table, reach, levels, brick and action budgets; the supply is more than the design`, () => {
        const cfg = TIER_SETTINGS[tier];
        for (const seed of [100, 101, 102]) {
          const inst = b2Cantilever.generate(seed, tier);
          const s = inst.scene;
          expect(sceneProblem(s, tier), `seed ${seed}`).to.equal(null);
          expect(inst.scoring).to.equal('passfail');
          expect(cfg.tableCols).to.include(s.tableCols);
          expect(cfg.reaches).to.include(s.reach);
          expect(s.targetCell).to.deep.equal([s.tableCols + s.reach - 1, 1]);
          expect(s.maxBricks).to.equal(brickBudget(tier));
          expect(inst.budgets.actions).to.equal(actionBudget(tier));
          expect(s.reachYawDeg === 0).to.equal(!cfg.rotated);
          const ref = referenceDesign(s)!;
          expect(ref.levels.length).to.equal(cfg.levels);
          // Beyond fewer levels: at L3+ no supplied brick reaches the target on its own.
          if (cfg.levels > 1) for (const x of s.supply) expect(brickType(x.type).length - 1, x.type).to.be.lessThan(s.reach);
          const used = new Map<string, number>();
          for (const p of designPlan(s, ref)) used.set(p.type, (used.get(p.type) ?? 0) + 1);
          for (const [type, n] of used) expect(s.supply.find((x) => x.type === type)!.count).to.be.greaterThan(n);
          expect(s.supply.filter((x) => !used.has(x.type)).length).to.be.at.least(cfg.alternatives);
          // The rules carry the payload in grams and the tier's budgets, never the site.
          expect(inst.rules).to.include(`${Math.round(s.payloadKg * 1000)} g payload`);
          expect(inst.rules).to.not.match(/\b\d+ cells?\b/);
        }
      });
    }
    it('the brick budget shrinks and the reach grows with the tier', () => {
      expect(brickBudget('L1')).to.be.greaterThan(brickBudget('L3'));
      expect(brickBudget('L3')).to.be.greaterThan(brickBudget('L5'));
      expect(Math.min(...TIER_SETTINGS.L3.reaches)).to.be.greaterThan(Math.max(...TIER_SETTINGS.L1.reaches));
      expect(Math.min(...TIER_SETTINGS.L5.reaches)).to.be.greaterThan(Math.max(...TIER_SETTINGS.L3.reaches));
    });
  });

  describe('statics model and certificate', () => {
    it('the model agrees with the world on the released references: holds at the payload × margin, fails at twice the capacity', async () => {
      for (const tier of RELEASED) {
        const s = b2Cantilever.generate(100, tier).scene;
        const plan = designPlan(s, referenceDesign(s)!);
        const cap = planCapacityKg(s, plan);
        const { world, bricks } = await worldWith(s, plan);
        try {
          expect(planStatics(s, plan, s.payloadKg * REFERENCE_MARGIN).holds, tier).to.equal(true);
          expect(worldHolds(s, bricks, s.payloadKg * REFERENCE_MARGIN), tier).to.equal(true);
          expect(planStatics(s, plan, 2 * cap).holds, tier).to.equal(false);
          expect(worldHolds(s, bricks, 2 * cap), tier).to.equal(false);
        } finally {
          world.free();
        }
      }
    });

    it('the unanchored check: a brick mostly on the table stays without studs under a light load; a payload out past the edge tips it', () => {
      const s = b2Cantilever.generate(100, 'L1').scene;
      // A brick-2x6 with 5 studs on the table and 1 cell out: its weight stays behind the edge…
      const back: Placement[] = [{ type: 'brick-2x6', col: s.tableCols - 5, row: 1, rot: 0 }];
      const scene = { ...s, targetCell: [s.tableCols, 1] as [number, number] };
      expect(unanchoredHolds(scene, back, 0)).to.equal(true);
      // …until a few grams hang one cell out.
      expect(unanchoredHolds(scene, back, 0.05)).to.equal(false);
      expect(unanchoredMoment(scene, back, 0.05)!).to.be.greaterThan(0);
      for (const tier of TIERS) {
        const t = b2Cantilever.generate(100, tier).scene;
        expect(unanchoredHolds(t, designPlan(t, referenceDesign(t)!), t.payloadKg), tier).to.equal(false);
      }
    });
  });

  describe('the real world', () => {
    for (const tier of RELEASED) {
      it(`${tier}-s100: the reference holds the payload; without its anchoring joints the same layout tips over the edge`, async () => {
        const inst = b2Cantilever.generate(100, tier);
        const s = inst.scene;
        const places = referencePlaces(inst);
        // Holds: built and committed through the episode's own tools.
        const held = await TaskEnv.create(family, inst);
        try {
          for (const c of places) expect(held.execute(c).status, JSON.stringify(c)).to.equal('ok');
          const r = held.execute({ tool: 'commit', args: {} });
          expect(r.message).to.match(/held/);
          expect(held.solved()).to.equal(true);
        } finally {
          held.free();
        }
        // The same layout, its stud joints to the table taken out: level 1 only rests on the table.
        const loose = await TaskEnv.create(family, inst);
        try {
          for (const c of places) expect(loose.execute(c).status).to.equal('ok');
          const world = loose.world;
          const anchors = world.jointNames().filter((j) => j.startsWith('stud:table|'));
          expect(anchors).to.deep.equal(['stud:table|b1']);
          for (const j of anchors) world.removeJoint(j);
          const top = `b${places.length}`;
          const point = gridToWorld(s, s.targetCell[0] + 0.5, s.targetCell[1] + 0.5, places.length * 3);
          const test = world.loadTest({ body: top, point, mass: s.payloadKg, seconds: s.holdSeconds });
          expect(test.held, test.message).to.equal(false);
        } finally {
          loose.free();
        }
      });
    }

    it('too short: a cantilever one level short of the target leaves the payload falling (not solved, progress below 1)', async () => {
      const inst = b2Cantilever.generate(100, 'L3');
      const places = referencePlaces(inst);
      const env = await TaskEnv.create(family, inst);
      try {
        expect(env.execute(places[0]).status).to.equal('ok');
        const p = env.progress();
        const d = referenceDesign(inst.scene)!;
        expect(p).to.be.closeTo((0.9 * d.levels[0].reach) / inst.scene.reach, 1e-9);
        const r = env.execute({ tool: 'commit', args: {} });
        expect(r.message).to.match(/No brick is over the target/);
        expect(env.solved()).to.equal(false);
      } finally {
        env.free();
      }
    });

    it('too weak: the L5 reference built one stud wide (the decoy look-alikes) fails the load test in the world', async () => {
      const s = b2Cantilever.generate(100, 'L5').scene;
      const narrow = oneWide(referenceDesign(s)!)!;
      const plan = designPlan(s, narrow);
      expect(planStatics(s, plan, s.payloadKg).holds).to.equal(false);
      const { world, bricks } = await worldWith(s, plan);
      try {
        const top = bricks.partAt(s.targetCell)!;
        const info = bricks.partInfo(top);
        const point = bricks.gridPoint('grid', s.targetCell[0] + 0.5, s.targetCell[1] + 0.5, info.layer + info.height);
        const test = bricks.loadTest({ body: top, point, mass: s.payloadKg, seconds: s.holdSeconds });
        expect(test.held, test.message).to.equal(false);
        expect(test.broken.length).to.be.greaterThan(0);
      } finally {
        world.free();
      }
    });
  });

  describe('tools', () => {
    it('a placement off the table is a violation naming only the rule; the brick budget refuses one brick too many', async () => {
      const inst = b2Cantilever.generate(100, 'L5');
      const s = inst.scene;
      const env = await TaskEnv.create(family, inst);
      try {
        const miss = env.execute({ tool: 'place', args: { brick_type: s.supply[0].type, x_m: 0.01, z_m: 0.33, yaw_deg: 0 } });
        expect(miss.status).to.equal('violation');
        expect(miss.message).to.not.match(/\d\s*(mm|cm|m\b|%|°)/);
        // Fill the brick budget: bricks stacked one on the next at the back corner of the table.
        const queue = s.supply.flatMap((x) => Array.from({ length: x.count }, () => x.type));
        expect(queue.length).to.be.greaterThan(s.maxBricks);
        const at = (type: string): ToolCall => placeCall(s, { type, col: 0, row: 0, rot: 0 });
        for (const type of queue.slice(0, s.maxBricks)) {
          const r = env.execute(at(type));
          expect(r.status, r.message).to.equal('ok');
        }
        const over = env.execute(at(queue[s.maxBricks]));
        expect(over.status).to.equal('violation');
        expect(over.message).to.match(/brick budget/);
        expect(over.message).to.not.match(/\d\s*(mm|cm|m\b|%|°)|budget of \d/);
      } finally {
        env.free();
      }
    });
  });
});
