/**
 * B3 tower: build a tower of studded bricks on a baseplate that reaches a marked height and
 * survives a lateral push (pass/fail).
 *
 * **Scene.** A square studded baseplate stands somewhere on the measuring mat. A thin post beside
 * it carries a vertical ruler (heights above the baseplate's top) and a red mark at the height
 * the tower must reach. A blue arrow points at the baseplate along the push's line — at the
 * push's height, over the baseplate's centre, along ±x or ±z — and an upright label beside it
 * gives the push's force in newtons. The rules text gives neither the force nor any height or
 * position: they are read in the scene. At L7 a screen stands between the first view and the
 * baseplate.
 *
 * **Tools.** `place(brick_type, x_m, z_m, yaw_deg)` lowers a brick from the supply onto the stud
 * grid (B1's metric placement: snapped within 3 mm and 10°, refusals rolled back and counted);
 * `remove(brick)`; `commit()` checks the tower's top against the mark and then pushes the brick
 * the arrow's line meets for 2 s (`BrickSystem.loadTest`: overloaded stud connections let go,
 * Rapier shows whether anything moves more than 2 mm) and ends the episode.
 *
 * **What it takes.** Finding the site, reading the mark, the push's height, direction and
 * force in the pictures, and building a tower whose connections hold the push's moment: long
 * bricks laid along the push at the bottom, where the moment is largest. A single column, the
 * same tower one stud wide or turned across the push, and (L3+) the same bricks weakest at the
 * bottom all fail (closed-form statics for every instance, the real world in
 * `test/family-b3.test.ts`).
 */
import { leverInfo } from '../../levers.ts';
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build, worldOptions } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate } from './generate.ts';
import { actionBudget, B3_LEVERS, type B3Scene } from './scene.ts';
import { reference } from './solver.ts';

/** What B3 is: id, version, category, title, summary and tiers. */
export const B3_DESCRIPTOR: FamilyDescriptor = {
  id: 'B3',
  version: 2,
  category: 'B',
  title: 'Tower',
  summary:
    'Build a tower of studded bricks on a baseplate that reaches a marked height and then survives a lateral push of a given force at a given height for 2 s (pass/fail). The mark, the push\'s height and direction (an arrow) and its force (a label by the arrow) are shown only in the scene. Tests metric grounding (the site is read off a measuring mat; bricks are placed by world coordinates), reading heights off an in-scene ruler, and stud statics under a moment (long bricks along the push at the bottom, where the moment is largest). A small action budget makes probing for the site unaffordable.',
  tiers: {
    L1: { levers: [], description: 'Baseplate 8×8 studs; towers of 4–6 bricks; the push in the top one or two layers, along ±x or ±z, 50–72 % of what the best tower carries; a single column, the same tower one stud wide and the same tower turned across the push fail; one plate decoy.' },
    L3: { levers: [], description: 'Baseplate 6×6; towers of 6–8 bricks; the push in the top three layers, 55–75 % of the best tower\'s capacity; the same bricks weakest at the bottom fail too; two plate decoys.' },
    L5: { levers: [], description: 'Baseplate 6×6; towers of 8–10 bricks; the push two to four layers below the top, 60–75 % of the best tower\'s capacity.' },
    L7: { levers: ['+occ'], description: 'L5 with a screen between the first view and the baseplate: the site must be looked at from another side.' },
  },
};

/** B3 tower: build to a mark so that the tower survives a push. */
export const b3Tower: TaskFamily<B3Scene> = {
  ...B3_DESCRIPTOR,
  levers: leverInfo(B3_LEVERS),
  generate: (seed, tier, lever) => generate(B3_DESCRIPTOR, seed, tier, lever),
  worldOptions,
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
  textVaries: [
    {
      what: 'supply',
      reason:
        'The bricks handed to the player (catalog names and how many of each): the supply is not drawn in the scene, so the text is the only place it can be given; it holds the reference tower with a spare, one-wide alternatives and plate decoys, and says nothing of the site, the heights or the push.',
      values: (i) => [...i.scene.supply.map((x) => `${x.count} × ${x.type}`), ...i.scene.supply.map((x) => x.type)],
    },
    {
      what: 'budget',
      budget: true,
      reason:
        "The action budget is the reference's actions (one brick per layer and commit) plus three, so it follows the tower's layer count; the supply's brick count already tells about as much, and height is not what a player without pictures lacks: a tower may be built taller than the mark, while the site, the push's direction and the mark itself are only in the pictures.",
      values: (i) => [`${actionBudget(i.scene.layers)} actions`],
    },
  ],
};

