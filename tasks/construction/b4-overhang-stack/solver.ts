/**
 * B4 reference solver. Column tiers: exhaustive over which blocks go in the column and in what
 * order (the loose-block kit's `bestColumn`), with the column at each choice built to reach as
 * far as it can while keeping the reference margin at every level. The counterweighted tier:
 * exhaustive over every tree-shaped arrangement of the supply's blocks (each block on one block
 * or on the table; the kit's `bestTree`), each solved as a linear program for the farthest
 * reach with the reference margin on every contact, for the whole arrangement and for every
 * prefix of its placement order. The marker needs `needed` blocks: nothing with fewer reaches
 * it even at the rule's (smaller) margin, which the generator's filters check, so the
 * reference's placement count is the fewest possible.
 */
import { SpaceActError } from '../../../core/errors.ts';
import { bestTree, type ChosenArrangement } from '../../kits/loose-blocks/arrangement.ts';
import { columnReach, type ChosenColumn } from '../../kits/loose-blocks/column.ts';
import { farthestOfSupply, placeCalls } from '../../kits/loose-blocks/stack-tools.ts';
import { RULER_END } from '../../kits/loose-blocks/table-edge.ts';
import type { Instance, ReferenceSolution, Tier } from '../../types.ts';
import { instanceSettings } from '../../levers.ts';
import { B4_LEVERS, REFERENCE_GAP, REFERENCE_MARGIN, RULE_MARGIN, TIERS, type B4Scene } from './scene.ts';

/** The farthest any column of `count` blocks reaches at the rule's margin (−∞ when none stands). */
export function ruleReach(s: B4Scene, count: number): number {
  if (count === 0) return -Infinity;
  return farthestOfSupply(s, count, RULE_MARGIN)?.reach ?? -Infinity;
}

/** The farthest any column of the supply (of any number of its blocks) reaches at the rule's margin. */
export function anyColumnReach(s: B4Scene): number {
  let best = -Infinity;
  for (let n = 1; n <= s.blocks.length; n++) best = Math.max(best, ruleReach(s, n));
  return best;
}

/** The reference column: the farthest column of `needed` blocks at the reference margin. */
export function referenceColumn(s: B4Scene): ChosenColumn {
  const c = farthestOfSupply(s, s.needed, REFERENCE_MARGIN);
  if (!c) throw new SpaceActError('invalid-state', `no column of ${s.needed} blocks stands`);
  return c;
}

/** The counterweighted reference: the farthest tree-shaped arrangement of `needed` blocks at the reference margin and gap, every prefix standing. */
export function referenceArrangement(s: B4Scene): ChosenArrangement {
  const a = bestTree(
    s.blocks.map((b) => b.length),
    s.needed,
    { edge: s.edgeX, margin: REFERENCE_MARGIN, gap: REFERENCE_GAP, xMax: RULER_END },
  );
  if (!a) throw new SpaceActError('invalid-state', `no arrangement of ${s.needed} blocks stands`);
  return a;
}

/** The reference of a tier's scene: the arrangement at the counterweighted tier, the column elsewhere. */
export function referenceOf(s: B4Scene, tier: Tier): ChosenColumn | ChosenArrangement {
  return TIERS[tier].counterweight ? referenceArrangement(s) : referenceColumn(s);
}

/** The reference: place the reference's blocks in order (bottom up, left to right on a level), each centre at its x (0.1 mm). */
export function reference(instance: Instance<B4Scene>): ReferenceSolution {
  const s = instance.scene;
  const counterweight = instanceSettings(instance, TIERS, B4_LEVERS).counterweight;
  const c = referenceOf(s, instance.tier);
  if (columnReach(c.blocks) < s.markerX) throw new SpaceActError('invalid-state', `${instance.id}: the reference does not reach the marker`, { instance: instance.id });
  return {
    calls: placeCalls(s, c),
    optimal: true,
    unique: false,
    method: counterweight
      ? `exhaustive over every tree-shaped arrangement of ${s.needed} of the ${s.blocks.length} blocks (every choice, order and shape; loose-block kit), each the linear program for the farthest reach with ` +
        `every contact's load ${REFERENCE_MARGIN * 1000} mm inside its patch, every placement prefix standing; no column of the supply reaches the marker even at the rule's ${RULE_MARGIN * 1000} mm`
      : `exhaustive over every choice and order of ${s.needed} of the ${s.blocks.length} blocks (loose-block kit): the column built from the top down, ` +
        `each load ${REFERENCE_MARGIN * 1000} mm inside the block under it; no column of ${s.needed - 1} blocks reaches the marker even at the rule's ${RULE_MARGIN * 1000} mm`,
  };
}
