/**
 * M6 unlinking: the slot is the only way out (lined up and under the bar the hook lifts off; a few
 * degrees off, or through the solid plate, it jams), the pieces start linked and clear, the
 * separation test, the `+tool` lever, and the filters. Its sightless strategies
 * run in the shared shortcut battery (check-suite and `verify`).
 */
import { expect } from 'chai';
import { TIERS as ALL_TIERS } from '../core/catalog.ts';
import { qangle, qaxisAngle, qmul, qnormalize } from '../sim/math.ts';
import type { Pose } from '../sim/types.ts';
import { TaskEnv } from '../tasks/env.ts';
import { m6Unlinking } from '../tasks/manipulation/m6-unlinking/family.ts';
import { misalignment, passes, SHORTCUT_FILTERS } from '../tasks/manipulation/m6-unlinking/filters.ts';
import { alignedQuat, goalPose, routePoses } from '../tasks/manipulation/m6-unlinking/pieces.ts';
import { TIERS, type M6Scene } from '../tasks/manipulation/m6-unlinking/scene.ts';
import type { Instance } from '../tasks/types.ts';
import { runEpisode } from '../agents/loop.ts';
import { DEFAULT_MODE } from '../agents/modes.ts';
import { SightlessAgent } from '../agents/sightless/agent.ts';
import { poseProber } from '../tasks/manipulation/m6-unlinking/adversary.ts';
import { drawScene } from '../tasks/manipulation/m6-unlinking/draw.ts';
import type { SightlessStrategy } from '../tasks/sightless.ts';

const family = m6Unlinking;

/** Plays a sightless strategy on an instance through the real episode loop (no images). */
async function playBlind(inst: Instance, strategy: SightlessStrategy): Promise<{ solved: boolean; actions: number; endReason: string }> {
  const agent = new SightlessAgent(strategy, undefined, inst.seed);
  let turns = 0;
  const out = await runEpisode({ family, instance: inst, agent, mode: DEFAULT_MODE, renderer: null, render: 'never', onTurn: () => void turns++, shouldStop: () => turns >= inst.budgets.turns || agent.done });
  return { solved: out.solved, actions: out.actions, endReason: out.endReason };
}

/** From the route's "slot under the bar" pose turned by `deg` about the vertical, is a straight lift free? */
async function liftsOff(inst: Instance<M6Scene>, deg: number, dz = 0): Promise<boolean> {
  const env = await TaskEnv.create(family, inst);
  try {
    const under = routePoses(inst.scene)[2];
    const q = qnormalize(qmul(qaxisAngle([0, 1, 0], (deg * Math.PI) / 180), under.q));
    const from: Pose = { p: [under.p[0], under.p[1], under.p[2] + dz], q };
    env.world.setPose('hook', from);
    if (env.world.contactsOf('hook').length) return false;
    return !env.world.sweep('hook', { p: [from.p[0], from.p[1] + 0.1, from.p[2]], q }).hit;
  } finally {
    env.free();
  }
}

describe('M6 unlinking', function () {
  this.timeout(600_000);

  it('the slot is the only way out: lined up under the bar the hook lifts off; turned a few degrees or slid off the slot it jams', async () => {
    for (const tier of ['L3', 'L5'] as const) {
      const inst = family.generate(100, tier) as Instance<M6Scene>;
      expect(await liftsOff(inst, 0), `${inst.id} lined up`).to.equal(true);
      expect(await liftsOff(inst, 12), `${inst.id} 12° off`).to.equal(false);
      expect(await liftsOff(inst, -12), `${inst.id} −12° off`).to.equal(false);
      expect(await liftsOff(inst, 0, 0.03), `${inst.id} slot 30 mm off the bar`).to.equal(false);
    }
  });

  it('the bar passes the slot by the formula only when nearly lined up', () => {
    const s = (family.generate(100, 'L3') as Instance<M6Scene>).scene;
    expect(passes(s, 0)).to.equal(true);
    expect(passes(s, 20)).to.equal(false);
    expect(misalignment(s)).to.be.at.least(45);
  });

  it('the pieces start linked and clear; straight to the goal is refused; apart they are solved', async () => {
    for (const tier of ALL_TIERS) {
      const inst = family.generate(100, tier) as Instance<M6Scene>;
      const env = await TaskEnv.create(family, inst);
      expect(env.world.contactsOf('hook'), inst.id).to.deep.equal([]);
      expect(env.solved()).to.equal(false);
      // Lifting straight up in the start orientation, or straight to the goal turning on the way: refused.
      const p = inst.scene.start.p;
      expect(env.world.sweep('hook', { p: [p[0], p[1] + 0.15, p[2]], q: inst.scene.start.q }).hit, `${inst.id} straight lift`).to.equal(true);
      expect(env.world.sweep('hook', goalPose(inst.scene)).hit, `${inst.id} straight to the goal`).to.equal(true);
      env.world.setPose('hook', goalPose(inst.scene));
      expect(env.solved(), `${inst.id} at the goal`).to.equal(true);
      env.free();
    }
  });

  it("+tool: rotate turns about the hook's own axes", async () => {
    const inst = family.generate(100, 'L7') as Instance<M6Scene>;
    const env = await TaskEnv.create(family, inst);
    const before = env.world.getPose('hook');
    // A turn in the loop's own plane (about its own x), round the bar it hangs on.
    const r = env.execute({ tool: 'rotate', args: { axis: 'x', angle_deg: 10 } });
    expect(r.status, r.message).to.equal('ok');
    const after = env.world.getPose('hook');
    // Own frame: q · R_x(10°) (float poses: a few 1e-4 rad of noise in the angle read-out).
    expect(qangle(after.q, qmul(before.q, qaxisAngle([1, 0, 0], Math.PI / 18)))).to.be.below(2e-3);
    expect(qangle(after.q, qmul(qaxisAngle([1, 0, 0], Math.PI / 18), before.q))).to.be.above(1e-2);
    expect(qangle(env.world.getPose('hook-axis-x').q, after.q)).to.be.below(2e-3);
    env.free();
  });

  it('the straight-line filter refuses a hook that starts nearly lined up; generated instances pass every filter', () => {
    const inst = family.generate(100, 'L3') as Instance<M6Scene>;
    const near = structuredClone(inst);
    near.scene.start.q = qnormalize(qmul(qaxisAngle([0, 1, 0], (10 * Math.PI) / 180), alignedQuat(inst.scene.hook)));
    expect(SHORTCUT_FILTERS.find((f) => f.name === 'straight-line-blocked')!.check(near)).to.match(/only 10° from lined up/);
    for (const tier of ALL_TIERS) {
      for (const seed of [1, 2, 3, 4, 5, 6]) {
        const x = family.generate(seed, tier) as Instance<M6Scene>;
        for (const f of SHORTCUT_FILTERS) expect(f.check(x), `${x.id} ${f.name}`).to.equal(null);
      }
    }
  });

  it('the text carries no geometry: title, rules and tool descriptions are the same for every seed of a tier, and state the budget', () => {
    for (const tier of ALL_TIERS) {
      const texts = new Set<string>();
      for (let seed = 0; seed < 12; seed++) {
        const x = family.generate(seed, tier);
        texts.add(JSON.stringify([x.title, x.rules, x.tools]));
        expect(x.rules, x.id).to.include(`Budget: ${x.budgets.actions} actions`);
        expect(x.rules.replace(/ticks every 10 mm and labels every 100 mm/, ''), x.id).to.not.match(/\d\s*(mm|cm|m\b|°|%)/);
      }
      expect(texts.size, tier).to.equal(1);
    }
  });

  it('the draws are continuous: slot angles, offsets, start turns and places are not on grids', () => {
    const seen = { angle: new Set<number>(), offset: new Set<number>(), z: new Set<number>() };
    for (let seed = 0; seed < 30; seed++) {
      const s = (family.generate(seed, 'L7') as Instance<M6Scene>).scene;
      seen.angle.add(s.hook.slotAngleDeg);
      seen.offset.add(s.hook.slotOffset);
      seen.z.add(s.start.p[2]);
      expect(Math.abs(s.hook.slotAngleDeg)).to.be.within(TIERS.L7.slotAngle[0], TIERS.L7.slotAngle[1]);
      expect(Math.abs(s.hook.slotOffset)).to.be.within(TIERS.L7.slotOffset[0], TIERS.L7.slotOffset[1]);
    }
    expect(seen.angle.size).to.equal(30);
    expect(seen.offset.size).to.equal(30);
    expect(seen.z.size).to.equal(30);
    expect([...seen.angle].filter((a) => Number.isInteger(a / 5)).length).to.be.below(2);
  });

  it('the pose prober frees the hook when the real hook is among its candidates, and fails within the budget when it must sample continuous draws', async () => {
    // Positive control: the generator's draw replaced by one that returns this instance's own
    // scene (as the old grids effectively did: every hook was among a few thousand).
    const inst = family.generate(5, 'L7') as Instance<M6Scene>;
    const won = await playBlind(inst, poseProber(() => structuredClone(inst.scene), 1));
    expect(won.solved, 'with the real hook among the candidates').to.equal(true);
    expect(won.actions).to.be.at.most(inst.budgets.actions!);
    // The real adversary samples the continuous draws (fewer here than the battery's, for time).
    const sampling = poseProber((t, rng) => drawScene(t, rng), 5000);
    for (const seed of [5, 6]) {
      const x = family.generate(seed, 'L7');
      const out = await playBlind(x, sampling);
      expect(out.solved, x.id).to.equal(false);
      expect(out.actions, x.id).to.be.at.most(x.budgets.actions!);
    }
  });
});

