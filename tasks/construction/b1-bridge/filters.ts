/**
 * B1 shortcut filters and sightless strategies. The generator re-draws until the load means
 * something ({@link sceneProblem}): a bridge tied to both piers is needed, and the reference's
 * tie is the crucial connection. See README.md for the shortcuts considered.
 */
import type { SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter, Tier } from '../../types.ts';
import { brickType } from '../../kits/bricks/catalog.ts';
import { singlePierBoundKg, TIER_SETTINGS, TWO_SIDED_MARGIN, type B1Scene } from './scene.ts';
import { designPlan, designs, REFERENCE_MARGIN, referenceDesign, weakenedPlans } from './solver.ts';
import { planStatics } from './statics-model.ts';

/**
 * Why a scene is not a fair, meaningful instance, or null. Checks (statics model): no single
 * brick spans the gap; the load is beyond one pier's reach; the reference carries the load with
 * margin; the reference without its crucial connection (tie slid onto one half, or no tie)
 * fails; at L5/L7 the weakest bridge the supply allows fails too, so the heavier load matters.
 */
export function sceneProblem(s: B1Scene, tier: Tier): string | null {
  const longest = Math.max(...s.supply.map((x) => brickType(x.type).length));
  if (longest >= s.gap + 2) return `a ${longest}-stud brick spans the ${s.gap}-stud gap on its own`;
  const bound = singlePierBoundKg(s);
  if (s.loadKg < TWO_SIDED_MARGIN * bound - 1e-9) return `the ${s.loadKg} kg load could be carried from one pier (its studs hold up to ${bound.toFixed(2)} kg at mid-span)`;
  const ref = referenceDesign(s);
  if (!ref) return `no two-layer bridge from the supply carries ${REFERENCE_MARGIN}× the ${s.loadKg} kg load`;
  const plan = designPlan(s, ref);
  for (const weak of weakenedPlans(s, ref)) {
    const r = planStatics(s, weak, s.loadKg);
    if (r.holds) return `the reference holds the load even with its tie resting on one half only (tie at col ${weak[2].col})`;
  }
  if (planStatics(s, plan.slice(0, 2), s.loadKg).holds) return 'the reference holds the load without its tie';
  if (TIER_SETTINGS[tier].heavy) {
    const all = designs(s);
    const weakest = all[all.length - 1];
    if (planStatics(s, designPlan(s, weakest), s.loadKg).holds) return 'every bridge the supply allows carries the load: it is not heavy';
  }
  return null;
}

/** Cheap static checks every instance must pass (re-drawn in the generator, reported by verify). */
export const SHORTCUT_FILTERS: InstanceFilter<B1Scene>[] = [{ name: 'meaningful-load', check: (i) => sceneProblem(i.scene, i.tier) }];

/** B1's own sightless strategies for the shortcut battery. */
export const SIGHTLESS: SightlessStrategy[] = [];
