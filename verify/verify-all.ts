/**
 * `spaceact verify` as one call: the per-instance checks of a selection and the shortcut
 * battery of its families, in this process or spread over worker processes
 * (`--concurrency N`, the same process pool as parallel runs: agents/process-pool.ts). Every
 * piece of work is deterministic and independent of the others, so the parallel result is
 * the serial one — the same records in the same order — but for the `seconds` fields.
 */
import { fileURLToPath } from 'node:url';
import { SpaceActError } from '../core/errors.ts';
import { runProcessPool } from '../agents/process-pool.ts';
import { getFamily, tiersOf } from '../tasks/registry.ts';
import { instanceFromId } from '../tasks/registry.ts';
import type { Tier } from '../tasks/types.ts';
import { runBattery, type BatteryReport } from './battery.ts';
import { verifyInstance, verifyInstances, type VerifyResult } from './verify.ts';

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
}

/** Options of {@link verifyAll}. */
export interface VerifyAllOptions extends VerifySettings {
  /** Instance ids to verify. */
  instances: string[];
  /** Family ids whose battery to run (every tier each defines); ignored without `batterySeeds`. */
  batteryFamilies?: string[];
  /** Worker processes (default 1: everything in this process). */
  concurrency?: number;
  /** Each instance's verdict, in the order of `instances`. */
  onResult?(r: VerifyResult, done: number, total: number): void;
  /** Each family × tier's battery report, in family then tier order, after every instance. */
  onBatteryReport?(r: BatteryReport): void;
  /** With worker processes: the CPU seconds each used, start-up included (benchmarks). */
  onWorkerCpu?(seconds: number[]): void;
}

/** The whole verdict: per instance, and per family × tier of the battery. */
export interface VerifyAllResult {
  instances: VerifyResult[];
  battery: BatteryReport[];
}

/** One piece of a parallel verification. */
export type VerifyJob = { kind: 'instance'; id: string } | { kind: 'battery'; family: string; tier: Tier };

/** What a verify worker sends back for a job. */
export type VerifyJobResult = { kind: 'instance'; result: VerifyResult } | { kind: 'battery'; report: BatteryReport };

const WORKER_ENTRY = fileURLToPath(new URL('./verify-worker.ts', import.meta.url));

/** Runs one job (in a worker, or in this process). */
export async function runVerifyJob(job: VerifyJob, settings: VerifySettings): Promise<VerifyJobResult> {
  if (job.kind === 'instance') {
    const { family, instance } = instanceFromId(job.id);
    return { kind: 'instance', result: await verifyInstance(family, instance, settings) };
  }
  const [report] = await runBattery(getFamily(job.family), {
    seeds: settings.batterySeeds ?? 0,
    ...(settings.batteryTraining !== undefined ? { training: settings.batteryTraining } : {}),
    tiers: [job.tier],
  });
  return { kind: 'battery', report };
}

/**
 * The order jobs are handed out in: longest first, so that no worker starts a long job when
 * the others are nearly done. Battery tiers run many seeds each and come first, hardest tier
 * first (their generators and episodes cost the most); single instances fill in after them.
 */
function handOutOrder(jobs: VerifyJob[]): number[] {
  const rank = (j: VerifyJob): number => (j.kind === 'battery' ? 0 : 1);
  const tierOf = (j: VerifyJob): string => (j.kind === 'battery' ? j.tier : (/-(L\d+)-/.exec(j.id)?.[1] ?? ''));
  const tierNumber = (j: VerifyJob): number => Number(tierOf(j).slice(1)) || 0;
  return jobs
    .map((_, i) => i)
    .sort((a, b) => rank(jobs[a]) - rank(jobs[b]) || tierNumber(jobs[b]) - tierNumber(jobs[a]) || a - b);
}

/**
 * Verifies `instances` and runs the battery of `batteryFamilies`. With `concurrency` > 1 the
 * jobs — one per instance and one per family × tier of the battery — run in that many worker
 * processes (none of them starts a browser: verification renders nothing); results are
 * reported and returned in the serial order.
 */
export async function verifyAll(opts: VerifyAllOptions): Promise<VerifyAllResult> {
  const concurrency = opts.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new SpaceActError('invalid-argument', '--concurrency must be a whole number of at least 1');
  const settings: VerifySettings = {
    ...(opts.randomSeeds !== undefined ? { randomSeeds: opts.randomSeeds } : {}),
    ...(opts.randomTurns !== undefined ? { randomTurns: opts.randomTurns } : {}),
    ...(opts.batterySeeds !== undefined ? { batterySeeds: opts.batterySeeds } : {}),
    ...(opts.batteryTraining !== undefined ? { batteryTraining: opts.batteryTraining } : {}),
  };
  // Resolve every id and family first, so a typo fails before minutes of episodes.
  for (const id of opts.instances) instanceFromId(id);
  const families = (opts.batterySeeds ?? 0) > 0 ? (opts.batteryFamilies ?? []).map((f) => getFamily(f)) : [];
  const jobs: VerifyJob[] = [
    ...opts.instances.map((id): VerifyJob => ({ kind: 'instance', id })),
    ...families.flatMap((f) => tiersOf(f).map((tier): VerifyJob => ({ kind: 'battery', family: f.id, tier }))),
  ];

  if (concurrency === 1 || jobs.length <= 1) {
    const instances = await verifyInstances(opts.instances, { ...settings, ...(opts.onResult ? { onResult: opts.onResult } : {}) });
    const battery: BatteryReport[] = [];
    for (const family of families) {
      await runBattery(family, {
        seeds: opts.batterySeeds!,
        ...(opts.batteryTraining !== undefined ? { training: opts.batteryTraining } : {}),
        onReport: (r) => {
          battery.push(r);
          opts.onBatteryReport?.(r);
        },
      });
    }
    return { instances, battery };
  }

  // Results arrive in completion order; they are reported in job order as soon as every
  // earlier job is in, so the output reads as a serial run's.
  const order = handOutOrder(jobs);
  const results: (VerifyJobResult | undefined)[] = new Array(jobs.length);
  let reported = 0;
  const instances: VerifyResult[] = [];
  const battery: BatteryReport[] = [];
  const flush = (): void => {
    while (reported < jobs.length && results[reported]) {
      const r = results[reported]!;
      if (r.kind === 'instance') {
        instances.push(r.result);
        opts.onResult?.(r.result, instances.length, opts.instances.length);
      } else {
        battery.push(r.report);
        opts.onBatteryReport?.(r.report);
      }
      reported++;
    }
  };
  const stats = await runProcessPool<VerifySettings, VerifyJob, VerifyJobResult>({
    entry: WORKER_ENTRY,
    jobs: order.map((i) => jobs[i]),
    workers: concurrency,
    init: settings,
    onResult(k, result) {
      results[order[k]] = result;
      flush();
    },
    describe: (_, job) => (job.kind === 'instance' ? job.id : `the ${job.family}-${job.tier} battery`),
  });
  opts.onWorkerCpu?.(stats.workerCpuMs.map((ms) => ms / 1000));
  return { instances, battery };
}
