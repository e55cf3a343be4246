/**
 * A1 occluded packing: the scene an instance carries, and the physical layout — the box, the
 * hiding wall and the table slots. Everything is in metres; the table top is at y = 0 and the
 * box is centred on the origin. Cube size, gaps and piece colliders are the shared
 * polycube-piece kit (`tasks/kits/polycube-pieces/`). The box is a placement grid aligned with
 * the world (see the kit's `cells.ts` for the cell frame and the agent's `[col, row, layer]`
 * names), with `i` along world +X, `j` up and `k` along +Z towards the first camera.
 */
import type { CameraSpec } from '../../../render/camera-spec.ts';
import type { Vec3 } from '../../../sim/types.ts';
import { CELL } from '../../kits/polycube-pieces/pieces.ts';
import type { Cell } from '../../../solvers/polycube.ts';
import type { GridDims } from '../../kits/polycube-pieces/cells.ts';
import type { TablePiece } from '../../kits/polycube-pieces/placement.ts';
import { round9 } from '../../../core/determinism.ts';

/** Box size in cells. */
export type BoxDims = GridDims;

/** Every cell of the box, in internal `[i, j, k]` coordinates, in a fixed order. */
export function boxCells(d: BoxDims): Cell[] {
  const out: Cell[] = [];
  for (let j = 0; j < d.layers; j++) for (let k = 0; k < d.rows; k++) for (let i = 0; i < d.cols; i++) out.push([i, j, k]);
  return out;
}

/** One piece as an instance stores it. */
export interface A1Piece extends TablePiece {
  /** Its colour name, which is also the name the agent uses. */
  name: string;
  /** Lies behind the wall, out of sight from the first view. */
  hidden: boolean;
}

/** Parameters an A1 world is built from. */
export interface A1Scene {
  box: BoxDims;
  pieces: A1Piece[];
  /** Whether some pieces are spares (the rules say so). */
  spares: boolean;
}

/** Thickness of the box floor. */
export const FLOOR = 0.006;
/** Thickness of the box walls. */
export const WALL = 0.006;
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

/** Top of the box walls. */
export function boxTop(box: BoxDims): number {
  return round9(FLOOR_TOP + box.layers * CELL);
}
