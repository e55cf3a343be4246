/**
 * B4 shortcut filters and sightless strategies. The filters make the marker demand exactly the
 * tier's number of blocks: no column of fewer blocks reaches it even at the rule's margin, and
 * at L5/L7 the reference's blocks stacked longest first (the obvious order) fall short too. The
 * reference's column must reach it with its own (larger) margin.
 */
import type { SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter } from '../../types.ts';
import { columnReach, farthestColumn } from '../../kits/loose-blocks/column.ts';
import { priorFittedColumn } from '../../kits/loose-blocks/prior-column.ts';
import { farthestOfSupply } from '../../kits/loose-blocks/stack-tools.ts';
import { RULE_MARGIN, TIERS, type B4Scene } from './scene.ts';
import { referenceColumn, ruleReach } from './solver.ts';

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
      if (!farthestOfSupply(s, s.needed, RULE_MARGIN)) return `no column of ${s.needed} blocks stands`;
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

/** B4's own sightless strategies (the shared battery covers memorised, random and probing play): the kit's best column for the tier's prior. */
export const SIGHTLESS: SightlessStrategy[] = [priorFittedColumn<B4Scene>({ count: (tier) => TIERS[tier].needed, margin: RULE_MARGIN, bound: 0.1 })];
