/**
 * M4 reference: planned by the SE(3) planner from the ring's start to a pose past the free end,
 * searching along the wire (the ring centred on it and square to it at every point), with
 * thinner rings in the relaxation stages if that is not enough (eroded, so the hole grows); the
 * world's topology rule is checked along every planned motion. Certified by replaying the calls
 * through the swept checks and trimmed at the call that frees the ring.
 */
import { yawQuat } from '../../../sim/math.ts';
import { plannedReference } from '../../kits/held-part/reference.ts';
import type { Instance, ReferenceSolution } from '../../types.ts';
import { build, worldOptions } from './episode.ts';
import type { M4Scene } from './scene.ts';
import { m4Tools } from './tools.ts';
import { goalPose, routePoses } from './wire.ts';

/** The reference solution of an instance. */
export async function reference(instance: Instance<M4Scene>): Promise<ReferenceSolution> {
  const s = instance.scene;
  const tools = m4Tools(yawQuat(s.frameYawDeg));
  const { plan: _plan, ...solution } = await plannedReference({
    instance,
    worldOptions: worldOptions(instance),
    build,
    body: tools.body,
    goals: [goalPose(s)],
    plan: { motion: tools.motion, guide: routePoses(s), maxSamples: 20000, stepLength: 0.02, stepAngleDeg: 12, relax: { mode: 'erode' }, shortcutRounds: 60 },
  });
  return solution;
}
