/**
 * M2 shortcut filters and sightless strategies.
 *
 * Filters (static checks every instance passes; the generator re-draws until they do):
 * - `tight`: the scene's critical length is the one its geometry gives, and a rod `tightness`
 *   longer exceeds it — so by the bound in `scene.ts` that rod cannot pass: the instance is
 *   tight, not generous.
 * - `straight-line-blocked`: the straight move of the rod's midpoint from its start to the goal
 *   beyond the exit leaves the corridor's free space (the midpoint would enter a wall), so the
 *   one-call shortcut is refused.
 * - `segments-long`: every stretch after the first is longer than the rod plus the corridor's
 *   width, so each bend is passed on its own (the critical length is exact).
 *
 * Sightless strategies: the held-part kit's memorised plan, straight line and blind probing.
 */
import { HELD_PART_SIGHTLESS } from '../../kits/held-part/sightless.ts';
import type { SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter } from '../../types.ts';
import { goalPoses, inFreeSpace } from './corridor.ts';
import { bendCriticals, type M2Scene } from './scene.ts';

/** Shortcut filters: each names a way an instance could be trivial or loose; failing draws are re-drawn. */
export const SHORTCUT_FILTERS: InstanceFilter<M2Scene>[] = [
  {
    name: 'tight',
    check(instance) {
      const s = instance.scene;
      const critical = Math.min(...bendCriticals(s.corridor, s.rod.radius));
      if (Math.abs(critical - s.criticalAxis) > 1e-5) return `criticalAxis ${s.criticalAxis} does not match the geometry's ${critical.toFixed(6)}`;
      if (s.rod.axisLength >= critical) return 'the rod is not shorter than the critical length';
      const longer = s.rod.axisLength * (1 + s.tightness);
      return longer > critical ? null : `a rod ${(s.tightness * 100).toFixed(0)}% longer (${longer.toFixed(4)} m) would still be under the critical ${critical.toFixed(4)} m`;
    },
  },
  {
    name: 'straight-line-blocked',
    check(instance) {
      const s = instance.scene;
      const a = s.start.p;
      const b = goalPoses(s)[0].p;
      for (let k = 0; k <= 400; k++) {
        const t = k / 400;
        if (!inFreeSpace(s.corridor, [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t])) return null;
      }
      return "the rod's midpoint could move straight from the start to the goal inside the corridor";
    },
  },
  {
    name: 'segments-long',
    check(instance) {
      const s = instance.scene;
      const p = s.corridor.points;
      for (let i = 1; i < p.length - 1; i++) {
        const len = Math.abs(p[i + 1][0] - p[i][0]) + Math.abs(p[i + 1][1] - p[i][1]) + Math.abs(p[i + 1][2] - p[i][2]);
        if (len < s.rod.length + s.corridor.width) return `stretch ${i + 1} is ${len.toFixed(3)} m, shorter than the rod plus the width`;
      }
      return null;
    },
  },
];

/** M2's sightless strategies: the held-part kit's. */
export const SIGHTLESS: SightlessStrategy[] = HELD_PART_SIGHTLESS;
