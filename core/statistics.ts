/**
 * Small statistics shared by the report, the paired comparison and the run analytics that
 * families offer: Wilson intervals, means, quantiles and a seeded percentile bootstrap.
 */
import { Rng } from './rng.ts';

/** Two-sided 95 % normal quantile. */
export const Z95 = 1.959963984540054;

/** Resamples of a bootstrap unless told otherwise. */
export const DEFAULT_RESAMPLES = 10_000;

/** A closed interval. */
export interface Interval {
  lo: number;
  hi: number;
}

/**
 * The Wilson score interval of a binomial proportion `k / n` (95 % by default). Unlike the
 * normal approximation it stays inside [0, 1] and is sensible at 0 and n successes.
 * Null when `n` is 0.
 */
export function wilson(k: number, n: number, z = Z95): Interval | null {
  if (!Number.isInteger(n) || n < 0 || !Number.isInteger(k) || k < 0 || k > n) {
    throw new RangeError(`wilson needs whole numbers 0 <= k <= n, got k=${k}, n=${n}`);
  }
  if (n === 0) return null;
  const p = k / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // Float noise must not push the ends past the exact 0 and 1 they reach at k = 0 and k = n.
  return { lo: k === 0 ? 0 : Math.max(0, centre - half), hi: k === n ? 1 : Math.min(1, centre + half) };
}

/** The mean, or null for an empty list. */
export function mean(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

/** The `p` quantile of ascending `sorted` values, interpolating linearly between ranks. */
export function quantile(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) throw new RangeError('quantile of an empty list');
  const h = (n - 1) * p;
  const i = Math.floor(h);
  const j = Math.min(n - 1, i + 1);
  return sorted[i] + (h - i) * (sorted[j] - sorted[i]);
}

/** A bootstrap estimate: the statistic on the data and its percentile interval. */
export interface BootstrapResult extends Interval {
  estimate: number;
  resamples: number;
}

/**
 * Percentile bootstrap of the mean of `values` (one value per unit, e.g. the paired
 * difference of one instance): `resamples` times draw as many units with replacement, take
 * the mean, and report the 2.5th and 97.5th percentiles (for `level` 0.95). The draws come
 * from a generator keyed by `key`, so the same key and data always give the same interval.
 * Null for no data.
 */
export function bootstrapMean(
  values: readonly number[],
  key: string,
  opts: { resamples?: number; level?: number } = {},
): BootstrapResult | null {
  const n = values.length;
  if (n === 0) return null;
  const resamples = opts.resamples ?? DEFAULT_RESAMPLES;
  const level = opts.level ?? 0.95;
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`resamples must be a whole number >= 1, got ${resamples}`);
  const rng = new Rng(`bootstrap/${key}`);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += values[Math.floor(rng.next() * n)];
    means[r] = s / n;
  }
  means.sort();
  const tail = (1 - level) / 2;
  return { estimate: mean(values)!, lo: quantile(means, tail), hi: quantile(means, 1 - tail), resamples };
}
