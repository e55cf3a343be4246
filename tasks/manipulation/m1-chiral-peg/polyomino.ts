/**
 * Planar polyominoes for the M1 chiral peg: the peg's cross-section and the hole outlines.
 *
 * A polyomino is a list of integer cells `[i, j]` (unit squares); `i` runs along the peg's or
 * hole's own x axis and `j` along its own z axis. Shapes are compared up to rotation (a
 * *one-sided* class: what a rigid turn about the vertical can reach) or up to rotation and
 * reflection (a *free* class). A chiral shape's mirror image is a different one-sided class.
 */

/** An integer cell `[i, j]` of a polyomino. */
export type Cell2 = [number, number];

/** A 2D point `[x, z]`, metres or cell units. */
export type Point2 = [number, number];

/**
 * The five pentominoes that are chiral and have no rotational symmetry (F, L, N, P, Y): a peg
 * of one of them fits its hole in exactly one orientation, and its mirror image never fits.
 */
export const CHIRAL_PENTOMINOES: Readonly<Record<string, readonly Cell2[]>> = {
  F: [[1, 0], [2, 0], [0, 1], [1, 1], [1, 2]],
  L: [[0, 0], [0, 1], [0, 2], [0, 3], [1, 3]],
  N: [[1, 0], [1, 1], [0, 2], [1, 2], [0, 3]],
  P: [[0, 0], [1, 0], [0, 1], [1, 1], [0, 2]],
  Y: [[1, 0], [0, 1], [1, 1], [1, 2], [1, 3]],
};

/** Cells shifted so the smallest i and j are 0, sorted. */
export function normalise(cells: readonly Cell2[]): Cell2[] {
  const mi = Math.min(...cells.map((c) => c[0]));
  const mj = Math.min(...cells.map((c) => c[1]));
  return cells.map((c): Cell2 => [c[0] - mi, c[1] - mj]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

/** A quarter turn: `(i, j) → (j, −i)`, normalised. */
export function rotate90(cells: readonly Cell2[]): Cell2[] {
  return normalise(cells.map((c): Cell2 => [c[1], -c[0]]));
}

/** The mirror image across the j axis: `(i, j) → (−i, j)`, normalised. */
export function mirror(cells: readonly Cell2[]): Cell2[] {
  return normalise(cells.map((c): Cell2 => [-c[0], c[1]]));
}

function key(cells: readonly Cell2[]): string {
  return normalise(cells).map((c) => `${c[0]},${c[1]}`).join(';');
}

/** Canonical key of the one-sided class (equal for shapes that a turn maps onto each other). */
export function oneSidedKey(cells: readonly Cell2[]): string {
  let c = normalise(cells);
  let best = key(c);
  for (let k = 1; k < 4; k++) {
    c = rotate90(c);
    const s = key(c);
    if (s < best) best = s;
  }
  return best;
}

/** Canonical key of the free class (rotations and reflections). */
export function freeKey(cells: readonly Cell2[]): string {
  const a = oneSidedKey(cells);
  const b = oneSidedKey(mirror(cells));
  return a < b ? a : b;
}

/** Whether the shape differs from its mirror image under every rotation. */
export function isChiral(cells: readonly Cell2[]): boolean {
  return oneSidedKey(cells) !== oneSidedKey(mirror(cells));
}

/** Whether every cell is reachable from the first through edge neighbours. */
export function isConnected(cells: readonly Cell2[]): boolean {
  const set = new Set(cells.map((c) => `${c[0]},${c[1]}`));
  const seen = new Set<string>([`${cells[0][0]},${cells[0][1]}`]);
  const stack: Cell2[] = [cells[0]];
  while (stack.length) {
    const [i, j] = stack.pop()!;
    for (const [di, dj] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const k = `${i + di},${j + dj}`;
      if (set.has(k) && !seen.has(k)) {
        seen.add(k);
        stack.push([i + di, j + dj]);
      }
    }
  }
  return seen.size === set.size;
}

/** Width and height of the bounding box, in cells. */
export function extent(cells: readonly Cell2[]): [number, number] {
  const n = normalise(cells);
  return [Math.max(...n.map((c) => c[0])) + 1, Math.max(...n.map((c) => c[1])) + 1];
}

/**
 * Every shape made by moving one cell of `cells` to another free edge-neighbouring place, that
 * stays connected, fits a `maxExtent`-cell square, and is not congruent to `cells` (nor to its
 * mirror image). One representative per one-sided class, in a fixed order.
 */
export function oneCellMoves(cells: readonly Cell2[], maxExtent: number): Cell2[][] {
  const base = normalise(cells);
  const own = freeKey(base);
  const out: Cell2[][] = [];
  const seen = new Set<string>();
  for (let r = 0; r < base.length; r++) {
    const rest = base.filter((_, i) => i !== r);
    const taken = new Set(base.map((c) => `${c[0]},${c[1]}`));
    const spots: Cell2[] = [];
    for (const [i, j] of rest) {
      for (const [di, dj] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const s: Cell2 = [i + di, j + dj];
        if (!taken.has(`${s[0]},${s[1]}`) && !spots.some((p) => p[0] === s[0] && p[1] === s[1])) spots.push(s);
      }
    }
    for (const s of spots) {
      const shape = normalise([...rest, s]);
      if (!isConnected(shape)) continue;
      const [w, h] = extent(shape);
      if (w > maxExtent || h > maxExtent) continue;
      if (freeKey(shape) === own) continue;
      const k = oneSidedKey(shape);
      if (seen.has(k)) continue;
      seen.add(k);
      out.push(shape);
    }
  }
  return out;
}

/**
 * The outline of a simply connected polyomino as a counter-clockwise loop of lattice corners
 * (in the `(i, j)` plane with `i` to the right and `j` up), collinear corners removed.
 */
export function outline(cells: readonly Cell2[]): Point2[] {
  // Directed unit edges of every cell (counter-clockwise); shared edges cancel out.
  const edges = new Map<string, [Point2, Point2]>();
  const k = (a: Point2, b: Point2): string => `${a[0]},${a[1]}>${b[0]},${b[1]}`;
  for (const [i, j] of cells) {
    const corners: Point2[] = [[i, j], [i + 1, j], [i + 1, j + 1], [i, j + 1]];
    for (let e = 0; e < 4; e++) {
      const a = corners[e];
      const b = corners[(e + 1) % 4];
      const back = k(b, a);
      if (edges.has(back)) edges.delete(back);
      else edges.set(k(a, b), [a, b]);
    }
  }
  const next = new Map<string, Point2>();
  for (const [a, b] of edges.values()) next.set(`${a[0]},${a[1]}`, b);
  const start = [...edges.values()].sort((x, y) => x[0][0] - y[0][0] || x[0][1] - y[0][1])[0][0];
  const loop: Point2[] = [start];
  for (let p = next.get(`${start[0]},${start[1]}`)!; p[0] !== start[0] || p[1] !== start[1]; p = next.get(`${p[0]},${p[1]}`)!) loop.push(p);
  // Drop corners where the direction does not change.
  return loop.filter((p, idx) => {
    const a = loop[(idx + loop.length - 1) % loop.length];
    const b = loop[(idx + 1) % loop.length];
    return (p[0] - a[0]) * (b[1] - p[1]) - (p[1] - a[1]) * (b[0] - p[0]) !== 0;
  });
}

/**
 * The outline of the polyomino with cells of side `cell` grown outwards by `grow` on every
 * side (a mitred offset), centred on its bounding box: points `[u, v]` in metres, counter-
 * clockwise in the `(u, v)` plane.
 */
export function grownOutline(cells: readonly Cell2[], cell: number, grow: number): Point2[] {
  const n = normalise(cells);
  const [w, h] = extent(n);
  const loop = outline(n);
  const m = loop.length;
  return loop.map((p, idx) => {
    const a = loop[(idx + m - 1) % m];
    const b = loop[(idx + 1) % m];
    // Outward normals of a counter-clockwise loop are the edge directions turned clockwise.
    const din: Point2 = [Math.sign(p[0] - a[0]), Math.sign(p[1] - a[1])];
    const dout: Point2 = [Math.sign(b[0] - p[0]), Math.sign(b[1] - p[1])];
    const nx = din[1] + dout[1];
    const nz = -din[0] - dout[0];
    return [(p[0] - w / 2) * cell + grow * nx, (p[1] - h / 2) * cell + grow * nz];
  });
}

/** Cell centres `[u, v]` in metres, centred on the bounding box. */
export function cellCentres(cells: readonly Cell2[], cell: number): Point2[] {
  const n = normalise(cells);
  const [w, h] = extent(n);
  return n.map((c): Point2 => [(c[0] + 0.5 - w / 2) * cell, (c[1] + 0.5 - h / 2) * cell]);
}
