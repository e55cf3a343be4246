/**
 * The M1 reference: a short script found from the generated geometry and replayed through the
 * episode loop. At its start height the peg can turn freely, so the script turns it into the
 * fitting orientation there (at most three turns about the working frame's axes, worked out
 * from the start and goal orientations: see `turnsBetween`), then
 * carries it level until its centre is over the matching hole's centre, then lowers it straight
 * into the hole to {@link REFERENCE_DEPTH}.
 */
import { qangle, qrotate } from '../../../sim/math.ts';
import type { Quat, Vec3 } from '../../../sim/types.ts';
import type { Instance, ReferenceSolution, ToolCall } from '../../types.ts';
import { PEG_HEIGHT, PLATE, REFERENCE_DEPTH, goalQuat, turned, worldToFrame, type M1Scene } from './scene.ts';
import { round9 } from '../../../core/determinism.ts';

/** One turn of the `rotate` tool. */
export interface Turn {
  axis: 'x' | 'y' | 'z';
  angleDeg: number;
}

/** An angle in degrees brought into (−180°, 180°], kept to 1e-6°. */
function wrapDeg(deg: number): number {
  let d = ((deg % 360) + 360) % 360;
  if (d > 180) d -= 360;
  return Math.round(d * 1e6) / 1e6;
}

/** The turn about +y of an orientation whose shaft points straight down, degrees. */
function uprightYawDeg(q: Quat): number {
  return (2 * Math.atan2(q[1], q[3]) * 180) / Math.PI;
}

/**
 * Few turns about the working frame's axes (at most three) that take orientation `from` to an
 * upright goal `to` (shaft straight down): when the shaft is not already down, a turn about the
 * vertical that lines it up with a frame axis (skipped if it is), one tipping turn about a
 * horizontal frame axis (a quarter turn, or a half turn when the shaft points up), then the last
 * turn about the vertical. Angles are any real number (the draws are continuous), so no grid
 * search: the turns are worked out, then checked to land on `to`.
 */
export function turnsBetween(from: Quat, to: Quat, frameYawDeg: number): Turn[] {
  if (qangle(from, to) < 1e-6) return [];
  const turns: Turn[] = [];
  let q = from;
  const apply = (t: Turn): void => {
    if (Math.abs(t.angleDeg) < 1e-9) return;
    turns.push(t);
    q = turned(q, frameYawDeg, t.axis, t.angleDeg);
  };
  // The shaft's direction in the working frame's axes.
  const shaft = (): Vec3 => worldToFrame(frameYawDeg, qrotate(q, [0, -1, 0]));
  const s0 = shaft();
  if (s0[1] > 0.999) apply({ axis: 'x', angleDeg: 180 });
  else if (s0[1] > -0.999) {
    // Horizontal: turn about y until it lies along the nearest frame axis, then tip it down.
    const heading = (Math.atan2(s0[0], s0[2]) * 180) / Math.PI; // 0° along +z, 90° along +x
    const nearest = Math.round(heading / 90) * 90;
    apply({ axis: 'y', angleDeg: wrapDeg(nearest - heading) });
    const s1 = shaft();
    // A turn about x by θ takes +z toward -y for θ = +90°; a turn about z takes +x toward -y for θ = -90°.
    if (Math.abs(s1[2]) > 0.5) apply({ axis: 'x', angleDeg: s1[2] > 0 ? 90 : -90 });
    else apply({ axis: 'z', angleDeg: s1[0] > 0 ? -90 : 90 });
  }
  if (qrotate(q, [0, -1, 0])[1] > -0.999) throw new Error('the tipping turn did not bring the shaft down');
  apply({ axis: 'y', angleDeg: wrapDeg(uprightYawDeg(to) - uprightYawDeg(q)) });
  if (qangle(q, to) > 1e-6) throw new Error(`the turns end ${qangle(q, to)} rad from the goal orientation`);
  return turns;
}

/** The reference script for a scene. */
export function referenceCalls(scene: M1Scene): ToolCall[] {
  const hole = scene.holes[scene.match];
  const turns = turnsBetween(scene.start.q, goalQuat(scene), scene.frameYawDeg);
  const calls: ToolCall[] = turns.map((t) => ({ tool: 'rotate', args: { axis: t.axis, angle_deg: t.angleDeg } }));
  const p = scene.start.p;
  const across = worldToFrame(scene.frameYawDeg, [hole.x - p[0], 0, hole.z - p[2]]);
  calls.push({ tool: 'translate', args: { dx_m: round9(across[0]), dy_m: 0, dz_m: round9(across[2]) } });
  const down: Vec3 = [0, PLATE.top - REFERENCE_DEPTH + PEG_HEIGHT / 2 - p[1], 0];
  calls.push({ tool: 'translate', args: { dx_m: 0, dy_m: round9(down[1]), dz_m: 0 } });
  return calls;
}

/** The family's reference solution. */
export function reference(instance: Instance<M1Scene>): ReferenceSolution {
  return {
    calls: referenceCalls(instance.scene),
    method:
      'replayed script from the generated geometry: at most three frame-axis turns at the start height (line the shaft up with a frame axis, tip it down, turn it about the vertical), ' +
      'one level move over the matching hole, one straight lowering into it',
  };
}
