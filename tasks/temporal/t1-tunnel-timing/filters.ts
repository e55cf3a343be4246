/**
 * T1 shortcut filters and sightless strategies: firing at once must not work, the windows must
 * be narrow enough for timing to matter, the hidden slope (L7) must defeat timing from the first
 * strobe alone, and the decoy ball must move at a clearly different speed. See README.md for the
 * shortcuts considered.
 */
import type { SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter } from '../../types.ts';
import { analyticWindow, fmt, naiveWindow, type T1Scene } from './scene.ts';

/** Cheap static checks every instance must pass (the generator re-draws until they hold; verify reports them). */
export const SHORTCUT_FILTERS: InstanceFilter<T1Scene>[] = [
  {
    name: 'no-open-at-once',
    check(i) {
      const w = analyticWindow(i.scene, i.scene.gates[0]);
      return w.lo < 0.5 ? `firing the entrance gate ${fmt(w.lo)} s after the first observation is already inside its window` : null;
    },
  },
  {
    name: 'window-width',
    check(i) {
      for (const g of i.scene.gates) {
        const w = analyticWindow(i.scene, g);
        if (w.hi - w.lo < 0.08) return `the ${g.name} gate's window is only ${fmt(w.hi - w.lo, 3)} s wide`;
        if (w.hi - w.lo > 0.7) return `the ${g.name} gate's window is ${fmt(w.hi - w.lo, 3)} s wide: timing would not matter`;
      }
      return null;
    },
  },
  {
    name: 'hidden-change-bites',
    check(i) {
      if (i.scene.kinkX === null) return null;
      // Firing at the middle of the windows a constant-speed reading gives must fail some gate.
      const bites = i.scene.gates.some((g) => {
        const naive = naiveWindow(i.scene, g);
        const mid = (naive.lo + naive.hi) / 2;
        const w = analyticWindow(i.scene, g);
        return mid < w.lo - 0.03 || mid > w.hi + 0.03;
      });
      return bites ? null : 'timing from the first strobe alone would still pass every gate';
    },
  },
  {
    name: 'decoy-distinct',
    check(i) {
      const d = i.scene.decoy;
      if (!d) return null;
      const r = d.speed / i.scene.speed;
      return Math.abs(r - 1) < 0.2 ? `the decoy ball's speed is within 20 % of the real one (${fmt(r)}×)` : null;
    },
  },
];

/** T1's own sightless strategies for the shortcut battery. */
export const SIGHTLESS: SightlessStrategy[] = [];
