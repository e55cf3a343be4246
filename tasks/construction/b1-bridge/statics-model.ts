/**
 * The statics of a B1 construction plan without a world: the plan is landed on the two piers
 * ({@link landPlan}) and solved by the brick kit's plan statics (`tasks/kits/bricks/plan-statics.ts`,
 * the same linear programme the world's `BrickSystem` solves). It is synchronous, so the
 * generator can use it to choose the load and the shortcut filters can check every instance;
 * `test/family-b1.test.ts` checks it against `BrickSystem.analyze` in a real world.
 *
 * The analysis is invariant under the grid's turn and position, so the model works in the
 * unturned stud grid (cells, plates above the pier tops).
 *
 * One linear programme of a two-level bridge takes tens of milliseconds, and the generator, the
 * filters and the solver ask the same questions of the same instance, so verdicts are memoised
 * by their exact inputs (a verdict is a pure function of them).
 */
import type { Placement } from '../../kits/bricks/plan.ts';
import { capacityKg, partsStatics, type PlanStatics } from '../../kits/bricks/plan-statics.ts';
import { landPlan, type B1Scene } from './scene.ts';

export type { PlanStatics } from '../../kits/bricks/plan-statics.ts';

/** The scene fields the statics depend on. */
export type StaticsScene = Pick<B1Scene, 'pierCols' | 'rows' | 'gap' | 'pierPlates' | 'loadCell'>;

/** Most verdicts kept; the oldest go first. */
const MEMO_SIZE = 20_000;
const memo = new Map<string, PlanStatics>();

function key(scene: StaticsScene, plan: Placement[], loadKg: number): string {
  const p = plan.map((x) => `${x.type}@${x.col},${x.row},${x.rot}`).join(';');
  return `${scene.pierCols}|${scene.rows}|${scene.gap}|${scene.pierPlates}|${scene.loadCell[0]},${scene.loadCell[1]}|${p}|${loadKg}`;
}

/**
 * Lands `plan` and solves its statics with `loadKg` hanging from the top face of the highest
 * brick over the load cell (no load when `loadKg` is 0). A plan with a brick that has nothing
 * under it, or with nothing over the load cell while a load is asked, does not hold.
 */
export function planStatics(scene: StaticsScene, plan: Placement[], loadKg: number): PlanStatics {
  const k = key(scene, plan, loadKg);
  const hit = memo.get(k);
  if (hit) return { ...hit };
  const landed = landPlan(scene, plan);
  const result: PlanStatics =
    'unsupported' in landed
      ? { holds: false, reason: `brick ${landed.unsupported + 1} has nothing under it`, loaded: null }
      : partsStatics(landed.parts, loadKg > 0 ? { cell: scene.loadCell, kg: loadKg } : null);
  if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value!);
  memo.set(k, result);
  return { ...result };
}

/**
 * The largest load (kg) the plan carries at the load cell, by bisection on {@link planStatics}
 * between `lo` and `hi` (returns `lo` when even that fails, `hi` when that holds). The result
 * is a load the plan was shown to carry; for a plan that stands unloaded every lighter load
 * holds too (the statics are a linear programme in which the load enters linearly, so its
 * feasible loads form an interval).
 */
export function planCapacityKg(scene: StaticsScene, plan: Placement[], lo = 0.05, hi = 8, iterations = 10): number {
  return capacityKg((kg) => planStatics(scene, plan, kg).holds, lo, hi, iterations);
}
