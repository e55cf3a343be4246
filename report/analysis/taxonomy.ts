/**
 * The failure taxonomy: every finished, unsolved episode gets exactly one label, with the
 * turns that earned it. The definitions (also in docs/analysis.md, and tested on hand-built logs):
 *
 * 1. **abandoned** — the run gave up on the episode (API failures past retries). Turn: the
 *    last one.
 * 2. **premature commit** — the agent ended the episode itself, by `commit` or another final
 *    or irreversible action, or by giving up, without solving it. Turn: the last one.
 *
 * Every other unsolved episode ran out of turns. Its *failure phase* is the turns after the
 * last turn that made progress (a new best of the family's progress measure; all turns when
 * none did).
 *
 * 3. **budget exhaustion** — the failure phase is short: fewer than
 *    max({@link LOOP_MIN_TURNS}, ⌈{@link STALL_MIN_SHARE} × turns⌉) turns. The agent was still
 *    making progress when the budget ran out. Turns: the failure phase (or the last turn).
 * 4. **violation loop** — the same refused move again and again: in the failure phase, one
 *    refused call (the same tool with the same arguments, refused for any cause) or one broken
 *    rule of the family (by its name, whatever the arguments) recurs on at least
 *    {@link LOOP_MIN_TURNS} turns, either that many in a row or on at least
 *    {@link LOOP_MIN_SHARE} of the phase's turns. Turns: the turns it recurs on.
 * 5. **collision loop** — repeated collisions without progress: the failure phase holds
 *    {@link LOOP_MIN_TURNS} or more consecutive collision turns, and collision turns are at
 *    least {@link LOOP_MIN_SHARE} of it. Turns: the phase's collision turns.
 * 6. **observation loop** — camera-only turns without progress: the same test with turns
 *    whose calls were all camera calls. Turns: the phase's camera-only turns.
 * 7. **stall** — anything else: turns went by, actions ran, nothing improved. Turns: the
 *    failure phase.
 *
 * Labels are tried in this order and the first that applies is given.
 */
import type { EpisodeTrace, TurnTrace } from './trace.ts';

/** The failure labels, in the order they are tried. */
export const FAILURE_LABELS = ['abandoned', 'premature commit', 'budget exhaustion', 'violation loop', 'collision loop', 'observation loop', 'stall'] as const;

/** One failure label. */
export type FailureLabel = (typeof FAILURE_LABELS)[number];

/** Consecutive turns of one kind that make a loop. */
export const LOOP_MIN_TURNS = 3;
/** Share of the failure phase a loop's kind of turn must reach. */
export const LOOP_MIN_SHARE = 0.5;
/** Share of the episode's turns the failure phase must reach to count as a stall or loop. */
export const STALL_MIN_SHARE = 0.25;

/** What the taxonomy says of one unsolved episode. */
export interface FailureVerdict {
  run: string;
  instance: string;
  family: string;
  label: FailureLabel;
  /** Turn numbers that earned the label. */
  turns: number[];
  /** One sentence saying why, with the figures the rule used. */
  reason: string;
}

/** The longest run of consecutive turns meeting `test`. */
function longestRun(turns: TurnTrace[], test: (t: TurnTrace) => boolean): number {
  let best = 0;
  let cur = 0;
  for (const t of turns) {
    cur = test(t) ? cur + 1 : 0;
    best = Math.max(best, cur);
  }
  return best;
}

/**
 * The value of `key` that recurs most in `turns` as a loop (see the module comment: at least
 * {@link LOOP_MIN_TURNS} turns, that many in a row or {@link LOOP_MIN_SHARE} of the turns), with
 * the turns it recurs on and its longest run; null when none does.
 */
function recurring(turns: TurnTrace[], key: (t: TurnTrace) => string | null): { value: string; turns: number[]; run: number } | null {
  const byValue = new Map<string, number[]>();
  for (const t of turns) {
    const k = key(t);
    if (k !== null) byValue.set(k, [...(byValue.get(k) ?? []), t.turn]);
  }
  let best: { value: string; turns: number[]; run: number } | null = null;
  for (const [value, at] of byValue) {
    if (at.length < LOOP_MIN_TURNS) continue;
    const run = longestRun(turns, (t) => key(t) === value);
    if (run < LOOP_MIN_TURNS && at.length < LOOP_MIN_SHARE * turns.length) continue;
    if (!best || at.length > best.turns.length) best = { value, turns: at, run };
  }
  return best;
}

/** The turns after the last one that made progress. */
export function failurePhase(ep: EpisodeTrace): TurnTrace[] {
  let last = -1;
  ep.turns.forEach((t, i) => {
    if (t.progressed) last = i;
  });
  return ep.turns.slice(last + 1);
}

/** Labels one finished, unsolved episode; null for solved or unfinished ones. */
export function classifyFailure(ep: EpisodeTrace): FailureVerdict | null {
  if (!ep.finished || ep.solved) return null;
  const lastTurn = ep.turns.length ? [ep.turns[ep.turns.length - 1].turn] : [];
  const verdict = (label: FailureLabel, turns: number[], reason: string): FailureVerdict => ({
    run: ep.run,
    instance: ep.instance,
    family: ep.family,
    label,
    turns,
    reason,
  });
  if (ep.abandoned) return verdict('abandoned', lastTurn, 'the run abandoned the episode (API failures past retries)');
  if (ep.endReason === 'commit' || ep.endReason === 'failed' || ep.endReason === 'gave-up') {
    return verdict('premature commit', lastTurn, `the agent ended the episode itself on turn ${lastTurn[0] ?? 0} (${ep.endReason}) at progress ${ep.progress.toFixed(2)}`);
  }
  const phase = failurePhase(ep);
  const n = ep.turns.length;
  const needed = Math.max(LOOP_MIN_TURNS, Math.ceil(STALL_MIN_SHARE * n));
  const phaseTurns = phase.map((t) => t.turn);
  const measure = ep.progressRecorded ? 'progress' : 'a new world state';
  if (phase.length < needed) {
    return verdict('budget exhaustion', phaseTurns.length ? phaseTurns : lastTurn, `${measure} last improved ${phase.length} turn(s) before the budget of ${n} ran out (a stall or loop needs ${needed} turns without it)`);
  }
  const sameCall = recurring(phase, (t) => t.refusedCall);
  const sameRule = recurring(phase, (t) => t.brokenRule);
  const repeated = sameCall && (!sameRule || sameCall.turns.length >= sameRule.turns.length) ? { ...sameCall, what: `the same refused call (${clipText(sameCall.value)})` } : sameRule ? { ...sameRule, what: `the rule "${clipText(sameRule.value)}"` } : null;
  if (repeated) {
    return verdict(
      'violation loop',
      repeated.turns,
      `${repeated.what} recurred on ${repeated.turns.length} of the last ${phase.length} turns without ${measure}, ${repeated.run} in a row`,
    );
  }
  const collisions = phase.filter((t) => t.collision);
  const cameraOnly = phase.filter((t) => t.cameraOnly);
  const collisionRun = longestRun(phase, (t) => t.collision);
  const cameraRun = longestRun(phase, (t) => t.cameraOnly);
  if (collisionRun >= LOOP_MIN_TURNS && collisions.length >= LOOP_MIN_SHARE * phase.length) {
    return verdict(
      'collision loop',
      collisions.map((t) => t.turn),
      `${collisions.length} of the last ${phase.length} turns without ${measure} collided, ${collisionRun} in a row`,
    );
  }
  if (cameraRun >= LOOP_MIN_TURNS && cameraOnly.length >= LOOP_MIN_SHARE * phase.length) {
    return verdict(
      'observation loop',
      cameraOnly.map((t) => t.turn),
      `${cameraOnly.length} of the last ${phase.length} turns without ${measure} only moved the camera, ${cameraRun} in a row`,
    );
  }
  const valid = phase.filter((t) => t.physicalOk > 0).length;
  return verdict('stall', phaseTurns, `the last ${phase.length} of ${n} turns made no ${measure === 'progress' ? 'progress' : 'new world state'} (${valid} of them ran actions without a violation)`);
}

/** `text`, at most 80 characters. */
function clipText(text: string): string {
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** Counts per label (every label present, zeros included). */
export function countLabels(verdicts: readonly FailureVerdict[]): Record<FailureLabel, number> {
  const out = Object.fromEntries(FAILURE_LABELS.map((l) => [l, 0])) as Record<FailureLabel, number>;
  for (const v of verdicts) out[v.label] += 1;
  return out;
}
