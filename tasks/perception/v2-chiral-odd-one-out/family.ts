/**
 * V2 chiral odd-one-out: among lettered polycube parts, all proper rotations of one chiral shape
 * but one, its mirror image, name the mirror image. Files by role: family.ts (this), scene.ts,
 * generate.ts, episode.ts, solver.ts, filters.ts and README.md; the table, the walls, the
 * ray-cast sight and the drawer are the part-sight kit (tasks/kits/part-sight).
 */
import type { FamilyDescriptor, Instance, TaskFamily } from '../../types.ts';
import { build } from './episode.ts';
import { answerPlace, SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate } from './generate.ts';
import { leverInfo } from '../../levers.ts';
import { V2_LEVERS, type V2Scene } from './scene.ts';
import { reference } from './solver.ts';

/** What V2 is: id, version, category, title, summary and tiers. */
export const V2_DESCRIPTOR: FamilyDescriptor = {
  id: 'V2',
  version: 2,
  category: 'V',
  title: 'Chiral odd-one-out',
  summary:
    'Lettered parts of equal cubes stand on a table; all but one are the same chiral solid, only turned, and one is its mirror image. Name the mirror image. Certified exactly (the shape is chiral; the 24 cube rotations carry every copy onto the others and none onto the odd one); every cube is ray-cast verified to be clearly visible from some reachable view, and at L7 walls hide every part so the first view cannot tell any of them from its mirror image.',
  tiers: {
    L1: { levers: [], description: '4 parts of 5 cubes in a row, all standing on the same face (copies differ by a turn about the vertical); no walls.' },
    L3: { levers: [], description: '6 parts of 5 cubes, each standing on any face it can stand on and turned any way; the back row on a step; no walls.' },
    L5: { levers: [], description: '6 parts of 6 cubes, any pose; a low wall before every part hides its lowest cubes from low views.' },
    L7: { levers: ['+occ'], description: 'L5 with a taller wall before every part, each searched so the first view cannot tell that part from its mirror image (every part still shows 15 % or more of itself).' },
  },
};

/** V2 chiral odd-one-out: the registration object, assembled from the role files. */
export const v2ChiralOddOneOut: TaskFamily<V2Scene> = {
  ...V2_DESCRIPTOR,
  levers: leverInfo(V2_LEVERS),
  generate: (seed, tier, lever) => generate(V2_DESCRIPTOR, seed, tier, lever),
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
  answerPlace,
  // Four or six options: verify's 10 random episodes reach 7 right with probability 0.35 % (1/4)
  // or 0.03 % (1/6), so 0.6 and 0.5 keep false alarms rare.
  randomSuccessBound: (instance) => ((instance as Instance<V2Scene>).scene.parts.length <= 4 ? 0.6 : 0.5),
  certify: { unique: true },
};
