/**
 * An episode log read as a sequence of turns with the few facts the behaviour analysis
 * needs: what was sent, what ran, what collided, whether the note changed, and whether the
 * turn made progress. Logs are read through `report/run-data.ts` (and so through the episode
 * log's own reader); this file only interprets what that reader returns, tolerating fields
 * that older logs lack.
 */
import type { LogTurn } from '../../agents/episode-log.ts';
import type { SummaryEntry } from '../../agents/runner.ts';
import type { EpisodeData } from '../run-data.ts';

/** Progress gains smaller than this are float noise, not progress. */
export const PROGRESS_EPSILON = 1e-6;

/** One turn, as the analysis sees it. */
export interface TurnTrace {
  turn: number;
  /** Calls the reply asked for (0 for a refused or abandoned turn). */
  sent: number;
  /** Calls that ran: status `ok`, `violation` or `invalid` (not `not-run`). */
  ran: number;
  /** Camera (perception) calls that ran. */
  camera: number;
  /** Non-camera calls that ran without a violation. */
  physicalOk: number;
  /** Violations of any kind this turn (at most one: the first stops the turn). */
  violations: number;
  /** The turn's violation was a collision. */
  collision: boolean;
  /** The kind of the turn's violation (`collision`, `rule`, `workspace`, …), if any. */
  violationKind: string | null;
  /**
   * The turn's first refused call — a violation or a call refused as invalid — as its tool and
   * arguments (keys sorted), so that the same call made again reads the same; null if none.
   */
  refusedCall: string | null;
  /** The family's name of the rule the turn's violation broke (`empty peg`, …), if it was a rule. */
  brokenRule: string | null;
  /** Every call that ran was a camera call, at least one ran, and nothing was violated. */
  cameraOnly: boolean;
  /** The reply was accepted (not refused, not abandoned): a model response. */
  responded: boolean;
  /** The note differs from the one written on the turn before ('' before turn 1). */
  noteChanged: boolean;
  /** Progress before and after, when the log records it. */
  progressBefore: number | null;
  progressAfter: number | null;
  /**
   * The turn raised progress above the best reached before it. Without recorded progress,
   * a turn counts as progress when it reached a world state not seen before in the episode.
   */
  progressed: boolean;
  stateHash: string;
}

/** One episode, as the analysis sees it. */
export interface EpisodeTrace {
  /** Run folder the episode came from. */
  run: string;
  instance: string;
  family: string;
  tier: string;
  agent: string;
  mode: string;
  /** Finished with an end line and a summary row. */
  finished: boolean;
  solved: boolean;
  graded: boolean;
  score: number | null;
  abandoned: boolean;
  endReason: SummaryEntry['endReason'] | null;
  turnBudget: number | null;
  progress: number;
  /** Per-turn progress was recorded in the log (else state changes stand in for it). */
  progressRecorded: boolean;
  turns: TurnTrace[];
  entry: SummaryEntry | null;
}

type Loose = Record<string, unknown>;

function num(x: unknown): number | null {
  return typeof x === 'number' && Number.isFinite(x) ? x : null;
}

function arr(x: unknown): Loose[] {
  return Array.isArray(x) ? (x.filter((v) => v && typeof v === 'object') as Loose[]) : [];
}

/** A JSON value with object keys sorted, so that equal calls give equal text. */
function sortedJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${sortedJson((v as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/** A call as `tool {args}` (keys sorted), or `?` when the log does not say. */
function callSignature(call: unknown): string {
  const c = call as Loose | undefined;
  return c && typeof c.tool === 'string' ? `${c.tool} ${sortedJson(c.args ?? {})}` : '?';
}

/** Reads one logged turn. `prevNote` is the note written the turn before. */
function turnTrace(t: LogTurn, prevNote: string): TurnTrace {
  const reply = (t.reply ?? {}) as Loose;
  const results = arr(t.results);
  const sent = arr(reply.actions).length;
  let ran = 0;
  let camera = 0;
  let physicalOk = 0;
  let violations = 0;
  let collision = false;
  let violationKind: string | null = null;
  let refusedCall: string | null = null;
  let brokenRule: string | null = null;
  for (const r of results) {
    const status = r.status;
    if (status === 'not-run') continue;
    if (status === 'ok' || status === 'violation' || status === 'invalid') ran += 1;
    const isCamera = r.kind === 'perception';
    if (status === 'ok' || status === 'violation') {
      if (isCamera) camera += 1;
      else if (status === 'ok') physicalOk += 1;
    }
    if ((status === 'violation' || status === 'invalid') && refusedCall === null) refusedCall = callSignature(r.call);
    if (status === 'violation') {
      violations += 1;
      const v = r.violation as Loose | undefined;
      const kind = v?.kind;
      violationKind = typeof kind === 'string' ? kind : 'unknown';
      if (kind === 'collision') collision = true;
      if (kind === 'rule' && typeof v?.rule === 'string') brokenRule = v.rule;
    }
  }
  const responded = !reply.abandoned && !(Array.isArray(reply.refused) && reply.refused.length > 0) && sent > 0;
  const note = typeof reply.note === 'string' ? reply.note : '';
  const progress = (t as { progress?: { before?: unknown; after?: unknown } }).progress;
  return {
    turn: num(t.turn) ?? 0,
    sent,
    ran,
    camera,
    physicalOk,
    violations,
    collision,
    violationKind,
    refusedCall,
    brokenRule,
    cameraOnly: camera > 0 && camera === ran && violations === 0,
    responded,
    noteChanged: responded && note !== prevNote,
    progressBefore: num(progress?.before),
    progressAfter: num(progress?.after),
    progressed: false,
    stateHash: typeof t.stateHash === 'string' ? t.stateHash : '',
  };
}

/**
 * Marks which turns made progress: with recorded progress, a turn progressed when its
 * progress after exceeds the best seen before it (the start's included); without, when it
 * reached a world state not seen before in the episode.
 */
function markProgress(turns: TurnTrace[]): boolean {
  const recorded = turns.length > 0 && turns.every((t) => t.progressAfter !== null || t.ran === 0);
  if (recorded) {
    let best = turns[0].progressBefore ?? 0;
    for (const t of turns) {
      const after = t.progressAfter ?? best;
      t.progressed = after > best + PROGRESS_EPSILON;
      best = Math.max(best, after);
    }
    return true;
  }
  const seen = new Set<string>();
  let first = true;
  for (const t of turns) {
    // The start state is unknown in such logs: turn 1 progressed when anything ran ok.
    t.progressed = first ? t.physicalOk > 0 && !seen.has(t.stateHash) : !seen.has(t.stateHash);
    seen.add(t.stateHash);
    first = false;
  }
  return false;
}

/** Reads one episode of a run folder into a trace. */
export function episodeTrace(run: string, ep: EpisodeData): EpisodeTrace {
  const e = ep.entry;
  const outcome = ep.end?.outcome;
  let prevNote = '';
  const turns = ep.turns.map((t) => {
    const tr = turnTrace(t, prevNote);
    if (tr.responded) prevNote = typeof t.reply?.note === 'string' ? t.reply.note : prevNote;
    return tr;
  });
  const progressRecorded = markProgress(turns);
  return {
    run,
    instance: ep.instance,
    family: e?.family ?? ep.header?.instance?.family ?? ep.instance.split('-')[0],
    tier: e?.tier ?? ep.header?.instance?.tier ?? ep.instance.split('-')[1] ?? '?',
    agent: e?.agent ?? ep.header?.agent?.name ?? '?',
    mode: e?.mode ?? ep.header?.mode ?? 'default',
    finished: e !== null,
    solved: e?.solved ?? false,
    graded: e?.graded ?? true,
    score: e?.score ?? null,
    abandoned: e?.abandoned ?? false,
    endReason: e?.endReason ?? outcome?.endReason ?? null,
    turnBudget: num(ep.header?.budgets?.turns),
    progress: e?.progress ?? num(outcome?.progress) ?? 0,
    progressRecorded,
    turns,
    entry: e,
  };
}
