/**
 * B2 cantilever: build out from a studded table over its edge to a marked point and hold a
 * payload there (pass/fail).
 *
 * **Scene.** A static table 48 mm tall, its top covered with studs (`W` columns toward the edge
 * × 3 rows, 8 mm pitch), stands somewhere on a measuring mat (36 × 34 cm, a line every
 * centimetre, red rulers along x and blue along z, a black-and-white target at the origin in its
 * back-left corner). Beyond the edge a thin post rises from the mat; the red ball on top of it,
 * level with the table top, marks the target `R` cells past the edge; the payload waits on the
 * mat beside it. At L7 the table and its stud grid are turned against the mat.
 *
 * **Tools.** `place(brick_type, x_m, z_m, yaw_deg)` lowers a brick from the supply straight
 * down at a world position and heading read off the mat, snapped onto the studs below within
 * 3 mm and 10° (a swept drop; off the grid, nothing with studs under it, over the brick budget
 * or a structure that cannot hold itself — all rolled back, and each costs an action);
 * `remove(brick)` lifts a placed brick off again; `commit()` hangs the payload from the highest
 * brick over the target for 2 s (`BrickSystem.loadTest`: stud connections the statics LP finds
 * overloaded let go, then Rapier shows whether anything moves more than 2 mm) and ends the
 * episode.
 *
 * **Certificate.** The reference (a grammar search over corbelled cantilevers) carries 1.3× the
 * payload in the stud statics, and the same layout without its anchoring connection — its
 * bricks held to one another but merely resting on the table — tips over the edge (checked for
 * every instance in the filters; shown in the real world for the released ones in
 * `test/family-b2.test.ts`).
 */
import { leverInfo } from '../../levers.ts';
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build, worldOptions } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate, payloadText } from './generate.ts';
import { B2_LEVERS, type B2Scene } from './scene.ts';
import { reference } from './solver.ts';

/** What B2 is: id, version, category, title, summary and tiers. */
export const B2_DESCRIPTOR: FamilyDescriptor = {
  id: 'B2',
  version: 1,
  category: 'B',
  title: 'Cantilever',
  summary:
    'Build out from a studded table over its edge to a marked point with interlocking bricks from a supply, so that a payload hung there holds for 2 s (pass/fail). Tests metric grounding (the site is shown only in pictures: bricks are placed by world coordinates read off a measuring mat and snapped onto the studs within 3 mm), stud statics of a cantilever anchored on one side (bricks stepping out one on the next at L3+, two studs wide at L5+), brick choice from a supply with alternatives and decoys under a brick budget, and at L7 a table turned against the world frame. A small action budget makes probing for the site with refused placements unaffordable.',
  tiers: {
    L1: { levers: [], description: 'Target 3 or 4 cells past the edge; one brick anchored on the table (types up to 6 studs); payload 49–75 % of the reference\'s capacity; one alternative type; brick budget 5; 5 actions.' },
    L3: { levers: [], description: 'Target 6–8 cells past the edge, beyond any single brick: two bricks stepping out one on the next; payload 59–75 % of the reference\'s capacity; two alternative types; brick budget 4; 6 actions.' },
    L5: { levers: [], description: 'Target 9 or 10 cells past the edge: two levels of two-wide bricks up to 8 studs; the payload (64–75 % of the reference\'s capacity) breaks the same cantilever one stud wide; two decoys (the one-wide look-alikes, short types); brick budget 3; 6 actions.' },
    L7: { levers: ['+rot'], description: 'L5 with the table and its stud grid turned by ±30–60° about the vertical against the world frame the bricks are placed in (mat, rulers and origin stay world-aligned).' },
  },
};

/** B2 cantilever: build over an edge so that a payload at the target holds. */
export const b2Cantilever: TaskFamily<B2Scene> = {
  ...B2_DESCRIPTOR,
  levers: leverInfo(B2_LEVERS),
  generate: (seed, tier, lever) => generate(B2_DESCRIPTOR, seed, tier, lever),
  worldOptions,
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
  textVaries: [
    {
      what: 'payload',
      reason:
        "The payload's mass is the task's specification, as a builder is told the load a cantilever must carry; it is not a size or position of the scene (the table, its edge and the target are read off the mat), and a cantilever that carries it must still be built where the pictures show the table.",
      values: (i) => [payloadText(i.scene)],
    },
    {
      what: 'supply',
      reason:
        'The bricks handed to the player (catalog names and how many of each): the supply is not drawn in the scene, so the text is the only place it can be given; it holds the intended cantilever with spares, alternatives and decoys, so it does not name the design.',
      values: (i) => [...i.scene.supply.map((x) => `${x.count} × ${x.type}`), ...i.scene.supply.map((x) => x.type)],
    },
  ],
};
