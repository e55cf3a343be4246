/**
 * The statics of a B1 construction plan without a world: the plan is landed on the two piers
 * ({@link landPlan}) and solved by the brick kit's plan statics (`tasks/kits/bricks/plan-statics.ts`,
 * the same linear programme the world's `BrickSystem` solves). It is synchronous, so the
 * generator can use it to choose the load and the shortcut filters can check every instance;
 * `test/family-b1.test.ts` checks it against `BrickSystem.analyze` in a real world.
 *
 * The analysis is invariant under the grid's turn and position, so the model works in an
 * unturned grid whose origin is at the west pier's outer back corner at pier-top height.
 */
import type { Placement } from '../../kits/bricks/plan.ts';
import { capacityKg, partsStatics, type PlanStatics } from '../../kits/bricks/plan-statics.ts';
import { landPlan, type B1Scene } from './scene.ts';

export type { PlanStatics } from '../../kits/bricks/plan-statics.ts';

/** The scene fields the statics depend on. */
export type StaticsScene = Pick<B1Scene, 'pierCols' | 'rows' | 'gap' | 'pierPlates' | 'loadCell'>;

/**
 * Lands `plan` and solves its statics with `loadKg` hanging from the top face of the highest
 * brick over the load cell (no load when `loadKg` is 0). A plan with a brick that has nothing
 * under it, or with nothing over the load cell while a load is asked, does not hold.
 */
export function planStatics(scene: StaticsScene, plan: Placement[], loadKg: number): PlanStatics {
  const landed = landPlan(scene, plan);
  if ('unsupported' in landed) return { holds: false, reason: `brick ${landed.unsupported + 1} has nothing under it`, loaded: null };
  return partsStatics(landed.parts, loadKg > 0 ? { cell: scene.loadCell, kg: loadKg } : null);
}

/**
 * The largest load (kg) the plan carries at the load cell, by bisection on {@link planStatics}
 * between `lo` and `hi` (returns `lo` when even that fails, `hi` when that holds).
 */
export function planCapacityKg(scene: StaticsScene, plan: Placement[], lo = 0.05, hi = 8, iterations = 10): number {
  return capacityKg((kg) => planStatics(scene, plan, kg).holds, lo, hi, iterations);
}
