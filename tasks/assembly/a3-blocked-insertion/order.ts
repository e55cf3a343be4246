/**
 * A3's order certificate: the search over (which pieces are in the box, where the pieces that
 * started there are) that proves no monotone order fills the box and finds the fewest moves.
 *
 * The model. A piece only goes straight down into its cells and straight up out of them
 * (`place` and `remove` carry it high above everything in between), so lowering piece X into
 * cells C needs every cell above C in C's columns free of other pieces, and lifting it out needs
 * the same of the cells above it; a lowered piece stays only when the kit's rigid-body statics
 * say so (`tasks/kits/polycube-pieces/statics.ts`: it rests on the floor or on pieces already in,
 * its centre of mass a quarter cube inside its support). Nothing rests on a piece that can be
 * lifted (what rests on it is above it), so a removal never topples another piece.
 *
 * The search (breadth-first, `solvers/discrete-search`): for a packing in which every piece
 * that starts in the box stays in its start cells, a state is the set of pieces in the box, each
 * in its cells of that packing; a move places or removes one piece. The *monotone* search allows
 * only placements (nothing that is in the box ever comes out); it must find no full box. The
 * full search finds the fewest moves.
 *
 * The lower bound, over every packing and any intermediate placements at all: a piece that
 * starts on the table and is in the packing is placed at least once; a piece that starts in the
 * box must move (one remove and, if it is in the packing, one place) when its packing cells are
 * not its start cells, or when its start cells lie above the final cells of a piece that moves
 * (that piece is lowered into them last, through its column) or above the start cells of one
 * that must move (that piece is lifted out first, through its column) — a fixpoint. When the
 * search's fewest moves equal the least bound over all packings, the reference is minimal among
 * all play, not just among orders that use the packing's cells (the generator keeps only such
 * draws).
 */
import { breadthFirst, type SearchProblem, type SearchResult } from '../../../solvers/discrete-search/index.ts';
import { countPackings, rotate, type Cell } from '../../../solvers/polycube.ts';
import { cellKey, fromAgentCell, referenceCube } from '../../kits/polycube-pieces/cells.ts';
import { subsetsWithVolume } from '../../kits/polycube-pieces/filling.ts';
import { blockCells } from '../../kits/polycube-pieces/partition.ts';
import { ROTATIONS, rotationIndex, turnsMatrix } from '../../kits/polycube-pieces/rotations.ts';
import { centreOverSupport, restingCubes } from '../../kits/polycube-pieces/statics.ts';
import type { A3Scene, BoxDims, StartPlacement } from './scene.ts';

/** One move of the order search: place or remove a piece (by index into the scene's pieces). */
export interface OrderMove {
  kind: 'place' | 'remove';
  piece: number;
}

/** The internal cells a piece fills when placed from its table orientation by `start`. */
export function placedCells(tableCells: readonly Cell[], start: StartPlacement, box: BoxDims): Cell[] {
  const turned = rotate(tableCells, ROTATIONS[rotationIndex(turnsMatrix(start.turns))]);
  const ref = referenceCube(turned);
  const at = fromAgentCell(start.cell, box);
  return turned.map((c) => [c[0] - ref[0] + at[0], c[1] - ref[1] + at[1], c[2] - ref[2] + at[2]] as Cell);
}

/** Whether some cell of `a` lies above some cell of `b` in the same column. */
export function above(a: readonly Cell[], b: readonly Cell[]): boolean {
  return a.some((x) => b.some((y) => x[0] === y[0] && x[2] === y[2] && x[1] > y[1]));
}

function sameCells(a: readonly Cell[], b: readonly Cell[]): boolean {
  if (a.length !== b.length) return false;
  const s = new Set(a.map(cellKey));
  return b.every((c) => s.has(cellKey(c)));
}

/**
 * The order search over one packing: `cells[p]` are piece p's cells in the packing (null for a
 * piece not in it, which never enters), `startMask` the pieces in the box at the start (in
 * those cells). Monotone: only placements.
 */
export function orderProblem(cells: ReadonlyArray<Cell[] | null>, startMask: number, monotone: boolean): SearchProblem<number, OrderMove> {
  const n = cells.length;
  let goal = 0;
  cells.forEach((c, p) => {
    if (c) goal |= 1 << p;
  });
  const clearAbove = (p: number, mask: number): boolean => {
    for (let q = 0; q < n; q++) if (q !== p && mask & (1 << q) && above(cells[q]!, cells[p]!)) return false;
    return true;
  };
  const stands = (p: number, mask: number): boolean => {
    const occ = new Set<string>();
    for (let q = 0; q < n; q++) if (q !== p && mask & (1 << q)) for (const c of cells[q]!) occ.add(cellKey(c));
    return centreOverSupport(cells[p]!, restingCubes(cells[p]!, occ));
  };
  return {
    start: startMask,
    key: (s) => s,
    isGoal: (s) => s === goal,
    *successors(s) {
      for (let p = 0; p < n; p++) {
        if (!cells[p]) continue;
        const bit = 1 << p;
        if (!(s & bit)) {
          if (clearAbove(p, s) && stands(p, s)) yield [{ kind: 'place', piece: p }, s | bit] as const;
        } else if (!monotone && clearAbove(p, s)) {
          yield [{ kind: 'remove', piece: p }, s & ~bit] as const;
        }
      }
    },
  };
}

/** The least number of moves any play needs to end with the box filled as `packing` says (see the file comment). */
export function packingLowerBound(packing: ReadonlyArray<Cell[] | null>, home: ReadonlyArray<Cell[] | null>): { bound: number; mustMove: number[] } {
  const n = packing.length;
  const moved = new Set<number>();
  for (let p = 0; p < n; p++) {
    if (home[p] && (!packing[p] || !sameCells(packing[p]!, home[p]!))) moved.add(p);
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (let b = 0; b < n; b++) {
      if (!home[b] || moved.has(b)) continue;
      const blocks = packing.some((f, x) => {
        if (x === b) return false;
        // x is lowered into its packing cells last (it starts on the table or must move) …
        const lowered = f !== null && (!home[x] || moved.has(x));
        // … or lifted out of its start cells first (it starts in the box and must move).
        const lifted = home[x] !== null && moved.has(x);
        return (lowered && above(home[b]!, f!)) || (lifted && above(home[b]!, home[x]!));
      });
      if (blocks) {
        moved.add(b);
        changed = true;
      }
    }
  }
  let bound = 0;
  for (let p = 0; p < n; p++) {
    if (!home[p]) bound += packing[p] ? 1 : 0;
    else if (moved.has(p)) bound += packing[p] ? 2 : 1;
  }
  return { bound, mustMove: [...moved].filter((p) => home[p] !== null).sort((a, b) => a - b) };
}

/** What the order certificate found for an instance. */
export interface OrderCertificate {
  /** Subsets of the pieces (by index) that fill the box in at least one way (spares are in none). */
  fillingSubsets: number[][];
  /** Packings of the filling subsets (every symmetric copy; false `complete` past the limit), and how many keep every starting piece in its start cells. */
  packings: number;
  complete: boolean;
  homePackings: number;
  /** The monotone search found no full box for any packing that keeps the starting pieces home (states it searched in all). */
  monotoneImpossible: boolean;
  monotoneStates: number;
  /** The full search's best: its result, and the packing index it used (-1 when none is solvable). */
  best: SearchResult<number, OrderMove> | null;
  packing: Array<Cell[] | null>;
  /** The least lower bound over every packing, and the starting pieces that must move for it. */
  lowerBound: number;
  mustMove: number[];
  /** The search's fewest moves equal the least bound: minimal among all play. */
  optimal: boolean;
}

/** Each piece's start cells in the box (null for a piece that starts on the table). */
export function homeCells(scene: A3Scene): Array<Cell[] | null> {
  return scene.pieces.map((p) => (p.start ? placedCells(p.cells, p.start, scene.box) : null));
}

/** Most packings the certificate enumerates; a box with more is left uncertified (`complete` false). */
export const MAX_PACKINGS = 400;

/**
 * The order certificate of a scene: every subset of the pieces that fills the box (exact cover
 * over every subset whose volume matches), every packing of each, the lower bound of every
 * packing, and for every packing that keeps the starting pieces home the monotone and the full
 * order search.
 */
export function orderCertificate(scene: A3Scene): OrderCertificate {
  const shapes = scene.pieces.map((p) => p.cells);
  const target = blockCells(scene.box);
  const fillingSubsets = subsetsWithVolume(shapes, target.length).filter((s) => countPackings(s.map((i) => shapes[i]), target, { limit: 1 }).count > 0);
  const home = homeCells(scene);
  let startMask = 0;
  home.forEach((h, p) => {
    if (h) startMask |= 1 << p;
  });
  const out: OrderCertificate = {
    fillingSubsets,
    packings: 0,
    complete: true,
    homePackings: 0,
    monotoneImpossible: true,
    monotoneStates: 0,
    best: null,
    packing: [],
    lowerBound: Infinity,
    mustMove: [],
    optimal: false,
  };
  for (const subset of fillingSubsets) {
    const { packings, complete } = countPackings(subset.map((i) => shapes[i]), target, { collect: true, limit: MAX_PACKINGS });
    if (!complete) out.complete = false;
    for (const local of packings!) {
      out.packings++;
      const packing: Array<Cell[] | null> = scene.pieces.map(() => null);
      subset.forEach((p, i) => (packing[p] = local[i]));
      const lb = packingLowerBound(packing, home);
      if (lb.bound < out.lowerBound) {
        out.lowerBound = lb.bound;
        out.mustMove = lb.mustMove;
      }
      if (!home.every((h, p) => !h || (packing[p] && sameCells(packing[p]!, h)))) continue;
      out.homePackings++;
      const mono = breadthFirst(orderProblem(packing, startMask, true));
      out.monotoneStates += mono.statesSearched;
      if (mono.solvable) out.monotoneImpossible = false;
      const full = breadthFirst(orderProblem(packing, startMask, false));
      if (full.solvable && (!out.best || full.length < out.best.length)) {
        out.best = full;
        out.packing = packing;
      }
    }
  }
  out.optimal = out.complete && out.best !== null && out.best.length === out.lowerBound;
  return out;
}
