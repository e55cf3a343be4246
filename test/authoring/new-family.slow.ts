/**
 * The authoring path end to end, as a new author walks it (issue 28): in a clean clone of this
 * checkout, `spaceact new-family` for the first free id of the construction, assembly and temporal
 * categories (a catalog id while one is unregistered, then the author's own: B7, A7, T7, …), then, untouched, `scripts/check-family.sh`
 * and the full `spaceact verify --family` (100 battery seeds per tier) on each.
 *
 * About half an hour on two cores, so it is not part of `npm test` (kept under 20 minutes);
 * run it with `npm run test:authoring` after changing the template, `new-family`, the
 * check-suite or the battery.
 */
import { expect } from 'chai';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FAMILIES } from '../../tasks/registry.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The first id of a category no family registers: a catalog id (1–6) while one is free, then 7, 8, … */
function firstFreeId(category: string, registered: ReadonlySet<string>): string {
  for (let n = 1; ; n++) if (!registered.has(`${category}${n}`)) return `${category}${n}`;
}

/** Runs a command in `cwd`, resolving with its exit code and the tail of its output. */
function run(cwd: string, cmd: string, args: string[]): Promise<{ code: number | null; tail: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const keep = (d: Buffer): void => {
      out = (out + d.toString()).slice(-6000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('exit', (code) => resolve({ code, tail: out }));
  });
}

describe('the authoring path: new-family for three unregistered ids passes check-family.sh and verify untouched', function () {
  this.timeout(3 * 3600_000);
  const registered = new Set(FAMILIES.map((f) => f.id));
  const ids = ['B', 'A', 'T'].map((c) => firstFreeId(c, registered));
  let clone: string;

  before(() => {
    const tmp = mkdtempSync(join(tmpdir(), 'spaceact-authoring-'));
    clone = join(tmp, 'spaceact');
    execFileSync('git', ['clone', '-q', ROOT, clone]);
    // The clone shares this checkout's installed packages (what `npm ci` would install).
    symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
  });
  after(() => rmSync(dirname(clone), { recursive: true, force: true }));

  for (const [k, category] of ['B', 'A', 'T'].entries()) {
    it(`the first free ${category} id: new-family, check-family.sh and verify pass as written`, async () => {
      const id = ids[k];
      const made = await run(clone, process.execPath, ['bin/spaceact.mjs', 'new-family', id, '--category', category, '--title', `Try ${id}`]);
      expect(made.code, made.tail).to.equal(0);
      const checked = await run(clone, 'scripts/check-family.sh', [id]);
      expect(checked.code, checked.tail).to.equal(0);
      const verified = await run(clone, process.execPath, ['bin/spaceact.mjs', 'verify', '--family', id]);
      expect(verified.code, verified.tail).to.equal(0);
      expect(verified.tail).to.match(/(\d+)\/\1 verified, 0 failed/);
      // Every tier the template defines (three today), none with an agent over its bound.
      expect(verified.tail).to.match(/shortcut battery: (\d+)\/\1 family tiers with no agent significantly over its bound/);
    });
  }
});
