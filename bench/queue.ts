/**
 * Queue-run throughput: the reference agent over a fixed set of episodes (`--render always`),
 * coordinated over BullMQ on a real redis-server on loopback, with 1, 2 and 4 `spaceact worker`
 * processes on this machine; episodes per minute and the ratio to one worker, measured in the
 * same run. A serial run in one process (no queue) is measured too, for the queue's own cost.
 * Workers are started and ready (Chromium launched lazily by the first episode) before the
 * clock starts; each configuration writes a fresh run folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseMode } from '../agents/modes.ts';
import { runInstances } from '../agents/runner.ts';
import { RedisServer } from '../test/support/redis-server.ts';
import { verifyAll, type VerifyAllOptions } from '../verify/verify-all.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'bin', 'spaceact.mjs');

/** Short episodes from several families (one to a few turns each with the reference agent). */
const EPISODES = ['P6-L1-s100', 'P6-L3-s100', 'V1-L3-s100', 'V1-L5-s100', 'A6-L3-s100', 'M1-L3-s100', 'T1-L3-s100', 'A1-L3-s100'];

/** Starts a worker process and resolves once it waits for episodes. */
function startWorker(url: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [CLI, 'worker', '--queue', url], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('waiting for episodes')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`a worker exited (${code}) before it was ready:\n${out}`)));
  });
}

async function stopWorkers(workers: ChildProcess[]): Promise<void> {
  await Promise.all(
    workers.map((w) => new Promise<void>((resolve) => {
      if (w.exitCode !== null || w.signalCode !== null) return resolve();
      w.once('exit', () => resolve());
      w.kill('SIGTERM');
    })),
  );
}

/** Episodes per minute of one run over {@link EPISODES} into a fresh folder. */
async function episodesPerMinute(dir: string, name: string, queue?: string): Promise<number> {
  const started = performance.now();
  const summary = await runInstances({
    instances: EPISODES,
    agent: { name: 'reference', options: {} },
    mode: parseMode('default'),
    out: join(dir, name),
    render: 'always',
    ...(queue ? { queue } : {}),
  });
  const minutes = (performance.now() - started) / 60_000;
  if (summary.totals.solved !== EPISODES.length) throw new Error(`${name}: ${summary.totals.solved}/${EPISODES.length} solved`);
  return EPISODES.length / minutes;
}

/** Throughput with 1, 2 and 4 workers as a ratio to one worker; the serial in-process run beside it. */
export async function benchQueue(): Promise<Record<string, unknown>> {
  const redis = await RedisServer.start();
  const dir = mkdtempSync(join(tmpdir(), 'spaceact-bench-queue-'));
  const perMinute: Record<string, number> = {};
  try {
    perMinute.serialInProcess = await episodesPerMinute(dir, 'serial');
    for (const n of [1, 2, 4]) {
      const workers = await Promise.all(Array.from({ length: n }, () => startWorker(redis.url)));
      try {
        perMinute[`workers${n}`] = await episodesPerMinute(dir, `queue-${n}`, redis.url);
      } finally {
        await stopWorkers(workers);
      }
    }
  } finally {
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const one = perMinute.workers1;
  const round = (x: number): number => Number(x.toFixed(2));
  return {
    episodes: EPISODES.length,
    agent: 'reference',
    render: 'always',
    cores: (await import('node:os')).availableParallelism(),
    episodesPerMinute: Object.fromEntries(Object.entries(perMinute).map(([k, v]) => [k, round(v)])),
    ratioToOneWorker: { workers1: 1, workers2: round(perMinute.workers2 / one), workers4: round(perMinute.workers4 / one) },
    oneWorkerToSerial: round(one / perMinute.serialInProcess),
  };
}

/**
 * A verification of several families' released instances, their text checks and a small
 * battery (no adaptive agents): about thirty pieces of unequal size, like a full `verify`.
 */
const VERIFY_SELECTION: VerifyAllOptions = {
  instances: ['B1', 'P6', 'V1', 'M1', 'A6'].flatMap((f) => ['L3', 'L5', 'L7'].map((t) => `${f}-${t}-s100`)),
  randomSeeds: 2,
  textSeeds: 4,
  batterySeeds: 4,
  batteryTraining: 4,
  batterySkipAdaptive: true,
  batteryFamilies: ['B1', 'P6', 'V1', 'M1'],
  viewRule: false,
};

/**
 * `verify --queue` wall time with 1 and 2 `spaceact worker` processes on this machine (the same
 * verification each time), and the ratio of the two: what a second worker buys. A local
 * `verify --concurrency 2` is timed beside them, for the queue's own cost.
 */
export async function benchVerifyQueue(): Promise<Record<string, unknown>> {
  const redis = await RedisServer.start();
  const wall: Record<string, number> = {};
  try {
    let started = performance.now();
    await verifyAll({ ...VERIFY_SELECTION, concurrency: 2 });
    wall.localConcurrency2 = (performance.now() - started) / 1000;
    for (const n of [1, 2]) {
      const workers = await Promise.all(Array.from({ length: n }, () => startWorker(redis.url)));
      try {
        started = performance.now();
        const r = await verifyAll({ ...VERIFY_SELECTION, queue: redis.url });
        wall[`workers${n}`] = (performance.now() - started) / 1000;
        if (r.instances.some((i) => !i.verified)) throw new Error(`workers${n}: an instance failed to verify`);
      } finally {
        await stopWorkers(workers);
      }
    }
  } finally {
    await redis.stop();
  }
  const round = (x: number): number => Number(x.toFixed(2));
  return {
    instances: VERIFY_SELECTION.instances.length,
    batteryFamilies: VERIFY_SELECTION.batteryFamilies!.length,
    cores: (await import('node:os')).availableParallelism(),
    wallSeconds: Object.fromEntries(Object.entries(wall).map(([k, v]) => [k, round(v)])),
    oneWorkerToTwo: round(wall.workers1 / wall.workers2),
    twoWorkersToLocalConcurrency2: round(wall.workers2 / wall.localConcurrency2),
  };
}

/** Ids of the summary-append run: one family quick to generate and play, 2,000 seeds. */
const APPEND_IDS = Array.from({ length: Number(process.env.SPACEACT_BENCH_APPEND_EPISODES ?? 2000) }, (_, i) => `P6-L1-s${i + 1}`);

/**
 * Cost per episode over a long run (issue 37): the reference agent over 2,000 instances
 * (`--render never`, in this process), episodes per second over the first and the last hundred
 * episodes, every hundred's rate, and the median of the last five hundreds over that of the
 * first five (steadier than one window each on a shared machine). A summary rewritten whole
 * after every episode made this fall as the run grew; the ratios should stay within 10 % of 1. `SPACEACT_BENCH_APPEND_EPISODES=N` runs N
 * episodes instead (at least 201), for a quick look on a busy machine.
 */
export async function benchSummaryAppend(): Promise<Record<string, unknown>> {
  if (!(APPEND_IDS.length >= 201)) throw new Error('SPACEACT_BENCH_APPEND_EPISODES must be at least 201');
  const dir = mkdtempSync(join(tmpdir(), 'spaceact-bench-append-'));
  const times: number[] = [];
  const started = performance.now();
  try {
    const summary = await runInstances({
      instances: APPEND_IDS,
      agent: { name: 'reference', options: {} },
      mode: parseMode('default'),
      out: join(dir, 'run'),
      render: 'never',
      onEpisode: () => times.push(performance.now()),
    });
    if (summary.totals.episodes !== APPEND_IDS.length) throw new Error(`${summary.totals.episodes}/${APPEND_IDS.length} episodes`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // A hundred episodes between two episode ends (the first end is past the one-time start-up: the physics engine's compilation, module loading).
  const perSecond = (from: number): number => 100 / ((times[from + 100] - times[from]) / 1000);
  const first = perSecond(0);
  const last = perSecond(times.length - 101);
  const round = (x: number): number => Number(x.toFixed(2));
  // One hundred episodes is 25 s here, and a shared machine moves a 25 s window by ±10 %: the
  // rate of every hundred is printed, and the medians of the first and the last five compared.
  const hundreds = Array.from({ length: Math.floor((times.length - 1) / 100) }, (_, k) => round(perSecond(k * 100)));
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const span = Math.min(5, Math.floor(hundreds.length / 2));
  const medianRatio = median(hundreds.slice(-span)) / median(hundreds.slice(0, span));
  return {
    episodes: times.length,
    agent: 'reference',
    render: 'never',
    seconds: round((performance.now() - started) / 1000),
    episodesPerSecond: { first100: round(first), last100: round(last), everyHundred: hundreds },
    lastToFirst: round(last / first),
    lastFiveToFirstFive: round(medianRatio),
  };
}
