/**
 * M3 reference: planned by the SE(3) planner from the part's start to the goal beyond the last
 * wall, searching near the route through the matching slots (the part in each slot's fitting
 * orientation in front of and behind it), with scaled-down parts in the relaxation stages;
 * certified by replaying the calls through the swept checks and trimmed at the call that gets
 * the part through.
 */
import { yawQuat } from '../../../sim/math.ts';
import { plannedReference } from '../../kits/held-part/reference.ts';
import type { Instance, ReferenceSolution } from '../../types.ts';
import { routePoses } from './geometry.ts';
import { build, worldOptions } from './episode.ts';
import type { M3Scene } from './scene.ts';
import { m3Tools } from './tools.ts';

/** The reference solution of an instance. */
export async function reference(instance: Instance<M3Scene>): Promise<ReferenceSolution> {
  const s = instance.scene;
  const tools = m3Tools(yawQuat(s.frameYawDeg));
  const { plan: _plan, ...solution } = await plannedReference({
    instance,
    worldOptions: worldOptions(instance),
    build,
    body: tools.body,
    goals: [s.goal],
    plan: { motion: tools.motion, guide: routePoses(s), maxSamples: 20000 },
  });
  return solution;
}
