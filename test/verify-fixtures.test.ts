import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { families } from '../tasks/registry.ts';
import { releasedInstances, suiteInstances } from '../tasks/suites.ts';
import { buildFixture, checkFixtures, firstDifference } from '../verify/fixtures.ts';

describe('fixtures: the checked-in released set', function () {
  // Regenerates every released instance and replays its reference: minutes on a loaded machine.
  this.timeout(900_000);
  it('spaceact fixtures --check: every fixture regenerates identically, golden hashes included', async () => {
    // The check-suite already holds seed 100 of every family × tier to the view rule; here only
    // the released instances it does not play (lever studies, other seeds of a suite) are drawn.
    const inCheckSuite = (id: string): boolean => /^[A-Z]\d-L\d-s100$/.test(id);
    const reports = await checkFixtures({ viewRule: (id) => !inCheckSuite(id) });
    const bad = reports.filter((r) => !r.ok).map((r) => r.problem);
    expect(bad, bad.join('\n')).to.deep.equal([]);
    // Every registered family's released set is exactly what is checked in.
    const checked = new Set(reports.map((r) => r.id));
    for (const f of families()) for (const id of releasedInstances(f.id)) expect(checked.has(id), id).to.equal(true);
    expect(suiteInstances('all')).to.have.length(reports.length);
  });

  it('names the instance and the first differing field of a changed fixture', async function () {
    const tmp = mkdtempSync(join(tmpdir(), 'spaceact-fixtures-'));
    try {
      const id = 'P6-L3-s100';
      const record = await buildFixture(id);
      mkdirSync(join(tmp, 'P6'));
      const write = (r: unknown): void => writeFileSync(join(tmp, 'P6', `${id}.json`), JSON.stringify(r, null, 2));
      write(record);
      expect((await checkFixtures({ root: tmp, families: ['P6'] })).map((r) => r.ok)).to.deep.equal([true]);

      const moved = structuredClone(record);
      (moved.instance.scene as { target: number }).target = ((record.instance.scene as { target: number }).target + 1) % 3;
      write(moved);
      const [diff] = await checkFixtures({ root: tmp, families: ['P6'] });
      expect(diff.ok).to.equal(false);
      expect(diff.problem).to.match(/^P6-L3-s100: instance\.scene\.target: fixture \d, regenerated \d \(if the change is intended: spaceact fixtures --write --family P6\)$/);

      write({ ...record, goldenStateHash: 'f'.repeat(64) });
      expect((await checkFixtures({ root: tmp, families: ['P6'] }))[0].problem).to.match(/^P6-L3-s100: goldenStateHash: fixture "f{64}", regenerated "[0-9a-f]{64}" \(/);

      writeFileSync(join(tmp, 'P6', 'notes.txt'), 'stray');
      write(record);
      const withStray = await checkFixtures({ root: tmp, families: ['P6'] });
      expect(withStray.filter((r) => !r.ok).map((r) => r.problem)).to.deep.equal(['P6/notes.txt is not an instance file of P6']);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('a registered family with no fixtures fails the check, naming the command that writes them', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'spaceact-fixtures-'));
    try {
      const reports = await checkFixtures({ root: tmp, families: ['P6'] });
      expect(reports.map((r) => r.problem)).to.deep.equal(['P6 has no fixtures; run: spaceact fixtures --write --family P6']);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('firstDifference walks objects in key order and arrays by index', () => {
    expect(firstDifference({ a: 1, b: [1, 2, { c: 'x' }] }, { a: 1, b: [1, 2, { c: 'x' }] })).to.equal(null);
    expect(firstDifference({ a: 1, b: [1, 2, { c: 'x' }] }, { a: 1, b: [1, 2, { c: 'y' }] })).to.equal('b[2].c: fixture "x", regenerated "y"');
    expect(firstDifference({ b: [1, 2] }, { b: [1, 2, 3] })).to.equal('b[2]: fixture missing, regenerated 3 (lengths 2 and 3)');
    expect(firstDifference({ a: 1 }, { a: 1, z: true })).to.equal('z: fixture missing, regenerated true');
    expect(firstDifference({ a: 2, z: 1 }, { a: 3, z: 2 })).to.equal('a: fixture 2, regenerated 3');
    expect(firstDifference(1, 2)).to.equal('(root): fixture 1, regenerated 2');
  });
});
