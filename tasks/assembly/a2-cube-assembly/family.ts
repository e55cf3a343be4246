/**
 * A2 cube assembly: build a box (a cube at the upper tiers) on a plate from Soma-like polycube
 * pieces, each lowered from above or slid in level from a side, in an order gravity allows. See
 * README.md for the scene fields, the certificate and the shortcuts considered.
 */
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate } from './generate.ts';
import { leverInfo } from '../../levers.ts';
import { A2_LEVERS, type A2Scene } from './scene.ts';
import { reference } from './solver.ts';

/** What A2 is: id, version, category, title, summary and tiers. */
export const A2_DESCRIPTOR: FamilyDescriptor = {
  id: 'A2',
  version: 1,
  category: 'A',
  title: 'Cube assembly',
  summary:
    'Build a solid box — a 3×3×3 cube at the upper tiers — on a plate from Soma-like polycube pieces lying on a table, each turned in quarter turns and either lowered from above or slid in level from a side, in an order gravity allows: no piece may float or tip, and none may pass through another on its way in. Tests mental rotation, exact cover and assembly-order planning; the packings are counted by exact cover and the reference order is found by search over placed sets.',
  tiers: {
    L1: { levers: [], description: '2×2×3 box (two cubes wide and deep, three high) from 3 Soma-like pieces of 4 cubes, no decoys; the box is shown on the plate.' },
    L3: { levers: [], description: '3×3×3 cube from 6 pieces of 4–5 cubes, no decoys; the box is shown on the plate.' },
    L5: { levers: [], description: '3×3×3 cube from 7 Soma-like pieces (one of 3 cubes, six of 4, none straight or square) + 2 decoys that fit in no filling; the box is shown on the plate.' },
    L7: {
      levers: ['+blueprint'],
      description: 'L5 with the box shown only as a line drawing with dimension lines (front, top, right side), not on the plate; the box is a 3×3×3 cube or a 2×3×4 box standing in any of its six ways, from 7 Soma-like pieces + 2 decoys.',
    },
  },
};

/** A2 cube assembly: the registration object, assembled from the role files. */
export const a2CubeAssembly: TaskFamily<A2Scene> = {
  ...A2_DESCRIPTOR,
  levers: leverInfo(A2_LEVERS),
  generate: (seed, tier, lever) => generate(A2_DESCRIPTOR, seed, tier, lever),
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
  // The text of a tier is the same for every seed but for the piece names (issue 36): no box
  // size, no number of pieces, no cube counts. The budget is the same at every seed of a tier
  // (each tier needs a fixed number of pieces).
  textVaries: [
    {
      what: 'piece names',
      reason: 'the tools name the pieces they may move by colour; which colour has which shape, and where it lies, is seen only in the picture',
      values: (i) => i.scene.pieces.map((p) => p.name),
    },
  ],
};
