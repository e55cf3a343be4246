import { createHash } from 'node:crypto';
import type { Instance, ReferenceSolution, TaskFamily } from './types.ts';

const cache = new Map<string, Promise<ReferenceSolution>>();
/** Enough for a whole suite; the oldest entries go first. */
const MAX_ENTRIES = 512;

/**
 * The family's reference solution for an instance, computed once per process. The runner
 * needs its action count for scoring and the reference agent needs its calls; some solvers
 * search for seconds, so neither should redo the other's work. Keyed by family, version and
 * the instance's exact JSON (tests run altered copies under the same id).
 */
export function referenceSolution(family: TaskFamily, instance: Instance): Promise<ReferenceSolution> {
  const key = `${family.id}@${family.version}:${createHash('sha256').update(JSON.stringify(instance)).digest('hex')}`;
  let hit = cache.get(key);
  if (!hit) {
    hit = Promise.resolve().then(() => family.reference(instance));
    // A failed search is not remembered: the next caller sees the error afresh.
    hit.catch(() => cache.delete(key));
    cache.set(key, hit);
    if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  }
  return hit;
}
