/**
 * Computes the reference path length of every task in the `rota` pool and writes
 * `rota-pool.json` beside this file (run it again after any change that bumps V5's version):
 *
 *   npx tsx tasks/perception/v5-projection-alignment/build-rota-pool.ts [--workers N]
 *
 * Each worker process takes every N-th seed; the parent merges their lines in seed order.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { v5ProjectionAlignment } from './family.ts';
import { findReference } from './search.ts';
import { ROTA_POOL_FILE, ROTA_POOL_SEEDS, ROTA_TIER, type RotaPool, type RotaPoolEntry } from './rota-suite.ts';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const seeds: number[] = [];
for (let s = ROTA_POOL_SEEDS[0]; s <= ROTA_POOL_SEEDS[1]; s++) seeds.push(s);

if (process.argv.includes('--shard')) {
  // Worker: one JSON line per seed on stdout.
  const shard = option('--shard', 0);
  const of = option('--of', 1);
  for (const seed of seeds.filter((_, i) => i % of === shard)) {
    const instance = v5ProjectionAlignment.generate(seed, ROTA_TIER);
    const ref = findReference(instance.scene);
    const entry: RotaPoolEntry = { seed, length: ref.path.length, source: ref.source };
    process.stdout.write(JSON.stringify(entry) + '\n');
  }
} else {
  const workers = option('--workers', 2);
  const started = performance.now();
  const lines: RotaPoolEntry[] = [];
  await Promise.all(
    Array.from({ length: workers }, (_, shard) =>
      new Promise<void>((resolve, reject) => {
        const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--shard', String(shard), '--of', String(workers)], {
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let buffer = '';
        child.stdout.on('data', (chunk: Buffer) => {
          buffer += chunk.toString();
          let nl: number;
          while ((nl = buffer.indexOf('\n')) >= 0) {
            const entry = JSON.parse(buffer.slice(0, nl)) as RotaPoolEntry;
            buffer = buffer.slice(nl + 1);
            lines.push(entry);
            if (lines.length % 25 === 0) process.stderr.write(`${lines.length}/${seeds.length} tasks, ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
          }
        });
        child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`worker ${shard} exited with ${code}`))));
      }),
    ),
  );
  lines.sort((a, b) => a.seed - b.seed);
  const pool: RotaPool = { family: 'V5', version: v5ProjectionAlignment.version, tier: ROTA_TIER, entries: lines };
  writeFileSync(ROTA_POOL_FILE, JSON.stringify(pool, null, 1) + '\n');
  process.stderr.write(`wrote ${ROTA_POOL_FILE}: ${lines.length} tasks in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
}
