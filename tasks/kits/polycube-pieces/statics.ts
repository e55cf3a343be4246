/**
 * Rigid-body statics of polycube pieces on flat supports: whether a piece of equal cubes stays
 * where it is put, decided from its cells rather than by letting the physics engine rock it
 * (its outer faces are set in by a millimetre, so a real overhang would tilt a degree or two
 * in simulation although the piece stands).
 */
import { orientations, type Cell } from '../../../solvers/polycube.ts';
import type { Rng } from '../../../core/rng.ts';
import { cellKey } from './cells.ts';

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

/** Whether a piece stands still on a flat table in this orientation (see {@link centreOverSupport}). */
export function standsOnTable(cells: readonly Cell[]): boolean {
  const low = Math.min(...cells.map((c) => c[1]));
  return centreOverSupport(cells, cells.filter((c) => c[1] === low));
}

/**
 * A random orientation a piece stands in on a flat table ({@link standsOnTable}), normalised,
 * among the flattest (fewest layers) of those `fits` accepts (a slot's footprint, say); null
 * when none stands. Flattest, so pieces lie as a person would leave them.
 */
export function tableOrientation(rng: Rng, cells: readonly Cell[], fits: (o: Cell[]) => boolean = () => true): Cell[] | null {
  const all = orientations(cells).filter((o) => standsOnTable(o) && fits(o));
  if (!all.length) return null;
  const height = (o: Cell[]): number => Math.max(...o.map((c) => c[1])) + 1;
  const lowest = Math.min(...all.map(height));
  return rng.pick(all.filter((o) => height(o) === lowest));
}

/**
 * The cubes of a piece that rest on something: on the grid's floor (layer 0) or on a cube of
 * the pieces already placed (`placed`, as {@link cellKey}s), directly below.
 */
export function restingCubes(cells: readonly Cell[], placed: ReadonlySet<string>): Cell[] {
  const own = new Set(cells.map(cellKey));
  return cells.filter((c) => {
    const below = cellKey([c[0], c[1] - 1, c[2]]);
    return !own.has(below) && (c[1] === 0 || placed.has(below));
  });
}
