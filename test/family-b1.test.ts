/**
 * B1 bridge: the generator's guarantees, the statics model against the world's brick
 * statics, the tools, and what makes an instance meaningful — the reference bridge holds the
 * load in the real world while the same bricks without the tie across the middle do not.
 */
import { expect } from 'chai';
import { BRICK_WORLD_OPTIONS, BrickSystem } from '../sim/bricks.ts';
import { World } from '../sim/world.ts';
import { b1Bridge } from '../tasks/construction/b1-bridge/family.ts';
import { sceneProblem } from '../tasks/construction/b1-bridge/filters.ts';
import { brickType, PITCH, PLATE } from '../tasks/kits/bricks/catalog.ts';
import { footprint, type Placement } from '../tasks/kits/bricks/plan.ts';
import { gridToWorld, L1_MAX_BRICKS, singlePierBoundKg, TIER_SETTINGS, TWO_SIDED_MARGIN, type B1Scene } from '../tasks/construction/b1-bridge/scene.ts';
import { designPlan, placeCall, REFERENCE_MARGIN, referenceDesign, weakenedPlans } from '../tasks/construction/b1-bridge/solver.ts';
import { planCapacityKg, planStatics } from '../tasks/construction/b1-bridge/statics-model.ts';
import { TaskEnv } from '../tasks/env.ts';
import type { Instance, TaskFamily, Tier, ToolCall } from '../tasks/types.ts';

const family = b1Bridge as unknown as TaskFamily;
const RELEASED: Tier[] = ['L3', 'L5', 'L7'];

/** Plays calls on a fresh episode; returns the results and whether it solved. */
async function play(instance: Instance<B1Scene>, calls: ToolCall[]): Promise<{ messages: string[]; statuses: string[]; solved: boolean }> {
  const env = await TaskEnv.create(family, instance);
  try {
    const results = calls.map((c) => env.execute(c));
    return { messages: results.map((r) => r.message), statuses: results.map((r) => r.status), solved: env.solved() };
  } finally {
    env.free();
  }
}

/** A world with the scene's piers (unturned grid) and a plan placed through the BrickSystem. */
async function worldWith(s: B1Scene, plan: Placement[]): Promise<{ world: World; bricks: BrickSystem }> {
  const world = await World.create(BRICK_WORLD_OPTIONS);
  const bricks = new BrickSystem(world, { grid: { name: 'grid', origin: [0, s.pierPlates * PLATE, 0] } });
  bricks.addBaseplate({ name: 'pier-west', size: [s.pierCols, s.rows], cell: [0, 0], top: 0, height: s.pierPlates });
  bricks.addBaseplate({ name: 'pier-east', size: [s.pierCols, s.rows], cell: [s.pierCols + s.gap, 0], top: 0, height: s.pierPlates });
  plan.forEach((p, i) => {
    const t = brickType(p.type);
    bricks.place({ name: `b${i + 1}`, size: [t.length, t.width], plate: t.plate, cell: [p.col, p.row], rot: p.rot });
  });
  return { world, bricks };
}

/** The world's statics verdict with `kg` at the load cell. */
function worldHolds(s: B1Scene, bricks: BrickSystem, kg: number): boolean {
  const top = bricks.partAt(s.loadCell);
  if (!top || bricks.partInfo(top).fixed) return false;
  const info = bricks.partInfo(top);
  const point = bricks.gridPoint('grid', s.loadCell[0] + 0.5, s.loadCell[1] + 0.5, info.layer + info.height);
  return bricks.analyze([{ body: top, point, force: [0, -9.81 * kg, 0] }]).stable;
}

describe('B1 bridge', function () {
  this.timeout(120_000);

  describe('generator', () => {
    for (const tier of ['L1', 'L3', 'L5', 'L7'] as Tier[]) {
      it(`${tier}: levers as the tier says, no brick spans the gap, the load needs both piers`, () => {
        const cfg = TIER_SETTINGS[tier];
        for (const seed of [100, 101, 102]) {
          const inst = b1Bridge.generate(seed, tier);
          const s = inst.scene;
          expect(sceneProblem(s, tier), `seed ${seed}`).to.equal(null);
          expect(inst.scoring).to.equal('passfail');
          expect(s.gap % 2, 'odd gap: the load cell is the middle one').to.equal(1);
          expect(s.loadCell).to.deep.equal([s.pierCols + (s.gap - 1) / 2, 1]);
          expect(cfg.gaps).to.include(s.gap);
          for (const x of s.supply) expect(brickType(x.type).length, x.type).to.be.at.most(s.gap - 1);
          expect(s.loadKg).to.be.at.least(TWO_SIDED_MARGIN * singlePierBoundKg(s) - 1e-9);
          expect(s.budgeted).to.equal(cfg.budgeted);
          if (!cfg.budgeted) expect(s.maxBricks).to.equal(L1_MAX_BRICKS);
          expect(s.decoys.length > 0).to.equal(cfg.decoys);
          for (const d of s.decoys) expect(s.supply.map((x) => x.type)).to.include(d);
          if (cfg.rotated) {
            expect(Math.abs(s.yawDeg)).to.be.within(30, 60);
            expect(inst.levers).to.deep.equal(['+rot']);
          } else expect(s.yawDeg).to.equal(0);
          expect(JSON.parse(JSON.stringify(inst))).to.deep.equal(inst);
        }
      });
    }
  });

  describe('statics', () => {
    it('the statics model agrees with BrickSystem.analyze in a real world', async () => {
      for (const tier of RELEASED) {
        const s = b1Bridge.generate(100, tier).scene;
        const d = referenceDesign(s)!;
        const plans = [designPlan(s, d), ...weakenedPlans(s, d)];
        for (const [k, plan] of plans.entries()) {
          const { world, bricks } = await worldWith(s, plan);
          try {
            for (const kg of [s.loadKg, s.loadKg * REFERENCE_MARGIN]) {
              expect(worldHolds(s, bricks, kg), `${tier} ${JSON.stringify(plan)} ${kg} kg`).to.equal(planStatics(s, plan, kg).holds);
            }
            if (k === 2) continue;
            // Capacities agree to the bisection's resolution.
            const cap = planCapacityKg(s, plan, 0.01, 8, 16);
            if (cap > 0.02 && cap < 7.9) {
              expect(worldHolds(s, bricks, cap * 0.99), `${tier} below capacity ${cap}`).to.equal(true);
              expect(worldHolds(s, bricks, cap * 1.01), `${tier} above capacity ${cap}`).to.equal(false);
            }
          } finally {
            world.free();
          }
        }
      }
    });

    it('the load is beyond one pier: a one-sided structure over the whole pier fails', () => {
      const s = b1Bridge.generate(100, 'L5').scene;
      const topCol = s.loadCell[0] - 7;
      expect(topCol, 'room for the crosswise ties behind the top brick').to.be.at.least(2);
      // Every pier stud under a long brick, the three rows tied by crosswise bricks on top, and
      // a long brick on top reaching the load cell.
      const plan: Placement[] = [
        { type: 'brick-1x8', col: 0, row: 0, rot: 0 },
        { type: 'brick-1x8', col: 0, row: 1, rot: 0 },
        { type: 'brick-1x8', col: 0, row: 2, rot: 0 },
        { type: 'brick-1x4', col: 0, row: 0, rot: 90 },
        { type: 'brick-1x4', col: 1, row: 0, rot: 90 },
        { type: 'brick-1x8', col: topCol, row: 1, rot: 0 },
      ];
      expect(planStatics(s, plan, 0).holds, 'stands on its own').to.equal(true);
      const cap = planCapacityKg(s, plan, 0.01, 8, 12);
      expect(cap).to.be.above(0.01);
      expect(cap).to.be.below(singlePierBoundKg(s));
      expect(cap).to.be.below(s.loadKg);
    });
  });

  describe('episodes', () => {
    for (const tier of RELEASED) {
      it(`${tier}-s100: the reference holds; without the tie across the middle it fails`, async () => {
        const inst = b1Bridge.generate(100, tier);
        const s = inst.scene;
        const ref = await b1Bridge.reference(inst);
        const good = await play(inst, ref.calls);
        expect(good.statuses.every((x) => x === 'ok'), good.messages.join(' / ')).to.equal(true);
        expect(good.solved, good.messages.at(-1)).to.equal(true);
        expect(good.messages.at(-1)).to.match(/held/);
        const d = referenceDesign(s)!;
        const commit: ToolCall = { tool: 'commit', args: {} };
        for (const weak of weakenedPlans(s, d)) {
          const r = await play(inst, [...weak.map(placeCall), commit]);
          expect(r.statuses.every((x) => x === 'ok'), r.messages.join(' / ')).to.equal(true);
          expect(r.solved, `tie at col ${weak[2].col}: ${r.messages.at(-1)}`).to.equal(false);
          expect(r.messages.at(-1)).to.match(/failed/);
        }
        const noTie = await play(inst, [...designPlan(s, d).slice(0, 2).map(placeCall), commit]);
        expect(noTie.solved).to.equal(false);
        expect(noTie.messages.at(-1)).to.match(/fell into the gap/);
      });
    }

    it('tools: unsupported, blocked and over-budget placements are rolled back; removal returns a brick', async () => {
      const inst = b1Bridge.generate(100, 'L3');
      const s = inst.scene;
      const env = await TaskEnv.create(family, inst);
      try {
        const hash = env.stateHash();
        const short = s.supply[0].type;
        // Over the middle of the gap there is nothing to rest on.
        const mid = env.execute({ tool: 'place', args: { brick_type: short, col: s.loadCell[0], row: 1, rot_deg: 90 } });
        expect(mid.status).to.equal('violation');
        expect(mid.violation?.kind).to.equal('statics');
        expect(env.stateHash()).to.equal(hash);
        // A layer that is not where the brick comes to rest: nothing is under it there.
        const high = env.execute({ tool: 'place', args: { brick_type: short, col: 0, row: 0, rot_deg: 90, layer: 6 } });
        expect(high.status).to.equal('violation');
        expect(env.stateHash()).to.equal(hash);
        // Stack every brick of the first type on the west pier, then one more.
        const n = s.supply[0].count;
        for (let i = 0; i < n; i++) {
          const r = env.execute({ tool: 'place', args: { brick_type: short, col: 0, row: 1, rot_deg: 0 } });
          expect(r.status, r.message).to.equal('ok');
          expect(r.message).to.include(`'b${i + 1}'`);
        }
        expect(env.familyEnv.observationText!()).to.include(`${short} ×0`);
        const extra = env.execute({ tool: 'place', args: { brick_type: short, col: 0, row: 1, rot_deg: 0 } });
        expect(extra.status).to.equal('violation');
        expect(extra.violation?.kind).to.equal('rule');
        if (n > 1) {
          const under = env.execute({ tool: 'remove', args: { brick: 'b1' } });
          expect(under.status).to.equal('violation');
          expect(under.violation?.kind).to.equal('rule');
        }
        const top = env.execute({ tool: 'remove', args: { brick: `b${n}` } });
        expect(top.status, top.message).to.equal('ok');
        expect(env.world.hasBody(`b${n}`)).to.equal(false);
        expect(env.familyEnv.observationText!()).to.include(`${short} ×1`);
        const ghost = env.execute({ tool: 'remove', args: { brick: 'b99' } });
        expect(ghost.status).to.equal('invalid');
        expect(env.progress()).to.be.within(0, 0.7);
        const end = env.execute({ tool: 'commit', args: {} });
        expect(end.status).to.equal('ok');
        expect(env.terminated).to.equal(true);
        expect(env.solved()).to.equal(false);
      } finally {
        env.free();
      }
    });

    it('L7: bricks land where the turned grid puts them, and carry their studs', async () => {
      const inst = b1Bridge.generate(100, 'L7');
      const s = inst.scene;
      const env = await TaskEnv.create(family, inst);
      try {
        const type = s.supply.find((x) => brickType(x.type).length >= 4)!.type;
        const p: Placement = { type, col: 0, row: 0, rot: 90 };
        const r = env.execute(placeCall(p));
        expect(r.status, r.message).to.equal('ok');
        const [fc, fr] = footprint(p);
        const h = brickType(type).plate ? 1 : 3;
        const expected = gridToWorld(s, fc / 2, fr / 2, h / 2);
        const got = env.world.getPose('b1').p;
        for (let k = 0; k < 3; k++) expect(got[k]).to.be.closeTo(expected[k], 1e-6);
        const unturned = gridToWorld({ ...s, yawDeg: 0 }, fc / 2, fr / 2, h / 2);
        expect(Math.hypot(got[0] - unturned[0], got[2] - unturned[2])).to.be.greaterThan(PITCH);
        // Studs are drawn-only shapes of the brick itself: one per cell, no companion bodies.
        const drawn = env.world.describe().find((b) => b.name === 'b1')!;
        expect(drawn.visual?.length).to.equal(fc * fr);
        expect(env.world.bodyNames().some((n) => n.includes(':'))).to.equal(false);
      } finally {
        env.free();
      }
    });
  });
});
