/**
 * The statics of a B2 cantilever plan without a world, for the generator, the solver and the
 * shortcut filters:
 *
 * - {@link planStatics}: the plan landed on the studded table ({@link landPlan}) and solved by
 *   the brick kit's plan statics (`tasks/kits/bricks/plan-statics.ts`, the same linear programme
 *   the world's `BrickSystem` solves), with the payload hanging from the highest brick over the
 *   target cell;
 * - {@link unanchoredHolds}: the certificate's second half — the same layout *without its
 *   anchoring connection*: its bricks held to one another exactly as in the layout (one rigid
 *   body, as strong as you like) but merely resting on the table, the studs there gripping
 *   nothing. Such a body stays only while the weight of everything (bricks and payload) acts
 *   behind the table's edge, its tipping line; a cantilever whose payload hangs out past the
 *   edge and outweighs the bricks' counter-moment tips over.
 *
 * The analysis is invariant under the grid's turn and position, so the model works in the
 * unturned stud grid (cells, plates above the table top). Verdicts are memoised by their exact
 * inputs (the generator, the filters and the solver ask the same questions).
 */
import type { Placement } from '../../kits/bricks/plan.ts';
import { capacityKg, partCentre, partMass, partsStatics, type PlanStatics } from '../../kits/bricks/plan-statics.ts';
import { PITCH } from '../../kits/bricks/catalog.ts';
import { landPlan, type B2Scene } from './scene.ts';

export type { PlanStatics } from '../../kits/bricks/plan-statics.ts';

/** The scene fields the statics depend on. */
export type StaticsScene = Pick<B2Scene, 'tableCols' | 'rows' | 'reach' | 'tablePlates' | 'targetCell'>;

/** Most verdicts kept; the oldest go first. */
const MEMO_SIZE = 20_000;
const memo = new Map<string, PlanStatics>();

function key(scene: StaticsScene, plan: Placement[], loadKg: number): string {
  const p = plan.map((x) => `${x.type}@${x.col},${x.row},${x.rot}`).join(';');
  return `${scene.tableCols}|${scene.rows}|${scene.reach}|${scene.tablePlates}|${scene.targetCell[0]},${scene.targetCell[1]}|${p}|${loadKg}`;
}

/**
 * Lands `plan` and solves its statics with `loadKg` hanging from the top face of the highest
 * brick over the target cell (no load when `loadKg` is 0). A plan with a brick that has nothing
 * under it, or with nothing over the target while a load is asked, does not hold.
 */
export function planStatics(scene: StaticsScene, plan: Placement[], loadKg: number): PlanStatics {
  const k = key(scene, plan, loadKg);
  const hit = memo.get(k);
  if (hit) return { ...hit };
  const landed = landPlan(scene, plan);
  const result: PlanStatics =
    'unsupported' in landed
      ? { holds: false, reason: `brick ${landed.unsupported + 1} has nothing under it`, loaded: null }
      : partsStatics(landed.parts, loadKg > 0 ? { cell: scene.targetCell, kg: loadKg } : null);
  if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value!);
  memo.set(k, result);
  return { ...result };
}

/**
 * The largest payload (kg) the plan carries at the target, by bisection on {@link planStatics}
 * (the load enters the linear programme linearly, so the loads it carries form an interval).
 */
export function planCapacityKg(scene: StaticsScene, plan: Placement[], lo = 0.005, hi = 2, iterations = 10): number {
  return capacityKg((kg) => planStatics(scene, plan, kg).holds, lo, hi, iterations);
}

/**
 * Net moment about the table's edge (N·m, positive = tipping outward) of the layout taken as
 * one rigid body resting on the table without stud grip, with `loadKg` at the target cell's
 * centre. The edge is the line col = W; brick masses act at their centres (the kit's
 * {@link partMass} and {@link partCentre}). Null when the plan does not land.
 */
export function unanchoredMoment(scene: StaticsScene, plan: Placement[], loadKg: number): number | null {
  const landed = landPlan(scene, plan);
  if ('unsupported' in landed) return null;
  const edge = scene.tableCols * PITCH;
  let moment = loadKg * ((scene.targetCell[0] + 0.5) * PITCH - edge);
  for (const p of landed.parts) if (!p.fixed) moment += partMass(p) * (partCentre(p)[0] - edge);
  return moment * 9.81;
}

/**
 * Whether the layout would stay on the table without its anchoring connection (see the module
 * comment): true only when the whole weight, payload included, acts behind the edge.
 */
export function unanchoredHolds(scene: StaticsScene, plan: Placement[], loadKg: number): boolean {
  const m = unanchoredMoment(scene, plan, loadKg);
  return m !== null && m < 0;
}
