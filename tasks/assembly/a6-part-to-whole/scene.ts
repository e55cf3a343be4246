/**
 * A6 part-to-whole: the scene an instance carries — the assembly form's world or the question
 * form's pictures — and the physical layout of the assembly form, in metres: the table, the board with the target
 * outline, the four trays in a row in front of it, and the grid of the board (turned in
 * quarter turns about the vertical at the `+rot` tier).
 *
 * Board cells are `[i, j, k]` in the board's own frame: `i` along the board's column axis, `j`
 * up, `k` along the board's row axis towards row 0's side (with the board unturned, `i` runs
 * left → right and `k` back → front, as in A1); the agent's `[col, row, layer]` names are the
 * shared ones of `../polycube-pieces/cells.ts`. Cube size, gaps and piece colliders are the
 * shared polycube-piece model, so a piece behaves on the board as it does in A1's box.
 */
import type { CameraSpec } from '../../../render/camera-spec.ts';
import type { Vec3 } from '../../../sim/types.ts';
import type { Rotation } from '../../../solvers/polycube.ts';
import type { GridDims } from '../../kits/polycube-pieces/cells.ts';
import { CELL } from '../../kits/polycube-pieces/pieces.ts';
import { matApply, turnsMatrix } from '../../kits/polycube-pieces/rotations.ts';
import { round9 } from '../../../core/determinism.ts';
import type { Cell } from '../../../solvers/polycube.ts';
import type { TablePiece } from '../../kits/polycube-pieces/placement.ts';
import type { Letter } from './problem.ts';
import type { TargetKind } from './shapes.ts';

/** Size of the target's grid on the board, in cells. */
export type BoardDims = GridDims;

/** An A6 instance's scene: the assembly world or the question's pictures (told apart by `form`). */
export type A6Scene = PhysicalScene | QuestionScene;

/** One piece on a tray. */
export interface A6Piece extends TablePiece {
  /** Tray letter and place: `A1` is the front piece of tray A, `A2` the back one. */
  name: string;
}

/** One tray: an option of the question. */
export interface A6Tray {
  letter: Letter;
  pieces: [A6Piece, A6Piece];
}

/** Parameters an A6 physical world is built from. */
export interface PhysicalScene {
  form: 'physical';
  kind: TargetKind;
  /** What the target is, in a few words (for reports; the agent sees only the outline). */
  name: string;
  /** The target's grid on the board and the board's quarter turns (counter-clockwise from above). */
  board: BoardDims & { turns: number };
  /** The target's cells in board coordinates `[i, j, k]`. */
  target: Cell[];
  trays: A6Tray[];
  /** Index of the tray whose pair forms the target. */
  answer: number;
}

/** The seed's three presentations of one problem. */
export type Presentation = 'composite' | 'neutral' | 'descriptive';

/** The presentations in the order the seeds of one problem take them. */
export const PRESENTATIONS: readonly Presentation[] = ['composite', 'neutral', 'descriptive'];

/** One drawing of a solid: its cubes as drawn (turned, normalised) and the camera's angles in degrees. */
export interface SolidView {
  cells: Cell[];
  azimuth: number;
  elevation: number;
}

/** Parameters of a question-form instance. */
export interface QuestionScene {
  form: 'question';
  presentation: Presentation;
  /** Index of the problem in its series (the three presentations of a problem share it). */
  problem: number;
  kind: TargetKind;
  name: string;
  /** The target as certified (normalised). */
  target: Cell[];
  /** The target's two views (one turned solid, two cameras). */
  targetViews: [SolidView, SolidView];
  /** Per option in letter order, its two components as drawn. */
  options: Array<[SolidView, SolidView]>;
  answer: number;
  /** Visible height of every picture, metres: one scale for all of them. */
  orthoHeight: number;
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
