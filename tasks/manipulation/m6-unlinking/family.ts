/**
 * M6 unlinking: free a held hook from a fixed frame — the one way out is a slot in the hook's
 * bottom bar, which must be turned to run along the frame's top bar and lifted off over it.
 */
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build, worldOptions } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate } from './generate.ts';
import type { M6Scene } from './scene.ts';
import { reference } from './solver.ts';
import { leverInfo } from '../../levers.ts';
import { M6_LEVERS } from './scene.ts';

/** What M6 is: id, version, category, title, summary and tiers. */
export const M6_DESCRIPTOR: FamilyDescriptor = {
  id: 'M6',
  version: 3,
  category: 'M',
  title: 'Unlinking',
  summary:
    'Separate a held hook (a square loop of bars) from the fixed frame it hangs linked on. The single way out is a long slot cut through the hook\'s bottom plate, a few millimetres wider than the frame\'s top bar: the hook must be turned so the slot runs along the top bar, brought under it, and lifted off through it. The slot is slanted across the plate (10–50° at L1, 25–55° from L3), off the plate\'s middle (up to 28 mm at L1 and L3, 8–28 mm from L5), every number drawn continuously; 5 actions, refused ones included; at L7 (+tool) rotations are given about the hook\'s own axes. Tests reading a mechanism\'s geometry off pictures and sequencing 6-DoF moves; every motion is swept.',
  tiers: {
    L1: { levers: [], description: 'A slot slanted 10–50° across the hook\'s bottom plate, up to 28 mm off its middle, 3 mm clearance; the hook starts turned 45–85° from lined up about the vertical and slid 6–20 mm across the bar (all continuous).' },
    L3: { levers: [], description: 'The slot slanted 25–55° across the plate, up to 28 mm off its middle; the hook starts turned 45–85° from lined up; 3 mm clearance.' },
    L5: { levers: [], description: 'A slot slanted 25–55°, 8–28 mm off the plate\'s middle; 3 mm clearance.' },
    L7: { levers: ['+tool'], description: 'L5 with rotations about the hook\'s own axes (drawn on it), which turn with it.' },
  },
};

/** M6 Unlinking: the registration object, assembled from the role files. */
export const m6Unlinking: TaskFamily<M6Scene> = {
  ...M6_DESCRIPTOR,
  levers: leverInfo(M6_LEVERS),
  generate: (seed, tier, lever) => generate(M6_DESCRIPTOR, seed, tier, lever),
  worldOptions,
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
};
