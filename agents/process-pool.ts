/**
 * A pool of worker processes that run jobs handed out in order: the mechanism behind parallel
 * runs (`run --concurrency N`) and parallel verification (`verify --concurrency N`). The
 * parent forks `workers` copies of an entry module through the same tsx loader as the CLI,
 * gives each one job at a time as it comes free, and collects results by job index; a worker
 * entry serves jobs with {@link serveJobs}. A failed job (or a worker that dies) stops the
 * handing out, tells every worker to stop, and is rethrown once all have exited.
 *
 * Kept to a few lines of `child_process` rather than a queue package: the only shared state is
 * the next index and a stop flag (runs across machines go through the Redis queue instead).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { SpaceActError, type ErrorCode } from '../core/errors.ts';
import { SPACEACT_V8_FLAGS } from '../core/v8-flags.ts';

/** A job's failure as it crosses the process boundary. */
export interface JobError {
  code?: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

/** Messages from the parent to a worker. */
export type ToPoolWorker<Init, Job> =
  | { type: 'init'; init: Init }
  | { type: 'run'; index: number; job: Job }
  | { type: 'stop' }
  | { type: 'exit' };

/** Messages from a worker to the parent. */
export type FromPoolWorker<Result, Event> =
  | { type: 'event'; index: number; event: Event }
  | { type: 'done'; index: number; result: Result }
  | { type: 'failed'; index: number; error: JobError }
  | { type: 'usage'; cpuMs: number; startupCpuMs: number };

/** Options of {@link runProcessPool}. */
export interface ProcessPoolOptions<Init, Job, Result, Event = never> {
  /** Absolute path of the worker entry module (it calls {@link serveJobs}). */
  entry: string;
  /**
   * Start the workers from a bundle of the entry and the project modules it imports, with
   * plain Node rather than through tsx (see `agents/worker-bundle.ts`; about 1 s less CPU per
   * worker). Only for entries whose modules load nothing else at run time; when the bundle
   * cannot be built the workers start through tsx as usual. Default false.
   */
  bundle?: boolean;
  /** V8 flags for the workers besides {@link SPACEACT_V8_FLAGS}, which every worker gets. */
  v8Flags?: readonly string[];
  /** Jobs, handed out in this order. */
  jobs: readonly Job[];
  /** Worker processes (at most one per job is started). */
  workers: number;
  /** Sent to every worker once, before its first job. */
  init: Init;
  /** A finished job, in completion order; the caller puts results in job order. */
  onResult(index: number, result: Result): void;
  /** Something a worker reports while a job runs (progress, notices). */
  onEvent?(index: number, event: Event): void;
  /** Polled before each job is handed out and after each event; true stops the run. */
  shouldStop?(): boolean;
  /** How a worker that exits mid-job is named in the error (default "job N"). */
  describe?(index: number, job: Job): string;
  /** Aborted: every worker is killed at once (its job's work is dropped) and the run rejects. */
  signal?: AbortSignal;
}

/** What a pool's workers cost, for benchmarks. */
export interface ProcessPoolStats {
  /**
   * CPU time (user + system, milliseconds) each worker process used over its whole life,
   * starting up included; a worker that died without saying is left out.
   */
  workerCpuMs: number[];
  /**
   * CPU time (milliseconds) each of those workers had used when it began serving jobs: the
   * cost of starting a process and loading its modules, paid once per worker.
   */
  workerStartupCpuMs: number[];
}

/**
 * Forks a worker process running `entry` (TypeScript, through tsx, found from this package so
 * that the working directory does not matter), with an IPC channel using structured-clone
 * serialization (Buffers and typed arrays cross it intact).
 */
export function forkTsWorker(entry: string, v8Flags: readonly string[] = []): ChildProcess {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return fork(entry, [], { execArgv: [...SPACEACT_V8_FLAGS, ...v8Flags, '--import', tsx], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
}

/** Forks a worker from plain JavaScript (a bundle, or a compiled entry; no loader), with the same channel as {@link forkTsWorker}. */
function forkBundledWorker(bundle: string, v8Flags: readonly string[]): ChildProcess {
  return fork(bundle, [], { execArgv: [...SPACEACT_V8_FLAGS, ...v8Flags], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
}

/**
 * The plain JavaScript a worker of `entry` starts from, or null to start it through tsx: a
 * compiled entry (an installed package's `dist/`) as it is, else with `bundle` the entry's
 * bundle (null when it cannot be built).
 */
async function plainEntry(entry: string, bundle: boolean): Promise<string | null> {
  if (entry.endsWith('.js')) return entry;
  // Loaded only when asked for: workers themselves import this module and need no bundler.
  return bundle ? import('./worker-bundle.ts').then((m) => m.workerBundle(entry)).catch(() => null) : null;
}

/**
 * Runs `jobs` in up to `workers` processes forked from `entry`, handing them out in order as
 * workers come free. Resolves once every worker has exited; rejects with the first failure
 * (a job that failed, or a worker that exited before finishing its job).
 */
export async function runProcessPool<Init, Job, Result, Event = never>(opts: ProcessPoolOptions<Init, Job, Result, Event>): Promise<ProcessPoolStats> {
  if (!Number.isInteger(opts.workers) || opts.workers < 1) throw new SpaceActError('invalid-argument', 'a process pool needs a whole number of workers, at least 1');
  let next = 0;
  let stopSent = false;
  let failure: SpaceActError | null = null;
  const children: ChildProcess[] = [];
  const workerCpuMs: number[] = [];
  const workerStartupCpuMs: number[] = [];
  const stopped = (): boolean => opts.shouldStop?.() ?? false;

  const broadcastStop = (): void => {
    if (stopSent) return;
    stopSent = true;
    for (const c of children) if (c.connected) c.send({ type: 'stop' } satisfies ToPoolWorker<Init, Job>);
  };

  const runWorker = (child: ChildProcess): Promise<void> =>
    new Promise<void>((resolve) => {
      let current = -1;
      const handOut = (): void => {
        if (failure || stopped() || next >= opts.jobs.length) {
          if (stopped()) broadcastStop();
          current = -1;
          if (child.connected) child.send({ type: 'exit' } satisfies ToPoolWorker<Init, Job>);
          return;
        }
        current = next++;
        child.send({ type: 'run', index: current, job: opts.jobs[current] } satisfies ToPoolWorker<Init, Job>);
      };
      child.on('message', (msg: FromPoolWorker<Result, Event>) => {
        if (msg.type === 'usage') {
          workerCpuMs.push(msg.cpuMs);
          workerStartupCpuMs.push(msg.startupCpuMs);
        } else if (msg.type === 'event') {
          opts.onEvent?.(msg.index, msg.event);
          if (stopped()) broadcastStop();
        } else if (msg.type === 'done') {
          opts.onResult(msg.index, msg.result);
          handOut();
        } else if (msg.type === 'failed') {
          failure ??= new SpaceActError(msg.error.code ?? 'invalid-state', msg.error.message, msg.error.details ?? {});
          broadcastStop();
          handOut();
        }
      });
      child.on('exit', (code, signal) => {
        if (current >= 0 && !failure) {
          const name = opts.describe?.(current, opts.jobs[current]) ?? `job ${current}`;
          failure = new SpaceActError('io', `the worker running ${name} exited (${signal ?? `code ${code}`}) before finishing it`, { job: current });
          broadcastStop();
        }
        resolve();
      });
      child.send({ type: 'init', init: opts.init } satisfies ToPoolWorker<Init, Job>);
      handOut();
    });

  const bundle = await plainEntry(opts.entry, opts.bundle ?? false);
  const done: Array<Promise<void>> = [];
  const flags = opts.v8Flags ?? [];
  for (let w = 0; w < Math.min(opts.workers, Math.max(1, opts.jobs.length)); w++) {
    const child = bundle ? forkBundledWorker(bundle, flags) : forkTsWorker(opts.entry, flags);
    children.push(child);
    done.push(runWorker(child));
  }
  const killAll = (): void => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  };
  const onAbort = (): void => {
    failure ??= new SpaceActError('invalid-state', 'the process pool was stopped');
    killAll();
  };
  opts.signal?.addEventListener('abort', onAbort);
  if (opts.signal?.aborted) onAbort();
  try {
    await Promise.all(done);
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill();
  }
  if (failure) throw failure;
  return { workerCpuMs, workerStartupCpuMs };
}

/** Options of a {@link StandingWorker}. */
export interface StandingWorkerOptions<Init> {
  /** Absolute path of the worker entry module (it calls {@link serveJobs}). */
  entry: string;
  /** Start it from a bundle of the entry (as `ProcessPoolOptions.bundle`). Default false. */
  bundle?: boolean;
  /** V8 flags besides {@link SPACEACT_V8_FLAGS}. */
  v8Flags?: readonly string[];
  /** Sent once, before the process's first job. */
  init: Init;
}

/**
 * One worker process kept for job after job — a queue worker's verification pieces — so that
 * what a process builds once (its modules, the physics engine, a family's tables, a browser)
 * is not paid again for every piece, as a local `--concurrency` pool does not pay it either.
 * Started on the first {@link run}; one job at a time. A job that fails rejects its `run` and
 * the process goes on serving; a process that exits mid-job rejects that `run` and the next one
 * starts a new process. An aborted `run` kills the process at once.
 */
export class StandingWorker<Init, Job, Result> {
  private child: ChildProcess | null = null;
  private nextIndex = 0;
  private busy = false;

  constructor(private readonly opts: StandingWorkerOptions<Init>) {}

  /** Runs `job` in the standing process (starting it if there is none) and resolves with its result. */
  async run(job: Job, opts: { signal?: AbortSignal; describe?: string } = {}): Promise<Result> {
    if (this.busy) throw new SpaceActError('invalid-state', 'a standing worker runs one job at a time');
    if (opts.signal?.aborted) throw new SpaceActError('invalid-state', 'the process pool was stopped');
    this.busy = true;
    try {
      // A process that died while idle (killed, out of memory) is replaced, not sent to.
      const alive = this.child && this.child.connected && this.child.exitCode === null && this.child.signalCode === null;
      const child = alive ? this.child! : await this.start();
      const index = this.nextIndex++;
      return await new Promise<Result>((resolve, reject) => {
        const cleanup = (): void => {
          child.off('message', onMessage);
          child.off('exit', onExit);
          opts.signal?.removeEventListener('abort', onAbort);
        };
        const onMessage = (msg: FromPoolWorker<Result, never>): void => {
          if ((msg.type !== 'done' && msg.type !== 'failed') || msg.index !== index) return;
          cleanup();
          if (msg.type === 'done') resolve(msg.result);
          else reject(new SpaceActError(msg.error.code ?? 'invalid-state', msg.error.message, msg.error.details ?? {}));
        };
        const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
          cleanup();
          if (this.child === child) this.child = null;
          reject(new SpaceActError('io', `the worker running ${opts.describe ?? `job ${index}`} exited (${signal ?? `code ${code}`}) before finishing it`, { job: index }));
        };
        const onAbort = (): void => {
          cleanup();
          this.kill();
          reject(new SpaceActError('invalid-state', 'the process pool was stopped'));
        };
        child.on('message', onMessage);
        child.on('exit', onExit);
        opts.signal?.addEventListener('abort', onAbort);
        child.send({ type: 'run', index, job } satisfies ToPoolWorker<Init, Job>);
      });
    } finally {
      this.busy = false;
    }
  }

  /** Asks the process to exit (its `close` hook runs) and waits for it, killing it after `graceMs`. */
  async close(graceMs = 10_000): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    if (child.connected) child.send({ type: 'exit' } satisfies ToPoolWorker<Init, Job>);
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    timer.unref();
    await exited;
    clearTimeout(timer);
  }

  /** Stops the process at once (its job's work is dropped). */
  kill(): void {
    const child = this.child;
    this.child = null;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }

  private async start(): Promise<ChildProcess> {
    const bundle = await plainEntry(this.opts.entry, this.opts.bundle ?? false);
    const flags = this.opts.v8Flags ?? [];
    const child = bundle ? forkBundledWorker(bundle, flags) : forkTsWorker(this.opts.entry, flags);
    child.once('exit', () => {
      if (this.child === child) this.child = null;
    });
    child.send({ type: 'init', init: this.opts.init } satisfies ToPoolWorker<Init, Job>);
    this.child = child;
    return child;
  }
}

/** What a job handler gets besides its job. */
export interface JobContext<Init, Event> {
  init: Init;
  /** Reports something to the parent while the job runs (see `ProcessPoolOptions.onEvent`). */
  emit(event: Event): void;
  /** True once the parent asked every worker to stop (a cost limit, another job's failure). */
  stopRequested(): boolean;
}

/**
 * The worker side of {@link runProcessPool}: runs the jobs it is handed one at a time with
 * `handle`, reports each result or failure, and calls `close` (release a browser, say) before
 * exiting when told to. If the parent goes away (killed), the worker exits at once.
 */
export function serveJobs<Init, Job, Result, Event = never>(
  handle: (job: Job, ctx: JobContext<Init, Event>) => Promise<Result>,
  hooks: { close?(): Promise<void>; describeError?(err: unknown, job: Job): JobError } = {},
): void {
  let init: Init | null = null;
  let stop = false;
  // Everything before this call (starting Node, the loader, importing the entry's modules) is
  // the worker's start-up.
  const startup = process.cpuUsage();
  let queue: Promise<void> = Promise.resolve();
  const send = (msg: FromPoolWorker<Result, Event>): void => {
    if (process.connected) process.send!(msg);
  };
  const runOne = async (index: number, job: Job): Promise<void> => {
    const ctx: JobContext<Init, Event> = {
      init: init as Init,
      emit: (event) => send({ type: 'event', index, event }),
      stopRequested: () => stop,
    };
    try {
      send({ type: 'done', index, result: await handle(job, ctx) });
    } catch (err) {
      const error = hooks.describeError?.(err, job) ?? jobError(err);
      send({ type: 'failed', index, error });
    }
  };
  const shutdown = async (code: number): Promise<void> => {
    try {
      await hooks.close?.();
      const { user, system } = process.cpuUsage();
      const usage: FromPoolWorker<Result, Event> = { type: 'usage', cpuMs: (user + system) / 1000, startupCpuMs: (startup.user + startup.system) / 1000 };
      // Sent before exiting, and waited for: an exit right after a send can drop the message.
      if (process.connected) await new Promise<void>((resolve) => process.send!(usage, undefined, {}, () => resolve()));
    } finally {
      process.exit(code);
    }
  };
  process.on('message', (msg: ToPoolWorker<Init, Job>) => {
    switch (msg.type) {
      case 'init':
        init = msg.init;
        break;
      case 'run':
        queue = queue.then(() => runOne(msg.index, msg.job));
        break;
      case 'stop':
        stop = true;
        break;
      case 'exit':
        queue = queue.then(() => shutdown(0));
        break;
    }
  });
  // The parent died (kill -9 included): stop now rather than do work nobody will collect.
  // (A browser is killed by the renderer's own exit hook.)
  process.on('disconnect', () => {
    process.exit(1);
  });
}

/** A thrown value as a {@link JobError}: a `SpaceActError` keeps its code and details. */
export function jobError(err: unknown): JobError {
  if (err instanceof SpaceActError) return { code: err.code, message: err.message, details: err.details };
  return { message: err instanceof Error ? (err.stack ?? err.message) : String(err) };
}
