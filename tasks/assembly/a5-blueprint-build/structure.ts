/**
 * The A5 target structure: a random stack of cubes that a builder can put up cube by cube (every
 * cube on the plate or on a cube directly below), grown from one column with a connected
 * footprint, inside the tier's largest bounding block.
 */
import type { Rng } from '../../../core/rng.ts';
import type { Cell } from '../../../solvers/polycube.ts';
import type { GridDims } from '../../kits/polycube-pieces/cells.ts';
import { cellsOf, type HeightMap } from './readings.ts';

/** Chance that a growth step widens the footprint rather than stacks on a column. */
const WIDEN = 0.55;

/**
 * A random buildable structure of `cubes` cubes within `max`, normalised to start at 0 on every
 * axis, with its bounding block; null when the draw is too flat or too narrow to need a drawing
 * (fewer than two cells along an axis).
 */
export function drawStructure(rng: Rng, cubes: number, max: GridDims): { cells: Cell[]; extent: GridDims } | null {
  const h: HeightMap = Array.from({ length: max.cols }, () => new Array<number>(max.rows).fill(0));
  h[rng.int(0, max.cols - 1)][rng.int(0, max.rows - 1)] = 1;
  for (let n = 1; n < cubes; n++) {
    const widen: Array<[number, number]> = [];
    const stack: Array<[number, number]> = [];
    for (let i = 0; i < max.cols; i++) {
      for (let k = 0; k < max.rows; k++) {
        if (h[i][k] > 0) {
          if (h[i][k] < max.layers) stack.push([i, k]);
          continue;
        }
        const next = [[i + 1, k], [i - 1, k], [i, k + 1], [i, k - 1]].some(([a, b]) => a >= 0 && b >= 0 && a < max.cols && b < max.rows && h[a][b] > 0);
        if (next) widen.push([i, k]);
      }
    }
    const from = widen.length && (!stack.length || rng.next() < WIDEN) ? widen : stack;
    if (!from.length) return null;
    const [i, k] = rng.pick(from);
    h[i][k]++;
  }
  const used = (a: number): number[] => {
    const out: number[] = [];
    for (let i = 0; i < max.cols; i++) for (let k = 0; k < max.rows; k++) if (h[i][k] > 0) out.push(a === 0 ? i : k);
    return out;
  };
  const [i0, i1] = [Math.min(...used(0)), Math.max(...used(0))];
  const [k0, k1] = [Math.min(...used(2)), Math.max(...used(2))];
  const trimmed = h.slice(i0, i1 + 1).map((col) => col.slice(k0, k1 + 1));
  const extent: GridDims = { cols: i1 - i0 + 1, rows: k1 - k0 + 1, layers: Math.max(...trimmed.flat()) };
  if (extent.cols < 2 || extent.rows < 2 || extent.layers < 2) return null;
  return { cells: cellsOf(trimmed), extent };
}

/** A key of a structure that does not change when it is moved: its sorted cubes, normalised. */
export function structureKey(cells: readonly Cell[]): string {
  return cells
    .map((c) => `${c[0]},${c[1]},${c[2]}`)
    .sort()
    .join(' ');
}
