/**
 * The planner's seeded random stream: the project's generator (`core/rng.ts`, keyed by
 * `se3-planner/<seed>`) with the draws a planner needs on top — Gaussian deviates and uniform
 * rotations. Same seed, same stream on every machine.
 */
import { Rng } from '../../core/rng.ts';
import { qnormalize } from '../../sim/math.ts';
import type { Quat } from '../../sim/types.ts';

/** A seeded stream of uniform, Gaussian and rotation draws. */
export class PlannerRandom {
  private readonly rng: Rng;

  constructor(seed: number) {
    this.rng = new Rng(`se3-planner/${seed}`);
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.rng.next();
  }

  /** Uniform in [lo, hi). */
  range(lo: number, hi: number): number {
    return this.rng.range(lo, hi);
  }

  /** Uniform integer in [0, n). */
  below(n: number): number {
    return Math.floor(this.rng.next() * n);
  }

  /** A standard normal deviate (Box–Muller). */
  normal(): number {
    const u = 1 - this.rng.next();
    const v = this.rng.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** A uniformly distributed unit quaternion (Shoemake's method). */
  quaternion(): Quat {
    const u1 = this.rng.next();
    const u2 = this.rng.next() * 2 * Math.PI;
    const u3 = this.rng.next() * 2 * Math.PI;
    const a = Math.sqrt(1 - u1);
    const b = Math.sqrt(u1);
    return qnormalize([a * Math.sin(u2), a * Math.cos(u2), b * Math.sin(u3), b * Math.cos(u3)]);
  }
}
