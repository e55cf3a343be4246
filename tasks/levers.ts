/**
 * Single-factor lever studies: the one shared mechanism by which a family offers its L5 task
 * with exactly one lever on (`M5-L5+tool-s100`), for every lever it supports — not only the one
 * its L7 uses (the paper's Appendix C measures each lever on its own).
 *
 * A family keeps its tier settings in a per-tier table; beside it, it declares a
 * {@link LeverTable}: for each lever, what it changes and a function from the L5 settings to the
 * settings with the lever on (most are one flag: `(s) => ({ ...s, toolFrame: true })`). Its
 * generator reads its settings with {@link tierSettings}, and its registration object lists the
 * levers with {@link leverInfo}. Nothing else changes: the generator stays a pure function of
 * (family, tier, lever, seed), draws from the L5 tier's random stream (so the lever instance of
 * a seed is that seed's L5 world with the lever on, wherever the lever draws nothing of its own),
 * and the ids of every existing tier keep their meaning.
 */
import { instanceId, LEVER_BASE_TIER, parseInstanceId } from '../core/catalog.ts';
import { SpaceActError } from '../core/errors.ts';
import type { Instance, LeverInfo, Tier } from './types.ts';

/** One lever over a family's settings: what it changes, and the L5 settings with it on. */
export interface LeverSpec<Settings> {
  /** What the lever changes, in a sentence (shown by `spaceact list`; the same for every seed). */
  description: string;
  /** The L5 settings with this lever on (pure; everything else as L5). */
  apply(l5: Settings): Settings;
}

/** The levers a family supports, by name (`+rot`, `+occ`, `+blueprint`, `+tool`, `+change`). */
export type LeverTable<Settings> = Readonly<Record<string, LeverSpec<Settings>>>;

/** The lever list a registration object declares (`TaskFamily.levers`): names and descriptions. */
export function leverInfo<Settings>(table: LeverTable<Settings>): Record<string, LeverInfo> {
  return Object.fromEntries(Object.entries(table).map(([name, spec]) => [name, { description: spec.description }]));
}

/**
 * The settings a generator uses for (tier, lever): the tier's row, or with a lever the L5 row
 * with that lever applied. A lever the table does not hold, or one on another tier, is refused
 * with a structured error naming what the family supports.
 */
export function tierSettings<Settings>(family: string, tiers: Partial<Record<Tier, Settings>>, tier: Tier, lever: string | undefined, levers: LeverTable<Settings>): Settings {
  if (lever === undefined) {
    const row = tiers[tier];
    if (!row) throw new SpaceActError('unknown-instance', `${family} has no tier ${tier}`, { family, tier });
    return row;
  }
  const spec = levers[lever];
  if (!spec || tier !== LEVER_BASE_TIER) throw unsupportedLever(family, tier, lever, Object.keys(levers));
  return spec.apply(tiers[LEVER_BASE_TIER]!);
}

/** The error for a lever a family does not support (or on a tier other than L5). */
export function unsupportedLever(family: string, tier: Tier, lever: string, supported: readonly string[]): SpaceActError {
  const which = supported.length ? `${family} supports ${supported.map((l) => `${LEVER_BASE_TIER}${l}`).join(', ')}` : `${family} supports no lever study`;
  const what = tier !== LEVER_BASE_TIER ? `a lever study is ${LEVER_BASE_TIER} plus one lever, not ${tier}${lever}` : `${family} has no lever ${lever}`;
  return new SpaceActError('unknown-instance', `${what}; ${which}`, { family, tier, lever, supported: [...supported] });
}

/**
 * The settings an instance was generated with (its tier's row, or L5's with the lever its id
 * names): for code that sees only the instance — a shortcut filter, the episode — and must read
 * what the lever changed rather than the bare tier's row.
 */
export function instanceSettings<Settings>(instance: Pick<Instance, 'id' | 'family' | 'tier'>, tiers: Partial<Record<Tier, Settings>>, levers: LeverTable<Settings>): Settings {
  return tierSettings(instance.family, tiers, instance.tier, parseInstanceId(instance.id).lever, levers);
}

/**
 * The instance of (seed, tier, lever) for a family whose L7 is, by construction, the same seed's
 * L5 world with one lever on (P1–P5 draw their L7 from L5's seed and add the lever): a study of
 * seed s is L7's instance of s under the study's id — the same world, text and pictures, so the
 * study measures the lever alone. Without a lever it is `generate(seed, tier)`; a lever the
 * family does not list, or a tier other than L5, is refused as {@link tierSettings} refuses it.
 */
export function sameSeedL7Study<Scene>(
  family: string,
  levers: Readonly<Record<string, LeverInfo>>,
  generate: (seed: number, tier: Tier) => Instance<Scene>,
  seed: number,
  tier: Tier,
  lever: string | undefined,
): Instance<Scene> {
  if (lever === undefined) return generate(seed, tier);
  if (!levers[lever] || tier !== LEVER_BASE_TIER) throw unsupportedLever(family, tier, lever, Object.keys(levers));
  const l7 = generate(seed, 'L7');
  return { ...l7, id: instanceId(family, LEVER_BASE_TIER, seed, lever), tier: LEVER_BASE_TIER, levers: [lever] };
}
