import { expect } from 'chai';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transformSync } from 'esbuild';
import { SpaceActError } from '../core/errors.ts';
import { assertInstance } from '../tasks/instance-schema.ts';
import { FAMILY_ROLE_FILES } from '../tasks/family-layout.ts';
import { tiersOf } from '../tasks/registry.ts';
import type { TaskFamily } from '../tasks/types.ts';
import { createFamily, registerInSource, slugify } from '../verify/new-family.ts';
import { runNullPolicy, runReference, verifyInstance } from '../verify/verify.ts';
import { Renderer } from '../render/renderer.ts';
import { TaskEnv } from '../tasks/env.ts';
import { checkFirstView } from '../tasks/view-rule.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** An id no catalog family uses; the folder is removed after the tests. */
const ID = 'P97';
const DIR = join(ROOT, 'tasks', 'puzzles', 'p97-template-check');

describe('spaceact new-family (template)', () => {
  const renderer = new Renderer();
  before(() => rmSync(DIR, { recursive: true, force: true }));
  after(async () => {
    rmSync(DIR, { recursive: true, force: true });
    await renderer.close();
  });

  it('writes a family that passes the check-suite checks (the view rule too) and verify as it stands', async () => {
    const r = createFamily({ id: ID, category: 'P', title: 'Template check', register: false });
    expect(r.dir).to.equal('tasks/puzzles/p97-template-check');
    expect(r.files).to.deep.equal(FAMILY_ROLE_FILES.map((f) => `tasks/puzzles/p97-template-check/${f}`));
    expect(readdirSync(DIR).sort()).to.deep.equal([...FAMILY_ROLE_FILES].sort());
    expect(r.registered).to.equal(false);
    expect(r.importLine).to.equal("import { p97TemplateCheck } from './puzzles/p97-template-check/family.ts';");
    const mod = (await import(pathToFileURL(join(DIR, 'family.ts')).href)) as Record<string, TaskFamily>;
    const family = mod[r.exportName];
    expect(family.id).to.equal(ID);
    expect(tiersOf(family)).to.deep.equal(['L1', 'L3', 'L5']);
    for (const tier of tiersOf(family)) {
      const instance = family.generate(100, tier);
      expect(family.generate(100, tier)).to.deep.equal(instance);
      expect(JSON.stringify(family.generate(101, tier).scene)).to.not.equal(JSON.stringify(instance.scene));
      assertInstance(instance, instance.id);
      const run = await runReference(family, instance);
      expect(run.problem, run.problem ?? '').to.equal(null);
      expect(run.outcome.solved).to.equal(true);
      expect(run.solution.optimal).to.equal(true);
      expect((await runNullPolicy(family, instance)).solved).to.equal(false);
      const env = await TaskEnv.create(family, instance);
      try {
        expect((await checkFirstView(env, renderer)).problems).to.deep.equal([]);
      } finally {
        env.free();
      }
    }
    const v = await verifyInstance(family, family.generate(100, 'L5'), { randomSeeds: 2, randomTurns: 5 });
    expect(v.failures ?? [], (v.failures ?? []).join('\n')).to.deep.equal([]);
    expect(v.verified).to.equal(true);
  });

  it('refuses a bad id, a mismatched category, a bad title and an existing family, writing nothing', () => {
    const before = readdirSync(join(ROOT, 'tasks'));
    const bad = (opts: Parameters<typeof createFamily>[0], re: RegExp): void => {
      expect(() => createFamily({ ...opts, register: false })).to.throw(SpaceActError, re);
    };
    bad({ id: '7P', category: 'P' }, /not a family id/);
    // As the CLI calls it without --category (the id's first letter): a bad id is named as such.
    bad({ id: '7P', category: '7' }, /"7P" is not a family id \(a letter and a number, e\.g\. P7\)/);
    bad({ id: 'M9', category: 'P' }, /category letter P/);
    bad({ id: 'P9', category: 'Q' }, /category must be one of/);
    bad({ id: 'P9', category: 'P', title: 'a `${x}` title' }, /title/);
    bad({ id: 'P6', category: 'P' }, /already has a folder/);
    expect(readdirSync(join(ROOT, 'tasks'))).to.deep.equal(before);
  });

  it('registers into a copy of tasks/registry.ts: the import and the FAMILIES entry, valid TypeScript', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'spaceact-newfam-'));
    try {
      const source = readFileSync(join(ROOT, 'tasks', 'registry.ts'), 'utf8');
      const line = "import { p97TemplateCheck } from './puzzles/p97-template-check/family.ts';";
      const edited = registerInSource(source, line, 'p97TemplateCheck');
      expect(edited).to.contain(line);
      expect(edited.slice(edited.indexOf('export const FAMILIES'))).to.match(/p97TemplateCheck/);
      expect(edited.split('\n').length).to.equal(source.split('\n').length + 1 + (/\[\s*\n/.test(source.slice(source.indexOf('export const FAMILIES'))) ? 1 : 0));
      expect(() => transformSync(edited, { loader: 'ts' })).to.not.throw();
      expect(() => registerInSource(edited, line, 'p97TemplateCheck')).to.throw(SpaceActError, /already/);
      // Both array layouts: one line, and one entry per line with a trailing comma.
      const oneLine = 'import { a } from \'./x/a/family.ts\';\nexport const FAMILIES: readonly TaskFamily[] = [a] as TaskFamily[];\n';
      expect(registerInSource(oneLine, "import { b } from './x/b/family.ts';", 'b')).to.contain('[a, b]');
      const multi = 'import { a } from \'./x/a/family.ts\';\nexport const FAMILIES = [\n  a,\n];\n';
      expect(registerInSource(multi, "import { b } from './x/b/family.ts';", 'b')).to.contain('[\n  a,\n  b,\n]');
      // The command itself, pointed at a scratch root holding a registry copy.
      const scratch = join(tmp, 'tasks');
      mkdirSync(scratch, { recursive: true });
      writeFileSync(join(scratch, 'registry.ts'), source);
      const r = createFamily({ id: 'T9', category: 'T', title: 'Ball drop', root: tmp });
      expect(r.registered).to.equal(true);
      expect(existsSync(join(tmp, 'tasks', 'temporal', 't9-ball-drop', 'family.ts'))).to.equal(true);
      expect(readFileSync(join(scratch, 'registry.ts'), 'utf8')).to.contain("import { t9BallDrop } from './temporal/t9-ball-drop/family.ts';");
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('slugs titles for folder names', () => {
    expect(slugify('Slide the Block, v2 (hard)')).to.equal('slide-the-block-v2-hard');
  });
});

