/**
 * A sampled pool of what a generator could have drawn, for a family's `candidates` (the adaptive
 * sightless agents' reconstruction): draws made once per tier from seeds the battery never judges
 * or trains on, and the helpers to make each candidate read exactly like the judged instance —
 * the piece names its tool lists, assigned in a seeded order. A3 and A4 use it.
 */
import { Rng } from '../../core/rng.ts';
import type { InstanceView } from '../instance-view.ts';
import type { Tier } from '../types.ts';

/** First sampled seed: far past the battery's judged and training seeds. */
export const CANDIDATE_SEED_BASE = 1_000_000;

/** One draw of the pool with the seed it was drawn from. */
export interface PooledDraw<D> {
  seed: number;
  draw: D;
}

/**
 * A per-tier pool of `count` draws from seeds `CANDIDATE_SEED_BASE`, `+1`, …, made on first use
 * and kept (the battery asks for it once per judged episode).
 */
export function tierPool<D>(count: number, drawAt: (seed: number, tier: Tier) => D): (tier: Tier) => PooledDraw<D>[] {
  const pools = new Map<Tier, PooledDraw<D>[]>();
  return (tier) => {
    let pool = pools.get(tier);
    if (!pool) {
      pool = [];
      for (let i = 0; i < count; i++) pool.push({ seed: CANDIDATE_SEED_BASE + i, draw: drawAt(CANDIDATE_SEED_BASE + i, tier) });
      pools.set(tier, pool);
    }
    return pool;
  };
}

/** The values a tool's parameter lists (`enum`), e.g. the piece names of `place`; empty when none. */
export function toolEnum(view: Pick<InstanceView, 'tools'>, tool: string, parameter: string): string[] {
  const spec = view.tools.find((t) => t.name === tool);
  const props = (spec?.parameters as { properties?: Record<string, { enum?: string[] }> } | undefined)?.properties;
  return props?.[parameter]?.enum ?? [];
}

/**
 * The names in a seeded random order for one candidate, so that candidates do not all name their
 * pieces alike: keyed by family, tier, candidate seed and the names themselves.
 */
export function namingOrder(family: string, tier: Tier, seed: number, names: readonly string[]): string[] {
  return new Rng(`${family}/candidates/${tier}/${seed}/${names.join(',')}`).shuffle([...names]);
}
