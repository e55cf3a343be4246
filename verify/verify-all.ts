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
import { VerifyCheckpoint } from './checkpoint.ts';

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
  /**
   * A checkpoint file (`verify/checkpoint.ts`): each record is kept there as soon as it is
   * known, and the records a previous run of the same verification (checkout, settings and
   * selection) finished there are taken back instead of computed again. A file of another
   * verification is refused.
   */
  checkpoint?: string;
  /** With `checkpoint`: how many of the records were taken back from it, before any work starts. */
  onResumed?(records: number, total: number): void;
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
 * and the battery read the same seeds, which are then generated once for all three), and then
 * the tiers in `then`, alike, which draw their worlds from this one's (`TaskFamily.drawsFrom`).
 */
export type VerifyJob =
  | { kind: 'instances'; ids: string[] }
  | { kind: 'battery'; family: string; tier: Tier; withText?: boolean; then?: Tier[] }
  | { kind: 'text'; family: string; tier: Tier; lever?: string };

/** What a battery job sends back for one of its tiers. */
export interface BatteryTierResult {
  kind: 'battery';
  report: BatteryReport;
  text?: { report?: TextLeakReport; views?: ViewSampleReport };
  /** The text records' CPU seconds first when the job was `withText`, then the battery's. */
  cpuSeconds: number[];
}

/**
 * What a verify worker sends back for a job: CPU seconds per record (a battery job `withText`
 * has two, the text records' and the battery's).
 */
export type VerifyJobResult =
  | { kind: 'instances'; results: VerifyResult[]; cpuSeconds: number[] }
  | (BatteryTierResult & { then?: BatteryTierResult[] })
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
  const first = await batteryTier(job.family, job.tier, job.withText === true, settings);
  if (!job.then?.length) return first;
  // The later tiers draw from the first one's worlds, kept in this process's memo.
  const then: BatteryTierResult[] = [];
  for (const tier of job.then) then.push(await batteryTier(job.family, tier, job.withText === true, settings));
  return { ...first, then };
}

/** One tier of a battery job: its text records first when `withText`, then its battery. */
async function batteryTier(familyId: string, tier: Tier, withText: boolean, settings: VerifySettings): Promise<BatteryTierResult> {
  const family = getFamily(familyId);
  const instances = new TierInstances(family, tier);
  const cpuSeconds: number[] = [];
  let text: { report?: TextLeakReport; views?: ViewSampleReport } | undefined;
  if (withText) {
    const since = process.cpuUsage();
    const { report, views } = await textAndViewRecords(familyId, tier, settings, undefined, instances);
    text = { ...(report ? { report } : {}), ...(views ? { views } : {}) };
    cpuSeconds.push(cpuSince(since));
  }
  const since = process.cpuUsage();
  const [report] = await runBattery(family, {
    seeds: settings.batterySeeds ?? 0,
    ...(settings.batteryTraining !== undefined ? { training: settings.batteryTraining } : {}),
    ...(settings.batterySkipAdaptive ? { skipAdaptive: true } : {}),
    ...(settings.batteryAgents ? { only: settings.batteryAgents } : {}),
    tiers: [tier],
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
export type VerifyUnitWork =
  | { kind: 'instance'; id: string; family: string }
  | { kind: 'text'; family: string; tier: Tier; lever?: string }
  /** `after`: the tier whose worlds this one's are drawn from (`TaskFamily.drawsFrom`): played after it, in its job. */
  | { kind: 'battery'; family: string; tier: Tier; after?: Tier };
/** A unit with the key its time is recorded under. */
export type VerifyUnit = VerifyUnitWork & { timeKey: string };

/** A text unit's records: the text-leak record and the view-rule sample, each absent when skipped. */
type TextRecords = { report?: TextLeakReport; views?: ViewSampleReport };

/** A record's name in a checkpoint: what it is a record of. */
function unitKey(u: VerifyUnitWork): string {
  if (u.kind === 'instance') return `instance ${u.id}`;
  if (u.kind === 'text') return `text ${u.family}-${tierLabel(u.tier, u.lever)}`;
  return `battery ${u.family}-${u.tier}`;
}

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
  // A tier that draws its worlds from another's joins that tier's battery job (after it), so
  // one process makes the draws once; without the other tier in the run it is a job of its own.
  const batteryJobOf = new Map<string, (typeof planned)[number]>();
  units.forEach((u, i) => {
    if (u.kind === 'text') {
      if (withBattery.has(i)) return;
      planned.push({ job: { kind: 'text', family: u.family, tier: u.tier, ...(u.lever ? { lever: u.lever } : {}) }, units: [i], seconds: estimate(i), battery: false });
    } else if (u.kind === 'battery') {
      const text = textOf.get(`${u.family} ${u.tier}`);
      const own = text !== undefined ? [text, i] : [i];
      const seconds = estimate(i) + (text !== undefined ? estimate(text) : 0);
      const lead = u.after !== undefined ? batteryJobOf.get(`${u.family} ${u.after}`) : undefined;
      if (lead && lead.job.kind === 'battery' && (lead.job.withText === true) === (text !== undefined)) {
        lead.job.then = [...(lead.job.then ?? []), u.tier];
        lead.units.push(...own);
        lead.seconds += seconds;
        lead.battery ||= !times.has(u.timeKey);
        batteryJobOf.set(`${u.family} ${u.tier}`, lead);
        return;
      }
      const job: VerifyJob = { kind: 'battery', family: u.family, tier: u.tier, ...(text !== undefined ? { withText: true } : {}) };
      const entry = { job, units: own, seconds, battery: !times.has(u.timeKey) };
      planned.push(entry);
      batteryJobOf.set(`${u.family} ${u.tier}`, entry);
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
    ...families.flatMap((f) =>
      tiersOf(f).map((tier): VerifyUnitWork => {
        const after = f.drawsFrom?.[tier];
        return { kind: 'battery', family: f.id, tier, ...(after !== undefined ? { after } : {}) };
      }),
    ),
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
  // A checkpoint hands back the records an interrupted run of this same verification finished,
  // and keeps each record this run finishes as soon as it is known.
  const checkpoint = opts.checkpoint ? VerifyCheckpoint.open(opts.checkpoint, { settings, families: families.map((f) => f.id) }, units.map(unitKey)) : null;
  if (checkpoint) opts.onResumed?.(checkpoint.done.size, units.length);
  const saved = (i: number): unknown => {
    const d = checkpoint?.done.get(i);
    if (d) unitCpu[i] = d.cpuSeconds;
    return d?.record;
  };
  const finished = (i: number, record: unknown, seconds: number): void => {
    tookCpu(i, seconds);
    checkpoint?.write(i, record, seconds);
  };
  const batteryStart = units.findIndex((u) => u.kind === 'battery');

  if (!opts.queue && (concurrency === 1 || units.length <= 1)) {
    // One instance at a time, generated just before it is verified (the ids are checked
    // above), so each one's CPU time is its own.
    const instances: VerifyResult[] = [];
    const textLeaks: TextLeakReport[] = [];
    const views: ViewSampleReport[] = [];
    try {
      for (const [i, id] of opts.instances.entries()) {
        let r = saved(i) as VerifyResult | undefined;
        if (!r) {
          const since = process.cpuUsage();
          const { family, instance } = familyAndInstanceFromId(id);
          r = await verifyInstance(family, instance, withRenderer(settings));
          finished(i, r, cpuSince(since));
        }
        instances.push(r);
        opts.onResult?.(r, instances.length, opts.instances.length);
      }
      for (const [k, u] of units.entries()) {
        if (u.kind !== 'text') continue;
        let text = saved(k) as TextRecords | undefined;
        if (!text) {
          const since = process.cpuUsage();
          const { report, views: sample } = await textAndViewRecords(u.family, u.tier, settings, u.lever);
          text = { ...(report ? { report } : {}), ...(sample ? { views: sample } : {}) };
          finished(k, text, cpuSince(since));
        }
        const { report: r, views: v } = text;
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
    const battery: BatteryReport[] = [];
    const batteryOptions = {
      seeds: opts.batterySeeds!,
      ...(opts.batteryTraining !== undefined ? { training: opts.batteryTraining } : {}),
      ...(opts.batterySkipAdaptive ? { skipAdaptive: true } : {}),
      ...(opts.batteryAgents ? { only: opts.batteryAgents } : {}),
    };
    const report = (r: BatteryReport): void => {
      battery.push(r);
      opts.onBatteryReport?.(r);
    };
    for (const family of families) {
      const first = batteryStart + battery.length;
      const tiers = tiersOf(family);
      if (!tiers.some((_, t) => checkpoint?.done.has(first + t))) {
        let since = process.cpuUsage();
        await runBattery(family, {
          ...batteryOptions,
          onReport: (r) => {
            finished(batteryStart + battery.length, r, cpuSince(since));
            since = process.cpuUsage();
            report(r);
          },
        });
        continue;
      }
      // Some tiers were finished before the interruption: the others are played one by one, as
      // a parallel run plays them (the same records), the finished ones reported in between.
      for (const [t, tier] of tiers.entries()) {
        let r = saved(first + t) as BatteryReport | undefined;
        if (!r) {
          const since = process.cpuUsage();
          [r] = await runBattery(family, { ...batteryOptions, tiers: [tier] });
          finished(first + t, r, cpuSince(since));
        }
        report(r);
      }
    }
    recordJobTimes(took);
    opts.onUnitCpu?.(unitCpu);
    return { instances, textLeaks, views, battery };
  }

  // Results arrive in completion order; they are reported in serial order as soon as every
  // earlier record is in, so the output reads as a serial run's.
  // Only what the checkpoint does not already hold is planned; job unit numbers are mapped back
  // to the serial order.
  const open = units.flatMap((_, i) => (checkpoint?.done.has(i) ? [] : [i]));
  const plan = planJobs(
    open.map((i) => units[i]),
    opts.queue ? Math.max(2, concurrency) : concurrency,
    readJobTimes(),
  ).map((p) => ({ ...p, units: p.units.map((j) => open[j]) }));
  const records: Array<{ kind: 'instance'; result: VerifyResult } | ({ kind: 'text' } & TextRecords) | { kind: 'battery'; report: BatteryReport } | undefined> = new Array(units.length);
  units.forEach((u, i) => {
    const r = saved(i);
    if (r === undefined) return;
    records[i] = u.kind === 'instance' ? { kind: 'instance', result: r as VerifyResult } : u.kind === 'text' ? { kind: 'text', ...(r as TextRecords) } : { kind: 'battery', report: r as BatteryReport };
  });
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
    const text = (i: number, t: TextRecords, seconds: number): void => {
      const kept: TextRecords = { ...(t.report ? { report: t.report } : {}), ...(t.views ? { views: t.views } : {}) };
      records[i] = { kind: 'text', ...kept };
      finished(i, kept, seconds);
    };
    if (result.kind === 'instances') {
      result.results.forEach((r, j) => {
        records[at[j]] = { kind: 'instance', result: r };
        finished(at[j], r, result.cpuSeconds[j]);
      });
    } else if (result.kind === 'text') {
      text(at[0], result, result.cpuSeconds[0]);
    } else {
      // Each tier's records in the job's order: its text record (when carried), then its battery.
      let next = 0;
      for (const part of [result, ...(result.then ?? [])]) {
        if (part.text) text(at[next++], part.text, part.cpuSeconds[0]);
        records[at[next]] = { kind: 'battery', report: part.report };
        finished(at[next++], part.report, part.cpuSeconds.at(-1)!);
      }
    }
    flush();
  };
  const describe = (job: VerifyJob): string =>
    job.kind === 'instances' ? job.ids.join(', ') : job.kind === 'text' ? `the ${job.family}-${tierLabel(job.tier, job.lever)} text-leak and view sample` : `the ${job.family}-${[job.tier, ...(job.then ?? [])].join('/')} ${job.withText ? 'text-leak, view sample and battery' : 'battery'}`;
  // What the checkpoint held is reported at once, up to the first record still to be made.
  flush();
  if (plan.length === 0) {
    opts.onUnitCpu?.(unitCpu);
    return { instances, textLeaks, views, battery };
  }
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
