/**
 * `verify --concurrency N`: the same selection verified in this process and in two worker
 * processes gives the same records in the same order (only the `seconds` fields may differ),
 * the battery included; a bad selection fails before any worker starts.
 */
import { expect } from 'chai';
import { SpaceActError } from '../core/errors.ts';
import { getFamily, tiersOf } from '../tasks/registry.ts';
import type { TaskFamily } from '../tasks/types.ts';
import { releasedInstances } from '../tasks/suites.ts';
import { closeViewRenderer, planJobs, runVerifyJob, textAndViewRecords, verifyAll, type VerifyAllOptions, type VerifyAllResult, type VerifyUnit } from '../verify/verify-all.ts';
import { batterySeedLists } from '../verify/battery.ts';

/**
 * The records without what timing may change: measured seconds, and how many adaptive episodes
 * gave up at a CPU cap (that depends on how fast the machine ran them).
 */
const TIMED = new Set(['seconds', 'cpuSeconds', 'referenceSeconds', 'gaveUp']);
function withoutTimes(r: VerifyAllResult): unknown {
  return JSON.parse(JSON.stringify(r, (k, v: unknown) => (TIMED.has(k) ? undefined : v)));
}

describe('verify --concurrency', function () {
  // Two families' easiest released instances: enough to spread over two workers, and cheap now
  // that verify also probes minimality, checks text over seeds and replays references.
  const ids = ['P1', 'P2'].map((f) => releasedInstances(f)[0]);
  const base: Omit<VerifyAllOptions, 'concurrency'> = {
    instances: ids,
    randomSeeds: 2,
    randomTurns: 6,
    batterySeeds: 1,
    batteryTraining: 1,
    batteryFamilies: ['P1'],
    // The adaptive agents simulate for up to minutes of CPU per tier (and may give up at a CPU
    // cap, which depends on the machine's speed); the rest of the battery is compared here.
    batterySkipAdaptive: true,
    // The text-leak record over a few seeds is enough to compare serial and parallel.
    textSeeds: 2,
    // And the view-rule sample over two seeds per tier, rendered by each worker's own browser.
    viewSeeds: 2,
  };

  it('gives the serial records, in the serial order, with two worker processes', async function () {
    const seenSerial: string[] = [];
    const seenParallel: string[] = [];
    const serial = await verifyAll({ ...base, concurrency: 1, onResult: (r) => seenSerial.push(r.instance), onBatteryReport: (r) => seenSerial.push(`${r.family}-${r.tier}`) });
    const parallel = await verifyAll({ ...base, concurrency: 2, onResult: (r) => seenParallel.push(r.instance), onBatteryReport: (r) => seenParallel.push(`${r.family}-${r.tier}`) });
    expect(serial.instances.map((r) => r.instance)).to.deep.equal(ids);
    expect(serial.battery.map((r) => r.tier)).to.deep.equal(tiersOf(getFamily('P1')));
    expect(seenParallel).to.deep.equal(seenSerial);
    // The view sample's two seeds per tier and the battery's training seeds (it plays them too).
    const training = batterySeedLists(getFamily('P1'), { seeds: 2, training: 1 }).training.length;
    expect(serial.views.map((v) => `${v.tier} ${v.seeds}`)).to.deep.equal(serial.textLeaks.map((t) => `${t.tier} ${2 + training}`));
    expect(withoutTimes(parallel)).to.deep.equal(withoutTimes(serial));
  });

  it('holds every seed the battery plays to the view rule by default, on every tier it plays', async function () {
    const { viewSeeds: _, ...rest } = base;
    const r = await verifyAll({ ...rest, instances: [ids[0]], batterySeeds: 2, batteryTraining: 3, concurrency: 1 });
    const p1 = r.views.filter((v) => v.family === 'P1');
    // L1 holds no released instance, but the battery plays it: its first views are checked too.
    expect(p1.map((v) => v.tier).sort()).to.deep.equal([...tiersOf(getFamily('P1'))].sort());
    // The two judged seeds and the training seeds the battery fits its strategies on.
    const { judged, training } = batterySeedLists(getFamily('P1'), { seeds: 2, training: 3 });
    expect(judged.length).to.equal(2);
    expect(training.length).to.be.at.least(3);
    expect(p1.every((v) => v.seeds === judged.length + training.length)).to.equal(true);
    expect(r.textLeaks.filter((t) => t.family === 'P1').length).to.equal(tiersOf(getFamily('P1')).length);
  });

  it('generates each seed once for the text-leak check and the view sample of a tier', async function () {
    const calls = await countingGenerations('P4', async () => {
      const { report, views } = await textAndViewRecords('P4', 'L1', { textSeeds: 4, viewSeeds: 4 });
      expect(report?.seeds).to.equal(4);
      expect(views?.seeds).to.equal(4);
    });
    // Both read seeds 0–3: one generation each, not one per check.
    expect([...calls.entries()].sort((a, b) => a[0] - b[0])).to.deep.equal([[0, 1], [1, 1], [2, 1], [3, 1]]);
  });

  it('a battery job with its text records generates each seed once for all three', async function () {
    const calls = await countingGenerations('P4', async () => {
      const settings = { textSeeds: 3, viewSeeds: 3, batterySeeds: 3, batteryTraining: 1, batterySkipAdaptive: true };
      const result = await runVerifyJob({ kind: 'battery', family: 'P4', tier: 'L1', withText: true }, settings);
      if (result.kind !== 'battery') throw new Error('not a battery result');
      expect(result.text?.report?.seeds).to.equal(3);
      expect(result.cpuSeconds.length).to.equal(2);
      expect(result.report.referenceFailures).to.deep.equal([]);
    });
    const { judged, training } = batterySeedLists(getFamily('P4'), { seeds: 3, training: 1, strategies: [] });
    // Judged seeds (text, view, battery) and training seeds (view, battery): once each.
    for (const seed of [...judged, ...training.slice(0, 1)]) expect(calls.get(seed), `seed ${seed}`).to.equal(1);
    expect([...calls.values()].every((n) => n === 1)).to.equal(true);
  });

  it('refuses an unknown instance before starting any worker', async function () {
    let error: unknown;
    try {
      await verifyAll({ ...base, instances: [...ids, 'P1-L3-sX'], concurrency: 2 });
    } catch (err) {
      error = err;
    }
    expect(error).to.be.instanceOf(SpaceActError);
  });

  describe('hand-out plan', function () {
    const unit = (id: string): VerifyUnit => ({ kind: 'instance', id, family: id.split('-')[0], timeKey: id });
    const units: VerifyUnit[] = [
      ...['A1-L3-s1', 'A1-L5-s1', 'B1-L3-s1', 'B1-L5-s1', 'C1-L3-s1'].map(unit),
      { kind: 'battery', family: 'A1', tier: 'L3', timeKey: 'battery A1-L3' },
    ];
    const jobsOf = (plan: ReturnType<typeof planJobs>): string[] =>
      plan.map(({ job }) => (job.kind === 'instances' ? job.ids.join('+') : `battery ${job.family}-${job.tier}`));

    it('keeps a family in one job and hands out the longest first, by the recorded times', function () {
      const times = new Map([['A1-L3-s1', 1], ['A1-L5-s1', 2], ['B1-L3-s1', 3], ['B1-L5-s1', 4], ['C1-L3-s1', 5], ['battery A1-L3', 6]]);
      const plan = planJobs(units, 2, times);
      expect(jobsOf(plan)).to.deep.equal(['B1-L3-s1+B1-L5-s1', 'battery A1-L3', 'C1-L3-s1', 'A1-L3-s1+A1-L5-s1']);
      // Every record belongs to exactly one job.
      expect(plan.flatMap((p) => p.units).sort()).to.deep.equal([0, 1, 2, 3, 4, 5]);
    });

    it('puts a tier\'s text-leak check and view sample in its battery job', function () {
      const withText: VerifyUnit[] = [
        ...units,
        { kind: 'text', family: 'A1', tier: 'L3', timeKey: 'text A1-L3' },
        { kind: 'text', family: 'A1', tier: 'L5', timeKey: 'text A1-L5' },
        { kind: 'text', family: 'A1', tier: 'L5', lever: 'occ', timeKey: 'text A1-L5+occ' },
      ];
      const plan = planJobs(withText, 2, new Map([['battery A1-L3', 6]]));
      // A1-L3 has a battery: its text unit (6) rides with it (5), text record first. A1-L5 and the
      // lever study have none: their text units stay jobs of their own.
      expect(plan.find((p) => p.job.kind === 'battery')).to.deep.equal({ job: { kind: 'battery', family: 'A1', tier: 'L3', withText: true }, units: [6, 5] });
      expect(plan.filter((p) => p.job.kind === 'text').map((p) => p.units)).to.have.deep.members([[7], [8]]);
      expect(plan.flatMap((p) => p.units).sort((a, b) => a - b)).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    });

    it('plays a tier that draws its worlds from another in that tier\'s battery job, after it', function () {
      const tiers: VerifyUnit[] = [
        { kind: 'battery', family: 'P2', tier: 'L3', timeKey: 'battery P2-L3' },
        { kind: 'battery', family: 'P2', tier: 'L5', timeKey: 'battery P2-L5' },
        { kind: 'battery', family: 'P2', tier: 'L7', after: 'L5', timeKey: 'battery P2-L7' },
        { kind: 'text', family: 'P2', tier: 'L3', timeKey: 'text P2-L3' },
        { kind: 'text', family: 'P2', tier: 'L5', timeKey: 'text P2-L5' },
        { kind: 'text', family: 'P2', tier: 'L7', timeKey: 'text P2-L7' },
        // Its tier is not in the run: a job of its own.
        { kind: 'battery', family: 'P1', tier: 'L7', after: 'L5', timeKey: 'battery P1-L7' },
      ];
      const plan = planJobs(tiers, 2, new Map([['battery P2-L3', 50], ['battery P2-L5', 30], ['battery P2-L7', 30], ['battery P1-L7', 40]]));
      expect(plan.map((p) => p.job)).to.deep.equal([
        { kind: 'battery', family: 'P2', tier: 'L5', withText: true, then: ['L7'] },
        { kind: 'battery', family: 'P2', tier: 'L3', withText: true },
        { kind: 'battery', family: 'P1', tier: 'L7' },
      ]);
      // Each tier's text record, then its battery, in the order the worker sends them.
      expect(plan[0].units).to.deep.equal([4, 1, 5, 2]);
      expect(plan.flatMap((p) => p.units).sort((a, b) => a - b)).to.deep.equal([0, 1, 2, 3, 4, 5, 6]);
    });

    it("splits a family longer than a worker's share, and puts unmeasured battery tiers first", function () {
      const times = new Map([['A1-L3-s1', 1], ['A1-L5-s1', 1], ['B1-L3-s1', 9], ['B1-L5-s1', 8], ['C1-L3-s1', 1]]);
      expect(jobsOf(planJobs(units, 2, times))).to.deep.equal(['battery A1-L3', 'B1-L3-s1', 'B1-L5-s1', 'A1-L3-s1+A1-L5-s1', 'C1-L3-s1']);
    });
  });
});

/**
 * Runs `fn` with the registered family's generator counting its calls by seed (the real
 * generator still runs), and closes the view browser it may have started; returns the counts.
 */
async function countingGenerations(familyId: string, fn: () => Promise<void>): Promise<Map<number, number>> {
  const family = getFamily(familyId) as TaskFamily;
  const generate = family.generate;
  const calls = new Map<number, number>();
  family.generate = (seed, tier, ...rest) => {
    calls.set(seed, (calls.get(seed) ?? 0) + 1);
    return generate.call(family, seed, tier, ...rest);
  };
  try {
    await fn();
  } finally {
    family.generate = generate;
    await closeViewRenderer();
  }
  return calls;
}
