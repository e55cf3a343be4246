/**
 * The shapes the mental-rotation families draw from: chiral polycubes (a mirror image that no
 * turn can produce) with no turn symmetry at all (so every rotated copy looks different and one
 * pose never stands for two), at most three cubes across in any direction (so a part fits its
 * place on the table), listed once each up to rotation in a fixed order.
 */
import { isChiral, rotationSymmetries, sortedExtent } from '../../../solvers/polycube-chirality.ts';
import { enumeratePolycubes, orientations, type Cell } from '../../../solvers/polycube.ts';
import { standsOnTable } from '../polycube-pieces/statics.ts';

const pools = new Map<number, Cell[][]>();

/** Chiral, asymmetric polycubes of `n` cubes fitting a 3 × 3 × 3 box (8 of 5 cubes, 72 of 6). */
export function chiralPool(n: number): Cell[][] {
  let pool = pools.get(n);
  if (!pool) {
    pool = enumeratePolycubes(n).filter((c) => isChiral(c) && rotationSymmetries(c).length === 1 && sortedExtent(c)[2] <= 3);
    pools.set(n, pool);
  }
  return pool.map((s) => s.map((c) => [...c] as Cell));
}

/** The orientations of a shape in which it stands still on a flat table (its lowest layer at y = 0). */
export function standingPoses(cells: readonly Cell[]): Cell[][] {
  return orientations(cells).filter(standsOnTable);
}
