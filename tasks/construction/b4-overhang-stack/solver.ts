/**
 * B4 reference solver: exhaustive over which blocks go in the column and in what order (the
 * loose-block kit's `bestColumn`), with the column at each choice built to reach as far as it can
 * while keeping the reference margin at every level. The marker needs `needed` blocks: no column
 * of fewer blocks reaches it even at the rule's (smaller) margin, which the generator's filters
 * check, so the reference's placement count is the fewest possible.
 */
import { SpaceActError } from '../../../core/errors.ts';
import { columnReach, type ChosenColumn } from '../../kits/loose-blocks/column.ts';
import { farthestOfSupply, placeCalls } from '../../kits/loose-blocks/stack-tools.ts';
import type { Instance, ReferenceSolution } from '../../types.ts';
import { REFERENCE_MARGIN, RULE_MARGIN, type B4Scene } from './scene.ts';

/** The farthest any column of `count` blocks reaches at the rule's margin (−∞ when none stands). */
export function ruleReach(s: B4Scene, count: number): number {
  if (count === 0) return -Infinity;
  return farthestOfSupply(s, count, RULE_MARGIN)?.reach ?? -Infinity;
}

/** The reference column: the farthest column of `needed` blocks at the reference margin. */
export function referenceColumn(s: B4Scene): ChosenColumn {
  const c = farthestOfSupply(s, s.needed, REFERENCE_MARGIN);
  if (!c) throw new SpaceActError('invalid-state', `no column of ${s.needed} blocks stands`);
  return c;
}

/** The reference: place the reference column's blocks bottom to top, each centre at its x (0.1 mm). */
export function reference(instance: Instance<B4Scene>): ReferenceSolution {
  const s = instance.scene;
  const c = referenceColumn(s);
  if (columnReach(c.blocks) < s.markerX) throw new SpaceActError('invalid-state', `${instance.id}: the reference column does not reach the marker`, { instance: instance.id });
  return {
    calls: placeCalls(s, c),
    optimal: true,
    unique: false,
    method:
      `exhaustive over every choice and order of ${s.needed} of the ${s.blocks.length} blocks (loose-block kit): the column built from the top down, ` +
      `each load ${REFERENCE_MARGIN * 1000} mm inside the block under it; no column of ${s.needed - 1} blocks reaches the marker even at the rule's ${RULE_MARGIN * 1000} mm`,
  };
}
