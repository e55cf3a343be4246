/**
 * The one episode runner every kind of run goes through: a serial run in this process, a
 * worker process of a local parallel run, and a queue worker on another machine. It is split
 * in two halves so that the half that plays the episode (agent, world, renderer) can run on a
 * different machine from the half that owns the log:
 *
 * - {@link playEpisode} plays one episode and hands every finished turn to an
 *   {@link EpisodeRecorder};
 * - {@link DiskEpisodeRecorder} is the log half: it reads what an earlier run left, decides
 *   whether the episode is reused, retried (abandoned) or continued, and appends the lines.
 *
 * Locally the two halves are joined directly; in a queue run the worker's recorder sends each
 * call over Redis and the coordinator answers it with a `DiskEpisodeRecorder` of its own
 * (`agents/queue/`), so both paths share every check of the log.
 */
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { roundTo } from '../core/determinism.ts';
import { SpaceActError } from '../core/errors.ts';
import { packageVersion } from '../core/package-info.ts';
import type { Renderer } from '../render/renderer.ts';
import { referenceSolution } from '../tasks/reference-cache.ts';
import { familyAndInstanceFromId } from '../tasks/registry.ts';
import type { Instance, TaskFamily } from '../tasks/types.ts';
import { EpisodeLog, instanceDigest, LOG_FORMAT, type LogEnd, type LogHeader, type LogTurn } from './episode-log.ts';
import { runEpisode } from './loop.ts';
import { modeName, type Mode } from './modes.ts';
import { RUN_DEFAULTS, type RenderWhen } from './run-defaults.ts';
import type { SummaryEntry } from './run-types.ts';
import { scoreEpisode, type Score } from './scoring.ts';
import type { Agent, EpisodeOutcome, ObservationImage, TurnRecord } from './types.ts';

/** A finished episode, and whether it ended in this run (rather than being reused from its log). */
export interface EpisodeResult {
  entry: SummaryEntry;
  fresh: boolean;
}

/** What the log half says when an episode is opened. */
export type EpisodeOpening =
  /** The log already ends: the episode is reused as it is. */
  | { kind: 'finished'; entry: SummaryEntry }
  /** Play the episode, first replaying these logged turns (none for a fresh start). */
  | { kind: 'continue'; turns: LogTurn[] };

/** The end line of a log without its type and image files (the recorder names those). */
export type EpisodeEnd = Omit<LogEnd, 'type' | 'finalImages'>;

/**
 * Where an episode's lines go. Every call may be asynchronous (a remote recorder waits for
 * the coordinator); the episode does not go on until each has returned.
 */
export interface EpisodeRecorder {
  /** Checks `header` against an earlier log of the episode and says what to do. */
  open(header: LogHeader): EpisodeOpening | Promise<EpisodeOpening>;
  /** Records one new turn with the images the agent saw. */
  turn(record: TurnRecord, images: ObservationImage[]): void | Promise<void>;
  /** Records the end line with the final state's images. */
  finish(end: EpisodeEnd, finalImages: ObservationImage[]): void | Promise<void>;
}

/** What {@link playEpisode} needs besides the instance id and the recorder. */
export interface EpisodePlayOptions {
  makeAgent(): Agent;
  mode: Mode;
  render?: RenderWhen;
  historyImages?: number;
  /** Polled between turns; true ends the episode as stopped (it stays resumable). */
  shouldStop?(): boolean;
  /** Called after each new turn is recorded (not for replayed turns). */
  onTurn?(record: TurnRecord): void;
}

/** The non-perception action count of a family's reference solution. */
export async function referenceActionCount(family: TaskFamily, instance: Instance): Promise<number> {
  const sol = await referenceSolution(family, instance);
  const kind = new Map(instance.tools.map((t) => [t.name, t.kind]));
  return sol.calls.filter((c) => kind.get(c.tool) !== 'perception').length;
}

/** Rounds dollars to a millionth so sums do not show float noise. */
export function roundCost(x: number): number {
  return roundTo(x, 6);
}

/** The `summary.json` row of a finished episode. */
export function summaryEntry(o: EpisodeOutcome, score: Score, referenceActions: number): SummaryEntry {
  const e: SummaryEntry = {
    instance: o.instance,
    family: o.family,
    tier: o.tier,
    agent: o.agent,
    mode: o.mode,
    solved: o.solved,
    score: score.score,
    graded: score.graded,
    turns: o.turns,
    actions: o.actions,
    violations: o.violations,
    invalidReplies: o.invalidReplies,
    abandoned: o.abandoned,
    endReason: o.endReason,
    progress: roundTo(o.progress, 3),
    referenceActions,
    inputTokens: o.usage.inputTokens,
    outputTokens: o.usage.outputTokens,
  };
  if (o.abandonReason) e.abandonReason = o.abandonReason;
  if (o.usage.cost !== undefined) e.cost = roundCost(o.usage.cost);
  return e;
}

/** The summary row of a log's end line. */
export function entryOfEnd(end: EpisodeEnd): SummaryEntry {
  return summaryEntry(end.outcome, end.score, end.referenceActions);
}

/** Options of a {@link DiskEpisodeRecorder}. */
export interface DiskRecorderOptions {
  /** Reuse abandoned episodes as they are, instead of continuing them from before the failure. */
  keepAbandoned?: boolean;
  /** Told what was repaired or dropped (a torn last line, an abandoned log set aside). */
  onNotice?(message: string): void;
}

/**
 * The log half of an episode on this machine's disk: `out/episodes/<id>/log.jsonl` and its
 * images. A finished log is reused; an abandoned one is retried from the turn that failed
 * (unless `keepAbandoned`), its old log kept as `log.abandoned-N.jsonl`; an unfinished one is
 * continued. A damaged log throws a `LogDamageError`; a log of another run, `invalid-state`.
 */
export class DiskEpisodeRecorder implements EpisodeRecorder {
  readonly log: EpisodeLog;
  /** Turn lines in the log now (after {@link open} or {@link reattach}). */
  turnsWritten = 0;
  /** True once the end line is written (or was found). */
  ended = false;

  constructor(
    out: string,
    readonly id: string,
    private readonly opts: DiskRecorderOptions = {},
  ) {
    this.log = new EpisodeLog(out, id);
  }

  open(header: LogHeader): EpisodeOpening {
    const log = this.log;
    const earlier = log.read();
    if (earlier.tornTail) {
      this.opts.onNotice?.(`${log.file}: dropped line ${earlier.tornTail.line}, cut short with no line break (${earlier.tornTail.chars} characters: the turn in flight when the run was stopped)`);
    }
    let turns = earlier.turns;
    if (!earlier.header) {
      log.start(header);
      this.turnsWritten = 0;
      return { kind: 'continue', turns: [] };
    }
    const h = earlier.header;
    const same = h.instance.digest === header.instance.digest && h.agent.name === header.agent.name && h.mode === header.mode;
    if (!same) {
      throw new SpaceActError(
        'invalid-state',
        `${log.file} holds a different run (instance ${h.instance.id} digest ${h.instance.digest}, agent ${h.agent.name}, mode ${h.mode}); use another --out`,
      );
    }
    if (earlier.end && !(earlier.end.outcome.abandoned && !this.opts.keepAbandoned)) {
      this.ended = true;
      this.turnsWritten = turns.length;
      return { kind: 'finished', entry: entryOfEnd(earlier.end) };
    }
    if (earlier.end) {
      // Retried: keep the turns before the one that failed, and the whole old log aside.
      const failed = turns.findIndex((t) => t.reply.abandoned);
      turns = failed < 0 ? turns : turns.slice(0, failed);
      let n = 1;
      while (existsSync(join(log.dir, `log.abandoned-${n}.jsonl`))) n++;
      renameSync(log.file, join(log.dir, `log.abandoned-${n}.jsonl`));
      this.opts.onNotice?.(`${this.id}: retrying the abandoned episode from turn ${turns.length + 1} (${earlier.end.outcome.abandonReason ?? 'no reason recorded'}); the old log is kept as log.abandoned-${n}.jsonl`);
    }
    log.restart({ ...header, startedAt: h.startedAt }, turns);
    this.turnsWritten = turns.length;
    return { kind: 'continue', turns };
  }

  /**
   * Takes over a log that another process was writing (a coordinator restarted while its
   * workers went on): drops a last line cut short by the kill, so that the next turn is
   * appended after whole lines. Returns the turns logged.
   */
  reattach(): number {
    const earlier = this.log.read();
    if (earlier.tornTail && earlier.header) {
      this.opts.onNotice?.(`${this.log.file}: dropped line ${earlier.tornTail.line}, cut short with no line break (the write in flight when the coordinator was stopped)`);
      this.log.restart(earlier.header, earlier.turns);
    }
    this.turnsWritten = earlier.turns.length;
    this.ended = earlier.end !== null;
    return this.turnsWritten;
  }

  turn(record: TurnRecord, images: ObservationImage[]): void {
    this.log.appendTurn(record, images);
    this.turnsWritten = record.turn;
  }

  finish(end: EpisodeEnd, finalImages: ObservationImage[]): void {
    this.log.finish(end, finalImages);
    this.ended = true;
  }
}

/**
 * Plays one episode, recording it through `recorder`: a finished log is reused as it is; an
 * unfinished one is continued by replaying its recorded turns (checking each state hash) and
 * going on. Returns null when the episode was stopped before it ended (it stays resumable).
 */
export async function playEpisode(id: string, opts: EpisodePlayOptions, renderer: Renderer | null, recorder: EpisodeRecorder): Promise<EpisodeResult | null> {
  const { family, instance } = familyAndInstanceFromId(id);
  const agent = opts.makeAgent();
  try {
    const referenceActions = await referenceActionCount(family, instance);
    const header: LogHeader = {
      type: 'header',
      format: LOG_FORMAT,
      package: { name: 'spaceact', version: packageVersion() },
      instance: { id, family: family.id, familyVersion: family.version, tier: instance.tier, seed: instance.seed, digest: instanceDigest(instance) },
      agent: { name: agent.name, settings: agent.settings },
      mode: modeName(opts.mode),
      budgets: instance.budgets,
      historyImages: opts.historyImages ?? RUN_DEFAULTS.historyImages,
      startedAt: new Date().toISOString(),
    };
    const opening = await recorder.open(header);
    if (opening.kind === 'finished') return { entry: opening.entry, fresh: false };
    let finalImages: ObservationImage[] = [];
    const outcome = await runEpisode({
      family,
      instance,
      agent,
      mode: opts.mode,
      renderer,
      render: opts.render ?? RUN_DEFAULTS.render,
      historyImages: opts.historyImages ?? RUN_DEFAULTS.historyImages,
      replay: opening.turns.map((t) => ({ ...t, images: t.images.map((i) => ({ kind: i.kind, caption: i.caption })) })),
      onTurn: async (record, images) => {
        await recorder.turn(record, images);
        opts.onTurn?.(record);
      },
      onEnd: (images) => {
        finalImages = images;
      },
      ...(opts.shouldStop ? { shouldStop: opts.shouldStop } : {}),
    });
    if (outcome.endReason === 'stopped') return null;
    const score = scoreEpisode({ ...outcome, referenceActions, scoring: instance.scoring });
    await recorder.finish({ outcome, score, referenceActions, finishedAt: new Date().toISOString() }, finalImages);
    return { entry: summaryEntry(outcome, score, referenceActions), fresh: true };
  } finally {
    await agent.close?.();
  }
}
