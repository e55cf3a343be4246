/**
 * Random polycube material for generators: a partition of a block of cells into connected
 * pieces, and a random polycube inside a 3×3×3 block (A1 and A3 draw from here).
 */
import type { Rng } from '../../../core/rng.ts';
import type { Cell } from '../../../solvers/polycube.ts';
import { cellKey, faceNeighbours, type GridDims } from './cells.ts';

/** Every cell of a block, in internal `[i, j, k]` coordinates, layer by layer, row by row. */
export function blockCells(d: GridDims): Cell[] {
  const out: Cell[] = [];
  for (let j = 0; j < d.layers; j++) for (let k = 0; k < d.rows; k++) for (let i = 0; i < d.cols; i++) out.push([i, j, k]);
  return out;
}

/** Whether a set of cells spans at most three cells along every axis (it fits a 3×3×3 block). */
export function fitsThreeCube(cells: readonly Cell[]): boolean {
  for (let a = 0; a < 3; a++) {
    const vs = cells.map((c) => c[a]);
    if (Math.max(...vs) - Math.min(...vs) > 2) return false;
  }
  return true;
}

/**
 * A random partition of the block into connected pieces of `sizes[0]`–`sizes[1]` cubes, each
 * within a 3×3×3 block. Each piece starts at a free cell with the fewest free neighbours (so
 * no cell is left stranded) and grows by random free neighbours; null when the draw leaves a
 * piece outside the size range or the piece count outside `count`.
 */
export function partitionBlock(rng: Rng, dims: GridDims, sizes: readonly [number, number], count: readonly [number, number]): Cell[][] | null {
  const cells = blockCells(dims);
  const free = new Set(cells.map(cellKey));
  const pieces: Cell[][] = [];
  const [minS, maxS] = sizes;
  while (free.size) {
    const freeCells = cells.filter((c) => free.has(cellKey(c)));
    const degree = (c: Cell): number => faceNeighbours(c).filter((n) => free.has(cellKey(n))).length;
    const minDeg = Math.min(...freeCells.map(degree));
    const start = rng.pick(freeCells.filter((c) => degree(c) === minDeg));
    let size = rng.int(minS, maxS);
    if (free.size - size < minS) size = free.size;
    if (size > maxS) return null;
    const piece: Cell[] = [start];
    free.delete(cellKey(start));
    while (piece.length < size) {
      const front = new Map<string, Cell>();
      for (const c of piece) for (const n of faceNeighbours(c)) if (free.has(cellKey(n))) front.set(cellKey(n), n);
      if (!front.size) break;
      const key = rng.pick([...front.keys()].sort());
      free.delete(key);
      piece.push(front.get(key)!);
    }
    if (piece.length < minS || !fitsThreeCube(piece)) return null;
    pieces.push(piece);
  }
  if (pieces.length < count[0] || pieces.length > count[1]) return null;
  return pieces;
}

/** A random polycube of `size` cubes inside a 3×3×3 block. */
export function randomPolycube(rng: Rng, size: number): Cell[] {
  for (;;) {
    const piece: Cell[] = [[0, 0, 0]];
    const have = new Set([cellKey([0, 0, 0])]);
    while (piece.length < size) {
      const front = new Map<string, Cell>();
      for (const c of piece) for (const n of faceNeighbours(c)) if (!have.has(cellKey(n))) front.set(cellKey(n), n);
      const key = rng.pick([...front.keys()].sort());
      have.add(key);
      piece.push(front.get(key)!);
    }
    if (fitsThreeCube(piece)) return piece;
  }
}
