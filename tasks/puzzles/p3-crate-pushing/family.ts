/**
 * P3 crate pushing: a pusher walks a walled room of cells and pushes crates (never pulls) onto
 * the marked cells; from L5 part of the room is a raised platform reached by a ramp. The pusher
 * and the crates are bodies moved by swept motion that walls, rails and other crates stop; the
 * optimum (fewest pushes, then fewest steps) is proven by A* with dead squares pruned. See
 * README.md for the scene fields, the move metric and the shortcuts considered.
 */
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate, P3_LEVERS } from './generate.ts';
import type { P3Scene } from './scene.ts';
import { reference, shortestSolutions } from './solver.ts';

/** What P3 is: id, version, category, title, summary and tiers. */
export const P3_DESCRIPTOR: FamilyDescriptor = {
  id: 'P3',
  version: 6,
  category: 'P',
  title: 'Crate pushing',
  summary:
    'Walk a pusher through a walled room of 5 cm cells and push wooden crates (never pull them) onto the green cells (Sokoban); from L5 part of the room is a raised platform reached only by a ramp. One action is one step of the pusher; the reference uses the fewest pushes and then the fewest steps, proven by A* with dead squares pruned, with the number of optimal step sequences counted. An action budget that is a constant of the tier: the most steps its optimum may take plus half again.',
  tiers: {
    L1: { levers: [], description: '5 × 4 room, one crate, 1–3 wall cells; 4–6 pushes (8–20 steps) from the goal; a budget of 30 moves.' },
    L3: { levers: [], description: '6 × 5 room, two crates, 3–5 wall cells; 9–13 pushes, at most 45 steps; a budget of 68 moves.' },
    L5: { levers: [], description: '7 × 6 room with a raised platform (2 cm) and its ramp, two crates, 3–6 wall cells; 12–18 pushes, at most 55 steps, and a crate must go up or down the ramp; a budget of 83 moves.' },
    L7: { levers: ['+occ'], description: 'The L5 room of the same seed with 10 cm walls and a low first view (36°) from the first side where the walls hide a crate or a green cell wholly and the rest stays in sight.' },
  },
};


/** P3 crate pushing: the registration object, assembled from the role files. */
export const p3CratePushing: TaskFamily<P3Scene> = {
  ...P3_DESCRIPTOR,
  levers: P3_LEVERS,
  generate: (seed, tier, lever) => generate(P3_DESCRIPTOR, seed, tier, lever),
  build,
  reference,
  shortestSolutions,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
};
