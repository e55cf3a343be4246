/**
 * V1 block counting: count the cubes of a pile seen first from low elevation; ray casting hides
 * cubes from the first view and shows every block clearly from some reachable view, so the agent
 * must move the camera and merge views. See README.md for the scene fields, the move metric and
 * the shortcuts considered.
 */
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS, TELLS } from './filters.ts';
import { generate } from './generate.ts';
import { leverInfo } from '../../levers.ts';
import { V1_LEVERS, type V1Scene } from './scene.ts';
import { reference } from './solver.ts';

/** What V1 is: id, version, category, title, summary and tiers. */
export const V1_DESCRIPTOR: FamilyDescriptor = {
  id: 'V1',
  version: 4,
  category: 'V',
  title: 'Block counting',
  summary:
    'Count the cubes in a pile of stacked blocks seen first from low elevation. Every instance is verified by ray casting to hide cubes from the first view and to show every block clearly from some reachable view, so the agent must move the camera and merge views.',
  tiers: {
    L1: { levers: [], description: '9–24 cubes on a 3 × 3 grid, up to 3 high, no decoys; 1–8 cubes (drawn evenly) hidden from the first view, at least 1 wholly.' },
    L3: { levers: [], description: '12–30 cubes on a 4 × 3 grid, up to 3 high, 2–3 decoys (tiles, upright or lying bars); 3–11 cubes hidden from the first view, at least 2 wholly.' },
    L5: { levers: [], description: '18–40 cubes on a 4 × 4 grid, up to 4 high, 4–6 decoys; 5–15 cubes hidden from the first view, at least 3 wholly.' },
    L7: { levers: ['+occ'], description: 'L5 (7–18 cubes hidden from the first view) plus a wall 8 cm high, 4.5 cm out from the pile and as long as the table, along the side the first camera faces (within 25°): from that side the lower two layers are hidden from every view but steep ones.' },
  },
};

/** V1 block counting: count the cubes of a pile that the first view shows only in part. */
export const v1BlockCounting: TaskFamily<V1Scene> = {
  ...V1_DESCRIPTOR,
  levers: leverInfo(V1_LEVERS),
  generate: (seed, tier, lever) => generate(V1_DESCRIPTOR, seed, tier, lever),
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
  tells: TELLS as TaskFamily<V1Scene>['tells'],
  certify: {},
};
