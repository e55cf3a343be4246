/**
 * Runs every benchmark module in `bench/` (each `bench/*.ts` except this file exports one or
 * more `async function bench…(): Promise<Record<string, unknown>>`), then prints the figures as
 * JSON and as a table of `module.path = value` lines.
 *
 *   npx tsx bench/run.ts            # all modules
 *   npx tsx bench/run.ts sim render # only bench/sim.ts and bench/render.ts
 *   npx tsx bench/run.ts --json     # JSON only
 *
 * A module that throws is reported with its error and does not stop the others; the exit code
 * is then 1.
 */
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { applyV8Flags } from '../core/v8-flags.ts';

type BenchFn = () => Promise<Record<string, unknown>>;

const here = dirname(fileURLToPath(import.meta.url));
const self = basename(fileURLToPath(import.meta.url));

/** Benchmark module names (file names without `.ts`), sorted. */
export function benchModules(): string[] {
  return readdirSync(here, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && e.name !== self && !e.name.endsWith('.d.ts'))
    .map((e) => e.name.slice(0, -3))
    .sort();
}

/** Flattens nested figures into `[path, value]` rows. */
function rows(value: unknown, path: string, out: Array<[string, string]>): void {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) rows(v, path ? `${path}.${k}` : k, out);
  } else {
    out.push([path, Array.isArray(value) ? JSON.stringify(value) : String(value)]);
  }
}

/** Runs the selected modules' `bench*` exports in order. */
export async function runBenches(only: string[] = []): Promise<{ results: Record<string, unknown>; failed: boolean }> {
  const all = benchModules();
  const unknown = only.filter((m) => !all.includes(m));
  if (unknown.length) throw new Error(`unknown bench module(s): ${unknown.join(', ')} (have: ${all.join(', ')})`);
  const results: Record<string, unknown> = {};
  let failed = false;
  for (const name of all.filter((m) => !only.length || only.includes(m))) {
    const mod = (await import(pathToFileURL(join(here, `${name}.ts`)).href)) as Record<string, unknown>;
    const fns = Object.entries(mod).filter((e): e is [string, BenchFn] => /^bench[A-Z0-9]/.test(e[0]) && typeof e[1] === 'function');
    for (const [fnName, fn] of fns) {
      const key = fns.length === 1 ? name : `${name}.${fnName}`;
      const started = performance.now();
      process.stderr.write(`bench: ${key} …\n`);
      try {
        results[key] = { ...(await fn()), benchSeconds: Number(((performance.now() - started) / 1000).toFixed(2)) };
      } catch (err) {
        failed = true;
        results[key] = { error: err instanceof Error ? err.message : String(err) };
      }
    }
  }
  return { results, failed };
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  // The product's V8 settings, as the CLI and its workers run with (core/v8-flags.ts).
  applyV8Flags();
  const args = process.argv.slice(2);
  const jsonOnly = args.includes('--json');
  const { results, failed } = await runBenches(args.filter((a) => !a.startsWith('--')));
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  if (!jsonOnly) {
    const table: Array<[string, string]> = [];
    rows(results, '', table);
    const width = Math.max(...table.map(([k]) => k.length));
    process.stdout.write(`\n${table.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n')}\n`);
  }
  if (failed) process.exitCode = 1;
}
