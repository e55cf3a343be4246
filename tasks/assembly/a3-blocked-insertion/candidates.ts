/**
 * What the generator could have drawn for a tier, given what an agent reads — for the battery's
 * adaptive agent *reconstruct-then-plan* (`TaskFamily.candidates`). The space is far too large to
 * enumerate (a partition of the box, which pieces start in it, a spare, orientations, slots and
 * names), so this is a sample: scenes drawn once per tier from seeds the battery never judges,
 * each with its pieces renamed to the names the agent's tools list (in a seeded random
 * assignment), so that every candidate reads exactly like the judged instance. That makes every
 * sampled world a live candidate, where sampling the generator alone would keep only the few
 * whose drawn colours happen to match.
 */
import type { InstanceView } from '../../instance-view.ts';
import { namingOrder, tierPool, toolEnum } from '../../kits/candidate-pool.ts';
import type { FamilyDescriptor, Instance, Tier } from '../../types.ts';
import { drawScene, instanceOf, PIECE_COLORS } from './generate.ts';
import type { A3Scene } from './scene.ts';

/** Scenes sampled per tier. */
export const CANDIDATE_SCENES = 200;

const pool = tierPool(CANDIDATE_SCENES, drawScene);

/** The sampled scenes with as many pieces as the view names, renamed to those names. */
export function* candidates(family: FamilyDescriptor, view: InstanceView, tier: Tier): Iterable<Instance<A3Scene>> {
  const names = toolEnum(view, 'place', 'piece');
  const colour = new Map(PIECE_COLORS.map((c) => [c.name, c.color]));
  for (const { seed, draw } of pool(tier)) {
    if (draw.scene.pieces.length !== names.length) continue;
    const order = namingOrder('A3', tier, seed, names);
    const scene: A3Scene = structuredClone(draw.scene);
    scene.pieces.forEach((p, k) => {
      p.name = order[k];
      p.color = colour.get(order[k]) ?? p.color;
    });
    yield instanceOf(family, tier, seed, scene, draw.certificate);
  }
}
