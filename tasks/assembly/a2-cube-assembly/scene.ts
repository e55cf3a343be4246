/**
 * A2 cube assembly: the scene an instance carries, the tiers' settings and the physical layout,
 * in metres. The table top is y = 0; the build plate lies at the front of the table, nearest the
 * first camera, and the pieces lie on the table behind it and at its back corners.
 *
 * Plate cells are `[i, j, k]` in the plate's frame, aligned with the world: `i` along +X (left →
 * right in the first view), `j` up, `k` along +Z (back → front, towards the first camera). The
 * agent names a cell `[col, row, layer]` = `[i, rows − 1 − k, j]` (the shared names of
 * `tasks/kits/polycube-pieces/cells.ts`), so row 0 is the front row. The target box always
 * stands with its front-left-bottom cube in the agent's cell [0, 0, 0] (the black square).
 */
import type { CameraSpec } from '../../../render/camera-spec.ts';
import type { Vec3 } from '../../../sim/types.ts';
import type { Cell } from '../../../solvers/polycube.ts';
import type { GridDims } from '../../kits/polycube-pieces/cells.ts';
import { CELL } from '../../kits/polycube-pieces/pieces.ts';
import type { TablePiece } from '../../kits/polycube-pieces/placement.ts';
import { round9 } from '../../../core/determinism.ts';
import type { LeverTable } from '../../levers.ts';
import type { Tier } from '../../types.ts';

/** One piece as an instance stores it. */
export interface A2Piece extends TablePiece {
  /** A decoy: a piece that fits in no filling of the box (L5, L7). */
  decoy: boolean;
}

/** Parameters an A2 world is built from. */
export interface A2Scene {
  /** The target box in cells: `cols` along x, `rows` along z, `layers` up. */
  box: GridDims;
  /** Every piece on the table, needed ones and decoys, in the order the tools list them. */
  pieces: A2Piece[];
  /** Whether some pieces are decoys (the rules say so). */
  decoys: boolean;
  /** `+blueprint` (L7): the box is shown only as a line drawing, not in the world. */
  blueprint: boolean;
}

/** What a tier draws. */
export interface TierSettings {
  /** Most pieces a filling needs at the tier: the action budget is this × the budget factor, the same for every seed. */
  maxNeeded: number;
  /** The boxes a draw picks from (one, except at L7). */
  boxes: GridDims[];
  /** The sizes of the needed pieces, by box volume (a multiset, drawn in random order). */
  sizes: Record<number, number[]>;
  /** Decoy pieces and their sizes. */
  decoys: number;
  /** Soma-like pieces: no straight piece and no 2 × 2 square (the Soma set has neither). */
  somaLike: boolean;
  /** `+blueprint`. */
  blueprint: boolean;
}

const CUBE3: GridDims = { cols: 3, rows: 3, layers: 3 };
/** The six ways a 2 × 3 × 4 box can stand (every permutation of its sides). */
const BOXES_234: GridDims[] = [
  { cols: 2, rows: 3, layers: 4 },
  { cols: 2, rows: 4, layers: 3 },
  { cols: 3, rows: 2, layers: 4 },
  { cols: 3, rows: 4, layers: 2 },
  { cols: 4, rows: 2, layers: 3 },
  { cols: 4, rows: 3, layers: 2 },
];

/** The tiers' settings. */
export const TIERS: Record<Tier, TierSettings> = {
  L1: { maxNeeded: 3, boxes: [{ cols: 2, rows: 2, layers: 3 }], sizes: { 12: [4, 4, 4] }, decoys: 0, somaLike: true, blueprint: false },
  L3: { maxNeeded: 6, boxes: [CUBE3], sizes: { 27: [4, 4, 4, 5, 5, 5] }, decoys: 0, somaLike: false, blueprint: false },
  L5: { maxNeeded: 7, boxes: [CUBE3], sizes: { 27: [3, 4, 4, 4, 4, 4, 4] }, decoys: 2, somaLike: true, blueprint: false },
  L7: { maxNeeded: 7, boxes: [CUBE3, ...BOXES_234], sizes: { 27: [3, 4, 4, 4, 4, 4, 4], 24: [4, 4, 4, 4, 4, 4] }, decoys: 2, somaLike: true, blueprint: true },
} as Record<Tier, TierSettings>;

/**
 * The levers A2 supports as single-factor studies over L5 (`A2-L5+blueprint-s100`,
 * tasks/levers.ts): `+blueprint` is its L7's drawing of the box in place of the block on the
 * plate, and nothing else — the box stays L5's 3×3×3 cube (L7 also draws 2×3×4 boxes, a second
 * change), so a study is the seed's L5 world exactly, its goal shown only as a drawing.
 */
export const A2_LEVERS: LeverTable<TierSettings> = {
  '+blueprint': {
    description: 'L5 with the box shown only as a line drawing with dimension lines (front, top, right side), not on the plate; the box stays the L5 3×3×3 cube.',
    apply: (s) => ({ ...s, blueprint: true }),
  },
};

/** The build plate's grid, the same at every tier (its size says nothing about the box). */
export const PLATE_GRID: GridDims = { cols: 4, rows: 4, layers: 4 };
/** Thickness of the plate; its top is at this height. */
export const PLATE = 0.006;
/** Centre of the plate on the table (x, z): at the front, nearest the first camera. */
export const PLATE_CENTRE: readonly [number, number] = [0, 0.04];
/** Margin of plate around its grid, on every side. */
export const PLATE_MARGIN = 0.02;
/** Width of the painted axis strips along the grid's first row and first column. */
export const STRIP = 0.005;
/** Half side of the black square that marks cell [0, 0, 0]. */
export const ORIGIN_MARK_HALF = 0.007;
/** Table slab: top at y = 0. */
export const TABLE = { half: [0.42, 0.01, 0.3] as Vec3, centreZ: -0.04 } as const;
/**
 * Where pieces lie (x, z of a piece's footprint centre): a row behind the plate and one slot at
 * each back corner, all clear of the lanes a piece slides in along from the plate's sides.
 */
export const SLOTS: readonly [number, number][] = [
  [-0.33, -0.235], [-0.22, -0.235], [-0.11, -0.235], [0, -0.235], [0.11, -0.235], [0.22, -0.235], [0.33, -0.235],
  [-0.28, -0.095], [0.28, -0.095],
];

/** The first view: from the front and above, the plate at the front and the pieces behind it. */
export const INITIAL_CAMERA: CameraSpec = { azimuth: 0, elevation: 52, distance: 1.05, target: [0, 0.0, -0.08] };

/** Centre of plate cell `[i, j, k]` in the world. */
export function cellCentre(c: readonly number[]): Vec3 {
  return [
    round9(PLATE_CENTRE[0] + (c[0] + 0.5 - PLATE_GRID.cols / 2) * CELL),
    round9(PLATE + (c[1] + 0.5) * CELL),
    round9(PLATE_CENTRE[1] + (c[2] + 0.5 - PLATE_GRID.rows / 2) * CELL),
  ];
}

/** The target box's cells in plate cells `[i, j, k]`: its front-left-bottom cube in the agent's cell [0, 0, 0]. */
export function boxCells(box: GridDims): Cell[] {
  const out: Cell[] = [];
  for (let j = 0; j < box.layers; j++) {
    for (let k = PLATE_GRID.rows - box.rows; k < PLATE_GRID.rows; k++) for (let i = 0; i < box.cols; i++) out.push([i, j, k]);
  }
  return out;
}

/** The box's cells normalised to start at 0, `[i, j, k]` with `k` growing towards the front (the blueprint's structure). */
export function boxStructure(box: GridDims): Cell[] {
  const out: Cell[] = [];
  for (let j = 0; j < box.layers; j++) for (let k = 0; k < box.rows; k++) for (let i = 0; i < box.cols; i++) out.push([i, j, k]);
  return out;
}
