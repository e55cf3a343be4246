import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './support/import-graph.ts';

/** An export's entry points by condition (`./package.json` is a plain path). */
type ExportTarget = string | { 'spaceact-source': string; types: string; default: string };

/**
 * The package's entry points from the sources. An installed package runs the compiled `dist/`
 * (`default` and `types`; tested by packing and installing it, test/package-install.test.ts);
 * the `spaceact-source` condition names the TypeScript each compiled entry is built from, which
 * is what these tests import, so they run on a clean clone before any build.
 */
describe('package entry points', () => {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { exports: Record<string, ExportTarget>; files: string[]; bin: Record<string, string>; types: string; main: string };
  const source = (name: string): string => {
    const t = pkg.exports[name];
    if (typeof t === 'string') throw new Error(`${name} has no conditions`);
    return join(REPO_ROOT, t['spaceact-source']);
  };

  it('every export has its source, compiled and types entry, and every bin and listed file (but the built dist/) exists', () => {
    const built = (p: string): boolean => p.replace(/^\.\//, '').startsWith('dist');
    for (const [name, t] of Object.entries(pkg.exports)) {
      if (typeof t === 'string') continue;
      expect(t.types, name).to.equal(t.default.replace(/\.js$/, '.d.ts'));
      expect(t.default, name).to.equal(`./dist/${t['spaceact-source'].replace(/^\.\//, '').replace(/\.ts$/, '.js')}`);
    }
    expect(pkg.main).to.equal((pkg.exports['.'] as { default: string }).default);
    const listed = [...Object.values(pkg.exports).map((t) => (typeof t === 'string' ? t : t['spaceact-source'])), ...Object.values(pkg.bin), ...pkg.files.filter((f) => !built(f))];
    expect(listed.filter((p) => !existsSync(join(REPO_ROOT, p)))).to.deep.equal([]);
  });

  it("import 'spaceact' gives the library: registry, runner, verification", async () => {
    const lib = (await import(source('.'))) as typeof import('../index.ts');
    expect(lib.families().map((f) => f.id)).to.include('P6');
    expect(lib.familyAndInstanceFromId('P6-L1-s3').instance.id).to.equal('P6-L1-s3');
    for (const name of ['runEpisode', 'runInstances', 'verifyInstance', 'writeReport', 'runStatistics', 'parseMode']) expect(lib, name).to.have.property(name).that.is.a('function');
  });

  it("import 'spaceact/verify' gives the polycube toolkit, exact cover and the re-draw helper", async () => {
    const v = (await import(source('./verify'))) as typeof import('../verify/index.ts');
    expect(v.countPackings([[[0, 0, 0]], [[0, 0, 0], [1, 0, 0]]], [[0, 0, 0], [1, 0, 0], [2, 0, 0]]).count).to.equal(2);
    expect(v.solveExactCover).to.be.a('function');
    expect(v.generateFiltered).to.be.a('function');
    expect(v.solveStatics, 'the brick statics LP').to.be.a('function');
    expect(v.columnFailure(v.farthestColumn([0.2, 0.2], 0, 0.02)!, 0, 0), 'a column built 2 % inside its limit stands').to.equal(null);
  });
});
