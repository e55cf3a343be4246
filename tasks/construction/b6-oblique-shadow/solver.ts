/**
 * B6 reference construction. The target is, by construction, the box shadow on the board of a
 * structure the generator drew (`scene.target`): the reference builds exactly that structure,
 * bottom first, as metric `place` calls (each footprint centre in world metres, 0.1 mm, and
 * its length's direction in the tool's convention), then commits. Its shadow (studs included)
 * is computed by the same geometry as the verdict (`shadowIoU`), and the filters keep only
 * instances where it clears the threshold by a margin while every near miss (a column one
 * piece lower, moved one stud, or left out) falls short — see `filters.ts`.
 */
import { roundTo } from '../../../core/determinism.ts';
import type { Instance, ReferenceSolution, ToolCall } from '../../types.ts';
import { mm } from '../../kits/bricks/stud-site.ts';
import type { Placement } from '../../kits/bricks/plan.ts';
import { placementCentre, planIoU, type B6Scene } from './scene.ts';

/** The tool yaw (degrees from +x toward +z, in (−180, 180]) of a placement's length on the grid. */
export function placementYaw(s: Pick<B6Scene, 'yawDeg'>, p: Placement): number {
  let y = s.yawDeg + p.rot;
  if (y > 180) y -= 360;
  return roundTo(y, 2);
}

/** The `place` call of a placement. */
export function placeCall(s: B6Scene, p: Placement): ToolCall {
  const [x, z] = placementCentre(s, p);
  return { tool: 'place', args: { brick_type: p.type, x_m: roundTo(x, 4), z_m: roundTo(z, 4), yaw_deg: placementYaw(s, p) } };
}

/** The reference solution: build the hidden structure, then commit. */
export function reference(instance: Instance<B6Scene>): ReferenceSolution {
  const s = instance.scene;
  return {
    calls: [...s.target.map((p) => placeCall(s, p)), { tool: 'commit', args: {} }],
    method: `the structure whose box shadow is the target (${s.target.length} pieces), built exactly; its shadow with studs reaches IoU ${planIoU(s, s.target).toFixed(3)} on the board by the geometric shadow raster (threshold ${s.threshold})`,
  };
}

/** The reference plan in words (the `+plan` reveal), with the world positions it uses. */
export function planText(s: B6Scene): string {
  const steps = s.target.map((p, i) => {
    const a = placeCall(s, p).args;
    return `${i + 1}) ${p.type} at x ${mm(a.x_m as number)}, z ${mm(a.z_m as number)}, yaw ${a.yaw_deg}°.`;
  });
  return `Build the columns whose shadow is the outline: ${steps.join(' ')} Then commit.`;
}
