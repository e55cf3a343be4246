/**
 * A queue worker (`spaceact worker --queue redis://HOST:PORT`): takes episode jobs from BullMQ,
 * plays each with its own browser through the one episode runner (`playEpisode`), and sends
 * every finished turn — its log line and images — to the run's coordinator, which writes
 * them. It keeps nothing on disk and reads API keys from its own environment only.
 *
 * A job is data to check, never to obey: it names the run, the instance, the agent's kind and
 * the mode ({@link checkJob}); everything the agent is built with — endpoint, model, key
 * variable, cache folder, prices — comes from this worker's own flags ({@link QueueWorkerOptions.agents}).
 * A job that fails the schema, names an instance this checkout does not have, or belongs to a
 * run whose coordinator is gone is given up at once with one short line.
 */
import { hostname } from 'node:os';
import { DelayedError, UnrecoverableError, WaitingError, Worker, type Job, type JobJson } from 'bullmq';
import type { Redis } from 'ioredis';
import { SpaceActError } from '../../core/errors.ts';
import { Renderer } from '../../render/renderer.ts';
import { World } from '../../sim/world.ts';
import { agentFactory } from '../agent-registry.ts';
import { parseMode } from '../modes.ts';
import type { AgentOptions } from '../types.ts';
import { familyAndInstanceFromId } from '../../tasks/registry.ts';
import type { LogHeader } from '../episode-log.ts';
import { playEpisode, type EpisodeEnd, type EpisodeOpening, type EpisodeRecorder } from '../episode-runner.ts';
import { fsErrorLine } from '../fs-errors.ts';
import type { OneJobAtATime } from './one-at-a-time.ts';
import type { ObservationImage, TurnRecord } from '../types.ts';
import {
  checkJob,
  clip,
  episodeJobId,
  NO_COORDINATOR,
  RefusalRetry,
  RepeatFilter,
  redisErrorLine,
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
  /**
   * The agents this worker plays, by kind, with the options it builds each with (its own
   * flags: endpoint, model, key variable, cache, prices). A job for a kind not listed is handed
   * back for another worker. Default: the agents that need no options (`reference`, `null`,
   * `random`, `greedy`).
   */
  agents?: Record<string, AgentOptions>;
  /** Shared with the process's other queue workers (verification), so that one job runs at a time. */
  gate?: OneJobAtATime;
}

/** Agents every worker plays unless told otherwise: none of them reads an endpoint, a key or a file. */
export const KEYLESS_AGENTS: Record<string, AgentOptions> = { reference: {}, null: {}, random: {}, greedy: {} };

/** Seconds a job is set aside when this worker cannot play it (another agent's, a refused claim) before any worker takes it again. */
const HAND_BACK_SECONDS = 10;

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
/** The coordinator refused this worker's claim (another agent, settings, mode or task version): another worker should play it. */
class ClaimRefused extends Error {}

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
    private readonly retry: RefusalRetry,
  ) {}

  /** Sends one message and waits for its answer. */
  async send(msg: ToCoordinator, png: Buffer[] = []): Promise<FromCoordinator> {
    const reply = this.keys.reply(this.attempt, this.seq++);
    // Redis refusing writes (memory full, a replica) is waited out; the worker's stop is not.
    try {
      await this.retry.run('a message to the coordinator', () => this.commands.xadd(this.keys.inbox, '*', ...messageFields(msg, reply, png)), this.abandonWait);
    } catch (err) {
      // Stopping while Redis refuses writes: the episode is handed back, never reported failed.
      if (this.abandonWait()) throw new CoordinatorSilent('the worker is shutting down');
      throw err;
    }
    const started = Date.now();
    for (;;) {
      if (this.abandonWait()) throw new CoordinatorSilent('the worker is shutting down');
      const got = await this.blocking.blpop(reply, 2);
      if (got) {
        try {
          return JSON.parse(got[1]) as FromCoordinator;
        } catch {
          throw new CoordinatorSilent(`an unreadable answer at ${reply}`);
        }
      }
      if (this.abandonWait()) throw new CoordinatorSilent('the worker is shutting down');
      const [closed, alive] = await Promise.all([this.commands.exists(this.keys.closed), this.commands.exists(this.keys.alive)]);
      if (closed) throw new RunStopping();
      // Its coordinator is gone (killed and not restarted while its liveness key lasted): the job goes back, and is given up when taken again.
      if (!alive) throw new CoordinatorSilent(`the coordinator of run ${this.keys.run} is gone`);
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
    if (r.type === 'refused') throw new ClaimRefused(r.message);
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
    if (r.type === 'refused') throw new ClaimRefused(r.message);
    throw new Superseded();
  }
}

/**
 * BullMQ's worker, reading a job whose data is not JSON as a job that says so (BullMQ itself
 * throws while fetching it and leaves it active with an unnamed error): it is then given up with
 * one line like any other job that fails the schema.
 */
class CheckedWorker extends Worker<EpisodeJobData, EpisodeJobResult> {
  protected override createJob(data: JobJson, jobId: string): Job<EpisodeJobData, EpisodeJobResult> {
    try {
      return super.createJob(data, jobId);
    } catch (err) {
      return super.createJob({ ...data, data: JSON.stringify({ unreadable: `its data is not JSON (${clip((err as Error).message, 80)})` }) }, jobId);
    }
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
  private readonly retry: RefusalRetry;
  private readonly agents: Record<string, AgentOptions>;
  /** The job being played and its lock token (handed back when a stop cannot wait for the turn in flight). */
  private current: { job: Job; token: string } | null = null;

  private constructor(
    private readonly worker: Worker<EpisodeJobData, EpisodeJobResult>,
    private readonly commands: Redis,
    private readonly blocking: Redis,
    private readonly bullConnection: Redis,
    private readonly opts: QueueWorkerOptions,
  ) {
    this.log = opts.log ?? (() => {});
    this.retry = new RefusalRetry(this.log);
    this.agents = opts.agents ?? KEYLESS_AGENTS;
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
    const worker: CheckedWorker = new CheckedWorker(QUEUE_NAME, (job, token) => (opts.gate ? opts.gate.run(worker, () => self!.process(job, token!)) : self!.process(job, token!)), {
      connection: bullConnection,
      concurrency: 1,
      autorun: false,
      lockDuration: lockSeconds * 1000,
      stalledInterval: STALLED_CHECK_MS,
      maxStalledCount: MAX_STALLED,
    });
    self = new QueueWorker(worker, commands, blocking, bullConnection, opts);
    opts.gate?.add(worker);
    // A lost connection is said once per outage (ioredis reconnects and the worker goes on).
    const outage = new OutageNotice(opts.url, (line) => self!.log(line));
    // Redis refusing writes makes BullMQ report every lock renewal: said once a minute at most.
    const repeats = new RepeatFilter((line) => self!.log(line));
    worker.on('error', (err) => (isConnectionError(err) ? outage.failed(err) : repeats.say1(`queue error: ${redisErrorLine(err)}`)));
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
  async close(graceMs = 8000): Promise<void> {
    this.stopping = true;
    // Within seconds in every state: with Redis gone, BullMQ's close would wait for it forever;
    // then the episode's lock simply expires and the stalled check gives it to another worker.
    const closed = this.worker.close().then(() => true, () => true);
    const inTime = await Promise.race([closed, new Promise<boolean>((r) => setTimeout(() => r(false), graceMs).unref())]);
    if (!inTime) {
      // The turn in flight is still running (a slow model call), or Redis is gone: the episode
      // is handed back now if Redis answers, else its lock expires and another worker takes it.
      const current = this.current;
      const handedBack = current && this.commands.status === 'ready'
        ? await Promise.race([current.job.moveToWait(current.token).then(() => true, () => false), new Promise<boolean>((r) => setTimeout(() => r(false), 2000).unref())])
        : false;
      this.log(handedBack ? `the turn in flight did not end within ${Math.round(graceMs / 1000)} s; its episode was handed back to the queue` : `Redis did not answer within ${Math.round(graceMs / 1000)} s; leaving without handing the episode back (its lock expires and another worker takes it)`);
      void this.worker.close(true).catch(() => {});
    }
    await Promise.race([this.renderer?.close(), new Promise((r) => setTimeout(r, 5000).unref())]).catch(() => {});
    this.renderer = null;
    // BullMQ leaves a connection it is given open on close.
    for (const c of [this.commands, this.blocking, this.bullConnection]) c.disconnect();
  }

  private rendererFor(data: EpisodeJobData): Renderer | null {
    if (parseMode(data.mode).blind || data.render === 'never') return null;
    this.renderer ??= new Renderer();
    return this.renderer;
  }

  /** Gives a job up at once with one short line: it cannot be played by anyone (BullMQ marks it failed). */
  private giveUp(job: Job, why: string): never {
    const line = `job ${clip(String(job.id), 60)}: ${clip(why, 200)}; given up`;
    this.log(line);
    throw new UnrecoverableError(line);
  }

  /** Sets a job aside for other workers (this one cannot play it) and ends its processing here. */
  private async handBack(job: Job, token: string, why: string): Promise<never> {
    this.log(`job ${clip(String(job.id), 60)}: ${clip(why, 300)}; handed back to the queue`);
    await job.moveToDelayed(Date.now() + (this.stopping ? 0 : HAND_BACK_SECONDS * 1000), token);
    throw new DelayedError();
  }

  private async process(job: Job<EpisodeJobData, EpisodeJobResult>, token: string): Promise<EpisodeJobResult> {
    this.current = { job, token };
    try {
      return await this.play(job, token);
    } finally {
      this.current = null;
    }
  }

  private async play(job: Job<EpisodeJobData, EpisodeJobResult>, token: string): Promise<EpisodeJobResult> {
    let data: EpisodeJobData;
    try {
      const raw = job.data as unknown as { unreadable?: unknown };
      if (raw && typeof raw === 'object' && typeof raw.unreadable === 'string') throw new Error(raw.unreadable);
      data = checkJob(job.data);
    } catch (err) {
      return this.giveUp(job, (err as Error).message);
    }
    const { run, instance } = data;
    // A job is the episode of its run only under the id the coordinator gives it (one job per episode).
    if (job.id !== episodeJobId(run, instance)) return this.giveUp(job, `its id is not the episode id ${episodeJobId(run, instance)}`);
    try {
      familyAndInstanceFromId(instance);
    } catch (err) {
      return this.giveUp(job, `instance ${instance}: ${clip((err as Error).message, 160)}`);
    }
    const keys = new RunKeys(run);
    // A run whose coordinator is gone: nobody would take its turns (a restarted coordinator queues it again).
    if (!(await this.commands.exists(keys.alive))) {
      this.log(`${instance} (run ${run}): ${NO_COORDINATOR}; given up`);
      throw new UnrecoverableError(`${NO_COORDINATOR} for run ${run}`);
    }
    const agentOptions = Object.hasOwn(this.agents, data.agent) ? this.agents[data.agent] : undefined;
    if (!agentOptions) return this.handBack(job, token, `this worker does not play agent ${data.agent} (start it with that agent's flags)`);
    const factory = agentFactory(data.agent);
    const mode = parseMode(data.mode);
    const waitMs = (this.opts.coordinatorWaitSeconds ?? 600) * 1000;
    for (let n = 0; ; n++) {
      const channel = new AttemptChannel(this.commands, this.blocking, keys, instance, `${token}-${n}`, waitMs, () => this.stopping, this.log, this.retry);
      try {
        const result = await playEpisode(
          instance,
          {
            makeAgent: () => factory(agentOptions),
            mode,
            render: data.render,
            historyImages: data.historyImages,
            shouldStop: () => channel.stopAsked || this.stopping,
          },
          this.rendererFor(data),
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
        if (err instanceof ClaimRefused) return this.handBack(job, token, `${instance} (run ${run}): ${err.message}`);
        if (err instanceof Superseded) {
          // Another worker has the episode; BullMQ will not let this one finish the job either.
          this.log(`${instance} (run ${run}): taken over by another worker; dropped`);
          throw new UnrecoverableError('superseded by another attempt');
        }
        if (err instanceof CoordinatorSilent) {
          this.log(`${instance} (run ${run}): ${err.message}; given back to the queue`);
          await job.moveToDelayed(Date.now() + (this.stopping ? 0 : 5_000), token);
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
