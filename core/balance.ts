import { TIERS, type Tier } from './catalog.ts';
import { Rng } from './rng.ts';

/**
 * Which of `count` listed options is the right one, for (key, seed, tier): each seed draws its
 * own order of the options, and the tiers take its places in turn (L1 the first, L3 the second,
 * …). Over seeds every position is equally likely at every tier; at one seed the tiers get
 * different positions (as far as there are options), so a released set — the same seed at
 * three tiers — never answers with one letter, and "always C" gets no more than its share.
 * `key` names the family and question kind, so different question kinds are not tied together.
 */
export function balancedOption(key: string, seed: number, tier: Tier, count: number): number {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`balancedOption: count must be a positive integer, got ${count}`);
  const order = new Rng(`${key}/balanced-option/${seed}`).shuffle(Array.from({ length: count }, (_, i) => i));
  return order[TIERS.indexOf(tier) % count];
}
