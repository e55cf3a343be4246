import { createHash } from 'node:crypto';

/**
 * Pictures already drawn, by content address: a digest of everything a picture is drawn
 * from — the checked scene (bodies, poses, visibility, rulers, ground, light) and the request
 * (view, size, camera, highlight, line options). The renderer draws the same bytes for the same
 * scene and camera (draw-order ties are broken by scene order, never by history), so a picture
 * served from here is byte for byte the one the page would draw: reuse cannot change an image.
 * Composite images (strobe strips, split rollback views) are kept under a digest of their parts.
 *
 * Bounded by entries and by bytes; the least recently used picture goes first.
 */
export class FrameCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;

  /**
   * @param maxEntries pictures kept (0 disables the cache)
   * @param maxBytes total PNG bytes kept
   */
  constructor(
    readonly maxEntries: number,
    readonly maxBytes: number = 64 * 1024 * 1024,
  ) {}

  /** The content address of a picture drawn from `parts` (any JSON-serialisable values). */
  static key(...parts: unknown[]): string {
    return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
  }

  /**
   * A copy of the picture kept under `key` (a caller may change its buffer without changing
   * what is kept), marked as just used; undefined when there is none.
   */
  get(key: string): Buffer | undefined {
    const png = this.entries.get(key);
    if (!png) return undefined;
    this.entries.delete(key);
    this.entries.set(key, png);
    return Buffer.from(png);
  }

  /** Keeps `png` under `key`, dropping the least recently used pictures over the bounds. */
  set(key: string, png: Buffer): void {
    if (this.maxEntries <= 0 || png.length > this.maxBytes) return;
    png = Buffer.from(png);
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.length;
      this.entries.delete(key);
    }
    this.entries.set(key, png);
    this.bytes += png.length;
    for (const [k, v] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= v.length;
    }
  }

  /** Pictures kept now. */
  get size(): number {
    return this.entries.size;
  }

  /** Forgets every picture. */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}
