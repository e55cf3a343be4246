/**
 * V4 shortcut filters and sightless strategies. A filter is a cheap static check that names
 * a way an instance could be trivial; the generator re-draws until every filter passes, and
 * `spaceact verify` runs them again. A sightless strategy is what a model that never looks at an
 * image could try (see `tasks/sightless.ts`); the shortcut battery runs the family's own beside
 * the shared ones. Say in README.md which shortcuts were considered.
 */
import type { SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter } from '../../types.ts';
import { TIERS, type V4Scene } from './scene.ts';
import { distanceOf, distancesTo } from './solver.ts';

/** Shortcut filters: each names a way an instance could be trivial; failing draws are re-drawn. */
export const SHORTCUT_FILTERS: InstanceFilter<V4Scene>[] = [
  {
    name: 'reachable-and-far',
    check(instance) {
      const s = instance.scene;
      const d = distanceOf(distancesTo(s.grid, s.goal), s.grid, s.start);
      const min = TIERS[instance.tier as keyof typeof TIERS].minSlides;
      if (d < 0) return 'the goal cannot be reached';
      return d < min ? `the goal is only ${d} slide(s) away (at least ${min} wanted)` : null;
    },
  },
];

/** V4's own sightless strategies (none yet: add what a model could try without looking). */
export const SIGHTLESS: SightlessStrategy[] = [];
