/**
 * Verification benchmarks: how long `spaceact verify` takes per released instance and in all,
 * in this process and with two worker processes (`--concurrency 2`, as a ratio to one worker,
 * measured in the same run; target ≤ 0.6), the exact-cover packing count of the Soma cube
 * against a plain backtracking count of the same packings, and what the shortcut battery costs
 * per family, tier and seed (adaptive agents apart).
 */
import { ADAPTIVE_STRATEGIES } from '../agents/sightless/adaptive.ts';
import { SHARED_STRATEGIES } from '../agents/sightless/shared.ts';
import { families } from '../tasks/registry.ts';
import { suiteInstances } from '../tasks/suites.ts';
import { runBattery } from '../verify/battery.ts';
import { countPackings, orientations, type Cell } from '../solvers/polycube.ts';
import { DEFAULT_RANDOM_SEEDS, DEFAULT_RANDOM_TURNS } from '../verify/verify.ts';
import { verifyAll } from '../verify/verify-all.ts';

/** The seven Soma pieces. */
const SOMA: Cell[][] = [
  [[0, 0, 0], [1, 0, 0], [0, 1, 0]],
  [[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0]],
  [[0, 0, 0], [1, 0, 0], [2, 0, 0], [1, 1, 0]],
  [[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 1, 0]],
  [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]],
  [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 0, 1]],
  [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 1, 1]],
];

function cube(n: number): Cell[] {
  const out: Cell[] = [];
  for (let x = 0; x < n; x++) for (let y = 0; y < n; y++) for (let z = 0; z < n; z++) out.push([x, y, z]);
  return out;
}

/** Every placement of each piece in an n×n×n cube, as a 27-bit occupancy mask (n ≤ 3). */
function placementMasks(pieces: Cell[][], n: number): Array<Array<{ mask: number; low: number }>> {
  return pieces.map((piece) => {
    const out: Array<{ mask: number; low: number }> = [];
    for (const o of orientations(piece)) {
      for (let dx = 0; dx < n; dx++) for (let dy = 0; dy < n; dy++) for (let dz = 0; dz < n; dz++) {
        let mask = 0;
        let low = Infinity;
        let fits = true;
        for (const [x, y, z] of o) {
          const [X, Y, Z] = [x + dx, y + dy, z + dz];
          if (X >= n || Y >= n || Z >= n) {
            fits = false;
            break;
          }
          const i = (X * n + Y) * n + Z;
          mask |= 1 << i;
          low = Math.min(low, i);
        }
        if (fits) out.push({ mask, low });
      }
    }
    return out;
  });
}

/** The simple baseline: place the pieces one after another, each in every placement that fits. */
function plainBacktrackCount(pieces: Cell[][], n: number): number {
  const masks = placementMasks(pieces, n).map((list) => list.map((p) => p.mask));
  let count = 0;
  const search = (p: number, filled: number): void => {
    if (p === masks.length) {
      count++;
      return;
    }
    for (const m of masks[p]) if ((filled & m) === 0) search(p + 1, filled | m);
  };
  search(0, 0);
  return count;
}

/**
 * A tuned bitset backtracking for comparison: fill the lowest empty cell with every unused
 * piece placement whose lowest cell it is (the cell-column order Algorithm X would pick in a
 * fixed order, with no links).
 */
function lowestCellCount(pieces: Cell[][], n: number): number {
  const all = placementMasks(pieces, n);
  const byCell: number[][][] = Array.from({ length: n ** 3 }, () => pieces.map(() => []));
  all.forEach((list, p) => list.forEach(({ mask, low }) => byCell[low][p].push(mask)));
  const full = (1 << n ** 3) - 1;
  let count = 0;
  const search = (filled: number, used: number): void => {
    if (filled === full) {
      count++;
      return;
    }
    let c = 0;
    while (filled & (1 << c)) c++;
    for (let p = 0; p < pieces.length; p++) {
      if (used & (1 << p)) continue;
      for (const m of byCell[c][p]) if ((filled & m) === 0) search(filled | m, used | (1 << p));
    }
  };
  search(0, 0);
  return count;
}

const round2 = (x: number): number => Math.round(x * 100) / 100;
const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

function time<T>(fn: () => T): { value: T; ms: number } {
  const t = performance.now();
  const value = fn();
  return { value, ms: Math.round((performance.now() - t) * 10) / 10 };
}

/** Verify-all timing and the Soma exact-cover comparison. */
export async function benchVerify(): Promise<Record<string, unknown>> {
  // Warm every search once so none pays for the JIT alone.
  countPackings(SOMA, cube(3), { limit: 10 });
  lowestCellCount(SOMA.slice(0, 1), 1);
  plainBacktrackCount(SOMA.slice(0, 1), 1);
  const dlx = time(() => countPackings(SOMA, cube(3)).count);
  const plain = time(() => plainBacktrackCount(SOMA, 3));
  const lowest = time(() => lowestCellCount(SOMA, 3));
  if (dlx.value !== plain.value || dlx.value !== lowest.value) {
    throw new Error(`Soma counts disagree: exact cover ${dlx.value}, plain ${plain.value}, lowest-cell ${lowest.value}`);
  }

  const ids = suiteInstances('all');
  let started = performance.now();
  const cpuBefore = process.cpuUsage();
  let serialUnitCpu: number[] = [];
  const results = (await verifyAll({ instances: ids, concurrency: 1, onUnitCpu: (s) => (serialUnitCpu = s) })).instances;
  const serialCpu = process.cpuUsage(cpuBefore);
  const serialCpuSeconds = (serialCpu.user + serialCpu.system) / 1e6;
  const totalSeconds = Math.round((performance.now() - started) / 10) / 100;
  started = performance.now();
  let workerCpu: number[] = [];
  let workerStartupCpu: number[] = [];
  let parallelUnitCpu: number[] = [];
  const parentCpuBefore = process.cpuUsage();
  const parallel = (
    await verifyAll({
      instances: ids,
      concurrency: 2,
      onUnitCpu: (s) => (parallelUnitCpu = s),
      onWorkerCpu: (s, startup) => {
        workerCpu = s;
        workerStartupCpu = startup;
      },
    })
  ).instances;
  const parentCpu = process.cpuUsage(parentCpuBefore);
  const parentCpuSeconds = (parentCpu.user + parentCpu.system) / 1e6;
  const twoWorkerSeconds = Math.round((performance.now() - started) / 10) / 100;
  // On a machine other work saturates, wall time shows the scheduler's share, not the split:
  // with autogroup scheduling one session gets the same CPU with 1 or 2 workers. The busier
  // worker's CPU time (start-up included) against the serial run's CPU time is what two
  // free cores would give; the sum over the workers and the parent (which hands out the jobs)
  // against the serial run's is the work the split duplicates.
  const busiestWorkerCpu = workerCpu.length ? Math.max(...workerCpu) : NaN;
  const twoWorkerCpuSum = workerCpu.reduce((a, b) => a + b, 0) + parentCpuSeconds;
  const strip = (x: unknown): string => JSON.stringify(x, (k, v: unknown) => (k === 'seconds' ? undefined : v));
  if (strip(parallel) !== strip(results)) throw new Error('verify with 2 workers gave other records than with 1');
  return {
    soma: {
      packings: dlx.value,
      exactCoverMs: dlx.ms,
      plainBacktrackingMs: plain.ms,
      exactCoverSpeedupVsPlain: Math.round((plain.ms / Math.max(dlx.ms, 0.1)) * 10) / 10,
      lowestCellBitsetMs: lowest.ms,
      exactCoverSpeedupVsLowestCell: Math.round((lowest.ms / Math.max(dlx.ms, 0.1)) * 100) / 100,
    },
    verify: {
      instances: ids.length,
      verified: results.filter((r) => r.verified).length,
      randomSeeds: DEFAULT_RANDOM_SEEDS,
      randomTurns: DEFAULT_RANDOM_TURNS,
      totalSeconds,
      twoWorkerSeconds,
      twoWorkersRatioToOne: Math.round((twoWorkerSeconds / totalSeconds) * 100) / 100,
      serialCpuSeconds: Math.round(serialCpuSeconds * 100) / 100,
      workerCpuSeconds: workerCpu.map((x) => Math.round(x * 100) / 100),
      workerStartupCpuSeconds: workerStartupCpu.map((x) => Math.round(x * 100) / 100),
      parentCpuSecondsWithTwoWorkers: Math.round(parentCpuSeconds * 100) / 100,
      // The instances' own CPU time, summed, in one process and split over two: what the
      // split adds inside the work (each process compiling and warming up the same code)
      // rather than around it (start-up), and the instances it adds most to.
      instancesCpuSecondsSerial: round2(sum(serialUnitCpu)),
      instancesCpuSecondsTwoWorkers: round2(sum(parallelUnitCpu)),
      mostAddedCpuSeconds: Object.fromEntries(
        ids
          .map((id, i) => [id, round2(parallelUnitCpu[i] - serialUnitCpu[i])] as const)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 8),
      ),
      twoWorkersCpuSumRatioToOne: Math.round((twoWorkerCpuSum / serialCpuSeconds) * 100) / 100,
      twoWorkersCpuCriticalPathRatioToOne: Math.round((busiestWorkerCpu / serialCpuSeconds) * 100) / 100,
      meanSecondsPerInstance: ids.length ? Math.round((totalSeconds / ids.length) * 100) / 100 : 0,
      perInstance: Object.fromEntries(results.map((r) => [r.instance, r.seconds])),
    },
  };
}

/** Judged seeds per tier of the battery cost bench (`SPACEACT_BENCH_BATTERY_SEEDS`, default 3). */
const BATTERY_BENCH_SEEDS = Number(process.env.SPACEACT_BENCH_BATTERY_SEEDS ?? 3);

/**
 * What the shortcut battery costs per family and tier — what an author's family adds to
 * `spaceact verify` — with the adaptive agents (which draw candidate pools and simulate worlds)
 * apart from the rest. One battery run per family at `SPACEACT_BENCH_BATTERY_SEEDS` judged seeds
 * per tier; the per-seed figures divide the tier's whole cost by that count, so they include
 * the tier's fixed work (candidate pools, fitting) and fall as the count grows: compare families
 * at the same count. Every registered family, or those in `SPACEACT_FAMILIES` (comma-separated,
 * as the check-suite reads it).
 */
export async function benchBatteryCost(): Promise<Record<string, unknown>> {
  const only = (process.env.SPACEACT_FAMILIES ?? '').split(',').map((x) => x.trim().toUpperCase()).filter(Boolean);
  const seeds = Math.max(1, Math.floor(BATTERY_BENCH_SEEDS));
  const perFamily: Record<string, unknown> = {};
  let total = 0;
  for (const family of families().filter((f) => only.length === 0 || only.includes(f.id))) {
    const adaptive = new Set([...SHARED_STRATEGIES, ...ADAPTIVE_STRATEGIES, ...(family.sightless ?? [])].filter((s) => s.adaptive).map((s) => s.name));
    const reports = await runBattery(family, { seeds, certifyReferences: seeds });
    const tiers: Record<string, unknown> = {};
    for (const r of reports) {
      total += r.seconds;
      const cpu = (pick: (name: string) => boolean): number => round2(sum(r.agents.filter((a) => pick(a.name)).map((a) => a.cpuSeconds)) / seeds);
      tiers[r.tier] = {
        tierSeconds: round2(r.seconds),
        secondsPerSeed: round2(r.seconds / seeds),
        adaptiveCpuSecondsPerSeed: cpu((n) => adaptive.has(n)),
        otherAgentsCpuSecondsPerSeed: cpu((n) => !adaptive.has(n)),
        referenceSecondsPerSeed: round2(r.referenceSeconds / seeds),
      };
    }
    perFamily[family.id] = tiers;
  }
  return { seedsPerTier: seeds, families: Object.keys(perFamily).length, totalSeconds: round2(total), perFamily };
}
