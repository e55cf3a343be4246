/**
 * Answer-position balance of multiple-choice families: over many generated instances, where the
 * correct option sits among the options, and a chi-square test of those counts against the
 * uniform distribution. A family whose answer prefers a place can be beaten by a model that
 * always names that place without looking.
 */
import { SpaceActError } from '../core/errors.ts';
import type { Instance, TaskFamily, Tier } from '../tasks/types.ts';

/** Where the answer of one instance sits: among `count` options, at `index` (0-based). */
export interface AnswerPlace {
  count: number;
  index: number;
}

/**
 * How each multiple-choice family says where its answer sits, read from the instance's scene
 * (not from the reference, which for some families costs a ray-cast search per instance).
 */
export const ANSWER_PLACE: Record<string, (instance: Instance) => AnswerPlace | null> = {
  V2(instance) {
    const s = instance.scene as { parts: Array<{ letter: string }>; answer: string };
    return { count: s.parts.length, index: s.parts.findIndex((p) => p.letter === s.answer) };
  },
  V3(instance) {
    const s = instance.scene as { parts: Array<{ letter: string }>; answer: string };
    const candidates = s.parts.slice(1);
    return { count: candidates.length, index: candidates.findIndex((p) => p.letter === s.answer) };
  },
  A6(instance) {
    const s = instance.scene as { form: string; answer: number; trays?: unknown[]; options?: unknown[] };
    return { count: (s.trays ?? s.options ?? []).length, index: s.answer };
  },
  V6(instance) {
    const q = (instance.scene as { question: { options: Array<{ letter: string }> | null; answer: { choice?: string } } }).question;
    if (!q.options) return null;
    return { count: q.options.length, index: q.options.findIndex((o) => o.letter === q.answer.choice) };
  },
};

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

/** Tallies the answers of the given instances of one family by option count. */
export function tallyPlaces(familyId: string, instances: Iterable<Instance>): PlaceTally[] {
  const place = ANSWER_PLACE[familyId];
  if (!place) throw new SpaceActError('invalid-argument', `no answer-place reader for family ${familyId}`);
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
