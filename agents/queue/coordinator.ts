/**
 * The coordinator of a queue run (`spaceact run … --queue redis://HOST:PORT`): enqueues one
 * BullMQ job per episode and writes everything its workers send into the run folder on its
 * own disk, through the same log half of the episode runner as a local run
 * (`DiskEpisodeRecorder`). See `protocol.ts` for the messages and the guarantees.
 *
 * What a worker sends is data to check, never to obey: every inbox entry is checked against
 * the message schema (one that fails costs one line and is acknowledged); every message but a
 * claim must carry the episode's current attempt; a claim must be for one of this run's
 * instances with this run's agent, settings and mode, and its instance digest must be the one
 * the coordinator computes itself — a worker whose generator differs (another checkout) is
 * refused by name and the run goes on with the others.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue, Worker } from 'bullmq';
import { SpaceActError, type ErrorCode } from '../../core/errors.ts';
import { DiskEpisodeRecorder, entryOfEnd } from '../episode-runner.ts';
import { describeAgent } from '../agent-registry.ts';
import { EpisodeLog, instanceDigest, type LogHeader } from '../episode-log.ts';
import { modeName } from '../modes.ts';
import type { DispatchOptions } from '../run-types.ts';
import { familyAndInstanceFromId } from '../../tasks/registry.ts';
import {
  ALIVE_RENEW_MS,
  ALIVE_SECONDS,
  clip,
  NO_COORDINATOR,
  RefusalRetry,
  RepeatFilter,
  UnreadableMessage,
  connectRedis,
  duplicateRedis,
  episodeJobId,
  INBOX_GROUP,
  isConnectionError,
  joinImages,
  MAX_STALLED,
  OutageNotice,
  parseMessage,
  QUEUE_NAME,
  REPLY_TTL_SECONDS,
  RunKeys,
  shownUrl,
  STALLED_CHECK_MS,
  type EpisodeJobData,
  type EpisodeJobResult,
  type FromCoordinator,
  type InboxMessage,
  redisErrorLine,
} from './protocol.ts';
import { fsErrorLine } from '../fs-errors.ts';

/** Options of {@link runQueued}. */
export interface QueueRunOptions extends DispatchOptions {
  /** `redis://HOST:PORT`. */
  url: string;
}

/** The file in a run folder that names its queue run (so a restarted coordinator finds its jobs). */
export const QUEUE_RUN_FILE = 'queue.json';

/**
 * The queue run id of an output folder: read from `out/queue.json`, or made (random) and
 * written there the first time. Job ids are this id and the instance, so a restarted
 * coordinator adds no job twice.
 */
export function queueRunId(out: string): string {
  const file = join(out, QUEUE_RUN_FILE);
  if (existsSync(file)) {
    let run: unknown;
    try {
      run = (JSON.parse(readFileSync(file, 'utf8')) as { run?: unknown }).run;
    } catch (err) {
      throw new SpaceActError('invalid-state', `${file} is not a queue run file (${(err as Error).message}); move it away to start a new queue run`, { file });
    }
    if (typeof run !== 'string' || !/^[a-f0-9]{16}$/.test(run)) throw new SpaceActError('invalid-state', `${file} names no queue run; move it away to start a new queue run`, { file });
    return run;
  }
  const run = randomBytes(8).toString('hex');
  writeFileSync(`${file}.tmp`, `${JSON.stringify({ run, created: new Date().toISOString() }, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
  return run;
}

/**
 * The agent settings two sides must agree on: everything the agent reports but whether it
 * keeps a response cache (a folder on each worker's own disk, which changes no answer).
 */
export function comparableSettings(settings: Record<string, unknown>): string {
  const { cache: _cache, ...rest } = settings;
  return canonical(rest);
}

function canonical(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
}

/** Job states in which the episode is still to be run by some worker. */
const PENDING_STATES = new Set(['waiting', 'delayed', 'prioritized', 'waiting-children']);

/**
 * Runs the episodes `ids` on whatever workers take them from the queue, calling back as the
 * local worker pool does (`onEpisodeStart`, `onTurn`, `onEpisode` …). Finished episodes in
 * the folder are reported at once without a worker. Returns when every episode has ended, or,
 * once `shouldStop` is true (or an episode failed), when the episodes in flight have stopped
 * after their turn in flight; a failure is then thrown.
 */
export async function runQueued(opts: QueueRunOptions): Promise<void> {
  const { out } = opts.init;
  const agentKind = opts.init.agent.name;
  // What every claim must match: this run's agent, settings, mode and image history.
  const probe = describeAgent(agentKind, opts.init.agent.options);
  await probe.close?.();
  const expected = { agent: probe.name, settings: comparableSettings(probe.settings), mode: modeName(opts.init.mode), historyImages: opts.init.historyImages };
  const digests = new Map<string, string>();
  /** The digest of an instance as this checkout generates it (never the worker's word for it). */
  const digestOf = (id: string): string => {
    let d = digests.get(id);
    if (d === undefined) digests.set(id, (d = instanceDigest(familyAndInstanceFromId(id).instance)));
    return d;
  };
  const run = queueRunId(out);
  const keys = new RunKeys(run);
  const indexOf = new Map(opts.ids.map((id, i) => [id, i]));
  const commands = await connectRedis(opts.url);
  const reader = duplicateRedis(commands);
  // BullMQ leaves connections it is given open on close: these are closed below.
  const queueConnection = duplicateRedis(commands);
  const checkerConnection = duplicateRedis(commands);
  const queue = new Queue<EpisodeJobData, EpisodeJobResult>(QUEUE_NAME, { connection: queueConnection });
  // The coordinator checks for stalled jobs too, so a dead worker's episode comes back to the
  // queue even when no other worker is alive to notice.
  const checker = new Worker(QUEUE_NAME, null, {
    connection: checkerConnection,
    autorun: false,
    stalledInterval: STALLED_CHECK_MS,
    maxStalledCount: MAX_STALLED,
  });
  const notice = (m: string): void => opts.onNotice?.(m);
  // A dropped connection: ioredis reconnects and commands wait for it; said once, not at every
  // retry (BullMQ prints an 'error' nobody listens to with its stack).
  const outage = new OutageNotice(opts.url, notice);
  const repeats = new RepeatFilter(notice);
  const retry = new RefusalRetry(notice);
  const onError = (err: Error): void => (isConnectionError(err) ? outage.failed(err) : repeats.say1(`queue error: ${redisErrorLine(err)}`));
  queue.on('error', onError);
  checker.on('error', onError);
  commands.on('error', onError);
  commands.on('ready', () => outage.ready());
  /** One Redis command of the coordinator, refusals (OOM, READONLY, LOADING, EXECABORT) waited out. */
  const r = <T>(what: string, command: () => Promise<T>): Promise<T> => retry.run(what, command);

  const done = new Set<string>();
  /** The attempt allowed to write each episode (also in Redis, for a restarted coordinator). */
  const claims = new Map<string, string>();
  const recorders = new Map<string, DiskEpisodeRecorder>();
  /** Episodes claimed by a worker and not yet ended, stopped or failed. */
  const inFlight = new Set<string>();
  let stopping = false;
  let failure: SpaceActError | null = null;

  const recorderFor = (id: string): DiskEpisodeRecorder =>
    new DiskEpisodeRecorder(out, id, { keepAbandoned: opts.init.keepAbandoned, onNotice: notice });

  const finishEpisode = (id: string, entry: ReturnType<typeof entryOfEnd>, fresh: boolean): void => {
    inFlight.delete(id);
    if (done.has(id)) return;
    done.add(id);
    opts.onEpisode(indexOf.get(id)!, { entry, fresh });
  };

  const removePending = async (id: string): Promise<void> => {
    const jobId = episodeJobId(run, id);
    const state = await r('a job state read', () => queue.getJobState(jobId));
    if (PENDING_STATES.has(state) || state === 'completed' || state === 'failed') await r('a job removal', () => queue.remove(jobId));
  };

  const beginStop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    // Episodes not started yet stay unstarted; those in flight end after their turn in flight.
    for (const id of opts.ids) if (!done.has(id) && !inFlight.has(id)) await removePending(id);
  };

  const fail = async (err: SpaceActError): Promise<void> => {
    failure ??= err;
    await beginStop();
  };

  const reply = async (key: string, answer: FromCoordinator): Promise<void> => {
    await r('an answer to a worker', () => commands.multi().lpush(key, JSON.stringify(answer)).expire(key, REPLY_TTL_SECONDS).exec());
  };

  /** Why a claim does not fit this run, or null: the coordinator's own instance digest and settings decide. */
  const claimProblem = (msg: Extract<InboxMessage['msg'], { type: 'claim' }>): string | null => {
    const h = msg.header as LogHeader;
    if (h.instance.id !== msg.instance) return `its header names instance ${clip(h.instance.id, 64)}`;
    const digest = digestOf(msg.instance);
    if (h.instance.digest !== digest) return `it generates ${msg.instance} with digest ${clip(h.instance.digest, 64)}, this checkout with ${digest} (another version of the task on that worker?)`;
    if (h.agent.name !== expected.agent) return `it plays agent ${clip(h.agent.name, 60)}, this run ${expected.agent}`;
    if (comparableSettings(h.agent.settings) !== expected.settings) return `its agent settings differ from this run's (${clip(comparableSettings(h.agent.settings), 200)} vs ${clip(expected.settings, 200)}): start the worker with the run's agent flags`;
    if (h.mode !== expected.mode) return `it plays mode ${clip(h.mode, 60)}, this run ${expected.mode}`;
    if (h.historyImages !== expected.historyImages) return `it keeps ${h.historyImages} images of history, this run ${expected.historyImages}`;
    return null;
  };

  /** Writes what one message says, then answers it. */
  const handle = async (m: InboxMessage): Promise<void> => {
    const msg = m.msg;
    const id = msg.instance;
    const current = claims.get(id);
    if (msg.type === 'claim') {
      if (!indexOf.has(id) || (stopping && !done.has(id))) return reply(m.reply, { type: 'stop' });
      const problem = claimProblem(msg);
      if (problem) {
        const worker = clip(msg.worker, 80);
        notice(`${id}: refused the claim of worker ${worker}: ${problem}`);
        return reply(m.reply, { type: 'refused', message: `the coordinator of run ${run} refused the claim: ${problem}` });
      }
      const recorder = recorderFor(id);
      let opening;
      try {
        opening = recorder.open(msg.header as LogHeader);
      } catch (err) {
        const e = err instanceof SpaceActError ? err : new SpaceActError('io', fsErrorLine(err) ?? (err instanceof Error ? err.message : String(err)));
        await reply(m.reply, { type: 'error', message: e.message });
        return fail(e);
      }
      claims.set(id, msg.attempt);
      await r('a claim record', () => commands.hset(keys.claims, id, msg.attempt));
      recorders.set(id, recorder);
      if (opening.kind === 'finished') {
        finishEpisode(id, opening.entry, false);
      } else {
        inFlight.add(id);
        opts.onEpisodeStart?.(id);
        if (opening.turns.length) notice(`${id}: continued on ${clip(msg.worker, 80)} from turn ${opening.turns.length + 1} (${opening.turns.length} logged turn${opening.turns.length === 1 ? '' : 's'} replayed)`);
      }
      return reply(m.reply, { type: 'open', opening });
    }
    // Every other message needs the episode's current attempt: a forged or stale one changes nothing.
    if (current === undefined || current !== msg.attempt) return reply(m.reply, { type: 'superseded' });
    const recorder = recorders.get(id);
    if (msg.type === 'turn') {
      if (!recorder || recorder.ended) return reply(m.reply, { type: 'resync', reason: 'the coordinator has no open log for this episode' });
      const n = msg.record.turn;
      if (n <= recorder.turnsWritten) return reply(m.reply, { type: 'ok', stop: stopping }); // handed again after a coordinator restart
      if (n !== recorder.turnsWritten + 1) return reply(m.reply, { type: 'resync', reason: `turn ${n} arrived where turn ${recorder.turnsWritten + 1} was due` });
      recorder.turn(msg.record, joinImages(msg.images, m.png));
      opts.onTurnCost(msg.record.reply.usage?.cost ?? 0);
      opts.onTurn?.(id, msg.record);
      if (opts.shouldStop()) await beginStop();
      return reply(m.reply, { type: 'ok', stop: stopping });
    }
    if (msg.type === 'end') {
      if (!recorder) return reply(m.reply, { type: 'resync', reason: 'the coordinator has no open log for this episode' });
      if (msg.end.outcome.instance !== id) return reply(m.reply, { type: 'refused', message: `an end line for ${clip(msg.end.outcome.instance, 64)} in episode ${id}` });
      if (!recorder.ended) {
        if (msg.end.outcome.turns !== recorder.turnsWritten) return reply(m.reply, { type: 'resync', reason: `an end after ${msg.end.outcome.turns} turns where ${recorder.turnsWritten} are logged` });
        recorder.finish(msg.end, joinImages(msg.images, m.png));
      }
      await r('a claim removal', () => commands.hdel(keys.claims, id));
      finishEpisode(id, entryOfEnd(msg.end), true);
      return reply(m.reply, { type: 'ok', stop: stopping });
    }
    if (msg.type === 'stopped') {
      inFlight.delete(id);
      await r('a claim removal', () => commands.hdel(keys.claims, id));
      return reply(m.reply, { type: 'ok', stop: true });
    }
    // failed: the current attempt's own failure (a refused key, a full disk on its side) ends the run.
    inFlight.delete(id);
    await r('a claim removal', () => commands.hdel(keys.claims, id));
    await reply(m.reply, { type: 'ok', stop: true });
    const code = msg.error.code && /^[a-z-]{1,40}$/.test(msg.error.code) ? (msg.error.code as ErrorCode) : 'invalid-state';
    return fail(new SpaceActError(code, `${clip(msg.error.message, 600)} (worker ${clip(msg.worker, 80)})`, { instance: id, worker: clip(msg.worker, 80) }));
  };

  /** What the queue says about episodes the inbox does not: failed jobs, and dead workers while stopping. */
  const pollJobs = async (): Promise<void> => {
    for (const id of opts.ids) {
      if (done.has(id)) continue;
      const jobId = episodeJobId(run, id);
      const state = await r('a job state read', () => queue.getJobState(jobId));
      if (state === 'failed') {
        const job = await r('a job read', () => queue.getJob(jobId));
        const reason = job?.failedReason ?? 'no reason recorded';
        await r('a job removal', () => queue.remove(jobId));
        inFlight.delete(id);
        if (reason.startsWith(NO_COORDINATOR) && !stopping) {
          // Given up by a worker while this run had no coordinator (a restart): queued again.
          await addJob(id);
          continue;
        }
        // A failed episode reports itself in the inbox first; this catches what it cannot (too many stalls).
        await fail(new SpaceActError('invalid-state', `${id}: its job failed in the queue (${clip(reason, 300)}); rerun with the same --out to try again`, { instance: id }));
      } else if (stopping && PENDING_STATES.has(state)) {
        // Put back by the stalled check after its worker died: it is not started again.
        await r('a job removal', () => queue.remove(jobId));
        inFlight.delete(id);
      } else if (!stopping && (state === 'unknown' || state === 'completed') && !inFlight.has(id)) {
        // Its job ended without an end line here (a worker told to stop by an earlier invocation, or `queue drop`).
        await r('a job removal', () => queue.remove(jobId));
        await addJob(id);
      }
    }
  };

  const addJob = async (id: string): Promise<void> => {
    const data: EpisodeJobData = { run, instance: id, agent: agentKind, mode: expected.mode, render: opts.init.render, historyImages: opts.init.historyImages };
    await r('a new job', () =>
      queue.add(
        'episode',
        data,
        // Failed jobs are kept so the coordinator can read why; it removes them itself.
        { jobId: episodeJobId(run, id), removeOnComplete: true, removeOnFail: false, attempts: 1 },
      ),
    );
  };

  // The liveness key: workers play only runs whose coordinator renews it (a dead run's jobs are given up at once).
  const renewAlive = (): Promise<unknown> => commands.set(keys.alive, String(process.pid), 'EX', ALIVE_SECONDS).catch(() => {});
  const aliveTimer = setInterval(() => void renewAlive(), ALIVE_RENEW_MS);
  aliveTimer.unref();

  try {
    await r('the start of the run', async () => {
      await commands.del(keys.closed);
      await commands.set(keys.alive, String(process.pid), 'EX', ALIVE_SECONDS);
    });
    await r('the inbox group', async () => {
      try {
        await commands.xgroup('CREATE', keys.inbox, INBOX_GROUP, '0', 'MKSTREAM');
      } catch (err) {
        if (!/BUSYGROUP/.test((err as Error).message)) throw err;
      }
    });
    // Episodes a worker was playing when an earlier coordinator of this run stopped.
    const held = await r('the claims', () => commands.hgetall(keys.claims));
    for (const [id, attempt] of Object.entries(held)) {
      if (!indexOf.has(id)) continue;
      const recorder = recorderFor(id);
      recorder.reattach();
      claims.set(id, attempt);
      recorders.set(id, recorder);
    }
    // Finished episodes need no worker; the others get a job unless one is still queued or running.
    for (const id of opts.ids) {
      const end = new EpisodeLog(out, id).read().end;
      if (end && !(end.outcome.abandoned && !opts.init.keepAbandoned)) {
        await removePending(id);
        finishEpisode(id, entryOfEnd(end), false);
        continue;
      }
      const jobId = episodeJobId(run, id);
      const state = await r('a job state read', () => queue.getJobState(jobId));
      if (PENDING_STATES.has(state) || state === 'active') {
        if (claims.has(id) && state === 'active') inFlight.add(id);
        continue;
      }
      if (state !== 'unknown') await r('a job removal', () => queue.remove(jobId));
      await addJob(id);
    }
    await checker.startStalledCheckTimer();

    let pending = true;
    let polled = Date.now();
    while (done.size < opts.ids.length && !(stopping && inFlight.size === 0)) {
      if (!stopping && opts.shouldStop()) await beginStop();
      const got = (await r('the inbox read', () =>
        reader.callBuffer('XREADGROUP', 'GROUP', INBOX_GROUP, 'coordinator', 'COUNT', 16, 'BLOCK', 1000, 'STREAMS', keys.inbox, pending ? '0' : '>'),
      ).catch((err: Error) => {
        if (!/NOGROUP/.test(err.message)) throw err;
        throw new SpaceActError(
          'invalid-state',
          `Redis at ${shownUrl(opts.url)} no longer holds this run (restarted without its data, or dropped with \`spaceact queue drop\`?); rerun the same command with the same --out: unfinished episodes are queued again and continue from their logs`,
          { queue: shownUrl(opts.url) },
        );
      })) as Array<[Buffer, Array<[Buffer, Buffer[]]>]> | null;
      const entries = got?.[0]?.[1] ?? [];
      // Messages handed to an earlier coordinator and never acknowledged come first.
      if (pending && entries.length === 0) pending = false;
      for (const [idBuf, fields] of entries) {
        const id = idBuf.toString();
        // (An entry deleted after it was handed out comes back without fields: nothing to do.)
        if (fields) {
          let m: InboxMessage | null = null;
          try {
            m = parseMessage(id, fields, keys);
          } catch (err) {
            if (!(err instanceof UnreadableMessage)) throw err;
            // One line, acknowledged below: an entry nobody can read never stops the run, nor comes back.
            notice(err.message);
            if (err.reply) await reply(err.reply, { type: 'refused', message: err.message });
          }
          if (m) await handle(m);
        }
        // Acknowledged only once written: a coordinator killed before this is handed it again.
        await r('an acknowledgement', () => commands.multi().xack(keys.inbox, INBOX_GROUP, id).xdel(keys.inbox, id).exec());
      }
      if (Date.now() - polled > STALLED_CHECK_MS / 2) {
        polled = Date.now();
        await pollJobs();
      }
    }
    if (stopping) for (const id of opts.ids) if (!done.has(id) && !inFlight.has(id)) await removePending(id);
    if (done.size === opts.ids.length) await r('the end of the run', () => commands.del(keys.claims, keys.inbox));
  } finally {
    clearInterval(aliveTimer);
    // Workers still waiting on this run's inbox learn that nobody will answer (a coordinator
    // that is killed says nothing: its workers wait for its restart while the liveness key lasts).
    await Promise.race([commands.multi().set(keys.closed, '1', 'EX', REPLY_TTL_SECONDS).del(keys.alive).exec(), new Promise((res) => setTimeout(res, 2000).unref())]).catch(() => {});
    await checker.close().catch(() => {});
    await queue.close().catch(() => {});
    for (const c of [reader, queueConnection, checkerConnection, commands]) c.disconnect();
  }
  if (failure) throw failure;
}
