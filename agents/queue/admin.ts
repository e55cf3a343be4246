/**
 * Seeing and removing queue runs' jobs (`spaceact queue ls|drop RUN|purge`): what a person
 * needs when a run was abandoned (its coordinator killed and never rerun) and its jobs sit in
 * the shared queue. Job data is read raw, never trusted: a job whose data is not JSON or names
 * no run is listed under `(no run)` and purged like a dead run's.
 */
import { Queue, type JobType } from 'bullmq';
import type { Redis } from 'ioredis';
import { SpaceActError } from '../../core/errors.ts';
import { ALIVE_SECONDS, clip, connectRedis, duplicateRedis, QUEUE_NAME, REPLY_TTL_SECONDS, RUN_ID, RUN_KEY_PATTERN, RunKeys, runOfKey } from './protocol.ts';

/** Job states listed and removed (every state a job of BullMQ can be in). */
const STATES: JobType[] = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children', 'failed', 'completed'];

/** The run jobs without a readable run are listed under. */
export const NO_RUN = '(no run)';

/** One run as the queue holds it. */
export interface QueueRunInfo {
  run: string;
  /** The coordinator's process id while its liveness key lasts, else null (no live coordinator). */
  coordinator: string | null;
  /** Jobs by state. */
  jobs: Partial<Record<JobType, number>>;
}

/** The run a job belongs to, read from its raw data (or its id `RUN.INSTANCE`), or {@link NO_RUN}. */
function runOfJob(id: string, rawData: string | null): string {
  try {
    const run = (JSON.parse(rawData ?? '') as { run?: unknown } | null)?.run;
    if (typeof run === 'string' && RUN_ID.test(run)) return run;
  } catch {
    // Not JSON: the id may still say.
  }
  const m = /^([A-Za-z0-9_-]{1,64})\./.exec(id);
  return m ? m[1] : NO_RUN;
}

/** The queue's jobs by state, each with its run. */
async function jobsByRun(queue: Queue, redis: Redis): Promise<Array<{ id: string; state: JobType; run: string }>> {
  const out: Array<{ id: string; state: JobType; run: string }> = [];
  for (const state of STATES) {
    const ids = await queue.getRanges([state], 0, -1, true);
    for (const id of ids) out.push({ id, state, run: runOfJob(id, await redis.hget(queue.toKey(id), 'data')) });
  }
  return out;
}

/** Every run with jobs or keys in the queue at `url`, with its coordinator's liveness and its jobs by state. */
export async function listQueueRuns(url: string): Promise<QueueRunInfo[]> {
  return withQueue(url, async (queue, redis) => {
    const runs = new Map<string, QueueRunInfo>();
    const info = (run: string): QueueRunInfo => {
      let r = runs.get(run);
      if (!r) runs.set(run, (r = { run, coordinator: null, jobs: {} }));
      return r;
    };
    for (const j of await jobsByRun(queue, redis)) info(j.run).jobs[j.state] = (info(j.run).jobs[j.state] ?? 0) + 1;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', RUN_KEY_PATTERN, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) {
        const run = runOfKey(key);
        // Reply lists (answers nobody read) and the closed mark of an ended run do not make a run worth listing.
        if (run && !key.includes(':reply:') && !key.endsWith(':closed')) info(run);
      }
    } while (cursor !== '0');
    for (const r of runs.values()) if (r.run !== NO_RUN) r.coordinator = await redis.get(new RunKeys(r.run).alive);
    return [...runs.values()].sort((a, b) => a.run.localeCompare(b.run));
  });
}

/** What {@link dropQueueRun} removed. */
export interface DropResult {
  run: string;
  removed: number;
  /** Jobs a worker holds now: it is told the run is over and ends them after its turn in flight. */
  active: number;
}

/**
 * Removes run `run`'s jobs and keys from the queue at `url`. A run whose coordinator is alive
 * is refused unless `force` (its coordinator would then stop with a line saying the run is gone).
 * Jobs a worker is playing cannot be removed under its lock: the run is marked closed, so the
 * worker stops them at its next message, and nothing takes them again.
 */
export async function dropQueueRun(url: string, run: string, opts: { force?: boolean } = {}): Promise<DropResult> {
  if (run !== NO_RUN && !RUN_ID.test(run)) throw new SpaceActError('invalid-argument', `not a queue run id: ${clip(JSON.stringify(run))} (see \`spaceact queue ls\`)`);
  return withQueue(url, async (queue, redis) => {
    const keys = run === NO_RUN ? null : new RunKeys(run);
    if (keys && !opts.force) {
      const pid = await redis.get(keys.alive);
      if (pid !== null) throw new SpaceActError('invalid-state', `run ${run} has a live coordinator (process ${clip(pid, 20)}); stop it first (Ctrl-C), or drop it anyway with --force`, { run });
    }
    let removed = 0;
    let active = 0;
    if (keys) {
      // First the mark, so that a worker taking one of its jobs meanwhile gives it up.
      await redis.multi().set(keys.closed, '1', 'EX', REPLY_TTL_SECONDS).del(keys.alive, keys.inbox, keys.claims).exec();
    }
    for (const j of await jobsByRun(queue, redis)) {
      if (j.run !== run) continue;
      if ((await queue.remove(j.id)) === 1) removed++;
      else if (j.state === 'active') active++;
    }
    return { run, removed, active };
  });
}

/** Drops every run with no live coordinator (and jobs naming no run); returns what each drop removed. */
export async function purgeQueue(url: string): Promise<DropResult[]> {
  const dead = (await listQueueRuns(url)).filter((r) => r.coordinator === null);
  const results: DropResult[] = [];
  for (const r of dead) results.push(await dropQueueRun(url, r.run));
  return results;
}

/** How long a dead coordinator's run still counts as live (its liveness key's lifetime), for messages. */
export const LIVENESS_SECONDS = ALIVE_SECONDS;

async function withQueue<T>(url: string, body: (queue: Queue, redis: Redis) => Promise<T>): Promise<T> {
  const redis = await connectRedis(url);
  const connection = duplicateRedis(redis);
  const queue = new Queue(QUEUE_NAME, { connection });
  queue.on('error', () => {});
  try {
    return await body(queue, redis);
  } finally {
    await queue.close().catch(() => {});
    connection.disconnect();
    redis.disconnect();
  }
}
