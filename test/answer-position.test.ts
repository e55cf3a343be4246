/**
 * Answer positions of the multiple-choice families (V2, V3, A6, V6): over 1,000 seeds per family
 * (and per form), the place of the correct option is uniform by Pearson's chi-square against
 * equal counts, at the 0.1 % bound for its degrees of freedom (`CHI2_999`: 10.83 for 2 options,
 * 13.82 for 3, 16.27 for 4, 20.52 for 6, 26.12 for 9). The places come from each family's own
 * answer-place stream, the function its generator calls; a sample of generated instances per
 * family shows the generator puts the answer exactly there. The full count over 1,000 generated
 * instances per family is `npx tsx bench/answer-positions.ts` (minutes: it draws every scene).
 */
import { expect } from 'chai';
import { physicalAnswer } from '../tasks/assembly/a6-part-to-whole/physical.ts';
import { questionSeedParts, seriesAnswer } from '../tasks/assembly/a6-part-to-whole/polycomp.ts';
import { answerPosition } from '../tasks/kits/part-sight/table-question.ts';
import { families, getFamily, familyAndInstanceFromId } from '../tasks/registry.ts';
import { releasedInstances } from '../tasks/suites.ts';
import type { Tier } from '../tasks/types.ts';
import { CHI2_999, chiSquareUniform, instancesOver, tallyPlaces, unevenness } from '../verify/answer-positions.ts';

const TIERS: Tier[] = ['L1', 'L3', 'L5', 'L7'];
const N = 1000;

/** Tallies places of `count` options and checks the chi-square bound; returns the statistic. */
function uniform(label: string, count: number, places: number[]): number {
  const byPlace = new Array<number>(count).fill(0);
  for (const p of places) byPlace[p]++;
  const chi2 = chiSquareUniform(byPlace);
  expect(chi2, `${label}: [${byPlace.join(', ')}] chi-square ${chi2.toFixed(2)} over ${CHI2_999[count - 1]}`).to.be.at.most(CHI2_999[count - 1]);
  return chi2;
}

describe('answer positions of the multiple-choice families (chi-square, 1,000 seeds)', function () {
  this.timeout(600000);

  it('the chi-square bound separates a uniform place from a biased one', () => {
    // 1,000 answers with one place taking 31 % instead of 25 % are refused.
    expect(chiSquareUniform([310, 230, 230, 230])).to.be.above(CHI2_999[3]);
    expect(chiSquareUniform([250, 251, 249, 250])).to.be.below(1);
  });

  for (const id of ['V2', 'V3']) {
    it(`${id}: the answer's place is uniform over 1,000 seeds at each option count, and generated instances put it there`, () => {
      const family = getFamily(id);
      const count = (tier: Tier): number => (id === 'V2' ? (tier === 'L1' ? 4 : 6) : tier === 'L1' ? 3 : 4);
      // Seeds in four blocks of 250, one per tier, as bench/answer-positions.ts takes them.
      const groups = new Map<number, number[]>();
      for (let seed = 0; seed < N; seed++) {
        const tier = TIERS[Math.floor(seed / 250)];
        const k = count(tier);
        groups.set(k, [...(groups.get(k) ?? []), answerPosition(id, seed, tier, k)]);
      }
      for (const [k, places] of groups) uniform(`${id} ${k} options`, k, places);
      // Every tier alone too (the tiers of a seed are shifted one place each, so none is skewed).
      for (const tier of TIERS) uniform(`${id} ${tier}`, count(tier), Array.from({ length: N }, (_, s) => answerPosition(id, s, tier, count(tier))));
      // The generator uses exactly this place.
      const sample = Array.from({ length: 12 }, (_, i) => family.generate(500 + i, TIERS[i % 3]));
      for (const inst of sample) expect(family.answerPlace!(inst)!.index, inst.id).to.equal(answerPosition(id, inst.seed, inst.tier, count(inst.tier)));
      expect(tallyPlaces(family, sample).reduce((n, t) => n + t.n, 0)).to.equal(12);
    });
  }

  it('A6: the tray (assembly form) and the letter (question form) are uniform over 1,000 seeds, and generated instances put them there', () => {
    const family = getFamily('A6');
    uniform('A6 assembly form', 4, Array.from({ length: N }, (_, s) => physicalAnswer(TIERS[Math.floor(s / 250)], s)));
    uniform('A6 question form', 4, Array.from({ length: N }, (_, s) => seriesAnswer(questionSeedParts(1000 + s).problem)));
    for (const seed of [3, 8, 1001, 1006]) {
      const tier: Tier = seed >= 1000 ? 'L5' : TIERS[seed % 4];
      const inst = family.generate(seed, tier);
      const want = seed >= 1000 ? seriesAnswer(questionSeedParts(seed).problem) : physicalAnswer(tier, seed);
      expect(family.answerPlace!(inst)!.index, inst.id).to.equal(want);
    }
  });

  it('V6: over 1,000 generated questions, every option count places its answer uniformly', () => {
    // V6 generates fast (its objects are screened once per pool id), so it is counted directly.
    const family = getFamily('V6');
    const tallies = tallyPlaces(family, instancesOver(family, Array.from({ length: N }, (_, s) => s), TIERS));
    expect(tallies.map((t) => t.count)).to.deep.equal([2, 3, 4, 9]);
    for (const t of tallies) expect(t.chi2, `V6 ${t.count} options: [${t.byPlace.join(', ')}]`).to.be.at.most(t.bound);
  });
});

describe('answers of the released set and of every suite are as even as their option counts allow', function () {
  this.timeout(600000);

  it('the unevenness measure: 0 for an even spread, the surplus for a letter used too often', () => {
    expect(unevenness([0, 1, 2].map((index) => ({ count: 4, index }))).excess).to.equal(0);
    expect(unevenness([2, 2, 1].map((index) => ({ count: 4, index }))).excess).to.equal(1);
    expect(unevenness([0, 1, 0, 1].map((index) => ({ count: 2, index }))).excess).to.equal(0);
  });

  for (const family of families().filter((f) => f.answerPlace)) {
    const placesOf = (ids: string[]): Array<{ count: number; index: number }> =>
      ids.map((id) => family.answerPlace!(familyAndInstanceFromId(id).instance)).filter((p): p is { count: number; index: number } => p !== null);

    it(`${family.id}: the released instances`, () => {
      const { excess, byCount } = unevenness(placesOf(releasedInstances(family.id)));
      expect(excess, `${family.id} released answers by place: ${JSON.stringify(byCount)}`).to.equal(0);
    });

    for (const [name, suite] of Object.entries(family.suites ?? {})) {
      it(`${family.id}: the ${name} suite`, () => {
        const { excess, byCount } = unevenness(placesOf(suite.instances()));
        expect(excess, `${name} answers by place: ${JSON.stringify(byCount)}`).to.equal(0);
      });
    }
  }
});
