import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { SpaceActError } from '../core/errors.ts';
import { Rng } from '../core/rng.ts';
import { numberOption, stringOption, type AgentOptions } from './agent-options.ts';
import { backoffMs, classifyApiError, DEFAULT_RETRY, scrubSecret, sleep, type RetryPolicy } from './api-faults.ts';
import { costOf, addUsage, loadPriceTable, type ModelPrice } from './prices.ts';
import { buildTurnMessages, refusalText } from './prompt.ts';
import { checkReply } from './reply-parser.ts';
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
  /** Per-request timeout, milliseconds. */
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

type Completion =
  | { ok: true; text: string; finishReason?: string; usage: Usage; cached: boolean; digest: string; retries: number; ms: number }
  | { ok: false; reason: string; digest: string; retries: number; ms: number };

/**
 * The model agent: one chat-completions request per turn to any OpenAI-compatible endpoint,
 * images as PNG data URLs. Replies are checked (`agents/reply-parser.ts`); a refused reply is
 * sent back with its problems, at most `replyRetries` times. API faults are retried with
 * seeded exponential backoff; past the bound, or on a client error such as 401, the episode is
 * abandoned. The agent keeps no state between turns: everything comes from the observation,
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
  private instanceId = '';

  constructor(config: OpenAIAgentSettings, apiKey: string) {
    if (!apiKey) throw new SpaceActError('invalid-argument', `no API key: set the environment variable ${config.apiKeyEnv}`);
    this.config = config;
    this.apiKey = apiKey;
    this.name = `openai:${config.model}`;
    // Retries are ours (seeded, logged); the client's own logging stays at warnings whatever OPENAI_LOG says.
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
      requests.push(rec);
      if (!res.ok) {
        rec.error = res.reason;
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
      const check = checkReply(res.text, { tools: obs.tools, actionCap: obs.actionCap, noteRequired: !obs.mode.nonote });
      if (check.ok) {
        const reply: AgentReply = {
          rationale: check.reply.rationale,
          note: obs.mode.nonote ? '' : check.reply.note,
          actions: check.reply.actions,
          usage,
          raw: res.text,
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
      rec.raw = res.text;
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

  /** One answer from the endpoint (or the cache), retrying API faults with backoff. */
  private async complete(messages: ChatCompletionMessageParam[], turn: number, attempt: number): Promise<Completion> {
    const settings = this.requestSettings();
    const digest = requestDigest({ baseURL: this.config.baseURL, model: this.config.model, messages, settings });
    const t0 = performance.now();
    const ms = (): number => Math.round(performance.now() - t0);
    const hit = this.cache?.get(digest);
    if (hit) {
      const usage: Usage = { inputTokens: hit.inputTokens, outputTokens: hit.outputTokens };
      if (this.config.price) usage.cost = 0;
      return { ok: true, text: hit.text, ...(hit.finishReason ? { finishReason: hit.finishReason } : {}), usage, cached: true, digest, retries: 0, ms: ms() };
    }
    const body = { model: this.config.model, messages, ...settings } as ChatCompletionCreateParamsNonStreaming;
    const rng = new Rng(`openai-backoff/${this.config.seed}/${this.instanceId}/${turn}/${attempt}`);
    const { attempts } = this.config.retry;
    for (let tryNo = 1; ; tryNo++) {
      try {
        const res = await this.client.chat.completions.create(body);
        const choice = res.choices?.[0];
        const msg = choice?.message as { content?: unknown; refusal?: unknown } | undefined;
        const text = typeof msg?.content === 'string' ? msg.content : typeof msg?.refusal === 'string' ? msg.refusal : '';
        const inputTokens = nonNegative(res.usage?.prompt_tokens);
        const outputTokens = nonNegative(res.usage?.completion_tokens);
        const usage: Usage = { inputTokens, outputTokens };
        if (this.config.price) usage.cost = costOf(this.config.price, inputTokens, outputTokens);
        const finishReason = typeof choice?.finish_reason === 'string' ? choice.finish_reason : undefined;
        this.cache?.put(digest, { text, ...(finishReason ? { finishReason } : {}), inputTokens, outputTokens });
        return { ok: true, text, ...(finishReason ? { finishReason } : {}), usage, cached: false, digest, retries: tryNo - 1, ms: ms() };
      } catch (err) {
        const fault = classifyApiError(err, this.apiKey);
        if (!fault.retry) return { ok: false, reason: fault.reason, digest, retries: tryNo - 1, ms: ms() };
        if (tryNo >= attempts) {
          return { ok: false, reason: scrubSecret(`gave up after ${attempts} attempts; last: ${fault.reason}`, this.apiKey), digest, retries: tryNo - 1, ms: ms() };
        }
        await sleep(backoffMs(this.config.retry, tryNo, rng, fault.retryAfterS));
      }
    }
  }
}

function nonNegative(x: unknown): number {
  return typeof x === 'number' && Number.isFinite(x) && x >= 0 ? Math.round(x) : 0;
}
