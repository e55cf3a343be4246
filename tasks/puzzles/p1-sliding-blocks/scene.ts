/**
 * P1 sliding blocks: what an instance carries (see README.md for every field) and the fixed
 * sizes of the tray and the blocks.
 */
import type { TrayDirection } from '../../kits/grid-tray.ts';

/** One block: its letter, its north-west cell and its size in cells. */
export interface P1Block {
  id: string;
  col: number;
  row: number;
  /** Width east–west, cells. */
  w: number;
  /** Depth north–south, cells. */
  h: number;
}

/** Parameters a P1 world is built from. */
export interface P1Scene {
  cols: number;
  rows: number;
  /** Cell edge, m. */
  cell: number;
  /** Every block, the target first. */
  blocks: P1Block[];
  /** Letter of the block to free. */
  target: string;
  /** The north-west cell the target must reach (it then covers the green cells). */
  goal: { col: number; row: number };
  /** The tray wall the goal cells touch (the green bar is drawn outside it). */
  exitSide: TrayDirection;
  /** The tray turned about the vertical relative to the first view, degrees. */
  yawDeg: number;
}

export const CELL = 0.05;
export const BLOCK_HEIGHT = 0.03;
export const WALL_HEIGHT = 0.04;
export const TARGET_COLOR = '#c0392b';
// Muted wood tones for the other blocks; none red or green.
export const BLOCK_COLORS = ['#2e86c1', '#b9770e', '#7d3c98', '#117a65', '#5d6d7e', '#a04000', '#1f618d', '#7e5109', '#6c3483', '#34495e'];
export const GOAL_COLOR = '#27ae60';
