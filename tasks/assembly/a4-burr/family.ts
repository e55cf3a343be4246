/**
 * A4 burr: assemble a small interlocking burr — three sticks, or six — around a clamped key
 * stick by straight swept slides, in an order the notches allow. See README.md for the scene
 * fields, the certificate (a disassembly search run backwards, with the burr's level), the
 * published cross-check and the shortcuts considered.
 */
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { candidates } from './candidates.ts';
import { build } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { budgetFor, generate, toolNames } from './generate.ts';
import { assemblySlides } from './plan.ts';
import { leverInfo } from '../../levers.ts';
import { A4_LEVERS, type A4Scene } from './scene.ts';
import { reference } from './solver.ts';

/** What A4 is: id, version, category, title, summary and tiers. */
export const A4_DESCRIPTOR: FamilyDescriptor = {
  id: 'A4',
  version: 3,
  category: 'A',
  title: 'Burr',
  summary:
    'Assemble an interlocking burr of notched square sticks around a clamped key stick, each stick slid straight along a world axis by whole cubes (a real swept motion: touching anything refuses the slide). The notches differ with every seed, so the order and the moves must be read from the sticks in the picture. Tests reading notched 3D shapes, spatial order planning and multi-step interlocking; a disassembly search run backwards (breadth-first over the sticks\' offsets) certifies the assembly and records the burr\'s level.',
  tiers: {
    L1: { levers: [], description: 'Three sticks (one per axis, the upright one the key), level 1: one stick slides straight out of the finished burr, the other cannot.' },
    L3: { levers: [], description: 'Six sticks (the standard six-piece burr shape, an upright one the key), level 1: exactly one stick slides straight out of the finished burr.' },
    L5: { levers: [], description: 'Six sticks, level 2–6: no stick slides straight out of the finished burr; sticks must be moved partly in and out before the last one can go in.' },
    L7: { levers: ['+occ'], description: 'L5 with one stick parked behind a screen, out of sight from the first view.' },
  },
};

/** A4 burr: the registration object, assembled from the role files. */
export const a4Burr: TaskFamily<A4Scene> = {
  ...A4_DESCRIPTOR,
  levers: leverInfo(A4_LEVERS),
  generate: (seed, tier, lever) => generate(A4_DESCRIPTOR, seed, tier, lever),
  build,
  reference,
  candidates: (view, tier) => candidates(A4_DESCRIPTOR, view, tier),
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
  // The text of a tier is the same for every seed but for the stick names and the budget (issue
  // 36): no distances, directions, orders or levels.
  textVaries: [
    {
      what: 'stick names',
      reason: 'the tool names the movable sticks by colour, in alphabetical order; which colour has which notches, and where it lies, is seen only in the picture',
      values: (i) => toolNames(i.scene),
    },
    {
      what: 'action budget',
      budget: true,
      reason: 'the budget is the reference\'s slide count × 2 + 2 (README "Budget"); it says how many slides the plan takes but nothing of which stick goes where, which way or how far',
      values: (i) => [String(budgetFor(assemblySlides(i.scene).length))],
    },
  ],
};
