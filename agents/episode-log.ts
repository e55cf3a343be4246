import { createHash } from 'node:crypto';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SpaceActError } from '../core/errors.ts';
import type { Instance } from '../tasks/types.ts';
import type { EpisodeOutcome, ObservationImage, TurnRecord } from './types.ts';
import type { Score } from './scoring.ts';
import { namingFile } from './fs-errors.ts';

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

/** What {@link EpisodeLog.read} returns. */
export interface LogContents {
  header: LogHeader | null;
  turns: LogTurn[];
  end: LogEnd | null;
  /** A last line cut short with no line break (the write in flight when the run was killed): dropped. */
  tornTail?: { line: number; chars: number };
}

/** The first damaged line of a log. */
export interface LogDamage {
  /** 1-based line number. */
  line: number;
  problem: string;
  /** Lines after the damaged one (all of them would be lost by cutting there). */
  linesAfter: number;
  /** Good lines before it. */
  goodLines: number;
}

/** What {@link EpisodeLog.inspect} returns: the good part of the log and its first damage. */
export interface LogInspection extends LogContents {
  damage: LogDamage | null;
  /** Lines read and found good, from the top. */
  goodLines: number;
}

/** A log line that is not what the writer writes: the run stops rather than lose what follows it. */
export class LogDamageError extends SpaceActError {
  constructor(
    readonly file: string,
    readonly damage: LogDamage,
  ) {
    super(
      'invalid-state',
      `${file} line ${damage.line} is damaged: ${damage.problem}. Nothing was changed. ` +
        `Rerun with --repair to keep the ${damage.goodLines} good line${damage.goodLines === 1 ? '' : 's'} before it and drop it and the ${damage.linesAfter} line${damage.linesAfter === 1 ? '' : 's'} after it (a copy is kept), or move the episode folder away`,
      { file, line: damage.line },
    );
    this.name = 'LogDamageError';
  }
}

const isObj = (x: unknown): x is Record<string, unknown> => !!x && typeof x === 'object' && !Array.isArray(x);
const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
/** Image file names the writer produces: a plain name beside the log, never a path. */
const IMAGE_FILE = /^[A-Za-z0-9_.-]{1,120}\.png$/;

/**
 * What is wrong with line `index` (0-based) of a log, given what was read before it, or null.
 * Checks the line is one the writer writes, in the place the writer writes it: a header
 * first, turns numbered 1, 2, 3… with their images, reply, results and state hash, and an end
 * line last. Extra fields are allowed (later format versions may add some).
 */
function lineProblem(rec: unknown, index: number, before: LogContents): string | null {
  if (!isObj(rec)) return 'not a JSON object';
  if (before.end) return `a line after the end line`;
  switch (rec.type) {
    case 'header': {
      if (index !== 0 || before.header) return 'a header line that is not the first line';
      // Another build's log is not damage: `inspect` refuses it by its format, naming both.
      if (rec.format !== LOG_FORMAT) return null;
      const inst = rec.instance;
      if (!isNum(rec.format)) return 'header without a format number';
      if (!isObj(inst) || typeof inst.id !== 'string' || typeof inst.digest !== 'string') return 'header without instance id and digest';
      if (!isObj(rec.agent) || typeof rec.agent.name !== 'string') return 'header without an agent name';
      if (typeof rec.mode !== 'string') return 'header without a mode';
      return null;
    }
    case 'turn': {
      if (!before.header) return 'a turn line before the header';
      const expected = before.turns.length + 1;
      if (rec.turn !== expected) return `turn number ${JSON.stringify(rec.turn)?.slice(0, 20)} where turn ${expected} was due`;
      if (!isNum(rec.worldTimeBefore) || !isNum(rec.worldTimeAfter)) return `turn ${expected} without its world times`;
      if (!Array.isArray(rec.images)) return `turn ${expected} without its image list`;
      for (const img of rec.images) {
        if (!isObj(img) || typeof img.kind !== 'string' || typeof img.caption !== 'string' || typeof img.file !== 'string' || !IMAGE_FILE.test(img.file)) {
          return `turn ${expected} lists an image that is not {kind, caption, file} with a plain .png file name`;
        }
      }
      const reply = rec.reply;
      if (!isObj(reply) || typeof reply.rationale !== 'string' || typeof reply.note !== 'string' || !Array.isArray(reply.actions)) {
        return `turn ${expected} without a reply {rationale, note, actions}`;
      }
      if (reply.actions.some((a) => !isObj(a) || typeof a.tool !== 'string' || !isObj(a.args))) return `turn ${expected} has a call that is not {tool, args}`;
      if (!Array.isArray(rec.results)) return `turn ${expected} without its results`;
      if (typeof rec.stateHash !== 'string') return `turn ${expected} without its state hash`;
      return null;
    }
    case 'end': {
      if (!before.header) return 'an end line before the header';
      const o = rec.outcome;
      if (!isObj(o) || typeof o.instance !== 'string' || typeof o.solved !== 'boolean' || typeof o.abandoned !== 'boolean' || !isNum(o.turns) || typeof o.endReason !== 'string' || !isObj(o.usage)) {
        return 'an end line without a complete outcome';
      }
      if (!isObj(rec.score) || !isNum(rec.referenceActions)) return 'an end line without score and reference actions';
      if (o.turns !== before.turns.length) return `an end line for ${o.turns} turns after ${before.turns.length} turn lines`;
      return null;
    }
    default:
      return `a line of unknown type ${JSON.stringify(rec.type)?.slice(0, 40)}`;
  }
}

/** Longest text of a log shown in a report, characters (a reply text, a problem, a message). */
export const DISPLAY_TEXT_CHARS = 4000;
/** Most entries of any list shown in a report (requests, problems, calls, results). */
export const DISPLAY_LIST_ITEMS = 64;
/** Deepest nesting shown in a report (call arguments are a few levels deep). */
const DISPLAY_DEPTH = 12;

function clipForDisplay(value: unknown, depth: number): unknown {
  if (typeof value === 'string') {
    return value.length <= DISPLAY_TEXT_CHARS ? value : `${value.slice(0, DISPLAY_TEXT_CHARS)}… [${value.length} characters in all; the rest is in the log]`;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= DISPLAY_DEPTH) return '(nested too deep to show)';
  if (Array.isArray(value)) {
    const shown = value.slice(0, DISPLAY_LIST_ITEMS).map((v) => clipForDisplay(v, depth + 1));
    if (value.length > DISPLAY_LIST_ITEMS) shown.push(`(${value.length - DISPLAY_LIST_ITEMS} more not shown)`);
    return shown;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value).slice(0, DISPLAY_LIST_ITEMS)) out[k] = clipForDisplay(v, depth + 1);
  return out;
}

/**
 * A turn as a report shows it: every text at most {@link DISPLAY_TEXT_CHARS} characters, every
 * list at most {@link DISPLAY_LIST_ITEMS} entries, nesting at most 12 levels. Logs this build
 * writes are already capped; this bounds the page for any log, an old or a hostile one.
 */
export function clipTurnForDisplay(turn: LogTurn): LogTurn {
  const clipped = clipForDisplay(turn, 0) as LogTurn;
  // Image file names and the turn number are what the page links by: kept exactly.
  return { ...clipped, turn: turn.turn, images: turn.images.slice(0, DISPLAY_LIST_ITEMS) };
}

/** A digest of an instance's JSON, so a log can prove which instance it ran. */
export function instanceDigest(instance: Instance): string {
  return createHash('sha256').update(JSON.stringify(instance)).digest('hex').slice(0, 16);
}

/**
 * The file name of an image: `<stem>-<kind>.png`. The kind becomes part of a path, so only the
 * renderer's own kinds are taken (a kind from elsewhere — a queue message — holding `../` or
 * markup is refused, never written).
 */
function imageFileName(stem: string, kind: string): string {
  if (kind !== 'view' && kind !== 'strobe' && kind !== 'rollback') throw new SpaceActError('invalid-argument', `an image of kind ${JSON.stringify(String(kind)).slice(0, 40)} (kinds: view, strobe, rollback)`);
  return `${stem}-${kind}.png`;
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

  /** `file`: read another log file of the episode (a kept old log) instead of `log.jsonl`. */
  constructor(runDir: string, instanceId: string, file?: string) {
    this.dir = file ? dirname(file) : join(runDir, 'episodes', episodeDirName(instanceId));
    this.file = file ?? join(this.dir, 'log.jsonl');
  }

  /**
   * Reads what an earlier run left: its header, completed turns and end line. Every line is
   * checked; a damaged one throws a {@link LogDamageError} naming the file and line (nothing
   * is changed; see {@link EpisodeLog.repair}). Only a last line cut short with no line
   * break — the write in flight when a run was killed — is dropped, and reported in `tornTail`.
   * A log written in another format (its header's `format` is not {@link LOG_FORMAT}) is refused
   * with `invalid-state` rather than misread.
   */
  read(): LogContents {
    const r = this.inspect();
    if (r.damage) throw new LogDamageError(this.file, r.damage);
    return { header: r.header, turns: r.turns, end: r.end, ...(r.tornTail ? { tornTail: r.tornTail } : {}) };
  }

  /** Like {@link read}, but returns the first damaged line instead of throwing. */
  inspect(): LogInspection {
    const empty: LogInspection = { header: null, turns: [], end: null, damage: null, goodLines: 0 };
    if (!existsSync(this.file)) return empty;
    if (statSync(this.file).isDirectory()) throw new SpaceActError('io', `${this.file} is a folder, not an episode log; move it away`, { file: this.file });
    const text = readFileSync(this.file, 'utf8');
    const lines = text.split('\n');
    // The text after the last line break: '' when the file ends cleanly.
    const tail = lines.pop()!;
    const out: LogInspection = { ...empty };
    const damaged = (index: number, problem: string): LogInspection => {
      out.damage = { line: index + 1, problem, linesAfter: lines.length - index - 1 + (tail ? 1 : 0), goodLines: out.goodLines };
      return out;
    };
    const all = tail ? [...lines, tail] : lines;
    for (let i = 0; i < all.length; i++) {
      const line = all[i];
      const last = tail !== '' && i === all.length - 1;
      let rec: unknown;
      try {
        rec = JSON.parse(line);
      } catch (err) {
        if (last) {
          out.tornTail = { line: i + 1, chars: line.length };
          return out;
        }
        return damaged(i, line.trim() === '' ? 'an empty line' : `not valid JSON (${(err as Error).message.slice(0, 120)})`);
      }
      const problem = lineProblem(rec, i, out);
      if (problem) {
        if (last) {
          out.tornTail = { line: i + 1, chars: line.length };
          return out;
        }
        return damaged(i, problem);
      }
      const r = rec as { type: string };
      if (r.type === 'header' && (rec as LogHeader).format !== LOG_FORMAT) {
        // Not damage: a log of another build, refused rather than misread (and never "repaired").
        const format = (rec as LogHeader).format;
        throw new SpaceActError('invalid-state', `${this.file} is an episode log of format ${JSON.stringify(format ?? null)}; this build reads format ${LOG_FORMAT} only (use the version that wrote it, or another --out)`, {
          file: this.file,
          format: format ?? null,
          supported: LOG_FORMAT,
        });
      }
      if (r.type === 'header') out.header = rec as LogHeader;
      else if (r.type === 'turn') out.turns.push(rec as LogTurn);
      else out.end = rec as LogEnd;
      out.goodLines = i + 1;
    }
    return out;
  }

  /**
   * Cuts a damaged log after its last good line, keeping a copy of the whole original beside
   * it (`log.jsonl.damaged-N`). Returns what was dropped, in words, or null when the log was
   * not damaged. The episode then continues from the turns kept (or starts afresh when the
   * header itself was damaged).
   */
  repair(): string | null {
    const r = this.inspect();
    if (!r.damage) return null;
    let n = 1;
    while (existsSync(`${this.file}.damaged-${n}`)) n++;
    const copy = `${this.file}.damaged-${n}`;
    copyFileSync(this.file, copy);
    const text = readFileSync(this.file, 'utf8');
    const kept = text.split('\n').slice(0, r.damage.line - 1);
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, kept.map((l) => `${l}\n`).join(''));
    renameSync(tmp, this.file);
    const dropped = r.damage.linesAfter + 1;
    return `${this.file}: line ${r.damage.line} is damaged (${r.damage.problem}); dropped lines ${r.damage.line}–${r.damage.line + dropped - 1} (${dropped} line${dropped === 1 ? '' : 's'}), kept ${kept.length} (${r.header ? `the header and ${r.turns.length} turn${r.turns.length === 1 ? '' : 's'}` : 'nothing: the episode starts afresh'}); the original is in ${copy}`;
  }

  /** Starts a fresh log (replacing any earlier one). */
  start(header: LogHeader): void {
    mkdirSync(this.dir, { recursive: true });
    namingFile(this.file, () => writeFileSync(this.file, JSON.stringify(header) + '\n'));
  }

  /**
   * Rewrites the log with the header and the turns kept from an earlier run, dropping a
   * partial last line, before the episode continues.
   */
  restart(header: LogHeader, turns: LogTurn[]): void {
    mkdirSync(this.dir, { recursive: true });
    // Written aside and renamed, so a kill during the rewrite cannot lose the kept turns.
    const tmp = `${this.file}.tmp`;
    namingFile(tmp, () => writeFileSync(tmp, [header, ...turns].map((x) => JSON.stringify(x) + '\n').join('')));
    renameSync(tmp, this.file);
  }

  /** Appends one turn, writing its images first so the line never points at a missing file. */
  appendTurn(record: TurnRecord, images: ObservationImage[]): void {
    const files = images.map((img, i) => {
      const name = imageFileName(`turn-${String(record.turn).padStart(3, '0')}-${i}`, img.kind);
      const path = join(this.dir, name);
      namingFile(path, () => writeFileSync(path, img.png));
      return { kind: img.kind, caption: img.caption, file: name };
    });
    const line: LogTurn = { ...record, type: 'turn', images: files };
    namingFile(this.file, () => appendFileSync(this.file, JSON.stringify(line) + '\n'));
  }

  /** Appends the end line, writing the final state's images first (as `final-<i>-<kind>.png`). */
  finish(end: Omit<LogEnd, 'type' | 'finalImages'>, finalImages: ObservationImage[] = []): void {
    const line: LogEnd = { type: 'end', ...end };
    if (finalImages.length) {
      line.finalImages = finalImages.map((img, i) => {
        const name = imageFileName(`final-${i}`, img.kind);
        const path = join(this.dir, name);
        namingFile(path, () => writeFileSync(path, img.png));
        return { kind: img.kind, caption: img.caption, file: name };
      });
    }
    namingFile(this.file, () => appendFileSync(this.file, JSON.stringify(line) + '\n'));
  }
}
