/**
 * The family tests' shared check that a tier's text does not follow the seed (issue 36): over
 * many seeds of each tier, the title, rules and budgets equal the first seed's, while a measure
 * of the seed's own solution (its length, its scramble) does vary — so a text or budget that
 * followed that measure would have varied too, and the check has something to catch.
 */
import { expect } from 'chai';
import type { Instance, TaskFamily, Tier } from '../../tasks/types.ts';

/** Options of {@link expectTextAlikeOverSeeds}. */
export interface TextAlikeOptions {
  /** Seeds per tier (0 … seeds − 1); 40 by default. */
  seeds?: number;
  /** What varies with the seed's solution (e.g. its shortest length). */
  measure: (instance: Instance, seed: number, tier: Tier) => number | string;
  /** Per-seed assertions of the family (e.g. the budget covers the seed's own plan). */
  check?: (instance: Instance, seed: number, tier: Tier) => void;
  /** The measure must take more than this many values per tier; 1 by default. */
  moreThan?: number;
}

/** Asserts the title, rules and budgets are the same at every seed of each tier while `measure` varies. */
export function expectTextAlikeOverSeeds(family: TaskFamily, tiers: readonly Tier[], o: TextAlikeOptions): void {
  const seeds = o.seeds ?? 40;
  for (const tier of tiers) {
    const first = family.generate(100, tier);
    const measures = new Set<number | string>();
    for (let seed = 0; seed < seeds; seed++) {
      const inst = family.generate(seed, tier);
      measures.add(o.measure(inst, seed, tier));
      o.check?.(inst, seed, tier);
      expect([inst.title, inst.rules, inst.budgets], `${tier} seed ${seed}`).to.deep.equal([first.title, first.rules, first.budgets]);
    }
    expect(measures.size, `${tier}: distinct values of the measure over ${seeds} seeds`).to.be.greaterThan(o.moreThan ?? 1);
  }
}
