import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SpaceActError } from '../core/errors.ts';
import { parseInstanceId, type Tier } from '../core/catalog.ts';
import { families, getFamily, familyAndInstanceFromId } from '../tasks/registry.ts';
import { defaultReleasedInstances, FIXTURE_INSTANCES_DIR, fixtureInstanceIds } from '../tasks/suites.ts';
import type { Instance, ReferenceSolution } from '../tasks/types.ts';
import { firstDifference } from './json-difference.ts';
import { runReference } from './verify.ts';
import { Renderer } from '../render/renderer.ts';
import { TaskEnv } from '../tasks/env.ts';
import { checkFirstView } from '../tasks/view-rule.ts';

export { firstDifference } from './json-difference.ts';

/** Version of the fixture file layout; bumped when a field changes meaning. */
export const FIXTURE_FORMAT = 1;

/**
 * One checked-in released instance: the generated instance, its reference solution, and the
 * golden state hash the reference episode ends in. Everything in it is regenerated and
 * compared by `spaceact fixtures --check`.
 */
export interface FixtureRecord {
  format: number;
  id: string;
  family: string;
  familyVersion: number;
  seed: number;
  tier: Tier;
  instance: Instance;
  reference: { calls: ReferenceSolution['calls']; optimal: boolean; unique: boolean; method: string };
  /** Non-perception actions of the reference (what a 100-point episode may use). */
  referenceActions: number;
  /** State hash after the reference episode's last turn. */
  goldenStateHash: string;
}

/** Path of an instance's fixture file. */
export function fixtureFile(id: string, root: string = FIXTURE_INSTANCES_DIR): string {
  return join(root, parseInstanceId(id).family, `${id}.json`);
}

/**
 * Builds the fixture record of an instance by generating it and playing its reference
 * through the episode loop. Throws `invalid-state` when the reference does not verify.
 */
export async function buildFixture(id: string): Promise<FixtureRecord> {
  const { family, instance } = familyAndInstanceFromId(id);
  const run = await runReference(family, instance);
  if (run.problem) throw new SpaceActError('invalid-state', `${id}: ${run.problem}`, { instance: id });
  return {
    format: FIXTURE_FORMAT,
    id,
    family: family.id,
    familyVersion: family.version,
    seed: instance.seed,
    tier: instance.tier,
    instance,
    reference: {
      calls: run.solution.calls,
      optimal: run.solution.optimal ?? false,
      unique: run.solution.unique ?? false,
      method: run.solution.method,
    },
    referenceActions: run.referenceActions,
    goldenStateHash: run.outcome.finalStateHash,
  };
}

/** Outcome of writing or checking one fixture. */
export interface FixtureReport {
  id: string;
  ok: boolean;
  /** What is wrong (check) or why it was not written (write). */
  problem?: string;
  file: string;
}

/**
 * The ids `fixtures --write` (re)writes for a family: those checked in and the default released
 * set, so a first write that failed on some instances writes them on the next run too.
 */
export function fixtureIdsToWrite(familyId: string, root: string = FIXTURE_INSTANCES_DIR): string[] {
  const existing = fixtureInstanceIds(familyId, root);
  return [...new Set([...existing, ...defaultReleasedInstances(familyId)])];
}

/**
 * Writes the fixture files of the given families' released instances (default: every
 * registered family). An instance whose reference does not verify, or whose first view breaks
 * the view rule (`tasks/view-rule.ts`, measured in a headless browser this call starts and
 * closes), is not written.
 */
export async function writeFixtures(
  opts: { families?: string[]; root?: string; onReport?(r: FixtureReport): void } = {},
): Promise<FixtureReport[]> {
  const root = opts.root ?? FIXTURE_INSTANCES_DIR;
  const fams = (opts.families ?? families().map((f) => f.id)).map((id) => getFamily(id).id);
  const reports: FixtureReport[] = [];
  let renderer: Renderer | null = null;
  try {
    for (const fid of fams) {
      for (const id of fixtureIdsToWrite(fid, root)) {
        const file = fixtureFile(id, root);
        let report: FixtureReport;
        try {
          const record = await buildFixture(id);
          renderer ??= new Renderer({ frameCache: 0 });
          const view = await firstViewProblems(id, renderer);
          if (view.length) throw new SpaceActError('invalid-state', `${id}: the first view breaks the view rule: ${view.join('; ')}`, { instance: id });
          mkdirSync(join(root, fid), { recursive: true });
          writeFileSync(`${file}.tmp`, JSON.stringify(record, null, 2) + '\n');
          renameSync(`${file}.tmp`, file);
          report = { id, ok: true, file };
        } catch (err) {
          if (!(err instanceof SpaceActError)) throw err;
          report = { id, ok: false, problem: err.message, file };
        }
        reports.push(report);
        opts.onReport?.(report);
      }
    }
  } finally {
    await renderer?.close();
  }
  return reports;
}

/** The view rule's problems with an instance's first view (empty when it holds). */
async function firstViewProblems(id: string, renderer: Renderer): Promise<string[]> {
  const { family, instance } = familyAndInstanceFromId(id);
  const env = await TaskEnv.create(family, instance);
  try {
    return (await checkFirstView(env, renderer)).problems;
  } finally {
    env.free();
  }
}

/**
 * Regenerates every checked-in fixture and compares it field by field (the golden hash by
 * replaying the reference), then holds each matching instance's first view to the view rule, as
 * `--write` does (`viewRule: false` leaves the browser out; a function picks the ids to hold to it). Also fails on a registered family
 * with no fixtures, and on files that belong to no registered family or are not instance files.
 */
export async function checkFixtures(
  opts: { families?: string[]; root?: string; viewRule?: boolean | ((id: string) => boolean); onReport?(r: FixtureReport): void } = {},
): Promise<FixtureReport[]> {
  let renderer: Renderer | null = null;
  try {
    return await checkFixturesWith(opts, async () => (renderer ??= new Renderer({ frameCache: 0 })));
  } finally {
    await (renderer as Renderer | null)?.close();
  }
}

async function checkFixturesWith(
  opts: { families?: string[]; root?: string; viewRule?: boolean | ((id: string) => boolean); onReport?(r: FixtureReport): void },
  rendererFor: () => Promise<Renderer>,
): Promise<FixtureReport[]> {
  const root = opts.root ?? FIXTURE_INSTANCES_DIR;
  const registered = new Set(families().map((f) => f.id));
  const fams = (opts.families ?? [...registered]).map((id) => getFamily(id).id);
  const reports: FixtureReport[] = [];
  const report = (r: FixtureReport): void => {
    reports.push(r);
    opts.onReport?.(r);
  };
  if (!opts.families && existsSync(root)) {
    for (const dir of readdirSync(root).sort()) {
      if (!registered.has(dir)) report({ id: dir, ok: false, file: join(root, dir), problem: `fixtures for "${dir}", which is not a registered family` });
    }
  }
  for (const fid of fams) {
    const folder = join(root, fid);
    const ids = fixtureInstanceIds(fid, root);
    if (existsSync(folder)) {
      for (const f of readdirSync(folder).sort()) {
        if (!ids.includes(f.replace(/\.json$/, ''))) report({ id: f, ok: false, file: join(folder, f), problem: `${fid}/${f} is not an instance file of ${fid}` });
      }
    }
    if (ids.length === 0) {
      report({ id: fid, ok: false, file: folder, problem: `${fid} has no fixtures; run: spaceact fixtures --write --family ${fid}` });
      continue;
    }
    for (const id of ids) {
      const file = fixtureFile(id, root);
      let stored: unknown;
      try {
        stored = JSON.parse(readFileSync(file, 'utf8'));
      } catch (err) {
        report({ id, ok: false, file, problem: `${id}: ${file} is not valid JSON (${(err as Error).message})` });
        continue;
      }
      let fresh: FixtureRecord;
      try {
        fresh = await buildFixture(id);
      } catch (err) {
        if (!(err instanceof SpaceActError)) throw err;
        report({ id, ok: false, file, problem: err.message });
        continue;
      }
      const diff = firstDifference(stored, fresh);
      const hint = `if the change is intended: spaceact fixtures --write --family ${fid}`;
      if (diff) {
        report({ id, ok: false, file, problem: `${id}: ${diff} (${hint})` });
        continue;
      }
      const viewed = typeof opts.viewRule === 'function' ? opts.viewRule(id) : opts.viewRule !== false;
      const view = viewed ? await firstViewProblems(id, await rendererFor()) : [];
      report(view.length ? { id, ok: false, file, problem: `${id}: the first view breaks the view rule: ${view.join('; ')}` } : { id, ok: true, file });
    }
  }
  return reports;
}
