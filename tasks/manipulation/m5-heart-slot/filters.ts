/**
 * M5 shortcut filters and sightless strategies.
 *
 * Filters:
 * - `straight-line-blocked`: where the block's centre would cross the wall on the straight move
 *   from its start to the goal, a ball of the block's radius lies in solid wall.
 * - `face-on-only`: the longest bar as thick as the block that fits the matching
 *   opening is shorter than the block's least extent across its plane, so the block cannot pass
 *   edge-on — only face-on, in the one orientation family.
 * - `decoys-do-not-fit`: no decoy opening holds the block's heart face-on in any turn and place
 *   (sampled), nor edge-on.
 * - `start-clear`: the block starts inside the workspace, in front of the wall.
 *
 * Sightless strategies: the held-part kit's memorised plan, straight line and blind probing.
 */
import { HELD_PART_SIGHTLESS } from '../../kits/held-part/sightless.ts';
import type { SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter } from '../../types.ts';
import { edgeOn, fitsFaceOn, match, partRadius, straightLineGap } from './geometry.ts';
import { WORKSPACE, type M5Scene } from './scene.ts';

/** Shortcut filters: each names a way an instance could be trivial; failing draws are re-drawn. */
export const SHORTCUT_FILTERS: InstanceFilter<M5Scene>[] = [
  { name: 'straight-line-blocked', check: (inst) => straightLineGap(inst.scene, inst.scene.start, inst.scene.goal) },
  {
    name: 'face-on-only',
    check(inst) {
      const e = edgeOn(inst.scene.part, match(inst.scene), inst.scene.clearance);
      return e.bar < e.least ? null : `an edge-on block fits: a bar ${(e.bar * 1000).toFixed(1)} mm long fits the opening, the block is ${(e.least * 1000).toFixed(1)} mm across at least`;
    },
  },
  {
    name: 'decoys-do-not-fit',
    check(inst) {
      const s = inst.scene;
      for (const o of s.wall.openings) {
        if (o.kind === 'match') continue;
        if (fitsFaceOn(s.part, o, s.clearance)) return `the ${o.kind} decoy holds the block face-on`;
        const e = edgeOn(s.part, o, s.clearance);
        if (e.bar >= e.least) return `the ${o.kind} decoy lets the block through edge-on`;
      }
      return null;
    },
  },
  {
    name: 'start-clear',
    check(inst) {
      const s = inst.scene;
      const r = partRadius(s);
      const p = s.start.p;
      if (p[0] - r < WORKSPACE.min[0] || p[0] + r > WORKSPACE.max[0] || p[1] - r < WORKSPACE.min[1] || p[1] + r > WORKSPACE.max[1]) return 'the block may stick out of the workspace at the start';
      return p[2] - r > s.wall.z + s.wall.thickness / 2 ? null : 'the block may touch the wall at the start';
    },
  },
];

/** M5's sightless strategies: the held-part kit's. */
export const SIGHTLESS: SightlessStrategy[] = HELD_PART_SIGHTLESS;
