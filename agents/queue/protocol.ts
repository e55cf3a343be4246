/**
 * What a queue run's coordinator and its workers say to each other over Redis, and the Redis
 * connection they share.
 *
 * Redis is a trust boundary: anyone who can write to it may write a job or an inbox message.
 * So a job names only what to play — the run, the instance, the agent's kind, the mode and the
 * rendering ({@link checkJob}: a fixed schema, nothing else) — and never a place, a key's
 * variable, a file or an option: a worker builds the agent from its own flags and reads its key
 * from its own environment. Every message a worker sends is checked against a schema before the
 * coordinator reads it ({@link parseMessage}: image kinds from a fixed set, sizes and nesting
 * capped); one it cannot read costs one line and is acknowledged, never a stopped run.
 * Everything else goes through two kinds of Redis keys per run:
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
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import { Redis } from 'ioredis';
import { SpaceActError } from '../../core/errors.ts';
import { AGENTS } from '../agent-registry.ts';
import { RENDER_WHEN } from '../run-defaults.ts';
import type { LogHeader } from '../episode-log.ts';
import type { EpisodeEnd, EpisodeOpening } from '../episode-runner.ts';
import type { Mode } from '../modes.ts';
import type { RenderWhen } from '../run-defaults.ts';
import type { SummaryEntry } from '../run-types.ts';
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

/**
 * The data of one episode job: what to play, never how or where. The agent is a kind from the
 * registry; its options (endpoint, model, key variable, cache, prices) are the worker's own.
 */
export interface EpisodeJobData {
  run: string;
  instance: string;
  /** An agent kind of the registry (`reference`, `openai`, …). */
  agent: string;
  /** The mode's name (`default`, `cap1`, `blind+nonote`, …). */
  mode: string;
  render: RenderWhen;
  historyImages: number;
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
  | { type: 'error'; message: string }
  /**
   * The claim or message does not fit the run (another agent, mode or settings; an instance
   * generated differently on this worker; a message the schema refuses): the worker hands the
   * job back for another worker. The run goes on.
   */
  | { type: 'refused'; message: string };

/** The Redis keys of one run. */
export class RunKeys {
  readonly inbox: string;
  readonly claims: string;
  /** Set when the coordinator has left the run: nobody will answer its inbox. */
  readonly closed: string;
  /** Set (with a short expiry, renewed) while the run's coordinator lives: workers play only runs that have one. */
  readonly alive: string;
  constructor(readonly run: string) {
    if (!RUN_ID.test(run)) throw new SpaceActError('invalid-argument', `not a queue run id: ${clip(JSON.stringify(run))}`);
    this.inbox = `${KEY_PREFIX}:${run}:inbox`;
    this.claims = `${KEY_PREFIX}:${run}:claims`;
    this.closed = `${KEY_PREFIX}:${run}:closed`;
    this.alive = `${KEY_PREFIX}:${run}:alive`;
  }
  /** The list a reply to message `seq` of `attempt` is pushed to. */
  reply(attempt: string, seq: number): string {
    return `${KEY_PREFIX}:${this.run}:reply:${attempt}:${seq}`;
  }
  /** Whether `key` is a reply list of this run's `attempt` (a message may name no other key to be answered at). */
  isReplyOf(key: string, attempt: string): boolean {
    const prefix = `${KEY_PREFIX}:${this.run}:reply:${attempt}:`;
    return key.startsWith(prefix) && /^\d{1,9}$/.test(key.slice(prefix.length));
  }
  /** Every key of this run besides its BullMQ jobs (for `spaceact queue drop`). */
  all(): string[] {
    return [this.inbox, this.claims, this.closed, this.alive];
  }
}

/** Run ids: what {@link RunKeys} accepts. */
export const RUN_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** The run id in a run key, for listing runs (`spaceact queue ls`). */
export const RUN_KEY_PATTERN = `${KEY_PREFIX}:*`;
/** The run a run key belongs to, or null. */
export function runOfKey(key: string): string | null {
  const m = /^spaceact:run:([A-Za-z0-9_-]{1,64}):/.exec(key);
  return m ? m[1] : null;
}

/** Seconds the coordinator's liveness key lasts unrenewed (renewed every {@link ALIVE_RENEW_MS}). */
export const ALIVE_SECONDS = 15;
/** Milliseconds between renewals of the liveness key. */
export const ALIVE_RENEW_MS = 3000;

/** Most characters of a value from the queue shown in a line (a 5 MB instance id is not echoed). */
export const SHOWN_CHARS = 120;

/** `text`, at most {@link SHOWN_CHARS} characters (saying how long it was when cut). */
export function clip(text: string, max = SHOWN_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

/** Reason a worker gives a job of a run with no live coordinator (the coordinator queues it again when it comes back). */
export const NO_COORDINATOR = 'no live coordinator';

/** The consumer group the coordinator reads its inbox with. */
export const INBOX_GROUP = 'coordinator';

/** The BullMQ job id of an episode: the run and the instance, so adding it twice adds one job. */
export function episodeJobId(run: string, instance: string): string {
  if (instance.includes(':')) throw new SpaceActError('invalid-argument', `instance id ${clip(instance)} cannot be a job id (it holds ':')`);
  return `${run}.${instance}`;
}

/** Instance ids a job or message may name (the registry's ids are far shorter; `+` for a lever study, `M5-L5+tool-s100`). */
export const INSTANCE_ID = '^[A-Za-z0-9][A-Za-z0-9_.+-]{0,63}$';
/** Attempt ids: a BullMQ lock token and a counter. */
const ATTEMPT_ID = '^[A-Za-z0-9:_-]{1,128}$';
/** Most images one message carries, and the most bytes of each. */
export const MAX_IMAGES = 16;
export const MAX_IMAGE_BYTES = 16 * 1024 * 1024;
/** Most bytes of a message's JSON. */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** Deepest nesting of a message's JSON (a turn's calls are a few levels deep). */
export const MAX_DEPTH = 48;
/** The kinds of image a turn may carry: they become part of file names, so no other text is taken. */
export const IMAGE_KINDS: ReadonlyArray<ObservationImage['kind']> = ['view', 'strobe', 'rollback'];

const ajv = new Ajv2020({ allErrors: false, strict: false });

const JOB_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['run', 'instance', 'agent', 'mode', 'render', 'historyImages'],
  properties: {
    run: { type: 'string', pattern: RUN_ID.source },
    instance: { type: 'string', pattern: INSTANCE_ID },
    agent: { enum: Object.keys(AGENTS) },
    mode: { type: 'string', pattern: '^[a-z0-9+]{1,64}$' },
    render: { enum: [...RENDER_WHEN] },
    historyImages: { type: 'integer', minimum: 0, maximum: 20 },
  },
};
const checkJobData: ValidateFunction = ajv.compile(JOB_SCHEMA);

/** Why a value failed a schema, in one short line. */
export function schemaProblem(v: ValidateFunction): string {
  const e = v.errors?.[0];
  if (!e) return 'does not fit the schema';
  const where = e.instancePath || '(top)';
  const extra = e.keyword === 'additionalProperties' ? ` '${clip(String((e.params as { additionalProperty?: string }).additionalProperty), 40)}'` : e.keyword === 'enum' ? ` (one of ${((e.params as { allowedValues?: unknown[] }).allowedValues ?? []).join(', ')})` : '';
  return `${where} ${e.message ?? 'is wrong'}${extra}`;
}

/**
 * A job's data checked against the job schema: the run, an instance id, an agent kind of the
 * registry, a mode name, when to render and how many images to keep — and nothing else (a job
 * naming an endpoint, a key's variable, a cache folder or any option is refused).
 */
export function checkJob(data: unknown): EpisodeJobData {
  if (!checkJobData(data)) throw new SpaceActError('invalid-argument', `not an episode job: ${schemaProblem(checkJobData)}`);
  return data as EpisodeJobData;
}

const IMAGE_META = {
  type: 'array',
  maxItems: MAX_IMAGES,
  items: {
    type: 'object',
    required: ['kind', 'caption'],
    properties: { kind: { enum: [...IMAGE_KINDS] }, caption: { type: 'string', maxLength: 4000 } },
  },
};
const ENVELOPE = {
  instance: { type: 'string', pattern: INSTANCE_ID },
  attempt: { type: 'string', pattern: ATTEMPT_ID },
};
const MESSAGE_SCHEMA = {
  type: 'object',
  required: ['type', 'instance', 'attempt'],
  oneOf: [
    {
      properties: {
        type: { const: 'claim' },
        ...ENVELOPE,
        worker: { type: 'string', maxLength: 200 },
        header: {
          type: 'object',
          required: ['type', 'format', 'instance', 'agent', 'mode', 'historyImages'],
          properties: {
            type: { const: 'header' },
            format: { type: 'integer' },
            instance: { type: 'object', required: ['id', 'digest'], properties: { id: { type: 'string', maxLength: 64 }, digest: { type: 'string', pattern: '^[0-9a-f]{1,64}$' } } },
            agent: { type: 'object', required: ['name', 'settings'], properties: { name: { type: 'string', maxLength: 200 }, settings: { type: 'object' } } },
            mode: { type: 'string', maxLength: 64 },
            historyImages: { type: 'integer', minimum: 0, maximum: 20 },
          },
        },
      },
      required: ['worker', 'header'],
    },
    {
      properties: {
        type: { const: 'turn' },
        ...ENVELOPE,
        images: IMAGE_META,
        record: {
          type: 'object',
          required: ['turn', 'worldTimeBefore', 'worldTimeAfter', 'images', 'reply', 'results', 'stateHash'],
          properties: {
            turn: { type: 'integer', minimum: 1, maximum: 1_000_000 },
            worldTimeBefore: { type: 'number' },
            worldTimeAfter: { type: 'number' },
            images: IMAGE_META,
            reply: {
              type: 'object',
              required: ['rationale', 'note', 'actions'],
              properties: {
                rationale: { type: 'string' },
                note: { type: 'string' },
                actions: { type: 'array', items: { type: 'object', required: ['tool', 'args'], properties: { tool: { type: 'string', maxLength: 200 }, args: { type: 'object' } } } },
              },
            },
            results: { type: 'array' },
            stateHash: { type: 'string', pattern: '^[0-9a-f]{1,128}$' },
          },
        },
      },
      required: ['record', 'images'],
    },
    {
      properties: {
        type: { const: 'end' },
        ...ENVELOPE,
        images: IMAGE_META,
        end: {
          type: 'object',
          required: ['outcome', 'score', 'referenceActions'],
          properties: {
            outcome: {
              type: 'object',
              required: ['instance', 'solved', 'abandoned', 'turns', 'endReason', 'usage'],
              properties: {
                instance: { type: 'string', pattern: INSTANCE_ID },
                solved: { type: 'boolean' },
                abandoned: { type: 'boolean' },
                turns: { type: 'integer', minimum: 0 },
                endReason: { type: 'string', maxLength: 200 },
                usage: { type: 'object' },
              },
            },
            score: { type: 'object' },
            referenceActions: { type: 'number' },
          },
        },
      },
      required: ['end', 'images'],
    },
    { properties: { type: { const: 'stopped' }, ...ENVELOPE } },
    {
      properties: {
        type: { const: 'failed' },
        ...ENVELOPE,
        worker: { type: 'string', maxLength: 200 },
        error: { type: 'object', required: ['message'], properties: { code: { type: 'string', maxLength: 40 }, message: { type: 'string', maxLength: 4000 } } },
      },
      required: ['worker', 'error'],
    },
  ],
};
/** One validator per message type, so that a refusal names what is wrong with that type's message. */
const checkMessageByType = new Map<string, ValidateFunction>(
  MESSAGE_SCHEMA.oneOf.map((branch) => [
    (branch.properties.type as { const: string }).const,
    ajv.compile({ type: 'object', required: ['type', 'instance', 'attempt', ...((branch as { required?: string[] }).required ?? [])], properties: branch.properties }),
  ]),
);


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

/** Redis errors that refuse one command for a while (memory full, a replica, loading, a transaction aborted by one of these): waited out like an outage. */
const REFUSAL = /^(OOM|READONLY|LOADING|EXECABORT|BUSY|MASTERDOWN|TRYAGAIN|MISCONF|NOREPLICAS|CLUSTERDOWN)\b/;

/** Whether `err` is Redis refusing a command for a while (`OOM …`, `READONLY …`, `LOADING …`, `EXECABORT …`). */
export function isRefusal(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  // A transaction's own error names the command's error in its `previousErrors`.
  const previous = (err as { previousErrors?: Error[] }).previousErrors ?? [];
  return REFUSAL.test(err.message) || previous.some((e) => REFUSAL.test(e.message));
}

/** The first word of a Redis error and its text, capped, for a line (never a stack). */
export function redisErrorLine(err: Error): string {
  const previous = (err as { previousErrors?: Error[] }).previousErrors?.[0];
  return clip((previous ?? err).message.split('\n')[0], 160);
}

/**
 * Runs one Redis command (or transaction), waiting out refusals ({@link isRefusal}); a lost
 * connection is waited out by ioredis itself. The first is said in one line, the recovery in another; any other error is
 * thrown. A command retried here must be one whose repetition does no harm (all of the
 * coordinator's and workers' are: an answer pushed twice is read once, an acknowledgement is
 * idempotent).
 */
export class RefusalRetry {
  private waiting = false;
  constructor(private readonly say: (line: string) => void) {}

  async run<T>(what: string, command: () => Promise<T>, giveUp: () => boolean = () => false): Promise<T> {
    for (let delay = 250; ; delay = Math.min(delay * 2, 2000)) {
      try {
        const result = await command();
        if (this.waiting) {
          this.waiting = false;
          this.say('Redis takes commands again');
        }
        return result;
      } catch (err) {
        if (!isRefusal(err)) throw err;
        if (!this.waiting) {
          this.waiting = true;
          this.say(`Redis refused ${what} (${redisErrorLine(err as Error)}); waiting and trying again`);
        }
        if (giveUp()) throw err;
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }
}

/**
 * Says each kind of repeated queue error once a minute at most, instead of at every lock
 * renewal (BullMQ reports `could not renew lock` every few seconds while Redis refuses writes).
 */
export class RepeatFilter {
  private readonly last = new Map<string, number>();
  constructor(private readonly say: (line: string) => void, private readonly everyMs = 60_000) {}
  say1(line: string): void {
    const key = line.replace(/[0-9a-f-]{8,}|\d+/g, '#').slice(0, 60);
    const now = Date.now();
    if (now - (this.last.get(key) ?? -Infinity) < this.everyMs) return;
    this.last.set(key, now);
    this.say(clip(line.split('\n')[0], 200));
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

/** Whether `value` nests deeper than `max` (checked without recursion, so a 200,000-deep value is answered too). */
export function nestsDeeper(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d >= max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, d + 1]);
  }
  return false;
}

/** An inbox entry the coordinator cannot read: skipped with one line, and answered only at a reply key of the run. */
export class UnreadableMessage extends SpaceActError {
  constructor(
    message: string,
    /** The reply key, when the entry named one of this run's (a genuine worker waits there). */
    readonly reply: string | null,
  ) {
    super('invalid-argument', message);
    this.name = 'UnreadableMessage';
  }
}

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Parses and checks the fields of one stream entry (as read with the `…Buffer` commands):
 * JSON within {@link MAX_MESSAGE_BYTES} and {@link MAX_DEPTH}, the message schema (image kinds
 * from {@link IMAGE_KINDS}, ids of the allowed shapes, an attempt on every message), PNG bytes
 * for every image listed, and a reply key of this run and attempt. Anything else throws an
 * {@link UnreadableMessage} whose message is one short line.
 */
export function parseMessage(id: string, fields: Buffer[], keys: RunKeys): InboxMessage {
  const byName = new Map<string, Buffer>();
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const name = fields[i].toString('utf8');
    if (name === 'm' || name === 'r' || /^i\d{1,2}$/.test(name)) byName.set(name, fields[i + 1]);
  }
  const m = byName.get('m');
  const r = byName.get('r')?.toString('utf8') ?? '';
  const unreadable = (why: string, attempt?: unknown): UnreadableMessage =>
    new UnreadableMessage(`skipped inbox entry ${id}: ${why}`, typeof attempt === 'string' && keys.isReplyOf(r, attempt) ? r : null);
  if (!m) throw unreadable('not a SpaceAct message (no m field)');
  if (m.length > MAX_MESSAGE_BYTES) throw unreadable(`its JSON is ${m.length} bytes (at most ${MAX_MESSAGE_BYTES})`);
  let msg: unknown;
  try {
    msg = JSON.parse(m.toString('utf8'));
  } catch (err) {
    throw unreadable(`not JSON (${clip((err as Error).message, 80)})`);
  }
  const attempt = (msg as { attempt?: unknown } | null)?.attempt;
  if (nestsDeeper(msg, MAX_DEPTH)) throw unreadable(`nested deeper than ${MAX_DEPTH} levels`, attempt);
  const type = (msg as { type?: unknown } | null)?.type;
  const check = typeof type === 'string' ? checkMessageByType.get(type) : undefined;
  if (!check) throw unreadable(`not a message of the protocol (type ${clip(JSON.stringify(type) ?? 'none', 40)})`, attempt);
  if (!check(msg)) throw unreadable(`not a ${type} message of the protocol: ${schemaProblem(check)}`, attempt);
  const ok = msg as ToCoordinator;
  if (!keys.isReplyOf(r, ok.attempt)) throw unreadable(`its reply key is not one of attempt ${clip(ok.attempt, 40)} of run ${keys.run}`);
  const png: Buffer[] = [];
  for (let i = 0; byName.has(`i${i}`); i++) png.push(byName.get(`i${i}`)!);
  const listed = ok.type === 'turn' || ok.type === 'end' ? ok.images.length : 0;
  if (png.length !== listed) throw unreadable(`it lists ${listed} images but carries ${png.length}`, ok.attempt);
  if (ok.type === 'turn' && ok.record.images.length !== listed) throw unreadable(`its turn lists ${ok.record.images.length} images but the message ${listed}`, ok.attempt);
  for (const b of png) {
    if (b.length > MAX_IMAGE_BYTES || b.length < PNG_MAGIC.length || !b.subarray(0, PNG_MAGIC.length).equals(PNG_MAGIC)) throw unreadable('an image that is not a PNG of at most 16 MB', ok.attempt);
  }
  return { id, msg: ok, reply: r, png };
}
