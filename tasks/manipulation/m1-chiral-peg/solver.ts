/**
 * The M1 reference: a short script found from the generated geometry and replayed through the
 * episode loop. At its start height the peg can turn freely, so the script turns it into the
 * fitting orientation there (the fewest turns about the working frame's axes, found by
 * breadth-first search over quarter and half turns about x and z and 15° steps about y), then
 * carries it level until its centre is over the matching hole's centre, then lowers it straight
 * into the hole to {@link REFERENCE_DEPTH}.
 */
import { qangle } from '../../../sim/math.ts';
import type { Quat, Vec3 } from '../../../sim/types.ts';
import type { Instance, ReferenceSolution, ToolCall } from '../../types.ts';
import { PEG_HEIGHT, PLATE, REFERENCE_DEPTH, goalQuat, turned, worldToFrame, type M1Scene } from './scene.ts';
import { round9 } from '../../../core/determinism.ts';

/** One turn of the `rotate` tool. */
export interface Turn {
  axis: 'x' | 'y' | 'z';
  angleDeg: number;
}

const TURN_SET: readonly Turn[] = (() => {
  const out: Turn[] = [];
  for (const axis of ['x', 'z'] as const) for (const a of [90, -90, 180]) out.push({ axis, angleDeg: a });
  for (let k = 1; k <= 12; k++) out.push({ axis: 'y', angleDeg: k * 15 });
  for (let k = 1; k < 12; k++) out.push({ axis: 'y', angleDeg: -k * 15 });
  return out;
})();

/**
 * The fewest turns (at most three) that take orientation `from` to `to` about the axes of a
 * working frame turned by `frameYawDeg`; among equally short ones, the least total angle.
 */
export function turnsBetween(from: Quat, to: Quat, frameYawDeg: number): Turn[] {
  if (qangle(from, to) < 1e-6) return [];
  let frontier: Array<{ q: Quat; turns: Turn[] }> = [{ q: from, turns: [] }];
  for (let depth = 1; depth <= 3; depth++) {
    const next: Array<{ q: Quat; turns: Turn[] }> = [];
    let best: Turn[] | null = null;
    let bestCost = Infinity;
    for (const node of frontier) {
      for (const t of TURN_SET) {
        const q = turned(node.q, frameYawDeg, t.axis, t.angleDeg);
        const turns = [...node.turns, t];
        if (qangle(q, to) < 1e-6) {
          const cost = turns.reduce((s, x) => s + Math.abs(x.angleDeg), 0);
          if (cost < bestCost) {
            best = turns;
            bestCost = cost;
          }
        } else if (depth < 3) next.push({ q, turns });
      }
    }
    if (best) return best;
    frontier = next;
  }
  throw new Error('no sequence of three turns reaches the goal orientation');
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
      'replayed script from the generated geometry: fewest frame-axis turns at the start height (breadth-first search), ' +
      'one level move over the matching hole, one straight lowering into it',
  };
}
