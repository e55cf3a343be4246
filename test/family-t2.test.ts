/**
 * T2 ice slope: the engine against the textbook stopping distance on hand-built ice (level,
 * uphill and downhill, slippery and rough), the L7 patch (the first stretch's speed misses the
 * band in the engine too), the tools (launch puts the puck back on the pad and takes no world
 * time; nothing returned says where the puck is), the reference and a launch a few per cent off
 * it that must fail, and the generator's text.
 */
import { expect } from 'chai';
import { TaskEnv } from '../tasks/env.ts';
import { t2IceSlope } from '../tasks/temporal/t2-ice-slope/family.ts';
import { analyticStop, deceleration, slopeCoordinate, zoneCentre, type T2Scene } from '../tasks/temporal/t2-ice-slope/scene.ts';
import { analyticSpeedFor, simulatedStop } from '../tasks/temporal/t2-ice-slope/solver.ts';
import type { Instance, TaskFamily, Tier } from '../tasks/types.ts';

const family = t2IceSlope as unknown as TaskFamily<T2Scene>;

function withScene(tier: Tier, scene: Partial<T2Scene>): Instance<T2Scene> {
  const i = family.generate(100, tier);
  return { ...i, scene: { ...i.scene, ...scene } };
}

describe('T2 ice slope', function () {
  this.timeout(300_000);

  it('the engine stops the puck where v² / (2 g (μ cos θ − sin θ)) says, within 2 %, level, uphill and downhill', async () => {
    for (const tiltDeg of [-3, 0, 3]) {
      for (const friction of [0.08, 0.22]) {
        const instance = withScene('L3', { tiltDeg, friction, patch: null, end: 3.5 });
        const speed = 1.6;
        const expected = analyticStop(instance.scene, speed);
        const sim = await simulatedStop(instance, speed);
        expect(Math.abs(sim.at - expected) / expected, `tilt ${tiltDeg}°, μ ${friction}: simulated ${sim.at}, textbook ${expected}`).to.be.lessThan(0.02);
      }
    }
  });

  it('L7: past the patch the puck slows differently, so the speed the first stretch suggests misses the band in the engine', async () => {
    for (const seed of [100, 101, 102]) {
      const instance = family.generate(seed, 'L7');
      const s = instance.scene;
      const naive = Math.sqrt(2 * deceleration(s, s.friction) * zoneCentre(s));
      const at = (await simulatedStop(instance, naive)).at;
      expect(at < s.zone.from || at > s.zone.to, `${instance.id}: the first stretch's speed stops at ${at}`).to.equal(true);
    }
  });

  it('the reference lands in the band; 3 % slower or faster does not', async () => {
    for (const tier of ['L1', 'L5'] as Tier[]) {
      const instance = family.generate(100, tier);
      const ref = await family.reference(instance);
      const speed = ref.calls[0].args.speed_mps as number;
      const s = instance.scene;
      const inBand = (x: number): boolean => x >= s.zone.from && x <= s.zone.to;
      expect(inBand((await simulatedStop(instance, speed)).at)).to.equal(true);
      expect(inBand((await simulatedStop(instance, speed * 0.97)).at)).to.equal(false);
      expect(inBand((await simulatedStop(instance, speed * 1.03)).at)).to.equal(false);
      expect(analyticSpeedFor(s, zoneCentre(s))).to.be.closeTo(speed, speed * 0.01);
    }
  });

  it('launch puts the puck back on the pad from wherever it is and takes no world time; results say nothing of where it went', async () => {
    const instance = family.generate(101, 'L3');
    const env = await TaskEnv.create(family as TaskFamily, instance);
    try {
      const t0 = env.world.time;
      const first = env.execute({ tool: 'launch', args: { speed_mps: 1.2 } });
      expect(first.status).to.equal('ok');
      expect(env.world.time).to.equal(t0);
      const waited = env.execute({ tool: 'wait', args: { seconds: 2 } });
      expect(waited.message).to.equal('Waited 2 s.');
      expect(slopeCoordinate(instance.scene, env.world.getPose('puck').p)).to.be.greaterThan(0.2);
      env.execute({ tool: 'launch', args: { speed_mps: 0.5 } });
      expect(Math.abs(slopeCoordinate(instance.scene, env.world.getPose('puck').p))).to.be.lessThan(0.001);
      expect(env.execute({ tool: 'launch', args: { speed_mps: 9 } }).status).to.equal('invalid');
    } finally {
      env.free();
    }
  });

  it('the text is the same for every seed of a tier', () => {
    for (const tier of ['L1', 'L3', 'L5', 'L7'] as Tier[]) {
      expect(family.generate(1, tier).rules).to.equal(family.generate(2, tier).rules);
      expect(JSON.stringify(family.generate(1, tier).tools)).to.equal(JSON.stringify(family.generate(2, tier).tools));
    }
  });
});
