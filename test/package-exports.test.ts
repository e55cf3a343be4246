import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './support/import-graph.ts';

describe('package entry points', () => {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { exports: Record<string, string>; files: string[]; bin: Record<string, string> };

  it('every export, bin and listed file of package.json exists', () => {
    const missing = [...Object.values(pkg.exports), ...Object.values(pkg.bin), ...pkg.files].filter((p) => !existsSync(join(REPO_ROOT, p)));
    expect(missing).to.deep.equal([]);
  });

  it("import 'spaceact' gives the library: registry, runner, verification", async () => {
    const lib = await import('spaceact');
    expect(lib.families().map((f) => f.id)).to.include('P6');
    expect(lib.instanceFromId('P6-L1-s3').instance.id).to.equal('P6-L1-s3');
    for (const name of ['runEpisode', 'runInstances', 'verifyInstance', 'writeReport', 'runStatistics', 'parseMode']) expect(lib, name).to.have.property(name).that.is.a('function');
  });

  it("import 'spaceact/verify' gives the polycube toolkit, exact cover and the re-draw helper", async () => {
    const v = await import('spaceact/verify');
    expect(v.countPackings([[[0, 0, 0]], [[0, 0, 0], [1, 0, 0]]], [[0, 0, 0], [1, 0, 0], [2, 0, 0]]).count).to.equal(2);
    expect(v.solveExactCover).to.be.a('function');
    expect(v.generateFiltered).to.be.a('function');
  });
});
