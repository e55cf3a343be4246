/**
 * The strongest play without looking when nothing a call returns says where things went: a
 * model that knows the generator (public code) draws a pool of the tier's instances, picks the
 * one fixed script that solves most of them, and plays it. Families whose results carry no
 * feedback worth probing (B4's column, T2's launch speeds) list such a strategy in `SIGHTLESS`;
 * the family supplies only how to choose the script over the pool.
 */
import type { SightlessStrategy, SightlessView } from '../sightless.ts';
import type { Tier, ToolCall } from '../types.ts';

/** Instances of the tier a prior-fitted script is chosen over. */
export const PRIOR_POOL = 400;

/** What a family gives {@link priorFittedStrategy}. */
export interface PriorFit<Scene> {
  name: string;
  description: string;
  bound: number;
  /** The fixed script that solves most of `pool` (scenes of the tier), or null when there is none. */
  choose(pool: Scene[], view: SightlessView, tier: Tier): ToolCall[] | null;
}

/**
 * A sightless strategy that fits one script to {@link PRIOR_POOL} generated instances of the tier
 * (once per tier, shared by its episodes) and plays it in order, as many calls a turn as the cap
 * allows; a refused call ends the turn and the script goes on with the next call. Marked
 * `adaptive`: it generates instances, so the quick battery leaves it to `verify`.
 */
export function priorFittedStrategy<Scene>(fit: PriorFit<Scene>): SightlessStrategy {
  return {
    name: fit.name,
    description: fit.description,
    bound: fit.bound,
    adaptive: true,
    async next(ctx) {
      const tools = ctx.tools;
      if (!tools) return null;
      const script = await tools.shared(
        fit.name,
        () => fit.choose(tools.sampleSeeds(PRIOR_POOL).map((seed) => tools.family.generate(seed, tools.tier).scene as Scene), ctx.view, tools.tier),
        { uncapped: true },
      );
      if (!script) return null;
      let sent = 0;
      for (const turn of ctx.history) for (const r of turn) if (r.status !== 'not-run') sent++;
      const rest = script.slice(sent, sent + ctx.actionCap);
      return rest.length ? structuredClone(rest) : null;
    },
  };
}
