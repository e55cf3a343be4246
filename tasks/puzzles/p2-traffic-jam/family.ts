/**
 * P2 traffic jam: cars and trucks slide only along their own axes in a walled lot; free the exit
 * lane for the red car. Every vehicle is a body moved by straight swept motion; the optimum is
 * proven by breadth-first search. See README.md for the scene fields, the move metric and the
 * shortcuts considered.
 */
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate, P2_LEVERS } from './generate.ts';
import type { P2Scene } from './scene.ts';
import { reference, shortestSolutions } from './solver.ts';

/** What P2 is: id, version, category, title, summary and tiers. */
export const P2_DESCRIPTOR: FamilyDescriptor = {
  id: 'P2',
  version: 6,
  category: 'P',
  title: 'Traffic jam',
  summary:
    'Drive cars and trucks forwards or backwards along their own axes in a jammed 6 × 6 lot until the red car reaches the exit gate (Rush-Hour-like). One action drives one vehicle any distance; the shortest solution and the number of shortest solutions are proven by breadth-first search. An action budget that is a constant of the tier: twice the fewest drives of the longest start the tier releases, refused drives counted.',
  tiers: {
    L1: { levers: [], description: '6–8 vehicles; 4–6 moves from the goal; a budget of 12 drives.' },
    L3: { levers: [], description: '10–12 vehicles; 7–10 moves from the goal; a budget of 20 drives.' },
    L5: { levers: [], description: '11–13 vehicles plus 2 decoys that no shortest solution needs to move; 10–14 moves from the goal; a budget of 28 drives.' },
    L7: { levers: ['+occ'], description: 'The L5 lot of the same seed with one vehicle built tall, hiding the vehicles just north of it from the first view (a lower camera): the camera must move to see them.' },
  },
};


/** P2 traffic jam: the registration object, assembled from the role files. */
export const p2TrafficJam: TaskFamily<P2Scene> = {
  ...P2_DESCRIPTOR,
  levers: P2_LEVERS,
  // L7 draws the L5 lot of the same seed from `drawScene`'s memo: verify plays the two in one job.
  drawsFrom: { L7: 'L5' },
  generate: (seed, tier, lever) => generate(P2_DESCRIPTOR, seed, tier, lever),
  build,
  reference,
  shortestSolutions,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
  // The text of a tier is the same for every seed but for the letters (issue 36); the action
  // budget is the tier's (version 5).
  textVaries: [
    {
      what: 'vehicle letters',
      reason: "The drive tool's schema lists the letters on the roofs (names, as piece letters are); how many there are is what the picture shows anyway, and no letter says where its vehicle is.",
      values: (i) => [JSON.stringify(i.scene.vehicles.map((v) => v.id))],
    },
  ],
};
