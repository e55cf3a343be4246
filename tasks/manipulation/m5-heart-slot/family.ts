/**
 * M5 heart slot: pass a heart-shaped block face-on through a heart-shaped opening — one
 * orientation family fits, the heart's and its turn-over about the symmetry axis.
 */
import { leverInfo } from '../../levers.ts';
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build, worldOptions } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate } from './generate.ts';
import { M5_LEVERS, type M5Scene } from './scene.ts';
import { reference } from './solver.ts';

/** What M5 is: id, version, category, title, summary and tiers. */
export const M5_DESCRIPTOR: FamilyDescriptor = {
  id: 'M5',
  version: 5,
  category: 'M',
  title: 'Heart slot',
  summary:
    'Pass a held heart-shaped block through the heart-shaped opening of a wall that is its outline grown by a few millimetres. The block passes only face-on with its heart turned onto the opening (or turned over about its symmetry axis); decoy openings are smaller or narrower hearts. From L3 the opening is turned and the block starts turned; at L7 (+tool) rotations are given about the block\'s own axes. Tests reading a shape\'s orientation and 6-DoF control; every motion is swept.',
  tiers: {
    L1: { levers: [], description: 'One opening, notch up; 3 mm clearance; the block starts face-on to the wall, turned in its plane.' },
    L3: { levers: [], description: 'The opening turned 15–40° about the wall\'s normal, a smaller decoy; 2 mm clearance; the block starts yawed and tilted.' },
    L5: { levers: [], description: 'The opening turned 15–60°, a smaller and a narrower decoy; 2 mm clearance; the block starts in any orientation.' },
    L7: { levers: ['+tool'], description: 'L5 with rotations about the block\'s own axes (drawn on it), which turn with it.' },
  },
};

/** M5 Heart slot: the registration object, assembled from the role files. */
export const m5HeartSlot: TaskFamily<M5Scene> = {
  ...M5_DESCRIPTOR,
  levers: leverInfo(M5_LEVERS),
  generate: (seed, tier, lever) => generate(M5_DESCRIPTOR, seed, tier, lever),
  worldOptions,
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
};
