/**
 * B4 shortcut filters and sightless strategies. The filters make the marker demand exactly the
 * tier's number of blocks: no column of fewer blocks reaches it even at the rule's margin, and
 * at L5/L7 the reference's blocks stacked longest first (the obvious order) fall short too. The
 * reference's column must reach it with its own (larger) margin.
 */
import type { SightlessStrategy } from '../../sightless.ts';
import { priorFittedStrategy } from '../../kits/sightless-prior.ts';
import type { InstanceFilter } from '../../types.ts';
import { columnFailure, columnReach, farthestColumn } from '../../kits/loose-blocks/column.ts';
import { RULE_MARGIN, TIERS, type B4Scene } from './scene.ts';
import { farthest, referenceColumn, ruleReach } from './solver.ts';

/** Clearance between the marker and the farthest column that must fall short of it, m. */
const SHORT_BY = 0.004;
/** Clearance between the marker and the reference's blocks stacked longest first, m. */
const ORDER_SHORT_BY = 0.002;

/** Shortcut filters: each names a way an instance could be trivial or unsolvable. */
export const SHORTCUT_FILTERS: InstanceFilter<B4Scene>[] = [
  {
    name: 'reference-reaches',
    check(instance) {
      const s = instance.scene;
      if (!farthest(s, s.needed, RULE_MARGIN)) return `no column of ${s.needed} blocks stands`;
      const reach = columnReach(referenceColumn(s).blocks);
      return reach >= s.markerX + 0.002 ? null : 'the reference column does not reach 2 mm past the marker';
    },
  },
  {
    name: 'fewer-blocks-fall-short',
    check(instance) {
      const s = instance.scene;
      const fewer = ruleReach(s, s.needed - 1);
      return fewer < s.markerX - SHORT_BY ? null : `a column of ${s.needed - 1} blocks reaches within ${SHORT_BY * 1000} mm of the marker`;
    },
  },
  {
    name: 'order-matters',
    check(instance) {
      const s = instance.scene;
      if (!TIERS[instance.tier].mixed) return null;
      // The reference's blocks stacked longest first (the order a builder might reach for) fall short.
      const lengths = referenceColumn(s).order.map((i) => s.blocks[i].length).sort((a, b) => b - a);
      const naive = farthestColumn(lengths, s.edgeX, RULE_MARGIN);
      return naive && columnReach(naive) >= s.markerX - ORDER_SHORT_BY ? 'the same blocks stacked longest first reach the marker' : null;
    },
  },
];

/** A fixed column: the colours' places in the tool's list (bottom to top) and the centres, m. */
interface FixedColumn {
  slots: number[];
  xs: number[];
}

/** Whether `plan` solves `s` by the rule (exact check): every block placed, standing, past the marker. */
function fixedColumnSolves(s: B4Scene, plan: FixedColumn): boolean {
  if (plan.slots.some((i) => i >= s.blocks.length)) return false;
  const blocks = plan.slots.map((i, k) => ({ x: plan.xs[k], length: s.blocks[i].length }));
  // The episode ends as soon as a prefix of the column solves, so any standing prefix that reaches counts.
  for (let n = 1; n <= blocks.length; n++) {
    const prefix = blocks.slice(0, n);
    if (columnFailure(prefix, s.edgeX, RULE_MARGIN)) return false;
    if (columnReach(prefix) >= s.markerX) return true;
  }
  return false;
}

/**
 * The best column a model could build without looking: over a grid of guessed block lengths,
 * edge positions and margins (spanning what the pool of generated instances spans), the harmonic
 * column that solves most of the pool by the rule's exact check. Block choice is the tool's list
 * order (at L5/L7 the text does not say which colour is long).
 */
const priorFittedColumn = priorFittedStrategy<B4Scene>({
  name: 'prior-fitted-column',
  description: 'builds the one harmonic column (guessed lengths, edge and margin) that solves most of 400 instances the generator draws for the tier',
  bound: 0.1,
  choose(pool, view, tier) {
    const place = view.tools.find((t) => t.name === 'place');
    const colors = ((place?.parameters as { properties?: { block?: { enum?: string[] } } })?.properties?.block?.enum ?? []) as string[];
    const count = TIERS[tier].needed;
    if (colors.length < count) return null;
    const slots = Array.from({ length: count }, (_, k) => k);
    const lengths = pool.flatMap((sc) => sc.blocks.map((b) => b.length));
    const [lMin, lMax] = [Math.min(...lengths), Math.max(...lengths)];
    const [eMin, eMax] = [Math.min(...pool.map((sc) => sc.edgeX)), Math.max(...pool.map((sc) => sc.edgeX))];
    let best: { plan: FixedColumn; solved: number } | null = null;
    for (let li = 0; li <= 24; li++) {
      const guess = lMin + ((lMax - lMin) * li) / 24;
      for (let ei = 0; ei <= 24; ei++) {
        const edge = eMin + ((eMax - eMin) * ei) / 24;
        for (const margin of [RULE_MARGIN, RULE_MARGIN + 0.005, RULE_MARGIN + 0.015]) {
          const column = farthestColumn(slots.map(() => guess), edge, margin);
          if (!column) continue;
          const candidate = { slots, xs: column.map((b) => b.x) };
          const solved = pool.filter((sc) => fixedColumnSolves(sc, candidate)).length;
          if (!best || solved > best.solved) best = { plan: candidate, solved };
        }
      }
    }
    return best ? best.plan.slots.map((i, k) => ({ tool: 'place', args: { block: colors[i], x_m: Math.round(best!.plan.xs[k] * 1e4) / 1e4 } })) : null;
  },
});

/** B4's own sightless strategies (the shared battery covers memorised, random and probing play). */
export const SIGHTLESS: SightlessStrategy[] = [priorFittedColumn];
