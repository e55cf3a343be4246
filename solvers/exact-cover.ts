import { SpaceActError } from '../core/errors.ts';

/**
 * An exact-cover problem: choose rows so that every primary column is covered exactly once
 * and every secondary column at most once.
 */
export interface ExactCoverProblem {
  /** Number of primary columns (indices `0 … primary-1`). */
  primary: number;
  /** Number of secondary columns (indices `primary … primary+secondary-1`); default 0. */
  secondary?: number;
  /** Each row is the list of column indices it covers. */
  rows: ReadonlyArray<ReadonlyArray<number>>;
}

/** Options of a search. */
export interface ExactCoverOptions {
  /** Stop once this many solutions were accepted. Default: no limit. */
  limit?: number;
  /**
   * Called with the row indices of each solution (in the order chosen). Return `false` to
   * reject it (it is then not counted), `'stop'` to count it and end the search.
   */
  onSolution?(rows: readonly number[]): boolean | 'stop' | void;
}

/** What a search found. */
export interface ExactCoverResult {
  /** Accepted solutions. */
  count: number;
  /** False when the search ended early (limit reached or stopped by the callback). */
  complete: boolean;
  /** Search nodes visited (rows tried), a machine-independent measure of work. */
  nodes: number;
}

/**
 * Knuth's Algorithm X with dancing links: the matrix is a torus of doubly linked nodes kept
 * in typed arrays, and each step branches on the primary column with the fewest rows left.
 * Counting every Soma-cube packing (11 520 of them) takes a fraction of a second.
 */
export function solveExactCover(problem: ExactCoverProblem, opts: ExactCoverOptions = {}): ExactCoverResult {
  const primary = problem.primary;
  const secondary = problem.secondary ?? 0;
  const columns = primary + secondary;
  if (!Number.isInteger(primary) || primary < 0 || !Number.isInteger(secondary) || secondary < 0) {
    throw new SpaceActError('invalid-argument', 'exact cover: primary and secondary must be non-negative integers', { primary, secondary });
  }
  let cells = 0;
  problem.rows.forEach((row, r) => {
    const seen = new Set<number>();
    for (const c of row) {
      if (!Number.isInteger(c) || c < 0 || c >= columns) {
        throw new SpaceActError('invalid-argument', `exact cover: row ${r} names column ${c}, outside 0..${columns - 1}`, { row: r, column: c });
      }
      if (seen.has(c)) throw new SpaceActError('invalid-argument', `exact cover: row ${r} names column ${c} twice`, { row: r, column: c });
      seen.add(c);
    }
    cells += row.length;
  });
  const limit = opts.limit ?? Infinity;

  // Node 0 is the root; 1..columns are column headers; row nodes follow.
  const total = 1 + columns + cells;
  const L = new Int32Array(total);
  const R = new Int32Array(total);
  const U = new Int32Array(total);
  const D = new Int32Array(total);
  const C = new Int32Array(total);
  const ROW = new Int32Array(total);
  const size = new Int32Array(columns + 1);

  // Only primary headers are linked into the root's list; secondary headers link to themselves.
  L[0] = primary;
  R[0] = primary > 0 ? 1 : 0;
  for (let h = 1; h <= columns; h++) {
    U[h] = D[h] = h;
    C[h] = h;
    if (h <= primary) {
      L[h] = h - 1;
      R[h] = h === primary ? 0 : h + 1;
    } else {
      L[h] = R[h] = h;
    }
  }
  let next = columns + 1;
  problem.rows.forEach((row, r) => {
    let first = -1;
    for (const c of row) {
      const h = c + 1;
      const n = next++;
      C[n] = h;
      ROW[n] = r;
      U[n] = U[h];
      D[n] = h;
      D[U[h]] = n;
      U[h] = n;
      size[h]++;
      if (first < 0) {
        first = n;
        L[n] = R[n] = n;
      } else {
        L[n] = L[first];
        R[n] = first;
        R[L[first]] = n;
        L[first] = n;
      }
    }
  });

  const cover = (h: number): void => {
    R[L[h]] = R[h];
    L[R[h]] = L[h];
    for (let i = D[h]; i !== h; i = D[i]) {
      for (let j = R[i]; j !== i; j = R[j]) {
        U[D[j]] = U[j];
        D[U[j]] = D[j];
        size[C[j]]--;
      }
    }
  };
  const uncover = (h: number): void => {
    for (let i = U[h]; i !== h; i = U[i]) {
      for (let j = L[i]; j !== i; j = L[j]) {
        size[C[j]]++;
        U[D[j]] = j;
        D[U[j]] = j;
      }
    }
    R[L[h]] = h;
    L[R[h]] = h;
  };

  const chosen: number[] = [];
  let count = 0;
  let nodes = 0;
  let stopped = false;
  // A row with no columns can never be part of a cover of a non-empty set; with no primary
  // columns the empty selection is the single solution.
  const search = (): void => {
    if (R[0] === 0) {
      const verdict = opts.onSolution?.(chosen);
      if (verdict === false) return;
      count++;
      if (verdict === 'stop' || count >= limit) stopped = true;
      return;
    }
    let best = R[0];
    let fewest = size[best];
    for (let h = R[best]; h !== 0 && fewest > 1; h = R[h]) {
      if (size[h] < fewest) {
        best = h;
        fewest = size[h];
      }
    }
    if (fewest === 0) return;
    cover(best);
    for (let r = D[best]; r !== best && !stopped; r = D[r]) {
      nodes++;
      chosen.push(ROW[r]);
      for (let j = R[r]; j !== r; j = R[j]) cover(C[j]);
      search();
      for (let j = L[r]; j !== r; j = L[j]) uncover(C[j]);
      chosen.pop();
    }
    uncover(best);
  };
  if (limit > 0) search();
  else stopped = true;
  return { count, complete: !stopped, nodes };
}
