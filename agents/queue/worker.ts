/**
 * A queue worker (`spaceact worker --queue redis://HOST:PORT`): takes episode jobs from BullMQ,
 * plays each with its own browser through the one episode runner (`playEpisode`), and sends
 * every finished turn — its log line and images — to the run's coordinator, which writes
 * them. It keeps nothing on disk and reads API keys from its own environment only.
 */
import { hostname } from 'node:os';
import { DelayedError, UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { SpaceActError } from '../../core/errors.ts';
import { Renderer } from '../../render/renderer.ts';
import { World } from '../../sim/world.ts';
import { agentFactory } from '../agent-registry.ts';
import type { LogHeader } from '../episode-log.ts';
import { playEpisode, type EpisodeEnd, type EpisodeOpening, type EpisodeRecorder } from '../episode-runner.ts';
import { fsErrorLine } from '../fs-errors.ts';
import type { ObservationImage, TurnRecord } from '../types.ts';
import {
  connectRedis,
  duplicateRedis,
  DEFAULT_LOCK_SECONDS,
  isConnectionError,
  MAX_STALLED,
  messageFields,
  OutageNotice,
  QUEUE_NAME,
  RunKeys,
  splitImages,
  STALLED_CHECK_MS,
  type EpisodeJobData,
  type EpisodeJobResult,
  type FromCoordinator,
  type ToCoordinator,
} from './protocol.ts';

/** Options of {@link QueueWorker.start}. */
export interface QueueWorkerOptions {
  /** `redis://HOST:PORT`. */
  url: string;
  /** Seconds a worker's lock on its episode lasts unrenewed: how long a dead worker holds its episode (default 30). */
  lockSeconds?: number;
  /**
   * Seconds to wait for the coordinator's answer before giving the episode back to the queue
   * (the coordinator is down; its restart picks the run up again). Default 600.
   */
  coordinatorWaitSeconds?: number;
  /** One line per event (episode taken, resumed, finished, given back). */
  log?(line: string): void;
}

/** The coordinator took this attempt's episode from it (the worker was taken for dead). */
class Superseded extends Error {}
/** The coordinator asks to claim again and replay (a line of this attempt was lost). */
class Resync extends Error {}
/** The run is stopping: the episode is not to be started. */
class RunStopping extends Error {}
/** No answer from the coordinator in time. */
class CoordinatorSilent extends Error {}
/** The coordinator refused to open the episode (and stops the run itself). */
class CoordinatorRefused extends Error {}

/**
 * One attempt at one episode, seen from the worker: the recorder half of the episode runner,
 * sending each call to the coordinator and waiting for its answer before the episode goes on.
 */
class AttemptChannel implements EpisodeRecorder {
  private seq = 0;
  /** The coordinator asked for the episode to stop after the turn just recorded. */
  stopAsked = false;

  constructor(
    private readonly commands: Redis,
    private readonly blocking: Redis,
    private readonly keys: RunKeys,
    readonly instance: string,
    readonly attempt: string,
    private readonly waitMs: number,
    private readonly abandonWait: () => boolean,
    private readonly log: (line: string) => void,
  ) {}

  /** Sends one message and waits for its answer. */
  async send(msg: ToCoordinator, png: Buffer[] = []): Promise<FromCoordinator> {
    const reply = this.keys.reply(this.attempt, this.seq++);
    await this.commands.xadd(this.keys.inbox, '*', ...messageFields(msg, reply, png));
    const started = Date.now();
    for (;;) {
      const got = await this.blocking.blpop(reply, 2);
      if (got) return JSON.parse(got[1]) as FromCoordinator;
      if (this.abandonWait()) throw new CoordinatorSilent('the worker is shutting down');
      if (await this.commands.exists(this.keys.closed)) throw new RunStopping();
      if (Date.now() - started > this.waitMs) throw new CoordinatorSilent(`no answer from the coordinator of run ${this.keys.run} in ${Math.round(this.waitMs / 1000)} s`);
    }
  }

  async open(header: LogHeader): Promise<EpisodeOpening> {
    const r = await this.send({ type: 'claim', instance: this.instance, attempt: this.attempt, worker: workerName(), header });
    if (r.type === 'open') {
      const o = r.opening;
      this.log(`${this.instance} (run ${this.keys.run}): ${o.kind === 'finished' ? 'already finished' : o.turns.length ? `replaying ${o.turns.length} logged turns, playing from turn ${o.turns.length + 1}` : 'playing from turn 1'}`);
      return o;
    }
    if (r.type === 'stop') throw new RunStopping();
    if (r.type === 'error') throw new CoordinatorRefused(r.message);
    throw new Superseded();
  }

  async turn(record: TurnRecord, images: ObservationImage[]): Promise<void> {
    const { meta, png } = splitImages(images);
    const r = await this.send({ type: 'turn', instance: this.instance, attempt: this.attempt, record, images: meta }, png);
    this.answered(r);
  }

  async finish(end: EpisodeEnd, finalImages: ObservationImage[]): Promise<void> {
    const { meta, png } = splitImages(finalImages);
    this.answered(await this.send({ type: 'end', instance: this.instance, attempt: this.attempt, end, images: meta }, png));
  }

  private answered(r: FromCoordinator): void {
    if (r.type === 'ok') {
      if (r.stop) this.stopAsked = true;
      return;
    }
    if (r.type === 'resync') throw new Resync(r.reason);
    throw new Superseded();
  }
}

/** This worker as named in messages: host and process id. */
export function workerName(): string {
  return `${hostname()}:${process.pid}`;
}

/**
 * A BullMQ worker running one episode at a time with one renderer (its own Chromium),
 * kept across episodes. Several at once on one machine are several processes
 * (`spaceact worker --concurrency N` forks them), so each has its own core and browser.
 */
export class QueueWorker {
  private renderer: Renderer | null = null;
  private stopping = false;
  private readonly log: (line: string) => void;

  private constructor(
    private readonly worker: Worker<EpisodeJobData, EpisodeJobResult>,
    private readonly commands: Redis,
    private readonly blocking: Redis,
    private readonly bullConnection: Redis,
    private readonly opts: QueueWorkerOptions,
  ) {
    this.log = opts.log ?? (() => {});
  }

  /** Connects to Redis and starts taking episodes. */
  static async start(opts: QueueWorkerOptions): Promise<QueueWorker> {
    const lockSeconds = opts.lockSeconds ?? DEFAULT_LOCK_SECONDS;
    if (!(lockSeconds >= 1)) throw new SpaceActError('invalid-argument', '--lock-seconds must be at least 1');
    // Compile the physics engine's WebAssembly before taking a job: done inside the first
    // episode, it would hold up the timer that renews the job's lock.
    (await World.create()).free();
    const commands = await connectRedis(opts.url);
    const blocking = duplicateRedis(commands);
    const bullConnection = duplicateRedis(commands);
    let self: QueueWorker | null = null;
    const worker = new Worker<EpisodeJobData, EpisodeJobResult>(QUEUE_NAME, (job, token) => self!.process(job, token!), {
      connection: bullConnection,
      concurrency: 1,
      autorun: false,
      lockDuration: lockSeconds * 1000,
      stalledInterval: STALLED_CHECK_MS,
      maxStalledCount: MAX_STALLED,
    });
    self = new QueueWorker(worker, commands, blocking, bullConnection, opts);
    // A lost connection is said once per outage (ioredis reconnects and the worker goes on).
    const outage = new OutageNotice(opts.url, (line) => self!.log(line));
    worker.on('error', (err) => (isConnectionError(err) ? outage.failed(err) : self!.log(`queue error: ${err.message}`)));
    commands.on('error', (err: Error) => outage.failed(err));
    commands.on('ready', () => outage.ready());
    void worker.run();
    await worker.waitUntilReady();
    return self;
  }

  /**
   * Ends the episode in flight after its turn in flight and gives it back to the queue for
   * another worker (it resumes from its logged turns), then stops taking episodes.
   */
  async close(): Promise<void> {
    this.stopping = true;
    await this.worker.close();
    await this.renderer?.close();
    this.renderer = null;
    // BullMQ leaves a connection it is given open on close.
    for (const c of [this.commands, this.blocking, this.bullConnection]) c.disconnect();
  }

  private rendererFor(data: EpisodeJobData): Renderer | null {
    if (data.settings.mode.blind || data.settings.render === 'never') return null;
    this.renderer ??= new Renderer();
    return this.renderer;
  }

  private async process(job: Job<EpisodeJobData, EpisodeJobResult>, token: string): Promise<EpisodeJobResult> {
    const { run, instance, settings } = job.data;
    const keys = new RunKeys(run);
    const factory = agentFactory(settings.agent.name);
    const waitMs = (this.opts.coordinatorWaitSeconds ?? 600) * 1000;
    for (let n = 0; ; n++) {
      const channel = new AttemptChannel(this.commands, this.blocking, keys, instance, `${token}-${n}`, waitMs, () => this.stopping, this.log);
      try {
        const result = await playEpisode(
          instance,
          {
            makeAgent: () => factory(settings.agent.options),
            mode: settings.mode,
            render: settings.render,
            historyImages: settings.historyImages,
            shouldStop: () => channel.stopAsked || this.stopping,
          },
          this.rendererFor(job.data),
          channel,
        );
        if (result) {
          if (result.fresh) this.log(`${instance} (run ${run}): ${result.entry.solved ? 'solved' : 'ended unsolved'} after ${result.entry.turns} turns`);
          return result;
        }
        await channel.send({ type: 'stopped', instance, attempt: channel.attempt });
        if (channel.stopAsked) {
          this.log(`${instance} (run ${run}): stopped, as the coordinator asked`);
          return { stopped: true };
        }
        // This worker is shutting down: the episode goes back to the queue at once.
        this.log(`${instance} (run ${run}): given back to the queue (worker stopping)`);
        await job.moveToWait(token);
        throw new WaitingError();
      } catch (err) {
        if (err instanceof WaitingError || err instanceof DelayedError) throw err;
        if (err instanceof Resync) {
          this.log(`${instance} (run ${run}): claiming again (${err.message})`);
          continue;
        }
        if (err instanceof RunStopping) return { stopped: true };
        if (err instanceof Superseded) {
          // Another worker has the episode; BullMQ will not let this one finish the job either.
          this.log(`${instance} (run ${run}): taken over by another worker; dropped`);
          throw new UnrecoverableError('superseded by another attempt');
        }
        if (err instanceof CoordinatorSilent) {
          this.log(`${instance} (run ${run}): ${err.message}; given back to the queue`);
          await job.moveToDelayed(Date.now() + (this.stopping ? 0 : 30_000), token);
          throw new DelayedError();
        }
        if (err instanceof CoordinatorRefused) throw new UnrecoverableError(err.message);
        const message = err instanceof SpaceActError ? err.message : (fsErrorLine(err) ?? (err instanceof Error ? (err.stack ?? err.message) : String(err)));
        const code = err instanceof SpaceActError ? err.code : undefined;
        this.log(`${instance} (run ${run}): failed: ${message.split('\n')[0]}`);
        try {
          await channel.send({ type: 'failed', instance, attempt: channel.attempt, worker: workerName(), error: { message, ...(code ? { code } : {}) } });
        } catch {
          // The coordinator also sees the job failed in the queue.
        }
        throw new UnrecoverableError(message);
      }
    }
  }
}
