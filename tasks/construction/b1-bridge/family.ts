/**
 * B1 bridge: span the gap between two studded piers with interlocking bricks so that a load
 * hung at mid-span holds (pass/fail).
 *
 * **Scene.** Two static piers 48 mm tall, topped with studs (`W` columns along the span × 3
 * rows, 8 mm pitch) with a gap of `G` pitches between them, stand somewhere on a measuring mat
 * (36 × 34 cm, a line every centimetre, red rulers along x and blue rulers along z, a black and
 * white target at the origin in its back-left corner). A weight hangs on a cord under the middle
 * of the gap; the red ball at the top of the cord marks the load point. At L7 the piers and their
 * stud grid are turned against the mat.
 *
 * **Tools.** `place(brick_type, x_m, z_m, yaw_deg)` lowers a brick from the supply straight
 * down at a world position and heading read off the mat, snapped onto the studs below within
 * 3 mm and 10° (a swept drop: anything in the way is a collision; off the grid, nothing with
 * studs under it, or a structure that cannot hold itself — all rolled back, and each costs an
 * action); `remove(brick)` lifts a placed brick off again; `commit()` hangs the load from the
 * highest brick over the load point for 2 s (`BrickSystem.loadTest`: stud connections the
 * statics LP finds overloaded let go, then Rapier shows whether anything moves more than 2 mm)
 * and ends the episode. The episode has a budget of actions: the reference's plus three.
 *
 * **What it takes.** Finding the site and the stud grid in the pictures (the rules give no size
 * or position), no brick long enough to reach from pier to pier, and a load that needs a bridge
 * tied to both piers — at L3 and up one that steps out in two levels on each side. The reference
 * with its tie resting on one half only, or without it, fails (the statics model for every
 * instance; the real world for the released ones in `test/family-b1.test.ts`).
 */
import { leverInfo } from '../../levers.ts';
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build, worldOptions } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate } from './generate.ts';
import { B1_LEVERS, type B1Scene } from './scene.ts';
import { reference } from './solver.ts';

/** What B1 is: id, version, category, title, summary and tiers. */
export const B1_DESCRIPTOR: FamilyDescriptor = {
  id: 'B1',
  version: 4,
  category: 'B',
  title: 'Bridge',
  summary:
    'Span the gap between two studded piers with interlocking bricks from a supply so that a load hung at mid-span holds for 2 s (pass/fail). Tests metric grounding (the site is shown only in pictures: bricks are placed by world coordinates read off a measuring mat and snapped onto the studs within 3 mm), stud statics (cantilevers anchored on the piers, stepped out in two levels at L3+, tied across the middle), brick choice from a supply with alternatives and decoys, and at L7 piers turned against the world frame. A small action budget makes probing for the site with refused placements unaffordable.',
  tiers: {
    L1: { levers: [], description: 'Gap of 5 or 7 pitches, piers 3–5 studs long; one level (3 bricks: two cantilevers and a tie); load 1.3× what one pier could hold (0.45–1.7 kg); supply of types up to 6 studs with a spare of each, one alternative and one decoy; 7 actions.' },
    L3: { levers: [], description: 'Gap of 9 or 11 pitches; two levels of cantilevers each side (5 bricks); load 45–75 % of the reference\'s capacity, beyond every one-level bridge in the supply and at least the heaviest L1 load (1.7 kg); types up to 6 studs, two alternatives and a decoy; 9 actions.' },
    L5: { levers: [], description: 'Gap of 13 or 15 pitches; two levels of two-wide bricks (5 bricks): the load, 60–75 % of the reference\'s capacity and at least 2.5 kg, breaks the same bridge one stud wide and every one-level bridge; types up to 8 studs, two alternatives and two decoys; 9 actions.' },
    L7: { levers: ['+rot'], description: 'L5 with the piers and their stud grid turned by ±30–60° about the vertical against the world frame the bricks are placed in (mat, rulers and origin stay world-aligned).' },
  },
};

/** B1 bridge: build across a gap so that a mid-span load holds. */
export const b1Bridge: TaskFamily<B1Scene> = {
  ...B1_DESCRIPTOR,
  levers: leverInfo(B1_LEVERS),
  generate: (seed, tier, lever) => generate(B1_DESCRIPTOR, seed, tier, lever),
  worldOptions,
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
  textVaries: [
    {
      what: 'load',
      reason:
        "The load's mass is the task's specification, as a builder is told the load a bridge must carry; it is not a size or position of the scene (the gap, the piers and the site are read off the mat), and a bridge that carries it must still be built where the pictures show the piers.",
      values: (i) => [`${i.scene.loadKg} kg`],
    },
    {
      what: 'supply',
      reason:
        'The bricks handed to the player (catalog names and how many of each): the supply is not drawn in the scene, so the text is the only place it can be given; it holds the intended bridge with spares, alternatives and decoys, so it does not name the design.',
      values: (i) => [...i.scene.supply.map((x) => `${x.count} × ${x.type}`), ...i.scene.supply.map((x) => x.type)],
    },
  ],
};
