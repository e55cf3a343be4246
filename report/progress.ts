import type { Writable } from 'node:stream';
import cliProgress from 'cli-progress';
import type { SummaryEntry } from '../agents/runner.ts';
import type { Usage } from '../agents/types.ts';

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
  /** Episodes that run at once (the ETA divides the work left among them; default 1). */
  concurrency?: number;
  /** Milliseconds now (default `Date.now`); tests pass their own clock. */
  now?: () => number;
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
  /** Finished episodes taken from an earlier run of the same output folder. */
  resumed: number;
}

/** What the progress line needs of one turn. */
export interface TurnProgress {
  /** 1-based turn number (absent: counted on). */
  turn?: number;
  reply?: { usage?: Usage };
}

/** 1234 → "1.2k", 2_500_000 → "2.5M". */
function short(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e4) return `${Math.round(n / 1e3)}k`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}

/** "1 turn", "3 turns". */
function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Seconds as "42s", "3m05s", "1h07m". */
export function formatDuration(s: number): string {
  const t = Math.max(0, Math.round(s));
  if (t < 60) return `${t}s`;
  if (t < 3600) return `${Math.floor(t / 60)}m${String(t % 60).padStart(2, '0')}s`;
  return `${Math.floor(t / 3600)}h${String(Math.floor((t % 3600) / 60)).padStart(2, '0')}m`;
}

/** An episode still running: its turns and tokens so far, and when it started. */
interface InFlight {
  startedAt: number | null;
  turn: number;
  turns: number;
  inputTokens: number;
  outputTokens: number;
  cost: number;
}

/**
 * The live progress line of a run: episodes done of total, a bar, success so far, turns,
 * tokens and cost (finished episodes plus the turns of those still running), the episode
 * and turn in flight, and an ETA, redrawn on every turn on a terminal (drawing by
 * `cli-progress`) and silent otherwise. Lines printed through {@link RunProgress.log} appear
 * above the bar. Call {@link RunProgress.close} at the end: while drawn, the bar keeps a
 * redraw timer.
 *
 * The ETA is the mean wall-clock duration of the episodes this process ran to the end
 * (episodes reused from an earlier run are left out: they take no time) times the episodes
 * left, less what the running ones have already spent, divided among the episodes that run
 * at once. It shows only once an episode has finished.
 *
 * ```ts
 * const progress = new RunProgress(ids.length);
 * runInstances({ ..., onEpisodeStart: (id) => progress.episodeStarted(id),
 *                     onTurn: (id, t) => progress.turnDone(t, id),
 *                     onEpisode: (e, _d, _t, info) => progress.episodeDone(e, info) });
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
  private readonly inFlight = new Map<string, InFlight>();
  /** Wall-clock seconds of the episodes that ran to their end in this process. */
  private readonly durations: number[] = [];
  private readonly concurrency: number;
  private readonly now: () => number;
  private closed = false;

  constructor(total: number, opts: ProgressOptions = {}) {
    const stream = opts.stream ?? (process.stderr as Stream);
    this.out = opts.out ?? (process.stdout as Stream);
    this.live = opts.live ?? (stream.isTTY === true && this.out.isTTY === true);
    this.concurrency = Math.max(1, Math.min(opts.concurrency ?? 1, Math.max(1, total)));
    this.now = opts.now ?? Date.now;
    this.totals = { done: 0, total, solved: 0, turns: 0, inputTokens: 0, outputTokens: 0, resumed: 0 };
    if (!this.live) return;
    this.bars = new cliProgress.MultiBar({
      stream: stream as NodeJS.WritableStream,
      // Draw even on a stream that only claims to be a terminal (`live: true` was asked for).
      noTTYOutput: stream.isTTY !== true,
      hideCursor: false,
      clearOnComplete: false,
      barsize: 20,
      // The line is redrawn at once on every turn; the timer only keeps the ETA ticking.
      fps: 2,
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

  /**
   * Seconds until the run ends, estimated from the durations of finished episodes; null
   * before any episode has run to its end in this process, and once every episode is done.
   */
  etaSeconds(): number | null {
    const t = this.totals;
    if (this.durations.length === 0 || t.done >= t.total) return null;
    const meanS = this.durations.reduce((s, x) => s + x, 0) / this.durations.length;
    const nowMs = this.now();
    let running = 0;
    let left = 0;
    for (const f of this.inFlight.values()) {
      if (f.startedAt === null) continue;
      running += 1;
      left += Math.max(0, meanS - (nowMs - f.startedAt) / 1000);
    }
    const waiting = Math.max(0, t.total - t.done - running);
    return (waiting * meanS + left) / this.concurrency;
  }

  /** The text of the line, without the bar (also what tests read). */
  describe(): string {
    const t = this.snapshot();
    const rate = t.done ? ` (${Math.round((100 * t.solved) / t.done)}%)` : '';
    const cost = t.cost !== undefined ? ` | $${t.cost.toFixed(2)}` : '';
    const running = [...this.inFlight.entries()].filter(([, f]) => f.turn > 0).map(([id, f]) => `${id || 'episode'} turn ${f.turn}`);
    const now = running.length ? ` | ${running.slice(0, 2).join(', ')}${running.length > 2 ? ` +${running.length - 2}` : ''}` : '';
    const eta = this.etaSeconds();
    const etaText = eta !== null ? ` | ETA ${formatDuration(eta)}` : '';
    const resumed = t.resumed ? ` | ${t.resumed} resumed` : '';
    // What changes every turn comes first, so a narrow terminal that cuts the line keeps it.
    return `${t.done}/${t.total} episodes${now}${etaText} | solved ${t.solved}/${t.done}${rate} | ${plural(t.turns, 'turn')} | tokens ${short(t.inputTokens)} in, ${short(t.outputTokens)} out${cost}${resumed}`;
  }

  private format(options: cliProgress.Options, params: cliProgress.Params): string {
    const bar = cliProgress.Format.BarFormat(params.progress, options);
    return `${bar} ${this.describe()}`;
  }

  private flight(instance: string): InFlight {
    let f = this.inFlight.get(instance);
    if (!f) {
      f = { startedAt: null, turn: 0, turns: 0, inputTokens: 0, outputTokens: 0, cost: 0 };
      this.inFlight.set(instance, f);
    }
    return f;
  }

  /** An episode starts (its clock for the ETA starts now). */
  episodeStarted(instance: string): void {
    this.flight(instance).startedAt = this.now();
    this.redraw();
  }

  /** Counts one turn of an episode still running; the line is redrawn at once. */
  turnDone(record: TurnProgress, instance = ''): void {
    const f = this.flight(instance);
    f.turns += 1;
    f.turn = record.turn ?? f.turn + 1;
    f.inputTokens += record.reply?.usage?.inputTokens ?? 0;
    f.outputTokens += record.reply?.usage?.outputTokens ?? 0;
    f.cost += record.reply?.usage?.cost ?? 0;
    this.redraw();
  }

  /**
   * Counts a finished episode (its entry replaces whatever its turns added). `reused`: it was
   * finished by an earlier run of the same output folder and took no time now.
   */
  episodeDone(entry: SummaryEntry, info: { reused?: boolean } = {}): void {
    const f = this.inFlight.get(entry.instance);
    if (!info.reused && f?.startedAt !== null && f?.startedAt !== undefined) this.durations.push((this.now() - f.startedAt) / 1000);
    this.inFlight.delete(entry.instance);
    // Turns reported without an instance belong to the episode that just ended (serial runs).
    this.inFlight.delete('');
    const t = this.totals;
    t.done += 1;
    if (info.reused) t.resumed += 1;
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
    if (!this.bars || this.closed) return;
    // Draw now rather than on the next timer tick: a turn can be shorter than a tick.
    this.bar!.update({});
    this.bars.update();
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
