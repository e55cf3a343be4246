/**
 * B5 shortcut filters and sightless strategies. The generator re-draws until the instance is a
 * real task ({@link sceneProblem}): the exact search found a standing least-brick build from the
 * supply within its node cap, the build needs at least a few bricks, the baseplate keeps clear
 * of the mat's edges, and (L1, L5, L7) the views fix which cells are filled. See README.md for
 * the shortcuts considered.
 */
import type { SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter, Tier } from '../../types.ts';
import { probeThenBuild } from '../../kits/bricks/probe-then-build.ts';
import { plateHalf, SITE_MARGIN, SITE_MARGIN_BACK, TIER_SETTINGS, type B5Scene } from './scene.ts';
import { cellsDetermined } from './search.ts';

/** Least bricks a target must take, per tier. */
export const MIN_BRICKS: Record<Tier, number> = { L1: 3, L3: 6, L5: 8, L7: 8 };

/** Why a scene is not a fair, meaningful instance, or null. */
export function sceneProblem(s: B5Scene, tier: Tier): string | null {
  const cfg = TIER_SETTINGS[tier];
  if (!s.cells.length) return 'the walls did not fit on the baseplate';
  if (cfg.uniqueCells && !cellsDetermined(s.plate, s.targets, s.views)) return 'the views leave the filled cells open';
  if (s.leastBricks <= 0) return 'the exact search found no standing build from the supply';
  if (s.leastBricks < MIN_BRICKS[tier]) return `the target takes only ${s.leastBricks} bricks`;
  const h = plateHalf(s.plate);
  if (s.siteX - h < SITE_MARGIN - 1e-9 || s.siteX + h > s.mat[0] - SITE_MARGIN + 1e-9 || s.siteZ - h < SITE_MARGIN_BACK - 1e-9 || s.siteZ + h > s.mat[1] - SITE_MARGIN + 1e-9) return 'the baseplate is too near the mat edge';
  return null;
}

/** Static checks every instance must pass (re-drawn in the generator, reported by verify). */
export const SHORTCUT_FILTERS: InstanceFilter<B5Scene>[] = [{ name: 'meaningful-target', check: (i) => sceneProblem(i.scene, i.tier) }];

/** B5's own sightless strategies for the shortcut battery: the metric prober of the brick kit. */
export const SIGHTLESS: SightlessStrategy[] = [probeThenBuild as SightlessStrategy];
