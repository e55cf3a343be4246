/**
 * T5 lever synthesis: the engine's resting angle against the moment balance by hand
 * (tan θ = Σ m u / Σ m v) on hand-built levers, the reference and plans that must fail in the
 * real world (the fulcrum too far from the crate, too little counterweight moment), the L7 heavy
 * crate (the lever worked with the stated density misses in the engine too), the tools (latched
 * level, no world time, refusals by rule with no numbers) and the generator's text.
 */
import { expect } from 'chai';
import { TaskEnv } from '../tasks/env.ts';
import { t5LeverSynthesis } from '../tasks/temporal/t5-lever-synthesis/family.ts';
import { balanceAngleDeg, balanceCrateY, bandMiddle, counterweightRange, CRATE_DENSITY, LIMIT_DEG, type T5Scene } from '../tasks/temporal/t5-lever-synthesis/scene.ts';
import { balancePlans, simulateRelease } from '../tasks/temporal/t5-lever-synthesis/solver.ts';
import type { Instance, TaskFamily, Tier } from '../tasks/types.ts';

const family = t5LeverSynthesis as unknown as TaskFamily<T5Scene>;

function withScene(tier: Tier, scene: Partial<T5Scene>): Instance<T5Scene> {
  const i = family.generate(100, tier);
  return { ...i, scene: { ...i.scene, ...scene } };
}

describe('T5 lever synthesis', function () {
  this.timeout(300_000);

  it('the engine rests the lever at the angle of the moment balance by hand, within 2 %', async () => {
    const cases: Array<[Partial<T5Scene>, number, number]> = [
      [{ leverLength: 1.0, crateSide: 0.1, crateDensity: 1800 }, 0.3, 0.45],
      [{ leverLength: 0.95, crateSide: 0.12, crateDensity: 2700 }, 0.2, 0.35],
      [{ leverLength: 0.95, crateSide: 0.12, crateDensity: 2700 }, 0.2, 0.45],
      [{ leverLength: 1.3, crateSide: 0.07, crateDensity: 1800 }, 0.45, 0.4],
      [{ leverLength: 1.3, crateSide: 0.07, crateDensity: 1800 }, 0.45, 0.5],
      [{ leverLength: 1.1, crateSide: 0.13, crateDensity: 1800 }, 0.18, 0.25],
    ];
    for (const [scene, f, c] of cases) {
      const instance = withScene('L5', scene);
      const expected = balanceAngleDeg(instance.scene, f, c);
      expect(Math.abs(expected), `${JSON.stringify(scene)}: a case clear of the stops`).to.be.lessThan(LIMIT_DEG - 2);
      const out = await simulateRelease(instance, f, c, 10, false);
      expect(Math.abs(out.angleDeg - expected) / Math.abs(expected), `${JSON.stringify(scene)} f ${f} c ${c}: engine ${out.angleDeg}°, balance ${expected}°`).to.be.lessThan(0.02);
    }
  });

  it('the reference rests the crate in the band; the fulcrum too far or too little counterweight does not', async () => {
    for (const tier of ['L1', 'L5', 'L7'] as Tier[]) {
      const instance = family.generate(100, tier);
      const ref = await family.reference(instance);
      const f = ref.calls[0].args.distance_m as number;
      const c = ref.calls[1].args.distance_m as number;
      expect((await simulateRelease(instance, f, c)).solved, `${instance.id}: reference`).to.equal(true);
      const s = instance.scene;
      // The fulcrum 5 cm farther from the crate: the crate's moment outweighs the counterweight's.
      const plans: Array<[string, number, number]> = [['fulcrum too far', f + 0.05, c]];
      // Too little counterweight moment: the counterweight 5 cm toward the load end (where it fits beside the crate).
      if (c - 0.05 >= counterweightRange(s)[0]) plans.push(['too little counterweight', f, c - 0.05]);
      for (const [what, pf, pc] of plans) {
        const out = await simulateRelease(instance, pf, pc);
        expect(out.solved, `${instance.id}: ${what}`).to.equal(false);
        expect(out.crateY, `${instance.id}: ${what} leaves the crate below the band`).to.be.lessThan(s.bandLow);
      }
    }
  });

  it('a plan that must fail fails in the episode loop: the fulcrum too far from the crate', async () => {
    const instance = family.generate(101, 'L3');
    const ref = await family.reference(instance);
    const f = ref.calls[0].args.distance_m as number;
    const c = ref.calls[1].args.distance_m as number;
    const env = await TaskEnv.create(family as TaskFamily, instance);
    try {
      expect(env.execute({ tool: 'set_fulcrum', args: { distance_m: f + 0.06 } }).status).to.equal('ok');
      expect(env.execute({ tool: 'set_counterweight', args: { distance_m: c } }).status).to.equal('ok');
      expect(env.execute({ tool: 'release', args: {} }).status).to.equal('ok');
      expect(env.execute({ tool: 'wait', args: { seconds: 10 } }).status).to.equal('ok');
      expect(env.solved()).to.equal(false);
      expect(env.world.getPose('crate').p[1]).to.be.lessThan(instance.scene.bandLow);
    } finally {
      env.free();
    }
  });

  it('L7: the lever worked out with the stated density misses the band in the engine', async () => {
    for (const seed of [100, 101, 102]) {
      const instance = family.generate(seed, 'L7');
      const looks = { ...instance.scene, crateDensity: CRATE_DENSITY };
      const plan = balancePlans(looks).reduce((a, b) => (b.width > a.width ? b : a));
      expect(Math.abs(balanceCrateY(looks, plan.fulcrum, plan.counterweight) - bandMiddle(looks)), 'the plan rests a sand crate in the band').to.be.lessThan(0.002);
      const out = await simulateRelease(instance, plan.fulcrum, plan.counterweight);
      expect(out.solved, `${instance.id}: stated-density plan`).to.equal(false);
    }
  });

  it('placements latch the lever level and take no world time; refusals name the rule, never a number', async () => {
    const instance = family.generate(102, 'L3');
    const env = await TaskEnv.create(family as TaskFamily, instance);
    try {
      const t0 = env.world.time;
      expect(env.execute({ tool: 'set_fulcrum', args: { distance_m: 0.4 } }).status).to.equal('ok');
      expect(env.world.time).to.equal(t0);
      expect(env.world.getPose('fulcrum').p[0]).to.be.closeTo(0.4, 1e-6);
      expect(env.execute({ tool: 'release', args: {} }).status).to.equal('ok');
      expect(env.execute({ tool: 'wait', args: { seconds: 2 } }).message).to.equal('Waited 2 s.');
      const q = env.world.getPose('lever').q;
      expect(Math.abs(q[2]), 'the free lever has turned').to.be.greaterThan(0.01);
      expect(env.execute({ tool: 'set_counterweight', args: { distance_m: 0.6 } }).status).to.equal('ok');
      expect(Math.abs(env.world.getPose('lever').q[2]), 'latched level again').to.be.lessThan(1e-6);
      expect(env.world.getPose('counterweight').p[0]).to.be.closeTo(0.6, 1e-6);
      // Under the crate: refused by the rule, and the message carries no number.
      const refused = env.execute({ tool: 'set_fulcrum', args: { distance_m: 0.01 } });
      expect(refused.status).to.not.equal('ok');
      expect(refused.message).to.not.match(/\d/);
      expect(env.world.getPose('fulcrum').p[0]).to.be.closeTo(0.4, 1e-6);
    } finally {
      env.free();
    }
  });

  it('draws are continuous, and the text is the same for every seed of a tier', () => {
    const bands = new Set<number>();
    for (let seed = 1; seed <= 30; seed++) bands.add(family.generate(seed, 'L3').scene.bandLow);
    expect(bands.size).to.equal(30);
    for (const tier of ['L1', 'L3', 'L5', 'L7'] as Tier[]) {
      expect(family.generate(1, tier).rules).to.equal(family.generate(2, tier).rules);
      expect(JSON.stringify(family.generate(1, tier).tools)).to.equal(JSON.stringify(family.generate(2, tier).tools));
    }
  });
});
