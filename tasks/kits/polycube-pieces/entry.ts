/**
 * Side entry for polycube pieces: a piece may come into its cells not only straight down from
 * above (the placement's default) but also sliding in level from one side of the grid — from
 * the left, the right, the front or the back. The piece is lifted, turned in the air, carried
 * to a point beyond that side of the grid at its final height, lowered there (where nothing of
 * the grid is) and slid straight in; every leg is a swept move, so a piece that would pass
 * through another is a collision. This module holds the geometry shared by the world (how far
 * out the slide starts) and the cell model solvers use (which cells a slide or a lowering
 * sweeps), so an order search and the physics judge a move alike.
 */
import type { Cell } from '../../../solvers/polycube.ts';
import { cellKey, type GridDims } from './cells.ts';

/** Where a piece comes into its cells from: straight down from above, or level from one side. */
export type EntrySide = 'above' | 'left' | 'right' | 'front' | 'back';

/** Every entry side, in the fixed order searches use (from above first). */
export const ENTRY_SIDES: readonly EntrySide[] = ['above', 'left', 'right', 'front', 'back'];

/**
 * The outward direction of a side in grid cells `[i, j, k]` (the piece starts out there and
 * moves the other way): left is −i, right +i, front +k (towards row 0 and the first camera),
 * back −k, above +j.
 */
export const ENTRY_OUTWARD: Readonly<Record<EntrySide, Cell>> = {
  above: [0, 1, 0],
  left: [-1, 0, 0],
  right: [1, 0, 0],
  front: [0, 0, 1],
  back: [0, 0, -1],
};

/**
 * How many cells a piece whose final cells are `cells` starts out from them when it slides in
 * from `side`: just far enough that every cube is beyond the grid's edge on that side. 0 for
 * `above` (the lowering starts above everything anyway).
 */
export function entryShiftCells(cells: readonly Cell[], side: EntrySide, dims: GridDims): number {
  const d = ENTRY_OUTWARD[side];
  if (side === 'above') return 0;
  const axis = d[0] !== 0 ? 0 : 2;
  const size = axis === 0 ? dims.cols : dims.rows;
  const sign = d[axis];
  const vs = cells.map((c) => c[axis]);
  // Moving outward by s, the innermost cube must reach the first cell beyond the edge.
  return sign > 0 ? size - Math.min(...vs) : Math.max(...vs) + 1;
}

/**
 * The cell model of a move's sweep: whether a piece can come into `cells` from `side` without
 * passing through an occupied cell (`occupied`, {@link cellKey}s of other pieces' cubes). From
 * above it sweeps every cell above each of its cubes; from a side, every cell between each cube
 * and that side's edge in its own layer. Cubes of the piece itself never block it.
 */
export function entryPathClear(cells: readonly Cell[], side: EntrySide, occupied: ReadonlySet<string>, dims: GridDims): boolean {
  const own = new Set(cells.map(cellKey));
  const d = ENTRY_OUTWARD[side];
  const inGrid = (c: Cell): boolean => c[0] >= 0 && c[0] < dims.cols && c[1] >= 0 && c[1] < dims.layers && c[2] >= 0 && c[2] < dims.rows;
  for (const c of cells) {
    let p: Cell = [c[0] + d[0], c[1] + d[1], c[2] + d[2]];
    while (inGrid(p)) {
      const k = cellKey(p);
      if (occupied.has(k) && !own.has(k)) return false;
      p = [p[0] + d[0], p[1] + d[1], p[2] + d[2]];
    }
  }
  return true;
}
