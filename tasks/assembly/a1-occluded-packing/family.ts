/**
 * A1 occluded packing: fill an open box with polycube pieces lying on a table, some of them
 * hidden behind a wall, turning each in quarter turns and lowering it straight down. See
 * README.md for the scene fields, the move metric and the shortcuts considered.
 */
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { A1_LEVERS, generate } from './generate.ts';
import type { A1Scene } from './scene.ts';
import { reference } from './solver.ts';
import { leverInfo } from '../../levers.ts';

/** What A1 is: id, version, category, title, summary and tiers. */
export const A1_DESCRIPTOR: FamilyDescriptor = {
  id: 'A1',
  version: 3,
  category: 'A',
  title: 'Occluded packing',
  summary:
    'Fill an open box with polycube pieces lying on a table, some of them behind a wall that hides them from the first view. Each piece is turned in quarter turns and lowered straight down, so pieces under an overhang must go first; spare pieces that fit nowhere are mixed in. Tests mental rotation, exact cover and order planning under occlusion; the filling is certified unique with the polycube toolkit.',
  tiers: {
    L1: { levers: [], description: '2×2×2 box, 2 pieces of 3–5 cubes, no spares, 1 of them hidden behind the wall.' },
    L3: {
      levers: [],
      description: '3×2×2 box, 3 pieces of 3–5 cubes + 1 spare the size of a needed piece, 1 piece hidden; the lowering order has a forced chain of at least 2 pieces.',
    },
    L5: {
      levers: [],
      description:
        '3×3×2 box, 4 pieces of 4–5 cubes + 2 spares (one the mirror image of a chiral needed piece where that keeps the filling unique), 2 pieces hidden; a forced chain of at least 3.',
    },
    L7: { levers: ['+occ'], description: 'L5 with 4 of the 6 pieces hidden behind the wall.' },
  },
};

/** A1 occluded packing: fill an open box with polycube pieces, some hidden behind a wall, lowering each straight down. */
export const a1OccludedPacking: TaskFamily<A1Scene> = {
  ...A1_DESCRIPTOR,
  levers: leverInfo(A1_LEVERS),
  generate: (seed, tier, lever) => generate(A1_DESCRIPTOR, seed, tier, lever),
  build,
  reference,
  certify: { unique: true },
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
  // The text of a tier is the same for every seed but for the piece names (issue 36): no box
  // size, no number of pieces, no cube counts. The action budget is the same at every seed of a
  // tier (each tier needs a fixed number of pieces).
  textVaries: [
    {
      what: 'piece names',
      reason: "the tools name the pieces they may move by colour; which colour has which shape, and where it lies, is seen only in the picture",
      values: (i) => i.scene.pieces.map((p) => p.name),
    },
  ],
};
