/**
 * P6 peg transfer: move a stack of disks between three pegs, never a disk on a smaller one
 * (a Tower-of-Hanoi family with rule variants), executed with real disks on real pegs. See
 * README.md for the scene fields, the move metric and the shortcuts considered.
 */
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate } from './generate.ts';
import { leverInfo } from '../../levers.ts';
import { P6_LEVERS, type P6Scene } from './scene.ts';
import { reference, shortestSolutions } from './solver.ts';

/** What P6 is: id, version, category, title, summary and tiers. */
export const P6_DESCRIPTOR: FamilyDescriptor = {
  id: 'P6',
  version: 6,
  category: 'P',
  title: 'Peg transfer',
  summary:
    'Move a stack of disks between three pegs, never putting a disk on a smaller one. Tests multi-step planning executed physically; the optimum is proven by exhaustive search.',
  tiers: {
    L1: { levers: [], description: '3 disks scattered over the pegs, 4–7 moves from the goal peg (marked only by a green pad); a move budget of the tier’s longest plan plus a quarter again, and a move that breaks a rule ends the episode.' },
    L3: { levers: [], description: '5 disks scattered, 12–25 moves from the goal; the same kind of budget.' },
    L5: { levers: [], description: '5 disks scattered, with the variant rule that a disk moves only between neighbouring pegs; 30–80 moves from the goal; the letters stand in a drawn order, so which letter names the middle peg is shown only in the scene.' },
    L7: { levers: ['+rot'], description: 'L5 with the board turned 50–130° about the vertical: the pegs no longer run left to right in the first view and must be told apart by the letters on their stands.' },
  },
};

/** P6 peg transfer: a Tower-of-Hanoi family executed with real disks on real pegs. */
export const p6PegTransfer: TaskFamily<P6Scene> = {
  ...P6_DESCRIPTOR,
  levers: leverInfo(P6_LEVERS),
  generate: (seed, tier, lever) => generate(P6_DESCRIPTOR, seed, tier, lever),
  build,
  reference,
  shortestSolutions,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
};
