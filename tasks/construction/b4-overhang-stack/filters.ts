/**
 * B4 shortcut filters and sightless strategies. The filters make the marker demand exactly the
 * tier's number of blocks: no column of fewer blocks reaches it even at the rule's margin (two
 * blocks stand only as a column), at L5 the
 * reference's blocks stacked longest first (the obvious order) fall short too, and at L7 no
 * column of the supply of any height reaches it, so only a counterweighted arrangement can. The
 * reference must reach it with its own (larger) margin, built one placement at a time as the
 * place tool builds it.
 */
import type { SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter, ToolCall } from '../../types.ts';
import { arrangementFailure, arrangementReach, farthestTree } from '../../kits/loose-blocks/arrangement.ts';
import { priorFittedStrategy } from '../../kits/sightless-prior.ts';
import { RULER_END } from '../../kits/loose-blocks/table-edge.ts';
import { columnReach, farthestColumn } from '../../kits/loose-blocks/column.ts';
import { priorFittedColumn } from '../../kits/loose-blocks/prior-column.ts';
import { arrange, placeCalls } from '../../kits/loose-blocks/stack-tools.ts';
import { instanceSettings } from '../../levers.ts';
import { B4_LEVERS, REFERENCE_GAP, RULE_MARGIN, TIERS, type B4Scene } from './scene.ts';
import { anyColumnReach, referenceColumn, referenceOf, ruleReach } from './solver.ts';

/** Clearance between the marker and the farthest column (or tree) that must fall short of it, m. */
const SHORT_BY = 0.004;
/** Clearance between the marker and the reference's blocks stacked longest first, m. */
const ORDER_SHORT_BY = 0.002;

/** Shortcut filters: each names a way an instance could be trivial or unsolvable. */
export const SHORTCUT_FILTERS: InstanceFilter<B4Scene>[] = [
  {
    name: 'reference-reaches',
    check(instance) {
      const s = instance.scene;
      let ref;
      try {
        ref = referenceOf(s, instance.tier);
      } catch {
        return `nothing of ${s.needed} blocks stands`;
      }
      // Replay the reference's calls as the place tool judges them: each lands where planned and every prefix stands by the rule.
      const calls = placeCalls(s, ref);
      const placed = calls.map((c) => ({ color: c.args.block as B4Scene['blocks'][number]['color'], x: c.args.x_m as number }));
      for (let k = 1; k <= placed.length; k++) {
        const now = arrange(s, placed.slice(0, k), instanceSettings(instance, TIERS, B4_LEVERS).counterweight);
        if (now[k - 1].level !== (ref.blocks[k - 1] as { level?: number }).level && 'parent' in ref) return `the reference's block ${k} would land on another level`;
        if (arrangementFailure(now, s.edgeX, RULE_MARGIN)) return `the reference does not stand after its placement ${k}`;
      }
      return arrangementReach(arrange(s, placed, instanceSettings(instance, TIERS, B4_LEVERS).counterweight)) >= s.markerX + 0.002 ? null : 'the reference does not reach 2 mm past the marker';
    },
  },
  {
    name: 'fewer-blocks-fall-short',
    check(instance) {
      const s = instance.scene;
      const fewer = ruleReach(s, s.needed - 1);
      // At the column tiers the tool builds one column only; at the counterweighted tier two blocks stand only as a column.
      return fewer < s.markerX - SHORT_BY ? null : `a column of ${s.needed - 1} blocks reaches within ${SHORT_BY * 1000} mm of the marker`;
    },
  },
  {
    name: 'no-column-reaches',
    check(instance) {
      const s = instance.scene;
      if (!instanceSettings(instance, TIERS, B4_LEVERS).counterweight) return null;
      return anyColumnReach(s) < s.markerX - SHORT_BY ? null : `a column of the supply reaches within ${SHORT_BY * 1000} mm of the marker`;
    },
  },
  {
    name: 'order-matters',
    check(instance) {
      const s = instance.scene;
      if (!instanceSettings(instance, TIERS, B4_LEVERS).mixed) return null;
      // The reference's blocks stacked longest first (the order a builder might reach for) fall short.
      const lengths = referenceColumn(s).order.map((i) => s.blocks[i].length).sort((a, b) => b - a);
      const naive = farthestColumn(lengths, s.edgeX, RULE_MARGIN);
      return naive && columnReach(naive) >= s.markerX - ORDER_SHORT_BY ? 'the same blocks stacked longest first reach the marker' : null;
    },
  },
];

/** Whether placing `plan` (colour slots and centres, in order) on `s` solves it by the rule: every prefix stands, and one reaches the marker. */
function counterweightPlanSolves(s: B4Scene, plan: { slot: number; x: number }[]): boolean {
  const placed = plan.map((p) => ({ color: s.blocks[p.slot].color, x: p.x }));
  for (let k = 1; k <= placed.length; k++) {
    const now = arrange(s, placed.slice(0, k));
    if (arrangementFailure(now, s.edgeX, RULE_MARGIN)) return false;
    if (arrangementReach(now) >= s.markerX) return true;
  }
  return false;
}

/**
 * `prior-fitted-counterweight` (L7): over every guess of which colour is the short block and
 * which long one goes at the bottom, a grid of guessed long lengths and edges and two margins,
 * the counterweighted arrangement (bottom, short block on its back end, the other long one on
 * its far end) that solves most of the generator's instances by the exact rule, played in order.
 */
const priorFittedCounterweight = priorFittedStrategy<B4Scene>({
  name: 'prior-fitted-counterweight',
  description: 'builds the one counterweighted arrangement (guessed roles of the colours, lengths, edge and margin) that solves most of the instances the generator draws for the tier',
  bound: 0.1,
  choose(pool, view, tier) {
    if (!TIERS[tier].counterweight) return null;
    const place = view.tools.find((t) => t.name === 'place');
    const colors = ((place?.parameters as { properties?: { block?: { enum?: string[] } } })?.properties?.block?.enum ?? []) as string[];
    if (colors.length < 3) return null;
    const judged = pool.slice(0, 150);
    const longs = pool.map((sc) => Math.max(...sc.blocks.map((b) => b.length)));
    const shorts = pool.map((sc) => Math.min(...sc.blocks.map((b) => b.length)) / Math.max(...sc.blocks.map((b) => b.length)));
    const [lMin, lMax] = [Math.min(...longs), Math.max(...longs)];
    const ratio = shorts.reduce((a, b) => a + b, 0) / shorts.length;
    const [eMin, eMax] = [Math.min(...pool.map((sc) => sc.edgeX)), Math.max(...pool.map((sc) => sc.edgeX))];
    const roles = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    let best: { plan: { slot: number; x: number }[]; solved: number } | null = null;
    for (const [bottom, weight, reacher] of roles) {
      for (let li = 0; li <= 8; li++) {
        const guess = lMin + ((lMax - lMin) * li) / 8;
        for (let ei = 0; ei <= 10; ei++) {
          const edge = eMin + ((eMax - eMin) * ei) / 10;
          for (const m of [RULE_MARGIN + 0.001, RULE_MARGIN + 0.004]) {
            const tree = farthestTree({ lengths: [guess, guess * ratio, guess], parent: [-1, 0, 0] }, 2, { edge, margin: m, gap: REFERENCE_GAP, xMax: RULER_END });
            if (!tree) continue;
            const plan = [bottom, weight, reacher].map((slot, k) => ({ slot, x: Math.round(tree[k].x * 1e4) / 1e4 }));
            const solved = judged.filter((sc) => counterweightPlanSolves(sc, plan)).length;
            if (!best || solved > best.solved) best = { plan, solved };
          }
        }
      }
    }
    return best ? best.plan.map((p): ToolCall => ({ tool: 'place', args: { block: colors[p.slot], x_m: p.x } })) : null;
  },
});

/**
 * B4's own sightless strategies (the shared battery covers memorised, random and probing play):
 * the kit's best column for the tier's prior, and at L7 the best counterweighted arrangement for it.
 */
export const SIGHTLESS: SightlessStrategy[] = [priorFittedColumn<B4Scene>({ count: (tier) => TIERS[tier].needed, margin: RULE_MARGIN, bound: 0.1 }), priorFittedCounterweight];
