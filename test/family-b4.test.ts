/**
 * B4 overhang stack: the loose-block kit's exact statics and farthest column on hand-built
 * columns (the harmonic numbers, a column a millimetre past its limit, a block on nothing), the
 * same columns in the real world (Rapier holds a column built at the rule's margin from the
 * longest blocks the generator draws; the exact check refuses one past it and the world is put
 * back), the tools, the generator's guarantees (the straight first view's elevation among them)
 * and the sightless column fitted to the prior.
 */
import { expect } from 'chai';
import { b4OverhangStack } from '../tasks/construction/b4-overhang-stack/family.ts';
import { actionBudget, RULE_MARGIN, TIERS, type B4Scene } from '../tasks/construction/b4-overhang-stack/scene.ts';
import { anyColumnReach, referenceArrangement, referenceOf, ruleReach } from '../tasks/construction/b4-overhang-stack/solver.ts';
import { TaskEnv } from '../tasks/env.ts';
import { arrangementFailure, arrangementReach, contactForcesBalance, farthestTree, landingLevel, treeShapes, type ArrangedBlock } from '../tasks/kits/loose-blocks/arrangement.ts';
import { bestColumn, columnFailure, columnReach, farthestColumn } from '../tasks/kits/loose-blocks/column.ts';
import { solveLp } from '../tasks/kits/loose-blocks/lp.ts';
import { BLOCK_DEPTH, BLOCK_HEIGHT, blockBody, mixedSupplyLengths, SUPPLY_PITCH, supplyPose } from '../tasks/kits/loose-blocks/table-edge.ts';
import { STRAIGHT_VIEW_ELEVATION } from '../tasks/construction/b4-overhang-stack/generate.ts';
import { Rng } from '../core/rng.ts';
import { SpaceActError } from '../core/errors.ts';
import type { Instance, TaskFamily, Tier } from '../tasks/types.ts';
import { World } from '../sim/world.ts';

const family = b4OverhangStack as unknown as TaskFamily<B4Scene>;

/** Largest block motion (m) in 2 s of loose blocks (B4's cross-section) each on its level, built at once in Rapier at a table edge at x = 0. */
async function settleMotionAt(blocks: { x: number; length: number; level: number }[]): Promise<number> {
  const world = await World.create();
  try {
    world.addBody({ name: 'table', kind: 'static', pose: { p: [-0.5, -0.05, 0], q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half: [0.5, 0.05, 0.5] }] });
    const starts = blocks.map((b) => [b.x, BLOCK_HEIGHT * (b.level + 0.5), 0] as [number, number, number]);
    blocks.forEach((b, k) =>
      world.addBody({ name: `block${k}`, kind: 'dynamic', pose: { p: starts[k], q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half: [b.length / 2, BLOCK_HEIGHT / 2, 0.02] }], material: { density: 600, friction: 0.6 } }),
    );
    world.advance(2);
    return Math.max(...starts.map((p0, k) => Math.hypot(...world.getPose(`block${k}`).p.map((v, a) => v - p0[a]))));
  } finally {
    world.free();
  }
}
const TIER_LIST: Tier[] = ['L1', 'L3', 'L5', 'L7'];

describe('B4 overhang stack', function () {
  this.timeout(300_000);

  describe('loose-block kit (exact statics)', () => {
    it('the farthest column of n equal blocks at zero margin is the harmonic overhang L/2 · (1 + 1/2 + … + 1/n)', () => {
      const L = 0.2;
      const harmonic = (n: number): number => (L / 2) * Array.from({ length: n }, (_, k) => 1 / (k + 1)).reduce((a, b) => a + b, 0);
      for (const n of [1, 2, 3, 4, 5]) {
        const c = farthestColumn(Array(n).fill(L), 0, 0);
        expect(c, `n = ${n}`).to.not.equal(null);
        expect(columnReach(c!)).to.be.closeTo(harmonic(n), 1e-12);
      }
    });

    it('a margin costs reach, between one and n margins for n levels, and the column stands exactly at its margin', () => {
      const harmonic4 = (0.1 * 25) / 12;
      const c = farthestColumn([0.2, 0.2, 0.2, 0.2], 0, 0.005)!;
      expect(columnReach(c)).to.be.within(harmonic4 - 4 * 0.005, harmonic4 - 0.005);
      expect(columnFailure(c, 0, 0.005 - 1e-9)).to.equal(null);
      // Every level of the construction sits at its margin: any push outward fails.
      expect(columnFailure(c.map((b) => ({ ...b, x: b.x + 0.001 })), 0, 0.005)).to.deep.equal({ level: 0, kind: 'tips' });
    });

    it('the lowest failing level is named: a top block past its support tips there; a block past the one below rests on nothing', () => {
      const bottom = { x: -0.15, length: 0.2 };
      // The load of level 1 (its own block) 1 mm past the margin of the bottom block's far end.
      expect(columnFailure([bottom, { x: -0.05 - RULE_MARGIN + 0.001, length: 0.2 }], 0, RULE_MARGIN)).to.deep.equal({ level: 1, kind: 'tips' });
      expect(columnFailure([bottom, { x: -0.05 - RULE_MARGIN - 0.001, length: 0.2 }], 0, RULE_MARGIN)).to.equal(null);
      expect(columnFailure([bottom, { x: 0.06, length: 0.1 }], 0, RULE_MARGIN)).to.deep.equal({ level: 1, kind: 'unsupported' });
      expect(columnFailure([{ x: 0.2, length: 0.2 }], 0, RULE_MARGIN)).to.deep.equal({ level: 0, kind: 'unsupported' });
    });

    it('bestColumn tries every choice and order: with mixed lengths the shorter blocks go under the longer ones', () => {
      const best = bestColumn([0.2, 0.2, 0.12, 0.13, 0.06, 0.07], 4, 0, 0.005)!;
      expect(best.order.slice(2).sort()).to.deep.equal([0, 1]);
      const naive = farthestColumn([0.2, 0.2, 0.13, 0.12], 0, 0.005)!;
      expect(best.reach).to.be.greaterThan(columnReach(naive));
    });
  });

  describe('loose-block kit (arrangements: the contact-force linear program)', () => {
    /** Unit blocks at `xs` on `levels`, table edge at 0. */
    const unitBlocks = (xs: number[], levels: number[]): ArrangedBlock[] => xs.map((x, k) => ({ x, length: 1, level: levels[k] }));

    it('the simplex solves a textbook program and tells infeasible and unbounded ones apart', () => {
      const r = solveLp([1, 1], [
        { coeffs: [1, 2], op: '<=', rhs: 4 },
        { coeffs: [3, 1], op: '<=', rhs: 6 },
      ]);
      expect(r.status).to.equal('optimal');
      if (r.status === 'optimal') {
        expect(r.x[0]).to.be.closeTo(1.6, 1e-12);
        expect(r.x[1]).to.be.closeTo(1.2, 1e-12);
      }
      const eq = solveLp([0, -1], [{ coeffs: [1, 1], op: '=', rhs: 2 }, { coeffs: [1, -1], op: '>=', rhs: 1 }]);
      expect(eq.status === 'optimal' && eq.x[0]).to.be.closeTo(2, 1e-12);
      expect(solveLp([0, 0], [{ coeffs: [1, 1], op: '<=', rhs: 1 }, { coeffs: [1, 0], op: '>=', rhs: 2 }]).status).to.equal('infeasible');
      expect(solveLp([1, 0], [{ coeffs: [0, 1], op: '<=', rhs: 1 }]).status).to.equal('unbounded');
    });

    it('on columns the linear program gives the column rule\'s verdict (random columns away from the limit), and the verdict takes the column rule for them', () => {
      let state = 12345;
      const rnd = (): number => (state = (state * 16807) % 2147483647) / 2147483647;
      let stood = 0;
      let fell = 0;
      for (let trial = 0; trial < 400; trial++) {
        const n = 1 + Math.floor(rnd() * 4);
        const blocks = Array.from({ length: n }, (_, k) => ({ x: 0.3 + (rnd() - 0.5) * 0.1 + k * 0.02, length: 0.08 + rnd() * 0.15, level: k }));
        const rule = columnFailure(blocks, 0.35, RULE_MARGIN);
        // Skip the columns within a micrometre of a limit: there the two computations may round apart.
        const near = columnFailure(blocks, 0.35, RULE_MARGIN - 1e-6) === null && columnFailure(blocks, 0.35, RULE_MARGIN + 1e-6) !== null;
        if (near) continue;
        expect(contactForcesBalance(blocks, 0.35, RULE_MARGIN), `trial ${trial}`).to.equal(rule === null);
        expect(arrangementFailure(blocks, 0.35, RULE_MARGIN) === null).to.equal(rule === null);
        if (rule) fell++;
        else stood++;
      }
      expect(stood).to.be.greaterThan(30);
      expect(fell).to.be.greaterThan(30);
    });

    it('three blocks: one on the table, one on its far end and a counterweight on its back end reach one block length (Paterson–Zwick\'s 3-block optimum); 1 % farther falls, and so does the same stack without its counterweight', () => {
      const levels = [0, 1, 1];
      // The optimum: the bottom block centred on the edge, the counterweight's centre over its back end, the reaching block's over its far end.
      const at = (f: number): ArrangedBlock[] => unitBlocks([0, -0.5, 0.5 + f], levels);
      expect(arrangementFailure(at(-0.001), 0, 0)).to.equal(null);
      expect(arrangementReach(at(0))).to.equal(1);
      expect(arrangementFailure(at(0.01), 0, 0)).to.deep.equal({ kind: 'tips' });
      expect(arrangementFailure([at(-0.001)[0], at(-0.001)[2]], 0, 0)).to.deep.equal({ kind: 'tips' });
      // The best column of three reaches 11/12 only; the tree search finds the counterweighted 1 and nothing better.
      expect(columnReach(farthestColumn([1, 1, 1], 0, 0)!)).to.be.closeTo(11 / 12, 1e-12);
      let best = -Infinity;
      for (const parent of treeShapes(3)) for (let r = 0; r < 3; r++) best = Math.max(best, arrangementReach(farthestTree({ lengths: [1, 1, 1], parent }, r, { edge: 5, margin: 0, gap: 0, xMax: 10 }) ?? []) - 5);
      expect(best).to.be.closeTo(1, 1e-9);
    });

    it('four blocks: the two-on-one stack with a block bridging them stands at 0.9996 of Paterson–Zwick\'s optimum (15 − 4√2)/8, past the harmonic 25/24; 2 mm farther falls', () => {
      const optimum = (15 - 4 * Math.SQRT2) / 8;
      // Found by a local search over this shape with the verdict (not a closed form): the bottom
      // block, a counterweight and the reaching block side by side on it, and a block across both.
      const stack = unitBlocks([0.023, -0.6221, 0.6674, -0.0688], [0, 1, 1, 2]);
      expect(arrangementFailure(stack, 0, 0)).to.equal(null);
      expect(arrangementReach(stack)).to.be.within(optimum - 0.001, optimum);
      expect(arrangementReach(stack)).to.be.greaterThan(25 / 24 + 0.1);
      expect(arrangementFailure(stack.map((b, k) => (k === 2 ? { ...b, x: optimum - 0.5 + 0.002 } : b)), 0, 0)).to.deep.equal({ kind: 'tips' });
      // Without the bridging block the counterweight cannot hold the reaching block there.
      expect(arrangementFailure(stack.slice(0, 3), 0, 0)).to.deep.equal({ kind: 'tips' });
    });

    it('a block across two others rests on both; the margin counts on every contact; a block lowered over nothing past the edge rests on nothing', () => {
      const base = [
        { x: -0.3, length: 0.2, level: 0 },
        { x: -0.08, length: 0.2, level: 0 },
      ];
      expect(landingLevel(base, -0.19, 0.2, 0)).to.equal(1);
      expect(landingLevel(base, 0.2, 0.1, 0)).to.equal(null);
      expect(landingLevel(base, -0.6, 0.1, 0)).to.equal(0);
      // Centred over the gap: both carry it.
      expect(arrangementFailure([...base, { x: -0.19, length: 0.2, level: 1 }], 0, RULE_MARGIN)).to.equal(null);
      // Touching the right block by 8 mm only (too narrow to carry anything at the margin), its centre over the left one: held by the left.
      expect(arrangementFailure([...base, { x: -0.272, length: 0.2, level: 1 }], 0, RULE_MARGIN)).to.equal(null);
      // A short block whose centre is past both: falls.
      expect(arrangementFailure([base[0], { x: -0.17, length: 0.06, level: 1 }], 0, RULE_MARGIN)).to.deep.equal({ kind: 'tips' });
      expect(arrangementFailure([{ x: 0.2, length: 0.1, level: 0 }], 0, RULE_MARGIN)).to.deep.equal({ kind: 'unsupported', block: 0 });
    });
  });

  describe('the real world (Rapier) agrees with the exact check', () => {
    /** An instance of `tier` whose blocks are all `length` long and whose marker is out of reach. */
    function handBuilt(tier: Tier, length: number): Instance<B4Scene> {
      const i = family.generate(100, tier);
      return { ...i, scene: { ...i.scene, blocks: i.scene.blocks.map((b) => ({ ...b, length })), markerX: 0.74 } };
    }

    it('a column at the rule margin from the longest blocks stands through the settle check; 2 mm past it is refused and the world put back', async () => {
      const instance = handBuilt('L3', TIERS.L3.length[1]);
      const s = instance.scene;
      const column = farthestColumn(s.blocks.map((b) => b.length), s.edgeX, RULE_MARGIN + 1e-5)!;
      const env = await TaskEnv.create(family as TaskFamily, instance);
      try {
        for (let k = 0; k < 3; k++) expect(env.execute({ tool: 'place', args: { block: s.blocks[k].color, x_m: column[k].x } }).status, `level ${k}`).to.equal('ok');
        const before = env.stateHash();
        const over = env.execute({ tool: 'place', args: { block: s.blocks[3].color, x_m: column[3].x + 0.002 } });
        expect(over.status).to.equal('violation');
        expect(over.message).to.equal(`The stack would not stand with '${blockBody(s.blocks[3].color)}' there; the placement was undone.`);
        expect(env.stateHash()).to.equal(before);
        const ok = env.execute({ tool: 'place', args: { block: s.blocks[3].color, x_m: column[3].x } });
        expect(ok.status, ok.message).to.equal('ok');
      } finally {
        env.free();
      }
    });

    /**
     * The harmonic column of `n` equal blocks (zero margin) with every overhang scaled by `f`:
     * each block's far end moves to `f` times its distance past the edge.
     */
    function scaledHarmonic(n: number, length: number, f: number): { x: number; length: number }[] {
      return farthestColumn(Array(n).fill(length), 0, 0)!.map((b) => ({ x: f * (b.x + b.length / 2) - b.length / 2, length: b.length }));
    }

    /** Largest block motion (m) in 2 s of loose blocks (B4's cross-section) built in Rapier at a table edge at x = 0, each on its level (default: a column). */
    async function settleMotion(column: { x: number; length: number; level?: number }[]): Promise<number> {
      const world = await World.create();
      try {
        world.addBody({ name: 'table', kind: 'static', pose: { p: [-0.5, -0.05, 0], q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half: [0.5, 0.05, 0.5] }] });
        const starts = column.map((b, k) => [b.x, BLOCK_HEIGHT * ((b.level ?? k) + 0.5), 0] as [number, number, number]);
        column.forEach((b, k) =>
          world.addBody({ name: `block${k}`, kind: 'dynamic', pose: { p: starts[k], q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half: [b.length / 2, BLOCK_HEIGHT / 2, 0.025] }], material: { friction: 0.6 } }),
        );
        world.advance(2);
        return Math.max(...starts.map((p0, k) => Math.hypot(...world.getPose(`block${k}`).p.map((v, a) => v - p0[a]))));
      } finally {
        world.free();
      }
    }

    // Rapier's settle is not monotone within ±0.5 % of the limit (issue 29), so the agreement is
    // asked at ±2 %. With B4's 20 cm blocks the 2 % is 2 mm of slack per level; measured: the
    // settle sinks a standing column by 1–8 mm (n = 3…8) and a column 2 % past falls metres. With
    // 10 cm blocks (1 mm of slack) eight blocks at 0.98 already fall in Rapier, which is why B4
    // keeps a 5 mm rule margin rather than a fraction of the limit.
    it('the exact verdict agrees with the harmonic bound for n = 3…8: 0.98 of it stands, 1.02 falls — and Rapier\'s settle agrees with 20 cm blocks', async () => {
      const L = 0.2;
      for (let n = 3; n <= 8; n++) {
        const under = scaledHarmonic(n, L, 0.98);
        const over = scaledHarmonic(n, L, 1.02);
        const harmonic = (L / 2) * Array.from({ length: n }, (_, k) => 1 / (k + 1)).reduce((a, b) => a + b, 0);
        expect(columnReach(over) / harmonic, `n = ${n}`).to.be.closeTo(1.02, 1e-9);
        expect(columnFailure(under, 0, 0), `n = ${n} at 0.98`).to.equal(null);
        expect(columnFailure(over, 0, 0), `n = ${n} at 1.02`).to.not.equal(null);
        const stood = await settleMotion(under);
        const fell = await settleMotion(over);
        expect(stood, `n = ${n} at 0.98 moved ${stood} m`).to.be.lessThan(L / 4);
        expect(fell, `n = ${n} at 1.02 moved ${fell} m`).to.be.greaterThan(L / 4);
      }
    });

    it('a counterweighted stack (20 cm blocks, a 12 cm counterweight) at the rule margin stands in Rapier; the same 4 mm past its zero-margin limit, or without its counterweight, is refused and falls', async () => {
      const edge = 0.4;
      const shape = { lengths: [0.2, 0.12, 0.2], parent: [-1, 0, 0] };
      const opts = { edge, gap: 0.002, xMax: 1 };
      const shift = (bs: ArrangedBlock[]): ArrangedBlock[] => bs.map((b) => ({ ...b, x: b.x - edge }));
      const atRule = shift(farthestTree(shape, 2, { ...opts, margin: RULE_MARGIN })!);
      const limit = shift(farthestTree(shape, 2, { ...opts, margin: 0 })!);
      const past = limit.map((b, k) => (k === 2 ? { ...b, x: b.x + 0.004 } : b));
      const bare = [atRule[0], atRule[2]];
      // Past every column of these blocks at the same margin.
      const column = bestColumn([0.2, 0.12, 0.2], 3, 0, RULE_MARGIN)!;
      expect(arrangementReach(atRule)).to.be.greaterThan(column.reach + 0.01);
      expect(arrangementFailure(atRule, 0, RULE_MARGIN)).to.equal(null);
      expect(arrangementFailure(past, 0, 0)).to.deep.equal({ kind: 'tips' });
      expect(arrangementFailure(bare, 0, RULE_MARGIN)).to.deep.equal({ kind: 'tips' });
      const stood = await settleMotion(atRule);
      expect(stood, `at the rule margin it moved ${stood} m`).to.be.lessThan(0.002);
      for (const [name, fallen] of [['past', past], ['without counterweight', bare]] as const) {
        const moved = await settleMotion(fallen);
        expect(moved, `${name} moved ${moved} m`).to.be.greaterThan(0.05);
      }
    });

    it('a block beyond the edge rests on nothing; remove puts a block back where it lay; an empty stack has nothing to remove', async () => {
      const instance = family.generate(100, 'L1');
      const s = instance.scene;
      const env = await TaskEnv.create(family as TaskFamily, instance);
      try {
        const off = env.execute({ tool: 'place', args: { block: s.blocks[0].color, x_m: s.edgeX + s.blocks[0].length } });
        expect(off.message).to.equal(`'${blockBody(s.blocks[0].color)}' would rest on nothing there; the placement was undone.`);
        expect(env.execute({ tool: 'remove', args: {} }).status).to.equal('violation');
        expect(env.execute({ tool: 'place', args: { block: s.blocks[1].color, x_m: s.edgeX - 0.1 } }).status).to.equal('ok');
        expect(env.execute({ tool: 'place', args: { block: s.blocks[1].color, x_m: s.edgeX - 0.1 } }).status).to.equal('invalid');
        expect(env.execute({ tool: 'remove', args: {} }).status).to.equal('ok');
        const p = env.world.getPose(blockBody(s.blocks[1].color)).p;
        const home = supplyPose(s, 1).p;
        for (let a = 0; a < 3; a++) expect(p[a]).to.be.closeTo(home[a], 0.002);
      } finally {
        env.free();
      }
    });
  });

  describe('L7: the counterweighted tier', () => {
    it('the reference (one block on the table, one on its far end, a short one on its back end) stands in the real world and solves; without its counterweight the reaching block is refused, and built in Rapier it falls', async () => {
      for (const seed of [100, 3, 4]) {
        const instance = family.generate(seed, 'L7');
        const s = instance.scene;
        const ref = referenceArrangement(s);
        expect(ref.parent, `seed ${seed}`).to.deep.equal([-1, 0, 0]);
        // The short block is the counterweight, on the left of the reaching one.
        const [bottom, weight, reacher] = ref.order;
        expect(s.blocks[weight].length).to.be.lessThan(Math.min(s.blocks[bottom].length, s.blocks[reacher].length));
        const calls = (await family.reference(instance)).calls;
        const env = await TaskEnv.create(family as TaskFamily, instance);
        try {
          for (const call of calls) expect(env.execute(call).status, `seed ${seed}: ${JSON.stringify(call)}`).to.equal('ok');
          expect(env.solved()).to.equal(true);
          // Every block where it was put (the settle check held them; here: within 2 mm).
          calls.forEach((c, k) => expect(env.world.getPose(blockBody(c.args.block as B4Scene['blocks'][number]['color'])).p[0]).to.be.closeTo(ref.blocks[k].x, 0.002));
        } finally {
          env.free();
        }
        const bare = await TaskEnv.create(family as TaskFamily, instance);
        try {
          expect(bare.execute(calls[0]).status).to.equal('ok');
          const before = bare.stateHash();
          const refused = bare.execute(calls[2]);
          expect(refused.status).to.equal('violation');
          expect(refused.message).to.equal(`The stack would not stand with '${blockBody(s.blocks[reacher].color)}' there; the placement was undone.`);
          expect(bare.stateHash()).to.equal(before);
        } finally {
          bare.free();
        }
        // The same two blocks built at once in Rapier (table edge at x = 0): they fall.
        const two = [ref.blocks[0], ref.blocks[2]].map((b) => ({ x: b.x - s.edgeX, length: b.length, level: b.level }));
        const moved = await settleMotionAt(two);
        expect(moved, `seed ${seed}: without the counterweight it moved ${moved} m`).to.be.greaterThan(0.05);
        const all = ref.blocks.map((b) => ({ x: b.x - s.edgeX, length: b.length, level: b.level }));
        const held = await settleMotionAt(all);
        expect(held, `seed ${seed}: with the counterweight it moved ${held} m`).to.be.lessThan(0.002);
      }
    });

    it('at L7 blocks land side by side: a block lowered beside the bottom one rests on the table, and one over a gap past the edge rests on nothing', async () => {
      const instance = family.generate(100, 'L7');
      const s = instance.scene;
      const env = await TaskEnv.create(family as TaskFamily, instance);
      try {
        const [a, b, c] = s.blocks;
        expect(env.execute({ tool: 'place', args: { block: a.color, x_m: s.edgeX - a.length / 2 - 0.01 } }).status).to.equal('ok');
        const beside = s.edgeX - a.length - 0.02 - b.length / 2;
        expect(env.execute({ tool: 'place', args: { block: b.color, x_m: beside } }).status).to.equal('ok');
        expect(env.world.getPose(blockBody(b.color)).p[1]).to.be.closeTo(BLOCK_HEIGHT / 2, 0.001);
        const off = env.execute({ tool: 'place', args: { block: c.color, x_m: s.edgeX + c.length / 2 + 0.01 } });
        expect(off.message).to.equal(`'${blockBody(c.color)}' would rest on nothing there; the placement was undone.`);
        expect(env.execute({ tool: 'remove', args: {} }).status).to.equal('ok');
        expect(env.world.getPose(blockBody(b.color)).p[0]).to.be.closeTo(supplyPose(s, 1).p[0], 0.002);
      } finally {
        env.free();
      }
    });
  });

  describe('generator', () => {
    it("the kit's mixed supply: two long, two middling, the rest short, in that order; fewer than four refused", () => {
      for (const key of ['a', 'b', 'c']) {
        const l = mixedSupplyLengths(new Rng(key), 0.2, 6);
        expect(l).to.have.length(6);
        expect(l[0]).to.equal(0.2);
        expect(l[1] / 0.2).to.be.within(0.9, 1);
        for (const k of [2, 3]) expect(l[k] / 0.2).to.be.within(0.55, 0.75);
        for (const k of [4, 5]) expect(l[k] / 0.2).to.be.within(0.3, 0.45);
      }
      expect(() => mixedSupplyLengths(new Rng('a'), 0.2, 3)).to.throw(SpaceActError, /at least 4/);
    });

    it('at every tier the marker needs the tier\'s number of blocks, the reference column reaches it, and the budget is two over', () => {
      for (const tier of TIER_LIST) {
        for (const seed of [0, 1, 2, 3, 4, 5]) {
          const s = family.generate(seed, tier).scene;
          expect(s.blocks).to.have.length(TIERS[tier].supply);
          expect(ruleReach(s, s.needed - 1)).to.be.lessThan(s.markerX);
          expect(columnReach(referenceOf(s, tier).blocks)).to.be.greaterThan(s.markerX);
          // At L7 no column of the supply, of any height, reaches the marker even at the rule's margin.
          if (tier === 'L7') expect(anyColumnReach(s)).to.be.lessThan(s.markerX - 0.004);
          expect(actionBudget(tier)).to.equal(s.needed + 2);
        }
      }
    });

    it('the rules carry no length or position: two seeds of a tier read alike', () => {
      for (const tier of TIER_LIST) {
        expect(family.generate(1, tier).rules).to.equal(family.generate(2, tier).rules);
        expect(JSON.stringify(family.generate(1, tier).tools)).to.equal(JSON.stringify(family.generate(2, tier).tools));
      }
    });

    it('the straight first view looks down at 45° (a block hides little of the one behind it); the turned views keep the kit\'s 30°', () => {
      for (const tier of ['L1', 'L3', 'L5'] as Tier[]) expect(family.generate(27, tier).camera.initial.elevation, tier).to.equal(STRAIGHT_VIEW_ELEVATION);
      expect(family.generate(27, 'L7').camera.initial.elevation).to.equal(30);
      expect(family.generate(27, 'L5', '+rot').camera.initial.elevation).to.equal(30);
      // B4-L5-s27: the orange block, short and in the back row behind the long purple one, showed
      // 788 pixels at 30°. Looking down at 45°, the row in front hides only a 5 mm strip of its
      // top: a block in front reaches BLOCK_HEIGHT / tan(45°) back, past the rows' 15 mm gap.
      const hidden = BLOCK_HEIGHT / Math.tan((STRAIGHT_VIEW_ELEVATION * Math.PI) / 180) - (SUPPLY_PITCH - BLOCK_DEPTH);
      expect(hidden).to.be.closeTo(0.005, 1e-9);
    });
  });
});
