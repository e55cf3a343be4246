/**
 * B5 reference solver: the exact search of `search.ts` over brick placements from the
 * instance's supply — the least number of bricks whose projections equal the targets in every
 * view, that land where planned when lowered bottom layer first, and that stand (the stud
 * statics of the brick kit, `partsStatics`) — played as metric `place` calls at the bricks'
 * snapped centres, then `commit`. Iterative deepening proves the count least, so the reference
 * is optimal in actions.
 */
import { roundTo } from '../../../core/determinism.ts';
import { SpaceActError } from '../../../core/errors.ts';
import type { Instance, ReferenceSolution, ToolCall } from '../../types.ts';
import { PITCH } from '../../kits/bricks/catalog.ts';
import { footprint, landParts, type Placement } from '../../kits/bricks/plan.ts';
import { partsStatics } from '../../kits/bricks/plan-statics.ts';
import { mm } from '../../kits/bricks/stud-site.ts';
import { baseplatePart, planToWorld, type B5Scene } from './scene.ts';
import { leastBrickBuilds, type Build, type SearchResult } from './search.ts';

/** True when a build, lowered in its order, lands where it is planned and stands (stud statics, no load). */
export function buildStands(plate: number, b: Build): boolean {
  const landed = landParts([baseplatePart(plate)], b.placements);
  if ('unsupported' in landed) return false;
  const bricks = landed.parts.filter((p) => !p.fixed);
  if (bricks.some((p, i) => p.layer !== 3 * b.placements[i].layer)) return false;
  return partsStatics(landed.parts, null).holds;
}

/** The least-brick standing build of a scene's targets from its supply (memoised per scene object). */
const cache = new WeakMap<object, SearchResult>();
export function searchScene(s: Pick<B5Scene, 'plate' | 'targets' | 'views' | 'supply'>): SearchResult {
  const hit = cache.get(s);
  if (hit) return hit;
  const res = leastBrickBuilds(s.plate, s.targets, s.views, s.supply, { accept: (b) => buildStands(s.plate, b) });
  cache.set(s, res);
  return res;
}

/** The `place` call of a placement: its footprint centre in world metres and its length's direction. */
export function placeCall(s: Pick<B5Scene, 'plate' | 'siteX' | 'siteZ'>, p: Placement): ToolCall {
  const [fc, fr] = footprint(p);
  const [x, , z] = planToWorld(s, [(p.col + fc / 2) * PITCH, 0, (p.row + fr / 2) * PITCH]);
  return { tool: 'place', args: { brick_type: p.type, x_m: roundTo(x, 4), z_m: roundTo(z, 4), yaw_deg: p.rot } };
}

/** The reference solution: the least-brick build, bottom layer first, then commit. */
export function reference(instance: Instance<B5Scene>): ReferenceSolution {
  const s = instance.scene;
  const res = searchScene(s);
  if (!res.build) throw new SpaceActError('invalid-state', `${instance.id}: no build of the targets from the supply was found (the generator should have re-drawn)`, { instance: instance.id });
  return {
    calls: [...res.build.placements.map((p) => placeCall(s, p)), { tool: 'commit', args: {} }],
    optimal: !res.gaveUp,
    method: `exact search over brick placements (iterative deepening on the brick count, ${res.nodes} nodes): ${res.least} bricks is the least that match the ${s.views.join(', ')} views and stand`,
  };
}

/** The reference plan in words (the `+plan` reveal), with the world positions it uses. */
export function planText(s: B5Scene): string {
  const res = searchScene(s);
  if (!res.build) return '';
  const steps = res.build.placements.map((p, i) => {
    const a = placeCall(s, p).args;
    return `${i + 1}) ${p.type} at x ${mm(a.x_m as number)}, z ${mm(a.z_m as number)}, yaw ${a.yaw_deg}° (layer ${p.layer + 1}).`;
  });
  return `Build ${res.build.placements.length} bricks, bottom layer first: ${steps.join(' ')} Then commit.`;
}
