/**
 * Claims checked, not copied (issue 36 item 5). A reference solution may claim `optimal` and
 * `unique`; verify checks each claim two ways instead of copying it:
 *
 * - by the family's own exhaustive search where it has one (`TaskFamily.shortestSolutions`):
 *   optimal holds when the reference's action count is the shortest length, unique when there
 *   is exactly one shortest solution, and the number of shortest solutions is reported;
 * - by a minimality probe everywhere: the script with one action dropped, and with each
 *   adjacent pair of actions dropped, is replayed without rendering; if a shorter script still
 *   solves, the reference is not minimal, so not optimal. The replays share the reference's
 *   prefix (the world is restored from a snapshot taken before the dropped call) and stop at
 *   their first refused or rolled-back call, which keeps the probe cheap.
 */
import type { WorldSnapshot } from '../sim/world.ts';
import { TaskEnv } from '../tasks/env.ts';
import type { Instance, ReferenceSolution, ShortestSolutions, TaskFamily, ToolCall } from '../tasks/types.ts';

/** One claim: what the reference says, and what the checks found (null: nothing could tell). */
export interface CheckedClaim {
  claimed: boolean | null;
  checked: boolean | null;
  /** How it was checked, for people. */
  how: string;
}

/** What the minimality probe found. */
export interface MinimalityReport {
  /** False when a shorter script (one call or an adjacent pair dropped) still solves. */
  minimal: boolean;
  /** The shorter script found, e.g. `calls 1–2 (move, move) dropped: solved after 5 actions`. */
  shorter: string | null;
  /** Replays run (each stops at its first refused call). */
  replays: number;
  /** Calls executed over all replays. */
  calls: number;
  seconds: number;
}

/** Every claim of a reference, checked. */
export interface ClaimsReport {
  optimal: CheckedClaim;
  unique: CheckedClaim;
  /** The family's search: shortest length and number of shortest solutions (null: no search). */
  search: ShortestSolutions | null;
  /** Null when the probe was not run (the check-suite leaves it to the search where there is one). */
  minimality: MinimalityReport | null;
  /** One sentence per claim the checks refute. */
  problems: string[];
}

/** The state before each call an episode ran, recorded by {@link recordCallStates}. */
export interface CallStates {
  before: Array<{ world: WorldSnapshot; end: TaskEnv['endReason']; refusals: number }>;
}

/**
 * Records the world's state before every call `env` runs from now on (a snapshot costs no
 * simulation), so that the minimality probe can start each shortened replay where its first
 * dropped call was, on the reference episode's own world, instead of replaying the prefix.
 */
export function recordCallStates(env: TaskEnv): CallStates {
  const states: CallStates = { before: [] };
  const execute = env.execute.bind(env);
  // The loop calls env.execute for every call; wrapping it on this one object records the
  // state before each, without a hook in the environment every episode would pay for.
  env.execute = (call: ToolCall) => {
    states.before.push({ world: env.world.snapshot(), end: env.endReason, refusals: env.refusals });
    return execute(call);
  };
  return states;
}

/**
 * The minimality probe on a world that has run `calls` with their states recorded
 * ({@link recordCallStates}): drop each non-perception call, and each adjacent pair of them,
 * and replay the rest from the state before the first dropped call; the reference is minimal
 * when no shorter script solves. A replay stops at its first refused or rolled-back call.
 */
export function probeMinimality(env: TaskEnv, states: CallStates, calls: ToolCall[]): MinimalityReport {
  const started = performance.now();
  let replays = 0;
  let executed = 0;
  const perception = new Set(env.instance.tools.filter((t) => t.kind === 'perception').map((t) => t.name));
  const actions = calls.map((c, i) => ({ c, i })).filter(({ c }) => !perception.has(c.tool)).map(({ i }) => i);
  const tryDrop = (drop: number[]): string | null => {
    replays++;
    const from = drop[0];
    env.world.restore(states.before[from].world);
    env.endReason = states.before[from].end;
    env.refusals = states.before[from].refusals;
    const skip = new Set(drop);
    let done = 0;
    for (let j = from; j < calls.length; j++) {
      if (skip.has(j)) continue;
      if (env.terminated) break;
      const r = env.execute(calls[j]);
      executed++;
      if (r.status !== 'ok') return null;
      if (!perception.has(calls[j].tool)) done++;
      if (env.solved()) {
        const solvedAfter = actions.filter((a) => a < from).length + done;
        const which = drop.length === 1 ? `call ${drop[0] + 1} (${calls[drop[0]].tool})` : `calls ${drop[0] + 1}–${drop[1] + 1} (${drop.map((d) => calls[d].tool).join(', ')})`;
        return `${which} dropped: solved after ${solvedAfter} of the script's ${actions.length} actions`;
      }
    }
    return null;
  };
  let shorter: string | null = null;
  if (states.before.length >= calls.length) {
    for (let k = 0; k < actions.length && !shorter; k++) shorter = tryDrop([actions[k]]);
    for (let k = 0; k + 1 < actions.length && !shorter; k++) shorter = tryDrop([actions[k], actions[k + 1]]);
  }
  return { minimal: shorter === null, shorter, replays, calls: executed, seconds: Math.round((performance.now() - started) / 10) / 100 };
}

/**
 * The minimality probe on its own: plays `calls` once on a fresh world (recording the state
 * before each) and then probes. `verify` and the check-suite probe inside the reference
 * episode they already play instead (`runReference` with `probe`), which saves this replay.
 */
export async function minimalityProbe(family: TaskFamily, instance: Instance, calls: ToolCall[]): Promise<MinimalityReport> {
  const env = await TaskEnv.create(family, instance);
  try {
    const states = recordCallStates(env);
    for (const c of calls) if (env.execute(c).status !== 'ok') break;
    return probeMinimality(env, states, calls);
  } finally {
    env.free();
  }
}

/**
 * Checks a reference's claims: by the family's search where it has one, by the minimality
 * probe everywhere (its `minimality` report). `referenceActions` is the script's non-perception
 * call count.
 */
export function checkClaims(family: TaskFamily, instance: Instance, solution: ReferenceSolution, referenceActions: number, minimality: MinimalityReport | null): ClaimsReport {
  const search = family.shortestSolutions ? family.shortestSolutions(instance) : null;
  const minimal = minimality?.minimal ?? true;
  const problems: string[] = [];
  let optimal: CheckedClaim;
  if (search) {
    optimal = {
      claimed: solution.optimal ?? null,
      checked: minimal && search.length === referenceActions,
      how: `the family's search: shortest ${search.length} actions, the reference ${referenceActions}${minimal ? '' : `; minimality probe: ${minimality!.shorter}`}`,
    };
  } else {
    optimal = {
      claimed: solution.optimal ?? null,
      checked: minimal ? null : false,
      how: !minimality ? 'no search, and the minimality probe was not run' : minimal ? 'no search; the minimality probe found no shorter script (minimal, not proven shortest)' : `minimality probe: ${minimality.shorter}`,
    };
  }
  const unique: CheckedClaim = search
    ? { claimed: solution.unique ?? null, checked: search.length === referenceActions && search.count === 1, how: `the family's search: ${search.count} shortest solution${search.count === 1 ? '' : 's'}` }
    : { claimed: solution.unique ?? null, checked: null, how: 'no search to count shortest solutions' };
  if (optimal.claimed === true && optimal.checked === false) problems.push(`the reference claims optimal, but it is not (${optimal.how})`);
  if (unique.claimed === true && unique.checked === false) problems.push(`the reference claims a unique solution, but it is not (${unique.how})`);
  return { optimal, unique, search, minimality, problems };
}
