/**
 * Run analytics that families offer (`TaskFamily.runStats`), served generically: a run folder
 * is read once — the summary for right or wrong, each episode's log for the calls that ran,
 * the regenerated instance for what was asked — and each family with a hook gets its own
 * finished episodes. No command or module here knows any one family.
 */
import { parseInstanceId } from '../core/catalog.ts';
import { SpaceActError } from '../core/errors.ts';
import { EpisodeLog } from '../agents/episode-log.ts';
import { families, getFamily, familyAndInstanceFromId } from '../tasks/registry.ts';
import type { RunEpisode, TaskFamily, ToolCall } from '../tasks/types.ts';
import { loadSummary } from './run-data.ts';
import type { Table } from './tables.ts';

/** One family's figures over a run. */
export interface FamilyRunStats {
  family: string;
  title: string;
  /** Finished episodes of the family the figures are computed from. */
  episodes: number;
  /** Episodes of the family the run has not finished (not counted). */
  unfinished: number;
  /** The family's figures (plain JSON). */
  result: unknown;
  /** The figures as text. */
  text: string;
  /** The figures as tables, when the family offers them (`RunStatistics.tables`). */
  tables?: Table[];
}

/** The figures of a run, per family that offers some. */
export interface RunStatsReport {
  dir: string;
  agent: string;
  mode: string;
  families: FamilyRunStats[];
  /** Families in the run that offer no run statistics. */
  without: string[];
}

/** The calls that ran (status `ok`) in an episode's log, in order; null when the folder has no log for it. */
export function executedCalls(dir: string, instance: string): ToolCall[] | null {
  const { header, turns } = new EpisodeLog(dir, instance).read();
  if (!header) return null;
  const calls: ToolCall[] = [];
  for (const t of turns) for (const r of t.results) if (r.status === 'ok' && r.call) calls.push(r.call);
  return calls;
}

/** A run's finished episodes of one family, as its `runStats` hook reads them. */
export function runEpisodes(dir: string, familyId: string): RunEpisode[] {
  const summary = loadSummary(dir);
  return summary.episodes
    .filter((e) => parseInstanceId(e.instance).family === familyId)
    .map((e) => ({ instance: familyAndInstanceFromId(e.instance).instance, solved: e.solved, abandoned: e.abandoned, executed: executedCalls(dir, e.instance) }));
}

/**
 * The run statistics of every family in the run that offers them (or of the given families,
 * which must offer them). Throws `invalid-argument` for a named family without statistics.
 */
export function runStatistics(dir: string, opts: { families?: string[] } = {}): RunStatsReport {
  const summary = loadSummary(dir);
  const inRun = new Set([...summary.episodes.map((e) => e.instance), ...summary.unfinished].map((id) => parseInstanceId(id).family));
  let chosen: TaskFamily[];
  if (opts.families) {
    chosen = opts.families.map((id) => getFamily(id));
    const bare = chosen.filter((f) => !f.runStats);
    if (bare.length) {
      const offering = families().filter((f) => f.runStats).map((f) => f.id);
      throw new SpaceActError('invalid-argument', `${bare.map((f) => f.id).join(', ')} offer${bare.length === 1 ? 's' : ''} no run statistics; families that do: ${offering.join(', ') || 'none'}`);
    }
  } else {
    chosen = families().filter((f) => f.runStats && inRun.has(f.id));
  }
  const report: RunStatsReport = {
    dir,
    agent: summary.agent.name,
    mode: summary.mode,
    families: [],
    without: families().filter((f) => !f.runStats && inRun.has(f.id)).map((f) => f.id),
  };
  for (const family of chosen) {
    const stats = family.runStats!;
    const episodes = runEpisodes(dir, family.id);
    const result = stats.compute(episodes);
    report.families.push({
      family: family.id,
      title: stats.title,
      episodes: episodes.length,
      unfinished: summary.unfinished.filter((id) => parseInstanceId(id).family === family.id).length,
      result,
      text: stats.format(result),
      ...(stats.tables ? { tables: stats.tables(result) } : {}),
    });
  }
  return report;
}

/** The report as text for a terminal. */
export function formatRunStatistics(r: RunStatsReport): string {
  const out: string[] = [`Run ${r.dir} (agent ${r.agent}, mode ${r.mode})`];
  if (r.families.length === 0) out.push('', 'No family in this run offers run statistics.');
  for (const f of r.families) {
    out.push('', `${f.family} — ${f.title} (${f.episodes} episode${f.episodes === 1 ? '' : 's'})`, f.text.trimEnd());
    if (f.unfinished) out.push(`${f.unfinished} ${f.family} episode(s) unfinished and not counted.`);
  }
  if (r.without.length) out.push('', `No run statistics offered by: ${r.without.join(', ')}.`);
  return out.join('\n') + '\n';
}
