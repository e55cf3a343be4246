/**
 * A small dense linear-program solver for the loose-block kit's statics and reference search:
 * the two-phase simplex method on a full tableau with Bland's rule (no cycling), over variables
 * that are all non-negative. The kit's systems are tiny (a dozen rows, two dozen columns), so
 * a dense tableau is exact enough and fast; no LP package on npm was worth a dependency for it
 * (the ones that fit are either WASM builds of large solvers or unmaintained).
 *
 * Pure arithmetic in a fixed order: the same problem gives the same answer bit for bit.
 */
import { SpaceActError } from '../../../core/errors.ts';

/** One constraint row: `coeffs · x  op  rhs`. */
export interface LpRow {
  /** One coefficient per variable. */
  coeffs: number[];
  /** The relation. */
  op: '<=' | '>=' | '=';
  /** Right-hand side. */
  rhs: number;
}

/** The outcome of {@link solveLp}: `optimal` with the point and its value, or why not. */
export type LpResult = { status: 'optimal'; x: number[]; value: number } | { status: 'infeasible' } | { status: 'unbounded' };

/** Pivot tolerance: entries below it count as zero. The kit's numbers are metres and kilograms-per-metre, of order 0.01–1. */
const EPS = 1e-11;
/** How far phase 1's optimum may be above zero and still count as feasible. */
const FEAS = 1e-9;

/**
 * Maximises `objective · x` over `x ≥ 0` subject to `rows` (pass an all-zero objective for a
 * pure feasibility question). Returns the optimal point, or `infeasible` / `unbounded`.
 */
export function solveLp(objective: readonly number[], rows: readonly LpRow[]): LpResult {
  const n = objective.length;
  for (const [i, r] of rows.entries()) if (r.coeffs.length !== n) throw new SpaceActError('invalid-argument', `row ${i} has ${r.coeffs.length} coefficients, not ${n}`, { field: 'rows' });
  // Normalise every row to a non-negative right-hand side.
  const norm = rows.map((r) => (r.rhs < 0 ? { coeffs: r.coeffs.map((c) => -c), op: r.op === '<=' ? '>=' : r.op === '>=' ? '<=' : '=', rhs: -r.rhs } : r)) as LpRow[];
  const m = norm.length;
  const slackCount = norm.filter((r) => r.op !== '=').length;
  const artCount = norm.filter((r) => r.op !== '<=').length;
  const cols = n + slackCount + artCount;
  // Tableau rows 0..m-1 are the constraints; the last column is the right-hand side.
  const t: number[][] = [];
  const basis: number[] = [];
  let s = n;
  let a = n + slackCount;
  const artificial: number[] = [];
  for (const r of norm) {
    const row = new Array<number>(cols + 1).fill(0);
    r.coeffs.forEach((c, j) => (row[j] = c));
    row[cols] = r.rhs;
    if (r.op === '<=') {
      row[s] = 1;
      basis.push(s++);
    } else {
      if (r.op === '>=') row[s++] = -1;
      row[a] = 1;
      artificial.push(a);
      basis.push(a++);
    }
    t.push(row);
  }
  const isArt = (j: number): boolean => j >= n + slackCount;

  /** Runs the simplex on cost row `cost` (maximise), entering only allowed columns; false when unbounded. */
  const run = (cost: number[], allowed: (j: number) => boolean): boolean => {
    for (let iter = 0; iter < 5000; iter++) {
      // Reduced costs: cost_j − Σ cost_basis · t[i][j]; enter the lowest index with a positive one (Bland).
      let enter = -1;
      for (let j = 0; j < cols && enter < 0; j++) {
        if (!allowed(j) || basis.includes(j)) continue;
        let rc = cost[j];
        for (let i = 0; i < m; i++) rc -= cost[basis[i]] * t[i][j];
        if (rc > EPS) enter = j;
      }
      if (enter < 0) return true;
      let leave = -1;
      let best = Infinity;
      for (let i = 0; i < m; i++) {
        if (t[i][enter] <= EPS) continue;
        const ratio = t[i][cols] / t[i][enter];
        if (ratio < best - EPS || (Math.abs(ratio - best) <= EPS && basis[i] < basis[leave])) {
          best = ratio;
          leave = i;
        }
      }
      if (leave < 0) return false;
      pivot(leave, enter);
    }
    throw new SpaceActError('invalid-state', 'the simplex did not converge in 5000 pivots');
  };
  const pivot = (r: number, c: number): void => {
    const p = t[r][c];
    for (let j = 0; j <= cols; j++) t[r][j] /= p;
    for (let i = 0; i < m; i++) {
      if (i === r || t[i][c] === 0) continue;
      const f = t[i][c];
      for (let j = 0; j <= cols; j++) t[i][j] -= f * t[r][j];
    }
    basis[r] = c;
  };

  if (artificial.length) {
    const phase1 = new Array<number>(cols).fill(0);
    for (const j of artificial) phase1[j] = -1;
    run(phase1, () => true);
    let infeasibility = 0;
    for (let i = 0; i < m; i++) if (isArt(basis[i])) infeasibility += t[i][cols];
    if (infeasibility > FEAS) return { status: 'infeasible' };
    // Drive any artificial left in the basis (at zero) out, or leave its redundant row be.
    for (let i = 0; i < m; i++) {
      if (!isArt(basis[i])) continue;
      const j = t[i].findIndex((v, k) => k < n + slackCount && Math.abs(v) > EPS);
      if (j >= 0) pivot(i, j);
    }
  }
  const cost = new Array<number>(cols).fill(0);
  objective.forEach((c, j) => (cost[j] = c));
  if (!run(cost, (j) => !isArt(j))) return { status: 'unbounded' };
  const x = new Array<number>(n).fill(0);
  for (let i = 0; i < m; i++) if (basis[i] < n) x[basis[i]] = t[i][cols];
  return { status: 'optimal', x, value: objective.reduce((v, c, j) => v + c * x[j], 0) };
}
