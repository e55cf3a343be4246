/**
 * M3 shortcut filters and sightless strategies.
 *
 * Filters:
 * - `straight-line-blocked`: where the part's centre would cross each wall on the straight
 *   move from its start to the goal, the whole part (a ball of its radius) is in solid wall, so
 *   that one-call shortcut is refused whatever turn goes with it.
 * - `decoys-do-not-fit`: every decoy slot's outline differs from the part's cross-section under
 *   every turn and reflection (same number of squares, so it cannot contain it either).
 * - `one-way-round`: from L3 on the cross-section is chiral, so exactly one orientation fits.
 * - `start-clear`: the part starts wholly inside the workspace, in front of the first wall.
 * - `first-view-clear`: the first camera shows the part large enough, the goal zone, the frame
 *   arrows and every ruler label (sight lines, `view.ts`): not a shortcut, a picture no
 *   candidate camera could frame.
 *
 * Sightless strategies: the held-part kit's memorised plan, straight line and blind probing.
 */
import { HELD_PART_SIGHTLESS } from '../../kits/held-part/sightless.ts';
import type { SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter } from '../../types.ts';
import { freeKey, isChiral } from '../m1-chiral-peg/polyomino.ts';
import { partRadius, straightLineGap } from './geometry.ts';
import { TIERS, WORKSPACE, type M3Scene } from './scene.ts';
import { firstCamera } from './view.ts';
import { yawQuat } from '../../../sim/math.ts';

/** Shortcut filters: each names a way an instance could be trivial; failing draws are re-drawn. */
export const SHORTCUT_FILTERS: InstanceFilter<M3Scene>[] = [
  { name: 'straight-line-blocked', check: (inst) => straightLineGap(inst.scene, inst.scene.start, inst.scene.goal) },
  {
    name: 'decoys-do-not-fit',
    check(inst) {
      const own = freeKey(inst.scene.partCells);
      for (const w of inst.scene.walls) for (const s of w.slots) if (s.kind === 'variant' && freeKey(s.cells) === own) return 'a decoy slot has the part\'s outline';
      return null;
    },
  },
  {
    name: 'one-way-round',
    check: (inst) => (TIERS[inst.tier].shapes !== 'bar' && !isChiral(inst.scene.partCells) ? 'the cross-section is mirror-symmetric' : null),
  },
  {
    name: 'start-clear',
    check(inst) {
      const s = inst.scene;
      const r = partRadius(s);
      const p = s.start.p;
      if (p[0] - r < WORKSPACE.min[0] || p[0] + r > WORKSPACE.max[0] || p[1] - r < WORKSPACE.min[1] || p[1] + r > WORKSPACE.max[1]) return 'the part may stick out of the workspace at the start';
      return p[2] - r > s.walls[0].z + s.wallThickness / 2 ? null : 'the part may touch the first wall at the start';
    },
  },
  {
    // Not a shortcut but a picture no candidate camera frames: the part too small or over a
    // ruler label, the goal zone cut, two rulers' labels crossing (M3-L3-s17, L5-s19, L7-s14).
    // Such draws are re-drawn (version 5).
    name: 'first-view-clear',
    check(inst) {
      const camera = inst.camera.initial;
      const unseen = firstCamera(inst.scene, camera, inst.rulers ?? [], yawQuat(inst.scene.frameYawDeg), [inst.scene.arrowsAt], [camera]).unseen;
      return unseen.length ? `no candidate first camera shows everything: ${unseen.slice(0, 3).map((p) => p.what).join('; ')}` : null;
    },
  },
];

/** M3's sightless strategies: the held-part kit's. */
export const SIGHTLESS: SightlessStrategy[] = HELD_PART_SIGHTLESS;
