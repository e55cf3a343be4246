import { TIERS, type Tier } from './catalog.ts';
import { Rng } from './rng.ts';

/** Option counts {@link balancedOption} serves: every count that divides its draw's range of 60. */
export const BALANCED_OPTION_COUNTS: readonly number[] = [1, 2, 3, 4, 5, 6];

/**
 * Which of `count` listed options is the right one, for (family, seed, tier): a draw of 0–59
 * from the seed's own stream (60 is a multiple of every count up to 6, so the position is
 * uniform over seeds at every tier), shifted by one place per tier, so one seed puts the answer
 * in different places at different tiers — a released set (the same seed at three tiers) never
 * answers with one letter, and "always C" gets no more than its share. Independent of
 * everything else a generator draws and of its re-draws.
 */
export function balancedOption(family: string, seed: number, tier: Tier, count: number): number {
  if (!BALANCED_OPTION_COUNTS.includes(count)) throw new RangeError(`balancedOption: ${count} options is not one of ${BALANCED_OPTION_COUNTS.join(', ')}`);
  const u = Rng.forInstance(family, 'any', seed, 'answer-position').int(0, 59);
  return (u + TIERS.indexOf(tier)) % count;
}
