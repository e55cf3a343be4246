/**
 * The `wait(seconds)` tool of temporal families: the one call that lets world time run. Shared
 * so that every family checks the argument and words its result the same way — the result says
 * only the agent's own number ("Waited 0.5 s."); the world time is on the strobe frames' labels,
 * and a running total in the text would be a number the text-leak scan cannot tell from the
 * scene's.
 */
import { SpaceActError } from '../../core/errors.ts';
import type { World } from '../../sim/world.ts';

/** `x` rounded to `digits` decimals, without trailing zeros. */
function rounded(x: number, digits: number): string {
  return Number(x.toFixed(digits)).toString();
}

/**
 * Checks `args.seconds` against `range` (a clear error, nothing run, otherwise), advances the
 * world by it and returns the result sentence, `Waited X s.` with X to `digits` decimals.
 */
export function runWait(world: World, args: Record<string, unknown>, range: readonly [number, number], digits = 3): string {
  const seconds = Number(args.seconds);
  if (!(seconds >= range[0] && seconds <= range[1])) throw new SpaceActError('invalid-argument', `seconds must be between ${range[0]} and ${range[1]}`, { field: 'seconds' });
  world.advance(seconds);
  return `Waited ${rounded(seconds, digits)} s.`;
}
