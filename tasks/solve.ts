/**
 * Solving a layout of one's own: a scene written by hand (or edited from a generated one) given
 * to a family's solver, after checks that say in one line what is wrong with it. The solver is
 * the family's `reference`, so what comes back is exactly what `verify` certifies for released
 * instances: the calls, their count, and what the search proved.
 */
import { SpaceActError } from '../core/errors.ts';
import { RELEASE_SEED } from './suites.ts';
import { getFamily, tiersOf } from './registry.ts';
import type { Instance, ReferenceSolution, Tier } from './types.ts';

/** Options of {@link solve}. */
export interface SolveOptions {
  /**
   * The tier whose released instance lends the scene its rules, tools and camera (the solver
   * reads only the scene). Default: the first of the family's tiers whose generated scene has
   * the given scene's shape.
   */
  tier?: Tier;
}

function kind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'number') return 'a number';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/**
 * The first way `value` differs in shape from `example` (a scene the family generated): a
 * missing or unexpected field, a value of another kind, a number that is not finite. List items
 * are each compared with the example's first item. Null when the shapes agree.
 */
export function shapeMismatch(example: unknown, value: unknown, path = 'scene'): string | null {
  if (kind(example) !== kind(value)) return `${path} should be ${kind(example)}, not ${kind(value)}`;
  if (typeof value === 'number' && !Number.isFinite(value)) return `${path} should be a finite number`;
  if (Array.isArray(example) && Array.isArray(value)) {
    if (example.length === 0) return null;
    for (let i = 0; i < value.length; i++) {
      const m = shapeMismatch(example[0], value[i], `${path}[${i}]`);
      if (m) return m;
    }
    return null;
  }
  if (kind(example) === 'an object') {
    const e = example as Record<string, unknown>;
    const v = value as Record<string, unknown>;
    for (const k of Object.keys(e)) if (!(k in v)) return `${path}.${k} is missing`;
    for (const k of Object.keys(v)) if (!(k in e)) return `${path}.${k} is not a field of this family's scenes`;
    for (const k of Object.keys(e)) {
      const m = shapeMismatch(e[k], v[k], `${path}.${k}`);
      if (m) return m;
    }
  }
  return null;
}

/**
 * Solves `scene` with family `familyId`'s solver and returns its solution (the calls, and what
 * the search proved about them). The scene is checked first: its fields and their kinds against
 * a scene the family generates, then the family's own `checkScene` where it has one; a scene that
 * fails either is refused with a `SpaceActError` (`invalid-instance`) naming the first problem,
 * and the solver never runs. A family without `checkScene` trusts the scene's values; its solver
 * may then fail on nonsense in its own words.
 *
 * ```ts
 * const sol = await solve('P1', { cols: 4, rows: 5, cell: 0.05, blocks: [...], target: 'A', goal: { col: 1, row: 3 }, exitSide: 'south', yawDeg: 0 });
 * sol.calls.length; // the shortest solution's slides
 * ```
 */
export async function solve(familyId: string, scene: unknown, opts: SolveOptions = {}): Promise<ReferenceSolution> {
  const family = getFamily(familyId);
  const tiers = opts.tier ? [opts.tier] : tiersOf(family);
  if (opts.tier && !family.tiers[opts.tier]) throw new SpaceActError('invalid-argument', `${family.id} has no tier ${opts.tier}; tiers: ${tiersOf(family).join(', ')}`);
  let base: Instance | null = null;
  let firstMismatch: string | null = null;
  for (const tier of tiers) {
    const generated = family.generate(RELEASE_SEED, tier);
    const m = shapeMismatch(generated.scene, scene);
    if (!m) {
      base = generated;
      break;
    }
    firstMismatch ??= m;
  }
  if (!base) throw new SpaceActError('invalid-instance', `not a ${family.id} scene: ${firstMismatch}`, { family: family.id });
  const problem = family.checkScene?.(scene);
  if (problem) throw new SpaceActError('invalid-instance', `not a valid ${family.id} scene: ${problem}`, { family: family.id });
  return family.reference({ ...base, scene: structuredClone(scene) });
}
