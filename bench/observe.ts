/**
 * Observation and memory, per family: each family's main instance (its hardest released
 * instance) measured by bench/support/family-cost.ts in a process of its own, one after the
 * other (one browser at a time, so each peak is that family's alone):
 *
 * - the reference episode with every turn rendered, split into physics, checks, render,
 *   encode and agent;
 * - the first observation drawn cold against a bare three.js page drawing the same scenes in
 *   the same browser (`ratioToBare` in wall time, `cpuRatioToBare` in CPU time of the browser
 *   and Node — steadier on a shared machine; target ≤ 1.2), and where its time goes
 *   (`coldSplitMs`, `bareSplitMs`); `bestRatioToBare` is fastest sample over fastest sample;
 * - the browser's peak memory (`browserPeakRssMB`: resident memory summed over its processes,
 *   shared pages counted in each — an upper bound; `browserPeakPssMB`: shared pages split —
 *   what the browser really holds; target < 800 MB; bench/support/memory.ts) and Node's own
 *   peak resident memory (`nodePeakRssMB`) with the browser running beside it.
 *
 *   npx tsx bench/run.ts observe
 *   BENCH_FAMILIES=V1,P6 npx tsx bench/run.ts observe   # a subset
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { suiteInstances } from '../tasks/suites.ts';

const entry = join(dirname(fileURLToPath(import.meta.url)), 'support', 'family-cost.ts');

/** One family's cost, from a child process (its peak memory is its own). */
function measure(id: string): Promise<Record<string, any>> {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', tsx, entry, id], { maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${id}: ${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split('\n').pop()!));
    });
  });
}

/** Per-family observation cost against bare three.js, and browser peak memory. */
export async function benchObserve(): Promise<Record<string, unknown>> {
  const only = (process.env.BENCH_FAMILIES ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const ids = suiteInstances('main').filter((id) => !only.length || only.includes(id.split('-')[0]));
  const perFamily: Record<string, unknown> = {};
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  const bestRatios: number[] = [];
  const rss: number[] = [];
  const pss: number[] = [];
  const node: number[] = [];
  const errors: string[] = [];
  for (const id of ids) {
    process.stderr.write(`bench: observe ${id} …\n`);
    try {
      const r = await measure(id);
      perFamily[id] = r;
      ratios.push(r.observation.ratioToBare);
      cpuRatios.push(r.observation.cpuRatioToBare);
      bestRatios.push(r.observation.bestRatioToBare);
      rss.push(r.memory.browserPeakRssMB);
      pss.push(r.memory.browserPeakPssMB);
      node.push(r.memory.nodePeakRssMB);
    } catch (err) {
      errors.push(err instanceof Error ? err.message : String(err));
    }
  }
  const worst = (xs: number[]): number | null => (xs.length ? Math.max(...xs) : null);
  const median = (xs: number[]): number | null => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] : null);
  return {
    families: ids.length,
    measured: ratios.length,
    observationRatioToBare: { median: median(ratios), worst: worst(ratios), atOrUnder1_2: ratios.filter((x) => x <= 1.2).length },
    observationBestRatioToBare: { median: median(bestRatios), worst: worst(bestRatios), atOrUnder1_2: bestRatios.filter((x) => x <= 1.2).length },
    observationCpuRatioToBare: { median: median(cpuRatios), worst: worst(cpuRatios), atOrUnder1_2: cpuRatios.filter((x) => x <= 1.2).length },
    browserPeakRssMB: { median: median(rss), worst: worst(rss), under800: rss.filter((x) => x < 800).length },
    browserPeakPssMB: { median: median(pss), worst: worst(pss), under800: pss.filter((x) => x < 800).length },
    nodePeakRssMB: { median: median(node), worst: worst(node) },
    perFamily,
    ...(errors.length ? { errors } : {}),
  };
}
