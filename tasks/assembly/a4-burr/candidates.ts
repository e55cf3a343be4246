/**
 * What the generator could have drawn for a tier, given what an agent reads — for the battery's
 * adaptive agents (probe-and-map, reconstruct-then-plan: `TaskFamily.candidates`). The space
 * (random notches, which stick is the key, parking distances, names) is far too large to
 * enumerate, so this is a sample: scenes drawn once per tier from seeds the battery never
 * judges, kept when their budget equals the one the agent reads, each with its movable sticks
 * renamed to the names the agent's tool lists (in a seeded random assignment), so that every
 * candidate reads exactly like the judged instance.
 */
import type { InstanceView } from '../../instance-view.ts';
import { namingOrder, tierPool, toolEnum } from '../../kits/candidate-pool.ts';
import type { FamilyDescriptor, Instance, Tier } from '../../types.ts';
import { budgetFor, drawScene, instanceOf, STICK_COLORS } from './generate.ts';
import { assemblySlides } from './plan.ts';
import type { A4Scene } from './scene.ts';

/** Scenes sampled per tier. */
export const CANDIDATE_SCENES = 60;

const pool = tierPool(CANDIDATE_SCENES, drawScene);

/** The sampled scenes with the view's budget and as many movable sticks as the view names, renamed to those names. */
export function* candidates(family: FamilyDescriptor, view: InstanceView, tier: Tier): Iterable<Instance<A4Scene>> {
  const names = toolEnum(view, 'slide', 'stick');
  const colour = new Map(STICK_COLORS.map((c) => [c.name, c.color]));
  for (const { seed, draw } of pool(tier)) {
    const movable = draw.scene.sticks.filter((t) => !t.key);
    if (movable.length !== names.length) continue;
    if (budgetFor(assemblySlides(draw.scene, draw.disassembly).length) !== view.budgets.actions) continue;
    const order = namingOrder('A4', tier, seed, names);
    const scene: A4Scene = structuredClone(draw.scene);
    let k = 0;
    for (const t of scene.sticks) {
      if (t.key) continue;
      t.name = order[k++];
      t.color = colour.get(t.name) ?? t.color;
    }
    yield instanceOf(family, tier, seed, scene, draw.disassembly);
  }
}
