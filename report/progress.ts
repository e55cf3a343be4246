import type { Writable } from 'node:stream';
import cliProgress from 'cli-progress';
import type { SummaryEntry } from '../agents/runner.ts';
import type { TurnRecord } from '../agents/types.ts';

/** A stream that may be a terminal. */
type Stream = Writable & { isTTY?: boolean; columns?: number };

/** Options of {@link RunProgress}. */
export interface ProgressOptions {
  /** Where the live line is drawn (default stderr). */
  stream?: Stream;
  /** Where {@link RunProgress.log} lines go when no live line is drawn (default stdout). */
  out?: Stream;
  /**
   * Draw the live line? Default: only when both `stream` and `out` are terminals, so piped or
   * redirected output stays free of control characters.
   */
  live?: boolean;
}

/** Running totals of a run, as the live line shows them. */
export interface ProgressTotals {
  done: number;
  total: number;
  solved: number;
  turns: number;
  inputTokens: number;
  outputTokens: number;
  /** Dollars, once any cost was recorded. */
  cost?: number;
}

/** 1234 → "1.2k", 2_500_000 → "2.5M". */
function short(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e4) return `${Math.round(n / 1e3)}k`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}

/** Seconds as "42s", "3m05s", "1h07m". */
function duration(s: number): string {
  const t = Math.max(0, Math.round(s));
  if (t < 60) return `${t}s`;
  if (t < 3600) return `${Math.floor(t / 60)}m${String(t % 60).padStart(2, '0')}s`;
  return `${Math.floor(t / 3600)}h${String(Math.floor((t % 3600) / 60)).padStart(2, '0')}m`;
}

/**
 * The live progress line of a run: episodes done of total, a bar, the ETA, success so far,
 * turns, tokens and cost, redrawn in place on a terminal (by `cli-progress`) and silent
 * otherwise. Lines printed through {@link RunProgress.log} appear above the bar. Call
 * {@link RunProgress.close} at the end: while drawn, the bar keeps a redraw timer.
 *
 * ```ts
 * const progress = new RunProgress(ids.length);
 * runInstances({ ..., onEpisode: (e) => { progress.log(line(e)); progress.episodeDone(e); },
 *                     onTurn: (r, id) => progress.turnDone(r, id) });
 * progress.close();
 * ```
 */
export class RunProgress {
  /** True when the live line is drawn. */
  readonly live: boolean;
  private readonly out: Stream;
  private readonly bars: cliProgress.MultiBar | null = null;
  private readonly bar: cliProgress.SingleBar | null = null;
  private readonly totals: ProgressTotals;
  /** Turns and tokens of episodes still running, by instance, until their entry arrives. */
  private readonly inFlight = new Map<string, { turns: number; inputTokens: number; outputTokens: number; cost: number }>();
  private closed = false;

  constructor(total: number, opts: ProgressOptions = {}) {
    const stream = opts.stream ?? (process.stderr as Stream);
    this.out = opts.out ?? (process.stdout as Stream);
    this.live = opts.live ?? (stream.isTTY === true && this.out.isTTY === true);
    this.totals = { done: 0, total, solved: 0, turns: 0, inputTokens: 0, outputTokens: 0 };
    if (!this.live) return;
    this.bars = new cliProgress.MultiBar({
      stream: stream as NodeJS.WritableStream,
      // Draw even on a stream that only claims to be a terminal (`live: true` was asked for).
      noTTYOutput: stream.isTTY !== true,
      hideCursor: false,
      clearOnComplete: false,
      barsize: 24,
      // ETA from the last 12 episodes: resumed episodes finish at once and should age out.
      etaBuffer: 12,
      etaAsynchronousUpdate: true,
      format: (options, params) => this.format(options, params),
    });
    this.bar = this.bars.create(total, 0);
  }

  /** The running totals (finished episodes plus the turns of those in flight). */
  snapshot(): ProgressTotals {
    const t = { ...this.totals };
    let cost = t.cost;
    for (const f of this.inFlight.values()) {
      t.turns += f.turns;
      t.inputTokens += f.inputTokens;
      t.outputTokens += f.outputTokens;
      if (f.cost) cost = (cost ?? 0) + f.cost;
    }
    if (cost !== undefined) t.cost = cost;
    return t;
  }

  /** The text of the line, without the bar and ETA (also what tests read). */
  describe(): string {
    const t = this.snapshot();
    const rate = t.done ? ` (${Math.round((100 * t.solved) / t.done)}%)` : '';
    const cost = t.cost !== undefined ? ` | $${t.cost.toFixed(2)}` : '';
    return `${t.done}/${t.total} episodes | solved ${t.solved}/${t.done}${rate} | ${t.turns} turns | tokens ${short(t.inputTokens)} in, ${short(t.outputTokens)} out${cost}`;
  }

  private format(options: cliProgress.Options, params: cliProgress.Params): string {
    const bar = cliProgress.Format.BarFormat(params.progress, options);
    const eta = typeof params.eta === 'number' && this.totals.done > 0 && this.totals.done < this.totals.total ? ` | ETA ${duration(params.eta)}` : '';
    return `${bar} ${this.describe()}${eta}`;
  }

  /** Counts one turn of an episode still running (its tokens show before the episode ends). */
  turnDone(record: Pick<TurnRecord, 'reply'>, instance = ''): void {
    const f = this.inFlight.get(instance) ?? { turns: 0, inputTokens: 0, outputTokens: 0, cost: 0 };
    f.turns += 1;
    f.inputTokens += record.reply.usage?.inputTokens ?? 0;
    f.outputTokens += record.reply.usage?.outputTokens ?? 0;
    f.cost += record.reply.usage?.cost ?? 0;
    this.inFlight.set(instance, f);
    this.redraw();
  }

  /** Counts a finished episode (its entry replaces whatever its turns added). */
  episodeDone(entry: SummaryEntry): void {
    this.inFlight.delete(entry.instance);
    // Turns reported without an instance belong to the episode that just ended (serial runs).
    this.inFlight.delete('');
    const t = this.totals;
    t.done += 1;
    if (entry.solved) t.solved += 1;
    t.turns += entry.turns;
    t.inputTokens += entry.inputTokens;
    t.outputTokens += entry.outputTokens;
    if (entry.cost !== undefined) t.cost = (t.cost ?? 0) + entry.cost;
    this.bar?.update(t.done);
    this.redraw();
  }

  /** Prints a line (a newline is added when missing): above the live line, or plainly. */
  log(line: string): void {
    const text = line.endsWith('\n') ? line : `${line}\n`;
    if (this.bars && !this.closed) this.bars.log(text);
    else this.out.write(text);
  }

  private redraw(): void {
    // The bar redraws on its own timer; a payload update makes the new text show on the next tick.
    if (this.bar && !this.closed) this.bar.update({});
  }

  /** Draws the final line and stops the redraw timer. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (!this.bars) return;
    // stop() alone drops lines still waiting in the log buffer: draw once more first.
    this.bars.update();
    this.bars.stop();
  }
}
