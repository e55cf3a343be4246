import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SpaceActError } from '../core/errors.ts';
import { instanceId, LEVER_BASE_TIER, parseInstanceId, TIERS } from '../core/catalog.ts';
import { listOption } from '../core/options.ts';
import { checkInstanceId, families, getFamily, leversOf, tiersOf } from './registry.ts';
import { PACKAGE_ROOT } from '../core/package-root.ts';

/** The seed of the released set and of the main matrix. */
export const RELEASE_SEED = 100;

/** Where the checked-in released instances live: `fixtures/instances/<FAMILY>/<id>.json`. */
export const FIXTURE_INSTANCES_DIR = join(PACKAGE_ROOT, 'fixtures', 'instances');

/**
 * The default released instances of a family: its three hardest tiers at the release seed
 * (all its tiers if it has fewer than three). `spaceact fixtures --write` checks these in.
 */
export function defaultReleasedInstances(familyId: string): string[] {
  const f = getFamily(familyId);
  return tiersOf(f).slice(-3).map((t) => instanceId(f.id, t, RELEASE_SEED));
}

/**
 * Instance ids checked in under `dir/<FAMILY>/`, easiest tier first (empty when none). A file
 * counts by its content, not its name: it must be a fixture record (`{id, family, tier, seed,
 * instance}`) of this family whose id matches its file name. Anything else there — a copy, an
 * editor's backup, a stray file named like an instance — adds nothing (`spaceact fixtures
 * --check` reports it).
 */
export function fixtureInstanceIds(familyId: string, dir: string = FIXTURE_INSTANCES_DIR): string[] {
  const folder = join(dir, familyId);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) return [];
  const ids: string[] = [];
  for (const file of readdirSync(folder)) {
    if (!file.endsWith('.json')) continue;
    const id = fixtureIdOf(join(folder, file));
    if (id === file.slice(0, -'.json'.length) && parseInstanceId(id).family === familyId) ids.push(id);
  }
  const order = (id: string): [number, number] => {
    const p = parseInstanceId(id);
    return [TIERS.indexOf(p.tier), p.seed];
  };
  return ids.sort((a, b) => order(a)[0] - order(b)[0] || order(a)[1] - order(b)[1]);
}

/** The instance id a fixture file holds, or null when it is not a fixture record. */
function fixtureIdOf(file: string): string | null {
  try {
    if (!statSync(file).isFile()) return null;
    const rec = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown> | null;
    if (!rec || typeof rec !== 'object' || typeof rec.id !== 'string') return null;
    const inst = rec.instance as Record<string, unknown> | undefined;
    if (!inst || typeof inst !== 'object' || inst.id !== rec.id) return null;
    const p = parseInstanceId(rec.id);
    return rec.family === p.family && rec.tier === p.tier && rec.seed === p.seed ? rec.id : null;
  } catch {
    // Unreadable or not JSON or not an id: not a fixture.
    return null;
  }
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
 * The single-factor lever studies (the paper's Appendix C): for every family that supports a
 * lever, each of its released L5 instances followed by the same seed with each supported lever
 * on (`M5-L5-s100`, `M5-L5+tool-s100`), so a run over it pairs every lever instance with its
 * own L5 baseline.
 */
export function leverSuiteInstances(): string[] {
  return families().flatMap((f) => {
    const levers = leversOf(f);
    if (!levers.length) return [];
    const l5 = releasedInstances(f.id).filter((id) => parseInstanceId(id).tier === LEVER_BASE_TIER);
    return l5.flatMap((id) => {
      const { seed } = parseInstanceId(id);
      return [id, ...levers.map((lever) => instanceId(f.id, LEVER_BASE_TIER, seed, lever))];
    });
  });
}

/**
 * Named instance lists: `main` is the hardest released instance of every family (its hardest
 * tier at the release seed); `all` is the whole released set; `levers` the single-factor lever
 * studies ({@link leverSuiteInstances}).
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
    case 'levers':
      return leverSuiteInstances();
    default: {
      const owner = families().find((f) => f.suites?.[name]);
      if (owner) return owner.suites![name].instances();
      throw new SpaceActError('invalid-argument', `unknown suite "${name}"; suites: ${suiteNames().join(', ')}`, { suite: name });
    }
  }
}

/** The instance-selection options every command takes: ids, families' released sets, or a named suite. */
export interface InstanceSelection {
  /** Instance ids, comma-separated. */
  instance?: string;
  /** Family ids, comma-separated: their released instances. */
  family?: string;
  /** A suite name (`main`, `all`, or one a family offers). */
  suite?: string;
}

/**
 * Resolves `--instance`, `--family` and `--suite` into instance ids, the same way for every
 * command: at most one may be given; with none, `fallback` gives the ids (an error when there is
 * no fallback). Ids are checked as they are named, so a typo fails before anything runs.
 */
export function selectInstances(opts: InstanceSelection, fallback?: () => string[]): string[] {
  const given = (['instance', 'family', 'suite'] as const).filter((k) => opts[k] !== undefined);
  if (given.length > 1 || (given.length === 0 && !fallback)) {
    throw new SpaceActError('invalid-argument', fallback ? 'give at most one of --instance, --family or --suite' : 'give exactly one of --instance, --family or --suite');
  }
  if (given.length === 0) return fallback!();
  const values = opts as Record<string, unknown>;
  if (opts.instance !== undefined) {
    const ids = listOption(values, 'instance')!;
    for (const id of ids) checkInstanceId(id);
    return ids;
  }
  if (opts.family !== undefined) return listOption(values, 'family')!.flatMap((id) => releasedInstances(id));
  return suiteInstances(opts.suite!);
}

/** Every suite name `suiteInstances` knows: `main`, `all`, `levers`, then the families' own sets. */
export function suiteNames(): string[] {
  return ['main', 'all', 'levers', ...families().flatMap((f) => Object.keys(f.suites ?? {}))];
}

/** Every instance of the listed families' released sets (ids separated by commas). */
export function familyInstances(list: string): string[] {
  return list.split(',').map((s) => s.trim()).filter(Boolean).flatMap((id) => releasedInstances(id));
}
