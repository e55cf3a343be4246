/**
 * Grid geometry of A1: the box is a placement grid aligned with the world (see
 * `../polycube-pieces/cells.ts` for the cell frame and the agent's `[col, row, layer]` names),
 * with `i` along world +X, `j` up and `k` along +Z towards the first camera.
 */
import type { Cell } from '../../../solvers/polycube.ts';
import type { GridDims } from '../../kits/polycube-pieces/cells.ts';

/** Box size in cells. */
export type BoxDims = GridDims;

/** Every cell of the box, in internal `[i, j, k]` coordinates, in a fixed order. */
export function boxCells(d: BoxDims): Cell[] {
  const out: Cell[] = [];
  for (let j = 0; j < d.layers; j++) for (let k = 0; k < d.rows; k++) for (let i = 0; i < d.cols; i++) out.push([i, j, k]);
  return out;
}
