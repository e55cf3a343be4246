/**
 * Physical layout of A1: sizes of the cells, the box, the hiding wall and the table slots, and
 * the shapes of the polycube pieces. Everything is in metres; the table top is at y = 0 and
 * the box is centred on the origin.
 */
import type { CameraSpec } from '../../../render/camera-spec.ts';
import type { ShapeSpec, Vec3 } from '../../../sim/types.ts';
import type { Cell } from '../../../verify/polycube.ts';
import { cellKey, type BoxDims } from './geometry.ts';

/** Edge of one box cell and of one cube of a piece, metres. */
export const CELL = 0.03;
/**
 * How far each outer face of a piece is set in from its cell boundary: 1 mm to a box wall,
 * 2 mm between neighbouring pieces, so lowering a piece into its cells touches nothing.
 */
export const GAP = 0.001;
/** Thickness of the box floor. */
export const FLOOR = 0.006;
/** Thickness of the box walls. */
export const WALL = 0.006;
/** Height left under a lowered piece; it settles this far when released. */
export const DROP_GAP = 0.0005;
/** The wall that hides some pieces: its front face (z), thickness, half length and height. */
export const HIDE_WALL = { zFront: -0.1, thickness: 0.01, halfLength: 0.4, height: 0.13 } as const;
/** Table slab: top at y = 0. */
export const TABLE = { half: [0.46, 0.01, 0.25] as Vec3, centreZ: -0.04 } as const;
/** Slots in front of the wall, left and right of the box (x, z of a piece's footprint centre), in one row. */
export const VISIBLE_SLOTS: readonly [number, number][] = [
  [-0.15, 0.02], [0.15, 0.02], [-0.27, 0.02], [0.27, 0.02],
];
/** Slots behind the wall. */
export const HIDDEN_SLOTS: readonly [number, number][] = [
  [-0.26, -0.16], [-0.13, -0.16], [0, -0.16], [0.13, -0.16], [0.26, -0.16],
];

/** The first view: low, from the front, the whole table in frame. */
export const INITIAL_CAMERA: CameraSpec = { azimuth: 0, elevation: 30, distance: 1.0, target: [0, 0.02, 0.02] };

/** Box floor top. */
export const FLOOR_TOP = FLOOR;

/** Centre of internal cell `[i, j, k]` in the world. */
export function cellCentre(box: BoxDims, c: readonly number[]): Vec3 {
  return [
    round9((c[0] + 0.5 - box.cols / 2) * CELL),
    round9(FLOOR_TOP + (c[1] + 0.5) * CELL),
    round9((c[2] + 0.5 - box.rows / 2) * CELL),
  ];
}

/** Rounds to 1e-9 so generated and derived numbers print and hash stably. */
export function round9(x: number): number {
  return Math.round(x * 1e9) / 1e9 + 0;
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
  const add = (half: Vec3, centre: Vec3): void => {
    out.push({ type: 'box', half: half.map(round9) as Vec3, pose: { p: centre.map(round9) as Vec3, q: [0, 0, 0, 1] } });
  };
  const unit = (a: number): Vec3 => [0, 1, 2].map((i) => (i === a ? 1 : 0)) as Vec3;
  const at = (c: readonly number[], offset: Vec3): Vec3 => [0, 1, 2].map((i) => (c[i] - mid[i] + offset[i]) * CELL) as Vec3;
  for (const c of cells) add([core, core, core], at(c, [0, 0, 0]));
  for (const c of cells) {
    for (let a = 0; a < 3; a++) {
      const e = unit(a);
      if (!have.has(cellKey([c[0] + e[0], c[1] + e[1], c[2] + e[2]]))) continue;
      const half: Vec3 = [core, core, core];
      half[a] = GAP;
      add(half, at(c, [e[0] / 2, e[1] / 2, e[2] / 2]));
      for (let b = a + 1; b < 3; b++) {
        const f = unit(b);
        const square = [f, [e[0] + f[0], e[1] + f[1], e[2] + f[2]]].every((d) => have.has(cellKey([c[0] + d[0], c[1] + d[1], c[2] + d[2]])));
        if (!square) continue;
        const post: Vec3 = [core, core, core];
        post[a] = GAP;
        post[b] = GAP;
        add(post, at(c, [(e[0] + f[0]) / 2, (e[1] + f[1]) / 2, (e[2] + f[2]) / 2]));
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

/** Top of the box walls. */
export function boxTop(box: BoxDims): number {
  return round9(FLOOR_TOP + box.layers * CELL);
}
