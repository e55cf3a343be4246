/**
 * How much CPU time each piece of a verification took last time, kept on disk so that the next
 * parallel verification can hand the longest work out first (the way test runners order by
 * earlier durations). Only the hand-out order reads it: results never depend on it, and a
 * missing, unreadable or stale record only costs a less even split.
 *
 * The record is one small JSON file in the table cache folder (`$SPACEACT_CACHE_DIR`, else
 * `node_modules/.cache/spaceact/`). Keys carry the family's version and the settings that
 * scale the work (random-baseline episodes, battery seeds), so a new family version or other
 * settings start without a history instead of trusting old times.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tableCacheDir } from '../solvers/discrete-search/pocket-cube.ts';

const FILE_NAME = 'verify-job-cpu-seconds-v1.json';
/** Enough for every released instance and battery tier many times over; the oldest go first. */
const MAX_ENTRIES = 4000;

/** Recorded CPU seconds by key (see {@link jobTimeKey}). */
export type JobTimes = Map<string, number>;

/** Where the record lives. */
export function jobTimesFile(): string {
  return join(tableCacheDir(), FILE_NAME);
}

/** The key of one piece of work: what it is, the family version and the settings that scale it. */
export function jobTimeKey(what: string, familyVersion: string | number, settings: string): string {
  return `${what}@${familyVersion}|${settings}`;
}

/** The recorded seconds; an empty map when there is no readable record. */
export function readJobTimes(file = jobTimesFile()): JobTimes {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    const out: JobTimes = new Map();
    if (data && typeof data === 'object' && !Array.isArray(data)) {
      for (const [k, v] of Object.entries(data)) if (typeof v === 'number' && Number.isFinite(v) && v >= 0) out.set(k, v);
    }
    return out;
  } catch {
    return new Map();
  }
}

/**
 * Adds `times` to the record (newer entries replace older ones and move to the end), keeping
 * the newest {@link MAX_ENTRIES}. Written beside the target and renamed, so a reader never sees
 * half a file; failing to write is silent (the record is only a hint).
 */
export function recordJobTimes(times: JobTimes, file = jobTimesFile()): void {
  if (times.size === 0) return;
  const merged = readJobTimes(file);
  for (const [k, v] of times) {
    merged.delete(k);
    merged.set(k, Math.round(v * 100) / 100);
  }
  const entries = [...merged].slice(-MAX_ENTRIES);
  try {
    mkdirSync(join(file, '..'), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(Object.fromEntries(entries)));
    renameSync(tmp, file);
  } catch {
    // Only a hint for the next run's order.
  }
}
