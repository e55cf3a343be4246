/**
 * P4 gravity maze: a 4 × 4 × 4 maze cube with a ball inside; the only action turns the cube a
 * quarter turn about a world axis (the cube and its ball swept as one rigid group), after which
 * the ball drops through open cells. Get the ball out through the exit. The optimum is proven by
 * breadth-first search over (orientation × ball cell). See README.md for the scene fields, the
 * move metric and the shortcuts considered.
 */
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate, P4_LEVERS } from './generate.ts';
import type { P4Scene } from './scene.ts';
import { reference, shortestSolutions } from './solver.ts';

/** What P4 is: id, version, category, title, summary and tiers. */
export const P4_DESCRIPTOR: FamilyDescriptor = {
  id: 'P4',
  version: 3,
  category: 'P',
  title: 'Gravity maze',
  summary:
    'Turn a glass 4 × 4 × 4 maze cube in quarter turns (tip it toward a side, or spin it about the vertical) so that the ball inside drops from cell to cell and leaves through the exit hole. The cube and the ball turn as one swept group; the ball then drops straight down through open cells. The fewest turns and the number of shortest turn sequences are proven by breadth-first search over (orientation × ball cell); an action budget that is a constant of the tier: the longest optimum its band allows plus half again.',
  tiers: {
    L1: { levers: [], description: 'Translucent blocks; the exit 4–5 turns away; a budget of 8 turns.' },
    L3: { levers: [], description: 'Translucent blocks; 6–8 turns; a budget of 12 turns.' },
    L5: { levers: [], description: 'Opaque blocks: the ball is seen only where no block stands in the way; 9–12 turns; a budget of 18 turns.' },
    L7: { levers: ['+rot'], description: 'The L5 maze of the same seed, first seen from the east, north or west: the compass letters, not the picture, say which way is north.' },
  },
};


/** P4 gravity maze: the registration object, assembled from the role files. */
export const p4GravityMaze: TaskFamily<P4Scene> = {
  ...P4_DESCRIPTOR,
  levers: P4_LEVERS,
  generate: (seed, tier, lever) => generate(P4_DESCRIPTOR, seed, tier, lever),
  build,
  reference,
  shortestSolutions,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
};
