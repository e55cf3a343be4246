/**
 * The statics of a landed construction plan without a world: the plan's parts are handed to
 * the same linear programme the world's `BrickSystem` solves (`solveStatics` in
 * `sim/brick-statics.ts`: per-brick force and torque balance, per-stud grip-limited pull, push
 * at the stud rims). It is synchronous, so a generator can choose a load with it and a
 * shortcut filter can check every instance.
 *
 * Coordinates: the plan's own unturned grid, x along cols and z along rows in stud pitches,
 * y = layer × plate height (the analysis does not depend on where the grid stands or how it is
 * turned).
 */
import { BRICK_DEFAULTS } from '../../../sim/bricks.ts';
import { solveStatics, type StaticsBrick, type StaticsConnection, type StaticsLoad } from '../../../sim/brick-statics.ts';
import type { Vec3 } from '../../../sim/types.ts';
import { GRAVITY, PITCH, PLATE } from './catalog.ts';
import { planConnections, topPartAt, type PlannedPart } from './plan.ts';

/** Outcome of a landed plan under a load. */
export interface PlanStatics {
  /** The plan stands and carries the load. */
  holds: boolean;
  /** Why not, in words (empty when it holds). */
  reason: string;
  /** The brick the load hangs from, or null when there is no load or nothing covers its cell. */
  loaded: string | null;
}

/** A load hung from the top face of the highest brick over a stud cell. */
export interface CellLoad {
  cell: readonly [number, number];
  kg: number;
}

/** Mass of a planned brick, kg: the brick system's density over its box (less the play on each side). */
export function partMass(p: PlannedPart): number {
  const t = p.type!;
  const { density, play } = BRICK_DEFAULTS;
  return density * (t.length * PITCH - 2 * play) * (t.width * PITCH - 2 * play) * (p.height * PLATE);
}

/** Centre of mass of a planned part in the plan's unturned grid frame, m (x along cols, y = layer × plate height, z along rows). */
export function partCentre(p: PlannedPart): Vec3 {
  return [(p.cell[0] + p.span[0] / 2) * PITCH, (p.layer + p.height / 2) * PLATE, (p.cell[1] + p.span[1] / 2) * PITCH];
}

/**
 * Solves the statics of landed parts (fixed supports and bricks) with `load` hanging from the
 * top face of the highest brick over its cell (no load when it is null or weighs nothing). A
 * load over a cell no brick covers does not hold.
 */
export function partsStatics(parts: readonly PlannedPart[], load: CellLoad | null): PlanStatics {
  const bricks: StaticsBrick[] = parts.filter((p) => !p.fixed).map((p) => ({ name: p.name, mass: partMass(p), com: partCentre(p) }));
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
  if (load && load.kg > 0) {
    const top = topPartAt(parts, load.cell);
    if (!top || top.fixed) return { holds: false, reason: 'nothing covers the load cell: the load falls', loaded: null };
    loaded = top.name;
    const [c, r] = load.cell;
    loads.push({ body: top.name, point: [(c + 0.5) * PITCH, (top.layer + top.height) * PLATE, (r + 0.5) * PITCH], force: [0, -GRAVITY * load.kg, 0] });
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
  const why = res.unsupported.length ? `${res.unsupported.join(', ')} not connected to a support` : `overloaded stud connections ${res.failing.map((f) => f.id).join(', ')}`;
  return { holds: false, reason: why, loaded };
}

/**
 * The largest load (kg) for which `holds` is true, by bisection between `lo` and `hi`
 * (returns `lo` when even that fails, `hi` when that holds).
 */
export function capacityKg(holds: (kg: number) => boolean, lo = 0.05, hi = 8, iterations = 10): number {
  if (!holds(lo)) return lo;
  if (holds(hi)) return hi;
  for (let i = 0; i < iterations; i++) {
    const m = (lo + hi) / 2;
    if (holds(m)) lo = m;
    else hi = m;
  }
  return lo;
}
