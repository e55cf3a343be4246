/**
 * M5 reference: planned by the SE(3) planner from the block's start to the goal beyond the wall,
 * searching near the route through the matching opening (face-on, turned onto its outline, in
 * front of and behind it), with scaled-down blocks in relaxation stages if that is not enough;
 * under `+tool` the calls turn about the block's own axes. Certified by replaying the calls
 * through the swept checks and trimmed at the call that gets the block through.
 */
import { plannedReference } from '../../kits/held-part/reference.ts';
import type { Instance, ReferenceSolution } from '../../types.ts';
import { build, worldOptions } from './episode.ts';
import { routePoses } from './geometry.ts';
import type { M5Scene } from './scene.ts';
import { m5Tools } from './tools.ts';

/** The reference solution of an instance. */
export async function reference(instance: Instance<M5Scene>): Promise<ReferenceSolution> {
  const s = instance.scene;
  const tools = m5Tools(s.toolFrame);
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
