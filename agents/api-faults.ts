import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { Rng } from '../core/rng.ts';

/** How API failures are retried. */
export interface RetryPolicy {
  /** Requests sent at most for one answer (the first try included). */
  attempts: number;
  /** Delay before the first retry, milliseconds; it doubles with every retry. */
  baseMs: number;
  /** Longest delay, milliseconds (also bounds a server's Retry-After). */
  capMs: number;
}

/** Default: 6 attempts, 1 s doubling to at most 30 s. */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 6, baseMs: 1000, capMs: 30_000 };

/**
 * What went wrong with one request. Every kind but the model's own answer is the
 * infrastructure's fault: none is shown to the model, counted as its invalid reply, charged
 * against its re-asks or turns, or cached.
 *
 * - `connection`: no connection, or it was dropped before the response headers came.
 * - `timeout`: the per-request deadline passed, while waiting for headers or reading the body.
 * - `reset`: the connection was dropped in the middle of the response body.
 * - `malformed`: a 2xx answer that is not a chat completion (truncated or non-JSON body, an
 *   HTML page from a proxy, an error object, a body past the size cap).
 * - `http`: a status worth retrying (408, 409, 429, 5xx).
 * - `rejected`: another 4xx (bad request, unknown model, context too long): not retried, the
 *   episode is abandoned.
 * - `auth`: 401 or 403: the key is refused; the whole run stops at once.
 * - `unknown`: anything else thrown (not retried, so that a bug shows).
 */
export type FaultKind = 'connection' | 'timeout' | 'reset' | 'malformed' | 'http' | 'rejected' | 'auth' | 'unknown';

/** Fault kinds retried with backoff within {@link RetryPolicy.attempts}. */
export const RETRIED_FAULTS: readonly FaultKind[] = ['connection', 'timeout', 'reset', 'malformed', 'http'];

/** What to do about one failed request. */
export interface ApiFault {
  kind: FaultKind;
  /** Worth trying again. */
  retry: boolean;
  /** The run cannot go on (the key is refused): stop every episode, not only this one. */
  stopRun: boolean;
  /** A short description, free of the API key. */
  reason: string;
  /** Seconds the server asked us to wait, when it said so. */
  retryAfterS?: number;
}

/** Longest fault reason kept, characters. */
export const MAX_REASON_CHARS = 400;

/**
 * Thrown by the model agent when a 2xx response is not a usable chat completion, so that it is
 * classed as the endpoint's fault (`malformed`) and not as the model's reply.
 */
export class MalformedResponseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedResponseError';
  }
}

/** The abort reason of a request whose overall deadline passed. */
export class DeadlineError extends Error {
  constructor(readonly ms: number) {
    super(`no complete answer within ${ms / 1000} s`);
    this.name = 'DeadlineError';
  }
}

/**
 * Delay before retry number `retry` (1-based): exponential, capped, with "equal jitter"
 * (half fixed, half drawn from the seeded generator) so that runs are reproducible and
 * parallel workers do not retry in lock-step.
 */
export function backoffMs(policy: RetryPolicy, retry: number, rng: Rng, retryAfterS?: number): number {
  const exp = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, retry - 1));
  const jittered = exp / 2 + (exp / 2) * rng.next();
  const asked = retryAfterS !== undefined && Number.isFinite(retryAfterS) && retryAfterS > 0 ? retryAfterS * 1000 : 0;
  return Math.min(policy.capMs, Math.max(jittered, asked));
}

// ---------------------------------------------------------------------------------------------
// Secrets

/** Shortest run of key characters treated as a piece of the key. */
const KEY_PIECE = 6;
/** Shortest run of an encoded key (base64, hex, percent-encoding) treated as a piece of it, in key bytes. */
const ENCODED_PIECE_BYTES = 6;
/** Shortest run of the key's letters and digits, other characters between them ignored, treated as the key split up. */
const SPLIT_PIECE = 10;

/** The characters of base64 text that depend only on the key, for each of the three alignments. */
function base64Cores(bytes: Buffer): string[] {
  const out: string[] = [];
  for (let pad = 0; pad < 3; pad++) {
    const b = Buffer.concat([Buffer.alloc(pad), bytes]).toString('base64').replace(/=+$/, '');
    // Characters mixing pad bits come first; the last group depends on what follows the key.
    const core = b.slice(pad === 0 ? 0 : pad + 1, Math.max(0, b.length - 4));
    if (core.length) out.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out;
}

function percentAll(bytes: Buffer, upper: boolean): string {
  return [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).map((s) => (upper ? s.toUpperCase() : s)).join('');
}

/**
 * Finds an API key in text, in the forms servers and proxies echo it: whole, in pieces
 * (6 characters or more), masked (`sk-ab****yz12`), split by spaces, line breaks or
 * punctuation, base64 (either alphabet, any alignment), hexadecimal and percent-encoded.
 * Built once per key; {@link SecretScrubber.scrubKey} replaces what it finds with `[key]`.
 */
export class SecretScrubber {
  /** n-grams of key material by length, looked for in the text as it is. */
  private readonly raw = new Map<number, Set<string>>();
  /** n-grams of the key's letters and digits, looked for in the text's letters and digits. */
  private readonly split: Set<string> | null = null;
  /** The first two characters (as one number) of every gram in {@link raw}. */
  private readonly starts = new Set<number>();
  /** The same for {@link split}. */
  private readonly splitStarts = new Set<number>();
  private readonly secret: string;

  constructor(secret: string | undefined) {
    this.secret = secret ?? '';
    if (this.secret.length < 4) return;
    const bytes = Buffer.from(this.secret, 'utf8');
    const add = (pattern: string, n: number): void => {
      if (pattern.length < n) {
        this.gramSet(pattern.length).add(pattern);
        return;
      }
      const set = this.gramSet(n);
      for (let i = 0; i + n <= pattern.length; i++) set.add(pattern.slice(i, i + n));
    };
    add(this.secret, Math.min(KEY_PIECE, this.secret.length));
    const encodedBase64 = Math.ceil((ENCODED_PIECE_BYTES * 4) / 3);
    for (const core of base64Cores(bytes)) add(core, encodedBase64);
    add(bytes.toString('hex'), ENCODED_PIECE_BYTES * 2);
    add(bytes.toString('hex').toUpperCase(), ENCODED_PIECE_BYTES * 2);
    add(percentAll(bytes, true), ENCODED_PIECE_BYTES * 3);
    add(percentAll(bytes, false), ENCODED_PIECE_BYTES * 3);
    const uri = encodeURIComponent(this.secret);
    if (uri !== this.secret) add(uri, KEY_PIECE + 2);
    for (const set of this.raw.values()) for (const g of set) this.starts.add(g.charCodeAt(0) * 65536 + g.charCodeAt(1));
    const alnum = this.secret.replace(/[^A-Za-z0-9]/g, '');
    if (alnum.length >= SPLIT_PIECE) {
      const set = new Set<string>();
      for (let i = 0; i + SPLIT_PIECE <= alnum.length; i++) {
        set.add(alnum.slice(i, i + SPLIT_PIECE));
        this.splitStarts.add(alnum.charCodeAt(i) * 65536 + alnum.charCodeAt(i + 1));
      }
      this.split = set;
    }
  }

  private gramSet(n: number): Set<string> {
    let s = this.raw.get(n);
    if (!s) {
      s = new Set();
      this.raw.set(n, s);
    }
    return s;
  }

  /** True when there is a key to look for. */
  get active(): boolean {
    return this.secret.length >= 4;
  }

  /** Replaces every piece of the key found in `text` (in any of the forms above) with `[key]`. */
  scrubKey(text: string): string {
    if (!this.active || !text) return text;
    const marks: Array<[number, number]> = [];
    const grams = [...this.raw];
    for (let i = 0; i + 1 < text.length; i++) {
      // Cheap filter first: few places start with a pair of characters that starts a gram.
      if (!this.starts.has(text.charCodeAt(i) * 65536 + text.charCodeAt(i + 1))) continue;
      for (const [n, set] of grams) if (i + n <= text.length && set.has(text.slice(i, i + n))) marks.push([i, i + n]);
    }
    if (this.split) {
      const at: number[] = [];
      let letters = '';
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) {
          letters += text[i];
          at.push(i);
        }
      }
      for (let i = 0; i + SPLIT_PIECE <= letters.length; i++) {
        if (!this.splitStarts.has(letters.charCodeAt(i) * 65536 + letters.charCodeAt(i + 1))) continue;
        if (this.split.has(letters.slice(i, i + SPLIT_PIECE))) marks.push([at[i], at[i + SPLIT_PIECE - 1] + 1]);
      }
    }
    // Masked echoes: whole tokens (one greedy pass, no backtracking) that hide a part of the key.
    const masks = /\*{2,}|…|\.{3,}/.test(text);
    for (const m of masks ? text.matchAll(/[A-Za-z0-9_\-.*…]+/g) : []) {
      if (/\*{2,}|…|\.{3,}/.test(m[0]) && maskedPieceOf(m[0], this.secret)) marks.push([m.index, m.index + m[0].length]);
    }
    if (!marks.length) return text;
    marks.sort((a, b) => a[0] - b[0]);
    let out = '';
    let from = 0;
    let cur: [number, number] | null = null;
    for (const m of marks) {
      if (cur && m[0] <= cur[1]) cur[1] = Math.max(cur[1], m[1]);
      else {
        if (cur) {
          out += `${text.slice(from, cur[0])}[key]`;
          from = cur[1];
        }
        cur = [m[0], m[1]];
      }
    }
    out += `${text.slice(from, cur![0])}[key]${text.slice(cur![1])}`;
    return out;
  }

  /**
   * {@link scrubKey}, then anything shaped like a credential (`sk-…`, bearer tokens, `api_key=…`):
   * for error messages and reasons, where no legitimate text looks like that.
   */
  scrub(text: string): string {
    return this.scrubKey(text)
      .replace(/\b(sk|key|pk|rk)-[A-Za-z0-9_\-*]{4,}/g, '[key]')
      .replace(/Bearer\s+\S+/gi, 'Bearer [key]')
      .replace(/\b(api[-_]?key|authorization|x-api-key)(["']?\s*[:=]\s*["']?)(?!Bearer\b|Basic\b|\[key\])[^\s"',;]+/gi, '$1$2[key]');
  }
}

/** True when a masked token like `sk-ab***yz12` has its visible pieces in the key, in order. */
function maskedPieceOf(token: string, secret: string): boolean {
  const pieces = token
    .split(/\*+|…|\.{3,}/)
    .map((p) => p.replace(/^\.+|\.+$/g, ''))
    .filter((p) => p.length > 0);
  if (pieces.length < 2 || pieces.join('').length < KEY_PIECE) return false;
  let at = 0;
  for (const p of pieces) {
    const i = secret.indexOf(p, at);
    if (i < 0) return false;
    at = i + p.length;
  }
  return true;
}

const scrubbers = new Map<string, SecretScrubber>();

/** The scrubber of a key (built once per key and kept). */
export function scrubberFor(secret: string | undefined): SecretScrubber {
  const k = secret ?? '';
  let s = scrubbers.get(k);
  if (!s) {
    if (scrubbers.size > 16) scrubbers.clear();
    s = new SecretScrubber(secret);
    scrubbers.set(k, s);
  }
  return s;
}

/**
 * Removes an API key from text (see {@link SecretScrubber}) and anything else shaped like a
 * credential.
 */
export function scrubSecret(text: string, secret: string | undefined): string {
  return scrubberFor(secret).scrub(text);
}

// ---------------------------------------------------------------------------------------------
// Classification

function retryAfterOf(err: APIError): number | undefined {
  const h = err.headers;
  const v = h && typeof (h as Headers).get === 'function' ? (h as Headers).get('retry-after') : null;
  if (v === null || v === undefined) return undefined;
  const n = Number(v);
  if (Number.isFinite(n)) return n;
  const date = Date.parse(v);
  return Number.isFinite(date) ? Math.max(0, (date - Date.now()) / 1000) : undefined;
}

/** The chain of causes of an error, outermost first (a few levels). */
function causes(err: unknown): unknown[] {
  const out: unknown[] = [];
  let e: unknown = err;
  for (let i = 0; i < 5 && e; i++) {
    out.push(e);
    e = (e as { cause?: unknown }).cause;
  }
  return out;
}

function describeError(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const code = (e as { code?: unknown }).code;
  return `${e.message}${typeof code === 'string' ? ` (${code})` : ''}`;
}

/**
 * Sorts a thrown error into a {@link FaultKind}, with a reason that never holds the key.
 * `deadlineHit` says that the request's own deadline aborted it (whatever the client then
 * threw); `bodyStarted` that the response headers had come (so a dropped connection is a
 * reset in the middle of the body).
 */
export function classifyApiError(
  err: unknown,
  secret: string | undefined,
  ctx: { deadlineHit?: boolean; bodyStarted?: boolean; deadlineMs?: number } = {},
): ApiFault {
  const scrubber = scrubberFor(secret);
  const clean = (s: string): string => {
    const t = scrubber.scrub(s);
    return t.length > MAX_REASON_CHARS ? `${t.slice(0, MAX_REASON_CHARS)}…` : t;
  };
  const fault = (kind: FaultKind, reason: string): ApiFault => ({ kind, retry: RETRIED_FAULTS.includes(kind), stopRun: kind === 'auth', reason: clean(reason) });
  const phase = ctx.bodyStarted ? 'while reading the response body' : 'while waiting for the response headers';
  if (ctx.deadlineHit || err instanceof DeadlineError || err instanceof APIConnectionTimeoutError) {
    const limit = ctx.deadlineMs !== undefined ? ` of ${ctx.deadlineMs / 1000} s` : '';
    return fault('timeout', `the request deadline${limit} passed ${phase}`);
  }
  if (err instanceof MalformedResponseError) return fault('malformed', err.message);
  if (err instanceof APIError && typeof err.status === 'number') {
    const status = err.status;
    const kind: FaultKind = status === 401 || status === 403 ? 'auth' : status === 408 || status === 409 || status === 429 || status >= 500 ? 'http' : 'rejected';
    const f = fault(kind, `HTTP ${status} from the endpoint: ${err.message}`);
    const after = retryAfterOf(err);
    if (after !== undefined) f.retryAfterS = after;
    return f;
  }
  if (err instanceof APIUserAbortError) return fault('timeout', `the request was aborted ${phase}`);
  if (err instanceof APIConnectionError) return fault('connection', `connection failed: ${causes(err).slice(1).map(describeError).join(': ') || err.message}`);
  // Errors while reading the body ourselves come straight from undici: `TypeError: terminated`
  // with a socket error as its cause when the peer drops the connection.
  const chain = causes(err);
  const text = chain.map(describeError).join(': ');
  const dropped = chain.some((e) => e instanceof Error && (/terminated|other side closed|socket hang up|ECONNRESET|EPIPE|premature close/i.test(e.message) || /^(ECONNRESET|EPIPE|UND_ERR_SOCKET)$/.test(String((e as { code?: unknown }).code))));
  if (dropped) return fault(ctx.bodyStarted ? 'reset' : 'connection', `the connection was dropped ${phase}: ${text}`);
  if (err instanceof SyntaxError) return fault('malformed', `the response body is not JSON: ${err.message}`);
  return fault('unknown', `request failed: ${err instanceof Error ? `${err.name}: ` : ''}${text}`);
}

/** Waits `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
