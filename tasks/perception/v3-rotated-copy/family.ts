/**
 * V3 Rotated copy — made by `spaceact new-family` from the template: slide a block across a
 * grid of cells, around fixed obstacles, onto the goal pad. It already passes the check-suite;
 * AUTHORING.md walks through turning it into the real task. Every family folder has the same
 * files by role: family.ts (this: descriptor and registration), scene.ts, generate.ts,
 * episode.ts, solver.ts, filters.ts and README.md.
 */
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate } from './generate.ts';
import type { V3Scene } from './scene.ts';
import { reference } from './solver.ts';

/** What V3 is: id, version, category, title, summary and tiers. */
export const V3_DESCRIPTOR: FamilyDescriptor = {
  id: 'V3',
  version: 1,
  category: 'V',
  title: 'Rotated copy',
  summary: 'Template task: slide a block over a grid, around obstacles, onto a goal pad. Replace with what this family tests.',
  tiers: {
    L1: { levers: [], description: '4×4 board, no obstacles, at least 3 slides.' },
    L3: { levers: [], description: '5×5 board, 3 obstacles, at least 5 slides.' },
    L5: { levers: [], description: '6×6 board, 7 obstacles, at least 8 slides.' },
  },
};

/** V3 Rotated copy: the registration object, assembled from the role files. */
export const v3RotatedCopy: TaskFamily<V3Scene> = {
  ...V3_DESCRIPTOR,
  generate: (seed, tier) => generate(V3_DESCRIPTOR, seed, tier),
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
};
