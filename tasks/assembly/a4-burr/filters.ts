/**
 * A4 shortcut filters and sightless strategies: the burr must come apart with the tier's level
 * (so its reverse assembles it), no more sticks than the tier allows may slide straight out of
 * the finished burr, the stick the `+occ` tier hides must be out of sight from the first view,
 * and every slide of the reference must fit in one call. See README.md for the shortcuts
 * considered.
 */
import type { SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter } from '../../types.ts';
import { hiddenBehindWall } from '../../kits/polycube-pieces/sight.ts';
import { burrDisassembly, directlyRemovable } from './burr.ts';
import { PRIOR_SLIDES } from './prior.ts';
import { instanceSettings } from '../../levers.ts';
import { A4_LEVERS, initialCamera, stickOrigin, TIER_SPECS, type A4Scene } from './scene.ts';

/** Cheap static checks every instance must pass (the generator draws until they hold; verify reports them). */
export const SHORTCUT_FILTERS: InstanceFilter<A4Scene>[] = [
  {
    name: 'level-certificate',
    check: (inst) => {
      const s = inst.scene;
      const key = s.sticks.findIndex((t) => t.key);
      const dis = burrDisassembly(s.sticks.map((t) => t.cells), key);
      if (!dis) return 'the burr cannot be taken apart';
      const spec = instanceSettings(inst, TIER_SPECS, A4_LEVERS);
      if (dis.level !== s.level) return `the scene says level ${s.level}, the search finds ${dis.level}`;
      if (dis.level < spec.level[0] || dis.level > spec.level[1]) return `level ${dis.level} outside the tier's ${spec.level.join('–')}`;
      const direct = directlyRemovable(s.sticks.map((t) => t.cells), key).length;
      return direct > spec.maxDirect ? `${direct} sticks slide straight out of the finished burr (at most ${spec.maxDirect})` : null;
    },
  },
  {
    name: 'hidden-sticks-hidden',
    check: (inst) => {
      const s = inst.scene;
      if (!s.screen) return null;
      const seen = s.sticks.find((t) => t.hidden && !hiddenBehindWall(t.cells, stickOrigin(t.cells, t.start), initialCamera(inst.tier), s.screen!));
      return seen ? `${seen.name} should be hidden but is in sight from the first view` : null;
    },
  },
];

/** A4's own sightless strategies for the shortcut battery. */
export const SIGHTLESS: SightlessStrategy[] = [PRIOR_SLIDES as SightlessStrategy];
