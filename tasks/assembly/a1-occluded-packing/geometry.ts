/**
 * Grid geometry of A1: integer cells, the 24 cube rotations as integer matrices, the quarter
 * turns the agent names, and the conversions between the internal world-aligned grid and the
 * [column, row, layer] cell names the agent uses.
 *
 * Internal cells are `[i, j, k]` with `i` along world +X (left → right in the first view),
 * `j` along +Y (up) and `k` along +Z (back → front, towards the first camera). The agent's names
 * are `col = i`, `layer = j` and `row = rows − 1 − k` (row 0 is the front row).
 */
import type { Cell, Rotation } from '../../../verify/polycube.ts';
import { rotations24 } from '../../../verify/polycube.ts';
import type { Quat } from '../../../sim/types.ts';

/** A quarter turn about a world axis, as the agent names it. */
export type TurnName = 'x+' | 'x-' | 'y+' | 'y-' | 'z+' | 'z-';

/** Every quarter-turn name, in the fixed order searches use. */
export const TURN_NAMES: readonly TurnName[] = ['x+', 'x-', 'y+', 'y-', 'z+', 'z-'];

/** Longest turn list a `place` call accepts (every cube rotation needs at most this many). */
export const MAX_TURNS = 3;

/** Right-handed quarter turns about world axes, row-major `p' = M p`. */
const TURN_MATRICES: Record<TurnName, Rotation> = {
  'x+': [1, 0, 0, 0, 0, -1, 0, 1, 0],
  'x-': [1, 0, 0, 0, 0, 1, 0, -1, 0],
  'y+': [0, 0, 1, 0, 1, 0, -1, 0, 0],
  'y-': [0, 0, -1, 0, 1, 0, 1, 0, 0],
  'z+': [0, -1, 0, 1, 0, 0, 0, 0, 1],
  'z-': [0, 1, 0, -1, 0, 0, 0, 0, 1],
};

/** Matrix product `a · b` (apply `b` first). */
export function matMul(a: Rotation, b: Rotation): Rotation {
  const out = new Array<number>(9);
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) out[r * 3 + c] = a[r * 3] * b[c] + a[r * 3 + 1] * b[3 + c] + a[r * 3 + 2] * b[6 + c] + 0;
  }
  return out as unknown as Rotation;
}

/** `M p` for an integer or real vector. */
export function matApply(m: Rotation, p: readonly number[]): [number, number, number] {
  return [
    m[0] * p[0] + m[1] * p[1] + m[2] * p[2] + 0,
    m[3] * p[0] + m[4] * p[1] + m[5] * p[2] + 0,
    m[6] * p[0] + m[7] * p[1] + m[8] * p[2] + 0,
  ];
}

/** The 24 rotations, identity first (the toolkit's order); an orientation is an index into it. */
export const ROTATIONS: readonly Rotation[] = rotations24();

function rotKey(m: Rotation): string {
  return m.join(',');
}

const ROTATION_INDEX = new Map(ROTATIONS.map((m, i) => [rotKey(m), i]));

/** Index of a rotation matrix in {@link ROTATIONS}. */
export function rotationIndex(m: Rotation): number {
  const i = ROTATION_INDEX.get(rotKey(m));
  if (i === undefined) throw new Error(`not a cube rotation: ${rotKey(m)}`);
  return i;
}

/** The rotation a list of quarter turns makes, each about a fixed world axis, first turn first. */
export function turnsMatrix(turns: readonly TurnName[]): Rotation {
  let m = ROTATIONS[0];
  for (const t of turns) m = matMul(TURN_MATRICES[t], m);
  return m;
}

/**
 * For every rotation, a shortest list of quarter turns that makes it (breadth-first over the
 * turn names in their fixed order, so ties always resolve the same way).
 */
export const SHORTEST_TURNS: readonly TurnName[][] = (() => {
  const best: (TurnName[] | null)[] = ROTATIONS.map(() => null);
  best[0] = [];
  let frontier: TurnName[][] = [[]];
  while (frontier.length) {
    const next: TurnName[][] = [];
    for (const seq of frontier) {
      for (const t of TURN_NAMES) {
        const s = [...seq, t];
        const i = rotationIndex(turnsMatrix(s));
        if (best[i] === null) {
          best[i] = s;
          next.push(s);
        }
      }
    }
    frontier = next;
  }
  if (best.some((b) => b === null || b.length > MAX_TURNS)) throw new Error('quarter turns do not reach every rotation within MAX_TURNS');
  return best as TurnName[][];
})();

/**
 * The unit quaternion of a rotation matrix, snapped to the exact values a cube rotation has
 * (0, ±½, ±√½, ±1), so poses carry no float noise from the conversion.
 */
export function matToQuat(m: Rotation): Quat {
  const [m00, m01, m02, m10, m11, m12, m20, m21, m22] = m;
  const tr = m00 + m11 + m22;
  let q: Quat;
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2;
    q = [(m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, 0.25 * s];
  } else if (m00 > m11 && m00 > m22) {
    const s = Math.sqrt(1 + m00 - m11 - m22) * 2;
    q = [0.25 * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s];
  } else if (m11 > m22) {
    const s = Math.sqrt(1 + m11 - m00 - m22) * 2;
    q = [(m01 + m10) / s, 0.25 * s, (m12 + m21) / s, (m02 - m20) / s];
  } else {
    const s = Math.sqrt(1 + m22 - m00 - m11) * 2;
    q = [(m02 + m20) / s, (m12 + m21) / s, 0.25 * s, (m10 - m01) / s];
  }
  const snap = (v: number): number => {
    for (const c of [0, 0.5, Math.SQRT1_2, 1]) {
      if (Math.abs(Math.abs(v) - c) < 1e-6) return c === 0 ? 0 : Math.sign(v) * c;
    }
    return v;
  };
  // A canonical sign (first non-zero component positive) so equal rotations give equal quaternions.
  const snapped = q.map(snap) as Quat;
  const lead = snapped.find((v) => v !== 0)!;
  return (lead < 0 ? snapped.map((v) => (v === 0 ? 0 : -v)) : snapped) as Quat;
}

/** Box size in cells. */
export interface BoxDims {
  cols: number;
  rows: number;
  layers: number;
}

/** Every cell of the box, in internal `[i, j, k]` coordinates, in a fixed order. */
export function boxCells(d: BoxDims): Cell[] {
  const out: Cell[] = [];
  for (let j = 0; j < d.layers; j++) for (let k = 0; k < d.rows; k++) for (let i = 0; i < d.cols; i++) out.push([i, j, k]);
  return out;
}

/** The agent's `[col, row, layer]` of an internal cell. */
export function toAgentCell(c: readonly number[], d: BoxDims): [number, number, number] {
  return [c[0], d.rows - 1 - c[2], c[1]];
}

/** The internal cell of an agent's `[col, row, layer]`. */
export function fromAgentCell(a: readonly number[], d: BoxDims): Cell {
  return [a[0], a[2], d.rows - 1 - a[1]];
}

/**
 * The reference cube of a set of cells (in any frame aligned with the world): the lowest; of
 * those the leftmost; of those the frontmost (largest `k`).
 */
export function referenceCube(cells: readonly Cell[]): Cell {
  let best = cells[0];
  for (const c of cells) {
    if (c[1] < best[1] || (c[1] === best[1] && (c[0] < best[0] || (c[0] === best[0] && c[2] > best[2])))) best = c;
  }
  return best;
}

/** Integer cells rotated by `m` (no normalisation). */
export function rotateCells(cells: readonly Cell[], m: Rotation): Cell[] {
  return cells.map((c) => matApply(m, c) as Cell);
}

/** A string key of a cell. */
export function cellKey(c: readonly number[]): string {
  return `${c[0]},${c[1]},${c[2]}`;
}

/** Convex hull of 2D points (Andrew's monotone chain), counter-clockwise. */
function hull2d(points: Array<[number, number]>): Array<[number, number]> {
  const pts = [...new Map(points.map((p) => [`${p[0]},${p[1]}`, p])).values()].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o: [number, number], a: [number, number], b: [number, number]): number => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const half = (list: Array<[number, number]>): Array<[number, number]> => {
    const out: Array<[number, number]> = [];
    for (const p of list) {
      while (out.length >= 2 && cross(out[out.length - 2], out[out.length - 1], p) <= 0) out.pop();
      out.push(p);
    }
    return out;
  };
  const lower = half(pts);
  const upper = half([...pts].reverse());
  return [...lower.slice(0, -1), ...upper.slice(0, -1)];
}

/** How far inside its support the centre of mass must lie, in cubes (a quarter cube: 7.5 mm). */
export const SUPPORT_MARGIN = 0.25;

/**
 * Rigid-body statics on flat supports: a piece of equal cubes stays put when its centre of mass
 * (the mean of its cube centres) lies above the convex hull of the footprints of the cubes that
 * rest on something (`supported`), at least {@link SUPPORT_MARGIN} inside its edge.
 */
export function centreOverSupport(cells: readonly Cell[], supported: readonly Cell[]): boolean {
  if (supported.length === 0) return false;
  let cx = 0;
  let cz = 0;
  for (const c of cells) {
    cx += c[0] / cells.length;
    cz += c[2] / cells.length;
  }
  const corners: Array<[number, number]> = [];
  for (const c of supported) for (const dx of [-0.5, 0.5]) for (const dz of [-0.5, 0.5]) corners.push([c[0] + dx, c[2] + dz]);
  const h = hull2d(corners);
  for (let i = 0; i < h.length; i++) {
    const a = h[i];
    const b = h[(i + 1) % h.length];
    // Signed distance of the centre to the left of the edge (inside, for a counter-clockwise hull).
    const inside = ((b[0] - a[0]) * (cz - a[1]) - (b[1] - a[1]) * (cx - a[0])) / Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (inside < SUPPORT_MARGIN) return false;
  }
  return true;
}
