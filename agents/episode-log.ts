import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Instance } from '../tasks/types.ts';
import type { EpisodeOutcome, ObservationImage, TurnRecord } from './types.ts';
import type { Score } from './scoring.ts';

/** Version of the log format; bumped when a line's meaning changes. */
export const LOG_FORMAT = 1;

/** First line of an episode log: everything needed to rebuild the run. */
export interface LogHeader {
  type: 'header';
  format: number;
  package: { name: string; version: string };
  instance: { id: string; family: string; familyVersion: number; tier: string; seed: number; digest: string };
  agent: { name: string; settings: Record<string, unknown> };
  mode: string;
  budgets: Instance['budgets'];
  historyImages: number;
  startedAt: string;
}

/** A turn line: the loop's record plus the files its images were written to. */
export interface LogTurn extends Omit<TurnRecord, 'images'> {
  type: 'turn';
  images: Array<{ kind: ObservationImage['kind']; caption: string; file: string }>;
}

/** Last line of a finished episode. */
export interface LogEnd {
  type: 'end';
  outcome: EpisodeOutcome;
  score: Score;
  referenceActions: number;
  finishedAt: string;
  /** The observation of the final state (written beside the log), for replays; absent in older logs. */
  finalImages?: Array<{ kind: ObservationImage['kind']; caption: string; file: string }>;
}

/** A digest of an instance's JSON, so a log can prove which instance it ran. */
export function instanceDigest(instance: Instance): string {
  return createHash('sha256').update(JSON.stringify(instance)).digest('hex').slice(0, 16);
}

/** File-system-safe folder name of an episode. */
export function episodeDirName(instanceId: string): string {
  return instanceId.replace(/[^A-Za-z0-9_.-]/g, '_');
}

/**
 * One episode's JSONL log, appended as each turn completes so that a killed run loses at
 * most the turn in flight. Images go beside it as PNG files.
 */
export class EpisodeLog {
  readonly dir: string;
  readonly file: string;

  constructor(runDir: string, instanceId: string) {
    this.dir = join(runDir, 'episodes', episodeDirName(instanceId));
    this.file = join(this.dir, 'log.jsonl');
  }

  /** Reads what an earlier run left: its header, completed turns and end line, if any. */
  read(): { header: LogHeader | null; turns: LogTurn[]; end: LogEnd | null } {
    if (!existsSync(this.file)) return { header: null, turns: [], end: null };
    let header: LogHeader | null = null;
    const turns: LogTurn[] = [];
    let end: LogEnd | null = null;
    for (const line of readFileSync(this.file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      let rec: { type?: string };
      try {
        rec = JSON.parse(line) as { type?: string };
      } catch {
        // A line cut short by a kill: everything after it is lost with it.
        break;
      }
      if (rec.type === 'header') header = rec as LogHeader;
      else if (rec.type === 'turn') turns.push(rec as LogTurn);
      else if (rec.type === 'end') end = rec as LogEnd;
    }
    return { header, turns, end };
  }

  /** Starts a fresh log (replacing any earlier one). */
  start(header: LogHeader): void {
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(this.file, JSON.stringify(header) + '\n');
  }

  /**
   * Rewrites the log with the header and the turns kept from an earlier run, dropping a
   * partial last line, before the episode continues.
   */
  restart(header: LogHeader, turns: LogTurn[]): void {
    mkdirSync(this.dir, { recursive: true });
    // Written aside and renamed, so a kill during the rewrite cannot lose the kept turns.
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, [header, ...turns].map((x) => JSON.stringify(x) + '\n').join(''));
    renameSync(tmp, this.file);
  }

  /** Appends one turn, writing its images first so the line never points at a missing file. */
  appendTurn(record: TurnRecord, images: ObservationImage[]): void {
    const files = images.map((img, i) => {
      const name = `turn-${String(record.turn).padStart(3, '0')}-${i}-${img.kind}.png`;
      writeFileSync(join(this.dir, name), img.png);
      return { kind: img.kind, caption: img.caption, file: name };
    });
    const line: LogTurn = { ...record, type: 'turn', images: files };
    appendFileSync(this.file, JSON.stringify(line) + '\n');
  }

  /** Appends the end line, writing the final state's images first (as `final-<i>-<kind>.png`). */
  finish(end: Omit<LogEnd, 'type' | 'finalImages'>, finalImages: ObservationImage[] = []): void {
    const line: LogEnd = { type: 'end', ...end };
    if (finalImages.length) {
      line.finalImages = finalImages.map((img, i) => {
        const name = `final-${i}-${img.kind}.png`;
        writeFileSync(join(this.dir, name), img.png);
        return { kind: img.kind, caption: img.caption, file: name };
      });
    }
    appendFileSync(this.file, JSON.stringify(line) + '\n');
  }
}
