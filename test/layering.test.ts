import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importGraph, repositoryTypeScript, runtimeCycles, type ImportEdge } from './support/import-graph.ts';

/**
 * The layers, lowest first: a file may import from its own folder and from folders listed
 * before it, never after it. `report/` and `play/` are peers (neither imports the other);
 * root files (the package entry `index.ts`) sit on top; `test/` and `bench/` may import
 * anything.
 */
const LAYERS: ReadonlyArray<readonly string[]> = [['core'], ['sim'], ['render'], ['solvers'], ['tasks'], ['agents'], ['verify'], ['report', 'play'], ['cli'], ['(root)']];
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
// Tests, benchmarks and examples may import any layer; they are type-checked all the same.
const FREE = new Set(['test', 'bench', 'examples']);
const ORDER_TEXT = 'core → sim → render → solvers → tasks → agents → verify → report / play → cli';

function folderOf(file: string): string {
  return file.includes('/') ? file.slice(0, file.indexOf('/')) : '(root)';
}

function rankOf(folder: string): number {
  return LAYERS.findIndex((l) => l.includes(folder));
}

/** Why an edge breaks the layering, or null. */
function problemOf(e: ImportEdge): string | null {
  if (e.to === null) return null;
  const from = folderOf(e.from);
  const to = folderOf(e.to);
  if (FREE.has(from)) return null;
  if (e.to.startsWith('render/page/') && !e.from.startsWith('render/')) return 'render/page/ is browser code: only render/ may import it';
  if (from === to) return null;
  const rf = rankOf(from);
  const rt = rankOf(to);
  if (rf < 0) return `${from}/ is not a layer (add it to LAYERS in test/layering.test.ts)`;
  if (rt < 0) return `${to}/ is not a layer that code may import`;
  if (rt === rf) return `${from}/ and ${to}/ are peers and must not import each other`;
  if (rt > rf) return `${from}/ may not import ${to}/, which is above it`;
  return null;
}

describe('layering (every import against the layer order)', () => {
  const graph = importGraph();

  it('type-checks every TypeScript file of the repository (none escapes the check)', () => {
    const inProgram = new Set(graph.files);
    const missing = repositoryTypeScript().filter((f) => !inProgram.has(f));
    expect(missing, `not in tsconfig.json's program: ${missing.join(', ')}`).to.deep.equal([]);
  });

  it(`has no import against ${ORDER_TEXT}`, () => {
    const bad = graph.edges
      .map((e) => ({ e, why: problemOf(e) }))
      .filter((x): x is { e: ImportEdge; why: string } => x.why !== null)
      .map(({ e, why }) => `${e.from}:${e.line} imports '${e.specifier}': ${why}`);
    expect(bad, `imports against the layer order:\n  ${bad.join('\n  ')}`).to.deep.equal([]);
  });

  it('has no cycle of runtime imports between files (type-only imports are erased and may meet)', () => {
    const cycles = runtimeCycles(graph.files.filter((f) => !FREE.has(folderOf(f))), graph.edges.filter((e) => !FREE.has(folderOf(e.from))));
    expect(cycles.map((c) => c.join(' ↔ '))).to.deep.equal([]);
  });

  it('tells type-only imports from runtime ones', () => {
    const of = (from: string, to: string): ImportEdge | undefined => graph.edges.find((e) => e.from === from && e.to === to);
    expect(of('tasks/types.ts', 'tasks/sightless.ts')?.typeOnly).to.equal(true);
    expect(of('agents/runner.ts', 'agents/worker-pool.ts')?.typeOnly).to.equal(false);
    expect(runtimeCycles(['a.ts', 'b.ts'], [{ from: 'a.ts', to: 'b.ts', line: 1, specifier: './b.ts', typeOnly: false }, { from: 'b.ts', to: 'a.ts', line: 1, specifier: './a.ts', typeOnly: false }])).to.deep.equal([['a.ts', 'b.ts']]);
  });

  it('resolves every relative import to a file of the program', () => {
    const inProgram = new Set(graph.files);
    const bad = graph.edges.filter((e) => e.to !== null && !inProgram.has(e.to)).map((e) => `${e.from}:${e.line} '${e.specifier}'`);
    expect(bad).to.deep.equal([]);
  });

  it('generation is pure: no Math.random, Date.now or performance.now in tasks/ (tools run by hand excepted)', () => {
    // Generators, solvers and episodes under tasks/ must be functions of (family, tier, seed) and
    // the calls made: a clock or an unseeded random number there makes one instance two tasks.
    // A build script run by hand (its name starts with build-) may time itself.
    const banned = /\b(Math\.random|Date\.now|performance\.now)\s*\(/;
    const bad: string[] = [];
    for (const file of graph.files.filter((f) => f.startsWith('tasks/') && !/\/build-[^/]*\.ts$/.test(f))) {
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          const code = line.replace(/\/\/.*$/, '');
          const m = banned.exec(code);
          if (m && !/^\s*\*/.test(line)) bad.push(`${file}:${i + 1} calls ${m[1]}`);
        });
    }
    expect(bad, `impure calls under tasks/:\n  ${bad.join('\n  ')}`).to.deep.equal([]);
  });

  it('finds the imports it checks (a file known to import across layers is seen)', () => {
    // Guards the check itself: an empty or partial parse would pass the test above vacuously.
    const runner = graph.edges.filter((e) => e.from === 'agents/runner.ts').map((e) => e.to);
    expect(runner).to.include('tasks/registry.ts');
    expect(problemOf({ from: 'sim/world.ts', line: 1, specifier: '../tasks/types.ts', to: 'tasks/types.ts', typeOnly: true })).to.match(/above it/);
    expect(problemOf({ from: 'play/play.ts', line: 1, specifier: '../report/html.ts', to: 'report/html.ts', typeOnly: false })).to.match(/peers/);
    expect(problemOf({ from: 'tasks/x/y.ts', line: 1, specifier: '../../render/page/camera.ts', to: 'render/page/camera.ts', typeOnly: false })).to.match(/browser/);
    expect(problemOf({ from: 'test/x.test.ts', line: 1, specifier: '../cli/main.ts', to: 'cli/main.ts', typeOnly: false })).to.equal(null);
  });
});
