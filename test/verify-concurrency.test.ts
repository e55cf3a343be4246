/**
 * `verify --concurrency N`: the same selection verified in this process and in two worker
 * processes gives the same records in the same order (only the `seconds` fields may differ),
 * the battery included; a bad selection fails before any worker starts.
 */
import { expect } from 'chai';
import { SpaceActError } from '../core/errors.ts';
import { getFamily, tiersOf } from '../tasks/registry.ts';
import { releasedInstances } from '../tasks/suites.ts';
import { verifyAll, type VerifyAllOptions, type VerifyAllResult } from '../verify/verify-all.ts';

/** The records with every `seconds` field removed (the only thing timing may change). */
function withoutTimes(r: VerifyAllResult): unknown {
  return JSON.parse(JSON.stringify(r, (k, v: unknown) => (k === 'seconds' ? undefined : v)));
}

describe('verify --concurrency', function () {
  const ids = ['P1', 'P2'].flatMap((f) => releasedInstances(f));
  const base: Omit<VerifyAllOptions, 'concurrency'> = {
    instances: ids,
    randomSeeds: 2,
    randomTurns: 6,
    batterySeeds: 1,
    batteryTraining: 1,
    batteryFamilies: ['P1'],
  };

  it('gives the serial records, in the serial order, with two worker processes', async function () {
    const seenSerial: string[] = [];
    const seenParallel: string[] = [];
    const serial = await verifyAll({ ...base, concurrency: 1, onResult: (r) => seenSerial.push(r.instance), onBatteryReport: (r) => seenSerial.push(`${r.family}-${r.tier}`) });
    const parallel = await verifyAll({ ...base, concurrency: 2, onResult: (r) => seenParallel.push(r.instance), onBatteryReport: (r) => seenParallel.push(`${r.family}-${r.tier}`) });
    expect(serial.instances.map((r) => r.instance)).to.deep.equal(ids);
    expect(serial.battery.map((r) => r.tier)).to.deep.equal(tiersOf(getFamily('P1')));
    expect(seenParallel).to.deep.equal(seenSerial);
    expect(withoutTimes(parallel)).to.deep.equal(withoutTimes(serial));
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
});
