/**
 * T6 gear train: place gears on a pegboard so that one turn of the input turns the output's
 * pointer onto a mark, the way an arrow shows.
 *
 * **Scene.** A pegboard with an input crank on peg I, a pointer over a dial on peg O (the dial's
 * red mark and arrow show the asked rotation: less than a turn, either way), other pegs at
 * continuous positions, and a tray of loose pin gears (every pin a tooth). Rulers along two edges.
 *
 * **Tools.** `place_gear(teeth, peg)`, `remove_gear(peg)` (swept motion, no world time) and
 * `turn_input()` (one full counter-clockwise turn of the crank's joint motor; the gears drive each
 * other through pin contacts). Budget: twice the reference's actions.
 *
 * **What it takes.** Counting pins, measuring peg distances against the rulers (gears mesh when
 * their pegs are their pitch radii apart), reading the asked fraction of a turn and its direction
 * off the dial, and choosing a chain whose ratio z_in / z_out and parity give exactly that.
 */
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate } from './generate.ts';
import { leverInfo } from '../../levers.ts';
import { T6_LEVERS, type T6Scene } from './scene.ts';
import { reference } from './solver.ts';

/** What T6 is: id, version, category, title, summary and tiers. */
export const T6_DESCRIPTOR: FamilyDescriptor = {
  id: 'T6',
  version: 2,
  category: 'T',
  title: 'Gear train',
  summary:
    'Place pin gears from a tray on the pegs of a pegboard so that one turn of the input crank turns the output pointer onto the dial\'s mark, the way its arrow shows (a fraction z_in / z_out of a turn; counter-clockwise with an odd number of gears). Pegs stand at continuous positions; gears mesh only where the pegs are exactly their pitch radii apart. Gears are real bodies on revolute joints driven through pin contacts. Budget: twice the reference\'s actions, refused calls and turns counted.',
  tiers: {
    L1: { levers: [], description: 'Pegs I, O and two more; four gears in the tray; a train of two or three gears.' },
    L3: { levers: [], description: 'Four more pegs and six gears; a train of three or four gears, and a route of the other parity with the same end gears (the wrong direction).' },
    L5: { levers: [], description: 'Five more pegs and nine gears: as L3 plus gears that fit the same pegs with another end pair (the wrong ratio).' },
    L7: { levers: ['+change'], description: 'L5 with a second right route, while one peg of the first stands a few millimetres off its spot: its gears do not reach each other, which only a turn of the input (or a close look) shows.' },
  },
};

/** T6 gear train: the registration object, assembled from the role files. */
export const t6GearTrain: TaskFamily<T6Scene> = {
  ...T6_DESCRIPTOR,
  levers: leverInfo(T6_LEVERS),
  generate: (seed, tier, lever) => generate(T6_DESCRIPTOR, seed, tier, lever),
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
  textVaries: [
    {
      what: 'action budget',
      budget: true,
      reason: 'twice the reference\'s action count (its train length plus one turn); it says how many gears the shortest right train has, which the picture shows anyway once the model has found it',
      values: (i) => [`Budget: ${i.budgets.actions} actions`],
    },
  ],
};
