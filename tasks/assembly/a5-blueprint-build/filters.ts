/**
 * A5 shortcut filters and sightless strategies. The filters certify the blueprint's reading:
 * the target is a buildable structure whose drawings have exactly one buildable reading, and at
 * L5 every view is needed (without any one of them another structure matches the rest). The
 * family's own sightless strategy plays the structure a patient adversary would bet on: the
 * most common one the generator draws for the tier.
 */
import type { SightlessStrategy } from '../../sightless.ts';
import { priorFittedStrategy } from '../../kits/sightless-prior.ts';
import type { InstanceFilter } from '../../types.ts';
import { readings, supported } from './readings.ts';
import { instanceSettings } from '../../levers.ts';
import { A5_LEVERS, TIERS, type A5Scene } from './scene.ts';
import { certify, referenceCalls } from './solver.ts';
import { structureKey } from './structure.ts';

/** Static checks every instance passes (the generator re-draws until they hold; verify reports them). */
export const SHORTCUT_FILTERS: InstanceFilter<A5Scene>[] = [
  {
    name: 'buildable-target',
    check: (inst) => (inst.scene.target.length === TIERS[inst.tier].cubes && supported(inst.scene.target) ? null : 'the target is not a full-size stack of supported cubes'),
  },
  {
    name: 'one-reading',
    check: (inst) => {
      const c = certify(inst.scene);
      if (c.capped) return `the reading search stopped after ${c.nodes} nodes`;
      return c.found.length === 1 ? null : `${c.found.length}+ buildable structures match the ${inst.scene.views.join(', ')} drawings`;
    },
  },
  {
    name: 'every-view-needed',
    check: (inst) => {
      const s = inst.scene;
      // The settings the instance was drawn with: a +blueprint study has L5's tier and two views.
      if (!instanceSettings(inst, TIERS, A5_LEVERS).everyViewNeeded) return null;
      for (const v of s.views) {
        const rest = s.views.filter((x) => x !== v);
        const r = readings(s.target, s.extent, rest, 2);
        if (r.found.length < 2) return `the ${rest.join(' and ')} drawings alone already fix the structure (the ${v} view is not needed)`;
      }
      return null;
    },
  },
];

/**
 * Builds the structure the generator draws most often for the tier (over 400 instances),
 * centred as the reference would, and commits: the best a player can do who never looks at the
 * blueprint, since nothing a call returns depends on the target.
 */
const mostCommonStructure = priorFittedStrategy<A5Scene>({
  name: 'most-common-structure',
  description: 'builds the structure the generator draws most often for the tier (over 400 instances) in the middle of the plate, and commits',
  bound: 0.1,
  choose(pool) {
    const counts = new Map<string, { n: number; scene: A5Scene }>();
    for (const sc of pool) {
      const key = structureKey(sc.target);
      const e = counts.get(key);
      if (e) e.n++;
      else counts.set(key, { n: 1, scene: sc });
    }
    let best: { n: number; scene: A5Scene } | null = null;
    for (const e of counts.values()) if (!best || e.n > best.n) best = e;
    return best ? referenceCalls(best.scene) : null;
  },
});

/** A5's own sightless strategies (the shared battery covers random, memorised and probing play). */
export const SIGHTLESS: SightlessStrategy[] = [mostCommonStructure];
