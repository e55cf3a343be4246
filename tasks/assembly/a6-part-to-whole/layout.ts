/**
 * Physical layout of the A6 assembly form, in metres: the table, the board with the target
 * outline, the four trays in a row in front of it, and the grid of the board (turned in
 * quarter turns about the vertical at the `+rot` tier).
 *
 * Board cells are `[i, j, k]` in the board's own frame: `i` along the board's column axis, `j`
 * up, `k` along the board's row axis towards row 0's side (with the board unturned, `i` runs
 * left → right and `k` back → front, as in A1). The agent names cells `[col, row, layer]`
 * = `[i, rows − 1 − k, j]`. Cube size, gaps and piece colliders are A1's, so the two assembly
 * families share one piece model.
 */
import type { CameraSpec } from '../../../render/camera-spec.ts';
import type { Vec3 } from '../../../sim/types.ts';
import type { Cell, Rotation } from '../../../verify/polycube.ts';
import { matApply, turnsMatrix } from '../a1-occluded-packing/geometry.ts';
import { CELL, round9 } from '../a1-occluded-packing/layout.ts';

export { CELL, round9 };

/** Size of the target's grid on the board, in cells. */
export interface BoardDims {
  cols: number;
  rows: number;
  layers: number;
}

/** Table slab: top at y = 0. */
export const TABLE = { half: [0.5, 0.01, 0.37] as Vec3, centreZ: -0.1 } as const;
/** Thickness of the board and of the tray plates; their tops are at this height. */
export const PLATE = 0.006;
/** Top of the board and of the trays. */
export const PLATE_TOP = PLATE;
/** Centre of the board on the table (x, z). */
export const BOARD_CENTRE: readonly [number, number] = [0, -0.27];
/** Half side of the square board. */
export const BOARD_HALF = 0.105;
/** Trays: centres along x (A to D from the left), their z, half sizes, and the piece slots (z) in each. */
export const TRAYS = {
  x: [-0.255, -0.085, 0.085, 0.255] as const,
  z: 0.07,
  half: [0.08, PLATE / 2, 0.165] as Vec3,
  /** Piece 1 lies in the front half, piece 2 in the back half. */
  slotZ: [0.15, -0.01] as const,
} as const;
/** Longest side of a piece's footprint on a tray, in cubes (the slots are this wide). */
export const MAX_FOOTPRINT = 5;
/** Longest side of the target grid on the board, in cubes. */
export const MAX_GRID = 5;
/** Most layers the target may have on the board. */
export const MAX_LAYERS = 4;
/** How far each ghost cube is set in from its cell on every side, so a placed cube hides it. */
export const GHOST_INSET = 0.003;
/** Width of the painted axis strips along the grid's first row and first column. */
export const STRIP = 0.005;

/** The first view: from the front, above, the trays in front and the board behind. */
export const INITIAL_CAMERA: CameraSpec = { azimuth: 0, elevation: 50, distance: 1.1, target: [0, 0, -0.09] };

/** The rotation of the board: `turns` quarter turns counter-clockwise as seen from above. */
export function boardRotation(turns: number): Rotation {
  return turnsMatrix(Array.from({ length: ((turns % 4) + 4) % 4 }, () => 'y+' as const));
}

/** The inverse of a cube rotation (its transpose). */
export function transpose(m: Rotation): Rotation {
  return [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]];
}

/** Centre of board cell `[i, j, k]` in the world. */
export function cellCentre(dims: BoardDims, turns: number, c: readonly number[]): Vec3 {
  const local: Vec3 = [(c[0] + 0.5 - dims.cols / 2) * CELL, 0, (c[2] + 0.5 - dims.rows / 2) * CELL];
  const w = matApply(boardRotation(turns), local);
  return [round9(BOARD_CENTRE[0] + w[0]), round9(PLATE_TOP + (c[1] + 0.5) * CELL), round9(BOARD_CENTRE[1] + w[2])];
}

/** A board-frame point (metres, relative to the board centre at plate height) in the world. */
export function boardPoint(turns: number, local: readonly number[]): Vec3 {
  const w = matApply(boardRotation(turns), local);
  return [round9(BOARD_CENTRE[0] + w[0]), round9(PLATE_TOP + w[1]), round9(BOARD_CENTRE[1] + w[2])];
}

/** The agent's `[col, row, layer]` of a board cell. */
export function toAgentCell(c: readonly number[], dims: BoardDims): [number, number, number] {
  return [c[0], dims.rows - 1 - c[2], c[1]];
}

/** The board cell of an agent's `[col, row, layer]`. */
export function fromAgentCell(a: readonly number[], dims: BoardDims): Cell {
  return [a[0], a[2], dims.rows - 1 - a[1]];
}
