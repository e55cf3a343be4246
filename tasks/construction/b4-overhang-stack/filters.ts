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
import type { InstanceFilter } from '../../types.ts';
import { arrangementFailure, arrangementReach } from '../../kits/loose-blocks/arrangement.ts';
import { columnReach, farthestColumn } from '../../kits/loose-blocks/column.ts';
import { priorFittedColumn } from '../../kits/loose-blocks/prior-column.ts';
import { arrange, placeCalls } from '../../kits/loose-blocks/stack-tools.ts';
import { RULE_MARGIN, TIERS, type B4Scene } from './scene.ts';
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
        const now = arrange(s, placed.slice(0, k), TIERS[instance.tier].counterweight);
        if (now[k - 1].level !== (ref.blocks[k - 1] as { level?: number }).level && 'parent' in ref) return `the reference's block ${k} would land on another level`;
        if (arrangementFailure(now, s.edgeX, RULE_MARGIN)) return `the reference does not stand after its placement ${k}`;
      }
      return arrangementReach(arrange(s, placed, TIERS[instance.tier].counterweight)) >= s.markerX + 0.002 ? null : 'the reference does not reach 2 mm past the marker';
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
      if (!TIERS[instance.tier].counterweight) return null;
      return anyColumnReach(s) < s.markerX - SHORT_BY ? null : `a column of the supply reaches within ${SHORT_BY * 1000} mm of the marker`;
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

/** B4's own sightless strategies (the shared battery covers memorised, random and probing play): the kit's best column for the tier's prior. */
export const SIGHTLESS: SightlessStrategy[] = [priorFittedColumn<B4Scene>({ count: (tier) => TIERS[tier].needed, margin: RULE_MARGIN, bound: 0.1 })];
