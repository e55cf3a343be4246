/**
 * B3 tower: the closed-form push statics against the stud statics linear programme, the
 * search's exactness against brute force, the generator's guarantees (heights, a push that
 * matters, text without geometry), and in the real world (episodes through `TaskEnv`, Rapier
 * and the brick statics): the released references reach the mark and survive the push, while a
 * tower one brick short, a single column, the same tower one stud wide, and the same bricks
 * weakest at the bottom or turned across the push all fail.
 */
import { expect } from 'chai';
import { b3Tower } from '../tasks/construction/b3-tower/family.ts';
import { sceneProblem } from '../tasks/construction/b3-tower/filters.ts';
import {
  actionBudget,
  alongRot,
  baseplatePart,
  BRICK_H,
  chainPushCapacity,
  pushedPart,
  pushPoint,
  pushVector,
  strongestFirst,
  TIER_SETTINGS,
  towerPlan,
  type B3Scene,
  type PushDir,
} from '../tasks/construction/b3-tower/scene.ts';
import { designCapacity, designPlan, placeCall, reference, referenceDesign, supplyBricks, weakerDesigns, type TowerDesign } from '../tasks/construction/b3-tower/solver.ts';
import { TaskEnv } from '../tasks/env.ts';
import { capacityKg } from '../tasks/kits/bricks/plan-statics.ts';
import { partsUnderForces } from '../tasks/kits/bricks/plan-forces.ts';
import { landParts } from '../tasks/kits/bricks/plan.ts';
import type { Instance, TaskFamily, Tier, ToolCall } from '../tasks/types.ts';

const family = b3Tower as unknown as TaskFamily;
const TIERS: Tier[] = ['L1', 'L3', 'L5', 'L7'];
const RELEASED: Tier[] = ['L3', 'L5', 'L7'];

/** Plays calls on a fresh episode; returns the results and whether it solved. */
async function play(instance: Instance<B3Scene>, calls: ToolCall[]): Promise<{ messages: string[]; statuses: string[]; solved: boolean; progress: number }> {
  const env = await TaskEnv.create(family, instance);
  try {
    const results = calls.map((c) => env.execute(c));
    return { messages: results.map((r) => r.message), statuses: results.map((r) => r.status), solved: env.solved(), progress: env.progress() };
  } finally {
    env.free();
  }
}

/**
 * The instance with every type of `designs` in its supply (plenty of each, and in the place
 * tool's enum), so that a comparison tower can be built in its world; nothing else changes.
 */
function withSupplyFor(i: Instance<B3Scene>, designs: TowerDesign[]): Instance<B3Scene> {
  const supply = i.scene.supply.map((x) => ({ ...x }));
  for (const t of new Set(designs.flatMap((d) => d.types))) {
    const item = supply.find((x) => x.type === t);
    if (item) item.count = Math.max(item.count, 20);
    else supply.push({ type: t, count: 20 });
  }
  const tools = i.tools.map((t) => (t.name === 'place' ? { ...t, parameters: { ...t.parameters, properties: { ...(t.parameters.properties as object), brick_type: { enum: supply.map((x) => x.type) } } } } : t));
  return { ...i, scene: { ...i.scene, supply }, tools };
}

/** The calls that build a design on an instance and commit. */
function buildCalls(s: B3Scene, d: TowerDesign): ToolCall[] {
  return [...designPlan(s, d).map((p) => placeCall(s, p)), { tool: 'commit', args: {} }];
}

/** The push capacity by the linear programme (bisection on its verdict), N. */
function lpCapacity(s: Pick<B3Scene, 'plate' | 'pushHeight' | 'pushDir'>, types: string[], rot: 0 | 90): number {
  const landed = landParts([baseplatePart(s.plate)], towerPlan(s.plate, types.map((type) => ({ type, rot }))));
  if ('unsupported' in landed) throw new Error('unsupported');
  const hit = pushedPart(s, landed.parts)!;
  const [dx, dz] = pushVector(s.pushDir);
  return capacityKg((f) => partsUnderForces(landed.parts, [{ part: hit.name, point: pushPoint(s, hit), force: [f * dx, 0, f * dz] }]).holds, 0.001, 40, 18);
}

describe('B3 tower', function () {
  this.timeout(600000);

  describe('statics', () => {
    it('the closed-form push capacity agrees with the stud statics LP (within 0.2 %) over plates, directions, heights and orders', () => {
      const cases: Array<[number, PushDir, number, string[], 0 | 90]> = [
        [8, '+x', 0.045, ['brick-1x2', 'brick-1x2', 'brick-1x2', 'brick-1x2', 'brick-1x2'], 0],
        [8, '-x', 0.05, ['brick-2x8', 'brick-2x6', 'brick-2x4', 'brick-2x4', 'brick-2x2', 'brick-2x2'], 0],
        [6, '+z', 0.07, ['brick-2x8', 'brick-2x8', 'brick-2x6', 'brick-2x4', 'brick-2x4', 'brick-2x2', 'brick-2x2', 'brick-2x2'], 90],
        [6, '-z', 0.07, ['brick-2x8', 'brick-2x8', 'brick-2x6', 'brick-2x4', 'brick-2x4', 'brick-2x2', 'brick-2x2', 'brick-2x2'], 0],
        [6, '+x', 0.04, ['brick-2x2', 'brick-2x4', 'brick-2x6', 'brick-2x8', 'brick-2x8'], 0],
        [6, '-z', 0.05, ['brick-1x8', 'brick-1x6', 'brick-1x4', 'brick-1x4', 'brick-1x2', 'brick-1x2'], 90],
      ];
      for (const [plate, pushDir, pushHeight, types, rot] of cases) {
        const s = { plate, pushDir, pushHeight };
        const closed = chainPushCapacity(s, towerPlan(plate, types.map((type) => ({ type, rot }))))!;
        const lp = lpCapacity(s, types, rot);
        expect(Math.abs(closed - lp) / lp, `${plate} ${pushDir} ${types.join(',')}`).to.be.below(0.002);
      }
    });

    it('a tower that is not one brick per layer is left to the LP (null), and one the push misses carries nothing', () => {
      const s = { plate: 8, pushDir: '+x' as PushDir, pushHeight: 0.02 };
      const side = [
        { type: 'brick-2x2', col: 0, row: 0, rot: 0 as const },
        { type: 'brick-2x2', col: 4, row: 0, rot: 0 as const },
      ];
      expect(chainPushCapacity(s, side)).to.equal(null);
      // A one-wide column off the push's line (rows 0 … 0 while the line runs at row 4).
      expect(chainPushCapacity(s, [{ type: 'brick-1x2', col: 3, row: 0, rot: 0 }, { type: 'brick-1x2', col: 3, row: 0, rot: 0 }, { type: 'brick-1x2', col: 3, row: 0, rot: 0 }])).to.equal(0);
    });
  });

  describe('solver', () => {
    it('the n strongest bricks, strongest first, are the best tower: brute force over every choice and order of a small supply', () => {
      const s = { plate: 6, pushDir: '+x' as PushDir, pushHeight: 3.5 * BRICK_H, supply: [{ type: 'brick-2x8', count: 1 }, { type: 'brick-2x6', count: 1 }, { type: 'brick-2x4', count: 2 }, { type: 'brick-2x2', count: 1 }, { type: 'brick-1x4', count: 1 }], layers: 4 };
      const d = referenceDesign(s)!;
      expect(d.types).to.deep.equal(['brick-2x8', 'brick-2x6', 'brick-2x4', 'brick-2x4']);
      const best = designCapacity(s, d);
      const bricks = supplyBricks(s);
      let bruteBest = 0;
      const pick = (left: string[], chosen: string[]): void => {
        if (chosen.length === s.layers) {
          bruteBest = Math.max(bruteBest, chainPushCapacity(s, towerPlan(s.plate, chosen.map((type) => ({ type, rot: alongRot(s.pushDir) }))))!);
          return;
        }
        new Set(left).forEach((t) => {
          const i = left.indexOf(t);
          pick([...left.slice(0, i), ...left.slice(i + 1)], [...chosen, t]);
        });
      };
      pick(bricks, []);
      expect(best).to.be.closeTo(bruteBest, 1e-12);
      expect(strongestFirst(['brick-2x2', 'brick-1x4', 'brick-2x8'])).to.deep.equal(['brick-2x8', 'brick-1x4', 'brick-2x2']);
    });
  });

  describe('generator', () => {
    for (const tier of TIERS) {
      it(`${tier}: the tier's plate and layers; the mark needs exactly the reference's bricks; the push meets a brick of it; the weaker towers fail by the closed form`, () => {
        const cfg = TIER_SETTINGS[tier];
        for (let seed = 0; seed < 30; seed++) {
          const i = b3Tower.generate(seed, tier);
          const s = i.scene;
          expect(sceneProblem(s, tier)).to.equal(null);
          expect(s.plate).to.equal(cfg.plate);
          expect(s.layers).to.be.within(cfg.layers[0], cfg.layers[1]);
          expect(s.targetHeight).to.be.above((s.layers - 1) * BRICK_H).and.below(s.layers * BRICK_H);
          expect(s.pushHeight).to.be.below(s.layers * BRICK_H);
          expect(i.budgets.actions).to.equal(actionBudget(s.layers));
          const ref = referenceDesign(s)!;
          expect(designCapacity(s, ref)).to.be.at.least(1.3 * s.pushForce - 1e-9);
          const weaker = weakerDesigns(ref);
          expect(designCapacity(s, weaker.column!)).to.be.below(s.pushForce);
          expect(designCapacity(s, weaker.narrow!)).to.be.below(s.pushForce);
          if (cfg.reversedFails) expect(designCapacity(s, weaker.reversed!)).to.be.below(s.pushForce);
          if (cfg.turnedFails) expect(designCapacity(s, weaker.turned!)).to.be.below(s.pushForce);
        }
      });
    }

    it('the text a model reads carries no force, height or position: rules and tools read alike over seeds but for the supply and the budget', () => {
      for (const tier of TIERS) {
        const texts = new Set<string>();
        for (let seed = 0; seed < 20; seed++) {
          const i = b3Tower.generate(seed, tier);
          let text = [i.title, i.rules, JSON.stringify(i.tools)].join('\n');
          for (const v of b3Tower.textVaries!) for (const x of v.values(i).slice().sort((a, b) => b.length - a.length)) text = text.split(x).join('<masked>');
          expect(text).not.to.include(String(i.scene.pushForce));
          texts.add(text);
        }
        expect(texts.size, tier).to.equal(1);
      }
    });
  });

  describe('episodes (the real world)', () => {
    for (const tier of RELEASED) {
      it(`${tier}-s100: the reference reaches the mark and survives the push; a tower one brick short, a single column, the same tower one stud wide, reversed or turned fail`, async () => {
        const i = b3Tower.generate(100, tier);
        const s = i.scene;
        const ref = reference(i);
        const good = await play(i, ref.calls);
        expect(good.statuses.every((x) => x === 'ok'), good.messages.join(' | ')).to.equal(true);
        expect(good.solved, good.messages.at(-1)).to.equal(true);
        const d = referenceDesign(s)!;
        const short = await play(i, buildCalls(s, { types: d.types.slice(0, -1), rot: d.rot }));
        expect(short.solved).to.equal(false);
        expect(short.messages.at(-1)).to.match(/does not reach the red mark/);
        expect(short.progress).to.be.within(0.5, 0.8);
        const weaker = weakerDesigns(d);
        const mustFail: Array<keyof typeof weaker> = ['column', 'narrow'];
        if (TIER_SETTINGS[tier].reversedFails) mustFail.push('reversed');
        if (TIER_SETTINGS[tier].turnedFails) mustFail.push('turned');
        const rich = withSupplyFor(i, mustFail.map((k) => weaker[k]!));
        for (const k of mustFail) {
          const r = await play(rich, buildCalls(s, weaker[k]!));
          expect(r.statuses.slice(0, -1).every((x) => x === 'ok'), `${k}: ${r.messages.join(' | ')}`).to.equal(true);
          expect(r.solved, `${k} must fail the push`).to.equal(false);
          expect(r.messages.at(-1), k).to.match(/failed under the push/);
        }
      });
    }

    it('place snaps onto the baseplate and refuses (at an action\'s cost) over the mat or off the grid; a tower off the push\'s line fails', async () => {
      const i = b3Tower.generate(100, 'L3');
      const s = i.scene;
      const first = placeCall(s, designPlan(s, referenceDesign(s)!)[0]);
      const x = first.args.x_m as number;
      const z = first.args.z_m as number;
      const r = await play(i, [
        { tool: 'place', args: { ...first.args, x_m: x + 0.002 } },
        { tool: 'remove', args: { brick: 'b1' } },
        { tool: 'place', args: { ...first.args, x_m: x + 0.004 } },
        { tool: 'place', args: { ...first.args, x_m: s.siteX > 0.15 ? 0.04 : 0.26, z_m: 0.2 } },
      ]);
      expect(r.statuses).to.deep.equal(['ok', 'ok', 'violation', 'violation']);
      expect(r.messages[2]).to.match(/not on the stud grid/);
      expect(r.messages[3]).to.match(/would land on the mat/);
      for (const m of r.messages) expect(m).not.to.match(/\d+(\.\d+)? ?(mm|cm|m)\b|%/);
      // The reference's bricks moved to the baseplate's edge, off the push's line: tall enough, but the push meets nothing.
      const d = referenceDesign(s)!;
      const off = designPlan(s, d).map((p) => (d.rot === 0 ? { ...p, row: 0 } : { ...p, col: 0 }));
      const missed = await play(i, [...off.map((p) => placeCall(s, p)), { tool: 'commit', args: {} }]);
      expect(missed.statuses.slice(0, -1).every((x) => x === 'ok'), missed.messages.join(' | ')).to.equal(true);
      expect(missed.solved).to.equal(false);
      expect(missed.messages.at(-1)).to.match(/met no brick/);
    });
  });
});
