import type { SummaryEntry } from '../agents/runner.ts';
import { CATEGORIES, categoryOf, compareFamilies, TIERS } from '../core/catalog.ts';
import { mean, wilson, type Interval } from '../core/statistics.ts';
import { roundTo } from '../core/determinism.ts';

/** Figures over a group of episodes (a family, a category, a tier or the whole run). */
export interface GroupStats {
  /** The group: a family id, a category letter, a tier, or `all`. */
  key: string;
  episodes: number;
  solved: number;
  /** solved / episodes (abandoned episodes count as unsolved). */
  successRate: number | null;
  /** Wilson 95 % interval of the success rate. */
  success95: Interval | null;
  /** Episodes with a tiered score (pass/fail families have none). */
  graded: number;
  /** Mean tiered score over graded episodes only (abandoned graded ones count 0). */
  meanScore: number | null;
  meanTurns: number | null;
  meanActions: number | null;
  meanViolations: number | null;
  inputTokens: number;
  outputTokens: number;
  /** Dollars; undefined when no episode recorded a cost. */
  cost?: number;
  abandoned: number;
}

/** Groupings of the summary table. */
export type GroupBy = 'family' | 'category' | 'tier';

/** Figures over `entries`, labelled `key`. */
export function groupStats(key: string, entries: readonly SummaryEntry[]): GroupStats {
  const n = entries.length;
  const solved = entries.filter((e) => e.solved).length;
  const scores = entries.filter((e) => e.graded && e.score !== null).map((e) => e.score as number);
  const g: GroupStats = {
    key,
    episodes: n,
    solved,
    successRate: n ? solved / n : null,
    success95: wilson(solved, n),
    graded: scores.length,
    meanScore: mean(scores),
    meanTurns: mean(entries.map((e) => e.turns)),
    meanActions: mean(entries.map((e) => e.actions)),
    meanViolations: mean(entries.map((e) => e.violations)),
    inputTokens: entries.reduce((s, e) => s + e.inputTokens, 0),
    outputTokens: entries.reduce((s, e) => s + e.outputTokens, 0),
    abandoned: entries.filter((e) => e.abandoned).length,
  };
  if (entries.some((e) => e.cost !== undefined)) g.cost = roundTo(entries.reduce((s, e) => s + (e.cost ?? 0), 0), 6);
  return g;
}

/** The group key of an entry. */
export function groupKey(e: SummaryEntry, by: GroupBy): string {
  return by === 'family' ? e.family : by === 'tier' ? e.tier : categoryOf(e.family);
}

function orderOf(by: GroupBy): (a: string, b: string) => number {
  if (by === 'family') return compareFamilies;
  const order: readonly string[] = by === 'tier' ? TIERS : CATEGORIES;
  const rank = (k: string): number => (order.includes(k) ? order.indexOf(k) : order.length);
  return (a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** Figures per group, in catalog order (families by category and number, tiers L1…L7). */
export function aggregateBy(entries: readonly SummaryEntry[], by: GroupBy): GroupStats[] {
  const groups = new Map<string, SummaryEntry[]>();
  for (const e of entries) {
    const k = groupKey(e, by);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k)!.push(e);
  }
  return [...groups.keys()].sort(orderOf(by)).map((k) => groupStats(k, groups.get(k)!));
}
