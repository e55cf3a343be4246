import { createHash } from 'node:crypto';

/**
 * A seeded pseudo-random generator (sfc32) for instance generation and baselines.
 *
 * Instances must be a pure function of (family, tier, seed) on every machine, so generation
 * never touches `Math.random`; the generator is seeded from a SHA-256 of its key.
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** @param key any string, e.g. `P6/L3/100`; equal keys give equal streams. */
  constructor(key: string) {
    const h = createHash('sha256').update(key).digest();
    this.a = h.readUInt32LE(0);
    this.b = h.readUInt32LE(4);
    this.c = h.readUInt32LE(8);
    this.d = h.readUInt32LE(12);
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  /** A uniform 32-bit unsigned integer. */
  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform integer in [lo, hi] inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** Uniform real in [lo, hi). */
  range(lo: number, hi: number): number {
    return lo + this.next() * (hi - lo);
  }

  /** One element, uniformly. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('Rng.pick on an empty list');
    return items[Math.floor(this.next() * items.length)];
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  /** A stream for the instance of (family, tier, seed), optionally for a named purpose. */
  static forInstance(family: string, tier: string, seed: number, purpose = 'generate'): Rng {
    return new Rng(`${family}/${tier}/${seed}/${purpose}`);
  }
}
