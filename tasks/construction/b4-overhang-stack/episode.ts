/**
 * B4 episode: the loose-block kit's table, marker and supply, its `place` and `remove` tools
 * judged with the rule's margin, and its goal — a standing column reaching past the marker — as
 * they are (`tasks/kits/loose-blocks/stack-tools.ts`). B4 was the first family built this way;
 * the kit is what it had, lifted out unchanged.
 */
import type { World } from '../../../sim/world.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import { reachPastMarkerEnv } from '../../kits/loose-blocks/stack-tools.ts';
import { instanceSettings } from '../../levers.ts';
import { B4_LEVERS, RULE_MARGIN, TIERS, type B4Scene } from './scene.ts';

/** Builds the B4 world for `instance` and returns its tools and tests. */
export function build(instance: Instance<B4Scene>, world: World): FamilyEnv {
  // The counterweighted tier lowers blocks onto whatever is under them (side by side allowed); the others build one column.
  return reachPastMarkerEnv(world, instance.scene, RULE_MARGIN, instanceSettings(instance, TIERS, B4_LEVERS).counterweight);
}
