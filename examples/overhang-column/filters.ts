/**
 * B7 shortcut filters and sightless strategies: the marker needs every block of the tier's
 * column (fewer fall short even at the rule's margin); the kit's prior-fitted column is the
 * family's own sightless player.
 */
import { priorFittedColumn } from '../../tasks/kits/loose-blocks/prior-column.ts';
import type { SightlessStrategy } from '../../tasks/sightless.ts';
import type { InstanceFilter } from '../../tasks/types.ts';
import { RULE_MARGIN, TIERS, type B7Scene } from './scene.ts';
import { ruleReach } from './solver.ts';

/** Shortcut filters: a failing draw is drawn again. */
export const SHORTCUT_FILTERS: InstanceFilter<B7Scene>[] = [
  {
    name: 'fewer-blocks-fall-short',
    check: ({ scene: s }) => (ruleReach(s, s.needed - 1) < s.markerX - 0.004 ? null : `a column of ${s.needed - 1} blocks reaches within 4 mm of the marker`),
  },
];

/** The kit's best column for the tier's prior (the shared battery covers the rest). */
export const SIGHTLESS: SightlessStrategy[] = [priorFittedColumn<B7Scene>({ count: (tier) => TIERS[tier].needed, margin: RULE_MARGIN, bound: 0.1 })];
