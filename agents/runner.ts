import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { packageVersion } from '../core/package-info.ts';
import { Renderer } from '../render/renderer.ts';
import { SpaceActError } from '../core/errors.ts';
import { familyAndInstanceFromId } from '../tasks/registry.ts';
import { agentFactory, describeAgent } from './agent-registry.ts';
import { CostMeter } from './cost-meter.ts';
import { EpisodeLog, instanceDigest, LogDamageError, type LogInspection } from './episode-log.ts';
import { namingFile, outFolderError, refuseSpecialFolder } from './fs-errors.ts';
import { DiskEpisodeRecorder, playEpisode, roundCost, summaryEntry, type EpisodeResult } from './episode-runner.ts';
import { modeName, type Mode } from './modes.ts';
import { runQueued } from './queue/coordinator.ts';
import { connectRedis } from './queue/protocol.ts';
import { RUN_DEFAULTS, type RenderWhen } from './run-defaults.ts';
import type { Agent, TurnRecord, Usage } from './types.ts';
import type { AgentSpec, DispatchOptions, RunStop, RunSummary, SummaryEntry } from './run-types.ts';
import { runParallel } from './worker-pool.ts';

// The run's record types have their own module (the worker pool uses them too); re-exported
// here so a caller of the runner finds them with it.
export type { AgentSpec, RunStop, RunSummary, SummaryEntry } from './run-types.ts';
// The one episode runner, re-exported for callers of the runner.
export { referenceActionCount, type EpisodeResult } from './episode-runner.ts';

/** Options of a run over several instances. */
export interface RunOptions {
  instances: string[];
  /** The agent by registry name; needed for `concurrency` > 1. */
  agent?: AgentSpec;
  /** Makes a fresh agent for each episode (in-process runs; defaults to the registry's factory for `agent`). */
  makeAgent?(): Agent;
  mode: Mode;
  out: string;
  render?: RenderWhen;
  historyImages?: number;
  /** Episodes run at once, each worker process with its own renderer (default 1: in this process). */
  concurrency?: number;
  /**
   * `redis://HOST:PORT`: enqueue the episodes there for `spaceact worker` processes on any
   * machine, and write what they send into `out` (instead of running them here).
   */
  queue?: string;
  /** Dollars: once the cost recorded in this output folder reaches it, the run stops after the turn in flight. */
  costLimit?: number;
  /**
   * Called after each episode, in instance order (progress display). `reused`: the episode
   * was finished by an earlier run of the same output folder.
   */
  onEpisode?(entry: SummaryEntry, done: number, total: number, info: { reused: boolean }): void;
  /** Called when an episode starts (in any worker). */
  onEpisodeStart?(instance: string): void;
  /** Called after each new turn of any episode is logged (the live progress line). */
  onTurn?(instance: string, turn: { turn: number; reply: { usage?: Usage } }): void;
  /** Polled between turns and episodes; true stops the run cleanly. */
  shouldStop?(): boolean;
  /** Cut damaged logs after their last good line (saying what is dropped) instead of stopping. */
  repair?: boolean;
  /** Reuse abandoned episodes as they are, instead of continuing them from before the failure. */
  keepAbandoned?: boolean;
  /** Stop the run after this many episodes in a row are abandoned (default 3; 0: never). */
  abandonLimit?: number;
  /** Told what was repaired or dropped (a torn last line, a damaged log cut): never silent. */
  onNotice?(message: string): void;
}

/** Default of {@link RunOptions.abandonLimit}. */
export const DEFAULT_ABANDON_LIMIT = 3;

/** What one episode needs besides its id (the part of {@link RunOptions} a worker receives). */
export interface EpisodeRunOptions {
  makeAgent(): Agent;
  mode: Mode;
  out: string;
  render?: RenderWhen;
  historyImages?: number;
  shouldStop?(): boolean;
  /** Called after each new turn is logged (not for replayed turns). */
  onTurn?(record: TurnRecord): void;
  /** See {@link RunOptions.keepAbandoned}. */
  keepAbandoned?: boolean;
  /** See {@link RunOptions.onNotice}. */
  onNotice?(message: string): void;
}

/** Writes `summary.json` atomically, so a reader never sees half a file. */
export function writeSummary(out: string, summary: RunSummary): void {
  const tmp = join(out, 'summary.json.tmp');
  namingFile(tmp, () => writeFileSync(tmp, JSON.stringify(summary, null, 2) + '\n'));
  renameSync(tmp, join(out, 'summary.json'));
}

/**
 * Milliseconds between rewrites of `summary.json` during a run (and once more at its end).
 * Rewriting it after every episode made a run's cost grow with the episodes done (a
 * 10,000-episode run slowed from 8.2 to 5.3 episodes per second); at intervals the cost per
 * episode is constant. The logs are the record: a run killed between two writes loses nothing,
 * its rerun rebuilds the summary from them.
 */
export const SUMMARY_INTERVAL_MS = 2000;

/** The lock file of a run folder: one run (local or a queue run's coordinator) writes a folder at a time. */
export const RUN_LOCK_FILE = '.spaceact-lock';

/** Whether process `pid` of this machine is running. */
function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the lock of run folder `out` (`out/.spaceact-lock`: this process's id, host and start)
 * and returns its release. A folder locked by a live process — another local run, another
 * coordinator — is refused naming it; a lock left by a process of this machine that no longer
 * runs (killed) is recognised as stale, said, and taken over.
 */
export function lockRunFolder(out: string, notice: (m: string) => void = () => {}): () => void {
  const file = join(out, RUN_LOCK_FILE);
  const mine = JSON.stringify({ pid: process.pid, host: hostname(), started: new Date().toISOString() });
  for (let tries = 0; ; tries++) {
    try {
      const fd = namingFile(file, () => openSync(file, 'wx'));
      try {
        namingFile(file, () => writeSync(fd, `${mine}\n`));
      } finally {
        closeSync(fd);
      }
      return () => {
        try {
          if (readFileSync(file, 'utf8').trim() === mine) unlinkSync(file);
        } catch {
          // Already gone (the folder moved away): nothing to release.
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || tries >= 3) throw err;
    }
    let holder: { pid?: unknown; host?: unknown; started?: unknown } = {};
    try {
      holder = JSON.parse(readFileSync(file, 'utf8')) as typeof holder;
    } catch {
      // Unreadable (cut short when its writer was killed): stale.
    }
    const pid = typeof holder.pid === 'number' && Number.isInteger(holder.pid) ? holder.pid : null;
    const host = typeof holder.host === 'string' ? holder.host.slice(0, 100) : null;
    if (pid !== null && host !== null && (host !== hostname() || processRuns(pid))) {
      throw new SpaceActError(
        'invalid-state',
        `${out} is in use by another run (process ${pid} on ${host}${typeof holder.started === 'string' ? ` since ${holder.started.slice(0, 30)}` : ''}); wait for it to end or use another --out (if that process is gone, remove ${file})`,
        { path: out, pid, host },
      );
    }
    notice(`${file}: a stale lock${pid !== null ? ` of process ${pid}, which no longer runs,` : ''} was taken over`);
    try {
      unlinkSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

/**
 * Runs one episode with its log: a finished log is reused as it is; an unfinished one is
 * continued by replaying its recorded turns (checking each state hash) and going on.
 * Returns null when the episode was stopped before it ended (it stays resumable).
 */
export async function runLoggedEpisode(id: string, opts: EpisodeRunOptions, renderer: Renderer | null): Promise<SummaryEntry | null> {
  return (await runLoggedEpisodeResult(id, opts, renderer))?.entry ?? null;
}

/**
 * {@link runLoggedEpisode}, saying whether the episode ended in this run: the one episode
 * runner ({@link playEpisode}) with the log on this machine's disk. An abandoned episode (an
 * infrastructure failure, never the model's doing) is continued from the turn that failed,
 * unless `keepAbandoned`; its earlier log is kept beside the new one (`log.abandoned-N.jsonl`).
 * A damaged log throws a `LogDamageError`.
 */
export async function runLoggedEpisodeResult(id: string, opts: EpisodeRunOptions, renderer: Renderer | null): Promise<EpisodeResult | null> {
  const recorder = new DiskEpisodeRecorder(opts.out, id, {
    ...(opts.keepAbandoned !== undefined ? { keepAbandoned: opts.keepAbandoned } : {}),
    ...(opts.onNotice ? { onNotice: opts.onNotice } : {}),
  });
  return playEpisode(id, opts, renderer, recorder);
}

/** One episode folder of a run folder, as found on disk. */
export interface FolderEpisode {
  /** The instance id the log's header names. */
  id: string;
  log: EpisodeLog;
  contents: LogInspection;
}

/**
 * Every episode log under `out/episodes/`, read and checked line by line (folders without a
 * log are skipped). The instance id comes from each log's header.
 */
export function folderEpisodes(out: string): FolderEpisode[] {
  const root = join(out, 'episodes');
  if (!existsSync(root)) return [];
  if (!statSync(root).isDirectory()) throw new SpaceActError('io', `${root} is a file, not the episodes folder of a run`, { path: root });
  const found: FolderEpisode[] = [];
  for (const name of readdirSync(root).sort()) {
    const log = new EpisodeLog(out, name);
    // The folder name is the id made file-system safe; the log inside says which instance it is.
    const file = join(root, name, 'log.jsonl');
    if (!existsSync(join(root, name)) || !statSync(join(root, name)).isDirectory() || !existsSync(file)) continue;
    const contents = log.inspect();
    found.push({ id: contents.header?.instance.id ?? name, log, contents });
  }
  return found;
}

/**
 * Dollars recorded in episode logs (earlier, interrupted and abandoned runs included: the turns
 * a retried episode dropped are still in its `log.abandoned-N.jsonl`, and still paid for).
 */
export function recordedCost(out: string, ids?: string[]): number {
  let spent = 0;
  const logs = ids ? ids.map((id) => new EpisodeLog(out, id)) : folderEpisodes(out).map((e) => e.log);
  for (const log of logs) {
    for (const t of log.inspect().turns) spent += t.reply.usage?.cost ?? 0;
    if (!existsSync(log.dir)) continue;
    for (const f of readdirSync(log.dir)) {
      if (!/^log\.abandoned-\d+\.jsonl$/.test(f)) continue;
      // The old log holds the kept turns too; only those from the failed one on were dropped.
      const old = new EpisodeLog(out, '', join(log.dir, f)).inspect().turns;
      const failed = old.findIndex((t) => t.reply.abandoned);
      for (const t of failed < 0 ? [] : old.slice(failed)) spent += t.reply.usage?.cost ?? 0;
    }
  }
  return spent;
}

function makeSummary(
  base: Omit<RunSummary, 'episodes' | 'totals' | 'unfinished' | 'stopped'>,
  ids: string[],
  entries: Array<SummaryEntry | undefined>,
  others: { finished: SummaryEntry[]; unfinished: string[] },
  stopped?: RunStop,
): RunSummary {
  const episodes = [...entries.filter((e): e is SummaryEntry => e !== undefined), ...others.finished];
  const totals: RunSummary['totals'] = {
    episodes: episodes.length,
    solved: episodes.filter((e) => e.solved).length,
    abandoned: episodes.filter((e) => e.abandoned).length,
    inputTokens: episodes.reduce((s, e) => s + e.inputTokens, 0),
    outputTokens: episodes.reduce((s, e) => s + e.outputTokens, 0),
  };
  if (episodes.some((e) => e.cost !== undefined)) totals.cost = roundCost(episodes.reduce((s, e) => s + (e.cost ?? 0), 0));
  const summary: RunSummary = { ...base, episodes, totals, unfinished: [...ids.filter((_, i) => entries[i] === undefined), ...others.unfinished] };
  if (stopped) summary.stopped = stopped;
  return summary;
}

/**
 * Checks the output folder before a run: it must be a folder (or not exist yet), and every
 * episode log in it must be whole — a damaged line stops the run with its file and line
 * number, or, with `repair`, is cut off after saying what is dropped. Returns the episodes
 * found, for the summary.
 */
function checkRunFolder(out: string, repair: boolean, notice: (m: string) => void): FolderEpisode[] {
  let found = folderEpisodes(out);
  const damaged = found.filter((e) => e.contents.damage);
  if (damaged.length && !repair) {
    const first = damaged[0];
    const err = new LogDamageError(first.log.file, first.contents.damage!);
    if (damaged.length > 1) err.message += ` (${damaged.length - 1} more damaged log${damaged.length > 2 ? 's' : ''} in ${out})`;
    throw err;
  }
  if (damaged.length) {
    for (const e of damaged) notice(`repaired ${e.log.repair()}`);
    found = folderEpisodes(out);
  }
  return found;
}

/**
 * Why `out` cannot be resumed by a run of `ids` with this agent and mode — the first episode
 * log there whose header names another version of its instance (the family changed since),
 * another agent or another mode — or null when every log it holds fits (or there are none).
 */
export function staleRunReason(out: string, ids: string[], agentName: string, mode: Mode): string | null {
  if (!existsSync(out)) return null;
  for (const id of ids) {
    const log = new EpisodeLog(out, id);
    if (!existsSync(log.file)) continue;
    const h = log.read().header;
    if (!h) continue;
    const { instance } = familyAndInstanceFromId(id);
    if (h.instance.digest !== instanceDigest(instance)) return `${log.file} ran another version of ${id} (digest ${h.instance.digest})`;
    if (h.agent.name !== agentName) return `${log.file} ran agent ${h.agent.name}`;
    if (h.mode !== modeName(mode)) return `${log.file} ran mode ${h.mode}`;
  }
  return null;
}

/**
 * Moves a run folder aside to the first free `<out>.stale-<n>` (nothing is deleted) and returns
 * where it went.
 */
export function moveRunAside(out: string): string {
  let n = 1;
  while (existsSync(`${out}.stale-${n}`)) n++;
  const to = `${out}.stale-${n}`;
  renameSync(out, to);
  return to;
}

/**
 * Runs every instance, writing logs and `summary.json` under `out`. With `concurrency` > 1
 * the episodes run in worker processes; logs and summary are the same as a serial run's.
 * A cost limit or `shouldStop` ends the run after the turns in flight, leaving unfinished
 * episodes resumable and saying so in the summary.
 */
export async function runInstances(opts: RunOptions): Promise<RunSummary> {
  const ids = opts.instances;
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup) throw new SpaceActError('invalid-argument', `instance ${dup} is listed twice`, { instance: dup });
  ids.forEach((id) => familyAndInstanceFromId(id));
  const makeAgent = opts.makeAgent ?? (opts.agent ? () => agentFactory(opts.agent!.name)(opts.agent!.options) : null);
  if (!makeAgent) throw new SpaceActError('invalid-argument', 'runInstances needs `agent` or `makeAgent`');
  const concurrency = opts.concurrency ?? RUN_DEFAULTS.concurrency;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new SpaceActError('invalid-argument', '--concurrency must be a whole number of at least 1');
  if (concurrency > 1 && !opts.agent) throw new SpaceActError('invalid-argument', 'parallel runs need the agent given by name (`agent`), not a `makeAgent` function');
  if (opts.queue !== undefined && !opts.agent) throw new SpaceActError('invalid-argument', 'queue runs need the agent given by name (`agent`), not a `makeAgent` function');
  if (opts.queue !== undefined && concurrency > 1) {
    throw new SpaceActError('invalid-argument', '--concurrency is for runs on this machine; with --queue, start workers with `spaceact worker --queue URL --concurrency N`');
  }
  if (opts.costLimit !== undefined && !(opts.costLimit >= 0)) throw new SpaceActError('invalid-argument', '--cost-limit must be a non-negative number of dollars');

  const abandonLimit = opts.abandonLimit ?? DEFAULT_ABANDON_LIMIT;
  if (!Number.isInteger(abandonLimit) || abandonLimit < 0) throw new SpaceActError('invalid-argument', '--abandon-limit must be a whole number of at least 0');
  const notice = (m: string): void => opts.onNotice?.(m);

  // An unreachable queue fails before anything is written.
  if (opts.queue !== undefined) (await connectRedis(opts.queue)).disconnect();
  if (existsSync(opts.out) && !statSync(opts.out).isDirectory()) throw new SpaceActError('io', `--out ${opts.out} is a file, not a folder`, { path: opts.out });
  refuseSpecialFolder(opts.out);
  try {
    mkdirSync(opts.out, { recursive: true });
  } catch (err) {
    // A read-only mount says so (Node's recursive mkdir can report ENOENT for it).
    throw outFolderError(opts.out, err);
  }
  // One run writes a folder at a time: a second run or coordinator on it is refused before it reads or repairs anything.
  const unlock = lockRunFolder(opts.out, notice);
  try {
    return await runLocked(opts, ids, makeAgent, concurrency, abandonLimit, notice);
  } finally {
    unlock();
  }
}

async function runLocked(
  opts: RunOptions,
  ids: string[],
  makeAgent: () => Agent,
  concurrency: number,
  abandonLimit: number,
  notice: (m: string) => void,
): Promise<RunSummary> {
  const found = checkRunFolder(opts.out, opts.repair ?? false, notice);
  // A queue run's coordinator plays nothing, so it needs no key to name the agent.
  const probe = opts.queue !== undefined ? describeAgent(opts.agent!.name, opts.agent!.options) : makeAgent();
  await probe.close?.();
  const base: Omit<RunSummary, 'episodes' | 'totals' | 'unfinished' | 'stopped'> = {
    package: { name: 'spaceact', version: packageVersion() },
    agent: { name: probe.name, settings: probe.settings },
    mode: modeName(opts.mode),
  };
  // Episodes of earlier runs into this folder stay in the summary; another agent's or mode's
  // would make it mean two things at once.
  const others: { finished: SummaryEntry[]; unfinished: string[] } = { finished: [], unfinished: [] };
  for (const e of found) {
    const h = e.contents.header;
    if (!h) continue;
    if (h.agent.name !== base.agent.name || h.mode !== base.mode) {
      throw new SpaceActError(
        'invalid-state',
        `${opts.out} holds episodes of another run (${e.id}: agent ${h.agent.name}, mode ${h.mode}; this run: agent ${base.agent.name}, mode ${base.mode}); use another --out`,
        { path: opts.out },
      );
    }
    if (ids.includes(e.id)) continue;
    const end = e.contents.end;
    if (end) others.finished.push(summaryEntry(end.outcome, end.score, end.referenceActions));
    else others.unfinished.push(e.id);
  }
  const meter = opts.costLimit !== undefined ? new CostMeter(opts.costLimit, recordedCost(opts.out)) : null;
  let abandonedInARow = 0;
  let breakerTripped: string | null = null;
  const stopNow = (): boolean => breakerTripped !== null || (meter?.reached ?? false) || (opts.shouldStop?.() ?? false);
  const entries: Array<SummaryEntry | undefined> = new Array(ids.length).fill(undefined);
  // What an earlier run of this folder left: finished episodes are reused, unfinished ones continued.
  const earlier = ids.map((id) => new EpisodeLog(opts.out, id).read());
  const reused = earlier.map((r) => r.end !== null);
  const resumed = { finished: reused.filter(Boolean).length, continued: earlier.filter((r) => r.end === null && r.turns.length > 0).length };
  if (resumed.finished || resumed.continued) base.resumed = resumed;
  const stopInfo = (): RunStop | undefined => {
    if (breakerTripped !== null) {
      return {
        reason: 'abandonments',
        message: `stopped after ${abandonLimit} episode${abandonLimit === 1 ? ' was' : 's in a row were'} abandoned (last: ${breakerTripped}); the endpoint looks unusable: fix it and rerun with the same --out (abandoned episodes are retried)`,
      };
    }
    if (meter?.reached) {
      return {
        reason: 'cost-limit',
        limit: meter.limit,
        spent: roundCost(meter.spent),
        message: `cost limit of $${meter.limit} reached ($${meter.spent.toFixed(4)} recorded); rerun with the same --out and a higher --cost-limit to continue`,
      };
    }
    if (opts.shouldStop?.()) return { reason: 'requested', message: 'stopped on request; rerun with the same --out to continue' };
    return undefined;
  };
  let reported = 0;
  let summaryWritten = 0;
  const record = (index: number, result: EpisodeResult): void => {
    const entry = result.entry;
    entries[index] = entry;
    // The circuit breaker counts episodes that ended in this run, in the order they ended.
    if (result.fresh) {
      abandonedInARow = entry.abandoned ? abandonedInARow + 1 : 0;
      if (abandonLimit > 0 && abandonedInARow >= abandonLimit) breakerTripped ??= entry.abandonReason ?? 'no reason recorded';
    }
    // At intervals, not after every episode: the cost per episode stays constant (see SUMMARY_INTERVAL_MS).
    if (Date.now() - summaryWritten >= SUMMARY_INTERVAL_MS) {
      writeSummary(opts.out, makeSummary(base, ids, entries, others));
      summaryWritten = Date.now();
    }
    // Progress lines come out in instance order, as in a serial run.
    while (reported < ids.length && entries[reported]) {
      reported += 1;
      opts.onEpisode?.(entries[reported - 1]!, reported, ids.length, { reused: reused[reported - 1] });
    }
  };
  const episodeOpts = {
    mode: opts.mode,
    out: opts.out,
    render: opts.render ?? RUN_DEFAULTS.render,
    historyImages: opts.historyImages ?? RUN_DEFAULTS.historyImages,
    keepAbandoned: opts.keepAbandoned ?? false,
  } as const;

  try {
    const dispatch: DispatchOptions = {
      ids,
      init: { agent: opts.agent!, ...episodeOpts },
      shouldStop: stopNow,
      onTurnCost: (cost) => meter?.add(cost),
      onEpisodeStart: (id) => opts.onEpisodeStart?.(id),
      onTurn: (id, turn) => opts.onTurn?.(id, turn),
      onEpisode: record,
      onNotice: notice,
    };
    if (opts.queue !== undefined) {
      await runQueued({ ...dispatch, url: opts.queue });
    } else if (concurrency > 1 && ids.length > 1) {
      await runParallel({ ...dispatch, workers: Math.min(concurrency, ids.length) });
    } else {
      const needsRenderer = !opts.mode.blind && episodeOpts.render !== 'never';
      const renderer = needsRenderer ? new Renderer() : null;
      try {
        for (let i = 0; i < ids.length; i++) {
          if (stopNow()) break;
          opts.onEpisodeStart?.(ids[i]);
          const result = await runLoggedEpisodeResult(ids[i], {
            ...episodeOpts,
            makeAgent,
            shouldStop: stopNow,
            onTurn: (r) => {
              meter?.add(r.reply.usage?.cost ?? 0);
              opts.onTurn?.(ids[i], r);
            },
            onNotice: notice,
          }, renderer);
          if (!result) break;
          record(i, result);
        }
      } finally {
        await renderer?.close();
      }
    }
  } catch (err) {
    // A failure that ends every episode (a refused key, a full disk): the summary says so and
    // what is unfinished, and the error goes on to the caller.
    const message = err instanceof Error ? err.message : String(err);
    try {
      writeSummary(opts.out, makeSummary(base, ids, entries, others, { reason: 'error', message }));
    } catch {
      // The folder itself may be what failed; the error below says why.
    }
    throw err;
  }
  const stopped = entries.some((e) => e === undefined) ? stopInfo() : undefined;
  const summary = makeSummary(base, ids, entries, others, stopped);
  writeSummary(opts.out, summary);
  return summary;
}
