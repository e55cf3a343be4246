/**
 * A3 shortcut filters and sightless strategies: the order certificate must hold (one subset of
 * the pieces fills the box, so spares are spares; no monotone order; the search's fewest moves
 * equal the lower bound over every packing; the tier's number of blockers), and pieces meant to
 * be hidden must be out of sight from the first view. See README.md for the shortcuts considered.
 */
import type { SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter } from '../../types.ts';
import { hiddenBehindWall } from '../../kits/polycube-pieces/sight.ts';
import { orderCertificate } from './order.ts';
import { HIDE_WALL_BOX, INITIAL_CAMERA, TIER_SPECS, type A3Scene } from './scene.ts';
import { CLEAR_AND_PROBE } from './prober.ts';

/** Cheap static checks every instance must pass (the generator draws until they hold; verify reports them). */
export const SHORTCUT_FILTERS: InstanceFilter<A3Scene>[] = [
  {
    name: 'order-certificate',
    check: (inst) => {
      const c = orderCertificate(inst.scene);
      if (c.fillingSubsets.length !== 1) return `${c.fillingSubsets.length} subsets of the pieces fill the box (spares must fit nowhere)`;
      if (!c.best) return 'no order fills the box';
      if (!c.monotoneImpossible) return 'a monotone order (nothing ever lifted out) fills the box';
      if (!c.optimal) return `fewest moves ${c.best.length} not proven minimal (lower bound ${c.lowerBound})`;
      const want = TIER_SPECS[inst.tier as keyof typeof TIER_SPECS].blockers;
      return c.mustMove.length === want ? null : `${c.mustMove.length} starting pieces must move, the tier wants ${want}`;
    },
  },
  {
    name: 'hidden-pieces-hidden',
    check: (inst) => {
      const seen = inst.scene.pieces.find((p) => p.hidden && !hiddenBehindWall(p.cells, p.position, INITIAL_CAMERA, HIDE_WALL_BOX));
      return seen ? `${seen.name} should be hidden but is in sight from the first view` : null;
    },
  },
];

/** A3's own sightless strategies for the shortcut battery. */
export const SIGHTLESS: SightlessStrategy[] = [CLEAR_AND_PROBE];
