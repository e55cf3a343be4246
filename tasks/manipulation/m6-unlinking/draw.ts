/**
 * The generator's random draw of a scene, apart from the rest of `generate.ts` so that the
 * family's sightless adversary (`filters.ts`) can sample it without an import cycle.
 */
import { roundTo } from '../../../core/determinism.ts';
import type { Rng } from '../../../core/rng.ts';
import { qaxisAngle } from '../../../sim/math.ts';
import type { RulerSpec } from '../../../sim/types.ts';
import type { Tier } from '../../types.ts';
import { tidyQuat } from '../m1-chiral-peg/scene.ts';
import { SIZES, TIERS, type M6Scene, type M6TierSettings } from './scene.ts';

/** One draw of the scene for a tier (settings `t`: a lever study's differ from the tier's) from a random stream (no filters); the generator and the adversary both use it. */
export function drawScene(tier: Tier, rng: Rng, t: M6TierSettings = TIERS[tier]): M6Scene {
  // Every number is drawn from a continuous range: on grids (5° slot angles and start turns,
  // 2 mm offsets and places) a prober identified the start pose in a few probes and searched the
  // slot cell by cell well inside the old budget.
  const slotAngleDeg = roundTo(rng.pick([1, -1]) * rng.range(t.slotAngle[0], t.slotAngle[1]), 4);
  const slotOffset = roundTo(rng.pick([1, -1]) * rng.range(t.slotOffset[0], t.slotOffset[1]), 5);
  // Turned 45–85° away from the lined-up orientation, back toward the frame's own axes, so the
  // hook never turns so far that the top bar jams in its loop.
  const away = rng.range(45, 85);
  const yawDeg = slotAngleDeg - Math.sign(slotAngleDeg) * away;
  const frame = { bar: SIZES.frameBar, width: SIZES.frameWidth, topY: SIZES.topY, baseHeight: SIZES.baseHeight };
  const hook = { bar: SIZES.hookBar, length: SIZES.hookLength, height: SIZES.hookHeight, plateWidth: SIZES.plateWidth, slotAngleDeg, slotOffset, slotWidth: roundTo(SIZES.frameBar + 2 * t.clearance, 4) };
  // Somewhere along the bar, and slid along the hook's loop so the slot is not under the bar.
  const x = roundTo(rng.range(-0.03, 0.03), 5);
  const z = roundTo(rng.pick([1, -1]) * rng.range(0.006, 0.02), 5);
  return {
    frame,
    hook,
    clearance: t.clearance,
    start: { p: [x, SIZES.topY, z], q: tidyQuat(qaxisAngle([0, 1, 0], (yawDeg * Math.PI) / 180)) },
    toolFrame: t.toolFrame,
  };
}
