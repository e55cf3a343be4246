/**
 * M3 aperture threading: pass a long prism through a tight slot in a wall (two walls in sequence
 * from L5), turning it so its cross-section lies on the slot's outline — one orientation only.
 */
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build, worldOptions } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate } from './generate.ts';
import type { M3Scene } from './scene.ts';
import { reference } from './solver.ts';
import { leverInfo } from '../../levers.ts';
import { M3_LEVERS } from './scene.ts';

/** What M3 is: id, version, category, title, summary and tiers. */
export const M3_DESCRIPTOR: FamilyDescriptor = {
  id: 'M3',
  version: 5,
  category: 'M',
  title: 'Aperture threading',
  summary:
    'Pass a held prism through a slot in a wall whose outline is the prism\'s cross-section grown by a small clearance; the prism is longer than the slot is wide, so it passes only end-first, turned onto the outline — and for a chiral cross-section only one way round. From L5 two walls in sequence with differently turned slots, decoy slots with one square moved. Tests reading a shape and its orientation off pictures and metric 6-DoF control; every motion is swept.',
  tiers: {
    L1: { levers: [], description: 'One wall, one slot for a straight 3-square bar; 5 mm clearance; the bar starts lying across the slot.' },
    L3: { levers: [], description: 'One wall, a chiral tetromino prism, its slot and a decoy with one square moved; 3 mm clearance; any start orientation.' },
    L5: { levers: [], description: 'Two walls in sequence, a chiral pentomino prism, the second slot turned a quarter or three quarters from the first, a decoy on each wall; 2.5 mm clearance.' },
    L7: { levers: ['+rot'], description: 'L5 with the working frame turned about the vertical by ±30–60°, shown only by the axis arrows.' },
  },
};

/** M3 Aperture threading: the registration object, assembled from the role files. */
export const m3ApertureThreading: TaskFamily<M3Scene> = {
  ...M3_DESCRIPTOR,
  levers: leverInfo(M3_LEVERS),
  generate: (seed, tier, lever) => generate(M3_DESCRIPTOR, seed, tier, lever),
  worldOptions,
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
};
