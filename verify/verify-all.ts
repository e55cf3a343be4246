/**
 * `spaceact verify` as one call: the per-instance checks of a selection and the shortcut
 * battery of its families, in this process or spread over worker processes
 * (`--concurrency N`, the same process pool as parallel runs: agents/process-pool.ts). Every
 * piece of work is deterministic and independent of the others, so the parallel result is
 * the serial one — the same records in the same order — but for the `seconds` fields.
 */
import { availableParallelism } from 'node:os';
import { SpaceActError } from '../core/errors.ts';
import { FULL_MACHINE_WORKER_V8_FLAGS } from '../core/v8-flags.ts';
import { runProcessPool } from '../agents/process-pool.ts';
import { tierLabel } from '../core/catalog.ts';
import { checkInstanceId, familyAtLever, getFamily, familyAndInstanceFromId, tiersOf } from '../tasks/registry.ts';
import type { Tier } from '../tasks/types.ts';
import { Renderer } from '../render/renderer.ts';
import { TierInstances } from './family-checks.ts';
import { batteryAgentNames, DEFAULT_BATTERY_TRAINING, runBattery, type BatteryReport } from './battery.ts';
import { jobTimeKey, readJobTimes, recordJobTimes, type JobTimes } from './job-times.ts';
import { staticTextLeaks, VERIFY_TEXT_SEEDS, type TextLeakReport } from './text-leak.ts';
import { VERIFY_VIEW_SEEDS, viewSampleRecord, type ViewSampleReport } from './view-sample.ts';
import { DEFAULT_RANDOM_SEEDS, DEFAULT_RANDOM_TURNS, verifyInstance, type VerifyResult } from './verify.ts';
import { siblingModule } from '../core/package-root.ts';

/** What every piece of a verification shares (plain data, sent to each worker once). */
export interface VerifySettings {
  /** Random-baseline episodes per instance (default 10; 0 skips the baseline). */
  randomSeeds?: number;
  /** Turn budget of each random-baseline episode (default 20). */
  randomTurns?: number;
  /** Shortcut battery: judged seeds per tier (0 or absent: no battery). */
  batterySeeds?: number;
  /** Shortcut battery: training seeds per tier. */
  batteryTraining?: number;
  /** Shortcut battery: leave out the strategies marked `adaptive` (tests that only compare runs). */
  batterySkipAdaptive?: boolean;
  /** Shortcut battery: only these agents, by name (an author re-measuring one agent); absent: all. */
  batteryAgents?: string[];
  /**
   * Text-leak check: seeds per tier whose instance text is compared, for every family × tier
   * holding a selected instance (default {@link VERIFY_TEXT_SEEDS}; 0 skips it).
   */
  textSeeds?: number;
  /** Run the view rule on every instance's first view (default true: it starts a headless browser per process). */
  viewRule?: boolean;
  /**
   * View-rule sample: seeds per family × tier (those of the text-leak check) whose first view is
   * held to the view rule besides the selected instances' (default: the battery's judged seeds
   * when `batterySeeds` is above 0 — every seed the battery judges has its first view checked —
   * else {@link VERIFY_VIEW_SEEDS}; 0, or `viewRule: false`, skips it). With a battery, the
   * training seeds it plays on each tier are checked too.
   */
  viewSeeds?: number;
}

/** Options of {@link verifyAll}. */
export interface VerifyAllOptions extends VerifySettings {
  /** Instance ids to verify. */
  instances: string[];
  /** Family ids whose battery to run (every tier each defines); ignored without `batterySeeds`. */
  batteryFamilies?: string[];
  /** Worker processes (default 1: everything in this process). */
  concurrency?: number;
  /**
   * `redis://HOST:PORT`: the jobs go to `spaceact worker` processes through BullMQ instead
   * (`verify/queue.ts`); `concurrency` is then the workers' business.
   */
  queue?: string;
  /** With `queue`: lines about the queue (no worker listening, a worker with another checkout, Redis gone). */
  onNotice?(line: string): void;
  /** Each instance's verdict, in the order of `instances`. */
  onResult?(r: VerifyResult, done: number, total: number): void;
  /** Each family × tier's text-leak record, after every instance, before the battery. */
  onTextReport?(r: TextLeakReport): void;
  /** Each family × tier's view-rule sample, with its text-leak record. */
  onViewReport?(r: ViewSampleReport): void;
  /** Each family × tier's battery report, in family then tier order, after every instance. */
  onBatteryReport?(r: BatteryReport): void;
  /**
   * With worker processes: the CPU seconds each used, start-up included, and the seconds of
   * that each spent starting up (benchmarks).
   */
  onWorkerCpu?(seconds: number[], startupSeconds: number[]): void;
  /**
   * The CPU seconds each record's work took in the process that did it, in serial order
   * (instances, then battery tiers), once all are in (benchmarks: where a split costs more).
   */
  onUnitCpu?(seconds: number[]): void;
}

/** The whole verdict: per instance, and per family × tier of the battery. */
export interface VerifyAllResult {
  instances: VerifyResult[];
  /** The text-leak check's record per family × tier of the selection (part of the verdict). */
  textLeaks: TextLeakReport[];
  /** The view rule over a sample of seeds per family × tier of the text-leak check (part of the verdict). */
  views: ViewSampleReport[];
  battery: BatteryReport[];
}

/**
 * One piece of a parallel verification: instances verified one after another in one worker
 * (usually a whole family's, so its generator, solver tables and compiled code are built in
 * one process only), one family × tier's text-leak check and view sample, or one family × tier
 * of the battery — with that tier's text-leak check and view sample first when `withText` (they
 * and the battery read the same seeds, which are then generated once for all three).
 */
export type VerifyJob =
  | { kind: 'instances'; ids: string[] }
  | { kind: 'battery'; family: string; tier: Tier; withText?: boolean }
  | { kind: 'text'; family: string; tier: Tier; lever?: string };

/**
 * What a verify worker sends back for a job: CPU seconds per record (a battery job `withText`
 * has two, the text records' and the battery's).
 */
export type VerifyJobResult =
  | { kind: 'instances'; results: VerifyResult[]; cpuSeconds: number[] }
  | { kind: 'battery'; report: BatteryReport; text?: { report?: TextLeakReport; views?: ViewSampleReport }; cpuSeconds: number[] }
  | { kind: 'text'; report?: TextLeakReport; views?: ViewSampleReport; cpuSeconds: number[] };

/** CPU seconds (user + system, every thread of this process) since `since`. */
function cpuSince(since: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1e6;
}

const WORKER_ENTRY = siblingModule(import.meta.url, './verify-worker');

/** Runs one job (in a worker, or in this process). */
export async function runVerifyJob(job: VerifyJob, settings: VerifySettings): Promise<VerifyJobResult> {
  if (job.kind === 'instances') {
    const results: VerifyResult[] = [];
    const cpuSeconds: number[] = [];
    for (const id of job.ids) {
      const since = process.cpuUsage();
      const { family, instance } = familyAndInstanceFromId(id);
      results.push(await verifyInstance(family, instance, withRenderer(settings)));
      cpuSeconds.push(cpuSince(since));
    }
    return { kind: 'instances', results, cpuSeconds };
  }
  if (job.kind === 'text') {
    const since = process.cpuUsage();
    const { report, views } = await textAndViewRecords(job.family, job.tier, settings, job.lever);
    return { kind: 'text', ...(report ? { report } : {}), ...(views ? { views } : {}), cpuSeconds: [cpuSince(since)] };
  }
  const family = getFamily(job.family);
  const instances = new TierInstances(family, job.tier);
  const cpuSeconds: number[] = [];
  let text: { report?: TextLeakReport; views?: ViewSampleReport } | undefined;
  if (job.withText) {
    const since = process.cpuUsage();
    const { report, views } = await textAndViewRecords(job.family, job.tier, settings, undefined, instances);
    text = { ...(report ? { report } : {}), ...(views ? { views } : {}) };
    cpuSeconds.push(cpuSince(since));
  }
  const since = process.cpuUsage();
  const [report] = await runBattery(family, {
    seeds: settings.batterySeeds ?? 0,
    ...(settings.batteryTraining !== undefined ? { training: settings.batteryTraining } : {}),
    ...(settings.batterySkipAdaptive ? { skipAdaptive: true } : {}),
    ...(settings.batteryAgents ? { only: settings.batteryAgents } : {}),
    tiers: [job.tier],
    instances: () => instances,
  });
  cpuSeconds.push(cpuSince(since));
  return { kind: 'battery', report, ...(text ? { text } : {}), cpuSeconds };
}

let viewRenderer: Renderer | null = null;

/** The settings of an instance's verification, with this process's renderer for the view rule unless it is switched off. */
function withRenderer(settings: VerifySettings): VerifySettings & { renderer?: Renderer } {
  if (settings.viewRule === false) return settings;
  viewRenderer ??= new Renderer({ frameCache: 0 });
  return { ...settings, renderer: viewRenderer };
}

/** Seeds of the view-rule sample the settings ask for (0 when it or the view rule is switched off). */
function viewSeedsOf(settings: VerifySettings): number {
  return settings.viewRule === false ? 0 : (settings.viewSeeds ?? VERIFY_VIEW_SEEDS);
}

/** The view-rule sample of a family × tier with this process's renderer, or null when the settings skip it. */
async function viewSample(instances: TierInstances, settings: VerifySettings, lever?: string): Promise<ViewSampleReport | null> {
  const n = viewSeedsOf(settings);
  if (n <= 0) return null;
  const renderer = withRenderer(settings).renderer!;
  // With a battery, its training seeds too: the battery plays them (the reference is certified
  // on them), so they are seeds a model could be shown.
  const battery = (settings.batterySeeds ?? 0) > 0 && !lever;
  return viewSampleRecord(instances.family, instances.tier, battery ? { judged: n, training: settings.batteryTraining ?? DEFAULT_BATTERY_TRAINING } : n, renderer, lever, instances);
}

/**
 * The text-leak record and the view-rule sample of one family × tier (each null when the
 * settings skip it). Both read the same seeds (0 … n−1 for most families), so each seed is
 * generated once for the two: a slow generator (V1, P2) paid the same draws twice before.
 * `instances` (that family × tier's) may be shared with the battery of the tier as well.
 */
export async function textAndViewRecords(
  familyId: string,
  tier: Tier,
  settings: VerifySettings,
  lever?: string,
  instances = new TierInstances(familyAtLever(getFamily(familyId), lever), tier),
): Promise<{ report: TextLeakReport | null; views: ViewSampleReport | null }> {
  const report = (settings.textSeeds ?? VERIFY_TEXT_SEEDS) > 0 ? textLeakRecord(familyId, tier, settings, lever, instances) : null;
  const views = await viewSample(instances, settings, lever);
  return { report, views };
}

/** Closes the browser this process started for the view rule, if any. */
export async function closeViewRenderer(): Promise<void> {
  const r = viewRenderer;
  viewRenderer = null;
  await r?.close();
}

/**
 * The text-leak record of one family × tier (or × L5 plus a lever, for a lever study): its
 * instance text over `textSeeds` seeds 0, 1, …
 */
export function textLeakRecord(familyId: string, tier: Tier, settings: VerifySettings, lever?: string, instances?: TierInstances): TextLeakReport {
  const n = settings.textSeeds ?? VERIFY_TEXT_SEEDS;
  const seeds = Array.from({ length: n }, (_, i) => i);
  return staticTextLeaks(familyAtLever(getFamily(familyId), lever), tier, seeds, instances?.of(seeds));
}

/** One record of the serial output: an instance's verdict, a text-leak record or a battery tier's report. */
export type VerifyUnitWork = { kind: 'instance'; id: string; family: string } | { kind: 'text'; family: string; tier: Tier; lever?: string } | { kind: 'battery'; family: string; tier: Tier };
/** A unit with the key its time is recorded under. */
export type VerifyUnit = VerifyUnitWork & { timeKey: string };

/** The keys under which units' times are recorded (see `verify/job-times.ts`). */
function unitTimeKey(unit: VerifyUnitWork, settings: VerifySettings): string {
  const version = getFamily(unit.family).version;
  if (unit.kind === 'instance') return jobTimeKey(unit.id, version, `random ${settings.randomSeeds ?? DEFAULT_RANDOM_SEEDS}x${settings.randomTurns ?? DEFAULT_RANDOM_TURNS}`);
  if (unit.kind === 'text') return jobTimeKey(`text ${unit.family}-${tierLabel(unit.tier, unit.lever)}`, version, `seeds ${settings.textSeeds ?? VERIFY_TEXT_SEEDS}, views ${viewSeedsOf(settings)}`);
  return jobTimeKey(`battery ${unit.family}-${unit.tier}`, version, `seeds ${settings.batterySeeds ?? 0}+${settings.batteryTraining ?? 'default'}${settings.batterySkipAdaptive ? ' no adaptive' : ''}${settings.batteryAgents ? ` only ${settings.batteryAgents.join(',')}` : ''}`);
}

/**
 * The jobs of a parallel run and the order they are handed out in. A family's instances form
 * one job, so each family's work (its generator's and solver's tables, the code compiled for
 * it) is done in one process rather than in every worker; a family whose instances are
 * expected to take more than a worker's fair share is split into one job per instance, so it
 * cannot hold the others up. Jobs go out longest first (so that no worker starts a long job
 * when the others are nearly done), by the times the last verification recorded; work with no
 * recorded time counts as the mean of what is known, battery tiers before instances.
 */
export function planJobs(units: readonly VerifyUnit[], workers: number, times: JobTimes): Array<{ job: VerifyJob; units: number[] }> {
  const known = units.map((u) => times.get(u.timeKey)).filter((t): t is number => t !== undefined);
  const mean = known.length ? known.reduce((a, b) => a + b, 0) / known.length : 1;
  const estimate = (i: number): number => times.get(units[i].timeKey) ?? mean;
  const total = units.reduce((sum, _, i) => sum + estimate(i), 0);
  const share = total / workers;

  const planned: Array<{ job: VerifyJob; units: number[]; seconds: number; battery: boolean }> = [];
  const byFamily = new Map<string, number[]>();
  // A tier's text-leak check and view sample go with its battery: all three read the same
  // seeds, which one process then generates once.
  const textOf = new Map<string, number>();
  units.forEach((u, i) => {
    if (u.kind === 'text' && !u.lever) textOf.set(`${u.family} ${u.tier}`, i);
  });
  const withBattery = new Set(units.flatMap((u) => (u.kind === 'battery' && textOf.has(`${u.family} ${u.tier}`) ? [textOf.get(`${u.family} ${u.tier}`)!] : [])));
  units.forEach((u, i) => {
    if (u.kind === 'text') {
      if (withBattery.has(i)) return;
      planned.push({ job: { kind: 'text', family: u.family, tier: u.tier, ...(u.lever ? { lever: u.lever } : {}) }, units: [i], seconds: estimate(i), battery: false });
    } else if (u.kind === 'battery') {
      const text = textOf.get(`${u.family} ${u.tier}`);
      const job: VerifyJob = { kind: 'battery', family: u.family, tier: u.tier, ...(text !== undefined ? { withText: true } : {}) };
      planned.push({ job, units: text !== undefined ? [text, i] : [i], seconds: estimate(i) + (text !== undefined ? estimate(text) : 0), battery: !times.has(u.timeKey) });
    } else {
      byFamily.set(u.family, [...(byFamily.get(u.family) ?? []), i]);
    }
  });
  const ids = (list: number[]): string[] => list.map((i) => (units[i] as Extract<VerifyUnit, { kind: 'instance' }>).id);
  for (const list of byFamily.values()) {
    const seconds = list.reduce((sum, i) => sum + estimate(i), 0);
    if (seconds > share && list.length > 1) {
      for (const i of list) planned.push({ job: { kind: 'instances', ids: ids([i]) }, units: [i], seconds: estimate(i), battery: false });
    } else {
      planned.push({ job: { kind: 'instances', ids: ids(list) }, units: list, seconds, battery: false });
    }
  }
  return planned
    .map((p, k) => ({ ...p, k }))
    .sort((a, b) => Number(b.battery) - Number(a.battery) || b.seconds - a.seconds || a.units[0] - b.units[0] || a.k - b.k)
    .map(({ job, units: u }) => ({ job, units: u }));
}

/**
 * Verifies `instances` and runs the battery of `batteryFamilies`. With `concurrency` > 1 the
 * jobs (see {@link planJobs}) run in that many worker processes (none of them starts a
 * browser: verification renders nothing); results are reported and returned in the serial
 * order. Either way each piece's time is recorded for the next run's hand-out order.
 */
export async function verifyAll(opts: VerifyAllOptions): Promise<VerifyAllResult> {
  const concurrency = opts.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new SpaceActError('invalid-argument', '--concurrency must be a whole number of at least 1');
  const settings: VerifySettings = {
    ...(opts.randomSeeds !== undefined ? { randomSeeds: opts.randomSeeds } : {}),
    ...(opts.randomTurns !== undefined ? { randomTurns: opts.randomTurns } : {}),
    ...(opts.batterySeeds !== undefined ? { batterySeeds: opts.batterySeeds } : {}),
    ...(opts.batteryTraining !== undefined ? { batteryTraining: opts.batteryTraining } : {}),
    ...(opts.batterySkipAdaptive !== undefined ? { batterySkipAdaptive: opts.batterySkipAdaptive } : {}),
    ...(opts.batteryAgents !== undefined ? { batteryAgents: opts.batteryAgents } : {}),
    ...(opts.textSeeds !== undefined ? { textSeeds: opts.textSeeds } : {}),
    ...(opts.viewRule !== undefined ? { viewRule: opts.viewRule } : {}),
    ...(opts.viewSeeds !== undefined ? { viewSeeds: opts.viewSeeds } : (opts.batterySeeds ?? 0) > 0 ? { viewSeeds: opts.batterySeeds } : {}),
  };
  // Check every id and family first, so a typo fails before minutes of episodes. Only the id
  // is checked here (family and tier known, seed well formed): generating the instances too
  // would cost this process seconds of CPU that a parallel run's workers spend again.
  const instanceFamilies = opts.instances.map((id) => getFamily(checkInstanceId(id).family).id);
  const families = (opts.batterySeeds ?? 0) > 0 ? (opts.batteryFamilies ?? []).map((f) => getFamily(f)) : [];
  if (opts.batteryAgents) {
    const known = new Set(families.flatMap((f) => batteryAgentNames(f)));
    const unknown = opts.batteryAgents.filter((a) => !known.has(a));
    if (unknown.length || opts.batteryAgents.length === 0) {
      throw new SpaceActError('invalid-argument', `--agents: no battery agent named ${unknown.map((a) => `'${a}'`).join(', ') || '(none given)'} in ${families.map((f) => f.id).join(', ') || 'the selected families'}; known: ${[...known].join(', ')}`);
    }
  }
  // The text-leak check and the view-rule sample cover every family × tier (a lever study's L5 +
  // lever apart) that holds a selected instance, and every tier the battery plays (issue 36
  // item 7: every seed the battery judges has its first view checked, L1's too); one job does both.
  const textTiers =
    (settings.textSeeds ?? VERIFY_TEXT_SEEDS) > 0 || viewSeedsOf(settings) > 0
      ? [
          ...new Set([
            ...opts.instances.map((id) => {
              const c = checkInstanceId(id);
              return `${getFamily(c.family).id} ${c.tier} ${c.lever ?? ''}`;
            }),
            ...families.flatMap((f) => tiersOf(f).map((tier) => `${f.id} ${tier} `)),
          ]),
        ]
      : [];
  const work: VerifyUnitWork[] = [
    ...opts.instances.map((id, i): VerifyUnitWork => ({ kind: 'instance', id, family: instanceFamilies[i] })),
    ...textTiers.map((k): VerifyUnitWork => {
      const [family, tier, lever] = k.split(' ');
      return { kind: 'text', family, tier: tier as Tier, ...(lever ? { lever } : {}) };
    }),
    ...families.flatMap((f) => tiersOf(f).map((tier): VerifyUnitWork => ({ kind: 'battery', family: f.id, tier }))),
  ];
  const units: VerifyUnit[] = work.map((u) => ({ ...u, timeKey: unitTimeKey(u, settings) }));
  // What each record's work cost, in CPU seconds: steadier than wall time on a shared
  // machine, and what the hand-out order balances.
  const took: JobTimes = new Map();
  const unitCpu: number[] = new Array(units.length).fill(NaN);
  const tookCpu = (i: number, seconds: number): void => {
    unitCpu[i] = seconds;
    took.set(units[i].timeKey, seconds);
  };

  if (!opts.queue && (concurrency === 1 || units.length <= 1)) {
    // One instance at a time, generated just before it is verified (the ids are checked
    // above), so each one's CPU time is its own.
    const instances: VerifyResult[] = [];
    const textLeaks: TextLeakReport[] = [];
    const views: ViewSampleReport[] = [];
    try {
      for (const [i, id] of opts.instances.entries()) {
        const since = process.cpuUsage();
        const { family, instance } = familyAndInstanceFromId(id);
        const r = await verifyInstance(family, instance, withRenderer(settings));
        tookCpu(i, cpuSince(since));
        instances.push(r);
        opts.onResult?.(r, instances.length, opts.instances.length);
      }
      for (const [k, u] of units.entries()) {
        if (u.kind !== 'text') continue;
        const since = process.cpuUsage();
        const { report: r, views: v } = await textAndViewRecords(u.family, u.tier, settings, u.lever);
        tookCpu(k, cpuSince(since));
        if (r) {
          textLeaks.push(r);
          opts.onTextReport?.(r);
        }
        if (v) {
          views.push(v);
          opts.onViewReport?.(v);
        }
      }
    } finally {
      await closeViewRenderer();
    }
    const textUnits = textLeaks.length;
    let since = process.cpuUsage();
    const battery: BatteryReport[] = [];
    for (const family of families) {
      await runBattery(family, {
        seeds: opts.batterySeeds!,
        ...(opts.batteryTraining !== undefined ? { training: opts.batteryTraining } : {}),
        ...(opts.batterySkipAdaptive ? { skipAdaptive: true } : {}),
        ...(opts.batteryAgents ? { only: opts.batteryAgents } : {}),
        onReport: (r) => {
          tookCpu(opts.instances.length + textUnits + battery.length, cpuSince(since));
          since = process.cpuUsage();
          battery.push(r);
          opts.onBatteryReport?.(r);
        },
      });
    }
    recordJobTimes(took);
    opts.onUnitCpu?.(unitCpu);
    return { instances, textLeaks, views, battery };
  }

  // Results arrive in completion order; they are reported in serial order as soon as every
  // earlier record is in, so the output reads as a serial run's.
  const plan = planJobs(units, opts.queue ? Math.max(2, concurrency) : concurrency, readJobTimes());
  const records: Array<{ kind: 'instance'; result: VerifyResult } | { kind: 'text'; report?: TextLeakReport; views?: ViewSampleReport } | { kind: 'battery'; report: BatteryReport } | undefined> = new Array(units.length);
  let reported = 0;
  const instances: VerifyResult[] = [];
  const textLeaks: TextLeakReport[] = [];
  const views: ViewSampleReport[] = [];
  const battery: BatteryReport[] = [];
  const flush = (): void => {
    while (reported < units.length && records[reported]) {
      const r = records[reported]!;
      if (r.kind === 'instance') {
        instances.push(r.result);
        opts.onResult?.(r.result, instances.length, opts.instances.length);
      } else if (r.kind === 'text') {
        if (r.report) {
          textLeaks.push(r.report);
          opts.onTextReport?.(r.report);
        }
        if (r.views) {
          views.push(r.views);
          opts.onViewReport?.(r.views);
        }
      } else {
        battery.push(r.report);
        opts.onBatteryReport?.(r.report);
      }
      reported++;
    }
  };
  const onJobResult = (k: number, result: VerifyJobResult): void => {
    const at = plan[k].units;
    if (result.kind === 'instances') {
      result.results.forEach((r, j) => {
        records[at[j]] = { kind: 'instance', result: r };
        tookCpu(at[j], result.cpuSeconds[j]);
      });
    } else if (result.kind === 'text') {
      records[at[0]] = { kind: 'text', ...(result.report ? { report: result.report } : {}), ...(result.views ? { views: result.views } : {}) };
      tookCpu(at[0], result.cpuSeconds[0]);
    } else {
      if (at.length === 2) {
        const text = result.text ?? {};
        records[at[0]] = { kind: 'text', ...(text.report ? { report: text.report } : {}), ...(text.views ? { views: text.views } : {}) };
        tookCpu(at[0], result.cpuSeconds[0]);
      }
      records[at.at(-1)!] = { kind: 'battery', report: result.report };
      tookCpu(at.at(-1)!, result.cpuSeconds.at(-1)!);
    }
    flush();
  };
  const describe = (job: VerifyJob): string =>
    job.kind === 'instances' ? job.ids.join(', ') : job.kind === 'text' ? `the ${job.family}-${tierLabel(job.tier, job.lever)} text-leak and view sample` : `the ${job.family}-${job.tier} ${job.withText ? 'text-leak, view sample and battery' : 'battery'}`;
  if (opts.queue) {
    // Loaded only here: a verify worker process (which imports this module) needs no queue client.
    const { runVerifyQueue } = await import('./queue.ts');
    try {
      await runVerifyQueue({ url: opts.queue, settings, jobs: plan.map((p) => p.job), onResult: onJobResult, describe, ...(opts.onNotice ? { onNotice: opts.onNotice } : {}) });
      opts.onUnitCpu?.(unitCpu);
    } finally {
      recordJobTimes(took);
    }
    return { instances, textLeaks, views, battery };
  }
  try {
    const stats = await runProcessPool<VerifySettings, VerifyJob, VerifyJobResult>({
      entry: WORKER_ENTRY,
      // Verification loads no module at run time, so its workers start from a bundle.
      bundle: true,
      // Workers that fill every core compile on their own thread (see core/v8-flags.ts).
      ...(Math.min(concurrency, plan.length) >= availableParallelism() ? { v8Flags: FULL_MACHINE_WORKER_V8_FLAGS } : {}),
      jobs: plan.map((p) => p.job),
      workers: concurrency,
      init: settings,
      onResult: onJobResult,
      describe: (_, job) => describe(job),
    });
    opts.onWorkerCpu?.(
      stats.workerCpuMs.map((ms) => ms / 1000),
      stats.workerStartupCpuMs.map((ms) => ms / 1000),
    );
    opts.onUnitCpu?.(unitCpu);
  } finally {
    recordJobTimes(took);
  }
  return { instances, textLeaks, views, battery };
}
