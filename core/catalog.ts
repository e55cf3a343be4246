/**
 * The catalog's vocabulary, defined once: the six categories (their order, names and the
 * folders under `tasks/` that hold them), the difficulty tiers, and the format of family and
 * instance ids. Every layer that names a family, a tier or an instance reads it from here —
 * the registry, the instance schema, the report, the run analytics and `new-family` alike.
 */
import { SpaceActError } from './errors.ts';

/**
 * The six categories: B construction, P puzzles, M continuous manipulation, A assembly,
 * V multi-view perception, T temporal and mechanism reasoning.
 */
export type Category = 'B' | 'P' | 'M' | 'A' | 'V' | 'T';

/** The categories in catalog order. */
export const CATEGORIES: readonly Category[] = ['B', 'P', 'M', 'A', 'V', 'T'];

/** What each category tests, in a few words (report headings). */
export const CATEGORY_NAMES: Readonly<Record<Category, string>> = {
  B: 'structural construction',
  P: 'combinatorial puzzles',
  M: 'continuous manipulation',
  A: 'assembly',
  V: 'multi-view perception',
  T: 'temporal and mechanism',
};

/** The folder under `tasks/` that holds each category's families. */
export const CATEGORY_FOLDERS: Readonly<Record<Category, string>> = {
  B: 'construction',
  P: 'puzzles',
  M: 'manipulation',
  A: 'assembly',
  V: 'perception',
  T: 'temporal',
};

/** True for one of the six category letters. */
export function isCategory(x: unknown): x is Category {
  return typeof x === 'string' && (CATEGORIES as readonly string[]).includes(x);
}

/** Difficulty tiers. L7 is L5 plus one lever. */
export type Tier = 'L1' | 'L3' | 'L5' | 'L7';

/** All tiers in order, easiest first. */
export const TIERS: readonly Tier[] = ['L1', 'L3', 'L5', 'L7'];

/** True for one of the four tier names. */
export function isTier(x: unknown): x is Tier {
  return typeof x === 'string' && (TIERS as readonly string[]).includes(x);
}

/** A family id: a category letter and the catalog number, e.g. `P6`. */
export const FAMILY_ID_PATTERN = /^[BPMAVT][0-9]{1,3}$/;

const TIER_ALTERNATIVES = TIERS.join('|');

/**
 * A lever's name: `+` and a lower-case word, e.g. `+rot` (rotated working frame), `+occ`
 * (occlusion), `+blueprint` (goal shown only as a drawing), `+tool` (tool-frame control), or a
 * temporal family's undisclosed change (`+change`).
 */
export const LEVER_PATTERN = /^\+[a-z]{2,16}$/;

/** The tier a single-factor lever study adds its one lever to (`M5-L5+tool-s100`). */
export const LEVER_BASE_TIER: Tier = 'L5';

/** True for a well-formed lever name (`+rot`); whether a family supports it is the registry's business. */
export function isLeverName(x: unknown): x is string {
  return typeof x === 'string' && LEVER_PATTERN.test(x);
}

/**
 * The instance-id format as a JSON-Schema `pattern` (what checked-in instances carry):
 * `<FAMILY>-<TIER>-s<SEED>`, e.g. `P6-L3-s100`, or with one lever on the L5 tier,
 * `<FAMILY>-L5+<lever>-s<SEED>`, e.g. `M5-L5+tool-s100` (a single-factor lever study).
 */
export const INSTANCE_ID_SCHEMA_PATTERN = `^[A-Z][0-9]+-(${TIER_ALTERNATIVES})(\\+[a-z]{2,16})?-s[0-9]+$`;

/**
 * What {@link parseInstanceId} accepts: the family letter in either case, a tier with at most
 * one lever, a seed of 1–9 digits. Which tier a lever may ride on is checked below (L5 only).
 */
const INSTANCE_ID = new RegExp(`^([A-Za-z][0-9]+)-(${TIER_ALTERNATIVES})(\\+[a-z]{2,16})?-s([0-9]{1,9})$`);

/**
 * The canonical id of (family, tier, seed), e.g. `P6-L3-s100`; with a lever, the L5 tier plus
 * that one lever, e.g. `M5-L5+tool-s100`.
 */
export function instanceId(family: string, tier: Tier, seed: number, lever?: string): string {
  return lever ? `${family}-${tier}${lever}-s${seed}` : `${family}-${tier}-s${seed}`;
}

/** An instance id split into its parts; `lever` only for a single-factor lever study (`M5-L5+tool-s100`). */
export interface InstanceIdParts {
  family: string;
  tier: Tier;
  seed: number;
  lever?: string;
}

/**
 * Splits an instance id like `P6-L3-s100` or `M5-L5+tool-s100`; throws `unknown-instance` for
 * anything else, and for a lever on a tier other than L5 (a lever study is L5 plus one lever).
 */
export function parseInstanceId(id: string): InstanceIdParts {
  const m = INSTANCE_ID.exec(id);
  if (!m) {
    // The same id in other capitals ("p6-l3-s100"): say the one meant rather than a general example.
    const loose = /^([A-Za-z][0-9]+)-([Ll][0-9])(\+[A-Za-z]{2,16})?-[Ss]([0-9]{1,9})$/.exec(id);
    const meant = loose ? `${loose[1].toUpperCase()}-${loose[2].toUpperCase()}${(loose[3] ?? '').toLowerCase()}-s${loose[4]}` : null;
    const hint = meant && INSTANCE_ID.test(meant) ? `did you mean ${meant}?` : 'expected e.g. P6-L3-s100, or M5-L5+tool-s100 for L5 plus one lever';
    throw new SpaceActError('unknown-instance', `"${id}" is not an instance id (${hint})`, { instance: id });
  }
  const tier = m[2] as Tier;
  if (m[3] && tier !== LEVER_BASE_TIER) {
    throw new SpaceActError('unknown-instance', `"${id}" is not an instance id: a lever study is ${LEVER_BASE_TIER} plus one lever (e.g. ${m[1].toUpperCase()}-${LEVER_BASE_TIER}${m[3]}-s${m[4]})`, { instance: id, lever: m[3] });
  }
  const parts: InstanceIdParts = { family: m[1].toUpperCase(), tier, seed: Number(m[4]) };
  if (m[3]) parts.lever = m[3];
  return parts;
}

/**
 * The tier an id names as a label: `L5`, or `L5+tool` for a lever study. Reports group episodes
 * by it, so a lever instance is never counted as a plain L5 one.
 */
export function tierLabel(tier: Tier, lever?: string): string {
  return lever ? `${tier}${lever}` : tier;
}

/**
 * The category of a family id: its letter (`P6` → `P`), or `?` for a letter that is not one.
 * Summaries carry the family, not the category, and a report must read runs of families this
 * build no longer registers.
 */
export function categoryOf(family: string): Category | '?' {
  const c = family.charAt(0).toUpperCase();
  return isCategory(c) ? c : '?';
}

/** Sort key of a family id in catalog order (category, then number, then the id itself). */
export function familyOrder(family: string): [number, number, string] {
  const c = CATEGORIES.indexOf(categoryOf(family) as Category);
  const n = Number(family.slice(1));
  return [c < 0 ? CATEGORIES.length : c, Number.isFinite(n) ? n : Infinity, family];
}

/** Compares family ids in catalog order (category, then number). */
export function compareFamilies(a: string, b: string): number {
  const x = familyOrder(a);
  const y = familyOrder(b);
  return x[0] - y[0] || x[1] - y[1] || (x[2] < y[2] ? -1 : x[2] > y[2] ? 1 : 0);
}
