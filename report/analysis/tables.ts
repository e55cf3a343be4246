/**
 * The leaderboard's and the analysis's records as {@link Table}s (`--format csv|md|tex|json`),
 * cell for cell the values the HTML page and the text print (rates as fractions 0–1, scores
 * 0–100, intervals as their low and high ends).
 */
import { METRIC_ROWS, type Analysis } from './analyze.ts';
import { FAILURE_LABELS } from './taxonomy.ts';
import type { Leaderboard } from './leaderboard.ts';
import type { Table } from '../tables.ts';
import type { Comparison } from '../compare.ts';

/** The leaderboard as one table: a row per agent and mode; success with its Wilson 95 % interval, overall and per category. */
export function leaderboardTable(lb: Leaderboard): Table {
  const perCategory = lb.categories.flatMap((c) => [`success ${c}`, `success ${c} low`, `success ${c} high`]);
  return {
    name: 'leaderboard',
    caption: 'Success rate (solved ÷ episodes) with Wilson 95 % intervals, mean tiered score over graded episodes (abandoned as 0), per agent and mode.',
    columns: ['rank', 'agent', 'model', 'mode', 'instance set', 'episodes', 'solved', 'success', 'success low', 'success high', 'mean score', ...perCategory, 'graded', 'ungraded', 'abandoned', 'mean turns', 'mean violations', 'input tokens', 'output tokens', 'tokens per solved'],
    rows: lb.rows.map((r) => [
      r.rank,
      r.agent,
      r.model,
      r.mode,
      r.instanceSet.name,
      r.episodes,
      r.solved,
      r.success.rate,
      r.success.wilson95?.lo ?? null,
      r.success.wilson95?.hi ?? null,
      r.meanScore,
      ...lb.categories.flatMap((c) => {
        const s = r.categories.find((x) => x.category === c);
        return [s?.rate ?? null, s?.wilson95?.lo ?? null, s?.wilson95?.hi ?? null];
      }),
      r.graded,
      r.ungraded,
      r.abandoned,
      r.meanTurns,
      r.meanViolations,
      r.inputTokens,
      r.outputTokens,
      r.tokensPerSolved,
    ]),
  };
}

/**
 * The leaderboard's lever studies as a table (one row per agent, mode and lever: the mean score
 * delta lever − L5 over paired seeds with its paired bootstrap 95 % interval), or null when no
 * row holds a lever study.
 */
export function leaderboardLeverTable(lb: Leaderboard): Table | null {
  const rows = lb.rows.flatMap((r) => r.leverDeltas.map((d) => [r.agent, r.mode, d.lever, d.families.join(' '), d.pairs, d.meanL5, d.meanLever, d.delta, d.interval?.lo ?? null, d.interval?.hi ?? null]));
  if (!rows.length) return null;
  return {
    name: 'lever-deltas',
    caption: 'Single-factor lever studies per agent and mode: score delta lever − L5 over the same family and seed, with the paired bootstrap 95 % interval.',
    columns: ['agent', 'mode', 'lever', 'families', 'pairs', 'L5 score', 'lever score', 'delta', 'delta lo', 'delta hi'],
    rows,
  };
}

/** The analysis as tables: behaviour per run, failure labels per category, and (when the runs hold lever studies) the lever-study deltas against L5. */
export function analysisTables(a: Analysis): Table[] {
  const runs = a.behaviour.perRun;
  const behaviour: Table = {
    name: 'behaviour',
    caption: 'Behaviour metrics per run (rates as fractions).',
    columns: ['metric', ...runs.map((r) => r.key)],
    rows: METRIC_ROWS.map((m) => [m.label, ...runs.map((r) => {
      const v = r[m.field];
      return typeof v === 'number' && Number.isFinite(v) ? v : null;
    })]),
  };
  const groups = [a.failures.overall, ...a.failures.byCategory];
  const failures: Table = {
    name: 'failures',
    caption: 'Failure labels of unsolved episodes, overall and per category; loop share = (violation + collision + observation loops) ÷ unsolved.',
    columns: ['group', 'unsolved', ...FAILURE_LABELS, 'loop share'],
    rows: groups.map((g) => [g.key, g.unsolved, ...FAILURE_LABELS.map((l) => g.counts[l]), g.loopShare]),
  };
  const studies = a.deltas.leverStudies;
  const levers: Table = {
    name: 'levers',
    caption:
      'Single-factor lever studies: each L5 + lever instance paired with its family\'s L5 instance at the same seed; delta = mean(lever − L5) with its paired percentile-bootstrap 95 % interval, over graded pairs; ' +
      'all pairs (pass/fail families too) and how many were solved at L5 and with the lever.',
    columns: ['agent', 'mode', 'lever', 'families', 'pairs', 'L5 score', 'lever score', 'delta', 'delta lo', 'delta hi', 'abandoned dropped', 'all pairs', 'all families', 'solved L5', 'solved lever'],
    rows: studies.map((d) => [d.agent, d.mode, d.lever, d.families.join(' '), d.pairs, d.meanL5, d.meanLever, d.delta, d.interval?.lo ?? null, d.interval?.hi ?? null, d.abandonedDropped, d.successPairs, d.successFamilies.join(' '), d.solvedL5, d.solvedLever]),
  };
  return studies.length ? [behaviour, failures, levers] : [behaviour, failures];
}

/**
 * A paired comparison as tables: B − A per scope (overall, then each category) with the
 * bootstrap 95 % interval of the paired difference and each side's Wilson interval; and the
 * per-instance pairs.
 */
export function comparisonTables(c: Comparison): Table[] {
  const scopes: Table = {
    name: 'comparison',
    caption: `B − A over paired instances (A: ${c.a.agent}, ${c.a.mode}; B: ${c.b.agent}, ${c.b.mode}); bootstrap 95 % intervals (seed ${c.seed}, ${c.resamples} resamples), Wilson 95 % per side.`,
    columns: ['scope', 'pairs', 'success A', 'A low', 'A high', 'success B', 'B low', 'B high', 'success B − A', 'diff low', 'diff high', 'score A', 'score B', 'score B − A', 'score diff low', 'score diff high'],
    rows: [c.overall, ...c.categories].map((s) => [
      s.scope,
      s.pairs,
      s.success.a.rate,
      s.success.a.wilson95?.lo ?? null,
      s.success.a.wilson95?.hi ?? null,
      s.success.b.rate,
      s.success.b.wilson95?.lo ?? null,
      s.success.b.wilson95?.hi ?? null,
      s.success.diff?.diff ?? null,
      s.success.diff?.lo ?? null,
      s.success.diff?.hi ?? null,
      s.score?.meanA ?? null,
      s.score?.meanB ?? null,
      s.score?.diff ?? null,
      s.score?.lo ?? null,
      s.score?.hi ?? null,
    ]),
  };
  const pairs: Table = {
    name: 'pairs',
    caption: 'Each paired instance: solved (1/0) and score on either side.',
    columns: ['instance', 'family', 'tier', 'solved A', 'score A', 'solved B', 'score B'],
    rows: c.pairs.map((p) => [p.instance, p.family, p.tier, p.a.solved ? 1 : 0, p.a.score, p.b.solved ? 1 : 0, p.b.score]),
  };
  return [scopes, pairs];
}
