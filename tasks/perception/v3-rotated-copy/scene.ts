/**
 * V3 Rotated copy: the scene an instance carries (plain JSON, a pure function of seed and
 * tier), the tiers, and the fixed sizes every other file of the family shares. Every field is
 * described in README.md.
 */
import type { Pose } from '../../../sim/types.ts';
import type { Tier } from '../../types.ts';

/** A grid cell: column (x) and row (z). */
export interface Cell {
  col: number;
  row: number;
}

/** The four slide directions and the cell step each makes. */
export const DIRECTIONS = {
  left: { col: -1, row: 0 },
  right: { col: 1, row: 0 },
  away: { col: 0, row: -1 },
  toward: { col: 0, row: 1 },
} as const;

/** A slide direction. */
export type Direction = keyof typeof DIRECTIONS;

/** The grid: its size and the cells taken by fixed obstacles. */
export interface Grid {
  size: number;
  obstacles: Cell[];
}

/** Parameters the world is built from: plain JSON, a pure function of (seed, tier). */
export interface V3Scene {
  grid: Grid;
  start: Cell;
  goal: Cell;
}

/** Cell pitch, metres. */
export const PITCH = 0.05;
/** Half the block's side, metres. */
export const BLOCK_HALF = 0.018;
/** Gap under the block so it never touches the board it slides over. */
export const LIFT = 0.0005;

/** What each tier draws: board size, obstacles, and the fewest slides the goal may be away. */
export const TIERS: Record<Extract<Tier, 'L1' | 'L3' | 'L5'>, { size: number; obstacles: number; minSlides: number }> = {
  L1: { size: 4, obstacles: 0, minSlides: 3 },
  L3: { size: 5, obstacles: 3, minSlides: 5 },
  L5: { size: 6, obstacles: 7, minSlides: 8 },
};

/** x of a cell's centre, metres. */
export function cellX(grid: Grid, c: Cell): number {
  return (c.col - (grid.size - 1) / 2) * PITCH;
}

/** z of a cell's centre, metres. */
export function cellZ(grid: Grid, c: Cell): number {
  return (c.row - (grid.size - 1) / 2) * PITCH;
}

/** Pose of the block resting on a cell. */
export function blockPose(grid: Grid, c: Cell): Pose {
  return { p: [cellX(grid, c), BLOCK_HALF + LIFT, cellZ(grid, c)], q: [0, 0, 0, 1] };
}
