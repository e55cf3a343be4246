/**
 * The statics of a B1 construction plan without a world: the plan is landed on the stud grid
 * ({@link landPlan}) and handed to the same linear programme the world's `BrickSystem` solves
 * (`solveStatics` in `sim/brick-statics.ts`: per-brick force and torque balance, per-stud
 * grip-limited pull, push at the stud rims). It is synchronous, so the generator can use it to
 * choose the load and the shortcut filters can check every instance; `test/family-b1.test.ts`
 * checks it against `BrickSystem.analyze` in a real world.
 *
 * The analysis is invariant under the grid's turn and position, so the model works in an
 * unturned grid whose origin is at the west pier's outer back corner at pier-top height.
 */
import { solveStatics, type StaticsBrick, type StaticsConnection, type StaticsLoad } from '../../../sim/brick-statics.ts';
import { BRICK_DEFAULTS } from '../../../sim/bricks.ts';
import type { Vec3 } from '../../../sim/types.ts';
import { GRAVITY, landPlan, PITCH, PLATE, planConnections, topPartAt, type B1Scene, type Placement, type PlannedPart } from './layout.ts';

/** The scene fields the statics depend on. */
export type StaticsScene = Pick<B1Scene, 'pierCols' | 'rows' | 'gap' | 'pierPlates' | 'loadCell'>;

/** Outcome of a plan under a load at the load cell. */
export interface PlanStatics {
  /** The plan stands and carries the load. */
  holds: boolean;
  /** Why not, in words (empty when it holds). */
  reason: string;
  /** The brick the load hangs from, or null when nothing covers the load cell. */
  loaded: string | null;
}

function mass(p: PlannedPart): number {
  const t = p.type!;
  const { density, play } = BRICK_DEFAULTS;
  return density * (t.length * PITCH - 2 * play) * (t.width * PITCH - 2 * play) * (p.height * PLATE);
}

function centre(p: PlannedPart): Vec3 {
  return [(p.cell[0] + p.span[0] / 2) * PITCH, (p.layer + p.height / 2) * PLATE, (p.cell[1] + p.span[1] / 2) * PITCH];
}

/**
 * Lands `plan` and solves its statics with `loadKg` hanging from the top face of the highest
 * brick over the load cell (no load when `loadKg` is 0). A plan with a brick that has nothing
 * under it, or with nothing over the load cell while a load is asked, does not hold.
 */
export function planStatics(scene: StaticsScene, plan: Placement[], loadKg: number): PlanStatics {
  const landed = landPlan(scene, plan);
  if ('unsupported' in landed) return { holds: false, reason: `brick ${landed.unsupported + 1} has nothing under it`, loaded: null };
  const parts = landed.parts;
  const bricks: StaticsBrick[] = parts.filter((p) => !p.fixed).map((p) => ({ name: p.name, mass: mass(p), com: centre(p) }));
  const conns: StaticsConnection[] = planConnections(parts)
    .map((c) => ({
      id: `${c.lower.name}|${c.upper.name}`,
      lower: c.lower.name,
      upper: c.upper.name,
      studs: c.studs.map(([i, j]) => ({ at: [(i + 0.5) * PITCH, c.upper.layer * PLATE, (j + 0.5) * PITCH] as Vec3, u: [1, 0, 0] as Vec3, v: [0, 0, 1] as Vec3 })),
    }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const loads: StaticsLoad[] = [];
  let loaded: string | null = null;
  if (loadKg > 0) {
    const top = topPartAt(parts, scene.loadCell);
    if (!top || top.fixed) return { holds: false, reason: 'nothing covers the load cell: the load falls into the gap', loaded: null };
    loaded = top.name;
    const [c, r] = scene.loadCell;
    loads.push({ body: top.name, point: [(c + 0.5) * PITCH, (top.layer + top.height) * PLATE, (r + 0.5) * PITCH], force: [0, -GRAVITY * loadKg, 0] });
  }
  const res = solveStatics(bricks, conns, loads, {
    gravity: [0, -GRAVITY, 0],
    grip: BRICK_DEFAULTS.gripPerStud,
    shearPerStud: BRICK_DEFAULTS.shearPerStud,
    friction: BRICK_DEFAULTS.friction,
    studRadius: BRICK_DEFAULTS.studRadius,
    lengthScale: PITCH,
  });
  if (res.stable) return { holds: true, reason: '', loaded };
  const why = res.unsupported.length
    ? `${res.unsupported.join(', ')} not connected to a pier`
    : `overloaded stud connections ${res.failing.map((f) => f.id).join(', ')}`;
  return { holds: false, reason: why, loaded };
}

/**
 * The largest load (kg) the plan carries at the load cell, by bisection on {@link planStatics}
 * between `lo` and `hi` (returns `lo` when even that fails, `hi` when that holds).
 */
export function planCapacityKg(scene: StaticsScene, plan: Placement[], lo = 0.05, hi = 8, iterations = 10): number {
  if (!planStatics(scene, plan, lo).holds) return lo;
  if (planStatics(scene, plan, hi).holds) return hi;
  for (let i = 0; i < iterations; i++) {
    const m = (lo + hi) / 2;
    if (planStatics(scene, plan, m).holds) lo = m;
    else hi = m;
  }
  return lo;
}
