/**
 * B7 reference: the loose-block kit's farthest column of `needed` blocks of the supply
 * (exhaustive over choice and order), placed bottom up.
 */
import { SpaceActError } from '../../core/errors.ts';
import { farthestOfSupply, placeCalls } from '../../tasks/kits/loose-blocks/stack-tools.ts';
import type { Instance, ReferenceSolution } from '../../tasks/types.ts';
import { REFERENCE_MARGIN, RULE_MARGIN, type B7Scene } from './scene.ts';

/** The farthest a column of `count` of the supply's blocks reaches at the rule's margin (−∞: none stands). */
export function ruleReach(s: B7Scene, count: number): number {
  return count > 0 ? (farthestOfSupply(s, count, RULE_MARGIN)?.reach ?? -Infinity) : -Infinity;
}

/** The reference: the farthest column of `needed` blocks at the reference margin. */
export function reference(instance: Instance<B7Scene>): ReferenceSolution {
  const s = instance.scene;
  const column = farthestOfSupply(s, s.needed, REFERENCE_MARGIN);
  if (!column || column.reach < s.markerX) throw new SpaceActError('invalid-state', `${instance.id}: no column of ${s.needed} blocks reaches the marker`, { instance: instance.id });
  return {
    calls: placeCalls(s, column),
    optimal: true,
    unique: false,
    method: `exhaustive over every choice and order of ${s.needed} blocks (loose-block kit); no column of ${s.needed - 1} reaches the marker at the rule's margin`,
  };
}
