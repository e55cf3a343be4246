import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What the cache keeps of one answer: the text and its token counts, nothing of the request. */
export interface CachedResponse {
  /** The reply (only its start, when it was too long to be read). */
  text: string;
  /** Length of the whole reply, when `text` is only its start. */
  chars?: number;
  finishReason?: string;
  inputTokens: number;
  outputTokens: number;
}

/**
 * A digest of everything that decides a model's answer: endpoint, model, messages and
 * sampling settings. The API key is deliberately not part of it, so the digest can be logged
 * and used as a file name.
 */
export function requestDigest(parts: { baseURL: string; model: string; messages: unknown; settings: Record<string, unknown> }): string {
  const h = createHash('sha256');
  h.update(JSON.stringify({ baseURL: parts.baseURL, model: parts.model, settings: parts.settings }));
  h.update('\n');
  h.update(JSON.stringify(parts.messages));
  return h.digest('hex');
}

/**
 * An on-disk response cache (`--cache DIR`): one small JSON file per request digest. Reruns
 * of the same requests are answered without calling the endpoint. Writes are atomic.
 */
export class ResponseCache {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  private file(digest: string): string {
    if (!/^[0-9a-f]{64}$/.test(digest)) throw new RangeError('cache keys are sha-256 hex digests');
    return join(this.dir, digest.slice(0, 2), `${digest}.json`);
  }

  /** The cached answer, or null (a damaged entry counts as a miss). */
  get(digest: string): CachedResponse | null {
    try {
      const v = JSON.parse(readFileSync(this.file(digest), 'utf8')) as CachedResponse;
      if (typeof v.text !== 'string' || !Number.isFinite(v.inputTokens) || !Number.isFinite(v.outputTokens)) return null;
      if (v.chars !== undefined && !(Number.isInteger(v.chars) && v.chars >= v.text.length)) return null;
      return v;
    } catch {
      return null;
    }
  }

  /** Stores an answer. */
  put(digest: string, value: CachedResponse): void {
    const file = this.file(digest);
    mkdirSync(join(this.dir, digest.slice(0, 2)), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(value) + '\n');
    renameSync(tmp, file);
  }
}
