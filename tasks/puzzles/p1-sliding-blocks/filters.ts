/**
 * P1 shortcut filters and sightless strategies: what a model could try without looking at the
 * tray. See README.md for the shortcuts considered.
 */
import type { SightlessContext, SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter, ToolCall } from '../../types.ts';
import { TIER_SPEC } from './generate.ts';
import type { P1Scene } from './scene.ts';
import { solveSliding } from './solver.ts';
import { Rng } from '../../../core/rng.ts';
import { PROBE_AND_MAP } from './prober.ts';

const DIRS = ['north', 'east', 'south', 'west'];

function blockLetters(ctx: SightlessContext): string[] {
  const tool = ctx.view.tools.find((t) => t.name === 'slide');
  const props = (tool?.parameters as { properties?: { block?: { enum?: string[] } } }).properties;
  return props?.block?.enum ?? ['A'];
}

/** Calls refused (or invalid) since the last slide that went through: a blind prober avoids repeating them. */
function refusedSinceLastSuccess(ctx: SightlessContext): Set<string> {
  const refused = new Set<string>();
  for (const turn of ctx.history) {
    for (const r of turn) {
      if (r.status === 'ok') refused.clear();
      else if (r.status === 'violation' || r.status === 'invalid') refused.add(JSON.stringify(r.call.args));
    }
  }
  return refused;
}

/**
 * Shortcut filters (re-checked by `verify`; the generator already draws only starts in the
 * tier's distance band, so these hold by construction). The band's top matters too since
 * version 3: it fixes the tier's action budget, which a longer start would not fit.
 */
export const SHORTCUT_FILTERS: InstanceFilter<P1Scene>[] = [
  {
    name: 'solvable-and-far',
    check(instance) {
      const r = solveSliding(instance.scene);
      const [lo, hi] = TIER_SPEC[instance.tier].band;
      if (!r.solvable) return 'block A can never reach the green cells';
      if (r.length > hi) return `block A is ${r.length} slides from the goal, more than the tier's band allows (${hi}; the budget assumes it)`;
      return r.length < lo ? `block A is only ${r.length} slide(s) from the goal (at least ${lo} wanted)` : null;
    },
  },
];

/** P1's own sightless strategies for the shortcut battery. */
export const SIGHTLESS: SightlessStrategy[] = [
  {
    name: 'target-toward-goal',
    description: 'Slides block A one cell at a time, south first (where the goal usually is), then east and west, never looking at where the other blocks are.',
    bound: 0.02,
    next(ctx) {
      const order = ['south', 'east', 'south', 'west', 'south', 'north'];
      const calls: ToolCall[] = [];
      for (let k = 0; k < ctx.actionCap; k++) calls.push({ tool: 'slide', args: { block: 'A', direction: order[(ctx.turn * ctx.actionCap + k) % order.length], cells: 1 } });
      return calls;
    },
  },
  {
    name: 'blind-probing',
    description: 'Tries one-cell slides of random blocks in random directions, never repeating a slide refused since the last one that went through (a collision tells it a neighbour is there).',
    bound: 0.05,
    next(ctx) {
      const rng = new Rng(`P1-probe/${ctx.seed}/${ctx.turn}`);
      const refused = refusedSinceLastSuccess(ctx);
      const options = blockLetters(ctx).flatMap((block) => DIRS.map((direction) => ({ block, direction, cells: 1 })));
      const open = options.filter((o) => !refused.has(JSON.stringify(o)));
      const pool = open.length ? open : options;
      // One call a turn: a refused call ends the turn anyway.
      return [{ tool: 'slide', args: rng.pick(pool) }];
    },
  },
  PROBE_AND_MAP,
];
