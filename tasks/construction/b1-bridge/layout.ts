/**
 * B1 bridge: the fixed sizes, the brick catalog, the instance scene and the stud-grid geometry
 * of a construction plan (where each brick lands and which studs it shares), shared by the
 * generator, the statics model, the solver and the episode.
 *
 * Grid convention: `col` counts stud columns along the span, `row` stud rows across it. The
 * west pier covers cols `0 … W−1`, the gap cols `W … W+G−1`, the east pier cols
 * `W+G … 2W+G−1`; every pier has {@link ROWS} rows. Heights count in plates (3.2 mm) above the
 * pier tops (layer 0 is the pier top surface); a brick is 3 plates tall, a plate 1.
 */
import { BRICK_DEFAULTS } from '../../../sim/bricks.ts';
import { round9 } from '../../../core/determinism.ts';

/** Stud pitch, m (the BrickSystem default). */
export const PITCH = BRICK_DEFAULTS.pitch;
/** Plate height, m (the BrickSystem default); a brick is {@link BRICK_PLATES} plates. */
export const PLATE = BRICK_DEFAULTS.plateHeight;
/** Height of a brick in plates. */
export const BRICK_PLATES = 3;
/** Rows of studs on each pier (odd, so the load row is the middle one). */
export const ROWS = 3;
/** The row the load hangs from: the middle one. */
export const LOAD_ROW = 1;
/** Height of the piers above the floor, in plates (48 mm). */
export const PIER_PLATES = 15;
/** How long the load must hang without anything moving, s. */
export const HOLD_SECONDS = 2;
/** Largest motion of any brick during the load test that still counts as holding, m. */
export const HOLD_TOLERANCE = 0.002;
/** Gravity, m/s² (the world default). */
export const GRAVITY = 9.81;

/** A kind of brick in the catalog. */
export interface BrickType {
  /** Tool name, e.g. `brick-1x6`, `plate-2x8`. */
  id: string;
  /** Studs across the brick. */
  width: 1 | 2;
  /** Studs along the brick. */
  length: number;
  /** A plate (1 plate tall) instead of a brick (3 plates). */
  plate: boolean;
  color: string;
}

function defineType(width: 1 | 2, length: number, plate: boolean, color: string): BrickType {
  return { id: `${plate ? 'plate' : 'brick'}-${width}x${length}`, width, length, plate, color };
}

/** Every brick type an instance may offer, by id. */
export const CATALOG: Readonly<Record<string, BrickType>> = Object.freeze(
  Object.fromEntries(
    [
      defineType(1, 1, false, '#f7dc6f'),
      defineType(1, 2, false, '#f4d03f'),
      defineType(1, 4, false, '#eb984e'),
      defineType(1, 6, false, '#d35400'),
      defineType(1, 8, false, '#a04000'),
      defineType(2, 2, false, '#82e0aa'),
      defineType(2, 4, false, '#52be80'),
      defineType(2, 6, false, '#45b39d'),
      defineType(2, 8, false, '#196f3d'),
      defineType(1, 2, true, '#fcf3cf'),
      defineType(1, 4, true, '#f8c471'),
      defineType(1, 6, true, '#f0b27a'),
      defineType(2, 2, true, '#d5f5e3'),
      defineType(2, 4, true, '#a9dfbf'),
      defineType(2, 6, true, '#7dcea0'),
      defineType(2, 8, true, '#76d7c4'),
    ].map((t) => [t.id, t]),
  ),
);

/** A brick type by id (throws on an unknown id: a generator bug). */
export function brickType(id: string): BrickType {
  const t = CATALOG[id];
  if (!t) throw new Error(`B1: unknown brick type '${id}'`);
  return t;
}

/** Height of a brick type in plates. */
export function heightOf(t: BrickType): number {
  return t.plate ? 1 : BRICK_PLATES;
}

/** One line of the supply: a brick type and how many of it there are. */
export interface SupplyItem {
  type: string;
  count: number;
}

/** Parameters a B1 world is built from (plain JSON). */
export interface B1Scene {
  /** Stud columns of each pier along the span (W). */
  pierCols: number;
  /** Stud rows of each pier across the span. */
  rows: number;
  /** Gap between the piers in stud pitches (G, odd). */
  gap: number;
  /** Pier height above the floor, plates. */
  pierPlates: number;
  /** Mass hung at mid-span at commit, kg. */
  loadKg: number;
  /** How long the load hangs, s. */
  holdSeconds: number;
  /** The stud cell `[col, row]` the load hangs from: middle of the gap, middle row. */
  loadCell: [number, number];
  /** Turn of the working frame about the vertical relative to the first view, degrees (0 below L7). */
  yawDeg: number;
  /** Brick types offered and how many of each. */
  supply: SupplyItem[];
  /** Whether the counts are a budget (L3+); without one only {@link B1Scene.maxBricks} limits. */
  budgeted: boolean;
  /** Most bricks standing at once. */
  maxBricks: number;
  /** Types in the supply that cannot help carry the load (listed for reports, never told). */
  decoys: string[];
}

/** One placement on the grid, as the `place` tool takes it. */
export interface Placement {
  type: string;
  col: number;
  row: number;
  rot: 0 | 90;
}

/** Cells a placement covers: `[cols, rows]` after rotation. */
export function footprint(p: Placement): [number, number] {
  const t = brickType(p.type);
  return p.rot === 0 ? [t.length, t.width] : [t.width, t.length];
}

/** A placed part of a plan (pier or brick) with the layer of its bottom face. */
export interface PlannedPart {
  name: string;
  /** Grid cell of the footprint's lowest corner. */
  cell: [number, number];
  /** Cells along col and row. */
  span: [number, number];
  /** Bottom face, plates above the pier tops. */
  layer: number;
  /** Height, plates. */
  height: number;
  fixed: boolean;
  type?: BrickType;
}

/** Shared stud cells of two footprints. */
export function sharedCells(a: Pick<PlannedPart, 'cell' | 'span'>, b: Pick<PlannedPart, 'cell' | 'span'>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const x0 = Math.max(a.cell[0], b.cell[0]);
  const x1 = Math.min(a.cell[0] + a.span[0], b.cell[0] + b.span[0]);
  const z0 = Math.max(a.cell[1], b.cell[1]);
  const z1 = Math.min(a.cell[1] + a.span[1], b.cell[1] + b.span[1]);
  for (let i = x0; i < x1; i++) for (let j = z0; j < z1; j++) out.push([i, j]);
  return out;
}

/** The two piers as plan parts. */
export function pierParts(s: Pick<B1Scene, 'pierCols' | 'rows' | 'gap' | 'pierPlates'>): PlannedPart[] {
  return [
    { name: 'pier-west', cell: [0, 0], span: [s.pierCols, s.rows], layer: -s.pierPlates, height: s.pierPlates, fixed: true },
    { name: 'pier-east', cell: [s.pierCols + s.gap, 0], span: [s.pierCols, s.rows], layer: -s.pierPlates, height: s.pierPlates, fixed: true },
  ];
}

/**
 * Lands every placement of a plan in order, as the `place` tool's vertical drop does: a brick
 * comes to rest on the highest part under its footprint. Returns the parts (piers first, then
 * bricks named `b1`, `b2`, … in order), or the index of the first placement with nothing under it.
 */
export function landPlan(s: Pick<B1Scene, 'pierCols' | 'rows' | 'gap' | 'pierPlates'>, plan: Placement[]): { parts: PlannedPart[] } | { unsupported: number } {
  const parts = pierParts(s);
  for (let k = 0; k < plan.length; k++) {
    const p = plan[k];
    const t = brickType(p.type);
    const part: PlannedPart = { name: `b${k + 1}`, cell: [p.col, p.row], span: footprint(p), layer: 0, height: heightOf(t), fixed: false, type: t };
    let top = -Infinity;
    for (const q of parts) if (sharedCells(q, part).length) top = Math.max(top, q.layer + q.height);
    if (top === -Infinity) return { unsupported: k };
    part.layer = top;
    parts.push(part);
  }
  return { parts };
}

/** Stud connections of landed parts: lower part's top meets upper part's bottom over shared studs. */
export function planConnections(parts: PlannedPart[]): Array<{ lower: PlannedPart; upper: PlannedPart; studs: Array<[number, number]> }> {
  const out: Array<{ lower: PlannedPart; upper: PlannedPart; studs: Array<[number, number]> }> = [];
  for (const upper of parts) {
    if (upper.fixed) continue;
    for (const lower of parts) {
      if (lower === upper || lower.layer + lower.height !== upper.layer) continue;
      const studs = sharedCells(lower, upper);
      if (studs.length) out.push({ lower, upper, studs });
    }
  }
  return out;
}

/** The topmost part covering a cell, or null. */
export function topPartAt(parts: PlannedPart[], cell: [number, number]): PlannedPart | null {
  let best: PlannedPart | null = null;
  for (const p of parts) {
    if (cell[0] < p.cell[0] || cell[0] >= p.cell[0] + p.span[0] || cell[1] < p.cell[1] || cell[1] >= p.cell[1] + p.span[1]) continue;
    if (!best || p.layer + p.height > best.layer + best.height) best = p;
  }
  return best;
}

/**
 * The most the studs of one pier can resist, expressed as a mass at the load cell, kg: every
 * stud of the pier pulling with its full grip about the pier's inner edge (the pivot is the
 * outermost stud rim, where the statics analysis puts the largest push), divided by the load's
 * lever arm. Any structure that hangs from one pier only — however it is built — is bounded by
 * this (brick weights, a few grams each, are neglected), so a load above it forces a bridge
 * that is tied to both piers.
 */
export function singlePierBoundKg(s: Pick<B1Scene, 'pierCols' | 'rows' | 'loadCell'>): number {
  const pivot = (s.pierCols - 0.5) * PITCH + BRICK_DEFAULTS.studRadius;
  let lever = 0;
  for (let i = 0; i < s.pierCols; i++) lever += pivot - (i + 0.5) * PITCH;
  const moment = BRICK_DEFAULTS.gripPerStud * s.rows * lever;
  const arm = (s.loadCell[0] + 0.5) * PITCH - pivot;
  return moment / arm / GRAVITY;
}

/** Height of the pier tops above the floor, m. */
export function pierTopY(s: Pick<B1Scene, 'pierPlates'>): number {
  return s.pierPlates * PLATE;
}

/** Cells of the whole footprint along the span: two piers and the gap. */
export function spanCells(s: Pick<B1Scene, 'pierCols' | 'gap'>): number {
  return 2 * s.pierCols + s.gap;
}

/**
 * World position of a grid point (`x` along cols and `z` along rows in cells, `layer` in
 * plates above the pier tops). The grid is turned by `yawDeg` about the vertical and placed so
 * the centre of the piers' footprint is above the world origin. Rounded to 1e-9 m.
 */
export function gridToWorld(s: Pick<B1Scene, 'pierCols' | 'gap' | 'rows' | 'pierPlates' | 'yawDeg'>, x: number, z: number, layer: number): [number, number, number] {
  const a = (s.yawDeg * Math.PI) / 180;
  const c = Math.cos(a);
  const sn = Math.sin(a);
  const lx = (x - spanCells(s) / 2) * PITCH;
  const lz = (z - s.rows / 2) * PITCH;
  // A turn by +yaw about +Y maps (x, z) to (x·cos + z·sin, −x·sin + z·cos).
  return [round9(lx * c + lz * sn), round9(pierTopY(s) + layer * PLATE), round9(-lx * sn + lz * c)];
}

/** A grid direction (cells along cols and rows) as a world unit vector. */
export function gridDirection(s: Pick<B1Scene, 'yawDeg'>, x: number, z: number): [number, number, number] {
  const a = (s.yawDeg * Math.PI) / 180;
  const n = Math.hypot(x, z);
  return [round9((x * Math.cos(a) + z * Math.sin(a)) / n), 0, round9((-x * Math.sin(a) + z * Math.cos(a)) / n)];
}
