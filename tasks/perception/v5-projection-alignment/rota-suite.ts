/**
 * The `rota` suite: 100 V5 instances drawn from a pool of 674 generated L5 tasks (the rotation
 * seed's canonical count) by stratified sampling over reference path length, as the seed
 * selects its test set: tasks with at least four reference rotations are eligible; the 100
 * places are shared among the length groups in proportion to their sizes by Hamilton's
 * largest-remainder method; within a group, tasks are ranked by the SHA-256 of the selection
 * seed and the task id, and the first ones taken.
 *
 * The reference length of every pool task is computed offline by `build-rota-pool.ts` (about
 * a second per task) and checked in as `rota-pool.json`.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SpaceActError } from '../../../core/errors.ts';

/** Where the pool's reference lengths are checked in. */
export const ROTA_POOL_FILE = join(dirname(fileURLToPath(import.meta.url)), 'rota-pool.json');
/** Seeds of the pool: 674 consecutive L5 seeds. */
export const ROTA_POOL_SEEDS: [number, number] = [1000, 1673];
/** Tier of the pool. */
export const ROTA_TIER = 'L5';
/** Places in the suite. */
export const ROTA_SIZE = 100;
/** Shortest reference path eligible for selection. */
export const ROTA_MIN_LENGTH = 4;
/** The selection seed hashed with each task id for the ranking. */
export const ROTA_SELECTION_SEED = 'spaceact-v5-rota-1';

/** One pool task and its verified reference length. */
export interface RotaPoolEntry {
  seed: number;
  /** Rotations in the reference path. */
  length: number;
  /** Which search gave the reference. */
  source: string;
}

/** The checked-in pool file. */
export interface RotaPool {
  family: 'V5';
  /** Family version the lengths were computed with. */
  version: number;
  tier: string;
  entries: RotaPoolEntry[];
}

/**
 * Hamilton's largest-remainder apportionment of `places` among groups of the given sizes:
 * each group gets the floor of its exact quota, and the places left go to the largest
 * fractional remainders (ties to the smaller group key).
 */
export function hamiltonAllocation(sizes: ReadonlyMap<number, number>, places: number): Map<number, number> {
  const total = [...sizes.values()].reduce((s, n) => s + n, 0);
  if (total < places) throw new SpaceActError('invalid-argument', `cannot place ${places} in ${total} items`, { places, total });
  const keys = [...sizes.keys()].sort((a, b) => a - b);
  const out = new Map<number, number>();
  const remainders: Array<{ key: number; rest: number }> = [];
  let given = 0;
  for (const key of keys) {
    // Exact rational quota: places·n/total, kept as integer numerator to avoid float ties.
    const numerator = places * sizes.get(key)!;
    const whole = Math.floor(numerator / total);
    out.set(key, whole);
    given += whole;
    remainders.push({ key, rest: numerator - whole * total });
  }
  remainders.sort((a, b) => b.rest - a.rest || a.key - b.key);
  for (let i = 0; i < places - given; i++) out.set(remainders[i].key, out.get(remainders[i].key)! + 1);
  return out;
}

/** The deterministic rank key of a task: hex SHA-256 of the selection seed and its id. */
export function rankKey(selectionSeed: string, id: string): string {
  return createHash('sha256').update(`${selectionSeed}:${id}`).digest('hex');
}

/** The id of a pool task. */
export function rotaId(seed: number): string {
  return `V5-${ROTA_TIER}-s${seed}`;
}

/** Selects the suite from a pool: eligible tasks, Hamilton allocation, hash ranking. Sorted by length, then rank. */
export function selectRota(entries: readonly RotaPoolEntry[], places = ROTA_SIZE, selectionSeed = ROTA_SELECTION_SEED): string[] {
  const eligible = entries.filter((e) => e.length >= ROTA_MIN_LENGTH);
  const groups = new Map<number, RotaPoolEntry[]>();
  for (const e of eligible) {
    const g = groups.get(e.length) ?? [];
    g.push(e);
    groups.set(e.length, g);
  }
  const quota = hamiltonAllocation(new Map([...groups].map(([k, g]) => [k, g.length])), places);
  const out: string[] = [];
  for (const length of [...groups.keys()].sort((a, b) => a - b)) {
    const ranked = groups
      .get(length)!
      .map((e) => ({ id: rotaId(e.seed), key: rankKey(selectionSeed, rotaId(e.seed)) }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    out.push(...ranked.slice(0, quota.get(length)!).map((r) => r.id));
  }
  return out;
}

/** Reads the checked-in pool, refusing one computed by another family version. */
export function readRotaPool(version: number, file = ROTA_POOL_FILE): RotaPool {
  if (!existsSync(file)) {
    throw new SpaceActError('invalid-state', `the rota pool ${file} is missing: run \`npx tsx tasks/perception/v5-projection-alignment/build-rota-pool.ts\``);
  }
  const pool = JSON.parse(readFileSync(file, 'utf8')) as RotaPool;
  if (pool.version !== version) {
    throw new SpaceActError(
      'invalid-state',
      `the rota pool was computed with V5 version ${pool.version}, this build is version ${version}: rerun build-rota-pool.ts`,
      { file },
    );
  }
  return pool;
}
