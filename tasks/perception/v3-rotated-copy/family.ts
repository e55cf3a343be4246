/**
 * V3 rotated copy: a reference part and lettered candidates; exactly one candidate is the
 * reference turned, the others near misses (its mirror image, one cube moved). Files by role:
 * family.ts (this), scene.ts, generate.ts, episode.ts, solver.ts, filters.ts and README.md; the
 * table, the walls, the ray-cast sight and the drawer are the part-sight kit.
 */
import type { FamilyDescriptor, Instance, TaskFamily } from '../../types.ts';
import { build } from './episode.ts';
import { answerPlace, SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate } from './generate.ts';
import { leverInfo } from '../../levers.ts';
import { V3_LEVERS, type V3Scene } from './scene.ts';
import { reference } from './solver.ts';

/** What V3 is: id, version, category, title, summary and tiers. */
export const V3_DESCRIPTOR: FamilyDescriptor = {
  id: 'V3',
  version: 1,
  category: 'V',
  title: 'Rotated copy',
  summary:
    'The classic mental-rotation question, made physical: a reference part of equal cubes on a plinth and lettered candidates before it; exactly one candidate is the reference turned, the others are its mirror image or the reference with one cube moved. Certified exactly under the 24 cube rotations; tiers grow the turn (about the vertical, tipped over, 120° or more about an oblique axis) and the closeness of the near misses; every cube is ray-cast verified to be clearly visible from some reachable view.',
  tiers: {
    L1: { levers: [], description: '3 candidates of 5 cubes; the copy stands on the reference\'s face, turned 60° or more about the vertical; the mirror image and the one-cube move stand the same way.' },
    L3: { levers: [], description: '4 candidates of 5 cubes; the copy stands on another face (its smallest turn is 90° or more about a tilted axis); near misses in any pose.' },
    L5: { levers: [], description: '4 candidates of 6 cubes; the smallest turn is 120° or more about an axis tilted 30° or more; both one-cube moves keep the reference\'s bounding box and neighbour counts.' },
    L7: { levers: ['+occ'], description: 'L5 with a wall before every candidate, each searched so the first view cannot tell that candidate from its mirror image; every candidate still shows 15 % or more of itself.' },
  },
};

/** V3 rotated copy: the registration object, assembled from the role files. */
export const v3RotatedCopy: TaskFamily<V3Scene> = {
  ...V3_DESCRIPTOR,
  levers: leverInfo(V3_LEVERS),
  generate: (seed, tier, lever) => generate(V3_DESCRIPTOR, seed, tier, lever),
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
  answerPlace,
  // Three or four options: verify's 10 random episodes reach 7 right with probability 2 % (1/3)
  // or 0.35 % (1/4), so 0.7 and 0.6 keep false alarms rare.
  randomSuccessBound: (instance) => ((instance as Instance<V3Scene>).scene.parts.length <= 4 ? 0.7 : 0.6),
  certify: { unique: true },
};
