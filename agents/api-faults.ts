import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
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

/** What to do about one failed request. */
export interface ApiFault {
  /** Worth trying again (timeouts, connection failures, 408, 429, 5xx). */
  retry: boolean;
  /** A short description, free of the API key. */
  reason: string;
  /** Seconds the server asked us to wait, when it said so. */
  retryAfterS?: number;
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

/**
 * Removes an API key from text: the key itself, any long piece of it (servers often echo a
 * masked key such as `sk-ab****yz12`), and anything shaped like a bearer token.
 */
export function scrubSecret(text: string, secret: string | undefined): string {
  let out = text;
  if (secret && secret.length >= 4) {
    out = out.split(secret).join('[key]');
    // Any run of 6+ characters that occurs in the key is treated as part of it.
    out = out.replace(/[A-Za-z0-9_\-*.]{6,}/g, (tok) => (secret.includes(tok) || maskedPieceOf(tok, secret) ? '[key]' : tok));
  }
  return out.replace(/\b(sk|key|pk|rk)-[A-Za-z0-9_\-*]{4,}/g, '[key]').replace(/Bearer\s+\S+/gi, 'Bearer [key]');
}

/** True when a masked token like `sk-ab***yz12` has its visible pieces in the key, in order. */
function maskedPieceOf(token: string, secret: string): boolean {
  const pieces = token.split(/\*+/).filter((p) => p.length > 0);
  if (pieces.length < 2 || pieces.join('').length < 6) return false;
  let at = 0;
  for (const p of pieces) {
    const i = secret.indexOf(p, at);
    if (i < 0) return false;
    at = i + p.length;
  }
  return true;
}

function retryAfterOf(err: APIError): number | undefined {
  const h = err.headers;
  const v = h && typeof (h as Headers).get === 'function' ? (h as Headers).get('retry-after') : null;
  if (v === null || v === undefined) return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

/** Sorts a thrown error into retry-or-give-up, with a reason that never holds the key. */
export function classifyApiError(err: unknown, secret: string | undefined): ApiFault {
  const clean = (s: string): string => scrubSecret(s, secret).slice(0, 400);
  if (err instanceof APIConnectionTimeoutError) return { retry: true, reason: 'the request timed out' };
  if (err instanceof APIConnectionError) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return { retry: true, reason: clean(`connection failed${cause?.code ? ` (${cause.code})` : ''}: ${err.message}`) };
  }
  if (err instanceof APIError && typeof err.status === 'number') {
    const status = err.status;
    const retry = status === 408 || status === 429 || status >= 500;
    const fault: ApiFault = { retry, reason: clean(`HTTP ${status} from the endpoint: ${err.message}`) };
    const after = retryAfterOf(err);
    if (after !== undefined) fault.retryAfterS = after;
    return fault;
  }
  const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return { retry: false, reason: clean(`request failed: ${message}`) };
}

/** Waits `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
