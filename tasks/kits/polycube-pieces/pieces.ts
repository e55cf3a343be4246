/**
 * The physical model of a polycube piece: the cube size, the gaps its colliders leave, the
 * wood it is made of, its collider boxes, and the table it lies on. Every assembly family with
 * polycube pieces uses this one model, so a piece behaves the same in a box as on a board.
 * Metres throughout.
 */
import type { Material, ShapeSpec, Vec3 } from '../../../sim/types.ts';
import type { World } from '../../../sim/world.ts';
import type { Cell } from '../../../solvers/polycube.ts';
import { cellKey } from './cells.ts';
import { round9 } from '../../../core/determinism.ts';

/** Edge of one grid cell and of one cube of a piece, metres. */
export const CELL = 0.03;
/**
 * How far each outer face of a piece is set in from its cell boundary: 1 mm to a wall, 2 mm
 * between neighbouring pieces, so lowering a piece into its cells touches nothing.
 */
export const GAP = 0.001;
/** Height left under a lowered piece; it settles this far when released. */
export const DROP_GAP = 0.0005;
/** The wood of pieces, boxes, boards and tables. */
export const WOOD: Material = { density: 700, friction: 0.6, restitution: 0 };

/** A table slab: its half extents and the z of its centre (its top is at y = 0). */
export interface TableSpec {
  /** Half extents of the slab. */
  half: Vec3;
  /** z of the slab's centre (it is centred on x = 0). */
  centreZ: number;
}

/** Adds the static wooden table the pieces lie on, its top at y = 0. */
export function addTable(world: World, table: TableSpec): void {
  world.addBody({
    name: 'table',
    kind: 'static',
    pose: { p: [0, -table.half[1], table.centreZ], q: [0, 0, 0, 1] },
    shapes: [{ type: 'box', half: table.half }],
    material: WOOD,
    color: '#b9b2a6',
  });
}

/** An axis-aligned box collider of half extents `half` centred at `p` in its body's frame, rounded by {@link round9}. */
export function boxShape(half: Vec3, p: Vec3): ShapeSpec {
  return { type: 'box', half: half.map(round9) as Vec3, pose: { p: p.map(round9) as Vec3, q: [0, 0, 0, 1] } };
}

/** Middle of a piece's cell bounding box (the body origin sits there), in cell units. */
export function pieceMid(cells: readonly Cell[]): Vec3 {
  const mid: Vec3 = [0, 0, 0];
  for (let a = 0; a < 3; a++) {
    const vs = cells.map((c) => c[a]);
    mid[a] = (Math.min(...vs) + Math.max(...vs)) / 2;
  }
  return mid;
}

/**
 * The boxes of a piece in the body frame (origin at {@link pieceMid}): per cube a core set in
 * by {@link GAP} on every side; per pair of neighbouring cubes a slab filling the gap between
 * their cores; per 2×2 square of cubes a thin post filling the gap where four cores meet. Every
 * point of the piece is then at least GAP from every cell that is not the piece's, so pieces in
 * neighbouring cells never touch (cores that simply reached their cell boundaries where a cube
 * has a neighbour would meet another piece's along the edge where four cells meet).
 */
export function pieceShapes(cells: readonly Cell[]): ShapeSpec[] {
  const have = new Set(cells.map(cellKey));
  const mid = pieceMid(cells);
  const core = CELL / 2 - GAP;
  const out: ShapeSpec[] = [];
  const unit = (a: number): Vec3 => [0, 1, 2].map((i) => (i === a ? 1 : 0)) as Vec3;
  const at = (c: readonly number[], offset: Vec3): Vec3 => [0, 1, 2].map((i) => (c[i] - mid[i] + offset[i]) * CELL) as Vec3;
  for (const c of cells) out.push(boxShape([core, core, core], at(c, [0, 0, 0])));
  for (const c of cells) {
    for (let a = 0; a < 3; a++) {
      const e = unit(a);
      if (!have.has(cellKey([c[0] + e[0], c[1] + e[1], c[2] + e[2]]))) continue;
      const half: Vec3 = [core, core, core];
      half[a] = GAP;
      out.push(boxShape(half, at(c, [e[0] / 2, e[1] / 2, e[2] / 2])));
      for (let b = a + 1; b < 3; b++) {
        const f = unit(b);
        const square = [f, [e[0] + f[0], e[1] + f[1], e[2] + f[2]]].every((d) => have.has(cellKey([c[0] + d[0], c[1] + d[1], c[2] + d[2]])));
        if (!square) continue;
        const post: Vec3 = [core, core, core];
        post[a] = GAP;
        post[b] = GAP;
        out.push(boxShape(post, at(c, [(e[0] + f[0]) / 2, (e[1] + f[1]) / 2, (e[2] + f[2]) / 2])));
      }
    }
  }
  return out;
}

/** Height of a piece's body origin above its lowest face when it lies in its table orientation. */
export function restingOriginHeight(cells: readonly Cell[]): number {
  const minY = Math.min(...cells.map((c) => c[1]));
  return round9((pieceMid(cells)[1] - minY) * CELL + CELL / 2 - GAP);
}

/** Largest distance of a piece's cube corners from its body origin: what it sweeps when turned in the air. */
export function pieceRadius(cells: readonly Cell[]): number {
  const mid = pieceMid(cells);
  let r = 0;
  for (const c of cells) {
    for (let corner = 0; corner < 8; corner++) {
      const v = [0, 1, 2].map((a) => (c[a] - mid[a]) * CELL + (corner & (1 << a) ? CELL / 2 : -CELL / 2));
      r = Math.max(r, Math.hypot(v[0], v[1], v[2]));
    }
  }
  return r;
}
