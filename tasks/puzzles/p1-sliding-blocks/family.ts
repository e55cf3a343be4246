/**
 * P1 sliding blocks: free a red 2×2 block from a tray of sliding blocks (Klotski-like). Each
 * block is a body in the tray, moved by straight swept slides that anything in the way stops;
 * the optimum is proven by breadth-first search. See README.md for the scene fields, the move
 * metric and the shortcuts considered.
 */
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate, P1_LEVERS } from './generate.ts';
import { checkP1Scene, type P1Scene } from './scene.ts';
import { reference, shortestSolutions } from './solver.ts';

/** What P1 is: id, version, category, title, summary and tiers. */
export const P1_DESCRIPTOR: FamilyDescriptor = {
  id: 'P1',
  version: 3,
  category: 'P',
  title: 'Sliding blocks',
  summary:
    'Slide lettered blocks in a walled tray to bring the red 2×2 block onto the green cells (Klotski-like). One action slides one block any number of cells in one straight direction; the shortest solution and the number of shortest solutions are proven by breadth-first search. An action budget that is a constant of the tier: the longest shortest solution its band allows × 1.5, refused slides counted.',
  tiers: {
    L1: { levers: [], description: '4 × 4 tray, 6–7 blocks, 3 empty cells; 6–8 slides from the goal; a budget of 12 slides.' },
    L3: { levers: [], description: '4 × 4 tray, 7–11 blocks, 2 empty cells; 14–20 slides from the goal; a budget of 30 slides.' },
    L5: { levers: [], description: '4 × 5 tray, about 9 blocks, 2 empty cells; 28–40 slides from the goal; a budget of 60 slides.' },
    L7: { levers: ['+rot'], description: "The L5 puzzle of the same seed with the tray turned by 90°, 180° or 270° relative to the first view: directions are the tray's own compass (its N mark), not the picture's." },
  },
};


/** P1 sliding blocks: the registration object, assembled from the role files. */
export const p1SlidingBlocks: TaskFamily<P1Scene> = {
  ...P1_DESCRIPTOR,
  levers: P1_LEVERS,
  // L7 draws the L5 lot of the same seed from `drawScene`'s memo: verify plays the two in one job.
  drawsFrom: { L7: 'L5' },
  generate: (seed, tier, lever) => generate(P1_DESCRIPTOR, seed, tier, lever),
  build,
  reference,
  shortestSolutions,
  checkScene: checkP1Scene,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
  // The text of a tier is the same for every seed but for the letters (issue 36): no tray size,
  // no number of blocks, no positions; the action budget is the tier's (version 3).
  textVaries: [
    {
      what: 'block letters',
      reason: 'the slide tool names the blocks it may move; the letters are drawn on the blocks, and which letter is where is seen only in the picture',
      values: (i) => i.scene.blocks.map((b) => b.id),
    },
  ],
};
