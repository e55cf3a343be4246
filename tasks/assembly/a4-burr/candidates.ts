/**
 * What the generator could have drawn for a tier, given what an agent reads — for the battery's
 * adaptive agents (probe-and-map, reconstruct-then-plan: `TaskFamily.candidates`). The space
 * (random notches, which stick is the key, parking distances, names) is far too large to
 * enumerate, so this is a sample: scenes drawn once per tier from seeds the battery never
 * judges, kept when their budget equals the one the agent reads, each with its movable sticks
 * renamed to the names the agent's tool lists (in a seeded random assignment), so that every
 * candidate reads exactly like the judged instance.
 */
import { Rng } from '../../../core/rng.ts';
import type { InstanceView } from '../../instance-view.ts';
import type { FamilyDescriptor, Instance, Tier } from '../../types.ts';
import { budgetFor, drawScene, instanceOf, STICK_COLORS, type Draw } from './generate.ts';
import { assemblySlides } from './plan.ts';
import type { A4Scene } from './scene.ts';

/** Scenes sampled per tier. */
export const CANDIDATE_SCENES = 60;
/** First sampled seed: far past the battery's judged and training seeds. */
export const CANDIDATE_SEED_BASE = 1_000_000;

const BASE = new Map<Tier, Draw[]>();

function base(tier: Tier): Draw[] {
  let draws = BASE.get(tier);
  if (!draws) {
    draws = [];
    for (let i = 0; i < CANDIDATE_SCENES; i++) draws.push(drawScene(CANDIDATE_SEED_BASE + i, tier));
    BASE.set(tier, draws);
  }
  return draws;
}

function stickNames(view: InstanceView): string[] {
  const tool = view.tools.find((t) => t.name === 'slide');
  return (tool?.parameters as { properties?: { stick?: { enum?: string[] } } }).properties?.stick?.enum ?? [];
}

/** The sampled scenes with the view's budget and as many movable sticks as the view names, renamed to those names. */
export function* candidates(family: FamilyDescriptor, view: InstanceView, tier: Tier): Iterable<Instance<A4Scene>> {
  const names = stickNames(view);
  const colour = new Map(STICK_COLORS.map((c) => [c.name, c.color]));
  for (const [i, draw] of base(tier).entries()) {
    const movable = draw.scene.sticks.filter((t) => !t.key);
    if (movable.length !== names.length) continue;
    if (budgetFor(assemblySlides(draw.scene, draw.disassembly).length) !== view.budgets.actions) continue;
    const seed = CANDIDATE_SEED_BASE + i;
    const order = new Rng(`A4/candidates/${tier}/${seed}/${names.join(',')}`).shuffle(names);
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
