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
 * The instance-id format as a JSON-Schema `pattern` (what checked-in instances carry):
 * `<FAMILY>-<TIER>-s<SEED>`, e.g. `P6-L3-s100`.
 */
export const INSTANCE_ID_SCHEMA_PATTERN = `^[A-Z][0-9]+-(${TIER_ALTERNATIVES})-s[0-9]+$`;

/** What {@link parseInstanceId} accepts: the family letter in either case, a seed of 1–9 digits. */
const INSTANCE_ID = new RegExp(`^([A-Za-z][0-9]+)-(${TIER_ALTERNATIVES})-s([0-9]{1,9})$`);

/** The canonical id of (family, tier, seed), e.g. `P6-L3-s100`. */
export function instanceId(family: string, tier: Tier, seed: number): string {
  return `${family}-${tier}-s${seed}`;
}

/** Splits an instance id like `P6-L3-s100`; throws `unknown-instance` for anything else. */
export function parseInstanceId(id: string): { family: string; tier: Tier; seed: number } {
  const m = INSTANCE_ID.exec(id);
  if (!m) {
    // The same id in other capitals ("p6-l3-s100"): say the one meant rather than a general example.
    const loose = /^([A-Za-z][0-9]+)-([Ll][0-9])-[Ss]([0-9]{1,9})$/.exec(id);
    const meant = loose ? `${loose[1].toUpperCase()}-${loose[2].toUpperCase()}-s${loose[3]}` : null;
    const hint = meant && INSTANCE_ID.test(meant) ? `did you mean ${meant}?` : 'expected e.g. P6-L3-s100';
    throw new SpaceActError('unknown-instance', `"${id}" is not an instance id (${hint})`, { instance: id });
  }
  return { family: m[1].toUpperCase(), tier: m[2] as Tier, seed: Number(m[3]) };
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
