/**
 * B1 bridge: span the gap between two studded piers with interlocking bricks so that a load
 * hung at mid-span holds (pass/fail).
 *
 * **Scene.** Two static piers 48 mm tall stand on the floor, each topped with studs
 * (`W` columns along the span × 3 rows, 8 mm pitch), with a gap of `G` pitches between them
 * (`G` odd). A weight on a cord hangs under the middle cell of the gap's middle row: the load
 * cell. A ruler with 1 cm ticks runs along the front edge of the gap from one pier's inner edge
 * to the other's; red and blue arrows at the west pier's corner show the grid's +col and +row.
 *
 * **Tools.** `place(brick_type, col, row, rot_deg, layer?)` lowers a brick from the supply
 * straight down onto the stud grid (a swept drop: anything in the way is a collision; a brick
 * with nothing under it, or a structure that cannot hold itself, is a statics violation — both
 * rolled back); `remove(brick)` lifts a placed brick off again; `commit()` hangs the load from
 * the highest brick covering the load cell for 2 s (`BrickSystem.loadTest`: stud connections
 * the statics LP finds overloaded let go, then Rapier shows whether anything moves more than
 * 2 mm) and ends the episode.
 *
 * **What it takes.** No brick is long enough to reach from pier to pier, and the load is at
 * least 1.3× what the studs of one pier could hold at mid-span, so a passing bridge must be
 * tied to both piers: typically a cantilever from each pier and a tie brick across the middle
 * resting on both. The same bricks with the tie resting on one half only fail (checked for
 * every instance by the statics model and, for the released ones, in the real world by
 * `test/family-b1.test.ts`).
 *
 * **Tiers.** L1: gap 5, any number of six short types (at most 20 standing), load just above
 * one pier's reach. L3: gap 7 or 9, a counted supply (brick budget) of a few long types. L5:
 * gap 9 or 11, two-wide bricks and a load of 70 % of what the intended two-wide bridge carries
 * (more than a one-wide bridge of the same layout holds), short decoy bricks. L7: L5 with
 * `+rot`: the grid is turned by ±30–60° about the vertical relative to the first view.
 */
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build, worldOptions } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate } from './generate.ts';
import type { B1Scene } from './scene.ts';
import { reference } from './solver.ts';

/** What B1 is: id, version, category, title, summary and tiers. */
export const B1_DESCRIPTOR: FamilyDescriptor = {
  id: 'B1',
  version: 1,
  category: 'B',
  title: 'Bridge',
  summary:
    'Span the gap between two studded piers with interlocking bricks from a supply so that a load hung at mid-span holds for 2 s (pass/fail). Tests metric grounding on a stud grid (the gap is measured with a ruler), stud statics (cantilevers must be anchored and tied across the middle) and, at L7, a turned working frame.',
  tiers: {
    L1: { levers: [], description: 'Gap of 5 pitches; any number of short bricks (at most 20 standing); load just above what one pier could hold.' },
    L3: { levers: [], description: 'Gap of 7 or 9 pitches; a brick budget of a few long types.' },
    L5: { levers: [], description: 'Gap of 9 or 11 pitches; a heavier load (70 % of the intended two-wide bridge, beyond a one-wide one); short decoy bricks in the budget.' },
    L7: { levers: ['+rot'], description: 'L5 with the grid and piers turned by ±30–60° about the vertical relative to the first view.' },
  },
};

/** B1 bridge: build across a gap so that a mid-span load holds. */
export const b1Bridge: TaskFamily<B1Scene> = {
  ...B1_DESCRIPTOR,
  generate: (seed, tier) => generate(B1_DESCRIPTOR, seed, tier),
  worldOptions,
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
};
