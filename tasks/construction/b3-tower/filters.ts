/**
 * B3 shortcut filters and sightless strategies. The generator re-draws until the push means
 * something ({@link sceneProblem}): the reference tower carries {@link REFERENCE_MARGIN}× it,
 * while a single column, the same tower one stud wide and (where the tier says) turned across
 * the push fail it, and the same bricks weakest at the bottom fail it (L3+) — each by
 * {@link FAIL_MARGIN}. See README.md for the shortcuts considered.
 */
import type { SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter, Tier } from '../../types.ts';
import { probeThenBuild } from '../../kits/bricks/probe-then-build.ts';
import { layoutOf } from './layout.ts';
import { BRICK_H, FACE_MARGIN, FAIL_MARGIN, REFERENCE_MARGIN, SITE_MARGIN, SITE_MARGIN_BACK, TIER_SETTINGS, type B3Scene } from './scene.ts';
import { designCapacity, referenceDesign, weakerDesigns } from './solver.ts';

/** Why a scene is not a fair, meaningful instance, or null. */
export function sceneProblem(s: B3Scene, tier: Tier): string | null {
  const cfg = TIER_SETTINGS[tier];
  const ref = referenceDesign(s);
  if (!ref) return 'the supply has too few bricks for the tower';
  if (!(s.pushForce > 0)) return 'no push';
  const cap = designCapacity(s, ref);
  if (cap < REFERENCE_MARGIN * s.pushForce - 1e-9) return `the reference carries only ${(cap / s.pushForce).toFixed(2)}× the push`;
  const weaker = weakerDesigns(ref);
  const mustFail: Array<keyof typeof weaker> = ['narrow', 'column'];
  if (cfg.reversedFails) mustFail.push('reversed');
  if (cfg.turnedFails) mustFail.push('turned');
  for (const k of mustFail) {
    const d = weaker[k];
    if (!d) return `the reference has no ${k} counterpart`;
    const c = designCapacity(s, d);
    if (c * FAIL_MARGIN > s.pushForce) return `the ${k} tower carries ${(c / s.pushForce).toFixed(2)}× the push`;
  }
  // Heights: the mark needs exactly the reference's layers; the push meets a brick of the tower clear of its faces.
  if (s.targetHeight <= (s.layers - 1) * BRICK_H + FACE_MARGIN - 1e-9 || s.targetHeight >= s.layers * BRICK_H - FACE_MARGIN + 1e-9) return 'the mark is too close to a brick face';
  const inLayer = s.pushHeight / BRICK_H - Math.floor(s.pushHeight / BRICK_H);
  if (inLayer * BRICK_H < FACE_MARGIN - 1e-9 || (1 - inLayer) * BRICK_H < FACE_MARGIN - 1e-9 || s.pushHeight >= s.layers * BRICK_H) return 'the push is too close to a brick face';
  const [x0, x1, z0, z1] = layoutOf(s.plate, s.pushDir, s.screen).extent;
  if (s.siteX + x0 < SITE_MARGIN - 1e-9 || s.siteX + x1 > s.mat[0] - SITE_MARGIN + 1e-9 || s.siteZ + z0 < SITE_MARGIN_BACK - 1e-9 || s.siteZ + z1 > s.mat[1] - SITE_MARGIN + 1e-9) {
    return 'the scene does not fit on the mat';
  }
  return null;
}

/** Static checks every instance must pass (re-drawn in the generator, reported by verify). */
export const SHORTCUT_FILTERS: InstanceFilter<B3Scene>[] = [{ name: 'meaningful-push', check: (i) => sceneProblem(i.scene, i.tier) }];

/** B3's own sightless strategies for the shortcut battery: the metric prober of the brick kit. */
export const SIGHTLESS: SightlessStrategy[] = [probeThenBuild as SightlessStrategy];
