/**
 * A verification checkpoint (`spaceact verify --checkpoint FILE`): every record is written to a
 * file as soon as it is known, so a certification that takes hours and is interrupted (a
 * reboot, a killed terminal, a worker machine gone) goes on where it stopped when run again with
 * the same file, recomputing nothing it had finished.
 *
 * The file is JSON lines: a header naming what it verifies — the checkout's code digest, the
 * settings and the list of records, in order — then one line per finished record. A record is
 * taken back only under the same header: another checkout, other options or another selection
 * would give other records, so such a file is refused rather than mixed in. A last line cut off
 * by the interruption is ignored (that record is computed again).
 */
import { appendFileSync, closeSync, fsyncSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { canonicalJson } from '../core/canonical-json.ts';
import { SpaceActError } from '../core/errors.ts';
import { checkoutDigest } from './checkout-digest.ts';

/** The format's name and version, the header's first field. */
export const CHECKPOINT_FORMAT = 'spaceact-verify-checkpoint-v1';

/** The header line: what the file's records belong to. */
interface CheckpointHeader {
  format: string;
  checkout: string;
  /** SHA-256 of the settings and the records' keys in order (canonical JSON). */
  work: string;
  /** How many records the verification has (for the "resumed N of M" line). */
  records: number;
}

/** One finished record: its place in the serial order, its key, what it holds and its CPU seconds. */
interface CheckpointLine {
  at: number;
  key: string;
  record: unknown;
  cpuSeconds: number;
}

/**
 * An open checkpoint: the records a previous run finished (`done`), and `write` for each record
 * this run finishes.
 */
export class VerifyCheckpoint {
  /** Finished records by their place in the serial order. */
  readonly done: Map<number, { record: unknown; cpuSeconds: number }>;
  private readonly path: string;
  private readonly keys: readonly string[];

  private constructor(path: string, keys: readonly string[], done: Map<number, { record: unknown; cpuSeconds: number }>) {
    this.path = path;
    this.keys = keys;
    this.done = done;
  }

  /**
   * Opens `path` for a verification with these settings and record keys (in serial order):
   * creates it with its header when it does not exist or is empty, reads its finished records
   * when its header matches, and refuses it (a `SpaceActError`, the file untouched) when it
   * belongs to another verification or is not a checkpoint.
   */
  static open(path: string, settings: unknown, keys: readonly string[]): VerifyCheckpoint {
    const header: CheckpointHeader = {
      format: CHECKPOINT_FORMAT,
      checkout: checkoutDigest(),
      work: createHash('sha256').update(canonicalJson({ settings, keys })).digest('hex'),
      records: keys.length,
    };
    let text: string | null;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new SpaceActError('invalid-argument', `--checkpoint ${path}: cannot read it (${(err as Error).message})`);
      text = null;
    }
    const done = new Map<number, { record: unknown; cpuSeconds: number }>();
    if (text === null || text.trim() === '') {
      try {
        writeFileSync(path, JSON.stringify(header) + '\n', { flag: text === null ? 'wx' : 'w' });
      } catch (err) {
        throw new SpaceActError('invalid-argument', `--checkpoint ${path}: cannot write it (${(err as Error).message})`);
      }
      return new VerifyCheckpoint(path, keys, done);
    }
    const lines = text.split('\n');
    let found: Partial<CheckpointHeader> | null = null;
    try {
      found = JSON.parse(lines[0]) as Partial<CheckpointHeader>;
    } catch {
      found = null;
    }
    if (!found || found.format !== CHECKPOINT_FORMAT) throw new SpaceActError('invalid-argument', `--checkpoint ${path}: not a verification checkpoint (it is left as it is; give a new file)`);
    if (found.checkout !== header.checkout) {
      throw new SpaceActError('invalid-argument', `--checkpoint ${path}: written by another checkout (code digest ${String(found.checkout).slice(0, 12)}, this one ${header.checkout.slice(0, 12)}): its records would not be this code's; give a new file`);
    }
    if (found.work !== header.work) {
      throw new SpaceActError('invalid-argument', `--checkpoint ${path}: written by a verification with other options or another selection; run that one again, or give a new file`);
    }
    // A line is taken only whole, at its place, under its key: the last one may have been cut
    // off by the interruption, and nothing else in the file is trusted blindly either.
    const ended = text.endsWith('\n');
    lines.slice(1).forEach((line, i) => {
      if (line === '' || (!ended && i === lines.length - 2)) return;
      let parsed: Partial<CheckpointLine>;
      try {
        parsed = JSON.parse(line) as Partial<CheckpointLine>;
      } catch {
        return;
      }
      const at = parsed.at;
      if (typeof at !== 'number' || !Number.isInteger(at) || at < 0 || at >= keys.length || parsed.key !== keys[at] || parsed.record === undefined) return;
      done.set(at, { record: parsed.record, cpuSeconds: typeof parsed.cpuSeconds === 'number' ? parsed.cpuSeconds : 0 });
    });
    // A torn last line would glue itself to the next record: end the file on a line break.
    if (!ended) appendFileSync(path, '\n');
    return new VerifyCheckpoint(path, keys, done);
  }

  /** Keeps one finished record (appended and flushed to disk before this returns). */
  write(at: number, record: unknown, cpuSeconds: number): void {
    const line: CheckpointLine = { at, key: this.keys[at], record, cpuSeconds: Number.isFinite(cpuSeconds) ? cpuSeconds : 0 };
    const fd = openSync(this.path, 'a');
    try {
      appendFileSync(fd, JSON.stringify(line) + '\n');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}
