/**
 * `spaceact analyze`: behaviour metrics, the failure taxonomy and diagnostic deltas over one
 * or more run folders, as a structure (for `--json`, the report and `compare`) and as text.
 */
import { resolve } from 'node:path';
import { SpaceActError } from '../../core/errors.ts';
import { CATEGORY_NAMES, CATEGORIES as CATEGORY_ORDER, categoryOf } from '../../core/catalog.ts';
import { loadRun, type RunData } from '../run-data.ts';
import { behaviourByGroup, behaviourMetrics, type BehaviourMetrics } from './behaviour.ts';
import { diagnosticDeltas, type Deltas } from './deltas.ts';
import { classifyFailure, countLabels, FAILURE_LABELS, type FailureLabel, type FailureVerdict } from './taxonomy.ts';
import { episodeTrace, type EpisodeTrace } from './trace.ts';

/** One run folder as the analysis saw it. */
export interface AnalysedRun {
  dir: string;
  agent: string;
  mode: string;
  episodes: number;
  unfinished: number;
  /** Every finished episode's log records per-turn progress (else state changes stand in). */
  progressRecorded: boolean;
}

/** Failure labels over a group of unsolved episodes. */
export interface FailureCounts {
  /** `all` or a category letter. */
  key: string;
  unsolved: number;
  counts: Record<FailureLabel, number>;
  /** (violation loops + collision loops + observation loops) ÷ unsolved. */
  loopShare: number | null;
}

/** Everything `spaceact analyze` finds. */
export interface Analysis {
  runs: AnalysedRun[];
  behaviour: {
    overall: BehaviourMetrics;
    perRun: BehaviourMetrics[];
    byCategory: BehaviourMetrics[];
    byFamily: BehaviourMetrics[];
  };
  failures: {
    overall: FailureCounts;
    byCategory: FailureCounts[];
    /** One verdict per finished, unsolved episode. */
    episodes: FailureVerdict[];
  };
  deltas: Deltas;
}

function failureCounts(key: string, verdicts: FailureVerdict[]): FailureCounts {
  const counts = countLabels(verdicts);
  const loops = counts['violation loop'] + counts['collision loop'] + counts['observation loop'];
  return { key, unsolved: verdicts.length, counts, loopShare: verdicts.length ? loops / verdicts.length : null };
}

/** Analyses runs already read (the report uses this with the run it has loaded). */
export function analyzeRunData(runs: readonly RunData[]): Analysis {
  if (runs.length === 0) throw new SpaceActError('invalid-argument', 'give at least one run folder');
  const traces: EpisodeTrace[] = [];
  const analysed: AnalysedRun[] = [];
  const perRun: BehaviourMetrics[] = [];
  for (const run of runs) {
    const eps = run.episodes.map((ep) => episodeTrace(run.dir, ep));
    traces.push(...eps);
    const finished = eps.filter((e) => e.finished);
    analysed.push({
      dir: run.dir,
      agent: run.summary.agent.name,
      mode: run.summary.mode,
      episodes: finished.length,
      unfinished: eps.length - finished.length,
      progressRecorded: finished.every((e) => e.progressRecorded || e.turns.length === 0),
    });
    perRun.push(behaviourMetrics(run.dir, eps));
  }
  const groups = behaviourByGroup(traces);
  const verdicts = traces.map(classifyFailure).filter((v): v is FailureVerdict => v !== null);
  const cats = CATEGORY_ORDER.filter((c) => verdicts.some((v) => categoryOf(v.family) === c));
  return {
    runs: analysed,
    behaviour: { overall: behaviourMetrics('all', traces), perRun, ...groups },
    failures: {
      overall: failureCounts('all', verdicts),
      byCategory: cats.map((c) => failureCounts(c, verdicts.filter((v) => categoryOf(v.family) === c))),
      episodes: verdicts,
    },
    deltas: diagnosticDeltas(traces),
  };
}

/** Reads the run folders and analyses them. */
export function analyzeRuns(dirs: readonly string[]): Analysis {
  const seen = new Set<string>();
  for (const d of dirs) {
    const r = resolve(d);
    if (seen.has(r)) throw new SpaceActError('invalid-argument', `run folder ${d} is given twice`, { dir: d });
    seen.add(r);
  }
  return analyzeRunData(dirs.map((d) => loadRun(d)));
}

// ---- text ------------------------------------------------------------------------------

/** The behaviour metrics in print order: label, field, how to show it. */
export const METRIC_ROWS: Array<{ label: string; field: keyof BehaviourMetrics; format: 'num' | 'pct' | 'int' }> = [
  { label: 'episodes', field: 'episodes', format: 'int' },
  { label: 'solved', field: 'solved', format: 'int' },
  { label: 'turns', field: 'turns', format: 'int' },
  { label: 'responses', field: 'responses', format: 'int' },
  { label: 'actions per response', field: 'actionsPerResponse', format: 'num' },
  { label: 'calls saved by batching', field: 'callsSavedByBatching', format: 'pct' },
  { label: 'camera calls/episode, solved', field: 'cameraPerEpisodeSolved', format: 'num' },
  { label: 'camera calls/episode, unsolved', field: 'cameraPerEpisodeUnsolved', format: 'num' },
  { label: 'camera share, solved', field: 'cameraShareSolved', format: 'pct' },
  { label: 'camera share, unsolved', field: 'cameraShareUnsolved', format: 'pct' },
  { label: 'collision turns', field: 'collisionTurns', format: 'int' },
  { label: 'collision followed by collision', field: 'repeatCollisionRate', format: 'pct' },
  { label: 'camera after a collision', field: 'cameraAfterCollisionRate', format: 'pct' },
  { label: 'batch on the collision turn', field: 'batchBeforeCollision', format: 'num' },
  { label: 'batch on the turn after', field: 'batchAfterCollision', format: 'num' },
  { label: 'note updates per response', field: 'noteUpdatesPerResponse', format: 'pct' },
  { label: 'violations per episode', field: 'violationsPerEpisode', format: 'num' },
  { label: 'collisions per episode', field: 'collisionsPerEpisode', format: 'num' },
];

/** A metric value as text ('–' when there is nothing to show). */
export function formatMetric(v: unknown, format: 'num' | 'pct' | 'int'): string {
  if (typeof v !== 'number' || !Number.isFinite(v)) return '–';
  if (format === 'pct') return `${(100 * v).toFixed(1)}%`;
  if (format === 'int') return String(v);
  return v.toFixed(2);
}

/** Turn numbers as compact ranges: [1,2,3,5,7,8] → "1–3, 5, 7–8". */
export function turnRanges(turns: readonly number[]): string {
  const out: string[] = [];
  let i = 0;
  while (i < turns.length) {
    let j = i;
    while (j + 1 < turns.length && turns[j + 1] === turns[j] + 1) j++;
    out.push(j > i ? `${turns[i]}–${turns[j]}` : String(turns[i]));
    i = j + 1;
  }
  return out.join(', ') || '–';
}

/** A plain-text table: the first column and any in `left` are left-aligned, the rest right-aligned. */
function table(head: string[], rows: string[][], left: number[] = []): string {
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (r: string[]): string => r.map((x, c) => (c === 0 || left.includes(c) ? x.padEnd(widths[c]) : x.padStart(widths[c]))).join('  ').trimEnd();
  return [line(head), ...rows.map(line)].join('\n') + '\n';
}

function metricsTable(groups: BehaviourMetrics[], names: string[]): string {
  const kinds = [...new Set(groups.flatMap((g) => Object.keys(g.violationsByKind)))].sort();
  const rows = METRIC_ROWS.map((m) => [m.label, ...groups.map((g) => formatMetric(g[m.field], m.format))]);
  for (const k of kinds) rows.push([`  ${k} violations per episode`, ...groups.map((g) => formatMetric(g.episodes ? (g.violationsByKind[k] ?? 0) : null, 'num'))]);
  return table(['metric', ...names], rows);
}

function pct(x: number | null): string {
  return x === null ? '–' : `${(100 * x).toFixed(1)}%`;
}

function signed(x: number | null, digits = 1): string {
  return x === null ? '–' : `${x >= 0 ? '+' : ''}${x.toFixed(digits)}`;
}

function fixed(x: number | null, digits = 1): string {
  return x === null ? '–' : x.toFixed(digits);
}

/** The analysis as plain text: every metric, every label with its turns, the deltas. */
export function formatAnalysis(a: Analysis): string {
  const parts: string[] = [];
  parts.push('Runs\n');
  parts.push(
    table(
      ['run', 'agent', 'mode', 'episodes', 'unfinished', 'per-turn progress'],
      a.runs.map((r) => [r.dir, r.agent, r.mode, String(r.episodes), String(r.unfinished), r.progressRecorded ? 'logged' : 'not logged (state changes used)']),
      [1, 2, 5],
    ),
  );
  const runNames = a.runs.length > 1 ? a.runs.map((_, i) => `run ${i + 1}`) : [];
  parts.push('\nBehaviour (definitions in docs/analysis.md, "Behaviour analysis")\n');
  parts.push(metricsTable([a.behaviour.overall, ...(a.runs.length > 1 ? a.behaviour.perRun : [])], ['all', ...runNames]));
  parts.push('\nBehaviour by category\n');
  parts.push(metricsTable(a.behaviour.byCategory, a.behaviour.byCategory.map((g) => g.key)));
  parts.push('\nBehaviour by family\n');
  parts.push(metricsTable(a.behaviour.byFamily, a.behaviour.byFamily.map((g) => g.key)));

  parts.push('\nFailure taxonomy of unsolved episodes (one label each)\n');
  const groups = [a.failures.overall, ...a.failures.byCategory];
  parts.push(
    table(
      ['label', ...groups.map((g) => (g.key === 'all' ? 'all' : `${g.key}`))],
      [
        ...FAILURE_LABELS.map((l) => [l, ...groups.map((g) => (g.unsolved ? `${g.counts[l]} (${pct(g.counts[l] / g.unsolved)})` : '–'))]),
        ['unsolved', ...groups.map((g) => String(g.unsolved))],
        ['loops (collision + observation)', ...groups.map((g) => pct(g.loopShare))],
      ],
    ),
  );
  if (a.failures.episodes.length) {
    parts.push('\nUnsolved episodes\n');
    const multi = a.runs.length > 1;
    const runOf = (v: FailureVerdict): string[] => (multi ? [`run ${a.runs.findIndex((r) => r.dir === v.run) + 1}`] : []);
    parts.push(
      table(
        ['instance', ...(multi ? ['run'] : []), 'label', 'why', 'turns that earned it'],
        a.failures.episodes.map((v) => [v.instance, ...runOf(v), v.label, v.reason, turnRanges(v.turns)]),
        multi ? [1, 2, 3, 4] : [1, 2, 3],
      ),
    );
  }

  parts.push('\nDiagnostic modes vs default (same agent, paired instances)\n');
  if (a.deltas.modes.length === 0) parts.push('none: needs runs of one agent in the default mode and another mode (e.g. --mode plan, --mode state)\n');
  else {
    parts.push(
      table(
        ['agent', 'mode', 'pairs', 'default score', 'mode score', 'gap closed', 'collisions default', 'collisions mode', 'abandoned dropped'],
        a.deltas.modes.map((d) => [d.agent, d.mode, String(d.pairs), fixed(d.meanDefault), fixed(d.meanMode), pct(d.gapClosed), fixed(d.collisionsDefault, 2), fixed(d.collisionsMode, 2), String(d.abandonedDropped)]),
        [1],
      ),
    );
  }
  parts.push('\nL7 levers vs the same family\'s L5 (score drop L5 − L7)\n');
  if (a.deltas.levers.length === 0) parts.push('none: needs L5 and L7 instances of a family at the same seed (e.g. --family F, or --suite all)\n');
  else {
    parts.push(
      table(
        ['agent', 'mode', 'lever', 'families', 'pairs', 'L5 score', 'L7 score', 'drop'],
        a.deltas.levers.map((d) => [d.agent, d.mode, d.lever, d.families.join(','), String(d.pairs), fixed(d.meanL5), fixed(d.meanL7), signed(d.drop)]),
        [1, 2, 3],
      ),
    );
  }
  parts.push('\nLever studies vs the same family\'s L5 (score delta lever − L5, paired 95 % bootstrap interval)\n');
  if (a.deltas.leverStudies.length === 0) parts.push('none: needs a family\'s L5 instance and its L5 + lever instance at the same seed (--suite levers)\n');
  else {
    parts.push(
      table(
        ['agent', 'mode', 'lever', 'families', 'pairs', 'L5 score', 'lever score', 'delta', '95% interval', 'solved L5 / lever (all pairs)'],
        a.deltas.leverStudies.map((d) => [d.agent, d.mode, d.lever, d.families.join(','), String(d.pairs), fixed(d.meanL5), fixed(d.meanLever), signed(d.delta), d.interval ? `${signed(d.interval.lo)} … ${signed(d.interval.hi)}` : '–', `${d.solvedL5} / ${d.solvedLever} of ${d.successPairs}`]),
        [1, 2, 3],
      ),
    );
  }
  if (a.runs.length > 1) parts.push(`\n${a.runs.map((r, i) => `run ${i + 1}: ${r.dir}`).join('\n')}\n`);
  return parts.join('');
}

/** A category's label with its name, e.g. "M continuous manipulation". */
export function categoryLabel(key: string): string {
  return `${key} ${CATEGORY_NAMES[key as keyof typeof CATEGORY_NAMES] ?? ''}`.trim();
}
