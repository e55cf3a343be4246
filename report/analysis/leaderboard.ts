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
import { createHash } from 'node:crypto';
import { suiteInstances } from '../../tasks/suites.ts';
import { leverStudyDeltas, type LeverStudyDelta } from './deltas.ts';

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
  /** The instances the row's runs played (finished or not), named: rows are compared only over the same set. */
  instanceSet: InstanceSet;
  /**
   * Single-factor lever studies among the row's episodes (`--suite levers`): per lever, the mean
   * score delta lever − L5 over paired seeds with its paired bootstrap 95 % interval. Empty
   * when the runs hold no lever study.
   */
  leverDeltas: Array<Omit<LeverStudyDelta, 'agent' | 'mode'>>;
}

/** A set of instances as a leaderboard names it. */
export interface InstanceSet {
  /** `main`, `all` (the released set), `levers` (the lever studies), `main + 12 more`, or `23 instances`. */
  name: string;
  /** How many instances. */
  n: number;
  /** A short digest of the sorted ids (equal sets, equal digests). */
  digest: string;
}

/** Options of {@link buildLeaderboard}. */
export interface LeaderboardOptions {
  /** Rank rows over different instance sets anyway (each row names its set); default: refuse. */
  allowMixed?: boolean;
}

/** Names a set of instance ids: a suite it equals or extends, else its size. */
export function nameInstanceSet(ids: readonly string[]): InstanceSet {
  const sorted = [...new Set(ids)].sort();
  const digest = createHash('sha256').update(sorted.join('\n')).digest('hex').slice(0, 8);
  for (const suite of ['main', 'all', 'levers']) {
    const members = new Set(suiteInstances(suite));
    if (sorted.length >= members.size && [...members].every((id) => sorted.includes(id))) {
      const more = sorted.length - members.size;
      return { name: more ? `${suite} + ${more} more` : suite, n: sorted.length, digest };
    }
  }
  return { name: `${sorted.length} instances`, n: sorted.length, digest };
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
export function buildLeaderboard(dirs: readonly string[], opts: LeaderboardOptions = {}): Leaderboard {
  if (dirs.length === 0) throw new SpaceActError('invalid-argument', 'give at least one run folder');
  const groups = new Map<string, { agent: string; model: string | null; mode: string; runs: string[]; entries: Map<string, SummaryEntry>; duplicates: string[]; asked: Set<string> }>();
  for (const dir of dirs) {
    const s = loadSummary(dir);
    // The instances a run was asked to play: finished and unfinished alike.
    const asked = [...s.episodes.map((e) => e.instance), ...(s.unfinished ?? [])];
    const model = typeof s.agent.settings?.model === 'string' ? s.agent.settings.model : null;
    for (const e of s.episodes) {
      const agent = e.agent || s.agent.name;
      const key = JSON.stringify([agent, e.mode]);
      if (!groups.has(key)) groups.set(key, { agent, model, mode: e.mode, runs: [], entries: new Map(), duplicates: [], asked: new Set() });
      const g = groups.get(key)!;
      if (!g.runs.includes(dir)) {
        g.runs.push(dir);
        for (const id of asked) g.asked.add(id);
      }
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
      instanceSet: nameInstanceSet([...g.asked]),
      leverDeltas: leverStudyDeltas(entries, `${g.agent}/${g.mode}`),
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
  // A ranking compares rows over the same instances: a run over another set (a run over P6 given
  // beside runs over the main suite) would be ranked on other tasks without a word.
  const sets = new Map(rows.map((r) => [r.instanceSet.digest, r.instanceSet]));
  if (sets.size > 1 && !opts.allowMixed) {
    const said = rows.map((r) => `${r.agent} (${r.mode}): ${r.instanceSet.name}`).join('; ');
    throw new SpaceActError('invalid-argument', `the runs cover different instance sets, so their rows would not be comparable — ${said}; give runs over the same instances, or --allow-mixed to rank them anyway (each row names its set)`);
  }
  rows.forEach((r, i) => (r.rank = i + 1));
  const categories = CATEGORY_ORDER.filter((c) => rows.some((r) => r.categories.some((x) => x.category === c)));
  return { rows, categories };
}
