/**
 * The blueprint's readings: what an orthographic line drawing of a cube structure shows, and
 * every buildable structure that shows the same in a set of views (the uniqueness certificate).
 *
 * A structure built from loose cubes lowered onto a plate stands only where every cube rests on
 * the plate or on a cube directly below it, so a buildable structure is a height map: `h(i, k)`
 * cubes stacked in column `(i, k)`. The line drawing of a view (the renderer's `lines` view,
 * orthographic, no hidden lines) inks the outline of the structure and every place where the
 * surface it sees steps in depth; faces in one plane meet without a line. So a view shows, on
 * its grid of cell-sized image squares, the silhouette and, for every two neighbouring squares
 * inside it, whether the faces seen there lie at the same depth — not the depths themselves.
 * That is the signature compared here ({@link viewImage}, {@link sameDrawing}); the dimension
 * lines give the scale (each cube is 3 cm), so the silhouette's size in cubes is known too.
 *
 * Views and their image squares (depth index: larger is nearer the camera):
 * - front (camera on +Z): square `(i, j)`, the cube seen is the frontmost `k` with `h(i, k) > j`;
 * - top (camera above): square `(i, k)`, the surface seen is the top at height `h(i, k)`;
 * - right (camera on +X): square `(k, j)`, the cube seen is the rightmost `i` with `h(i, k) > j`.
 *
 * {@link readings} enumerates height maps in the bounding block the views give, column by column
 * from the right (`i` descending, so the right view's first claim on a square is final), pruning
 * with the top view's footprint and equalities as each column is set, with the front view once a
 * column `i` is complete, and with the right view once a layer of `i` is complete.
 */
import type { Cell } from '../../../solvers/polycube.ts';
import type { GridDims } from '../../kits/polycube-pieces/cells.ts';
import type { ViewName } from './scene.ts';

/** A height map over `cols` × `rows` columns: `h[i][k]`. */
export type HeightMap = number[][];

/** One view's image: `width` × `height` squares, each the depth index seen there or −1 (empty). */
export interface ViewImage {
  width: number;
  height: number;
  /** Row-major: square `(u, v)` at `u + v * width`. */
  depth: number[];
}

/** The height map of a structure of stacked cubes within `extent` (cells assumed supported). */
export function heightMap(cells: readonly Cell[], extent: GridDims): HeightMap {
  const h = Array.from({ length: extent.cols }, () => new Array<number>(extent.rows).fill(0));
  for (const c of cells) h[c[0]][c[2]] = Math.max(h[c[0]][c[2]], c[1] + 1);
  return h;
}

/** The cubes of a height map, bottom layer first. */
export function cellsOf(h: HeightMap): Cell[] {
  const out: Cell[] = [];
  const top = Math.max(0, ...h.flat());
  for (let j = 0; j < top; j++) for (let k = 0; k < (h[0]?.length ?? 0); k++) for (let i = 0; i < h.length; i++) if (h[i][k] > j) out.push([i, j, k]);
  return out;
}

/** Whether every cube rests on the plate or on a cube directly below it (a height map). */
export function supported(cells: readonly Cell[]): boolean {
  const have = new Set(cells.map((c) => `${c[0]},${c[1]},${c[2]}`));
  return cells.every((c) => c[1] === 0 || have.has(`${c[0]},${c[1] - 1},${c[2]}`));
}

/** The image of one view of height map `h` (extent `cols` × `rows` × `layers`). */
export function viewImage(h: HeightMap, view: ViewName, layers: number): ViewImage {
  const cols = h.length;
  const rows = h[0].length;
  if (view === 'top') {
    const depth: number[] = [];
    for (let k = 0; k < rows; k++) for (let i = 0; i < cols; i++) depth.push(h[i][k] > 0 ? h[i][k] : -1);
    return { width: cols, height: rows, depth };
  }
  if (view === 'front') {
    const depth: number[] = [];
    for (let j = 0; j < layers; j++) {
      for (let i = 0; i < cols; i++) {
        let d = -1;
        for (let k = 0; k < rows; k++) if (h[i][k] > j) d = k;
        depth.push(d);
      }
    }
    return { width: cols, height: layers, depth };
  }
  const depth: number[] = [];
  for (let j = 0; j < layers; j++) {
    for (let k = 0; k < rows; k++) {
      let d = -1;
      for (let i = 0; i < cols; i++) if (h[i][k] > j) d = i;
      depth.push(d);
    }
  }
  return { width: rows, height: layers, depth };
}

/**
 * Whether two view images draw the same: the same silhouette, and for every two neighbouring
 * squares inside it the same answer to "same depth?" (a line is drawn exactly where it differs).
 */
export function sameDrawing(a: ViewImage, b: ViewImage): boolean {
  if (a.width !== b.width || a.height !== b.height) return false;
  const w = a.width;
  for (let s = 0; s < a.depth.length; s++) {
    if ((a.depth[s] < 0) !== (b.depth[s] < 0)) return false;
    if (a.depth[s] < 0) continue;
    const u = s % w;
    for (const t of [u + 1 < w ? s + 1 : -1, s + w < a.depth.length ? s + w : -1]) {
      if (t < 0 || a.depth[t] < 0) continue;
      if ((a.depth[s] === a.depth[t]) !== (b.depth[s] === b.depth[t])) return false;
    }
  }
  return true;
}

/** What {@link readings} found. */
export interface ReadingCount {
  /** Height maps found (at most the limit), each as its cubes. */
  found: Cell[][];
  /** Whether the search ran to its end, so `found` is every reading (false: it stopped at the limit or its node cap). */
  complete: boolean;
  /** Whether it stopped at its node cap (then neither one nor several readings is proven). */
  capped: boolean;
  /** Search nodes visited. */
  nodes: number;
}

/** Nodes after which a search gives up (it then reports `complete: false`). */
export const NODE_CAP = 400_000;

/**
 * Every buildable structure (height map) whose drawings in `views` are those of `target`, up to
 * `limit` of them. The bounding block is what the views show: each dimension is read from a view
 * that has it (front: cols and layers; top: cols and rows; right: rows and layers). A view set
 * that leaves a dimension unread is refused.
 */
export function readings(target: readonly Cell[], extent: GridDims, views: readonly ViewName[], limit = 2): ReadingCount {
  const has = (v: ViewName): boolean => views.includes(v);
  if (!((has('front') || has('top')) && (has('top') || has('right')) && (has('front') || has('right')))) {
    throw new Error(`views ${views.join(', ')} leave a dimension of the structure unread`);
  }
  const { cols, rows, layers } = extent;
  const truth = heightMap(target, extent);
  const want = new Map<ViewName, ViewImage>(views.map((v) => [v, viewImage(truth, v, layers)]));
  const top = want.get('top');
  const front = want.get('front');
  const right = want.get('right');
  // Upper bounds per column from the silhouettes' heights; the top view fixes the footprint.
  const frontMax = (i: number): number => {
    if (!front) return layers;
    let m = 0;
    for (let j = 0; j < layers; j++) if (front.depth[i + j * cols] >= 0) m = j + 1;
    return m;
  };
  const rightMax = (k: number): number => {
    if (!right) return layers;
    let m = 0;
    for (let j = 0; j < layers; j++) if (right.depth[k + j * rows] >= 0) m = j + 1;
    return m;
  };
  const h: HeightMap = Array.from({ length: cols }, () => new Array<number>(rows).fill(0));
  // The right view's squares claimed so far (i descending: a first claim is final).
  const claim = new Array<number>(rows * layers).fill(-1);
  const found: Cell[][] = [];
  let nodes = 0;
  let stopped = false;
  let capped = false;

  const topOk = (i: number, k: number): boolean => {
    if (!top) return true;
    const s = i + k * cols;
    const v = h[i][k];
    if ((v > 0) !== (top.depth[s] >= 0)) return false;
    if (v === 0) return true;
    // Neighbours already set: (i + 1, k) and (i, k − 1).
    if (i + 1 < cols && top.depth[s + 1] >= 0 && (v === h[i + 1][k]) !== (top.depth[s] === top.depth[s + 1])) return false;
    if (k > 0 && top.depth[s - cols] >= 0 && (v === h[i][k - 1]) !== (top.depth[s] === top.depth[s - cols])) return false;
    return true;
  };

  /** Front view: column i's squares (and their pairs with column i + 1) once column i is set. */
  const frontColumnOk = (i: number): boolean => {
    if (!front) return true;
    const d = new Array<number>(layers).fill(-1);
    for (let j = 0; j < layers; j++) for (let k = 0; k < rows; k++) if (h[i][k] > j) d[j] = k;
    const next = i + 1 < cols ? new Array<number>(layers).fill(-1) : null;
    if (next) for (let j = 0; j < layers; j++) for (let k = 0; k < rows; k++) if (h[i + 1][k] > j) next[j] = k;
    for (let j = 0; j < layers; j++) {
      const s = i + j * cols;
      if ((d[j] >= 0) !== (front.depth[s] >= 0)) return false;
      if (d[j] < 0) continue;
      if (j + 1 < layers && d[j + 1] >= 0 && (d[j] === d[j + 1]) !== (front.depth[s] === front.depth[s + cols])) return false;
      if (next && next[j] >= 0 && (d[j] === next[j]) !== (front.depth[s] === front.depth[s + 1])) return false;
    }
    return true;
  };

  /**
   * Right view once layer i is set: claimed squares must be inside the silhouette and agree
   * pairwise; a claimed square next to an unclaimed one that should show the same depth fails
   * (the unclaimed one can only get a smaller i, or stay empty).
   */
  const rightLayerOk = (i: number): boolean => {
    if (!right) return true;
    for (let s = 0; s < claim.length; s++) {
      if (claim[s] < 0) continue;
      if (right.depth[s] < 0) return false;
      const u = s % rows;
      for (const t of [u + 1 < rows ? s + 1 : -1, u > 0 ? s - 1 : -1, s + rows < claim.length ? s + rows : -1, s - rows >= 0 ? s - rows : -1]) {
        if (t < 0 || right.depth[t] < 0) continue;
        const sameWant = right.depth[s] === right.depth[t];
        if (claim[t] >= 0) {
          if ((claim[s] === claim[t]) !== sameWant) return false;
        } else if (sameWant) return false;
      }
    }
    if (i === 0) for (let s = 0; s < claim.length; s++) if ((claim[s] >= 0) !== (right.depth[s] >= 0)) return false;
    return true;
  };

  const visit = (i: number, k: number): void => {
    if (stopped) return;
    if (++nodes > NODE_CAP) {
      stopped = true;
      capped = true;
      return;
    }
    if (k === rows) {
      // Column i is complete: claim the right view's squares it shows first, then check.
      const claimed: number[] = [];
      for (let kk = 0; kk < rows; kk++) {
        for (let j = 0; j < h[i][kk]; j++) {
          const s = kk + j * rows;
          if (claim[s] < 0) {
            claim[s] = i;
            claimed.push(s);
          }
        }
      }
      if (frontColumnOk(i) && rightLayerOk(i)) {
        if (i === 0) {
          found.push(cellsOf(h));
          if (found.length >= limit) stopped = true;
        } else visit(i - 1, 0);
      }
      for (const s of claimed) claim[s] = -1;
      return;
    }
    const most = Math.min(frontMax(i), rightMax(k));
    const least = top && top.depth[i + k * cols] >= 0 ? 1 : 0;
    const cap = top && top.depth[i + k * cols] < 0 ? 0 : most;
    for (let v = least; v <= cap && !stopped; v++) {
      h[i][k] = v;
      if (topOk(i, k)) visit(i, k + 1);
    }
    h[i][k] = 0;
  };
  visit(cols - 1, 0);
  return { found, complete: !stopped, capped, nodes };
}
