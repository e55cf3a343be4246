/**
 * Answer-position balance of multiple-choice families: over many generated instances, where the
 * correct option sits among the options, and a chi-square test of those counts against the
 * uniform distribution. A family whose answer prefers a place can be beaten by a model that
 * always names that place without looking.
 */
import { SpaceActError } from '../core/errors.ts';
import type { Instance, TaskFamily, Tier } from '../tasks/types.ts';

export type { AnswerPlace } from '../tasks/types.ts';

/**
 * Upper 0.1 % points of the chi-square distribution by degrees of freedom (1–9): a generator
 * that places answers uniformly exceeds them one time in a thousand.
 */
export const CHI2_999: readonly number[] = [NaN, 10.828, 13.816, 16.266, 18.467, 20.515, 22.458, 24.322, 26.124, 27.877];

/** Counts per place of the answers of one option count. */
export interface PlaceTally {
  /** Number of options. */
  count: number;
  /** Instances with this number of options. */
  n: number;
  /** How many had their answer at each place. */
  byPlace: number[];
  /** Pearson's chi-square against the uniform distribution. */
  chi2: number;
  /** The bound: {@link CHI2_999} at `count − 1` degrees of freedom. */
  bound: number;
  pass: boolean;
}

/** Pearson's chi-square of counts against equal expectations. */
export function chiSquareUniform(counts: readonly number[]): number {
  const n = counts.reduce((a, b) => a + b, 0);
  const e = n / counts.length;
  return counts.reduce((s, c) => s + ((c - e) * (c - e)) / e, 0);
}

/** Tallies the answers of the given instances of one family by option count (`TaskFamily.answerPlace`). */
export function tallyPlaces(family: TaskFamily, instances: Iterable<Instance>): PlaceTally[] {
  const place = family.answerPlace;
  if (!place) throw new SpaceActError('invalid-argument', `family ${family.id} has no answerPlace: its answer is not a choice among listed options`);
  const byCount = new Map<number, number[]>();
  for (const inst of instances) {
    const p = place(inst);
    if (!p) continue;
    if (p.index < 0 || p.index >= p.count) throw new SpaceActError('invalid-state', `${inst.id}: the answer is not among its ${p.count} options`);
    const arr = byCount.get(p.count) ?? new Array<number>(p.count).fill(0);
    arr[p.index]++;
    byCount.set(p.count, arr);
  }
  return [...byCount.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([count, byPlace]) => {
      const chi2 = chiSquareUniform(byPlace);
      const bound = CHI2_999[count - 1];
      return { count, n: byPlace.reduce((a, b) => a + b, 0), byPlace, chi2, bound, pass: chi2 <= bound };
    });
}

/**
 * Instances of a family over seeds, the seeds cut into equal consecutive blocks, one per tier (a
 * tier per seed residue would meet schedules that are themselves periodic in the seed, such as
 * V6's question types, and see only some of them), lazily.
 */
export function* instancesOver(family: TaskFamily, seeds: readonly number[], tiers: readonly Tier[]): Generator<Instance> {
  const block = Math.ceil(seeds.length / tiers.length);
  for (const [i, seed] of seeds.entries()) yield family.generate(seed, tiers[Math.floor(i / block)]);
}

/**
 * How unevenly a set of answers uses its places, as far as their option counts allow: for each
 * option count, the most-used place minus the least-used, less the 1 that a count not divisible
 * by the number of places forces. 0 means as even as possible; the released set and the suites
 * are held to it.
 */
export function unevenness(places: ReadonlyArray<{ count: number; index: number }>): { excess: number; byCount: Record<number, number[]> } {
  const byCount: Record<number, number[]> = {};
  for (const p of places) (byCount[p.count] ??= new Array<number>(p.count).fill(0))[p.index]++;
  let excess = 0;
  for (const [count, tally] of Object.entries(byCount)) {
    const n = tally.reduce((a, b) => a + b, 0);
    const forced = n % Number(count) === 0 ? 0 : 1;
    excess = Math.max(excess, Math.max(...tally) - Math.min(...tally) - forced);
  }
  return { excess, byCount };
}
