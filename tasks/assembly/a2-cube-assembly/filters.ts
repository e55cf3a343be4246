/**
 * A2 shortcut filters and sightless strategies: exactly one subset of the pieces fills the box
 * (so every decoy fits in no filling), and some filling can be built in an order gravity allows.
 * See README.md for the shortcuts considered.
 */
import type { SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter } from '../../types.ts';
import type { A2Scene } from './scene.ts';
import { sceneProblem } from './generate.ts';

/** Cheap static checks every instance must pass (the generator draws until they hold; verify reports them). */
export const SHORTCUT_FILTERS: InstanceFilter<A2Scene>[] = [
  {
    name: 'decoys-fit-nowhere-and-buildable',
    check: (inst) => {
      const p = sceneProblem(inst.scene);
      return typeof p === 'string' ? p : null;
    },
  },
];

/** A2's own sightless strategies for the shortcut battery (the shared battery covers random, memorised and probing play). */
export const SIGHTLESS: SightlessStrategy[] = [];
