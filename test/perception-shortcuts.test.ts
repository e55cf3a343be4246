/**
 * What a model that reads the rules and guesses gets on V2, V3 and V4: each family's sightless
 * strategies (filters.ts: a fixed letter, the most common answer fitted on other seeds, a text
 * tell, a random letter; for V4 the middle of the stated range, the most common size, a round
 * number, a number from the text) played through the episode loop over many seeds of every
 * tier, each under its bound; the null policy never solves; the random baseline stays at chance.
 */
import { expect } from 'chai';
import type { SightlessStrategy } from '../tasks/sightless.ts';
import { v2ChiralOddOneOut } from '../tasks/perception/v2-chiral-odd-one-out/family.ts';
import { v3RotatedCopy } from '../tasks/perception/v3-rotated-copy/family.ts';
import { v4RulerReading } from '../tasks/perception/v4-ruler-reading/family.ts';
import type { Instance, ReferenceSolution, TaskFamily, Tier } from '../tasks/types.ts';
import { runNullPolicy, runRandomBaseline } from '../verify/verify.ts';
import { NO_TRIALS, playSightless } from './support/sightless-play.ts';

/** Judged seeds per tier (fewer at L7, whose generation searches walls) and the training seeds. */
const PLAN: Record<string, { judged: Record<Tier, number>; training: number }> = {
  V2: { judged: { L1: 14, L3: 14, L5: 12, L7: 6 }, training: 12 },
  V3: { judged: { L1: 14, L3: 14, L5: 12, L7: 8 }, training: 12 },
  V4: { judged: { L1: 25, L3: 25, L5: 25, L7: 25 }, training: 40 },
};

/**
 * The answer-only reference a strategy is fitted on: what the battery's reference would end
 * with (V2 and V3 references also move the camera, which a fit ignores).
 */
function answerOnly(instance: Instance): ReferenceSolution {
  const s = instance.scene as { answer?: string; answerCm?: number };
  const args = s.answerCm !== undefined ? { size_cm: s.answerCm } : { option: s.answer };
  return { calls: [{ tool: 'answer', args }], method: 'the scene answer' };
}

/** The upper end of a one-sided 99.9 % binomial interval: more successes than this at rate p is a real excess. */
function binomialUpper(n: number, p: number): number {
  return n * p + 3.1 * Math.sqrt(n * p * (1 - p));
}

for (const family of [v2ChiralOddOneOut, v3RotatedCopy, v4RulerReading] as TaskFamily[]) {
  describe(`${family.id} shortcuts (sightless strategies, null, random)`, function () {
    this.timeout(900000);
    const plan = PLAN[family.id];
    const judged: Instance[] = [];
    const training: Array<{ instance: Instance; reference: ReferenceSolution }> = [];
    before(() => {
      for (const tier of ['L1', 'L3', 'L5', 'L7'] as Tier[]) for (let i = 0; i < plan.judged[tier]; i++) judged.push(family.generate(2000 + i, tier));
      // Training seeds are disjoint from the judged ones, as the battery's are.
      for (let i = 0; i < plan.training; i++) {
        const inst = family.generate(3000 + i, (['L1', 'L3', 'L5', 'L7'] as Tier[])[i % 4]);
        training.push({ instance: inst, reference: answerOnly(inst) });
      }
    });

    it('every sightless strategy stays under its bound over every tier', async () => {
      const strategies = family.sightless as SightlessStrategy<unknown>[];
      expect(strategies.length).to.be.at.least(4);
      const rates: string[] = [];
      for (const strategy of strategies) {
        const fitted = await strategy.fit?.(training, NO_TRIALS);
        let solved = 0;
        for (const [k, inst] of judged.entries()) if (await playSightless(family, inst, strategy, k, fitted)) solved++;
        const rate = solved / judged.length;
        rates.push(`${strategy.name} ${solved}/${judged.length}`);
        expect(rate, `${strategy.name}: ${solved} of ${judged.length} solved (bound ${strategy.bound})`).to.be.at.most(strategy.bound);
      }
      // Every strategy answered something: a strategy that never answers would pass vacuously.
      expect(rates.join(', ')).to.match(/\//);
    });

    it('the null policy solves none, and the random baseline stays at chance', async () => {
      let nullSolved = 0;
      let randomSolved = 0;
      let randomEpisodes = 0;
      let chance = 0;
      for (const inst of judged) {
        if ((await runNullPolicy(family, inst)).solved) nullSolved++;
        const r = await runRandomBaseline(family, inst, { seeds: 2, turns: 20 });
        randomSolved += r.successes;
        randomEpisodes += r.seeds;
        const options = (inst.tools.find((t) => t.name === 'answer')!.parameters.properties as Record<string, { enum?: unknown[] }>).option?.enum?.length;
        // A lettered answer is right by luck 1 time in k; a random number of centimetres almost never.
        chance += (options ? 1 / options : 0.02) * r.seeds;
      }
      expect(nullSolved).to.equal(0);
      const p = chance / randomEpisodes;
      expect(randomSolved, `random: ${randomSolved} of ${randomEpisodes} (chance ${(p * 100).toFixed(0)} %)`).to.be.at.most(binomialUpper(randomEpisodes, p));
    });
  });
}
