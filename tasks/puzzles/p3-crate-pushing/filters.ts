/**
 * P3 shortcut filters and sightless strategies: what a model could try without looking at the
 * room. See README.md for the shortcuts considered.
 */
import { Rng } from '../../../core/rng.ts';
import type { SightlessContext, SightlessResult, SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter } from '../../types.ts';
import { TIER_SPEC, type P3Scene } from './scene.ts';
import { firstViewHalfHidden, firstViewHides, firstViewSeesRamp } from './sight.ts';
import { solveScene } from './solver.ts';

/** Shortcut filters (re-checked by `verify`). */
export const SHORTCUT_FILTERS: InstanceFilter<P3Scene>[] = [
  {
    name: 'solvable-in-band',
    check(instance) {
      const r = solveScene(instance.scene);
      const [lo, hi] = TIER_SPEC[instance.tier].band;
      if (!r.solvable) return 'the crates can never all reach the marked cells';
      if (r.pushes < lo || r.pushes > hi) return `the optimum is ${r.pushes} pushes, outside the tier's band ${lo}–${hi}`;
      const [fewest, most] = TIER_SPEC[instance.tier].steps;
      if (r.moves < fewest || r.moves > most) return `the optimum walks ${r.moves} steps, outside the tier's ${fewest}–${most}`;
      const o = instance.scene.optimum;
      return o.pushes === r.pushes && o.moves === r.moves && o.solutions === r.solutions ? null : 'the scene states another optimum than the search proves';
    },
  },
  {
    name: 'first-view',
    check(instance) {
      const hidden = firstViewHides(instance.scene);
      // Tall walls at L7 and in its lever study (L5+occ, the same world).
      if (TIER_SPEC[instance.tier].tall || instance.levers.includes('+occ')) {
        if (!hidden.length) return 'the tall walls hide no crate and no marked cell from the first view';
        if (hidden.length > 1) return `the first view hides more than the one crate or marked cell the tier promises: ${hidden.join(', ')}`;
        const slivers = firstViewHalfHidden(instance.scene);
        if (slivers.length) return `the tall walls hide much of ${slivers.join(', ')} from the first view`;
        return firstViewSeesRamp(instance.scene) ? null : 'the low first view does not look up the ramp from its low side';
      }
      return hidden.length ? `the first view does not show: ${hidden.join(', ')}` : null;
    },
  },
];

const DIRS = ['north', 'east', 'south', 'west'];

/** The results of every earlier call, oldest first. */
function results(ctx: SightlessContext): SightlessResult[] {
  return ctx.history.flat().filter((r) => r.status !== 'not-run');
}

/** P3's own sightless strategies for the shortcut battery. */
export const SIGHTLESS: SightlessStrategy[] = [
  {
    name: 'sweep-the-room',
    description: 'Walks (and pushes) in one direction until a move is refused, then turns clockwise — north, east, south, west, over and over — as a model that sweeps the room without looking.',
    bound: 0.03,
    next(ctx) {
      // The direction turns once for every refused move so far.
      const refused = results(ctx).filter((r) => r.status === 'violation').length;
      return [{ tool: 'move', args: { direction: DIRS[refused % 4] } }];
    },
  },
  {
    name: 'probe-and-push',
    description: 'Moves in random directions, never repeating one refused since the last move that went through (a refusal tells it a wall or a stuck crate is there), as a blind explorer of the room.',
    bound: 0.05,
    next(ctx) {
      const rng = new Rng(`P3-probe/${ctx.seed}/${ctx.turn}`);
      const refused = new Set<string>();
      for (const r of results(ctx)) {
        if (r.status === 'ok') refused.clear();
        else refused.add(String(r.call.args.direction));
      }
      const open = DIRS.filter((d) => !refused.has(d));
      // One call a turn: a refused call ends the turn anyway.
      return [{ tool: 'move', args: { direction: rng.pick(open.length ? open : DIRS) } }];
    },
  },
];
