/** B7 episode: the loose-block kit's table, `place` and `remove` tools and goal, one column. */
import type { World } from '../../sim/world.ts';
import type { FamilyEnv, Instance } from '../../tasks/types.ts';
import { reachPastMarkerEnv } from '../../tasks/kits/loose-blocks/stack-tools.ts';
import { RULE_MARGIN, type B7Scene } from './scene.ts';

/** Builds the B7 world for `instance` and returns its tools and tests. */
export function build(instance: Instance<B7Scene>, world: World): FamilyEnv {
  return reachPastMarkerEnv(world, instance.scene, RULE_MARGIN, false);
}
