/**
 * Every registered family folder has the files by role (`tasks/family-layout.ts`), each holding
 * what its role says, the registration object is assembled from them, and the folder README
 * names every field an instance's scene carries.
 */
import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseInstanceId } from '../core/catalog.ts';
import { FAMILY_ROLE_FILES, familyFolder, TASKS_DIR } from '../tasks/family-layout.ts';
import { families, familyAndInstanceFromId, tiersOf } from '../tasks/registry.ts';
import { FIXTURE_INSTANCES_DIR } from '../tasks/suites.ts';
import type { TaskFamily } from '../tasks/types.ts';

/** Every key of every object inside a scene, at any depth. */
function fieldNames(scene: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(scene)) for (const x of scene) fieldNames(x, into);
  else if (scene && typeof scene === 'object') {
    for (const [k, v] of Object.entries(scene)) {
      into.add(k);
      fieldNames(v, into);
    }
  }
  return into;
}

/** Scenes to read field names from: the released instances, and the first few of each suite the family offers. */
function sampleScenes(family: TaskFamily): unknown[] {
  const scenes: unknown[] = [];
  // Generated scenes of every tier first (a family with no fixtures yet has them too, and a field
  // only some tiers or seeds carry, such as T2's L7 patch, is found), then the fixtures and suites.
  for (const tier of tiersOf(family)) scenes.push(family.generate(101, tier).scene);
  const dir = join(FIXTURE_INSTANCES_DIR, family.id);
  if (existsSync(dir)) for (const f of readdirSync(dir)) scenes.push((JSON.parse(readFileSync(join(dir, f), 'utf8')) as { instance: { scene: unknown } }).instance.scene);
  for (const suite of Object.values(family.suites ?? {})) {
    for (const id of suite.instances().slice(0, 8)) if (parseInstanceId(id).family === family.id) scenes.push(familyAndInstanceFromId(id).instance.scene);
  }
  return scenes;
}

describe('family folders (one layout by role)', () => {
  it('the layout names the same role files the template writes', () => {
    const templates = readdirSync(join(TASKS_DIR, '..', 'verify', 'templates')).map((f) => f.replace(/\.tmpl$/, ''));
    expect([...templates].sort()).to.deep.equal([...FAMILY_ROLE_FILES].sort());
  });

  // SPACEACT_FAMILIES (as in the check-suite) restricts the run to some families: scripts/check-family.sh.
  const only = (process.env.SPACEACT_FAMILIES ?? '').split(',').map((x) => x.trim().toUpperCase()).filter(Boolean);
  for (const family of families().filter((f) => only.length === 0 || only.includes(f.id))) {
    describe(`${family.id} ${family.title}`, () => {
      const folder = familyFolder(family);

      it('has a folder with every role file', () => {
        expect(folder, `no folder tasks/<category>/${family.id.toLowerCase()}-*`).to.not.equal(null);
        const missing = FAMILY_ROLE_FILES.filter((f) => !existsSync(join(TASKS_DIR, folder!, f)));
        expect(missing, `tasks/${folder}/ lacks ${missing.join(', ')}`).to.deep.equal([]);
      });

      it('is assembled from its role files', async () => {
        const load = async (file: string): Promise<Record<string, unknown>> => (await import(pathToFileURL(join(TASKS_DIR, folder!, file)).href)) as Record<string, unknown>;
        const [fam, generate, episode, solver, filters] = await Promise.all(['family.ts', 'generate.ts', 'episode.ts', 'solver.ts', 'filters.ts'].map(load));
        expect(Object.values(fam), 'family.ts exports the registered family').to.include(family);
        // A family with lever studies (tasks/levers.ts) takes the lever as a fourth argument.
        expect(generate.generate, 'generate.ts exports generate(family, seed, tier[, lever])').to.be.a('function');
        expect((generate.generate as (...a: unknown[]) => unknown).length, 'generate(family, seed, tier[, lever])').to.equal(family.levers && Object.keys(family.levers).length ? 4 : 3);
        expect(family.build, 'the family builds with episode.ts').to.equal(episode.build);
        expect(family.reference, 'the family takes its reference from solver.ts').to.equal(solver.reference);
        expect(family.shortcutFilters, 'the family filters with filters.ts').to.equal(filters.SHORTCUT_FILTERS);
        expect(family.sightless, "the family's sightless strategies are filters.ts's").to.equal(filters.SIGHTLESS);
        if (family.worldOptions) expect(family.worldOptions, 'world options come from episode.ts').to.equal(episode.worldOptions);
      });

      it('documents every scene field in its README', () => {
        const readme = readFileSync(join(TASKS_DIR, folder!, 'README.md'), 'utf8');
        const names = new Set<string>();
        for (const scene of sampleScenes(family)) fieldNames(scene, names);
        expect(names.size, 'no scene to read fields from').to.be.greaterThan(0);
        const undocumented = [...names].filter((n) => !readme.includes(`\`${n}\``)).sort();
        expect(undocumented, `tasks/${folder}/README.md does not name these scene fields (as \`field\`)`).to.deep.equal([]);
        for (const heading of ['## Scene fields', '## Moves and the metric', '## Shortcuts considered']) expect(readme, `README.md lacks "${heading}"`).to.include(heading);
      });
    });
  }
});
