/**
 * B5 multi-wall: build walls of studded bricks on a baseplate whose views from several sides
 * equal target elevations (and, from L5, a plan seen from above).
 *
 * **Scene.** A square studded baseplate stands somewhere on the measuring mat. A second picture,
 * the target sheet, shows the targets: one panel per view (front, right side; L5+ also top),
 * drawn without perspective at true scale over the baseplate — filled red silhouettes on a stud
 * grid (L1–L5) or line drawings with dimension lines only (L7, +blueprint). The rules text gives
 * no size, count or position: the site is read on the mat's rulers, the targets on the sheet.
 *
 * **Tools.** `place(brick_type, x_m, z_m, yaw_deg)` lowers a brick from the supply onto the stud
 * grid (the stud-site kit of B1–B3: snapped within 3 mm and 10°, refusals rolled back and
 * counted); `remove(brick)`; `commit()` projects the standing bricks onto the tier's views and
 * compares them with the targets, checks the stud statics, and ends the episode.
 *
 * **What it takes.** Reading each view's shape and where it stands over the baseplate, putting
 * the views together into walls (which row a wall seen from the front stands in is shown only
 * by the side and top views), bridging openings with bricks that reach across from a support,
 * and placing the bricks metrically. The exact search of `search.ts` proves the least number of
 * bricks (the reference) and, where the tier asks, that the views fix the filled cells.
 */
import { leverInfo } from '../../levers.ts';
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build, worldOptions } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate } from './generate.ts';
import { actionBudget, B5_LEVERS, type B5Scene } from './scene.ts';
import { reference } from './solver.ts';

/** What B5 is: id, version, category, title, summary and tiers. */
export const B5_DESCRIPTOR: FamilyDescriptor = {
  id: 'B5',
  version: 1,
  category: 'B',
  title: 'Multi-wall',
  summary:
    'Build walls of studded bricks on a baseplate so that their views from several sides, without perspective, equal the target views shown on a target sheet (and the structure stands). Tests putting orthographic views together into a 3D structure, reading where each view stands over the baseplate, bridging openings under stud statics, and metric placement read off a measuring mat. An exact search over brick placements proves the least number of bricks; the action budget is 1.5× the reference\'s.',
  tiers: {
    L1: { levers: [], description: 'One wall one stud thick, 3–6 studs long and 1–3 bricks high, along x or z; front and right-side views as red silhouettes on a stud grid; the views fix every filled cell; spare bricks.' },
    L3: { levers: [], description: 'Two walls up to 4 bricks high, possibly with a door or window to bridge; front and right-side views only, so which row or column each wall stands in must be worked out (any reading that matches counts); spares and a two-wide decoy type.' },
    L5: { levers: [], description: 'Two or three walls with one or two openings; front, right-side and top views, which fix every filled cell; the supply holds exactly the bricks of a least-brick build plus a decoy type.' },
    L7: { levers: ['+blueprint'], description: 'L5 with the target views only as line drawings (outlines and dimension lines, no grid, no colour).' },
  },
};

/** B5 multi-wall: build walls whose views match the targets. */
export const b5MultiWall: TaskFamily<B5Scene> = {
  ...B5_DESCRIPTOR,
  levers: leverInfo(B5_LEVERS),
  generate: (seed, tier, lever) => generate(B5_DESCRIPTOR, seed, tier, lever),
  worldOptions,
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
  certify: { optimal: true },
  textVaries: [
    {
      what: 'supply',
      reason:
        'The bricks handed to the player (catalog names and how many of each): the supply is not drawn in the scene, so the text is the only place it can be given. Its brick count tells roughly how big the structure is, but nothing of where the walls stand on the baseplate, which way they run, their profiles, or where the baseplate is on the mat.',
      values: (i) => [...i.scene.supply.map((x) => `${x.count} × ${x.type}`), ...i.scene.supply.map((x) => x.type)],
    },
    {
      what: 'budget',
      budget: true,
      reason: "The action budget is 1.5× the reference's actions (its bricks and commit), so it follows the least brick count, which the supply already shows about as well; what a player without pictures lacks is the site and the target shapes.",
      values: (i) => [`${actionBudget(i.scene.leastBricks)} actions`],
    },
  ],
};
