/**
 * Adaptive sightless strategies written as straight-line programs. A strategy's `next(ctx)` is
 * handed the whole history each turn, not a place to keep state; so the program is a generator
 * that yields one turn's calls and receives that turn's results, and every turn it is run again
 * from the start on the recorded results until it asks for a turn not played yet. The program
 * must be deterministic (the same results give the same calls), which replaying also checks.
 */
import type { SightlessResult } from '../sightless.ts';
import type { ToolCall } from '../types.ts';

/** An adaptive strategy's program: yields a turn's calls, receives that turn's results. */
export type SightlessProgram = Generator<ToolCall[], void, SightlessResult[]>;

/**
 * The calls of the next turn of `program` after the turns in `history` (null when it has
 * finished). Throws when the program's calls differ from the ones recorded: it is not deterministic.
 */
export function replayProgram(history: readonly SightlessResult[][], program: () => SightlessProgram): ToolCall[] | null {
  const run = program();
  let step = run.next(undefined as unknown as SightlessResult[]);
  for (const turn of history) {
    if (step.done) return null;
    // A runner may leave out the calls a refusal kept from running: compare what was recorded.
    const asked = JSON.stringify(step.value.slice(0, turn.length).map((c) => [c.tool, c.args]));
    const played = JSON.stringify(turn.map((r) => [r.call.tool, r.call.args]));
    if (asked !== played) throw new Error('sightless program is not deterministic: it asked for other calls than the ones recorded');
    step = run.next(turn);
  }
  return step.done ? null : step.value;
}
