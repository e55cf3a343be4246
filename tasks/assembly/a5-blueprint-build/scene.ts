/**
 * A5 blueprint build: the scene an instance carries, the tiers' settings and the physical
 * layout, in metres. The table top is y = 0; the build plate lies at the front of the table,
 * nearest the first camera, and the supply of loose cubes lies in rows behind it.
 *
 * Plate cells are `[i, j, k]` in the plate's frame, aligned with the world: `i` along +X (left →
 * right in the first view), `j` up, `k` along +Z (back → front, towards the first camera). The
 * agent names a cell `[col, row, layer]` = `[i, rows − 1 − k, j]` (the shared names of
 * `tasks/kits/polycube-pieces/cells.ts`), so row 0 is the front row. The target structure is
 * stored in the same axes, normalised to start at 0, with `k` growing towards the front.
 */
import type { CameraSpec } from '../../../render/camera-spec.ts';
import type { Vec3 } from '../../../sim/types.ts';
import type { Cell } from '../../../solvers/polycube.ts';
import type { GridDims } from '../../kits/polycube-pieces/cells.ts';
import { CELL } from '../../kits/polycube-pieces/pieces.ts';
import type { TablePiece } from '../../kits/polycube-pieces/placement.ts';
import type { ViewName } from '../../kits/polycube-pieces/blueprint.ts';
import { round9 } from '../../../core/determinism.ts';
import type { Tier } from '../../types.ts';
import type { LeverTable } from '../../levers.ts';

export { VIEW_NAMES, type ViewName } from '../../kits/polycube-pieces/blueprint.ts';

/** One loose cube of the supply. */
export type SupplyCube = TablePiece;

/** Parameters an A5 world is built from. */
export interface A5Scene {
  /** The target structure's cubes `[i, j, k]` (x right, y up, z towards the front), normalised to start at 0. */
  target: Cell[];
  /** Its bounding block in cells: `cols` along x, `rows` along z, `layers` up. */
  extent: GridDims;
  /** The orthographic views the blueprint shows, in sheet order. */
  views: ViewName[];
  /** The loose cubes on the table, in the order `place` takes them. */
  supply: SupplyCube[];
}

/** What a tier draws. */
export interface TierSettings {
  /** Cubes in the target structure (the same for every seed of the tier). */
  cubes: number;
  /** Largest bounding block of the target, in cells. */
  max: GridDims;
  /** Loose cubes beyond the target's count. */
  spares: number;
  /** The blueprint's views. */
  views: ViewName[];
  /** Every view is needed: leaving out any one of them lets another structure match the rest. */
  everyViewNeeded: boolean;
}

/** The tiers' settings. */
export const TIERS: Record<Tier, TierSettings> = {
  L1: { cubes: 6, max: { cols: 3, rows: 3, layers: 3 }, spares: 0, views: ['front', 'top', 'right'], everyViewNeeded: false },
  L3: { cubes: 9, max: { cols: 4, rows: 4, layers: 3 }, spares: 1, views: ['front', 'top', 'right'], everyViewNeeded: false },
  L5: { cubes: 12, max: { cols: 4, rows: 4, layers: 4 }, spares: 2, views: ['front', 'top', 'right'], everyViewNeeded: true },
  L7: { cubes: 12, max: { cols: 4, rows: 4, layers: 4 }, spares: 2, views: ['front', 'top'], everyViewNeeded: false },
} as Record<Tier, TierSettings>;

/**
 * The levers A5 supports as single-factor studies over L5 (`A5-L5+blueprint-s100`;
 * tasks/levers.ts): `+blueprint` is its L7's setting (two drawings instead of three).
 */
export const A5_LEVERS: LeverTable<TierSettings> = {
  '+blueprint': {
    description: 'L5 with only the front and top drawings: the structure is certified unique from those two alone, so depths must be inferred from where the lines fall.',
    apply: (s) => ({ ...s, views: ['front', 'top'], everyViewNeeded: false }),
  },
};

/** The build plate's grid, the same at every tier (its size says nothing about the target). */
export const PLATE_GRID: GridDims = { cols: 5, rows: 5, layers: 4 };
/** Thickness of the plate; its top is at this height. */
export const PLATE = 0.006;
/** Centre of the plate on the table (x, z): at the front, nearest the first camera. */
export const PLATE_CENTRE: readonly [number, number] = [0, 0.07];
/** Margin of plate around its grid, on every side. */
export const PLATE_MARGIN = 0.02;
/** Width of the painted axis strips along the grid's first row and first column. */
export const STRIP = 0.005;
/** Half side of the black square that marks cell [0, 0, 0]. */
export const ORIGIN_MARK_HALF = 0.007;
/** Table slab: top at y = 0. */
export const TABLE = { half: [0.3, 0.01, 0.22] as Vec3, centreZ: 0 } as const;
/** Supply rows: their z, the x spacing of cubes in a row and the most cubes a row holds. */
export const SUPPLY = { z: [-0.07, -0.125] as const, spacing: 0.05, perRow: 7 } as const;

/** The first view: from the front and above, the plate large at the front and the supply behind it. */
export const INITIAL_CAMERA: CameraSpec = { azimuth: 0, elevation: 52, distance: 0.62, target: [0, 0.0, 0.0] };

/** Centre of plate cell `[i, j, k]` in the world. */
export function cellCentre(c: readonly number[]): Vec3 {
  return [
    round9(PLATE_CENTRE[0] + (c[0] + 0.5 - PLATE_GRID.cols / 2) * CELL),
    round9(PLATE + (c[1] + 0.5) * CELL),
    round9(PLATE_CENTRE[1] + (c[2] + 0.5 - PLATE_GRID.rows / 2) * CELL),
  ];
}

/** Where the supply's `n`-th cube rests (its centre), in rows of {@link SUPPLY}.perRow. */
export function supplyPosition(n: number, count: number): Vec3 {
  const row = Math.floor(n / SUPPLY.perRow);
  const inRow = Math.min(SUPPLY.perRow, count - row * SUPPLY.perRow);
  const x = (n % SUPPLY.perRow - (inRow - 1) / 2) * SUPPLY.spacing;
  return [round9(x), round9(CELL / 2 - 0.001), SUPPLY.z[row]];
}
