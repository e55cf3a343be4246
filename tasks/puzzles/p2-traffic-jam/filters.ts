/**
 * P2 shortcut filters and sightless strategies: what a model could try without looking at the
 * lot. See README.md for the shortcuts considered.
 */
import { Rng } from '../../../core/rng.ts';
import type { SightlessContext, SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter, ToolCall } from '../../types.ts';
import { TIER_SPEC } from './generate.ts';
import type { P2Scene } from './scene.ts';
import { solveTraffic } from './solver.ts';

function vehicleLetters(ctx: SightlessContext): string[] {
  const tool = ctx.view.tools.find((t) => t.name === 'drive');
  const props = (tool?.parameters as { properties?: { vehicle?: { enum?: string[] } } }).properties;
  return props?.vehicle?.enum ?? ['A'];
}

/**
 * Shortcut filters (the generator draws only lots in the tier's band, so these hold by
 * construction). The tier's `most` matters too since version 5: it fixes the tier's action
 * budget, which a longer start would not fit.
 */
export const SHORTCUT_FILTERS: InstanceFilter<P2Scene>[] = [
  {
    name: 'solvable-and-far',
    check(instance) {
      const r = solveTraffic(instance.scene);
      const { band: [lo], most } = TIER_SPEC[instance.tier];
      if (!r.solvable) return 'car A can never reach the exit';
      if (r.length > most) return `car A is ${r.length} moves from the exit, more than the tier allows (${most}; the budget assumes it)`;
      return r.length < lo ? `car A is only ${r.length} move(s) from the exit (at least ${lo} wanted)` : null;
    },
  },
  {
    name: 'decoys-never-needed',
    check(instance) {
      const s = instance.scene;
      if (!s.decoys.length) return null;
      const free = solveTraffic(s);
      const held = solveTraffic(s, s.decoys);
      return held.solvable && held.length === free.length ? null : `decoys ${s.decoys.join(', ')} must move in every shortest solution`;
    },
  },
];

/** P2's own sightless strategies for the shortcut battery. */
export const SIGHTLESS: SightlessStrategy[] = [
  {
    name: 'drive-A-east',
    description: 'Drives car A east one cell at a time every turn, as a model that knows the exit is east of A but never looks at what is in the way.',
    bound: 0.02,
    next(ctx) {
      return Array.from({ length: ctx.actionCap }, () => ({ tool: 'drive', args: { vehicle: 'A', direction: 'east', cells: 1 } }));
    },
  },
  {
    name: 'clear-the-lane',
    description: 'Alternates between driving every other vehicle north or south (to clear A\'s lane) and driving A east, in a fixed order, never looking.',
    bound: 0.05,
    next(ctx) {
      const letters = vehicleLetters(ctx).filter((l) => l !== 'A');
      const calls: ToolCall[] = [];
      for (let k = 0; k < ctx.actionCap; k++) {
        const step = (ctx.turn - 1) * ctx.actionCap + k;
        const v = letters[Math.floor(step / 2) % letters.length];
        calls.push(step % 3 === 2 ? { tool: 'drive', args: { vehicle: 'A', direction: 'east', cells: 1 } } : { tool: 'drive', args: { vehicle: v, direction: step % 2 ? 'north' : 'south', cells: 1 } });
      }
      return calls;
    },
  },
  {
    name: 'blind-probing',
    description: 'Tries one-cell drives of random vehicles along random directions, never repeating a drive refused since the last one that went through.',
    bound: 0.05,
    next(ctx) {
      const rng = new Rng(`P2-probe/${ctx.seed}/${ctx.turn}`);
      const refused = new Set<string>();
      for (const turn of ctx.history) for (const r of turn) r.status === 'ok' ? refused.clear() : refused.add(JSON.stringify(r.call.args));
      const options = vehicleLetters(ctx).flatMap((vehicle) => ['north', 'east', 'south', 'west'].map((direction) => ({ vehicle, direction, cells: 1 })));
      const open = options.filter((o) => !refused.has(JSON.stringify(o)));
      return [{ tool: 'drive', args: rng.pick(open.length ? open : options) }];
    },
  },
];
