/**
 * The uniqueness certificate of a filling, for families that fill a block of cells with some
 * of the pieces on offer (spares included): every subset of the pieces whose volume matches is
 * tried by exact cover (`solvers/polycube.ts`), and the one subset that fills is counted up to
 * the block's symmetries (A1, A3).
 */
import { countPackings, countPackingsUpToSymmetry, targetSymmetries, type Cell } from '../../../solvers/polycube.ts';

/** What the uniqueness certificate found. */
export interface FillingCertificate {
  /** Subsets of the pieces (by index) that fill the target in at least one way. */
  fillingSubsets: number[][];
  /**
   * Packings of the one filling subset up to the target's symmetries (0 when none or several
   * subsets; a lower bound of 2 when more packings than symmetries were found).
   */
  classes: number;
  /** All packings of that subset, symmetric copies included (a lower bound when `classes` is). */
  total: number;
  /** Symmetries of the target the count is taken under. */
  symmetries: number;
  /** Exactly one subset fills the target, in exactly one way up to its symmetries. */
  unique: boolean;
}

/** Index subsets of the pieces whose cube count is `volume`, by size, then lexicographically. */
export function subsetsWithVolume(pieces: readonly Cell[][], volume: number): number[][] {
  const n = pieces.length;
  const out: number[][] = [];
  for (let mask = 1; mask < 1 << n; mask++) {
    const s: number[] = [];
    for (let i = 0; i < n; i++) if (mask & (1 << i)) s.push(i);
    if (s.reduce((v, i) => v + pieces[i].length, 0) === volume) out.push(s);
  }
  return out.sort((a, b) => a.length - b.length || a.join(',').localeCompare(b.join(',')));
}

/** Certifies that exactly one subset of `pieces` fills `target`, in one way up to the target's symmetries. */
export function certifyFilling(pieces: readonly Cell[][], target: Cell[]): FillingCertificate {
  const filling: number[][] = [];
  for (const s of subsetsWithVolume(pieces, target.length)) {
    if (countPackings(s.map((i) => pieces[i]), target, { limit: 1 }).count > 0) filling.push(s);
  }
  if (filling.length !== 1) return { fillingSubsets: filling, classes: 0, total: 0, symmetries: 0, unique: false };
  const used = filling[0].map((i) => pieces[i]);
  // A class holds at most one packing per symmetry, so more packings than symmetries means
  // several classes: a cheap early answer before classifying them all.
  const symmetries = targetSymmetries(target).length;
  const some = countPackings(used, target, { limit: symmetries + 1 });
  if (some.count > symmetries) return { fillingSubsets: filling, classes: 2, total: some.count, symmetries, unique: false };
  const sym = countPackingsUpToSymmetry(used, target);
  return { fillingSubsets: filling, classes: sym.count, total: sym.total, symmetries: sym.symmetries, unique: sym.count === 1 };
}
