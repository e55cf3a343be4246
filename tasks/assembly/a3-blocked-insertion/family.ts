/**
 * A3 blocked insertion: fill an open box with polycube pieces lowered straight down, where some
 * pieces already stand in the box over cells still to be filled, so they must be lifted out
 * first and put back later (a non-monotone order). See README.md for the scene fields, the
 * certificate, the move metric and the shortcuts considered.
 */
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { candidates } from './candidates.ts';
import { build } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate } from './generate.ts';
import { A3_LEVERS, type A3Scene } from './scene.ts';
import { reference, shortestSolutions } from './solver.ts';
import { leverInfo } from '../../levers.ts';

/** What A3 is: id, version, category, title, summary and tiers. */
export const A3_DESCRIPTOR: FamilyDescriptor = {
  id: 'A3',
  version: 2,
  category: 'A',
  title: 'Blocked insertion',
  summary:
    'Fill an open box with polycube pieces, each turned in quarter turns and lowered straight down, where some pieces already stand in the box over cells that must be filled first: such a blocker must be lifted out, the part under it inserted, and the blocker put back (a non-monotone order). Every move is a real swept motion. Tests seeing what lies under an overhang, mental rotation and order planning; a search over (pieces in the box, where the blockers are) certifies that no monotone order exists and that the reference is minimal in moves.',
  tiers: {
    L1: { levers: [], description: '3×2×2 box, 3 pieces of 3–5 cubes: 1 blocker in the box over a cell to fill, 2 pieces on the table.' },
    L3: {
      levers: [],
      description: '3×3×2 box, 4 pieces of 4–5 cubes: 1 blocker, 3 on the table, one of which rests on the blocker (it goes in only after the blocker is back).',
    },
    L5: {
      levers: [],
      description:
        '4×3×2 box, 5–6 pieces of 4–5 cubes: 2 blockers and 1 decoy in the box (it never needs to move), the rest on the table with 1 spare that fits nowhere; a piece rests on a blocker.',
    },
    L7: { levers: ['+occ'], description: 'L5 with 2 of the table pieces hidden behind a wall.' },
  },
};

/** A3 blocked insertion: fill a box where blockers already in it must come out and go back. */
export const a3BlockedInsertion: TaskFamily<A3Scene> = {
  ...A3_DESCRIPTOR,
  levers: leverInfo(A3_LEVERS),
  generate: (seed, tier, lever) => generate(A3_DESCRIPTOR, seed, tier, lever),
  build,
  reference,
  shortestSolutions,
  candidates: (view, tier) => candidates(A3_DESCRIPTOR, view, tier),
  certify: { optimal: true },
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
  // The text of a tier is the same for every seed but for the piece names (issue 36): no box
  // size, no number of pieces, which start in the box, or cube counts. The action budget is a
  // tier constant.
  textVaries: [
    {
      what: 'piece names',
      reason: 'the tools name the pieces by colour, in alphabetical order; which colour has which shape, and where it lies, is seen only in the picture',
      values: (i) => i.scene.pieces.map((p) => p.name),
    },
  ],
};
