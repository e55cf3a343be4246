/**
 * B1 shortcut filters and sightless strategies. The generator re-draws until the load means
 * something ({@link sceneProblem}): a bridge tied to both piers is needed, no bridge with fewer
 * levels than the tier's carries it, the reference's tie is the crucial connection, and at
 * L5/L7 the same bridge one stud wide fails. See README.md for the shortcuts considered.
 */
import type { SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter, Tier } from '../../types.ts';
import { probeThenBuild } from '../../kits/bricks/probe-then-build.ts';
import { brickType } from '../../kits/bricks/catalog.ts';
import { minLoadKg, REFERENCE_MARGIN, SITE_MARGIN, siteHalfExtents, singlePierBoundKg, TIER_SETTINGS, TWO_SIDED_MARGIN, type B1Scene } from './scene.ts';
import { brickCount, designName, designPlan, designs, oneWide, referenceDesign, weakenedPlans } from './solver.ts';
import { planStatics } from './statics-model.ts';

/**
 * Why a scene is not a fair, meaningful instance, or null. Checks (statics model): no single
 * brick spans the gap; the load is beyond one pier's reach and at least the tier's least load (L3: the
 * heaviest L1 load); no design with fewer levels than the tier's holds the load; the reference has the
 * tier's levels and carries {@link REFERENCE_MARGIN}× the load; the reference without its crucial
 * connection (tie slid onto one half, or no tie) fails; the load is at least the tier's share of
 * the reference's capacity; at L5/L7 the reference built one stud wide fails; the supply never
 * lists exactly the reference's bricks; the piers stand on the mat.
 */
export function sceneProblem(s: B1Scene, tier: Tier): string | null {
  const cfg = TIER_SETTINGS[tier];
  const longest = Math.max(...s.supply.map((x) => brickType(x.type).length));
  if (longest >= s.gap + 2) return `a ${longest}-stud brick spans the ${s.gap}-stud gap on its own`;
  const [hx, hz] = siteHalfExtents(s);
  if (s.siteX - hx < SITE_MARGIN[0] - 1e-9 || s.siteX + hx > s.mat[0] - SITE_MARGIN[0] + 1e-9 || s.siteZ - hz < SITE_MARGIN[1] - 1e-9 || s.siteZ + hz > s.mat[1] - SITE_MARGIN[1] + 1e-9) {
    return 'the piers do not stand on the mat with the margin';
  }
  const bound = singlePierBoundKg(s);
  if (s.loadKg < TWO_SIDED_MARGIN * bound - 1e-9) return `the ${s.loadKg} kg load could be carried from one pier (its studs hold up to ${bound.toFixed(2)} kg at mid-span)`;
  if (s.loadKg < minLoadKg(tier) - 1e-9) return `the ${s.loadKg} kg load is lighter than the tier's least load (${minLoadKg(tier)} kg)`;
  for (let levels = 1; levels < cfg.levels; levels++) {
    for (const d of designs(s, levels)) {
      if (planStatics(s, designPlan(s, d), s.loadKg).holds) return `a ${brickCount(d)}-brick bridge (${designName(d)}) carries the load: the tier asks for ${cfg.levels} levels`;
    }
  }
  const ref = referenceDesign(s);
  if (!ref) return `no bridge from the supply carries ${REFERENCE_MARGIN}× the ${s.loadKg} kg load`;
  if (ref.levels.length !== cfg.levels) return `the reference has ${ref.levels.length} levels, the tier ${cfg.levels}`;
  const [slidEast, slidWest, noTie] = weakenedPlans(s, ref);
  if (planStatics(s, slidEast, s.loadKg).holds || planStatics(s, slidWest, s.loadKg).holds) return 'the reference holds the load even with its tie resting on one side only';
  if (planStatics(s, noTie, s.loadKg).holds) return 'the reference holds the load without its tie';
  if (cfg.ratio && planStatics(s, designPlan(s, ref), s.loadKg / cfg.ratio[0]).holds) {
    return `the load is less than ${Math.round(cfg.ratio[0] * 100)} % of what the reference carries`;
  }
  if (cfg.twoWide) {
    const narrow = oneWide(ref);
    if (!narrow) return 'the reference has no one-wide counterpart in the catalog';
    if (planStatics(s, designPlan(s, narrow), s.loadKg).holds) return 'the reference built one stud wide carries the load: it is not heavy';
  }
  const used = new Map<string, number>();
  for (const p of designPlan(s, ref)) used.set(p.type, (used.get(p.type) ?? 0) + 1);
  for (const [type, n] of used) {
    if ((s.supply.find((x) => x.type === type)?.count ?? 0) <= n) return `the supply has no spare ${type}: it would list the reference's bricks`;
  }
  if (!s.supply.some((x) => !used.has(x.type))) return 'every supply type is in the reference';
  return null;
}

/** Static checks every instance must pass (re-drawn in the generator, reported by verify). */
export const SHORTCUT_FILTERS: InstanceFilter<B1Scene>[] = [{ name: 'meaningful-load', check: (i) => sceneProblem(i.scene, i.tier) }];

export { probeThenBuild, type ProbeTemplate } from '../../kits/bricks/probe-then-build.ts';

/** B1's own sightless strategies for the shortcut battery. */
export const SIGHTLESS: SightlessStrategy[] = [probeThenBuild as SightlessStrategy];
