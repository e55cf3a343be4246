/**
 * M2 corridor rod: carry a long rod through a bent corridor. The rod is a few per cent shorter
 * than the longest that can pass (a bound proven in `scene.ts`), so it must be swung round each
 * bend — and from L3 on, tilted between floor and ceiling as it swings.
 */
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build, worldOptions } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate } from './generate.ts';
import type { M2Scene } from './scene.ts';
import { reference } from './solver.ts';

/** What M2 is: id, version, category, title, summary and tiers. */
export const M2_DESCRIPTOR: FamilyDescriptor = {
  id: 'M2',
  version: 6,
  category: 'M',
  title: 'Corridor rod',
  summary:
    'Carry a held rod through a closed corridor with right-angle bends and out of its open end. The rod is only a few per cent shorter than the longest rod that can pass the tightest bend, so it must be swung round each corner with simultaneous turns and moves, and tilted between floor and ceiling where that gives the room. Tests metric reasoning about a long part in a confined 3D space; every motion is swept and rolled back on contact.',
  tiers: {
    L1: { levers: [], description: 'One L-bend under a ceiling just above the rod (no room to tilt); the rod 7–8.5% under the critical length.' },
    L3: { levers: [], description: 'One L-bend with a low ceiling that leaves some room to tilt — and the rod is long enough to need it; 5–5.5% under critical.' },
    L5: { levers: [], description: 'A double bend (two L-bends, either way), room to tilt needed at both; 4.5–5% under critical.' },
    L7: { levers: ['+tilt'], description: 'L5 whose second bend turns upward, out of the plane of the first: the rod must be pitched up a shaft; 4.5–5% under critical.' },
  },
};

/** M2 Corridor rod: the registration object, assembled from the role files. */
export const m2CorridorRod: TaskFamily<M2Scene> = {
  ...M2_DESCRIPTOR,
  generate: (seed, tier) => generate(M2_DESCRIPTOR, seed, tier),
  worldOptions,
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
};
