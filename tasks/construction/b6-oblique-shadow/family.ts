/**
 * B6 oblique shadow: build a structure of studded bricks on a baseplate whose shadow under a
 * slanted light fills a target outline drawn on a white board beside it (pass/fail).
 *
 * **Scene.** A studded baseplate on the measuring mat; to its right a white board with a red
 * outline; a grey reference post (5 cm, with a height ruler) whose shadow on the mat shows the
 * light's direction and slant. The key light's direction varies continuously with the seed and
 * is never given as a number; neither are the outline's size or place.
 *
 * **Tools.** The stud kit's `place(brick_type, x_m, z_m, yaw_deg)` and `remove(brick)`
 * (`tasks/kits/bricks/stud-site.ts`: metric placement snapped to the grid, refusals rolled back
 * and counted), and `commit()`: the shadow of the structure on the board (each brick's box and
 * each uncovered stud projected along the light) against the target, IoU at the tier's
 * threshold (stated in the rules). The text says only passed or failed.
 *
 * **What it takes.** Reading the light off the post's shadow (direction and length per
 * height), reading the outline on the board, and working back along the light from each part
 * of the outline to a footprint and a height on the baseplate. The generator keeps only
 * instances where every near miss (a column one piece lower, moved one stud, or left out)
 * fails (`filters.ts`).
 */
import { leverInfo } from '../../levers.ts';
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build, worldOptions } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate } from './generate.ts';
import { actionBudget, B6_LEVERS, type B6Scene } from './scene.ts';
import { reference } from './solver.ts';

/** What B6 is: id, version, category, title, summary and tiers. */
export const B6_DESCRIPTOR: FamilyDescriptor = {
  id: 'B6',
  version: 2,
  category: 'B',
  title: 'Oblique shadow',
  summary:
    "Build a structure of studded bricks on a baseplate whose shadow, under one slanted light, fills a red outline drawn on a white board beside it (intersection over union at least the tier's threshold, stated in the rules; pass/fail). The light's direction and slant are shown only by the shadow of a reference post of stated height; the outline's place and size only in the picture. Tests reading a light direction off a shadow, metric grounding on a measuring mat, and inverse projection: from a shape on the ground back to footprints and heights along the light.",
  tiers: {
    L1: { levers: [], description: 'One column (a 2×2 or 2×4 brick stacked 3–5 high) makes the outline; high light (shadows 0.6–0.85 times the height), within 15° of +x; IoU at least 0.80; one decoy type.' },
    L3: { levers: [], description: 'Two columns (2×2, 2×4 or 1×4 bricks, 2–5 high) at least a stud apart; lower light (0.85–1.2), within 25° of +x; IoU at least 0.88; two decoy types.' },
    L5: { levers: [], description: 'Three columns (3–6 bricks high, taller structures); low light (1.0–1.5); IoU at least 0.90; two decoy types. At every tier every near miss (a column one brick lower, one stud off, or left out) fails.' },
    L7: { levers: ['+rot'], description: 'L5 with the baseplate turned on the mat by 15–35° either way: the stud grid is not parallel to the mat, the board or the light.' },
  },
};

/** B6 oblique shadow: build so that the shadow fills the outline. */
export const b6ObliqueShadow: TaskFamily<B6Scene> = {
  ...B6_DESCRIPTOR,
  levers: leverInfo(B6_LEVERS),
  generate: (seed, tier, lever) => generate(B6_DESCRIPTOR, seed, tier, lever),
  worldOptions,
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
  textVaries: [
    {
      what: 'supply',
      reason:
        "The bricks handed to the player (catalog names and how many of each): the supply is not drawn in the scene, so the text is the only place it can be given; it holds the target structure's bricks with a spare of each type and decoy types, and says nothing of the site, the light or the outline.",
      values: (i) => [...i.scene.supply.map((x) => `${x.count} × ${x.type}`), ...i.scene.supply.map((x) => x.type)],
    },
    {
      what: 'budget',
      budget: true,
      reason:
        "The action budget is the reference's pieces and commit plus half as many again and two, so it follows the piece count; the supply already tells about as much, and what a player without pictures lacks — the site, the light's direction and slant, the outline — is not in it.",
      values: (i) => [`${actionBudget(i.scene.target.length)} actions`],
    },
  ],
};
