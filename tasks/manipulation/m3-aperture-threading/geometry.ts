/**
 * M3 geometry derived from the scene: slot outlines on the walls, the walls' collider pieces
 * and drawn mesh (the plate-with-holes builder M1 uses, stood up across z), the part's boxes,
 * the orientation that fits a slot, the route through the slots, and the straight-line check.
 */
import { qaxisAngle, qmul, qnormalize, qrotate } from '../../../sim/math.ts';
import type { Pose, Quat, ShapeSpec, Vec3 } from '../../../sim/types.ts';
import { plateGeometry, type PlateGeometry } from '../m1-chiral-peg/plate-geometry.ts';
import { cellCentres, extent, grownOutline, type Cell2, type Point2 } from '../m1-chiral-peg/polyomino.ts';
import { WORKSPACE, type M3Scene, type M3Slot } from './scene.ts';

/** Rounds away float noise. */
function r9(x: number): number {
  return Math.round(x * 1e9) / 1e9 + 0;
}

/** Turns a point of the slot's own frame by `deg` (a multiple of 90°) about the wall normal. */
function turnPoint([u, v]: Point2, deg: number): Point2 {
  const k = (((deg / 90) % 4) + 4) % 4;
  return k === 0 ? [u, v] : k === 1 ? [-v, u] : k === 2 ? [-u, -v] : [v, -u];
}

/** A slot's outline in world (x, y): its cells grown by the clearance, turned and placed. */
export function slotPolygon(slot: M3Slot, cell: number, clearance: number): Point2[] {
  return grownOutline(slot.cells, cell, clearance).map((p) => {
    const [u, v] = turnPoint(p, slot.turnDeg);
    return [r9(slot.x + u), r9(slot.y + v)];
  });
}

/** Largest distance from a slot's centre to its grown outline, metres. */
export function slotRadius(cells: Cell2[], cell: number, clearance: number): number {
  return Math.max(...grownOutline(cells, cell, clearance).map(([u, v]) => Math.hypot(u, v)));
}

/** Largest distance from the part's centre to any of its points, metres. */
export function partRadius(s: M3Scene): number {
  const [w, h] = extent(s.partCells);
  return Math.hypot((w * s.cell) / 2, (h * s.cell) / 2, s.depth / 2);
}

/** The orientation of the wall bodies: the plate builder's (x, z) plane stood up as world (x, −y). */
export const WALL_TURN: Quat = [Math.SQRT1_2, 0, 0, Math.SQRT1_2];

/**
 * A wall's geometry in its own frame (to be placed at world z with {@link WALL_TURN}): the
 * plate builder works in (x, z) with the thickness along y; the turn maps (x, y, z) to world
 * (x, −z, y), so world height y is the plate's −z.
 */
export function wallGeometry(s: M3Scene, wall: M3Scene['walls'][number]): PlateGeometry {
  const holes = wall.slots.map((slot) => slotPolygon(slot, s.cell, s.clearance).map(([x, y]): Point2 => [x, -y]));
  const t = s.wallThickness / 2;
  return plateGeometry({ x0: WORKSPACE.min[0], x1: WORKSPACE.max[0], z0: -WORKSPACE.max[1], z1: 0 }, holes, -t, t);
}

/** The part's boxes in its own frame: one per cell, `depth` long along z, centred on the bounding box. */
export function partShapes(s: M3Scene): ShapeSpec[] {
  return cellCentres(s.partCells, s.cell).map(([u, v]) => ({
    type: 'box',
    half: [s.cell / 2, s.cell / 2, s.depth / 2],
    pose: { p: [r9(u), r9(v), 0], q: [0, 0, 0, 1] },
  }));
}

/** The orientation in which the part's cross-section lies on a slot's outline (its z along the wall normal). */
export function fitQuat(slot: M3Slot): Quat {
  return qnormalize(qaxisAngle([0, 0, 1], (slot.turnDeg * Math.PI) / 180));
}

/** The matching slot of each wall, in order. */
export function matches(s: M3Scene): M3Slot[] {
  return s.walls.map((w) => w.slots.find((x) => x.kind === 'match')!);
}

/**
 * The route the reference follows: the start; for each wall, the part in the fitting
 * orientation in front of the matching slot and then behind it; the goal.
 */
export function routePoses(s: M3Scene): Pose[] {
  const out: Pose[] = [s.start];
  const off = s.depth / 2 + s.wallThickness / 2 + 0.02;
  s.walls.forEach((w, i) => {
    const m = matches(s)[i];
    const q = fitQuat(m);
    out.push({ p: [m.x, m.y, w.z + off], q });
    out.push({ p: [m.x, m.y, w.z - off], q });
  });
  out.push(s.goal);
  return out;
}

/** Where the whole part must be for success: behind this z (the last wall's back face, less a millimetre). */
export function finishZ(s: M3Scene): number {
  return s.walls[s.walls.length - 1].z - s.wallThickness / 2 - 0.001;
}

function insidePolygon(poly: Point2[], x: number, y: number): boolean {
  let c = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i];
    const [xj, yj] = poly[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

function distanceToPolygon(poly: Point2[], x: number, y: number): number {
  let best = Infinity;
  for (let i = 0; i < poly.length; i++) {
    const [ax, ay] = poly[i];
    const [bx, by] = poly[(i + 1) % poly.length];
    const dx = bx - ax;
    const dy = by - ay;
    const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
    best = Math.min(best, Math.hypot(x - (ax + t * dx), y - (ay + t * dy)));
  }
  return best;
}

/**
 * Why the straight move of the part's centre from `a` to `b` would not be refused, or null when
 * it is sure to be: where the centre crosses each wall's middle plane, the whole part (a ball of
 * the part's radius around the centre) must lie in solid wall — outside every slot and inside the
 * wall's edges.
 */
export function straightLineGap(s: M3Scene, a: Pose, b: Pose): string | null {
  const rad = partRadius(s);
  for (const [i, w] of s.walls.entries()) {
    const t = (w.z - a.p[2]) / (b.p[2] - a.p[2]);
    if (!(t > 0 && t < 1)) return `the straight line does not cross wall ${i + 1}`;
    const x = a.p[0] + t * (b.p[0] - a.p[0]);
    const y = a.p[1] + t * (b.p[1] - a.p[1]);
    for (const slot of w.slots) {
      const poly = slotPolygon(slot, s.cell, s.clearance);
      if (insidePolygon(poly, x, y) || distanceToPolygon(poly, x, y) < rad) return `the straight line passes within the part's radius of a slot in wall ${i + 1}`;
    }
    if (x - rad < WORKSPACE.min[0] || x + rad > WORKSPACE.max[0] || y - rad < WORKSPACE.min[1] || y + rad > WORKSPACE.max[1]) return `the straight line crosses wall ${i + 1} too near its edge to be sure`;
  }
  return null;
}

/** The part's z axis (its length) in the world at a pose. */
export function partAxis(q: Quat): Vec3 {
  return qrotate(q, [0, 0, 1]);
}

/** Composition helper: `b` turned after `a` (world frame). */
export function turnAfter(a: Quat, b: Quat): Quat {
  return qnormalize(qmul(b, a));
}
