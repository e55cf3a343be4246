/**
 * T1 tunnel timing: the gate mechanism, the contact rule, the phase-window solver and the
 * hidden slope of L7, on real Rapier worlds through the task environment.
 */
import { expect } from 'chai';
import { TaskEnv } from '../tasks/env.ts';
import { t1TunnelTiming } from '../tasks/temporal/t1-tunnel-timing/family.ts';
import { analyticWindow, naiveWindow, PREROLL_S, type T1Scene } from '../tasks/temporal/t1-tunnel-timing/scene.ts';
import { solveT1, stepsToSeconds } from '../tasks/temporal/t1-tunnel-timing/solver.ts';
import { BALL, t1State } from '../tasks/temporal/t1-tunnel-timing/track.ts';
import type { Instance, TaskFamily, Tier } from '../tasks/types.ts';

function instance(tier: Tier, seed = 100): Instance<T1Scene> {
  return t1TunnelTiming.generate(seed, tier);
}

async function withEnv<T>(inst: Instance<T1Scene>, fn: (env: TaskEnv) => T | Promise<T>): Promise<T> {
  const env = await TaskEnv.create(t1TunnelTiming as TaskFamily, inst);
  try {
    return await fn(env);
  } finally {
    env.free();
  }
}

function gateLiftNow(env: TaskEnv, name: string, closedY: number): number {
  return env.world.getPose(`gate-${name}`).p[1] - closedY;
}

describe('T1 tunnel timing', function () {
  this.timeout(120000);

  it('the phase-window solver finds one window per gate, excluding firing at once, close to the analytic model', async () => {
    for (const tier of ['L1', 'L5'] as Tier[]) {
      const inst = instance(tier);
      const sol = await solveT1(inst);
      expect(sol.windows.map((w) => w.gate)).to.deep.equal(inst.scene.gates.map((g) => g.name));
      for (const w of sol.windows) {
        expect(w.loStep, `${inst.id} ${w.gate}`).to.be.greaterThan(0);
        expect(w.width).to.be.within(0.1, 0.7);
        // The analytic window is conservative: inside the measured one, by at most 50 ms a side.
        const a = analyticWindow(inst.scene, inst.scene.gates.find((g) => g.name === w.gate)!);
        expect(a.lo - w.lo, `${inst.id} ${w.gate} lo`).to.be.within(0, 0.05);
        expect(w.hi - a.hi, `${inst.id} ${w.gate} hi`).to.be.within(0, 0.05);
      }
    }
  });

  it('L7: the hidden slope speeds the ball up, so timing from the first strobe alone misses a window', async () => {
    const inst = instance('L7');
    // Undisclosed: the rules read exactly as at L5 and say nothing about the track's shape.
    expect(inst.rules).to.equal(instance('L5').rules);
    expect(inst.rules).not.to.match(/slope|downhill|tilt|level/i);
    const sol = await solveT1(inst);
    const missed = sol.windows.some((w) => {
      const n = naiveWindow(inst.scene, inst.scene.gates.find((g) => g.name === w.gate)!);
      const mid = (n.lo + n.hi) / 2;
      return mid < w.lo || mid > w.hi;
    });
    expect(missed).to.equal(true);
    await withEnv(inst, (env) => {
      const xs = env.strobeScenes().scenes.map((s) => s.bodies.find((b) => b.name === BALL)!.pose.p[0]);
      const first = (xs[4] - xs[0]) / (4 * 0.25);
      expect(first).to.be.closeTo(inst.scene.speed, 0.01);
      env.execute({ tool: 'wait', args: { seconds: 1 } });
      const later = env.strobeScenes().scenes.map((s) => s.bodies.find((b) => b.name === BALL)!.pose.p[0]);
      expect((later[4] - later[3]) / 0.25 / first).to.be.greaterThan(1.12);
    });
  });

  it('the first strobe shows a level-track ball moving speed × 0.25 s between frames', async () => {
    const inst = instance('L3');
    await withEnv(inst, (env) => {
      const { scenes, labels } = env.strobeScenes();
      expect(labels).to.deep.equal(['1.00 s ago', '0.75 s ago', '0.50 s ago', '0.25 s ago', 'now']);
      const xs = scenes.map((s) => s.bodies.find((b) => b.name === BALL)!.pose.p[0]);
      for (let i = 1; i < 5; i++) expect(xs[i] - xs[i - 1]).to.be.closeTo(inst.scene.speed * 0.25, 0.002);
      const decoy = scenes.map((s) => s.bodies.find((b) => b.name === 'decoy-ball')!.pose.p[0]);
      expect(Math.abs((decoy[4] - decoy[0]) / (xs[4] - xs[0]) - 1)).to.be.greaterThan(0.2);
    });
  });

  it('firing at once fails: the ball runs into the closed gate, the gate jams and the episode ends unsolved', async () => {
    const inst = instance('L1');
    await withEnv(inst, (env) => {
      expect(env.execute({ tool: 'open_gate', args: {} }).status).to.equal('ok');
      const r = env.execute({ tool: 'wait', args: { seconds: 6 } });
      expect(r.status).to.equal('ok');
      expect(r.message).to.match(/touched the entrance gate/);
      const st = t1State(env.world);
      expect(st.failure?.gate).to.equal('entrance');
      expect(st.gates.entrance.jammedAt).to.equal(0);
      expect(env.solved()).to.equal(false);
      expect(env.progress()).to.equal(0);
      expect(env.world.getPose(BALL).p[0]).to.be.lessThan(0);
      expect(env.endReason).to.equal('failed');
      const hash = env.stateHash();
      expect(env.execute({ tool: 'open_gate', args: {} }).status).to.equal('not-run');
      expect(env.stateHash()).to.equal(hash);
    });
  });

  it('a gate closing on the ball jams where it was, without crushing it, and earns half a gate of progress', async () => {
    const inst = instance('L1');
    const sol = await solveT1(inst);
    const w = sol.windows[0];
    await withEnv(inst, (env) => {
      const restY = env.world.getPose(BALL).p[1];
      env.execute({ tool: 'wait', args: { seconds: stepsToSeconds(w.loStep - 12) } });
      env.execute({ tool: 'open_gate', args: {} });
      env.execute({ tool: 'wait', args: { seconds: 3 } });
      const st = t1State(env.world);
      expect(st.failure?.gate).to.equal('entrance');
      expect(st.failure!.lift).to.be.greaterThan(0);
      expect(env.world.getPose(BALL).p[1]).to.be.closeTo(restY, 0.002);
      expect(env.progress()).to.equal(0.25);
      expect(env.solved()).to.equal(false);
    });
  });

  it('a gate works once, its motion rolls back with a snapshot, and the reference timing solves', async () => {
    const inst = instance('L5');
    const ref = await t1TunnelTiming.reference(inst);
    await withEnv(inst, (env) => {
      const closedY = env.world.getPose('gate-entrance').p[1];
      const snap = env.world.snapshot();
      const before = env.stateHash();
      env.execute({ tool: 'open_gate', args: { gate: 'entrance' } });
      env.execute({ tool: 'wait', args: { seconds: 0.05 } });
      const lifted = gateLiftNow(env, 'entrance', closedY);
      expect(lifted).to.be.closeTo(0.028, 0.002);
      const again = env.execute({ tool: 'open_gate', args: { gate: 'entrance' } });
      expect(again.status).to.equal('invalid');
      env.world.restore(snap);
      expect(env.stateHash()).to.equal(before);
      expect(gateLiftNow(env, 'entrance', closedY)).to.be.closeTo(0, 1e-6);
      for (const call of ref.calls) {
        expect(env.terminated).to.equal(false);
        expect(env.execute(call).status, JSON.stringify(call)).to.equal('ok');
      }
      expect(env.solved()).to.equal(true);
      expect(t1State(env.world).passed).to.deep.equal(['entrance', 'exit']);
      expect(env.world.time).to.be.greaterThan(PREROLL_S);
    });
  });
});
