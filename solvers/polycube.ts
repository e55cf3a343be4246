/**
 * Polycube geometry for packing and part-to-whole families: the 24 proper rotations of the
 * cube, normal forms, enumeration of polycubes, and exact-cover counting of packings.
 *
 * A polycube is an array of integer cells `[x, y, z]`, each a unit cube; two cells touch when
 * they differ by one in exactly one coordinate. Pieces may be rotated (never mirrored) and
 * translated on the integer grid, as a physical piece can.
 */
import { SpaceActError } from '../core/errors.ts';
import { solveExactCover } from './exact-cover.ts';
import { noNegativeZero } from '../core/determinism.ts';

/** An integer cell of a polycube. */
export type Cell = [number, number, number];

/** A 3×3 integer matrix, row-major: `p' = M p`. */
export type Rotation = readonly [number, number, number, number, number, number, number, number, number];

/** Options of the shape functions: `mirror` also identifies mirror images. */
export interface MirrorOption {
  mirror?: boolean;
}

const PERMS: ReadonlyArray<readonly [number, number, number]> = [
  [0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0],
];

function det(m: Rotation): number {
  return m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6]);
}

/** All 48 signed permutation matrices, proper ones first, in a fixed order. */
const ISOMETRIES: readonly Rotation[] = (() => {
  const all: Rotation[] = [];
  for (const p of PERMS) {
    for (let signs = 0; signs < 8; signs++) {
      const m = [0, 0, 0, 0, 0, 0, 0, 0, 0];
      for (let row = 0; row < 3; row++) m[row * 3 + p[row]] = signs & (1 << row) ? -1 : 1;
      all.push(m as unknown as Rotation);
    }
  }
  const proper = all.filter((m) => det(m) === 1);
  const improper = all.filter((m) => det(m) === -1);
  // The identity leads, so a shape's first orientation is the shape itself.
  const isIdentity = (m: Rotation): boolean => m.every((v, i) => v === (i % 4 === 0 ? 1 : 0));
  proper.sort((a, b) => Number(isIdentity(b)) - Number(isIdentity(a)));
  return [...proper, ...improper];
})();

/** The 24 proper rotations of the cube (determinant +1), identity first. */
export function rotations24(): Rotation[] {
  return ISOMETRIES.slice(0, 24);
}

/** The 48 symmetries of the cube: the 24 rotations, then the 24 rotation-reflections. */
export function isometries48(): Rotation[] {
  return ISOMETRIES.slice();
}

function group(mirror: boolean | undefined): readonly Rotation[] {
  return mirror ? ISOMETRIES : ISOMETRIES.slice(0, 24);
}

/** Applies a rotation (or reflection) to every cell. */
export function rotate(cells: readonly Cell[], m: Rotation): Cell[] {
  // No -0 in a cell, so equal shapes print and compare equal.
  return cells.map(([x, y, z]) => [
    noNegativeZero(m[0] * x + m[1] * y + m[2] * z),
    noNegativeZero(m[3] * x + m[4] * y + m[5] * z),
    noNegativeZero(m[6] * x + m[7] * y + m[8] * z),
  ]);
}

function compareCells(a: Cell, b: Cell): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** Throws `invalid-argument` unless `cells` is a non-empty list of distinct integer triples. */
export function assertCells(cells: unknown, what = 'cells'): asserts cells is Cell[] {
  if (!Array.isArray(cells) || cells.length === 0) {
    throw new SpaceActError('invalid-argument', `${what} must be a non-empty array of [x, y, z] integer cells`, { what });
  }
  const seen = new Set<string>();
  cells.forEach((c, i) => {
    if (!Array.isArray(c) || c.length !== 3 || !c.every((v) => Number.isSafeInteger(v))) {
      throw new SpaceActError('invalid-argument', `${what}[${i}] is not an [x, y, z] integer cell`, { what, index: i });
    }
    const k = c.join(',');
    if (seen.has(k)) throw new SpaceActError('invalid-argument', `${what}[${i}] repeats the cell [${k}]`, { what, index: i });
    seen.add(k);
  });
}

/** Translates cells so the smallest x, y and z are 0, and sorts them (x, then y, then z). */
export function normalize(cells: readonly Cell[]): Cell[] {
  if (cells.length === 0) return [];
  let mx = Infinity;
  let my = Infinity;
  let mz = Infinity;
  for (const [x, y, z] of cells) {
    if (x < mx) mx = x;
    if (y < my) my = y;
    if (z < mz) mz = z;
  }
  return cells.map(([x, y, z]) => [x - mx, y - my, z - mz] as Cell).sort(compareCells);
}

/** A string key of normalised cells (equal keys ⇔ equal cell sets). */
export function shapeKey(cells: readonly Cell[]): string {
  return normalize(cells).map((c) => c.join(',')).join(';');
}

/**
 * The distinct orientations of a shape, each normalised: up to 24 (rotations), or up to 48
 * with `mirror` (rotations and reflections). The shape's own orientation comes first.
 */
export function orientations(cells: readonly Cell[], opts: MirrorOption = {}): Cell[][] {
  const seen = new Set<string>();
  const out: Cell[][] = [];
  for (const m of group(opts.mirror)) {
    const o = normalize(rotate(cells, m));
    const k = o.map((c) => c.join(',')).join(';');
    if (!seen.has(k)) {
      seen.add(k);
      out.push(o);
    }
  }
  return out;
}

/**
 * The canonical representative of a shape up to rotation and translation (and reflection
 * with `mirror`): the normalised orientation whose key sorts first. Two shapes are congruent
 * exactly when their canonical forms are equal.
 */
export function canonical(cells: readonly Cell[], opts: MirrorOption = {}): Cell[] {
  let best: Cell[] = [];
  let bestKey: string | null = null;
  for (const m of group(opts.mirror)) {
    const o = normalize(rotate(cells, m));
    const k = o.map((c) => c.join(',')).join(';');
    if (bestKey === null || k < bestKey) {
      bestKey = k;
      best = o;
    }
  }
  return best;
}

/** True when `cells` form one piece (face-connected). */
export function isConnected(cells: readonly Cell[]): boolean {
  if (cells.length === 0) return false;
  const set = new Set(cells.map((c) => c.join(',')));
  const stack = [cells[0]];
  const seen = new Set([cells[0].join(',')]);
  while (stack.length) {
    const [x, y, z] = stack.pop()!;
    for (const n of neighbours(x, y, z)) {
      const k = n.join(',');
      if (set.has(k) && !seen.has(k)) {
        seen.add(k);
        stack.push(n);
      }
    }
  }
  return seen.size === set.size;
}

function neighbours(x: number, y: number, z: number): Cell[] {
  return [[x + 1, y, z], [x - 1, y, z], [x, y + 1, z], [x, y - 1, z], [x, y, z + 1], [x, y, z - 1]];
}

/**
 * Every n-cell polycube, once each: up to rotation (24 proper rotations; mirror images count
 * as different), or up to rotation and reflection with `mirror: true`. Each is returned in its
 * canonical form, and the list is sorted by key so it never depends on search order.
 * Counts for n = 1…6: 1, 1, 2, 8, 29, 166 (OEIS A000162); with mirror 1, 1, 2, 7, 23, 112 (A038119).
 */
export function enumeratePolycubes(n: number, opts: MirrorOption = {}): Cell[][] {
  if (!Number.isInteger(n) || n < 1 || n > 10) {
    throw new SpaceActError('invalid-argument', `enumeratePolycubes: n must be an integer from 1 to 10, got ${n}`, { n });
  }
  // Grow one-sided shapes (a mirror image of a grown shape is itself grown), then merge mirrors.
  let level = new Map<string, Cell[]>([['0,0,0', [[0, 0, 0]]]]);
  for (let size = 2; size <= n; size++) {
    const nextLevel = new Map<string, Cell[]>();
    for (const shape of level.values()) {
      const have = new Set(shape.map((c) => c.join(',')));
      for (const [x, y, z] of shape) {
        for (const cell of neighbours(x, y, z)) {
          if (have.has(cell.join(','))) continue;
          const grown = canonical([...shape, cell]);
          const k = grown.map((c) => c.join(',')).join(';');
          if (!nextLevel.has(k)) nextLevel.set(k, grown);
        }
      }
    }
    level = nextLevel;
  }
  let shapes = [...level.values()];
  if (opts.mirror) {
    const free = new Map<string, Cell[]>();
    for (const s of shapes) {
      const c = canonical(s, { mirror: true });
      free.set(c.map((v) => v.join(',')).join(';'), c);
    }
    shapes = [...free.values()];
  }
  const keyed = shapes.map((s) => ({ s, k: s.map((c) => c.join(',')).join(';') }));
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  return keyed.map((x) => x.s);
}

/** One packing: for each piece, in the order given, the target cells it fills. */
export type Packing = Cell[][];

/** Options of {@link countPackings}. */
export interface PackingOptions {
  /** Stop after this many packings (the count is then a lower bound and `complete` false). */
  limit?: number;
  /** Return the packings found. */
  collect?: boolean;
}

/** The result of {@link countPackings}. */
export interface PackingCount {
  /** Packings found (all of them when `complete`). */
  count: number;
  /** False when the search stopped at `limit`. */
  complete: boolean;
  /** The packings, when asked for with `collect`. */
  packings?: Packing[];
  /** Exact-cover search nodes visited. */
  nodes: number;
}

/** One way to place one piece in the target: its piece index and the target cell indices it fills. */
interface Placement {
  piece: number;
  cells: number[];
}

function cellIndex(target: readonly Cell[]): Map<string, number> {
  return new Map(target.map((c, i) => [c.join(','), i]));
}

/** Every placement of every piece (rotated, never mirrored; translated) inside the target. */
function placements(pieces: readonly Cell[][], target: readonly Cell[]): Placement[] {
  const index = cellIndex(target);
  const out: Placement[] = [];
  pieces.forEach((piece, p) => {
    for (const o of orientations(piece)) {
      // Anchor the orientation's first cell on every target cell; keep placements that fit.
      const [ax, ay, az] = o[0];
      for (const [tx, ty, tz] of target) {
        const cells: number[] = [];
        for (const [x, y, z] of o) {
          const i = index.get(`${x - ax + tx},${y - ay + ty},${z - az + tz}`);
          if (i === undefined) break;
          cells.push(i);
        }
        if (cells.length === o.length) out.push({ piece: p, cells });
      }
    }
  });
  return out;
}

function checkPackingInput(pieces: unknown, target: unknown): asserts pieces is Cell[][] {
  if (!Array.isArray(pieces) || pieces.length === 0) {
    throw new SpaceActError('invalid-argument', 'pieces must be a non-empty array of polycubes', {});
  }
  pieces.forEach((p, i) => assertCells(p, `pieces[${i}]`));
  assertCells(target, 'target');
}

/**
 * Counts the ways to fill `target` exactly with every piece, each used once, rotated (24
 * proper rotations, never mirrored) and translated on the grid. Pieces of the same shape are
 * interchangeable: swapping two identical pieces does not make a new packing. Packings that
 * differ by a symmetry of the target are counted separately (see
 * {@link countPackingsUpToSymmetry}).
 */
export function countPackings(pieces: Cell[][], target: Cell[], opts: PackingOptions = {}): PackingCount {
  checkPackingInput(pieces, target);
  const cellsNeeded = pieces.reduce((n, p) => n + p.length, 0);
  if (cellsNeeded !== target.length) return { count: 0, complete: true, nodes: 0, ...(opts.collect ? { packings: [] } : {}) };
  const rows = placements(pieces, target);
  // Copies of one shape must sit in increasing order of their first target cell: one packing,
  // not k! relabellings of it.
  const shapeOf = pieces.map((p) => shapeKey(canonical(p)));
  const earlierTwin = pieces.map((_, i) => {
    for (let j = i - 1; j >= 0; j--) if (shapeOf[j] === shapeOf[i]) return j;
    return -1;
  });
  const hasTwins = earlierTwin.some((j) => j >= 0);
  const n = pieces.length;
  const found: Packing[] = [];
  const firstCell = new Int32Array(n);
  const result = solveExactCover(
    { primary: n + target.length, rows: rows.map((r) => [r.piece, ...r.cells.map((c) => n + c)]) },
    {
      ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
      onSolution(chosen) {
        if (hasTwins) {
          for (const r of chosen) firstCell[rows[r].piece] = Math.min(...rows[r].cells);
          for (let i = 0; i < n; i++) if (earlierTwin[i] >= 0 && firstCell[earlierTwin[i]] > firstCell[i]) return false;
        }
        if (opts.collect) {
          const packing: Packing = new Array(n);
          for (const r of chosen) packing[rows[r].piece] = rows[r].cells.map((c) => [...target[c]] as Cell);
          found.push(packing);
        }
        return true;
      },
    },
  );
  return { count: result.count, complete: result.complete, nodes: result.nodes, ...(opts.collect ? { packings: found } : {}) };
}

/**
 * The symmetries of a target voxel set: each rotation (and reflection with `mirror`) that
 * maps the set onto itself, as a permutation of the target's cell indices.
 */
export function targetSymmetries(target: Cell[], opts: MirrorOption = {}): number[][] {
  assertCells(target, 'target');
  const base = normalize(target);
  const baseKey = base.map((c) => c.join(',')).join(';');
  const index = cellIndex(target);
  let mx = Infinity;
  let my = Infinity;
  let mz = Infinity;
  for (const [x, y, z] of target) {
    mx = Math.min(mx, x);
    my = Math.min(my, y);
    mz = Math.min(mz, z);
  }
  const perms: number[][] = [];
  for (const m of group(opts.mirror)) {
    const moved = rotate(target, m);
    if (shapeKey(moved) !== baseKey) continue;
    // Translate the rotated set back onto the original position.
    const minMoved = [0, 1, 2].map((a) => Math.min(...moved.map((c) => c[a])));
    const shift = [mx - minMoved[0], my - minMoved[1], mz - minMoved[2]];
    perms.push(moved.map(([x, y, z]) => index.get(`${x + shift[0]},${y + shift[1]},${z + shift[2]}`)!));
  }
  return perms;
}

/** The result of {@link countPackingsUpToSymmetry}. */
export interface SymmetricPackingCount {
  /** Packings that no symmetry of the target maps onto one another. */
  count: number;
  /** All packings, symmetric copies included. */
  total: number;
  /** Symmetries of the target used (24 for a cube; 48 with `mirror`). */
  symmetries: number;
  /** One packing of each class, in a fixed order. */
  representatives: Packing[];
}

/**
 * Counts packings of `target` up to the target's own symmetries: two packings are the same
 * when a rotation of the target (or, with `mirror`, a reflection too) carries one onto the
 * other. The 7 Soma pieces fill the 3×3×3 cube in 11 520 ways, 480 up to rotation and 240 up
 * to rotation and reflection. A family that needs a unique answer asks for `count === 1`.
 */
export function countPackingsUpToSymmetry(pieces: Cell[][], target: Cell[], opts: MirrorOption = {}): SymmetricPackingCount {
  const all = countPackings(pieces, target, { collect: true });
  const syms = targetSymmetries(target, opts);
  const index = cellIndex(target);
  const classes = new Map<string, Packing>();
  const label = new Int32Array(target.length);
  const relabel = new Int32Array(pieces.length);
  const moved = new Int32Array(target.length);
  for (const packing of all.packings!) {
    packing.forEach((cells, p) => {
      for (const c of cells) label[index.get(c.join(','))!] = p;
    });
    // A packing is a partition of the target; its key under a symmetry lists, cell by cell,
    // the parts renumbered in order of first appearance, so identical pieces never matter.
    // The class key is the smallest such list over the symmetries (compared as it is built).
    let best: Int32Array | null = null;
    for (const perm of syms) {
      relabel.fill(-1);
      let nextLabel = 0;
      for (let i = 0; i < target.length; i++) moved[perm[i]] = label[i];
      let smaller = best === null;
      for (let i = 0; i < target.length; i++) {
        const part = moved[i];
        if (relabel[part] < 0) relabel[part] = nextLabel++;
        moved[i] = relabel[part];
        if (!smaller) {
          if (moved[i] > best![i]) break;
          if (moved[i] < best![i]) smaller = true;
        }
      }
      // A smaller key never breaks out early, so `moved` is fully renumbered here.
      if (smaller) best = moved.slice();
    }
    const bestKey = Array.from(best!, (v) => String.fromCharCode(65 + v)).join('');
    if (!classes.has(bestKey)) classes.set(bestKey, packing);
  }
  const keys = [...classes.keys()].sort();
  return { count: classes.size, total: all.count, symmetries: syms.length, representatives: keys.map((k) => classes.get(k)!) };
}
