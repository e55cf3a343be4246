/**
 * P5 shortcut filters and sightless strategies: what a model could try without looking at the
 * cube. See README.md for the shortcuts considered.
 */
import { Rng } from '../../../core/rng.ts';
import type { SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter } from '../../types.ts';
import { pocketCubeDistance } from '../../../solvers/discrete-search/index.ts';
import { TIER_DISTANCE } from './generate.ts';
import type { P5Scene } from './scene.ts';
import { startState } from './solver.ts';

/** Shortcut filters: the start lies exactly at the tier's distance (so never solved, never one turn away). */
export const SHORTCUT_FILTERS: InstanceFilter<P5Scene>[] = [
  {
    name: 'exact-distance',
    check(instance) {
      const d = pocketCubeDistance(startState(instance.scene), 'htm');
      return d === TIER_DISTANCE[instance.tier] ? null : `the start is ${d} turns from solved, not ${TIER_DISTANCE[instance.tier]}`;
    },
  },
];

/** P5's own sightless strategies for the shortcut battery. */
export const SIGHTLESS: SightlessStrategy[] = [
  {
    name: 'repeat-an-algorithm',
    description: "Repeats R U R' U' over and over (it returns to its start after six repeats), as a model that knows one algorithm but never looks.",
    bound: 0.02,
    next(ctx) {
      const seq = [
        { face: 'R', angle: 90 },
        { face: 'U', angle: 90 },
        { face: 'R', angle: -90 },
        { face: 'U', angle: -90 },
      ];
      return Array.from({ length: ctx.actionCap }, (_, k) => ({ tool: 'turn', args: seq[((ctx.turn - 1) * ctx.actionCap + k) % 4] }));
    },
  },
  {
    name: 'random-turns',
    description: 'Turns random faces by random angles, as many as allowed each turn.',
    bound: 0.02,
    next(ctx) {
      const rng = new Rng(`P5-random/${ctx.seed}/${ctx.turn}`);
      return Array.from({ length: ctx.actionCap }, () => ({ tool: 'turn', args: { face: rng.pick(['U', 'D', 'R', 'L', 'F', 'B']), angle: rng.pick([90, 180, -90]) } }));
    },
  },
];
