/**
 * `verify --checkpoint FILE`: a verification interrupted part-way goes on from its file, with the
 * records of an uninterrupted run, computing only what the file does not hold; a file of
 * another verification is refused and left as it is.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpaceActError } from '../core/errors.ts';
import { CHECKPOINT_FORMAT } from '../verify/checkpoint.ts';
import { verifyAll, type VerifyAllOptions, type VerifyAllResult } from '../verify/verify-all.ts';
import { SMALL_VERIFICATION } from './support/verify-selection.ts';

/** The records without what timing may change. */
const TIMED = new Set(['seconds', 'cpuSeconds', 'referenceSeconds', 'gaveUp']);
function withoutTimes(r: VerifyAllResult): unknown {
  return JSON.parse(JSON.stringify(r, (k, v: unknown) => (TIMED.has(k) ? undefined : v)));
}

const SELECTION = SMALL_VERIFICATION;
const RECORDS = 3 + 4 + 4;

/** The file cut after `keep` records, with half of the next record's line (an interruption mid-write). */
function interrupted(path: string, keep: number): void {
  const lines = readFileSync(path, 'utf8').split('\n');
  const next = lines[1 + keep];
  writeFileSync(path, [...lines.slice(0, 1 + keep), next.slice(0, Math.floor(next.length / 2))].join('\n'));
}

describe('verify --checkpoint', function () {
  this.timeout(900_000);
  let dir: string;
  let whole: VerifyAllResult;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'spaceact-checkpoint-'));
    whole = await verifyAll(SELECTION);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps every record as it is made, and a second run takes them all back', async () => {
    const file = join(dir, 'all.jsonl');
    let resumed = -1;
    const first = await verifyAll({ ...SELECTION, checkpoint: file, onResumed: (n) => (resumed = n) });
    expect(resumed).to.equal(0);
    expect(withoutTimes(first)).to.deep.equal(withoutTimes(whole));
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(JSON.parse(lines[0])).to.include({ format: CHECKPOINT_FORMAT, records: RECORDS });
    expect(lines.length).to.equal(1 + RECORDS);
    const reported: string[] = [];
    const again = await verifyAll({ ...SELECTION, checkpoint: file, onResumed: (n) => (resumed = n), onResult: (r) => reported.push(r.instance), onBatteryReport: (r) => reported.push(r.tier) });
    expect(resumed).to.equal(RECORDS);
    // Taken back records are reported as made ones are, in the serial order.
    expect(reported).to.deep.equal([...SELECTION.instances, 'L1', 'L3', 'L5', 'L7']);
    expect(withoutTimes(again)).to.deep.equal(withoutTimes(first));
    // Nothing was made again: even the measured seconds are the first run's.
    expect(again.instances.map((r) => r.seconds)).to.deep.equal(first.instances.map((r) => r.seconds));
    expect(again.battery.map((r) => r.seconds)).to.deep.equal(first.battery.map((r) => r.seconds));
    expect(readFileSync(file, 'utf8').trimEnd().split('\n').length).to.equal(1 + RECORDS);
  });

  it('goes on after an interruption in the battery, in this process, with the records of an uninterrupted run', async () => {
    const file = join(dir, 'serial.jsonl');
    await verifyAll({ ...SELECTION, checkpoint: file });
    // Instances, text records and B1-L1's battery done; L3's line cut off half-way.
    interrupted(file, 8);
    let resumed = -1;
    const rest = await verifyAll({ ...SELECTION, checkpoint: file, onResumed: (n) => (resumed = n) });
    expect(resumed).to.equal(8);
    expect(withoutTimes(rest)).to.deep.equal(withoutTimes(whole));
    // The torn line is left as a line of its own that is never read; every record is in the file once.
    const kept = readFileSync(file, 'utf8').split('\n').slice(1).flatMap((l) => {
      try {
        return [JSON.parse(l) as { at: number }];
      } catch {
        return [];
      }
    });
    expect(kept.map((l) => l.at).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: RECORDS }, (_, i) => i));
  });

  it('goes on with two worker processes, planning only what the file lacks', async () => {
    const file = join(dir, 'parallel.jsonl');
    await verifyAll({ ...SELECTION, checkpoint: file });
    interrupted(file, 4);
    // A record whose key does not match its place is not taken back (it is made again).
    const lines = readFileSync(file, 'utf8').split('\n');
    const forged = JSON.parse(lines[1]) as { key: string };
    lines[1] = JSON.stringify({ ...forged, key: 'instance B1-L7-s100' });
    writeFileSync(file, lines.join('\n'));
    let resumed = -1;
    const rest = await verifyAll({ ...SELECTION, concurrency: 2, checkpoint: file, onResumed: (n) => (resumed = n) });
    expect(resumed).to.equal(3);
    expect(withoutTimes(rest)).to.deep.equal(withoutTimes(whole));
  });

  it('refuses the file of another verification, or a file that is not a checkpoint, and leaves it as it is', async () => {
    const file = join(dir, 'other.jsonl');
    await verifyAll({ ...SELECTION, instances: ['B1-L3-s100'], batterySeeds: 0, checkpoint: file });
    const before = readFileSync(file, 'utf8');
    const refusal = async (opts: VerifyAllOptions): Promise<SpaceActError> => {
      try {
        await verifyAll(opts);
      } catch (err) {
        return err as SpaceActError;
      }
      throw new Error('not refused');
    };
    const otherOptions = await refusal({ ...SELECTION, instances: ['B1-L3-s100'], batterySeeds: 0, randomSeeds: 2, checkpoint: file });
    expect(otherOptions).to.be.instanceOf(SpaceActError);
    expect(otherOptions.message).to.match(/written by a verification with other options or another selection/);
    const otherSelection = await refusal({ ...SELECTION, instances: ['B1-L5-s100'], batterySeeds: 0, checkpoint: file });
    expect(otherSelection.message).to.match(/another selection/);
    expect(readFileSync(file, 'utf8')).to.equal(before);
    const notOne = join(dir, 'notes.txt');
    writeFileSync(notOne, 'my notes\n');
    expect((await refusal({ ...SELECTION, checkpoint: notOne })).message).to.match(/not a verification checkpoint/);
    expect(readFileSync(notOne, 'utf8')).to.equal('my notes\n');
  });

  it('the CLI says how many records it took back', () => {
    const file = join(dir, 'cli.jsonl');
    const args = ['bin/spaceact.mjs', 'verify', '--instance', 'B1-L3-s100', '--random-seeds', '0', '--text-seeds', '1', '--view-seeds', '0', '--checkpoint', file];
    const first = spawnSync('node', args, { encoding: 'utf8' });
    expect(first.status, first.stderr).to.equal(0);
    expect(first.stderr).to.not.match(/resumed/);
    const second = spawnSync('node', args, { encoding: 'utf8' });
    expect(second.status, second.stderr).to.equal(0);
    expect(second.stderr).to.include(`resumed 2 of 2 records from ${file}`);
    expect(second.stdout).to.include('1/1 verified');
  });
});
