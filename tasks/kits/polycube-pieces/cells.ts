/**
 * Cells of a placement grid and the names the agent gives them.
 *
 * Grid cells are `[i, j, k]` in the grid's own frame: `i` along its columns, `j` up and `k`
 * along its rows towards row 0's side (with the grid aligned to the world, `i` runs left →
 * right and `k` back → front, towards the first camera). The agent names a cell
 * `[col, row, layer]` = `[i, rows − 1 − k, j]`, so row 0 is the front row.
 */
import type { Cell } from '../../../solvers/polycube.ts';

/** Size of a placement grid (a box's inside, an outline's bounding block), in cells. */
export interface GridDims {
  /** Cells along `i`. */
  cols: number;
  /** Cells along `k`. */
  rows: number;
  /** Cells along `j`, up. */
  layers: number;
}

/** The agent's `[col, row, layer]` of a grid cell. */
export function toAgentCell(c: readonly number[], dims: GridDims): [number, number, number] {
  return [c[0], dims.rows - 1 - c[2], c[1]];
}

/** The grid cell of an agent's `[col, row, layer]`. */
export function fromAgentCell(a: readonly number[], dims: GridDims): Cell {
  return [a[0], a[2], dims.rows - 1 - a[1]];
}

/**
 * The reference cube of a set of cells (in any frame aligned with the world): the lowest; of
 * those the leftmost; of those the frontmost (largest `k`). It is what a `place` call aims.
 */
export function referenceCube(cells: readonly Cell[]): Cell {
  let best = cells[0];
  for (const c of cells) {
    if (c[1] < best[1] || (c[1] === best[1] && (c[0] < best[0] || (c[0] === best[0] && c[2] > best[2])))) best = c;
  }
  return best;
}

/** A string key of a cell. */
export function cellKey(c: readonly number[]): string {
  return `${c[0]},${c[1]},${c[2]}`;
}

/** The six face neighbours of a cell, in a fixed order (random growth draws from it). */
export function faceNeighbours(c: readonly number[]): Cell[] {
  return [
    [c[0] + 1, c[1], c[2]], [c[0] - 1, c[1], c[2]],
    [c[0], c[1] + 1, c[2]], [c[0], c[1] - 1, c[2]],
    [c[0], c[1], c[2] + 1], [c[0], c[1], c[2] - 1],
  ];
}
