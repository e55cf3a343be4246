/**
 * What a queue run's coordinator and its workers say to each other over Redis, and the Redis
 * connection they share.
 *
 * Episodes are BullMQ jobs in one queue ({@link QUEUE_NAME}): a job carries the run's id,
 * the instance and the run's settings (agent by registry name with plain options, mode,
 * rendering) — never a key; a worker reads its own environment. Everything else goes through
 * two kinds of Redis keys per run:
 *
 * - the run's **inbox**, a Redis stream read by the coordinator through a consumer group:
 *   a worker appends `claim`, `turn`, `end`, `stopped` and `failed` messages (a turn with its
 *   PNG images as binary fields). The coordinator acknowledges and deletes a message only
 *   after it has written what the message says to its disk, so a coordinator killed in
 *   between is handed the message again when it restarts.
 * - a **reply list** per message, `…:reply:<attempt>:<seq>`, which the coordinator pushes its
 *   answer to and the worker waits on (BLPOP). Replies expire after an hour.
 *
 * The coordinator writes the episode's log; a worker holds nothing on disk. A worker starting a
 * job (first try or retry after a stall) claims the episode with an attempt id; the
 * coordinator answers with the turns it has logged (the replay) and from then on takes lines
 * only from that attempt — lines of an older attempt (a worker thought dead that comes back)
 * are refused. The current attempt of every episode is kept in a Redis hash, so a restarted
 * coordinator knows it too.
 */
import { Redis } from 'ioredis';
import { SpaceActError } from '../../core/errors.ts';
import type { LogHeader } from '../episode-log.ts';
import type { EpisodeEnd, EpisodeOpening } from '../episode-runner.ts';
import type { Mode } from '../modes.ts';
import type { RenderWhen } from '../run-defaults.ts';
import type { AgentSpec, SummaryEntry } from '../run-types.ts';
import type { ObservationImage, TurnRecord } from '../types.ts';

/** The BullMQ queue every run's episodes go to (workers need only the Redis address). */
export const QUEUE_NAME = 'spaceact-episodes';

/** Prefix of the keys a run keeps besides its BullMQ jobs. */
const KEY_PREFIX = 'spaceact:run';

/** Seconds a reply waits for its worker before Redis drops it. */
export const REPLY_TTL_SECONDS = 3600;

/** Times an episode may lose its worker (SIGKILL, a lost machine) before its job fails. */
export const MAX_STALLED = 5;

/**
 * Milliseconds between checks for stalled jobs (by the coordinator and by every worker; Redis
 * runs at most one check per interval). A job whose lock has expired is marked at one check
 * and put back in the queue at the next, so a dead worker's episode waits at most its lock
 * time plus two intervals.
 */
export const STALLED_CHECK_MS = 5000;

/** Default seconds of a worker's lock on its episode (renewed every half of it while the worker lives). */
export const DEFAULT_LOCK_SECONDS = 30;

/** What every episode job of a run carries. */
export interface EpisodeSettings {
  agent: AgentSpec;
  mode: Mode;
  render: RenderWhen;
  historyImages: number;
}

/** The data of one episode job. */
export interface EpisodeJobData {
  run: string;
  instance: string;
  settings: EpisodeSettings;
}

/** What a worker's job returns to BullMQ (for people reading the queue; the coordinator uses the log). */
export type EpisodeJobResult = { entry: SummaryEntry; fresh: boolean } | { stopped: true };

/** Messages from a worker to its run's coordinator. Every one names its episode and attempt. */
export type ToCoordinator =
  | { type: 'claim'; instance: string; attempt: string; worker: string; header: LogHeader }
  | { type: 'turn'; instance: string; attempt: string; record: TurnRecord; images: ImageMeta[] }
  | { type: 'end'; instance: string; attempt: string; end: EpisodeEnd; images: ImageMeta[] }
  | { type: 'stopped'; instance: string; attempt: string }
  | { type: 'failed'; instance: string; attempt: string; worker: string; error: { code?: string; message: string } };

/** An image's kind and caption; its PNG bytes travel beside the message. */
export interface ImageMeta {
  kind: ObservationImage['kind'];
  caption: string;
}

/** The coordinator's answers. */
export type FromCoordinator =
  /** Claim granted: play the episode (replaying the logged turns), or it is already finished. */
  | { type: 'open'; opening: EpisodeOpening }
  /** A line was written; `stop` asks the worker to end the episode after this turn (cost limit, Ctrl-C, breaker). */
  | { type: 'ok'; stop: boolean }
  /** The run is stopping: do not start this episode. */
  | { type: 'stop' }
  /** Another attempt holds the episode now (this worker was taken for dead): drop it. */
  | { type: 'superseded' }
  /** The log does not continue where this attempt is (a line was lost): claim again and replay. */
  | { type: 'resync'; reason: string }
  /** The coordinator could not open the episode (another run's log, a damaged log): it stops the run. */
  | { type: 'error'; message: string };

/** The Redis keys of one run. */
export class RunKeys {
  readonly inbox: string;
  readonly claims: string;
  /** Set when the coordinator has left the run: nobody will answer its inbox. */
  readonly closed: string;
  constructor(readonly run: string) {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(run)) throw new SpaceActError('invalid-argument', `not a queue run id: ${JSON.stringify(run)}`);
    this.inbox = `${KEY_PREFIX}:${run}:inbox`;
    this.claims = `${KEY_PREFIX}:${run}:claims`;
    this.closed = `${KEY_PREFIX}:${run}:closed`;
  }
  /** The list a reply to message `seq` of `attempt` is pushed to. */
  reply(attempt: string, seq: number): string {
    return `${KEY_PREFIX}:${this.run}:reply:${attempt}:${seq}`;
  }
}

/** The consumer group the coordinator reads its inbox with. */
export const INBOX_GROUP = 'coordinator';

/** The BullMQ job id of an episode: the run and the instance, so adding it twice adds one job. */
export function episodeJobId(run: string, instance: string): string {
  if (instance.includes(':')) throw new SpaceActError('invalid-argument', `instance id ${instance} cannot be a job id (it holds ':')`);
  return `${run}.${instance}`;
}

/** Checks a `--queue` address: `redis://HOST:PORT` (or `rediss://` for TLS), with an optional `/DB`. */
export function checkRedisUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new SpaceActError('invalid-argument', `--queue must be a Redis address such as redis://127.0.0.1:6379, not ${JSON.stringify(url)}`);
  }
  if ((u.protocol !== 'redis:' && u.protocol !== 'rediss:') || !u.hostname) {
    throw new SpaceActError('invalid-argument', `--queue must be a Redis address such as redis://127.0.0.1:6379, not ${JSON.stringify(url)}`);
  }
  return url;
}

/** The address without a password, for messages. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(not a URL)';
  }
}

/**
 * A connection to Redis that retries forever (what BullMQ's workers need: a dropped
 * connection is reconnected and blocked commands resume). The first connection must
 * succeed within `timeoutMs`, so a wrong address fails at once with one clear line.
 */
export async function connectRedis(url: string, timeoutMs = 10_000): Promise<Redis> {
  checkRedisUrl(url);
  const redis = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: true, enableReadyCheck: true, connectionName: 'spaceact' });
  let lastError = '';
  redis.on('error', (err: Error) => {
    lastError = err.message;
  });
  const timer = new Promise<never>((_, reject) => {
    setTimeout(() => reject(new Error(lastError || `no answer within ${timeoutMs / 1000} s`)), timeoutMs).unref();
  });
  try {
    await Promise.race([redis.connect(), timer]);
    await Promise.race([redis.ping(), timer]);
  } catch (err) {
    redis.disconnect();
    // The socket's own error (connection refused, host not found) says more than the rejection ("Connection is closed.").
    throw new SpaceActError('io', `cannot reach Redis at ${shownUrl(url)}: ${lastError || (err as Error).message}`, { queue: shownUrl(url) });
  }
  return redis;
}

/** Whether an error is a lost or refused connection (ioredis reconnects by itself), not a failed command. */
export function isConnectionError(err: Error): boolean {
  const code = (err as { code?: unknown }).code;
  return (typeof code === 'string' && /^E[A-Z]+$/.test(code)) || /Connection is closed|connect ETIMEDOUT/.test(err.message);
}

/**
 * Says once that Redis cannot be reached and once that it is back, instead of a line at every
 * reconnection attempt of every connection: feed it every connection's errors ({@link failed})
 * and a connection's `ready` events ({@link ready}).
 */
export class OutageNotice {
  private down = false;
  constructor(
    private readonly url: string,
    private readonly say: (line: string) => void,
  ) {}

  /** A connection error: the first of an outage is said. */
  failed(err: Error): void {
    if (this.down) return;
    this.down = true;
    this.say(`lost Redis at ${shownUrl(this.url)} (${err.message}); waiting for it to come back`);
  }

  /** A connection is ready again. */
  ready(): void {
    if (!this.down) return;
    this.down = false;
    this.say(`Redis at ${shownUrl(this.url)} is back`);
  }
}

/**
 * Another connection to the same Redis (BullMQ and blocking reads each need their own). Its
 * connection errors are not thrown as unhandled events: ioredis reconnects by itself, and a
 * command that cannot run fails where it is awaited.
 */
export function duplicateRedis(redis: Redis): Redis {
  const copy = redis.duplicate();
  copy.on('error', () => {});
  return copy;
}

/** Splits images into their metadata (in the JSON) and their PNG bytes (binary stream fields). */
export function splitImages(images: ObservationImage[]): { meta: ImageMeta[]; png: Buffer[] } {
  return { meta: images.map((i) => ({ kind: i.kind, caption: i.caption })), png: images.map((i) => i.png) };
}

/** Joins metadata and PNG bytes back into images. */
export function joinImages(meta: ImageMeta[], png: Buffer[]): ObservationImage[] {
  if (meta.length !== png.length) throw new SpaceActError('invalid-state', `a message lists ${meta.length} images but carries ${png.length}`);
  return meta.map((m, i) => ({ kind: m.kind, caption: m.caption, png: png[i] }));
}

/** The stream fields of a message: `m` its JSON, `i0`, `i1`, … its images' bytes. */
export function messageFields(msg: ToCoordinator, reply: string, png: Buffer[] = []): Array<string | Buffer> {
  const fields: Array<string | Buffer> = ['m', JSON.stringify(msg), 'r', reply];
  png.forEach((b, i) => fields.push(`i${i}`, b));
  return fields;
}

/** A message read back from the inbox. */
export interface InboxMessage {
  id: string;
  msg: ToCoordinator;
  reply: string;
  png: Buffer[];
}

/** Parses the fields of one stream entry (as read with the `…Buffer` commands). */
export function parseMessage(id: string, fields: Buffer[]): InboxMessage {
  const byName = new Map<string, Buffer>();
  for (let i = 0; i + 1 < fields.length; i += 2) byName.set(fields[i].toString('utf8'), fields[i + 1]);
  const m = byName.get('m');
  const r = byName.get('r');
  if (!m || !r) throw new SpaceActError('invalid-state', `inbox entry ${id} is not a SpaceAct message`);
  const png: Buffer[] = [];
  for (let i = 0; byName.has(`i${i}`); i++) png.push(byName.get(`i${i}`)!);
  return { id, msg: JSON.parse(m.toString('utf8')) as ToCoordinator, reply: r.toString('utf8'), png };
}
