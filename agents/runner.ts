import { mkdirSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { packageVersion } from '../core/package-info.ts';
import { Renderer } from '../render/renderer.ts';
import { SpaceActError } from '../core/errors.ts';
import { instanceFromId } from '../tasks/registry.ts';
import type { Instance, TaskFamily } from '../tasks/types.ts';
import type { AgentOptions } from './agent-options.ts';
import { agentFactory } from './agent-registry.ts';
import { CostMeter } from './cost-meter.ts';
import { EpisodeLog, instanceDigest, LOG_FORMAT, type LogHeader } from './episode-log.ts';
import { runEpisode } from './loop.ts';
import { modeName, type Mode } from './modes.ts';
import { scoreEpisode, type Score } from './scoring.ts';
import type { Agent, EpisodeOutcome, TurnRecord } from './types.ts';
import { runParallel } from './worker-pool.ts';
import { referenceSolution } from '../tasks/reference-cache.ts';
import { roundTo } from '../core/determinism.ts';

/** One row of `summary.json`. */
export interface SummaryEntry {
  instance: string;
  family: string;
  tier: string;
  agent: string;
  mode: string;
  solved: boolean;
  /** 0–100, or null for pass/fail families. */
  score: number | null;
  graded: boolean;
  turns: number;
  actions: number;
  violations: number;
  invalidReplies: number;
  abandoned: boolean;
  abandonReason?: string;
  endReason: EpisodeOutcome['endReason'];
  progress: number;
  referenceActions: number;
  inputTokens: number;
  outputTokens: number;
  cost?: number;
}

/** Why a run stopped before every episode finished. */
export interface RunStop {
  reason: 'cost-limit' | 'requested';
  message: string;
  /** Dollars, for `cost-limit`. */
  limit?: number;
  spent?: number;
}

/** `summary.json`: what ran and one entry per finished episode, in the order the instances were given. */
export interface RunSummary {
  package: { name: string; version: string };
  agent: { name: string; settings: Record<string, unknown> };
  mode: string;
  episodes: SummaryEntry[];
  /** Totals over the finished episodes. */
  totals: { episodes: number; solved: number; abandoned: number; inputTokens: number; outputTokens: number; cost?: number };
  /** Instances not finished yet; rerunning with the same output folder continues them. */
  unfinished: string[];
  /** Present when the run stopped early. */
  stopped?: RunStop;
}

/** An agent named in the registry with plain-data options (what worker processes rebuild it from). */
export interface AgentSpec {
  name: string;
  options: AgentOptions;
}

/** Options of a run over several instances. */
export interface RunOptions {
  instances: string[];
  /** The agent by registry name; needed for `concurrency` > 1. */
  agent?: AgentSpec;
  /** Makes a fresh agent for each episode (in-process runs; defaults to the registry's factory for `agent`). */
  makeAgent?(): Agent;
  mode: Mode;
  out: string;
  render?: 'always' | 'auto' | 'never';
  historyImages?: number;
  /** Episodes run at once, each worker process with its own renderer (default 1: in this process). */
  concurrency?: number;
  /** Dollars: once the cost recorded in this output folder reaches it, the run stops after the turn in flight. */
  costLimit?: number;
  /** Called after each episode, in instance order (progress display). */
  onEpisode?(entry: SummaryEntry, done: number, total: number): void;
  /** Polled between turns and episodes; true stops the run cleanly. */
  shouldStop?(): boolean;
}

/** What one episode needs besides its id (the part of {@link RunOptions} a worker receives). */
export interface EpisodeRunOptions {
  makeAgent(): Agent;
  mode: Mode;
  out: string;
  render?: 'always' | 'auto' | 'never';
  historyImages?: number;
  shouldStop?(): boolean;
  /** Called after each new turn is logged (not for replayed turns). */
  onTurn?(record: TurnRecord): void;
}

/** The non-perception action count of a family's reference solution. */
export async function referenceActionCount(family: TaskFamily, instance: Instance): Promise<number> {
  const sol = await referenceSolution(family, instance);
  const kind = new Map(instance.tools.map((t) => [t.name, t.kind]));
  return sol.calls.filter((c) => kind.get(c.tool) !== 'perception').length;
}

function summaryEntry(o: EpisodeOutcome, score: Score, referenceActions: number): SummaryEntry {
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

/** Rounds dollars to a millionth so sums do not show float noise. */
function roundCost(x: number): number {
  return roundTo(x, 6);
}

/** Writes `summary.json` atomically, so a reader never sees half a file. */
export function writeSummary(out: string, summary: RunSummary): void {
  const tmp = join(out, 'summary.json.tmp');
  writeFileSync(tmp, JSON.stringify(summary, null, 2) + '\n');
  renameSync(tmp, join(out, 'summary.json'));
}

/**
 * Runs one episode with its log: a finished log is reused as it is; an unfinished one is
 * continued by replaying its recorded turns (checking each state hash) and going on.
 * Returns null when the episode was stopped before it ended (it stays resumable).
 */
export async function runLoggedEpisode(id: string, opts: EpisodeRunOptions, renderer: Renderer | null): Promise<SummaryEntry | null> {
  const { family, instance } = instanceFromId(id);
  const agent = opts.makeAgent();
  const log = new EpisodeLog(opts.out, id);
  const earlier = log.read();
  const referenceActions = await referenceActionCount(family, instance);
  const header: LogHeader = {
    type: 'header',
    format: LOG_FORMAT,
    package: { name: 'spaceact', version: packageVersion() },
    instance: { id, family: family.id, familyVersion: family.version, tier: instance.tier, seed: instance.seed, digest: instanceDigest(instance) },
    agent: { name: agent.name, settings: agent.settings },
    mode: modeName(opts.mode),
    budgets: instance.budgets,
    historyImages: opts.historyImages ?? 1,
    startedAt: new Date().toISOString(),
  };
  try {
    if (earlier.header) {
      const h = earlier.header;
      const same = h.instance.digest === header.instance.digest && h.agent.name === header.agent.name && h.mode === header.mode;
      if (!same) {
        throw new SpaceActError(
          'invalid-state',
          `${log.file} holds a different run (instance ${h.instance.id} digest ${h.instance.digest}, agent ${h.agent.name}, mode ${h.mode}); use another --out`,
        );
      }
      if (earlier.end) return summaryEntry(earlier.end.outcome, earlier.end.score, earlier.end.referenceActions);
      header.startedAt = h.startedAt;
      log.restart(header, earlier.turns);
    } else {
      log.start(header);
    }
    const outcome = await runEpisode({
      family,
      instance,
      agent,
      mode: opts.mode,
      renderer,
      render: opts.render ?? 'always',
      historyImages: opts.historyImages ?? 1,
      replay: earlier.turns.map((t) => ({ ...t, images: t.images.map((i) => ({ kind: i.kind, caption: i.caption })) })),
      onTurn: (record, images) => {
        log.appendTurn(record, images);
        opts.onTurn?.(record);
      },
      ...(opts.shouldStop ? { shouldStop: opts.shouldStop } : {}),
    });
    if (outcome.endReason === 'stopped') return null;
    const score = scoreEpisode({ ...outcome, referenceActions, scoring: instance.scoring });
    log.finish({ outcome, score, referenceActions, finishedAt: new Date().toISOString() });
    return summaryEntry(outcome, score, referenceActions);
  } finally {
    await agent.close?.();
  }
}

/** Dollars already recorded in the logs of these episodes (earlier, interrupted runs included). */
export function recordedCost(out: string, ids: string[]): number {
  let spent = 0;
  for (const id of ids) {
    const { turns } = new EpisodeLog(out, id).read();
    for (const t of turns) spent += t.reply.usage?.cost ?? 0;
  }
  return spent;
}

function makeSummary(base: Omit<RunSummary, 'episodes' | 'totals' | 'unfinished'>, ids: string[], entries: Array<SummaryEntry | undefined>, stopped?: RunStop): RunSummary {
  const episodes = entries.filter((e): e is SummaryEntry => e !== undefined);
  const totals: RunSummary['totals'] = {
    episodes: episodes.length,
    solved: episodes.filter((e) => e.solved).length,
    abandoned: episodes.filter((e) => e.abandoned).length,
    inputTokens: episodes.reduce((s, e) => s + e.inputTokens, 0),
    outputTokens: episodes.reduce((s, e) => s + e.outputTokens, 0),
  };
  if (episodes.some((e) => e.cost !== undefined)) totals.cost = roundCost(episodes.reduce((s, e) => s + (e.cost ?? 0), 0));
  const summary: RunSummary = { ...base, episodes, totals, unfinished: ids.filter((_, i) => entries[i] === undefined) };
  if (stopped) summary.stopped = stopped;
  return summary;
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
  ids.forEach((id) => instanceFromId(id));
  const makeAgent = opts.makeAgent ?? (opts.agent ? () => agentFactory(opts.agent!.name)(opts.agent!.options) : null);
  if (!makeAgent) throw new SpaceActError('invalid-argument', 'runInstances needs `agent` or `makeAgent`');
  const concurrency = opts.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new SpaceActError('invalid-argument', '--concurrency must be a whole number of at least 1');
  if (concurrency > 1 && !opts.agent) throw new SpaceActError('invalid-argument', 'parallel runs need the agent given by name (`agent`), not a `makeAgent` function');
  if (opts.costLimit !== undefined && !(opts.costLimit >= 0)) throw new SpaceActError('invalid-argument', '--cost-limit must be a non-negative number of dollars');

  mkdirSync(opts.out, { recursive: true });
  const probe = makeAgent();
  await probe.close?.();
  const base: Omit<RunSummary, 'episodes' | 'totals' | 'unfinished'> = {
    package: { name: 'spaceact', version: packageVersion() },
    agent: { name: probe.name, settings: probe.settings },
    mode: modeName(opts.mode),
  };
  const meter = opts.costLimit !== undefined ? new CostMeter(opts.costLimit, recordedCost(opts.out, ids)) : null;
  const stopNow = (): boolean => (meter?.reached ?? false) || (opts.shouldStop?.() ?? false);
  const entries: Array<SummaryEntry | undefined> = new Array(ids.length).fill(undefined);
  const stopInfo = (): RunStop | undefined => {
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
  const record = (index: number, entry: SummaryEntry): void => {
    entries[index] = entry;
    writeSummary(opts.out, makeSummary(base, ids, entries));
    // Progress lines come out in instance order, as in a serial run.
    while (reported < ids.length && entries[reported]) {
      reported += 1;
      opts.onEpisode?.(entries[reported - 1]!, reported, ids.length);
    }
  };
  const episodeOpts = {
    mode: opts.mode,
    out: opts.out,
    render: opts.render ?? 'always',
    historyImages: opts.historyImages ?? 1,
  } as const;

  if (concurrency > 1 && ids.length > 1) {
    await runParallel({
      ids,
      workers: Math.min(concurrency, ids.length),
      init: { agent: opts.agent!, ...episodeOpts },
      shouldStop: stopNow,
      onTurnCost: (cost) => meter?.add(cost),
      onEpisode: record,
    });
  } else {
    const needsRenderer = !opts.mode.blind && episodeOpts.render !== 'never';
    const renderer = needsRenderer ? new Renderer() : null;
    try {
      for (let i = 0; i < ids.length; i++) {
        if (stopNow()) break;
        const entry = await runLoggedEpisode(ids[i], {
          ...episodeOpts,
          makeAgent,
          shouldStop: stopNow,
          onTurn: (r) => meter?.add(r.reply.usage?.cost ?? 0),
        }, renderer);
        if (!entry) break;
        record(i, entry);
      }
    } finally {
      await renderer?.close();
    }
  }
  const stopped = entries.some((e) => e === undefined) ? stopInfo() : undefined;
  const summary = makeSummary(base, ids, entries, stopped);
  writeSummary(opts.out, summary);
  return summary;
}
