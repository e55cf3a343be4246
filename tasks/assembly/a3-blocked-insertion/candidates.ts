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
import { Rng } from '../../../core/rng.ts';
import type { InstanceView } from '../../instance-view.ts';
import type { FamilyDescriptor, Instance, Tier } from '../../types.ts';
import { drawScene, instanceOf, PIECE_COLORS, type Draw } from './generate.ts';
import type { A3Scene } from './scene.ts';

/** Scenes sampled per tier. */
export const CANDIDATE_SCENES = 200;
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

function pieceNames(view: InstanceView): string[] {
  const tool = view.tools.find((t) => t.name === 'place');
  return (tool?.parameters as { properties?: { piece?: { enum?: string[] } } }).properties?.piece?.enum ?? [];
}

/** The sampled scenes with as many pieces as the view names, renamed to those names. */
export function* candidates(family: FamilyDescriptor, view: InstanceView, tier: Tier): Iterable<Instance<A3Scene>> {
  const names = pieceNames(view);
  const colour = new Map(PIECE_COLORS.map((c) => [c.name, c.color]));
  for (const [i, draw] of base(tier).entries()) {
    if (draw.scene.pieces.length !== names.length) continue;
    const seed = CANDIDATE_SEED_BASE + i;
    const order = new Rng(`A3/candidates/${tier}/${seed}/${names.join(',')}`).shuffle(names);
    const scene: A3Scene = structuredClone(draw.scene);
    scene.pieces.forEach((p, k) => {
      p.name = order[k];
      p.color = colour.get(order[k]) ?? p.color;
    });
    yield instanceOf(family, tier, seed, scene, draw.certificate);
  }
}
