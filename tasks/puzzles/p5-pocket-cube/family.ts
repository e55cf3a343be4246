/**
 * P5 pocket cube: solve a 2×2×2 twisty cube whose layers turn as rigid groups of bodies (swept
 * group motion). Every start is certified at its true distance in both metrics by the exact
 * distance table of the whole puzzle. See README.md for the scene fields, the move metric and the
 * shortcuts considered.
 */
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate, P5_LEVERS } from './generate.ts';
import type { P5Scene } from './scene.ts';
import { reference, shortestSolutions } from './solver.ts';

/** What P5 is: id, version, category, title, summary and tiers. */
export const P5_DESCRIPTOR: FamilyDescriptor = {
  id: 'P5',
  version: 2,
  category: 'P',
  title: 'Pocket cube',
  summary:
    'Solve a 2×2×2 twisty cube by turning faces 90° or 180°; each layer turn sweeps its four cubies and their stickers together. Starts are certified at their exact distance (half-turn and quarter-turn metric) by the distance table of all 3,674,160 positions; an action budget of twice the tier’s distance.',
  tiers: {
    L1: { levers: [], description: '4 turns from solved (half-turn metric); a budget of 8 turns.' },
    L3: { levers: [], description: '6 turns from solved; a budget of 12 turns.' },
    L5: { levers: [], description: '9 turns from solved; a budget of 18 turns.' },
    L7: { levers: ['+occ'], description: 'The L5 cube of the same seed; the second picture looks from above the back, so the bottom face is seen only by turning the camera below the cube.' },
  },
};


/** P5 pocket cube: the registration object, assembled from the role files. */
export const p5PocketCube: TaskFamily<P5Scene> = {
  ...P5_DESCRIPTOR,
  levers: P5_LEVERS,
  generate: (seed, tier, lever) => generate(P5_DESCRIPTOR, seed, tier, lever),
  build,
  reference,
  shortestSolutions,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
};
