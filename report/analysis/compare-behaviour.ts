/**
 * What `spaceact compare --analysis` adds: the behaviour metrics and failure labels of both
 * runs, over the instances they share (finished on both sides, neither abandoned — the same
 * pairs the score comparison uses), side by side with B − A.
 */
import { loadRun, type RunData } from '../run-data.ts';
import { analyzeRunData, formatMetric, METRIC_ROWS, type Analysis } from './analyze.ts';
import { FAILURE_LABELS } from './taxonomy.ts';

/** Both sides' analyses over the shared instances. */
export interface BehaviourComparison {
  /** Instances both analyses cover. */
  instances: string[];
  a: Analysis;
  b: Analysis;
}

function restrict(run: RunData, keep: Set<string>): RunData {
  const episodes = run.episodes.filter((ep) => keep.has(ep.instance));
  return { ...run, episodes, summary: { ...run.summary, episodes: run.summary.episodes.filter((e) => keep.has(e.instance)), unfinished: [] } };
}

/** Analyses two run folders over the instances finished on both sides and abandoned on neither. */
export function compareBehaviour(dirA: string, dirB: string): BehaviourComparison {
  const a = loadRun(dirA);
  const b = loadRun(dirB);
  const fine = (r: RunData): Set<string> => new Set(r.summary.episodes.filter((e) => !e.abandoned).map((e) => e.instance));
  const inB = fine(b);
  const shared = [...fine(a)].filter((id) => inB.has(id));
  const keep = new Set(shared);
  return { instances: shared, a: analyzeRunData([restrict(a, keep)]), b: analyzeRunData([restrict(b, keep)]) };
}

/** The behaviour comparison as text: each metric and label for A, B and B − A. */
export function formatBehaviourComparison(c: BehaviourComparison): string {
  const rows: string[][] = [['behaviour over the paired instances', 'A', 'B', 'B − A']];
  const oa = c.a.behaviour.overall;
  const ob = c.b.behaviour.overall;
  for (const m of METRIC_ROWS) {
    const x = oa[m.field];
    const y = ob[m.field];
    const d = typeof x === 'number' && typeof y === 'number' ? y - x : null;
    const diff = d === null ? '–' : `${d > 0 ? '+' : ''}${formatMetric(d, m.format === 'int' ? 'int' : m.format)}`;
    rows.push([m.label, formatMetric(x, m.format), formatMetric(y, m.format), diff]);
  }
  const fa = c.a.failures.overall.counts;
  const fb = c.b.failures.overall.counts;
  for (const l of FAILURE_LABELS) rows.push([`unsolved: ${l}`, String(fa[l]), String(fb[l]), `${fb[l] - fa[l] > 0 ? '+' : ''}${fb[l] - fa[l]}`]);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return `${rows.map((r) => r.map((x, i) => (i === 0 ? x.padEnd(widths[i]) : x.padStart(widths[i]))).join('  ')).join('\n')}\n(${c.instances.length} instance(s); metrics as \`spaceact analyze\` defines them)\n`;
}
