import { SpaceActError } from '../core/errors.ts';
import { Rng } from '../core/rng.ts';

/**
 * A generator-side shortcut filter over whatever a draw produces (for task families, an
 * instance): a message when the draw has the shortcut, else null.
 */
export interface DrawFilter<T> {
  name: string;
  check(drawn: T): string | null;
}

/** Options of {@link generateFiltered}. */
export interface RedrawOptions {
  /** Draws to try before giving up (default 200). */
  maxAttempts?: number;
}

/**
 * The seeded stream for one draw of a generator. Attempt 0 is exactly
 * `Rng.forInstance(family, tier, seed)`, so a family that starts using re-draws keeps every
 * instance that already passed; attempt k > 0 folds k into the key (`…/generate#k`), giving a
 * fresh, reproducible stream.
 */
export function redrawRng(family: string, tier: string, seed: number, attempt: number): Rng {
  return Rng.forInstance(family, tier, seed, attempt === 0 ? 'generate' : `generate#${attempt}`);
}

/**
 * Draws an instance, checks it against the filters, and re-draws (attempt 1, 2, …) until one
 * passes. Deterministic: `draw(attempt)` must be a pure function of the attempt (use
 * {@link redrawRng} inside it), so the same (seed, tier) always ends at the same attempt and
 * the same instance. Throws `invalid-state` naming every rejection when no draw passes.
 *
 * Use it inside `TaskFamily.generate`:
 * ```ts
 * generate(seed, tier) {
 *   return generateFiltered((attempt) => drawOnce(redrawRng('A1', tier, seed, attempt), seed, tier), family.shortcutFilters ?? []);
 * }
 * ```
 * The filters here are the cheap, static ones (the family's `shortcutFilters`); the episode
 * filters (null policy, random baseline) run in `spaceact verify`.
 */
export function generateFiltered<T>(draw: (attempt: number) => T, filters: ReadonlyArray<DrawFilter<T>>, opts: RedrawOptions = {}): T {
  const max = opts.maxAttempts ?? 200;
  if (!Number.isInteger(max) || max < 1) throw new SpaceActError('invalid-argument', `maxAttempts must be a positive integer, got ${max}`);
  const rejections: string[] = [];
  for (let attempt = 0; attempt < max; attempt++) {
    const instance = draw(attempt);
    let rejected: string | null = null;
    for (const f of filters) {
      const message = f.check(instance);
      if (message !== null) {
        rejected = `attempt ${attempt}: ${f.name}: ${message}`;
        break;
      }
    }
    if (rejected === null) return instance;
    rejections.push(rejected);
  }
  throw new SpaceActError('invalid-state', `no draw passed the shortcut filters in ${max} attempts (last: ${rejections[rejections.length - 1]})`, {
    rejections: rejections.slice(-10),
  });
}

/**
 * A generator's costly scene draw, kept for the process under (seed, tier, attempt): a family
 * whose draw searches many rooms or mazes (P3, P4) pays once per process for each, although
 * `generate`, the reference and the episode all ask for it. The draw must be a pure function of
 * its arguments; every call gets its own deep copy, so no caller can change what another sees.
 * `{ memo: false }` draws afresh without reading or filling the store (the determinism tests
 * use it to show the draw itself is pure).
 */
export function memoisedDraw<T>(draw: (seed: number, tier: string, attempt: number) => T): (seed: number, tier: string, attempt?: number, opts?: { memo?: boolean }) => T {
  const drawn = new Map<string, T>();
  return (seed, tier, attempt = 0, opts = {}) => {
    if (opts.memo === false) return draw(seed, tier, attempt);
    const key = `${tier}/${seed}/${attempt}`;
    let hit = drawn.get(key);
    if (hit === undefined) {
      hit = draw(seed, tier, attempt);
      drawn.set(key, hit);
    }
    return structuredClone(hit);
  };
}
