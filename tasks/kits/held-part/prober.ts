/**
 * The machinery of a feel-your-way sightless prober (issue 36): a deterministic procedure that
 * makes calls and reads only whether each was done or refused — as a text-only model could —
 * written as straight-line code over `probe(call)`. Strategies are stateless between turns
 * (`SightlessStrategy.next` sees only the history), so the procedure is replayed from the start
 * every turn against the outcomes so far; where the history runs out, the calls it asks for next
 * become the turn's calls: a run of calls it is sure of (moves in open space) and the first call
 * whose outcome it needs, which ends the turn (a refused call ends a turn anyway).
 */
import type { SightlessContext, SightlessResult } from '../../sightless.ts';
import type { ToolCall } from '../../types.ts';

/** What a procedure may ask: make a call, and learn whether it was done (true) or refused. */
export interface Prober {
  /**
   * Makes `call` and returns whether it was done. A `sure` call (one the procedure expects to be
   * done) may be batched with later ones in the same turn; an unsure one ends the turn.
   */
  probe(call: ToolCall, sure?: boolean): boolean;
  /** The text of the last call's result (e.g. to read "it is in the matching hole"). */
  lastMessage(): string;
}

class NeedCalls {
  constructor(readonly calls: ToolCall[]) {}
}

class Finished {}

/**
 * The next turn's calls of `procedure` given the outcomes in `ctx.history`, or null when it has
 * finished (returned or called `stop`).
 */
export function nextProbeCalls(ctx: SightlessContext, procedure: (p: Prober) => void): ToolCall[] | null {
  // Calls a refusal left unrun did not happen: the procedure, told of the refusal, asked for others.
  const done: SightlessResult[] = ctx.history.flat().filter((r) => r.status !== 'not-run');
  let used = 0;
  let last = '';
  const pending: ToolCall[] = [];
  const prober: Prober = {
    probe(call, sure = false) {
      if (pending.length === 0 && used < done.length) {
        const r = done[used++];
        last = r.message;
        return r.status === 'ok';
      }
      // Past the history: collect this call for the next turn.
      pending.push(call);
      if (!sure || pending.length >= ctx.actionCap) throw new NeedCalls([...pending]);
      last = '';
      return true;
    },
    lastMessage: () => last,
  };
  try {
    procedure(prober);
  } catch (e) {
    if (e instanceof NeedCalls) return e.calls;
    if (e instanceof Finished) return pending.length ? pending : null;
    throw e;
  }
  return pending.length ? pending : null;
}

/** Ends a procedure early (inside `nextProbeCalls`). */
export function stopProbing(): never {
  throw new Finished();
}

/**
 * Line search: moves by `step` along a direction (`call(d)` makes the call for a distance d) as
 * long as it is done, halving the step on each refusal until it is under `minStep`. Returns how
 * far the part went: the free distance to within `minStep`.
 */
export function lineSearch(p: Prober, call: (d: number) => ToolCall, maxStep: number, minStep: number, maxCalls = 40): number {
  let went = 0;
  let step = maxStep;
  for (let n = 0; n < maxCalls && step >= minStep; n++) {
    if (p.probe(call(step))) went += step;
    else {
      // An engine that says how far a refused move got (before issue 36: "after N% of the
      // move") hands over the distance in one call; a prober uses it.
      const m = /after (\d+(?:\.\d+)?)\s*% of the/.exec(p.lastMessage());
      if (m) {
        const part = (Number(m[1]) / 100) * step - minStep;
        if (part > 0 && p.probe(call(part))) went += part;
        return went;
      }
      step /= 2;
    }
  }
  return went;
}
