/**
 * A3 blocked insertion: the scene an instance carries, the tiers' settings and the physical
 * layout — the box, the table slots, the wall of the `+occ` tier. Everything is in metres; the
 * table top is at y = 0 and the box is centred on the origin. Cube size, gaps and piece
 * colliders are the shared polycube-piece kit (`tasks/kits/polycube-pieces/`); the box is a
 * placement grid aligned with the world (the kit's `cells.ts`: `i` along +x, `j` up, `k` along
 * +z towards the first camera; the agent's `[col, row, layer]`).
 */
import type { CameraSpec } from '../../../render/camera-spec.ts';
import type { Vec3 } from '../../../sim/types.ts';
import type { Tier } from '../../types.ts';
import { round9 } from '../../../core/determinism.ts';
import type { GridDims } from '../../kits/polycube-pieces/cells.ts';
import { CELL } from '../../kits/polycube-pieces/pieces.ts';
import type { TablePiece } from '../../kits/polycube-pieces/placement.ts';
import type { TurnName } from '../../kits/polycube-pieces/rotations.ts';
import type { WallBox } from '../../kits/polycube-pieces/sight.ts';
import type { LeverTable } from '../../levers.ts';

/** Box size in cells. */
export type BoxDims = GridDims;

/** Where a piece stands in the box at the start: the `place` call that puts it there from its table orientation. */
export interface StartPlacement {
  /** Quarter turns from the orientation it has on the table. */
  turns: TurnName[];
  /** The agent's `[col, row, layer]` of its reference cube. */
  cell: [number, number, number];
}

/** One piece as an instance stores it. */
export interface A3Piece extends TablePiece {
  /** Its colour name, which is also the name the agent uses. */
  name: string;
  /** Lies behind the wall, out of sight from the first view (`+occ`). */
  hidden: boolean;
  /**
   * Null for a piece that starts on the table at `position`. For a piece that starts in the
   * box: where it stands there; `position` is then the free place on the table that `remove`
   * sets it down on, in the orientation `cells` gives.
   */
  start: StartPlacement | null;
}

/** Parameters an A3 world is built from. */
export interface A3Scene {
  box: BoxDims;
  /** Every piece; the ones that start in the box are listed in an order they can be lowered in. */
  pieces: A3Piece[];
  /** Whether some pieces are spares (the rules say so). */
  spares: boolean;
  /** Whether the grey wall stands behind the table pieces and hides some of them (`+occ`). */
  wall: boolean;
}

/** What each tier asks of a draw. */
export interface TierSpec {
  box: BoxDims;
  /** Pieces in the filling (min, max). */
  pieces: [number, number];
  /** Cubes per piece (min, max). */
  sizes: [number, number];
  /** Pieces that start in the box and must come out (and go back) in every solution. */
  blockers: number;
  /** Pieces that start in the box and never need to move. */
  decoys: number;
  /** Spare pieces on the table that fit in no filling. */
  spares: number;
  /** Some table piece must go in after a blocker is back (it lies on top of one). */
  interleave: boolean;
  /** Table pieces behind the wall (`+occ`). */
  hidden: number;
}

/** The tiers' parameters. */
export const TIER_SPECS: Record<Tier, TierSpec> = {
  L1: { box: { cols: 3, rows: 2, layers: 2 }, pieces: [3, 3], sizes: [3, 5], blockers: 1, decoys: 0, spares: 0, interleave: false, hidden: 0 },
  L3: { box: { cols: 3, rows: 3, layers: 2 }, pieces: [4, 4], sizes: [4, 5], blockers: 1, decoys: 0, spares: 0, interleave: true, hidden: 0 },
  L5: { box: { cols: 4, rows: 3, layers: 2 }, pieces: [5, 6], sizes: [4, 5], blockers: 2, decoys: 1, spares: 1, interleave: true, hidden: 0 },
  L7: { box: { cols: 4, rows: 3, layers: 2 }, pieces: [5, 6], sizes: [4, 5], blockers: 2, decoys: 1, spares: 1, interleave: true, hidden: 2 },
};

/**
 * The levers A3 supports as single-factor studies over L5 (`A3-L5+occ-s100`;
 * tasks/levers.ts): each the L5 settings with one change.
 */
export const A3_LEVERS: LeverTable<TierSpec> = {
  '+occ': { description: "L5 with 2 of the table pieces hidden behind a wall.", apply: (s) => ({ ...s, hidden: 2 }) },
};

/**
 * The largest agent cell a `place` call may name, the same at every tier: the schema must not
 * give the box's size away (issue 36). A cell outside the box is simply refused.
 */
export const CELL_MAX: BoxDims = { cols: 4, rows: 3, layers: 2 };

/** Thickness of the box floor. */
export const FLOOR = 0.006;
/** Thickness of the box walls. */
export const WALL = 0.006;
/** Box floor top. */
export const FLOOR_TOP = FLOOR;
/**
 * Height of the box's dark front wall above the floor's top: a low rim, so the first view sees
 * the floor of the front row (and the black square in cell [0, 0, 0]) over it.
 */
export const FRONT_RIM = 0.012;
/** Half side of the black square that marks the floor of cell [0, 0, 0]. */
export const ORIGIN_MARK_HALF = 0.007;
/** The ruler along the table's front edge (x from −half to +half), for sizing pieces. */
export const TABLE_RULER = { half: 0.2, z: 0.12 } as const;
/** Table slab: top at y = 0. */
export const TABLE = { half: [0.46, 0.01, 0.27] as Vec3, centreZ: -0.08 } as const;
/**
 * Slots on the table in sight from the first view (x, z of a piece's footprint centre): a front
 * row and a back row, left and right of the box. Pieces that start in the box get one too: where
 * `remove` sets them down.
 */
export const VISIBLE_SLOTS: readonly [number, number][] = [
  [-0.14, 0.045], [0.14, 0.045], [-0.24, 0.045], [0.24, 0.045],
  [-0.15, -0.1], [0.15, -0.1], [-0.25, -0.1], [0.25, -0.1],
];
/** The `+occ` wall: its front face (z), thickness, half length and height. */
export const HIDE_WALL = { zFront: -0.16, thickness: 0.01, halfLength: 0.4, height: 0.18 } as const;
/** Slots behind the wall (`+occ`). */
export const HIDDEN_SLOTS: readonly [number, number][] = [
  [-0.2, -0.23], [0, -0.23], [0.2, -0.23],
];

/** The wall's box, for sight lines. */
export const HIDE_WALL_BOX: WallBox = {
  min: [-HIDE_WALL.halfLength, 0, HIDE_WALL.zFront - HIDE_WALL.thickness],
  max: [HIDE_WALL.halfLength, HIDE_WALL.height, HIDE_WALL.zFront],
};

/**
 * The first view: from the front and above, steep enough to see into the box over its low
 * front rim, with every table slot and the table ruler's ends in frame.
 */
export const INITIAL_CAMERA: CameraSpec = { azimuth: 0, elevation: 52, distance: 0.97, target: [0, 0.01, -0.03] };

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

/** Whether an internal cell lies inside the box. */
export function inBox(box: BoxDims, c: readonly number[]): boolean {
  return c[0] >= 0 && c[0] < box.cols && c[1] >= 0 && c[1] < box.layers && c[2] >= 0 && c[2] < box.rows;
}
