/**
 * `spaceact verify --queue redis://HOST:PORT`: the pieces of a verification (a family's
 * instances, a family × tier's text-leak check or shortcut battery — the jobs of
 * {@link planJobs}) go to BullMQ, and `spaceact worker` processes on any machine with this
 * checkout run them. Every piece is deterministic and independent of the others, so the
 * records are the ones a local run gives, in the same order (but for `seconds`).
 *
 * Redis is a trust boundary here as for queue runs (`agents/queue/protocol.ts`):
 * - a job is data to check, never to obey ({@link checkVerifyQueueJob}: a fixed schema,
 *   registered families and tiers, well-formed instance ids, settings within the command
 *   line's own limits — a job asking for a billion battery seeds is refused, not run);
 * - a worker's result is checked before it is used ({@link checkVerifyQueueResult}: its kind
 *   and the instances, family and tier it names must be the job's);
 * - a worker whose checkout differs from the coordinator's (another commit, edited files)
 *   hands the job back for another worker and says so, rather than mixing two versions'
 *   verdicts in one record ({@link checkoutDigest}).
 * What no check can catch is a forged verdict written by someone who can write to Redis: a
 * certification over a queue trusts the Redis it uses, as a local one trusts its machine.
 */
import { randomBytes } from 'node:crypto';
import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { DelayedError, Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { LEVER_PATTERN, tierLabel } from '../core/catalog.ts';
import { SpaceActError } from '../core/errors.ts';
import { StandingWorker } from '../agents/process-pool.ts';
import { canonicalJson } from '../core/canonical-json.ts';
import { OneJobAtATime } from '../agents/queue/one-at-a-time.ts';
import {
  ALIVE_RENEW_MS,
  ALIVE_SECONDS,
  clip,
  connectRedis,
  DEFAULT_LOCK_SECONDS,
  duplicateRedis,
  INSTANCE_ID,
  isConnectionError,
  MAX_STALLED,
  NO_COORDINATOR,
  OutageNotice,
  redisErrorLine,
  RepeatFilter,
  RUN_ID,
  schemaProblem,
  shownUrl,
  STALLED_CHECK_MS,
} from '../agents/queue/protocol.ts';
import { checkInstanceId, getFamily, tiersOf } from '../tasks/registry.ts';
import type { Tier } from '../tasks/types.ts';
import type { VerifyJob, VerifyJobResult, VerifySettings } from './verify-all.ts';
import { VERIFY_LIMITS } from './verify-limits.ts';
import { siblingModule } from '../core/package-root.ts';
import { checkoutDigest } from './checkout-digest.ts';

/** The BullMQ queue of verification pieces (workers need only the Redis address). */
export const VERIFY_QUEUE_NAME = 'spaceact-verify';
const KEY_PREFIX = 'spaceact:verify';
/** Most instance ids one job may name (a family's released set is three; a suite's family a few dozen). */
const MAX_JOB_IDS = 1000;
/** Seconds a job is set aside when this worker will not run it (another checkout) before any worker takes it again. */
const HAND_BACK_SECONDS = 10;
/** Seconds without any job of the verification taken before the coordinator says that no worker seems to be listening. */
const NO_WORKER_NOTICE_SECONDS = 30;
/** Hours a finished job's record stays in Redis when its coordinator did not remove it (it was killed). */
const KEEP_FINISHED_SECONDS = 24 * 3600;

/** The data of one verification job: which verification, which piece, with which settings. */
export interface VerifyQueueJobData {
  /** The verification's id (one per `verify --queue` command). */
  verify: string;
  /** The piece's index in the verification's plan. */
  index: number;
  /** The coordinator's {@link checkoutDigest}: a worker with another runs none of its pieces. */
  checkout: string;
  settings: VerifySettings;
  job: VerifyJob;
}

/** The keys of one verification. */
class VerifyKeys {
  /** Set (short expiry, renewed) while the coordinator lives: workers run pieces only of a verification that has one. */
  readonly alive: string;
  /** Hash: worker → why it handed a piece back (read by the coordinator, said once per worker). */
  readonly refusals: string;
  constructor(readonly verify: string) {
    if (!RUN_ID.test(verify)) throw new SpaceActError('invalid-argument', `not a verification id: ${clip(JSON.stringify(verify))}`);
    this.alive = `${KEY_PREFIX}:${verify}:alive`;
    this.refusals = `${KEY_PREFIX}:${verify}:refusals`;
  }
}

/** The BullMQ job id of a piece: the verification and the index, so adding it twice adds one job. */
export function verifyJobId(verify: string, index: number): string {
  return `${verify}.${index}`;
}

const ajv = new Ajv2020({ allErrors: false, strict: false });
const TIER = { type: 'string', pattern: '^L[0-9]$' };
const FAMILY = { type: 'string', pattern: '^[A-Z][0-9]{1,2}$' };
const count = (max: number, min = 0): object => ({ type: 'integer', minimum: min, maximum: max });
const checkJobData: ValidateFunction = ajv.compile({
  type: 'object',
  additionalProperties: false,
  required: ['verify', 'index', 'checkout', 'settings', 'job'],
  properties: {
    verify: { type: 'string', pattern: RUN_ID.source },
    index: count(1_000_000),
    checkout: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    settings: {
      type: 'object',
      additionalProperties: false,
      properties: {
        randomSeeds: count(VERIFY_LIMITS.randomSeeds),
        randomTurns: count(VERIFY_LIMITS.randomTurns, 1),
        batterySeeds: count(VERIFY_LIMITS.batterySeeds),
        batteryTraining: count(VERIFY_LIMITS.batteryTraining, 1),
        batterySkipAdaptive: { type: 'boolean' },
        batteryAgents: { type: 'array', minItems: 1, maxItems: 64, items: { type: 'string', pattern: '^[a-z0-9][a-z0-9+-]{0,63}$' } },
        textSeeds: count(VERIFY_LIMITS.textSeeds),
        viewRule: { type: 'boolean' },
        viewSeeds: count(VERIFY_LIMITS.viewSeeds),
      },
    },
    job: {
      oneOf: [
        {
          type: 'object',
          additionalProperties: false,
          required: ['kind', 'ids'],
          properties: { kind: { const: 'instances' }, ids: { type: 'array', minItems: 1, maxItems: MAX_JOB_IDS, items: { type: 'string', pattern: INSTANCE_ID } } },
        },
        {
          type: 'object',
          additionalProperties: false,
          required: ['kind', 'family', 'tier'],
          properties: {
            kind: { enum: ['battery', 'text'] },
            family: FAMILY,
            tier: TIER,
            lever: { type: 'string', pattern: LEVER_PATTERN.source },
            withText: { type: 'boolean' },
            then: { type: 'array', minItems: 1, maxItems: 8, items: TIER },
          },
        },
      ],
    },
  },
});

/**
 * A job's data checked: the schema, then the registry (each instance id names a registered
 * family and one of its tiers; a battery or text piece names a registered family × tier).
 * Throws a `SpaceActError` saying what is wrong in one line.
 */
export function checkVerifyQueueJob(data: unknown): VerifyQueueJobData {
  if (!checkJobData(data)) throw new SpaceActError('invalid-argument', `not a verification job: ${schemaProblem(checkJobData)}`);
  const d = data as VerifyQueueJobData;
  const known = (family: string, tier: Tier): void => {
    let f;
    try {
      f = getFamily(family);
    } catch {
      throw new SpaceActError('invalid-argument', `not a verification job: no family ${family} in this checkout`);
    }
    if (!tiersOf(f).includes(tier)) throw new SpaceActError('invalid-argument', `not a verification job: ${family} has no tier ${tier}`);
  };
  if (d.job.kind === 'instances') {
    for (const id of d.job.ids) {
      try {
        checkInstanceId(id);
      } catch (err) {
        throw new SpaceActError('invalid-argument', `not a verification job: ${clip((err as Error).message, 160)}`);
      }
    }
  } else {
    known(d.job.family, d.job.tier);
    const job = d.job as { kind: string; tier: Tier; lever?: string; withText?: boolean; then?: Tier[] };
    if (job.kind === 'battery' && job.lever !== undefined) throw new SpaceActError('invalid-argument', 'not a verification job: a battery piece has no lever');
    if (job.kind === 'text' && job.withText !== undefined) throw new SpaceActError('invalid-argument', 'not a verification job: withText belongs to a battery piece');
    if (job.kind === 'text' && job.then !== undefined) throw new SpaceActError('invalid-argument', 'not a verification job: then belongs to a battery piece');
    for (const tier of job.then ?? []) known(d.job.family, tier);
    const tiers = [job.tier, ...(job.then ?? [])];
    if (new Set(tiers).size !== tiers.length) throw new SpaceActError('invalid-argument', `not a verification job: a battery piece plays each tier once (${tiers.join(', ')})`);
  }
  return d;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const seconds = (v: unknown, n: number): boolean => Array.isArray(v) && v.length === n && v.every((x) => typeof x === 'number' && Number.isFinite(x));

/**
 * A worker's result for `job`, checked before the coordinator uses it: of the job's kind,
 * naming the job's instances in order (or its family and tier), with a verdict. Throws a
 * `SpaceActError` saying what is wrong.
 */
export function checkVerifyQueueResult(job: VerifyJob, value: unknown): VerifyJobResult {
  const bad = (why: string): never => {
    throw new SpaceActError('invalid-state', `a worker's result does not fit its job: ${why}`);
  };
  if (!isObject(value) || value.kind !== job.kind) return bad(`not the result of ${job.kind === 'instances' ? 'an instances' : `a ${job.kind}`} job`);
  if (job.kind === 'instances') {
    const results = value.results;
    if (!Array.isArray(results) || results.length !== job.ids.length) return bad(`${job.ids.length} instance verdict(s) expected`);
    results.forEach((r, i) => {
      if (!isObject(r) || r.instance !== job.ids[i] || typeof r.verified !== 'boolean') bad(`verdict ${i + 1} is not ${job.ids[i]}'s`);
    });
    if (!seconds(value.cpuSeconds, job.ids.length)) bad('no CPU seconds per instance');
  } else {
    const lever = job.kind === 'text' ? job.lever : undefined;
    // The text records: a text job's own, or those a battery job `withText` carries first.
    const checkText = (text: Record<string, unknown>): void => {
      const report = text.report;
      // The view sample may come alone (--text-seeds 0), and the text record alone (--view-seeds 0).
      if (report === undefined && text.views === undefined) bad(`no ${job.family}-${tierLabel(job.tier, lever)} text-leak record or view sample`);
      if (report !== undefined && (!isObject(report) || report.family !== job.family || report.tier !== job.tier || report.lever !== lever || typeof report.passed !== 'boolean')) {
        bad(`not the ${job.family}-${tierLabel(job.tier, lever)} text record`);
      }
      const views = text.views;
      if (views !== undefined && (!isObject(views) || views.family !== job.family || views.tier !== job.tier || views.lever !== lever || typeof views.passed !== 'boolean' || !Array.isArray(views.failures))) {
        bad(`not the ${job.family}-${tierLabel(job.tier, lever)} view sample`);
      }
    };
    if (job.kind === 'text') {
      checkText(value);
      if (!seconds(value.cpuSeconds, 1)) bad('no CPU seconds');
    } else {
      // The tiers played after the first, each a battery result of its own.
      if (job.then) {
        const then = value.then;
        if (!Array.isArray(then) || then.length !== job.then.length) bad(`${job.then.length} later tier result(s) expected (${job.then.join(', ')})`);
        (then as unknown[]).forEach((part, i) => {
          if (isObject(part) && part.then !== undefined) bad('a later tier result carries tiers of its own');
          checkVerifyQueueResult({ kind: 'battery', family: job.family, tier: job.then![i], ...(job.withText ? { withText: true } : {}) }, part);
        });
      } else if (value.then !== undefined) bad('later tier results from a battery job that played one tier');
      const report = value.report;
      if (!isObject(report) || report.family !== job.family || report.tier !== job.tier || report.lever !== undefined || typeof report.passed !== 'boolean') bad(`not the ${job.family}-${job.tier} battery record`);
      if (value.views !== undefined) bad(`a battery job's view sample travels in its text records`);
      if (job.withText) {
        if (!isObject(value.text)) bad(`no ${job.family}-${job.tier} text records`);
        checkText(value.text as Record<string, unknown>);
      } else if (value.text !== undefined) bad(`text records from a battery job that was not asked for them`);
      if (!seconds(value.cpuSeconds, job.withText ? 2 : 1)) bad(job.withText ? 'no CPU seconds for the text records and the battery' : 'no CPU seconds');
    }
  }
  return value as unknown as VerifyJobResult;
}

// The checkout digest lives in its own module (a local checkpoint uses it without the queue).
export { checkoutDigest };

/** Options of {@link runVerifyQueue}. */
export interface VerifyQueueOptions {
  /** `redis://HOST:PORT`. */
  url: string;
  settings: VerifySettings;
  /** The plan's jobs, handed out in this order. */
  jobs: readonly VerifyJob[];
  /** Each checked result, in completion order. */
  onResult(index: number, result: VerifyJobResult): void;
  /** How a job is named in lines. */
  describe(job: VerifyJob): string;
  /** One line at a time: workers missing, a worker with another checkout, Redis gone and back. */
  onNotice?(line: string): void;
  /** Milliseconds between looks at the jobs' states (default 500). */
  pollMs?: number;
}

/**
 * Puts a verification's jobs on the queue and waits for every one: each result is checked
 * ({@link checkVerifyQueueResult}) and handed to `onResult`. A job that fails on a worker (its
 * code threw) fails the verification with one line naming it; a worker that dies mid-job
 * loses nothing (BullMQ gives the job to another worker once its lock expires). On the way
 * out — done, failed or interrupted — the verification's jobs and keys are removed.
 */
export async function runVerifyQueue(opts: VerifyQueueOptions): Promise<void> {
  const verify = `v${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
  const keys = new VerifyKeys(verify);
  const commands = await connectRedis(opts.url);
  const queueConnection = duplicateRedis(commands);
  const checkerConnection = duplicateRedis(commands);
  const queue = new Queue<VerifyQueueJobData, VerifyJobResult>(VERIFY_QUEUE_NAME, { connection: queueConnection });
  // The coordinator checks for stalled jobs too, so a dead worker's job comes back even when no other worker notices.
  const checker = new Worker(VERIFY_QUEUE_NAME, null, { connection: checkerConnection, autorun: false, stalledInterval: STALLED_CHECK_MS, maxStalledCount: MAX_STALLED });
  const notice = (line: string): void => opts.onNotice?.(line);
  const outage = new OutageNotice(opts.url, notice);
  const repeats = new RepeatFilter(notice);
  const onError = (err: Error): void => (isConnectionError(err) ? outage.failed(err) : repeats.say1(`queue error: ${redisErrorLine(err)}`));
  queue.on('error', onError);
  checker.on('error', onError);
  commands.on('error', onError);
  commands.on('ready', () => outage.ready());
  const renewAlive = (): Promise<unknown> => commands.set(keys.alive, String(process.pid), 'EX', ALIVE_SECONDS).catch(() => {});
  await commands.set(keys.alive, String(process.pid), 'EX', ALIVE_SECONDS);
  const aliveTimer = setInterval(() => void renewAlive(), ALIVE_RENEW_MS);
  aliveTimer.unref();
  await checker.startStalledCheckTimer();
  const ids = opts.jobs.map((_, k) => verifyJobId(verify, k));
  try {
    const checkout = checkoutDigest();
    await queue.addBulk(
      opts.jobs.map((job, index) => ({
        name: job.kind,
        data: { verify, index, checkout, settings: opts.settings, job },
        opts: { jobId: ids[index], attempts: 1, removeOnComplete: { age: KEEP_FINISHED_SECONDS }, removeOnFail: { age: KEEP_FINISHED_SECONDS } },
      })),
    );
    const pending = new Set(opts.jobs.map((_, k) => k));
    const saidRefusal = new Set<string>();
    const started = Date.now();
    let anyTaken = false;
    let saidNoWorker = false;
    const pollMs = opts.pollMs ?? 500;
    while (pending.size) {
      await new Promise((r) => setTimeout(r, pollMs));
      for (const k of [...pending]) {
        const job = await Job.fromId<VerifyQueueJobData, VerifyJobResult>(queue, ids[k]);
        if (!job) throw new SpaceActError('invalid-state', `the job for ${opts.describe(opts.jobs[k])} left the queue before it finished (removed by someone else?)`);
        if (job.processedOn) anyTaken = true;
        if (!job.finishedOn) continue;
        if (job.failedReason) throw new SpaceActError('invalid-state', `${opts.describe(opts.jobs[k])} failed on a worker: ${clip(job.failedReason.split('\n')[0], 300)}`);
        opts.onResult(k, checkVerifyQueueResult(opts.jobs[k], job.returnvalue));
        pending.delete(k);
      }
      for (const [worker, why] of Object.entries(await commands.hgetall(keys.refusals))) {
        if (saidRefusal.has(worker)) continue;
        saidRefusal.add(worker);
        notice(`worker ${clip(worker, 80)} hands this verification's jobs back: ${clip(why, 200)}`);
      }
      if (!anyTaken && !saidNoWorker && Date.now() - started > NO_WORKER_NOTICE_SECONDS * 1000) {
        saidNoWorker = true;
        notice(`no worker has taken a job in ${NO_WORKER_NOTICE_SECONDS} s: start \`spaceact worker --queue ${shownUrl(opts.url)}\` on a machine with this checkout`);
      }
    }
  } finally {
    clearInterval(aliveTimer);
    // Jobs not yet taken are removed; one a worker holds cannot be, and is dropped by the
    // worker when its coordinator is gone (or ends and is removed after a day).
    await Promise.race([
      Promise.all([...ids.map((id) => queue.remove(id).catch(() => 0)), commands.del(keys.alive, keys.refusals).catch(() => 0)]),
      new Promise((r) => setTimeout(r, 5000).unref()),
    ]);
    await Promise.race([Promise.all([checker.close(), queue.close()]), new Promise((r) => setTimeout(r, 3000).unref())]).catch(() => {});
    for (const c of [commands, queueConnection, checkerConnection]) c.disconnect();
  }
}

/** Options of {@link VerifyQueueWorker.start}. */
export interface VerifyQueueWorkerOptions {
  url: string;
  /** Seconds a worker's lock on its job lasts unrenewed (default 30). */
  lockSeconds?: number;
  /** One line per event. */
  log?(line: string): void;
  /** Shared with the process's episode worker, so that one job runs at a time. */
  gate?: OneJobAtATime;
  /** This worker as named in lines and in the coordinator's notices. */
  name: string;
}

const VERIFY_WORKER_ENTRY = siblingModule(import.meta.url, './verify-worker');

/**
 * Takes verification jobs from the queue, one at a time, and runs each in a child process
 * (the verify pool's own worker entry), so that this process's event loop stays free to renew
 * the job's lock however long the piece computes.
 */
export class VerifyQueueWorker {
  private stopping = false;
  private current: { job: Job; token: string; abort: AbortController } | null = null;
  /**
   * The child process that runs this worker's pieces, kept from piece to piece while the
   * settings are the same (a verification's pieces share them): its modules, engine, tables and
   * browser are built once, not once per piece.
   */
  private standing: { settings: string; worker: StandingWorker<VerifySettings, VerifyJob, VerifyJobResult> } | null = null;
  private readonly log: (line: string) => void;

  private constructor(
    readonly worker: Worker<VerifyQueueJobData, VerifyJobResult>,
    private readonly commands: Redis,
    private readonly bullConnection: Redis,
    private readonly opts: VerifyQueueWorkerOptions,
  ) {
    this.log = opts.log ?? (() => {});
  }

  /** Connects to Redis and starts taking verification jobs. */
  static async start(opts: VerifyQueueWorkerOptions): Promise<VerifyQueueWorker> {
    const lockSeconds = opts.lockSeconds ?? DEFAULT_LOCK_SECONDS;
    if (!(lockSeconds >= 1)) throw new SpaceActError('invalid-argument', '--lock-seconds must be at least 1');
    const commands = await connectRedis(opts.url);
    const bullConnection = duplicateRedis(commands);
    let self: VerifyQueueWorker | null = null;
    const worker = new Worker<VerifyQueueJobData, VerifyJobResult>(VERIFY_QUEUE_NAME, (job, token) => self!.process(job, token!), {
      connection: bullConnection,
      concurrency: 1,
      autorun: false,
      lockDuration: lockSeconds * 1000,
      stalledInterval: STALLED_CHECK_MS,
      maxStalledCount: MAX_STALLED,
    });
    self = new VerifyQueueWorker(worker, commands, bullConnection, opts);
    opts.gate?.add(worker);
    const outage = new OutageNotice(opts.url, (line) => self!.log(line));
    const repeats = new RepeatFilter((line) => self!.log(line));
    worker.on('error', (err) => (isConnectionError(err) ? outage.failed(err) : repeats.say1(`queue error: ${redisErrorLine(err)}`)));
    commands.on('error', (err: Error) => outage.failed(err));
    commands.on('ready', () => outage.ready());
    void worker.run();
    await worker.waitUntilReady();
    return self;
  }

  /** Stops taking jobs; a job in flight goes back to the queue for another worker. */
  async close(graceMs = 2000): Promise<void> {
    this.stopping = true;
    const closed = this.worker.close().then(() => true, () => true);
    const inTime = await Promise.race([closed, new Promise<boolean>((r) => setTimeout(() => r(false), graceMs).unref())]);
    if (!inTime) {
      const current = this.current;
      // The piece's child process stops now, not when it next looks up from its work.
      current?.abort.abort();
      if (current && this.commands.status === 'ready') {
        await Promise.race([current.job.moveToWait(current.token).catch(() => {}), new Promise((r) => setTimeout(r, 2000).unref())]);
        this.log(`job ${clip(String(current.job.id), 60)}: handed back to the queue (worker stopping)`);
      }
      void this.worker.close(true).catch(() => {});
    }
    const standing = this.standing;
    this.standing = null;
    if (standing) await (inTime ? standing.worker.close(graceMs) : Promise.resolve(standing.worker.kill()));
    for (const c of [this.commands, this.bullConnection]) c.disconnect();
  }

  private giveUp(job: Job, why: string): never {
    const line = `job ${clip(String(job.id), 60)}: ${clip(why, 200)}; given up`;
    this.log(line);
    throw new UnrecoverableError(line);
  }

  private async process(job: Job<VerifyQueueJobData, VerifyJobResult>, token: string): Promise<VerifyJobResult> {
    let data: VerifyQueueJobData;
    try {
      data = checkVerifyQueueJob(job.data);
    } catch (err) {
      return this.giveUp(job, (err as Error).message);
    }
    if (job.id !== verifyJobId(data.verify, data.index)) return this.giveUp(job, `its id is not the piece id ${verifyJobId(data.verify, data.index)}`);
    const keys = new VerifyKeys(data.verify);
    if (!(await this.commands.exists(keys.alive))) return this.giveUp(job, `${NO_COORDINATOR} for verification ${data.verify}`);
    if (data.checkout !== checkoutDigest()) {
      const why = `this worker's checkout differs from the coordinator's (code digest ${checkoutDigest().slice(0, 12)}, not ${data.checkout.slice(0, 12)})`;
      await this.commands.hset(keys.refusals, this.opts.name, why).catch(() => {});
      this.log(`job ${clip(String(job.id), 60)}: ${why}; handed back to the queue`);
      await job.moveToDelayed(Date.now() + HAND_BACK_SECONDS * 1000, token);
      throw new DelayedError();
    }
    const what = data.job.kind === 'instances' ? data.job.ids.join(', ') : `the ${data.job.family}-${[data.job.tier, ...(data.job.kind === 'battery' ? (data.job.then ?? []) : [])].join('/')} ${data.job.kind === 'text' ? 'text-leak and view sample' : 'battery'}`;
    const run = async (): Promise<VerifyJobResult> => {
      if (this.stopping) throw new UnrecoverableError('the worker is stopping');
      const abort = new AbortController();
      this.current = { job, token, abort };
      this.log(`${what} (verification ${data.verify}): checking`);
      try {
        const settings = canonicalJson(data.settings);
        if (this.standing && this.standing.settings !== settings) {
          await this.standing.worker.close();
          this.standing = null;
        }
        this.standing ??= { settings, worker: new StandingWorker({ entry: VERIFY_WORKER_ENTRY, bundle: true, init: data.settings }) };
        const result = await this.standing.worker.run(data.job, { signal: abort.signal, describe: what });
        this.log(`${what} (verification ${data.verify}): done`);
        return result;
      } finally {
        this.current = null;
      }
    };
    return this.opts.gate ? this.opts.gate.run(this.worker, run) : run();
  }
}
