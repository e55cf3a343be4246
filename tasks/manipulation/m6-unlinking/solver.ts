/**
 * M6 reference: planned by the SE(3) planner from the hook's start to a pose clear above the frame,
 * searching near the escape route (turned to line the slot up, slot under the top bar, lifted
 * through, clear), with thinner hooks (eroded: the slot widens) in relaxation stages if needed.
 * Certified by replaying the calls through the swept checks and trimmed at the call that separates
 * the pieces.
 */
import { plannedReference } from '../../kits/held-part/reference.ts';
import type { Instance, ReferenceSolution } from '../../types.ts';
import { build, worldOptions } from './episode.ts';
import { goalPose, routePoses } from './pieces.ts';
import type { M6Scene } from './scene.ts';
import { m6Tools } from './tools.ts';

/** The reference solution of an instance. */
export async function reference(instance: Instance<M6Scene>): Promise<ReferenceSolution> {
  const s = instance.scene;
  const tools = m6Tools(s.toolFrame);
  const { plan: _plan, ...solution } = await plannedReference({
    instance,
    worldOptions: worldOptions(instance),
    build,
    body: tools.body,
    goals: [goalPose(s)],
    plan: { motion: tools.motion, guide: routePoses(s), maxSamples: 20000, stepLength: 0.02, relax: { mode: 'erode' } },
  });
  return solution;
}
