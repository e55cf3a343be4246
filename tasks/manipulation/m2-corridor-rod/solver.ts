/**
 * M2 reference: planned by the SE(3) planner from the rod's start to a pose beyond the exit
 * (either end first), searching along the corridor's route (`corridor.ts`), with the rod
 * shortened in the relaxation stages; certified by replaying the calls through the swept
 * checks, and trimmed at the call that gets the whole rod out.
 */
import { plannedReference } from '../../kits/held-part/reference.ts';
import type { Instance, ReferenceSolution } from '../../types.ts';
import { goalPoses, routePoses } from './corridor.ts';
import { build, worldOptions } from './episode.ts';
import type { M2Scene } from './scene.ts';
import { M2_TOOLS } from './tools.ts';

/** The reference solution of an instance. */
export async function reference(instance: Instance<M2Scene>): Promise<ReferenceSolution> {
  const s = instance.scene;
  const { plan: _plan, ...solution } = await plannedReference({
    instance,
    worldOptions: worldOptions(instance),
    build,
    body: M2_TOOLS.body,
    goals: goalPoses(s),
    plan: { motion: M2_TOOLS.motion, guide: routePoses(s), stepAngleDeg: 10, maxSamples: 20000 },
  });
  return solution;
}
