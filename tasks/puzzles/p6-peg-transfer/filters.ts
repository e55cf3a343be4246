/**
 * P6 shortcut filters and sightless strategies. None of its own yet: the generator already
 * puts every L5/L7 start at least 15 (60 with the neighbour rule) moves from the goal by exact
 * search, and the shared battery (null policy, random calls, memorised plans, blind probing)
 * covers what a model that never looks could try. See README.md.
 */
import type { SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter } from '../../types.ts';
import type { P6Scene } from './scene.ts';

/** Cheap static checks every instance must pass (re-drawn in the generator, reported by verify). */
export const SHORTCUT_FILTERS: InstanceFilter<P6Scene>[] = [];

/** P6's own sightless strategies for the shortcut battery. */
export const SIGHTLESS: SightlessStrategy[] = [];
