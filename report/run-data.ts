import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { clipTurnForDisplay, EpisodeLog, episodeDirName, type LogEnd, type LogHeader, type LogInspection, type LogTurn } from '../agents/episode-log.ts';
import type { RunSummary, SummaryEntry } from '../agents/runner.ts';
import { SpaceActError } from '../core/errors.ts';

/** One episode of a run as the report shows it. */
export interface EpisodeData {
  instance: string;
  /** The summary's row; null for an episode listed as unfinished. */
  entry: SummaryEntry | null;
  /** Folder under `episodes/` holding the log and images. */
  dirName: string;
  header: LogHeader | null;
  turns: LogTurn[];
  end: LogEnd | null;
  /** What is missing or odd about this episode's files (shown in the report). */
  problems: string[];
}

/** A run folder read back: its summary and, when asked for, every episode's log. */
export interface RunData {
  dir: string;
  summary: RunSummary;
  episodes: EpisodeData[];
}

const ENTRY_FIELDS: Array<[keyof SummaryEntry, string]> = [
  ['instance', 'string'],
  ['family', 'string'],
  ['tier', 'string'],
  ['solved', 'boolean'],
  ['graded', 'boolean'],
  ['turns', 'number'],
  ['actions', 'number'],
  ['violations', 'number'],
  ['abandoned', 'boolean'],
  ['inputTokens', 'number'],
  ['outputTokens', 'number'],
];

/**
 * Reads and checks `DIR/summary.json`. A missing or malformed file is a `SpaceActError`
 * naming the file and the first bad field.
 */
export function loadSummary(dir: string): RunSummary {
  const file = join(dir, 'summary.json');
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new SpaceActError('io', `${dir} is not a folder`, { dir });
  if (!existsSync(file)) throw new SpaceActError('io', `${file} does not exist: is ${dir} a run folder (spaceact run --out)?`, { file });
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new SpaceActError('io', `${file} is not valid JSON: ${(err as Error).message}`, { file });
  }
  const bad = (what: string): SpaceActError => new SpaceActError('io', `${file}: ${what}`, { file });
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw bad('expected a JSON object');
  const s = data as Partial<RunSummary>;
  if (!Array.isArray(s.episodes)) throw bad('"episodes" must be a list');
  const seen = new Set<string>();
  s.episodes.forEach((e, i) => {
    if (!e || typeof e !== 'object') throw bad(`episodes[${i}] must be an object`);
    for (const [key, type] of ENTRY_FIELDS) {
      if (typeof e[key] !== type || (type === 'number' && !Number.isFinite(e[key]))) throw bad(`episodes[${i}].${key} must be a ${type}`);
    }
    if (e.score !== null && !(typeof e.score === 'number' && Number.isFinite(e.score))) throw bad(`episodes[${i}].score must be a number or null`);
    if (e.cost !== undefined && !(typeof e.cost === 'number' && Number.isFinite(e.cost))) throw bad(`episodes[${i}].cost must be a number`);
    if (seen.has(e.instance)) throw bad(`instance ${e.instance} is listed twice`);
    seen.add(e.instance);
  });
  const unfinished = Array.isArray(s.unfinished) ? s.unfinished.filter((x): x is string => typeof x === 'string') : [];
  return {
    package: s.package ?? { name: 'spaceact', version: '?' },
    agent: s.agent && typeof s.agent.name === 'string' ? s.agent : { name: s.episodes[0]?.agent ?? '?', settings: {} },
    mode: typeof s.mode === 'string' ? s.mode : (s.episodes[0]?.mode ?? 'default'),
    episodes: s.episodes,
    totals: s.totals ?? totalsOf(s.episodes),
    unfinished,
    ...(s.stopped ? { stopped: s.stopped } : {}),
    ...(s.resumed && Number.isInteger(s.resumed.finished) && Number.isInteger(s.resumed.continued) ? { resumed: { finished: s.resumed.finished, continued: s.resumed.continued } } : {}),
  };
}

function totalsOf(episodes: SummaryEntry[]): RunSummary['totals'] {
  return {
    episodes: episodes.length,
    solved: episodes.filter((e) => e.solved).length,
    abandoned: episodes.filter((e) => e.abandoned).length,
    inputTokens: episodes.reduce((a, e) => a + e.inputTokens, 0),
    outputTokens: episodes.reduce((a, e) => a + e.outputTokens, 0),
  };
}

/**
 * Reads a run folder: the summary and every episode's log (finished episodes in summary
 * order, then the unfinished ones). Missing logs are noted, not fatal: the summary alone
 * still makes a report.
 */
export function loadRun(dir: string): RunData {
  const summary = loadSummary(dir);
  const rows: Array<{ instance: string; entry: SummaryEntry | null }> = [
    ...summary.episodes.map((e) => ({ instance: e.instance, entry: e })),
    ...summary.unfinished.filter((id) => !summary.episodes.some((e) => e.instance === id)).map((id) => ({ instance: id, entry: null })),
  ];
  const episodes = rows.map(({ instance, entry }): EpisodeData => {
    const log = new EpisodeLog(dir, instance);
    const problems: string[] = [];
    let read: Pick<LogInspection, 'header' | 'turns' | 'end'> = { header: null, turns: [], end: null };
    try {
      // The good part of a damaged log is shown, each turn clipped so that the page stays small.
      const r = log.inspect();
      read = { header: r.header, turns: r.turns.map(clipTurnForDisplay), end: r.end };
      if (r.damage) problems.push(`log line ${r.damage.line} is damaged (${r.damage.problem}); the ${r.damage.linesAfter} line(s) after it are not shown`);
    } catch (err) {
      problems.push(`the log could not be read: ${(err as Error).message}`);
    }
    if (!existsSync(log.file)) problems.push('no log file');
    else if (!read.header) problems.push('the log has no header line');
    if (entry && !read.end && existsSync(log.file)) problems.push('the log has no end line');
    if (!entry) problems.push('unfinished: rerun with the same --out to continue');
    return { instance, entry, dirName: episodeDirName(instance), header: read.header, turns: read.turns, end: read.end, problems };
  });
  return { dir, summary, episodes };
}
