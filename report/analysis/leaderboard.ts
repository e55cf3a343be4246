/**
 * A leaderboard over several runs in the shape of the paper's main table: one row per agent
 * (model) and mode, with the tiered score over graded episodes, success with a Wilson 95 %
 * interval overall and per category, graded and ungraded counts, abandoned episodes apart,
 * and tokens and cost per solved episode.
 */
import type { SummaryEntry } from '../../agents/runner.ts';
import { SpaceActError } from '../../core/errors.ts';
import { CATEGORIES as CATEGORY_ORDER, categoryOf } from '../../core/catalog.ts';
import { loadSummary } from '../run-data.ts';
import { wilson, type Interval } from '../../core/statistics.ts';

/** Success in one category (or overall). */
export interface CategorySuccess {
  category: string;
  episodes: number;
  solved: number;
  rate: number | null;
  wilson95: Interval | null;
  /** Mean tiered score of the category's graded episodes. */
  meanScore: number | null;
}

/** One row: an agent (model) in one mode, over every run given for it. */
export interface LeaderboardRow {
  rank: number;
  agent: string;
  /** The model name from the agent's settings, when it has one. */
  model: string | null;
  mode: string;
  runs: string[];
  episodes: number;
  /** Episodes with a tiered score (abandoned graded ones count 0, as in the paper). */
  graded: number;
  /** Pass/fail episodes: success only. */
  ungraded: number;
  abandoned: number;
  solved: number;
  /** Mean tiered score over graded episodes (abandoned as 0). */
  meanScore: number | null;
  /** Mean tiered score over graded episodes that were not abandoned. */
  meanScoreNotAbandoned: number | null;
  success: CategorySuccess;
  categories: CategorySuccess[];
  meanTurns: number | null;
  meanViolations: number | null;
  inputTokens: number;
  outputTokens: number;
  /** (input + output tokens) ÷ solved episodes; null with none solved. */
  tokensPerSolved: number | null;
  /** Dollars; undefined when no episode recorded a cost. */
  cost?: number;
  costPerSolved?: number | null;
  /** Instances given more than once for this agent and mode (the first run's episode counts). */
  duplicates: string[];
}

/** The leaderboard. */
export interface Leaderboard {
  rows: LeaderboardRow[];
  /** Categories that appear in any row, in catalog order. */
  categories: string[];
}

function mean(xs: number[]): number | null {
  return xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null;
}

function successOf(category: string, entries: readonly SummaryEntry[]): CategorySuccess {
  const solved = entries.filter((e) => e.solved).length;
  const graded = entries.filter((e) => e.graded && e.score !== null).map((e) => e.score as number);
  return { category, episodes: entries.length, solved, rate: entries.length ? solved / entries.length : null, wilson95: wilson(solved, entries.length), meanScore: mean(graded) };
}

/** Builds the leaderboard from run folders (each read through its `summary.json`). */
export function buildLeaderboard(dirs: readonly string[]): Leaderboard {
  if (dirs.length === 0) throw new SpaceActError('invalid-argument', 'give at least one run folder');
  const groups = new Map<string, { agent: string; model: string | null; mode: string; runs: string[]; entries: Map<string, SummaryEntry>; duplicates: string[] }>();
  for (const dir of dirs) {
    const s = loadSummary(dir);
    const model = typeof s.agent.settings?.model === 'string' ? s.agent.settings.model : null;
    for (const e of s.episodes) {
      const agent = e.agent || s.agent.name;
      const key = JSON.stringify([agent, e.mode]);
      if (!groups.has(key)) groups.set(key, { agent, model, mode: e.mode, runs: [], entries: new Map(), duplicates: [] });
      const g = groups.get(key)!;
      if (!g.runs.includes(dir)) g.runs.push(dir);
      if (g.entries.has(e.instance)) g.duplicates.push(e.instance);
      else g.entries.set(e.instance, e);
    }
  }
  const rows: LeaderboardRow[] = [...groups.values()].map((g) => {
    const entries = [...g.entries.values()];
    const gradedEntries = entries.filter((e) => e.graded && e.score !== null);
    const solved = entries.filter((e) => e.solved).length;
    const tokens = entries.reduce((s, e) => s + e.inputTokens + e.outputTokens, 0);
    const cats = CATEGORY_ORDER.filter((c) => entries.some((e) => categoryOf(e.family) === c));
    const row: LeaderboardRow = {
      rank: 0,
      agent: g.agent,
      model: g.model,
      mode: g.mode,
      runs: g.runs,
      episodes: entries.length,
      graded: gradedEntries.length,
      ungraded: entries.length - gradedEntries.length,
      abandoned: entries.filter((e) => e.abandoned).length,
      solved,
      meanScore: mean(gradedEntries.map((e) => e.score as number)),
      meanScoreNotAbandoned: mean(gradedEntries.filter((e) => !e.abandoned).map((e) => e.score as number)),
      success: successOf('all', entries),
      categories: cats.map((c) => successOf(c, entries.filter((e) => categoryOf(e.family) === c))),
      meanTurns: mean(entries.map((e) => e.turns)),
      meanViolations: mean(entries.map((e) => e.violations)),
      inputTokens: entries.reduce((s, e) => s + e.inputTokens, 0),
      outputTokens: entries.reduce((s, e) => s + e.outputTokens, 0),
      tokensPerSolved: solved ? tokens / solved : null,
      duplicates: g.duplicates,
    };
    if (entries.some((e) => e.cost !== undefined)) {
      const cost = Math.round(entries.reduce((s, e) => s + (e.cost ?? 0), 0) * 1e6) / 1e6;
      row.cost = cost;
      row.costPerSolved = solved ? cost / solved : null;
    }
    return row;
  });
  // Best mean score first; success breaks ties, then names keep the order stable.
  rows.sort(
    (a, b) =>
      (b.meanScore ?? -1) - (a.meanScore ?? -1) ||
      (b.success.rate ?? -1) - (a.success.rate ?? -1) ||
      (a.agent < b.agent ? -1 : a.agent > b.agent ? 1 : 0) ||
      (a.mode < b.mode ? -1 : a.mode > b.mode ? 1 : 0),
  );
  rows.forEach((r, i) => (r.rank = i + 1));
  const categories = CATEGORY_ORDER.filter((c) => rows.some((r) => r.categories.some((x) => x.category === c)));
  return { rows, categories };
}
