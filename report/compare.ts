import type { RunSummary, SummaryEntry } from '../agents/runner.ts';
import { SpaceActError } from '../core/errors.ts';
import { CATEGORIES, categoryOf, compareFamilies } from '../core/catalog.ts';
import { loadSummary } from './run-data.ts';
import { bootstrapMean, DEFAULT_RESAMPLES, wilson, type Interval } from '../core/statistics.ts';

/** Options of a comparison. */
export interface CompareOptions {
  /** Seed of the bootstrap's generator (default 0): the same seed gives the same intervals. */
  seed?: number;
  /** Bootstrap resamples (default 10,000). */
  resamples?: number;
}

/** One side's success over the paired instances. */
export interface SideSuccess {
  n: number;
  solved: number;
  rate: number | null;
  /** Wilson 95 % interval. */
  wilson95: Interval | null;
}

/** A paired difference, B − A, with its bootstrap 95 % interval over instances. */
export interface PairedDiff {
  /** Pairs it is taken over. */
  n: number;
  meanA: number;
  meanB: number;
  /** mean(B) − mean(A) = mean of the per-instance differences. */
  diff: number;
  lo: number;
  hi: number;
}

/** Paired figures over a set of instances (all of them, or one category). */
export interface CompareScope {
  /** `all`, or a category letter. */
  scope: string;
  pairs: number;
  success: { a: SideSuccess; b: SideSuccess; diff: PairedDiff | null };
  /** Over pairs graded on both sides (pass/fail families count only toward success). */
  score: PairedDiff | null;
}

/** One paired instance. */
export interface ComparePair {
  instance: string;
  family: string;
  tier: string;
  a: { solved: boolean; score: number | null };
  b: { solved: boolean; score: number | null };
}

/** A paired comparison of two runs. */
export interface Comparison {
  a: { dir: string; agent: string; mode: string; episodes: number };
  b: { dir: string; agent: string; mode: string; episodes: number };
  seed: number;
  resamples: number;
  /** Instances finished in only one of the runs (not compared). */
  onlyInA: string[];
  onlyInB: string[];
  /** Instances in both runs dropped because one side (or both) was abandoned. */
  abandonedDropped: string[];
  overall: CompareScope;
  categories: CompareScope[];
  pairs: ComparePair[];
}

function side(entries: readonly SummaryEntry[]): SideSuccess {
  const solved = entries.filter((e) => e.solved).length;
  return { n: entries.length, solved, rate: entries.length ? solved / entries.length : null, wilson95: wilson(solved, entries.length) };
}

function pairedDiff(a: number[], b: number[], key: string, resamples: number): PairedDiff | null {
  const d = a.map((x, i) => b[i] - x);
  const boot = bootstrapMean(d, key, { resamples });
  if (!boot) return null;
  const avg = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
  return { n: d.length, meanA: avg(a), meanB: avg(b), diff: boot.estimate, lo: boot.lo, hi: boot.hi };
}

function scopeOf(name: string, pairs: Array<[SummaryEntry, SummaryEntry]>, seed: number, resamples: number): CompareScope {
  const as = pairs.map((p) => p[0]);
  const bs = pairs.map((p) => p[1]);
  const graded = pairs.filter(([a, b]) => a.graded && b.graded && a.score !== null && b.score !== null);
  return {
    scope: name,
    pairs: pairs.length,
    success: {
      a: side(as),
      b: side(bs),
      diff: pairedDiff(as.map((e) => (e.solved ? 1 : 0)), bs.map((e) => (e.solved ? 1 : 0)), `compare/${seed}/${name}/success`, resamples),
    },
    score: pairedDiff(graded.map((p) => p[0].score!), graded.map((p) => p[1].score!), `compare/${seed}/${name}/score`, resamples),
  };
}

/**
 * Compares run B with run A instance by instance. Only instances finished in both runs are
 * paired; pairs where either side was abandoned are dropped (as the paper's paired
 * diagnostics do). Differences are B − A, with percentile-bootstrap 95 % intervals over
 * instances; each side's success rate gets a Wilson 95 % interval. Deterministic under `seed`.
 */
export function compareSummaries(a: RunSummary, b: RunSummary, opts: CompareOptions & { dirA?: string; dirB?: string } = {}): Comparison {
  const seed = opts.seed ?? 0;
  const resamples = opts.resamples ?? DEFAULT_RESAMPLES;
  if (!Number.isInteger(seed) || seed < 0) throw new SpaceActError('invalid-argument', `--seed must be a whole number >= 0, got ${seed}`, { seed });
  if (!Number.isInteger(resamples) || resamples < 100 || resamples > 1_000_000) {
    throw new SpaceActError('invalid-argument', `resamples must be a whole number from 100 to 1,000,000, got ${resamples}`, { resamples });
  }
  const byId = new Map(b.episodes.map((e) => [e.instance, e]));
  const inA = new Set(a.episodes.map((e) => e.instance));
  const all: Array<[SummaryEntry, SummaryEntry]> = [];
  for (const ea of a.episodes) {
    const eb = byId.get(ea.instance);
    if (eb) all.push([ea, eb]);
  }
  all.sort(([x], [y]) => compareFamilies(x.family, y.family) || (x.instance < y.instance ? -1 : x.instance > y.instance ? 1 : 0));
  const abandonedDropped = all.filter(([x, y]) => x.abandoned || y.abandoned).map(([x]) => x.instance);
  const kept = all.filter(([x, y]) => !x.abandoned && !y.abandoned);
  const categories: string[] = [...CATEGORIES, '?'].filter((c) => kept.some(([x]) => categoryOf(x.family) === c));
  return {
    a: { dir: opts.dirA ?? '', agent: a.agent.name, mode: a.mode, episodes: a.episodes.length },
    b: { dir: opts.dirB ?? '', agent: b.agent.name, mode: b.mode, episodes: b.episodes.length },
    seed,
    resamples,
    onlyInA: a.episodes.filter((e) => !byId.has(e.instance)).map((e) => e.instance),
    onlyInB: b.episodes.filter((e) => !inA.has(e.instance)).map((e) => e.instance),
    abandonedDropped,
    overall: scopeOf('all', kept, seed, resamples),
    categories: categories.map((c) => scopeOf(c, kept.filter(([x]) => categoryOf(x.family) === c), seed, resamples)),
    pairs: kept.map(([x, y]) => ({
      instance: x.instance,
      family: x.family,
      tier: x.tier,
      a: { solved: x.solved, score: x.score },
      b: { solved: y.solved, score: y.score },
    })),
  };
}

/** {@link compareSummaries} on two run folders. */
export function compareRuns(dirA: string, dirB: string, opts: CompareOptions = {}): Comparison {
  return compareSummaries(loadSummary(dirA), loadSummary(dirB), { ...opts, dirA, dirB });
}

function pct(x: number | null): string {
  return x === null ? '–' : `${(100 * x).toFixed(1)}%`;
}

function ci(i: Interval | null, scale: number, digits: number, signed = false): string {
  if (!i) return '';
  const f = (v: number): string => `${signed && v > 0 ? '+' : ''}${(v * scale).toFixed(digits)}`;
  return `[${f(i.lo)}, ${f(i.hi)}]`;
}

function signed(x: number, digits: number): string {
  return `${x > 0 ? '+' : ''}${x.toFixed(digits)}`;
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ').trimEnd()).join('\n');
}

/** Pairs below which a bootstrap interval is too narrow to trust (it cannot see beyond the few values it has). */
const FEW_PAIRS = 10;

function sig(d: PairedDiff | null): string {
  // One pair always resamples to itself: its interval has no width and means nothing.
  if (!d || d.n < 2) return '';
  return d.lo > 0 || d.hi < 0 ? '*' : '';
}

/** Column heads of the scope table, as the text and the HTML page print them. */
export const COMPARISON_COLUMNS = ['scope', 'pairs', 'success A [Wilson 95%]', 'success B [Wilson 95%]', 'B−A (pp) [bootstrap 95%]', 'graded', 'score A', 'score B', 'B−A [bootstrap 95%]'] as const;

/**
 * One scope's cells under {@link COMPARISON_COLUMNS}, as text: the text table and the HTML page
 * print these same strings, so the two never disagree.
 */
export function scopeCells(s: CompareScope): string[] {
  const { a, b, diff } = s.success;
  return [
    s.scope,
    String(s.pairs),
    `${a.solved}/${a.n} ${pct(a.rate)} ${ci(a.wilson95, 100, 1)}`,
    `${b.solved}/${b.n} ${pct(b.rate)} ${ci(b.wilson95, 100, 1)}`,
    diff ? `${signed(100 * diff.diff, 1)} ${ci(diff, 100, 1, true)}${sig(diff)}` : '–',
    String(s.score?.n ?? 0),
    s.score ? s.score.meanA.toFixed(1) : '–',
    s.score ? s.score.meanB.toFixed(1) : '–',
    s.score ? `${signed(s.score.diff, 1)} ${ci(s.score, 1, 1, true)}${sig(s.score)}` : '–',
  ];
}

/** The note under the scope table: what the differences and intervals are. */
export function comparisonNotes(c: Comparison): string[] {
  const out = [
    `Differences are B − A over paired instances; intervals are percentile bootstraps over instances (${c.resamples} resamples, seed ${c.seed}); ` +
      '* marks an interval that excludes 0 (never for a single pair). Scores are means over pairs graded on both sides.',
  ];
  if (c.overall.pairs < FEW_PAIRS || c.categories.some((s) => s.pairs < FEW_PAIRS)) {
    out.push(`With fewer than ${FEW_PAIRS} pairs a bootstrap interval understates the uncertainty; read such rows as descriptive.`);
  }
  return out;
}

/** The instances a comparison dropped, as sentences (empty when nothing was dropped). */
export function droppedLines(c: Comparison): string[] {
  const list = (ids: string[]): string => (ids.length > 8 ? `${ids.slice(0, 8).join(', ')}, … (${ids.length - 8} more)` : ids.join(', '));
  const out: string[] = [];
  if (c.onlyInA.length) out.push(`dropped ${c.onlyInA.length} instance(s) only in A: ${list(c.onlyInA)}`);
  if (c.onlyInB.length) out.push(`dropped ${c.onlyInB.length} instance(s) only in B: ${list(c.onlyInB)}`);
  if (c.abandonedDropped.length) out.push(`dropped ${c.abandonedDropped.length} pair(s) abandoned on one side or both: ${list(c.abandonedDropped)}`);
  return out;
}

/** The comparison as a readable table (what `spaceact compare` prints without --json). */
export function formatComparison(c: Comparison): string {
  const out: string[] = [];
  out.push(`A: ${c.a.dir}  (agent ${c.a.agent}, mode ${c.a.mode}, ${c.a.episodes} episodes)`);
  out.push(`B: ${c.b.dir}  (agent ${c.b.agent}, mode ${c.b.mode}, ${c.b.episodes} episodes)`);
  out.push(`paired instances: ${c.overall.pairs}`);
  const dropped = droppedLines(c);
  out.push(...(dropped.length ? dropped : ['nothing dropped']));
  out.push('');
  const rows: string[][] = [[...COMPARISON_COLUMNS]];
  for (const s of [c.overall, ...c.categories]) rows.push(scopeCells(s));
  out.push(table(rows));
  out.push('');
  out.push(...comparisonNotes(c));
  return out.join('\n') + '\n';
}
