/**
 * B2 shortcut filters and sightless strategies. The generator re-draws until the instance means
 * something ({@link sceneProblem}): the target is out of reach of fewer levels than the tier's,
 * the reference carries the payload with margin and fails without its anchoring connection, the
 * payload is a real share of what it carries, and at L5/L7 the same cantilever one stud wide
 * fails. See README.md for the shortcuts considered.
 */
import type { SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter, Tier } from '../../types.ts';
import { brickType } from '../../kits/bricks/catalog.ts';
import { probeThenBuild } from '../../kits/bricks/probe-then-build.ts';
import { REFERENCE_MARGIN, SITE_MARGIN, siteHalfExtents, TIER_SETTINGS, type B2Scene } from './scene.ts';
import { designPlan, designs, oneWide, referenceDesign } from './solver.ts';
import { planStatics, unanchoredHolds } from './statics-model.ts';

/** Least payload of any instance, kg. */
export const MIN_PAYLOAD_KG = 0.01;

/**
 * Why a scene is not a fair, meaningful instance, or null. Checks: the site stands on the mat
 * with its margin; no design with fewer levels than the tier's reaches the target (the longest
 * supplied brick is too short); the payload is at least {@link MIN_PAYLOAD_KG}; the reference
 * has the tier's levels, fits the brick budget and carries {@link REFERENCE_MARGIN}× the payload
 * (statics LP); the same layout without its anchoring connection tips over the edge (the
 * certificate's second half); the payload is at least the tier's least share of the reference's
 * capacity; at L5/L7 the reference built one stud wide fails; the supply never lists exactly the
 * reference's bricks.
 */
export function sceneProblem(s: B2Scene, tier: Tier): string | null {
  const cfg = TIER_SETTINGS[tier];
  const [hx, hz] = siteHalfExtents(s);
  if (s.siteX - hx < SITE_MARGIN[0] - 1e-9 || s.siteX + hx > s.mat[0] - SITE_MARGIN[0] + 1e-9 || s.siteZ - hz < SITE_MARGIN[1] - 1e-9 || s.siteZ + hz > s.mat[1] - SITE_MARGIN[1] + 1e-9) {
    return 'the site does not stand on the mat with the margin';
  }
  for (let levels = 1; levels < cfg.levels; levels++) {
    if (designs(s, levels).length) return `a ${levels}-level cantilever of the supply reaches the target: the tier asks for ${cfg.levels} levels`;
  }
  const longest = Math.max(...s.supply.map((x) => brickType(x.type).length));
  if (cfg.levels > 1 && longest - 1 >= s.reach) return `a ${longest}-stud brick reaches the target on its own`;
  if (s.payloadKg < MIN_PAYLOAD_KG - 1e-9) return `the ${s.payloadKg} kg payload is lighter than the least payload (${MIN_PAYLOAD_KG} kg)`;
  const ref = referenceDesign(s);
  if (!ref) return `no cantilever from the supply carries ${REFERENCE_MARGIN}× the ${s.payloadKg} kg payload`;
  if (ref.levels.length !== cfg.levels) return `the reference has ${ref.levels.length} levels, the tier ${cfg.levels}`;
  if (ref.levels.length > s.maxBricks) return 'the reference does not fit the brick budget';
  const plan = designPlan(s, ref);
  if (unanchoredHolds(s, plan, s.payloadKg)) return 'the reference stays on the table without its anchoring connection';
  if (planStatics(s, plan, s.payloadKg / cfg.ratio[0]).holds) return `the payload is less than ${Math.round(cfg.ratio[0] * 100)} % of what the reference carries`;
  if (cfg.twoWide) {
    const narrow = oneWide(ref);
    if (!narrow) return 'the reference has no one-wide counterpart in the catalog';
    if (planStatics(s, designPlan(s, narrow), s.payloadKg).holds) return 'the reference built one stud wide carries the payload: it is not heavy';
  }
  const used = new Map<string, number>();
  for (const p of plan) used.set(p.type, (used.get(p.type) ?? 0) + 1);
  for (const [type, n] of used) {
    if ((s.supply.find((x) => x.type === type)?.count ?? 0) <= n) return `the supply has no spare ${type}: it would list the reference's bricks`;
  }
  if (!s.supply.some((x) => !used.has(x.type))) return 'every supply type is in the reference';
  return null;
}

/** Static checks every instance must pass (re-drawn in the generator, reported by verify). */
export const SHORTCUT_FILTERS: InstanceFilter<B2Scene>[] = [{ name: 'meaningful-payload', check: (i) => sceneProblem(i.scene, i.tier) }];

/** B2's own sightless strategies for the shortcut battery: the site prober shared with B1. */
export const SIGHTLESS: SightlessStrategy[] = [probeThenBuild as SightlessStrategy];
