/**
 * A1 shortcut filters and sightless strategies: hidden pieces must really be out of sight from
 * the first view, and the filling must be unique (so no spare piece also fits). See README.md for
 * the shortcuts considered.
 */
import type { SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter } from '../../types.ts';
import type { A1Scene } from './scene.ts';
import { hiddenFromFirstView } from './sight.ts';
import { certify } from './solver.ts';
import { PROBE_AND_PACK } from './prober.ts';

/** Cheap static checks every instance must pass (the generator draws until they hold; verify reports them). */
export const SHORTCUT_FILTERS: InstanceFilter<A1Scene>[] = [
    {
      name: 'hidden-pieces-hidden',
      check: (inst) => {
        const seen = inst.scene.pieces.find((p) => p.hidden && !hiddenFromFirstView(p.cells, p.position));
        return seen ? `${seen.name} should be hidden but is in sight from the first view` : null;
      },
    },
    {
      name: 'unique-filling',
      check: (inst) => {
        const c = certify(inst.scene.pieces.map((p) => p.cells), inst.scene.box);
        return c.unique ? null : `${c.fillingSubsets.length} filling subsets, ${c.classes} packings up to symmetry`;
      },
    },
];

/** A1's own sightless strategies for the shortcut battery. */
export const SIGHTLESS: SightlessStrategy[] = [PROBE_AND_PACK];
