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

/**
 * The first thing wrong with a hand-written P1 scene, or null: a tray of whole cells, blocks of
 * whole cells with distinct letters lying inside it without overlapping, a target among them and
 * a goal where the target fits. What `solve('P1', scene)` checks before searching.
 */
export function checkP1Scene(s: P1Scene): string | null {
  const whole = (v: number, min: number): boolean => Number.isInteger(v) && v >= min;
  if (!whole(s.cols, 2) || !whole(s.rows, 2) || s.cols * s.rows > 64) return 'the tray must be whole cells, at least 2 × 2 and at most 64 cells';
  if (!(s.cell > 0)) return 'the cell size must be positive';
  if (!['north', 'east', 'south', 'west'].includes(s.exitSide)) return `exitSide must be north, east, south or west, not ${JSON.stringify(s.exitSide)}`;
  const seen = new Set<string>();
  const owner: Array<string | null> = Array.from({ length: s.cols * s.rows }, () => null);
  for (const b of s.blocks) {
    if (!/^[A-Z]$/.test(b.id)) return `block ids are single capital letters, not ${JSON.stringify(b.id)}`;
    if (seen.has(b.id)) return `block ${b.id} is listed twice`;
    seen.add(b.id);
    if (!whole(b.w, 1) || !whole(b.h, 1) || !whole(b.col, 0) || !whole(b.row, 0)) return `block ${b.id}: col, row, w and h must be whole cells (w and h at least 1)`;
    if (b.col + b.w > s.cols || b.row + b.h > s.rows) return `block ${b.id} reaches outside the ${s.cols} × ${s.rows} tray`;
    for (let c = b.col; c < b.col + b.w; c++) {
      for (let r = b.row; r < b.row + b.h; r++) {
        const other = owner[r * s.cols + c];
        if (other) return `blocks ${other} and ${b.id} overlap at column ${c}, row ${r}`;
        owner[r * s.cols + c] = b.id;
      }
    }
  }
  const target = s.blocks.find((b) => b.id === s.target);
  if (!target) return `the target ${JSON.stringify(s.target)} is not one of the blocks`;
  if (!whole(s.goal.col, 0) || !whole(s.goal.row, 0) || s.goal.col + target.w > s.cols || s.goal.row + target.h > s.rows) return `the target ${target.id} does not fit the tray at the goal (column ${s.goal.col}, row ${s.goal.row})`;
  return null;
}
