/**
 * The tier's live candidate worlds (`LiveWorlds`, `agents/sightless/simulate.ts`): an adaptive
 * agent's probing tree simulates ever longer histories on the same candidates, and a live world
 * runs only the calls it has not played. What it returns must be what a fresh world returns.
 */
import { expect } from 'chai';
import { probesOf } from '../agents/sightless/adaptive.ts';
import { EpisodeTools, LiveWorlds, openWorld, releaseTierMemo, SAMPLE_SEED_BASE } from '../agents/sightless/simulate.ts';
import { Rng } from '../core/rng.ts';
import { getFamily } from '../tasks/registry.ts';
import { sightlessView } from '../tasks/sightless.ts';
import type { Instance, TaskFamily, ToolCall } from '../tasks/types.ts';

function toolsFor(family: TaskFamily, memo = new Map<string, unknown>()): EpisodeTools {
  return new EpisodeTools({ family, tier: 'L1', reserved: new Set(), tierMemo: memo, cpuCap: 1e9, tierCpuCap: 1e9 });
}

async function fresh(family: TaskFamily, instance: Instance, calls: ToolCall[], probes: ToolCall[] = []) {
  const w = await openWorld(family, instance);
  try {
    const out: Array<{ status: string; message: string; solved: boolean }> = [];
    for (const c of calls) {
      const r = w.execute(c);
      out.push({ status: r.status, message: r.message, solved: r.solved });
      if (r.ended) break;
    }
    const previews = probes.map((p) => {
      const r = w.preview(p);
      return { status: r.status, message: r.message };
    });
    return { out, previews };
  } finally {
    w.free();
  }
}

describe('live candidate worlds', function () {
  this.timeout(300_000);

  it('give, call by call and after previews, exactly the outcomes of a fresh world (P1, real engine)', async () => {
    const family = getFamily('P1');
    const instance = family.generate(SAMPLE_SEED_BASE + 7, 'L1');
    const view = sightlessView(instance);
    const probes = view.tools.flatMap(probesOf);
    expect(probes.length).to.be.greaterThan(4);
    // A seeded history of the probes: accepted moves change the tray, refused ones roll back.
    const calls = new Rng('live-worlds').shuffle([...probes, ...probes]).slice(0, 24);
    const memo = new Map<string, unknown>();
    const tools = toolsFor(family, memo);
    const statuses = new Set<string>();
    for (let k = 1; k <= calls.length; k++) {
      const live = await tools.simulate(instance, calls.slice(0, k));
      const ref = await fresh(family, instance, calls.slice(0, k), k % 6 === 0 ? probes.slice(0, 6) : []);
      expect(live, `outcomes after ${k} calls`).to.deep.equal(ref.out);
      for (const o of live) statuses.add(o.status);
      if (k % 6 === 0) {
        // A look-ahead on the live world, which then goes on playing the history.
        expect(await tools.previewAfter(instance, calls.slice(0, k), probes.slice(0, 6))).to.deep.equal(ref.previews);
      }
    }
    // The history mixes accepted and refused moves, so rollbacks were exercised too.
    expect(statuses.has('ok')).to.equal(true);
    expect([...statuses].some((s) => s !== 'ok')).to.equal(true);
    // A shorter history is answered from the live world; a look-ahead there needs a fresh one.
    expect(await tools.simulate(instance, calls.slice(0, 5))).to.deep.equal((await fresh(family, instance, calls.slice(0, 5))).out);
    expect(await tools.previewAfter(instance, calls.slice(0, 5), probes.slice(0, 3))).to.deep.equal((await fresh(family, instance, calls.slice(0, 5), probes.slice(0, 3))).previews);
    // A history that diverges is replayed from a fresh world.
    const diverged = [...calls.slice(0, 3), probes[probes.length - 1], ...calls.slice(3, 10)];
    expect(await tools.simulate(instance, diverged)).to.deep.equal((await fresh(family, instance, diverged)).out);
    const live = memo.get('live-worlds') as LiveWorlds;
    expect(live.size).to.equal(1);
    releaseTierMemo(memo);
    expect(live.size).to.equal(0);
    expect(memo.has('live-worlds')).to.equal(false);
  });

  it('build a candidate world once for a growing history, again only when it diverges, and keep at most their capacity', async () => {
    let builds = 0;
    const base = getFamily('P4');
    const family: TaskFamily = Object.assign(Object.create(Object.getPrototypeOf(base)), base, {
      build: (instance: Instance, world: Parameters<TaskFamily['build']>[1]) => {
        builds++;
        return base.build(instance, world);
      },
    });
    const instances = [0, 1, 2].map((i) => base.generate(SAMPLE_SEED_BASE + i, 'L1'));
    const probes = sightlessView(instances[0]).tools.flatMap(probesOf);
    const calls = probes.slice(0, 8);
    const tools = toolsFor(family);
    for (let k = 1; k <= calls.length; k++) await tools.simulate(instances[0], calls.slice(0, k));
    expect(builds).to.equal(1);
    await tools.simulate(instances[0], calls.slice(0, 4));
    expect(builds).to.equal(1);
    await tools.simulate(instances[0], [calls[1], calls[0]]);
    expect(builds).to.equal(2);

    const small = new LiveWorlds(family, 2);
    for (const instance of instances) await small.advance(instance, calls.slice(0, 2), () => {});
    expect(small.size).to.equal(2);
    // The least recently used (the first instance) was freed: simulating it again builds anew.
    const before = builds;
    await small.advance(instances[0], calls.slice(0, 3), () => {});
    expect(builds).to.equal(before + 1);
    small.free();
    expect(small.size).to.equal(0);
  });
});
