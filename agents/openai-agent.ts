import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { SpaceActError } from '../core/errors.ts';
import { Rng } from '../core/rng.ts';
import { numberOption, stringOption } from '../core/options.ts';
import type { AgentOptions } from './types.ts';
import {
  backoffMs,
  classifyApiError,
  DeadlineError,
  DEFAULT_RETRY,
  MalformedResponseError,
  scrubberFor,
  scrubSecret,
  sleep,
  type ApiFault,
  type FaultKind,
  type RetryPolicy,
  type SecretScrubber,
} from './api-faults.ts';
import { costOf, addUsage, loadPriceTable, type ModelPrice } from './prices.ts';
import { buildTurnMessages, refusalText } from './prompt.ts';
import { checkReply, MAX_REPLY_CHARS, tooLongProblem, type ReplyCheck } from './reply-parser.ts';
import { requestDigest, ResponseCache } from './response-cache.ts';
import type { Agent, AgentReply, EpisodeStart, Observation, RequestRecord, Usage } from './types.ts';

/** Reasoning-effort levels endpoints accept (sent only when set). */
export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;

/** Everything that decides how the model agent talks to its endpoint (never the key). */
export interface OpenAIAgentSettings {
  /** Endpoint root, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:8000/v1`. */
  baseURL: string;
  model: string;
  /** Name of the environment variable the key was read from (the name only). */
  apiKeyEnv: string;
  /** Sampling temperature; left to the endpoint when undefined. */
  temperature?: number;
  /** Output-token limit per request; left to the endpoint when undefined. */
  maxOutputTokens?: number;
  /** Which field carries the limit: newer endpoints take `max_completion_tokens`, older ones `max_tokens`. */
  maxTokensField: 'max_completion_tokens' | 'max_tokens';
  reasoningEffort?: (typeof REASONING_EFFORTS)[number];
  /** Per-request deadline, milliseconds: the whole answer, body included, must arrive within it. */
  timeoutMs: number;
  retry: RetryPolicy;
  /** Re-asks after a refused reply (2: three replies at most per turn). */
  replyRetries: number;
  /** Earlier turns shown as text (k). */
  historyTurns: number;
  /** Seeds the retry jitter (combined with instance, turn and attempt). */
  seed: number;
  /** Response cache folder. */
  cacheDir?: string;
  /** Prices of this model, when a price table was given. */
  price?: ModelPrice;
}

/** Defaults of the optional settings. */
export const OPENAI_DEFAULTS = {
  apiKeyEnv: 'OPENAI_API_KEY',
  maxTokensField: 'max_completion_tokens',
  timeoutMs: 300_000,
  replyRetries: 2,
  historyTurns: 8,
  seed: 0,
} as const;

/** Longest refused reply echoed back to the model when re-asking, characters. */
const ECHO_CHARS = 20_000;
/** Longest reply text stored in a log (accepted or refused), characters; the original length is recorded. */
export const MAX_STORED_RAW_CHARS = 16_000;
/** Largest response body read, bytes: anything longer is the endpoint's fault, not an answer. */
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
/** Faults noted per request in the log (the retry bound keeps it small anyway). */
const MAX_FAULT_NOTES = 20;

/** Of a reply too long to be read, what is kept: enough for the log and the echo to the model. */
const KEPT_OF_LONG_REPLY = Math.max(ECHO_CHARS, MAX_STORED_RAW_CHARS);

/**
 * A reply text as stored: at most {@link MAX_STORED_RAW_CHARS}, saying how long it was when
 * cut (`chars`: the length of the whole reply, when only a part of it was kept).
 */
export function storedRaw(text: string, chars = text.length): { raw: string; rawChars?: number } {
  if (chars <= MAX_STORED_RAW_CHARS) return { raw: text };
  return { raw: `${text.slice(0, MAX_STORED_RAW_CHARS)}… [clipped: ${chars} characters in all]`, rawChars: chars };
}

/** One infrastructure fault met (and retried) while getting an answer. */
export interface FaultNote {
  kind: FaultKind;
  reason: string;
}

type Completion =
  | {
      ok: true;
      /** The reply, scrubbed of the key; only its start when it is too long to be read. */
      text: string;
      /** Length of the whole reply, characters. */
      chars: number;
      finishReason?: string;
      usage: Usage;
      cached: boolean;
      digest: string;
      retries: number;
      faults: FaultNote[];
      ms: number;
    }
  | { ok: false; fault: ApiFault; reason: string; digest: string; retries: number; faults: FaultNote[]; ms: number };

/** The parts of a chat completion the agent uses. */
interface CompletionBody {
  text: string;
  finishReason?: string;
  inputTokens: number;
  outputTokens: number;
}

/** Thrown out of one request attempt, already classified. */
class FaultError extends Error {
  constructor(readonly fault: ApiFault) {
    super(fault.reason);
  }
}

function isObject(x: unknown): x is Record<string, unknown> {
  return !!x && typeof x === 'object' && !Array.isArray(x);
}

/** Reads a response body, refusing to hold more than `max` bytes. */
async function readCapped(response: Response, max: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw new MalformedResponseError(`the response body is larger than ${max} bytes: not a chat completion`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The answer in a 2xx body, or a {@link MalformedResponseError} when the body is not a chat
 * completion (then it is the endpoint's fault, never the model's reply).
 */
function parseCompletion(body: string, contentType: string | null): CompletionBody {
  const what = `HTTP 200 (content-type ${contentType ?? 'none'}, ${Buffer.byteLength(body)} bytes)`;
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch (err) {
    const looks = body.trim() === '' ? 'an empty body' : /^\s*</.test(body) ? 'an HTML or XML page (a proxy, gateway or login page?)' : 'a body that is not JSON or was cut short';
    throw new MalformedResponseError(`${what} with ${looks}: ${(err as Error).message}`);
  }
  if (!isObject(data)) throw new MalformedResponseError(`${what} whose JSON is not an object`);
  if (data.error !== undefined && data.error !== null) {
    const msg = isObject(data.error) && typeof data.error.message === 'string' ? data.error.message : JSON.stringify(data.error).slice(0, 200);
    throw new MalformedResponseError(`${what} carrying an error instead of a completion: ${msg}`);
  }
  const choice = Array.isArray(data.choices) ? data.choices[0] : undefined;
  if (!isObject(choice) || !isObject(choice.message)) throw new MalformedResponseError(`${what} with no choices[0].message: not a chat completion`);
  const msg = choice.message;
  let text = '';
  if (typeof msg.content === 'string') text = msg.content;
  else if (Array.isArray(msg.content)) {
    // Some servers answer with content parts; the text parts are the reply.
    text = msg.content.map((p) => (isObject(p) && typeof p.text === 'string' ? p.text : '')).join('');
  } else if (typeof msg.refusal === 'string') text = msg.refusal;
  const usage = isObject(data.usage) ? data.usage : {};
  const out: CompletionBody = { text, inputTokens: nonNegative(usage.prompt_tokens), outputTokens: nonNegative(usage.completion_tokens) };
  if (typeof choice.finish_reason === 'string') out.finishReason = choice.finish_reason;
  return out;
}

/**
 * The model agent: one chat-completions request per turn to any OpenAI-compatible endpoint,
 * images as PNG data URLs. Replies are checked (`agents/reply-parser.ts`); a refused reply is
 * sent back with its problems, at most `replyRetries` times. Infrastructure faults (see
 * `FaultKind`) are retried with seeded exponential backoff and never charged to the model; past
 * the bound, or on a client error such as 400, the episode is abandoned; a refused key (401,
 * 403) stops the run. The agent keeps no state between turns: everything comes from the observation,
 * so a resumed episode asks the same questions as an uninterrupted one.
 */
export class OpenAIAgent implements Agent {
  readonly name: string;
  readonly settings: Record<string, unknown>;
  readonly needsImages = true;
  private readonly config: OpenAIAgentSettings;
  private readonly client: OpenAI;
  private readonly apiKey: string;
  private readonly cache: ResponseCache | null;
  private readonly scrubber: SecretScrubber;
  private instanceId = '';

  constructor(config: OpenAIAgentSettings, apiKey: string) {
    if (!apiKey) throw new SpaceActError('invalid-argument', `no API key: set the environment variable ${config.apiKeyEnv}`);
    this.config = config;
    this.apiKey = apiKey;
    this.scrubber = scrubberFor(apiKey);
    this.name = `openai:${config.model}`;
    // Retries and deadlines are ours (seeded, logged, covering the body); the client's own
    // logging stays at warnings whatever OPENAI_LOG says.
    this.client = new OpenAI({ apiKey, baseURL: config.baseURL, timeout: config.timeoutMs, maxRetries: 0, logLevel: 'warn' });
    this.cache = config.cacheDir ? new ResponseCache(config.cacheDir) : null;
    const s: Record<string, unknown> = { ...config, retry: { ...config.retry } };
    delete s.cacheDir;
    if (config.cacheDir) s.cache = true;
    this.settings = s;
  }

  /**
   * Builds the agent from command-line options: `baseUrl`, `model` (required), `apiKeyEnv`,
   * `temperature`, `maxOutputTokens`, `maxTokensField`, `reasoningEffort`, `timeout` (s),
   * `apiAttempts`, `backoffBase` (s), `backoffCap` (s), `replyRetries`, `historyTurns`, `seed`,
   * `cache` (folder), `prices` (file). The key is read from the environment only.
   */
  static fromOptions(opts: AgentOptions, env: NodeJS.ProcessEnv = process.env): OpenAIAgent {
    const model = stringOption(opts, 'model');
    if (!model) throw new SpaceActError('invalid-argument', 'the openai agent needs --model');
    const apiKeyEnv = stringOption(opts, 'apiKeyEnv') ?? OPENAI_DEFAULTS.apiKeyEnv;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(apiKeyEnv)) throw new SpaceActError('invalid-argument', '--api-key-env must be the name of an environment variable');
    const key = env[apiKeyEnv];
    if (!key) {
      throw new SpaceActError(
        'invalid-argument',
        `the environment variable ${apiKeyEnv} holds no API key (for a local server that checks none, set it to any text)`,
        { apiKeyEnv },
      );
    }
    const baseURL = (stringOption(opts, 'baseUrl') ?? env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1').replace(/\/+$/, '');
    try {
      const u = new URL(baseURL);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('protocol');
      if (u.username || u.password) throw new Error('credentials');
    } catch {
      throw new SpaceActError('invalid-argument', '--base-url must be an http(s) URL without credentials in it', { option: 'baseUrl' });
    }
    const config: OpenAIAgentSettings = {
      baseURL,
      model,
      apiKeyEnv,
      maxTokensField: stringOption(opts, 'maxTokensField', ['max_completion_tokens', 'max_tokens']) as OpenAIAgentSettings['maxTokensField'] ?? OPENAI_DEFAULTS.maxTokensField,
      timeoutMs: Math.round((numberOption(opts, 'timeout', { min: 0.01, max: 7200 }) ?? OPENAI_DEFAULTS.timeoutMs / 1000) * 1000),
      retry: {
        attempts: numberOption(opts, 'apiAttempts', { min: 1, max: 20, integer: true }) ?? DEFAULT_RETRY.attempts,
        baseMs: Math.round((numberOption(opts, 'backoffBase', { min: 0, max: 600 }) ?? DEFAULT_RETRY.baseMs / 1000) * 1000),
        capMs: Math.round((numberOption(opts, 'backoffCap', { min: 0, max: 3600 }) ?? DEFAULT_RETRY.capMs / 1000) * 1000),
      },
      replyRetries: numberOption(opts, 'replyRetries', { min: 0, max: 5, integer: true }) ?? OPENAI_DEFAULTS.replyRetries,
      historyTurns: numberOption(opts, 'historyTurns', { min: 0, max: 100, integer: true }) ?? OPENAI_DEFAULTS.historyTurns,
      seed: numberOption(opts, 'seed', { min: 0, max: 2 ** 31, integer: true }) ?? OPENAI_DEFAULTS.seed,
    };
    const temperature = numberOption(opts, 'temperature', { min: 0, max: 2 });
    if (temperature !== undefined) config.temperature = temperature;
    const maxOut = numberOption(opts, 'maxOutputTokens', { min: 1, max: 1_000_000, integer: true });
    if (maxOut !== undefined) config.maxOutputTokens = maxOut;
    const effort = stringOption(opts, 'reasoningEffort', REASONING_EFFORTS);
    if (effort) config.reasoningEffort = effort as OpenAIAgentSettings['reasoningEffort'];
    const cache = stringOption(opts, 'cache');
    if (cache) config.cacheDir = cache;
    const prices = stringOption(opts, 'prices');
    if (prices) {
      const table = loadPriceTable(prices);
      if (table[model]) config.price = table[model];
    }
    return new OpenAIAgent(config, key);
  }

  start(ctx: EpisodeStart): void {
    this.instanceId = ctx.instance.id;
  }

  async act(obs: Observation): Promise<AgentReply> {
    const messages = buildTurnMessages(obs, { historyTurns: this.config.historyTurns });
    const requests: RequestRecord[] = [];
    let usage: Usage = { inputTokens: 0, outputTokens: 0 };
    if (this.config.price) usage.cost = 0;
    let apiRetries = 0;
    let invalid = 0;
    let problems: string[] = [];
    const attempts = 1 + this.config.replyRetries;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const res = await this.complete(messages, obs.turn, attempt);
      apiRetries += res.retries;
      const rec: RequestRecord = { attempt, digest: res.digest.slice(0, 16), apiRetries: res.retries, ms: res.ms };
      if (res.faults.length) rec.faults = res.faults;
      requests.push(rec);
      if (!res.ok) {
        rec.error = res.reason;
        if (res.fault.stopRun) {
          // A refused key fails every request of every episode: stop the run now rather than
          // abandon episode after episode. The episode stays unfinished, so a rerun with the
          // right key continues it.
          throw new SpaceActError(
            'invalid-argument',
            `the endpoint refused the API key from ${this.config.apiKeyEnv} (${res.reason}); the run stopped. Fix the key (or --base-url) and rerun with the same --out to continue`,
          );
        }
        return {
          rationale: '',
          note: obs.note,
          actions: [],
          usage,
          invalidReplies: invalid,
          apiRetries,
          requests,
          abandoned: { reason: res.reason },
        };
      }
      rec.usage = res.usage;
      if (res.cached) rec.cached = true;
      if (res.finishReason) rec.finishReason = res.finishReason;
      usage = addUsage(usage, res.usage);
      // A reply past the reading limit is refused unread (only its start was kept).
      const check: ReplyCheck = res.chars > MAX_REPLY_CHARS
        ? { ok: false, problems: [tooLongProblem(res.chars)] }
        : checkReply(res.text, { tools: obs.tools, actionCap: obs.actionCap, noteRequired: !obs.mode.nonote });
      if (check.ok) {
        const reply: AgentReply = {
          rationale: check.reply.rationale,
          note: obs.mode.nonote ? '' : check.reply.note,
          actions: check.reply.actions,
          usage,
          raw: storedRaw(res.text).raw,
          requestDigest: rec.digest,
          requests,
          apiRetries,
        };
        if (invalid) reply.invalidReplies = invalid;
        return reply;
      }
      invalid += 1;
      problems = res.finishReason === 'length'
        ? ['the reply was cut off at the output-token limit; answer more briefly', ...check.problems]
        : check.problems;
      const stored = storedRaw(res.text, res.chars);
      rec.raw = stored.raw;
      if (stored.rawChars !== undefined) rec.rawChars = stored.rawChars;
      rec.problems = problems;
      if (attempt < attempts) {
        messages.push(
          { role: 'assistant', content: res.text.length > ECHO_CHARS ? `${res.text.slice(0, ECHO_CHARS)}…` : res.text },
          { role: 'user', content: refusalText(problems, attempts - attempt) },
        );
      }
    }
    // No valid reply: the turn is spent with no calls, the note is kept, and the problems are
    // shown to the model in its history next turn. The episode goes on.
    return { rationale: '', note: obs.note, actions: [], usage, invalidReplies: invalid, apiRetries, requests, refused: problems };
  }

  /** The request fields that shape the answer, beyond model and messages. */
  private requestSettings(): Record<string, unknown> {
    const s: Record<string, unknown> = {};
    if (this.config.temperature !== undefined) s.temperature = this.config.temperature;
    if (this.config.maxOutputTokens !== undefined) s[this.config.maxTokensField] = this.config.maxOutputTokens;
    if (this.config.reasoningEffort) s.reasoning_effort = this.config.reasoningEffort;
    return s;
  }

  /**
   * One request under an overall deadline that covers the body as well as the headers (the
   * client's own timeout stops at the headers), read with a size cap and checked to be a chat
   * completion. Throws a {@link FaultError} classifying whatever went wrong.
   */
  private async requestOnce(body: ChatCompletionCreateParamsNonStreaming): Promise<CompletionBody> {
    const deadlineMs = this.config.timeoutMs;
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new DeadlineError(deadlineMs)), deadlineMs);
    let bodyStarted = false;
    try {
      const response = await this.client.chat.completions.create(body, { signal: deadline.signal, timeout: deadlineMs, maxRetries: 0 }).asResponse();
      bodyStarted = true;
      const text = await readCapped(response, MAX_RESPONSE_BYTES);
      if (deadline.signal.aborted) throw new DeadlineError(deadlineMs);
      return parseCompletion(text, response.headers.get('content-type'));
    } catch (err) {
      throw new FaultError(classifyApiError(err, this.apiKey, { deadlineHit: deadline.signal.aborted, bodyStarted, deadlineMs }));
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * One answer from the endpoint (or the cache), retrying infrastructure faults with backoff.
   * Only a well-formed chat completion is an answer: it alone is scrubbed of the key, cached
   * and returned; every fault is noted and never reaches the model's record.
   */
  private async complete(messages: ChatCompletionMessageParam[], turn: number, attempt: number): Promise<Completion> {
    const settings = this.requestSettings();
    const digest = requestDigest({ baseURL: this.config.baseURL, model: this.config.model, messages, settings });
    const t0 = performance.now();
    const ms = (): number => Math.round(performance.now() - t0);
    const faults: FaultNote[] = [];
    const hit = this.cache?.get(digest);
    if (hit) {
      const usage: Usage = { inputTokens: hit.inputTokens, outputTokens: hit.outputTokens };
      if (this.config.price) usage.cost = 0;
      const chars = hit.chars ?? hit.text.length;
      return { ok: true, text: hit.text, chars, ...(hit.finishReason ? { finishReason: hit.finishReason } : {}), usage, cached: true, digest, retries: 0, faults, ms: ms() };
    }
    const body = { model: this.config.model, messages, ...settings } as ChatCompletionCreateParamsNonStreaming;
    const rng = new Rng(`openai-backoff/${this.config.seed}/${this.instanceId}/${turn}/${attempt}`);
    const { attempts } = this.config.retry;
    for (let tryNo = 1; ; tryNo++) {
      let answer: CompletionBody;
      try {
        answer = await this.requestOnce(body);
      } catch (err) {
        const fault = err instanceof FaultError ? err.fault : classifyApiError(err, this.apiKey);
        if (!fault.retry) return { ok: false, fault, reason: fault.reason, digest, retries: tryNo - 1, faults, ms: ms() };
        if (tryNo >= attempts) {
          const reason = scrubSecret(`gave up after ${attempts} attempts; last: ${fault.reason}`, this.apiKey);
          return { ok: false, fault, reason, digest, retries: tryNo - 1, faults, ms: ms() };
        }
        if (faults.length < MAX_FAULT_NOTES) faults.push({ kind: fault.kind, reason: fault.reason });
        await sleep(backoffMs(this.config.retry, tryNo, rng, fault.retryAfterS));
        continue;
      }
      // A key the endpoint reflects into the reply never reaches the log, the cache or the next
      // prompt. Of a reply too long to be read only the start is kept (and scrubbed).
      const chars = answer.text.length;
      const text = this.scrubber.scrubKey(chars > MAX_REPLY_CHARS ? answer.text.slice(0, KEPT_OF_LONG_REPLY) : answer.text);
      const usage: Usage = { inputTokens: answer.inputTokens, outputTokens: answer.outputTokens };
      if (this.config.price) usage.cost = costOf(this.config.price, answer.inputTokens, answer.outputTokens);
      const finishReason = answer.finishReason;
      // Outside the fault handling: a cache that cannot be written is a file-system error of the run, not the endpoint's.
      this.cache?.put(digest, { text, ...(chars !== text.length ? { chars } : {}), ...(finishReason ? { finishReason } : {}), inputTokens: answer.inputTokens, outputTokens: answer.outputTokens });
      return { ok: true, text, chars, ...(finishReason ? { finishReason } : {}), usage, cached: false, digest, retries: tryNo - 1, faults, ms: ms() };
    }
  }
}

function nonNegative(x: unknown): number {
  return typeof x === 'number' && Number.isFinite(x) && x >= 0 ? Math.round(x) : 0;
}
