/**
 * The statics of a landed construction plan under arbitrary point forces (a lateral push, a
 * slanted pull), without a world: the same linear programme the world's `BrickSystem` solves
 * (`solveStatics` in `sim/brick-statics.ts`), with the plan's bricks and stud connections built
 * as `plan-statics.ts` builds them for a hung load. `plan-statics.ts` answers "does it carry a
 * weight hung over a cell"; this file answers "does it stand under these forces", for towers
 * pushed sideways (B3) and anything else whose load is not a hung weight.
 *
 * Coordinates: the plan's own grid, x along cols and z along rows in stud pitches
 * (x = col × pitch), y = layer × plate height.
 */
import { BRICK_DEFAULTS } from '../../../sim/bricks.ts';
import { solveStatics, type StaticsBrick, type StaticsConnection, type StaticsLoad } from '../../../sim/brick-statics.ts';
import type { Vec3 } from '../../../sim/types.ts';
import { GRAVITY, PITCH, PLATE } from './catalog.ts';
import { planConnections, type PlannedPart } from './plan.ts';

/** A force on one part of a plan, at a point in the plan's frame (m), in newtons. */
export interface PlanForce {
  part: string;
  point: Vec3;
  force: Vec3;
}

/** Outcome of a plan under forces. */
export interface PlanForcesVerdict {
  /** Every brick is connected to a fixed part and no stud connection is overloaded. */
  holds: boolean;
  /** Why not, in words (empty when it holds). */
  reason: string;
  /** Overloaded connections as `lower|upper`, most overloaded first. */
  failing: string[];
}

/** Mass of a planned brick, kg (the brick system's density over its box less the play). */
export function plannedMass(p: PlannedPart): number {
  const t = p.type!;
  const { density, play } = BRICK_DEFAULTS;
  return density * (t.length * PITCH - 2 * play) * (t.width * PITCH - 2 * play) * (p.height * PLATE);
}

/** Centre of a planned part's box in the plan's frame, m. */
export function plannedCentre(p: PlannedPart): Vec3 {
  return [(p.cell[0] + p.span[0] / 2) * PITCH, (p.layer + p.height / 2) * PLATE, (p.cell[1] + p.span[1] / 2) * PITCH];
}

/**
 * Solves the statics of landed parts (fixed supports and bricks) under gravity and `forces`.
 * A force on a part that is not a brick of the plan is an error of the caller (`RangeError`).
 */
export function partsUnderForces(parts: readonly PlannedPart[], forces: readonly PlanForce[]): PlanForcesVerdict {
  const bricks: StaticsBrick[] = parts.filter((p) => !p.fixed).map((p) => ({ name: p.name, mass: plannedMass(p), com: plannedCentre(p) }));
  const names = new Set(bricks.map((b) => b.name));
  for (const f of forces) if (!names.has(f.part)) throw new RangeError(`force on '${f.part}', which is not a brick of the plan`);
  const conns: StaticsConnection[] = planConnections(parts)
    .map((c) => ({
      id: `${c.lower.name}|${c.upper.name}`,
      lower: c.lower.name,
      upper: c.upper.name,
      studs: c.studs.map(([i, j]) => ({ at: [(i + 0.5) * PITCH, c.upper.layer * PLATE, (j + 0.5) * PITCH] as Vec3, u: [1, 0, 0] as Vec3, v: [0, 0, 1] as Vec3 })),
    }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const loads: StaticsLoad[] = forces.map((f) => ({ body: f.part, point: f.point, force: f.force }));
  const res = solveStatics(bricks, conns, loads, {
    gravity: [0, -GRAVITY, 0],
    grip: BRICK_DEFAULTS.gripPerStud,
    shearPerStud: BRICK_DEFAULTS.shearPerStud,
    friction: BRICK_DEFAULTS.friction,
    studRadius: BRICK_DEFAULTS.studRadius,
    lengthScale: PITCH,
  });
  if (res.stable) return { holds: true, reason: '', failing: [] };
  const failing = res.failing.map((f) => f.id);
  const reason = res.unsupported.length ? `${res.unsupported.join(', ')} not connected to a support` : `overloaded stud connections ${failing.join(', ')}`;
  return { holds: false, reason, failing };
}
