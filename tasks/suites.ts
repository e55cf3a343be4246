import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SpaceActError } from '../core/errors.ts';
import { instanceId, parseInstanceId, TIERS } from '../core/catalog.ts';
import { families, getFamily, tiersOf } from './registry.ts';

/** The seed of the released set and of the main matrix. */
export const RELEASE_SEED = 100;

/** Where the checked-in released instances live: `fixtures/instances/<FAMILY>/<id>.json`. */
export const FIXTURE_INSTANCES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'instances');

/**
 * The default released instances of a family: its three hardest tiers at the release seed
 * (all its tiers if it has fewer than three). `spaceact fixtures --write` checks these in.
 */
export function defaultReleasedInstances(familyId: string): string[] {
  const f = getFamily(familyId);
  return tiersOf(f).slice(-3).map((t) => instanceId(f.id, t, RELEASE_SEED));
}

/** Instance ids checked in under `dir/<FAMILY>/`, easiest tier first (empty when none). */
export function fixtureInstanceIds(familyId: string, dir: string = FIXTURE_INSTANCES_DIR): string[] {
  const folder = join(dir, familyId);
  if (!existsSync(folder)) return [];
  const ids: string[] = [];
  for (const file of readdirSync(folder)) {
    if (!file.endsWith('.json')) continue;
    const id = file.slice(0, -'.json'.length);
    try {
      if (parseInstanceId(id).family === familyId) ids.push(id);
    } catch {
      // Not an instance file; `spaceact fixtures --check` reports stray files.
    }
  }
  const order = (id: string): [number, number] => {
    const p = parseInstanceId(id);
    return [TIERS.indexOf(p.tier), p.seed];
  };
  return ids.sort((a, b) => order(a)[0] - order(b)[0] || order(a)[1] - order(b)[1]);
}

/**
 * The released instances of a family: the ones checked in under `fixtures/instances/`, or,
 * before any are, the default set ({@link defaultReleasedInstances}).
 */
export function releasedInstances(familyId: string): string[] {
  const f = getFamily(familyId);
  const checkedIn = fixtureInstanceIds(f.id);
  return checkedIn.length ? checkedIn : defaultReleasedInstances(f.id);
}

/**
 * Named instance lists: `main` is the hardest released instance of every family (its hardest
 * tier at the release seed); `all` is the whole released set.
 */
export function suiteInstances(name: string): string[] {
  switch (name) {
    case 'main':
      return families().map((f) => {
        // The hardest released tier, at the release seed when that is checked in.
        const ids = releasedInstances(f.id);
        const hardest = parseInstanceId(ids.at(-1)!).tier;
        const sameTier = ids.filter((id) => parseInstanceId(id).tier === hardest);
        return sameTier.find((id) => parseInstanceId(id).seed === RELEASE_SEED) ?? sameTier[0];
      });
    case 'all':
      return families().flatMap((f) => releasedInstances(f.id));
    default: {
      const owner = families().find((f) => f.suites?.[name]);
      if (owner) return owner.suites![name].instances();
      const named = families().flatMap((f) => Object.keys(f.suites ?? {}));
      throw new SpaceActError('invalid-argument', `unknown suite "${name}"; suites: ${['main', 'all', ...named].join(', ')}`, { suite: name });
    }
  }
}

/** Every instance of the listed families' released sets (ids separated by commas). */
export function familyInstances(list: string): string[] {
  return list.split(',').map((s) => s.trim()).filter(Boolean).flatMap((id) => releasedInstances(id));
}
