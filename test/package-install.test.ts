import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package as someone outside the checkout gets it (issue 33): `npm pack` (which builds
 * `dist/` first), the tarball installed into an empty project with install scripts off, then a
 * plain `node` script there — no tsx, no path into the repository — that imports `spaceact` and
 * `spaceact/verify` by name, generates an instance, plays its reference through the real loop
 * (real Rapier, real Chromium) and prints what happened. The installed CLI answers too.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

const CONSUMER_SCRIPT = `
import { getFamily, runInstances, parseMode } from 'spaceact';
import { solveExactCover } from 'spaceact/verify';
const instance = getFamily('P6').generate(100, 'L3');
const summary = await runInstances({ instances: [instance.id], agent: { name: 'reference', options: {} }, mode: parseMode('default'), out: process.argv[2] });
const e = summary.episodes[0];
console.log(JSON.stringify({ id: instance.id, solved: e.solved, actions: e.actions, referenceActions: e.referenceActions, exactCover: typeof solveExactCover }));
`;

describe('the packed package, installed into an empty project', function () {
  let work = '';
  before(function () {
    work = mkdtempSync(join(tmpdir(), 'spaceact-pack-'));
  });
  after(function () {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('installs without a browser download and runs a reference episode from plain Node, by package name', function () {
    const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const files = packed[0].files.map((f) => f.path);
    expect(files, 'the compiled entry and its types').to.include.members(['dist/index.js', 'dist/index.d.ts', 'dist/verify/index.js', 'bin/spaceact.mjs']);
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')), 'no TypeScript sources in the tarball').to.deep.equal([]);

    const project = join(work, 'consumer');
    execFileSync('mkdir', ['-p', project]);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    execFileSync('npm', ['install', join(work, packed[0].filename), '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    expect(existsSync(join(project, 'node_modules', 'tsx')), 'tsx is for development only').to.equal(false);
    expect(existsSync(join(project, 'node_modules', 'puppeteer')), 'puppeteer (with its browser download) is not installed').to.equal(false);
    expect(existsSync(join(project, 'node_modules', 'spaceact', 'dist', 'index.js'))).to.equal(true);

    writeFileSync(join(project, 'play.mjs'), CONSUMER_SCRIPT);
    const out = execFileSync(process.execPath, ['play.mjs', join(work, 'run')], { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const result = JSON.parse(out.trim().split('\n').at(-1)!) as { id: string; solved: boolean; actions: number; referenceActions: number; exactCover: string };
    expect(result).to.deep.include({ id: 'P6-L3-s100', solved: true, exactCover: 'function' });
    expect(result.actions).to.equal(result.referenceActions);
    expect(existsSync(join(work, 'run', 'summary.json'))).to.equal(true);

    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    const cli = execFileSync(process.execPath, [join(project, 'node_modules', 'spaceact', 'bin', 'spaceact.mjs'), '--version'], { cwd: project, encoding: 'utf8' });
    expect(cli.trim()).to.equal(version);
  });

  // After the test above, dist/ holds the build `npm pack` made; a run of this test alone builds it.
  it('npm run docs writes the API reference of both entries from the built declarations, TSDoc included', function () {
    const out = join(work, 'api');
    const args = [join(ROOT, 'scripts', 'docs.mjs'), '--out', out];
    if (existsSync(join(ROOT, 'dist', 'index.d.ts')) && existsSync(join(ROOT, 'dist', 'verify', 'index.d.ts'))) args.push('--no-build');
    const said = execFileSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(said).to.equal('');
    const front = readFileSync(join(out, 'spaceact.md'), 'utf8');
    for (const name of ['instanceFromId', 'familyAndInstanceFromId', 'runEpisode', 'verifyInstances', 'World', 'Renderer', 'verify']) expect(front, name).to.include(`](./spaceact.${name.toLowerCase()}.md)`);
    // The function's page carries its signature and its TSDoc text.
    const page = readFileSync(join(out, 'spaceact.instancefromid.md'), 'utf8');
    expect(page).to.match(/export declare function instanceFromId\(id: string\): Instance;/);
    expect(page).to.include('The instance an id names');
    // spaceact/verify, the author's toolkit, as the namespace `verify`.
    expect(readFileSync(join(out, 'spaceact.verify.md'), 'utf8')).to.include('](./spaceact.verify.solveexactcover.md)');
  });
});
