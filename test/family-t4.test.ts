/**
 * T4 catcher: the engine's landing point against the drag-free formula on hand-built launches
 * (level and angled, onto a low and a raised shelf), the L7 misaim (reading the angle off the
 * barrel misses the catcher in the engine too), the tools (the first picture already shows a
 * shot; placing and firing put the ball back in the cradle and take no world time; nothing
 * returned says where the ball went), the reference and placements too near and too far that
 * must fail in the real world, the generator's text, and the first view of the seeds whose ruler
 * strip version 1 showed too small.
 */
import { expect } from 'chai';
import { Renderer } from '../render/renderer.ts';
import { TaskEnv } from '../tasks/env.ts';
import { checkFirstView } from '../tasks/view-rule.ts';
import { analyticCatch } from '../tasks/temporal/t4-catcher/episode.ts';
import { t4Catcher } from '../tasks/temporal/t4-catcher/family.ts';
import { analyticLanding, CATCHER_HALF_OUTER, speedForLanding, type T4Scene } from '../tasks/temporal/t4-catcher/scene.ts';
import { simulatedLanding, simulatedShot } from '../tasks/temporal/t4-catcher/solver.ts';
import type { Instance, TaskFamily, Tier } from '../tasks/types.ts';

const family = t4Catcher as unknown as TaskFamily<T4Scene>;

function withScene(tier: Tier, scene: Partial<T4Scene>): Instance<T4Scene> {
  const i = family.generate(100, tier);
  return { ...i, scene: { ...i.scene, ...scene } };
}

describe('T4 catcher', function () {
  this.timeout(300_000);

  it('the engine lands the ball where the drag-free formula x = v cos θ · t says, within 2 %', async () => {
    const cases: Array<Partial<T4Scene>> = [
      { tableHeight: 0.5, shelfHeight: 0.03, barrelDeg: 0, launchDeg: 0, speed: 1.2 },
      { tableHeight: 0.42, shelfHeight: 0.03, barrelDeg: 0, launchDeg: 0, speed: 3.1 },
      { tableHeight: 0.35, shelfHeight: 0.03, barrelDeg: 35, launchDeg: 35, speed: 2.4 },
      { tableHeight: 0.48, shelfHeight: 0.22, barrelDeg: 20, launchDeg: 20, speed: 2.8 },
      { tableHeight: 0.45, shelfHeight: 0.15, barrelDeg: 30, launchDeg: 18, speed: 1.6 },
    ];
    for (const c of cases) {
      const instance = withScene('L5', c);
      const expected = analyticLanding(instance.scene);
      const sim = await simulatedLanding(instance);
      expect(Math.abs(sim - expected) / expected, `${JSON.stringify(c)}: engine ${sim}, formula ${expected}`).to.be.lessThan(0.02);
    }
  });

  it('the reference catches the ball; the catcher 6 cm too near or too far does not', async () => {
    for (const tier of ['L1', 'L3', 'L5', 'L7'] as Tier[]) {
      const instance = family.generate(100, tier);
      const ref = await family.reference(instance);
      const x = ref.calls[0].args.distance_m as number;
      expect((await simulatedShot(instance, x)).caught, `${instance.id}: reference at ${x}`).to.equal(true);
      expect((await simulatedShot(instance, x - 0.06)).caught, `${instance.id}: too near`).to.equal(false);
      expect((await simulatedShot(instance, x + 0.06)).caught, `${instance.id}: too far`).to.equal(false);
      // The engine's best place lies near the drag-free estimate.
      expect(x).to.be.closeTo(analyticCatch(instance.scene), 0.03);
    }
  });

  it('a plan that must fail fails in the episode loop: the catcher placed at the landing point on the shelf (too far) and at the table-side edge of the catch (too near)', async () => {
    const instance = family.generate(101, 'L3');
    for (const x of [analyticLanding(instance.scene) + CATCHER_HALF_OUTER + 0.03, analyticCatch(instance.scene) - 0.07]) {
      const env = await TaskEnv.create(family as TaskFamily, instance);
      try {
        expect(env.execute({ tool: 'place_catcher', args: { distance_m: x } }).status).to.equal('ok');
        expect(env.execute({ tool: 'fire', args: {} }).status).to.equal('ok');
        expect(env.execute({ tool: 'wait', args: { seconds: 3 } }).status).to.equal('ok');
        expect(env.solved(), `catcher at ${x}`).to.equal(false);
      } finally {
        env.free();
      }
    }
  });

  it('L7: the angle read off the drawn barrel misses the catcher in the engine', async () => {
    for (const seed of [100, 101, 102]) {
      const instance = family.generate(seed, 'L7');
      const s = instance.scene;
      const naive = { ...instance, scene: { ...s, launchDeg: s.barrelDeg } };
      const x = analyticCatch(naive.scene);
      expect((await simulatedShot(instance, x)).caught, `${instance.id}: barrel-read placement ${x}`).to.equal(false);
    }
  });

  it('the first picture already shows a shot; placing and firing put the ball back in the cradle and take no world time; results say nothing of where it went', async () => {
    const instance = family.generate(101, 'L3');
    const env = await TaskEnv.create(family as TaskFamily, instance);
    try {
      const cradle = [0.03, instance.scene.tableHeight + 0.04];
      const ball = (): number[] => env.world.getPose('ball').p;
      // One second of world time has run: the first shot has left the cradle.
      expect(Math.hypot(ball()[0] - cradle[0], ball()[1] - cradle[1])).to.be.greaterThan(0.2);
      const t0 = env.world.time;
      const placed = env.execute({ tool: 'place_catcher', args: { distance_m: 0.9 } });
      expect(placed.status).to.equal('ok');
      expect(env.world.time).to.equal(t0);
      expect(Math.hypot(ball()[0] - cradle[0], ball()[1] - cradle[1])).to.be.lessThan(1e-6);
      expect(env.world.getPose('catcher').p[0]).to.be.closeTo(0.9, 1e-6);
      expect(env.execute({ tool: 'fire', args: {} }).status).to.equal('ok');
      expect(env.world.time).to.equal(t0);
      expect(env.execute({ tool: 'wait', args: { seconds: 0.5 } }).message).to.equal('Waited 0.5 s.');
      expect(env.execute({ tool: 'place_catcher', args: { distance_m: 3 } }).status).to.equal('invalid');
    } finally {
      env.free();
    }
  });

  it('the launch speed follows the landing point continuously, and the text is the same for every seed of a tier', () => {
    const speeds = new Set<number>();
    for (let seed = 1; seed <= 40; seed++) speeds.add(family.generate(seed, 'L3').scene.speed);
    expect(speeds.size).to.equal(40);
    const s = family.generate(5, 'L3').scene;
    expect(speedForLanding(s, analyticLanding(s))).to.be.closeTo(s.speed, 1e-6);
    for (const tier of ['L1', 'L3', 'L5', 'L7'] as Tier[]) {
      expect(family.generate(1, tier).rules).to.equal(family.generate(2, tier).rules);
      expect(JSON.stringify(family.generate(1, tier).tools)).to.equal(JSON.stringify(family.generate(2, tier).tools));
    }
  });

  describe('the first view (version 2)', () => {
    const renderer = new Renderer();
    after(async () => {
      await renderer.close();
    });

    it('frames taller than 352 pixels let the camera use the width: the ruler strip clears its floor on the tall flights version 1 framed too far out', async () => {
      // Version 1's frames stopped at 352 pixels: T4-L5-s31 showed the strip in 4,496 pixels,
      // T4-L7-s304 (a training seed of the battery) in 4,482, both under the 4,584 asked.
      const seeds: [Tier, number][] = [['L5', 31], ['L7', 304]];
      for (const [tier, seed] of seeds) {
        const env = await TaskEnv.create(family as TaskFamily, family.generate(seed, tier));
        try {
          expect(env.frameSize(renderer).height, env.instance.id).to.be.greaterThan(352);
          const verdict = await checkFirstView(env, renderer);
          expect(verdict.problems, env.instance.id).to.deep.equal([]);
        } finally {
          env.free();
        }
      }
    });
  });
});
