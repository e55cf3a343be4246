/**
 * B1 bridge: the fixed sizes, the tiers, the instance scene and its stud-grid geometry (the
 * piers as plan supports, the grid's place in the world), shared by the generator, the statics
 * model, the solver and the episode. Brick types, plans and their statics are the shared brick
 * kit (`tasks/kits/bricks/`).
 *
 * Grid convention: `col` counts stud columns along the span, `row` stud rows across it. The
 * west pier covers cols `0 … W−1`, the gap cols `W … W+G−1`, the east pier cols
 * `W+G … 2W+G−1`; every pier has {@link ROWS} rows. Heights count in plates (3.2 mm) above the
 * pier tops (layer 0 is the pier top surface); a brick is 3 plates tall, a plate 1.
 */
import { round9 } from '../../../core/determinism.ts';
import { BRICK_DEFAULTS } from '../../../sim/bricks.ts';
import type { Tier } from '../../types.ts';
import { GRAVITY, PITCH, PLATE, type SupplyItem } from '../../kits/bricks/catalog.ts';
import { landParts, type Placement, type PlannedPart } from '../../kits/bricks/plan.ts';

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
/** The load is at least this many times the most one pier's studs can hold at mid-span. */
export const TWO_SIDED_MARGIN = 1.3;

/** What a tier changes. */
export interface TierSettings {
  pierCols: number[];
  gaps: number[];
  /** Counted supply (a brick budget). */
  budgeted: boolean;
  /** Load at 70 % of the intended two-wide bridge's capacity instead of just above one pier's. */
  heavy: boolean;
  /** Short decoy bricks in the supply. */
  decoys: boolean;
  /** Working frame turned by ±30–60° about the vertical. */
  rotated: boolean;
}

/** Tier levers. */
export const TIER_SETTINGS: Record<Tier, TierSettings> = {
  L1: { pierCols: [3, 4, 5], gaps: [5], budgeted: false, heavy: false, decoys: false, rotated: false },
  L3: { pierCols: [4, 5], gaps: [7, 9], budgeted: true, heavy: false, decoys: false, rotated: false },
  L5: { pierCols: [4, 5], gaps: [9, 11], budgeted: true, heavy: true, decoys: true, rotated: false },
  L7: { pierCols: [4, 5], gaps: [9, 11], budgeted: true, heavy: true, decoys: true, rotated: true },
};

/** Heaviest load, kg. */
export const MAX_LOAD_KG = 3;

/** Most bricks at once without a budget (L1). */
export const L1_MAX_BRICKS = 20;

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

/** The two piers as plan parts. */
export function pierParts(s: Pick<B1Scene, 'pierCols' | 'rows' | 'gap' | 'pierPlates'>): PlannedPart[] {
  return [
    { name: 'pier-west', cell: [0, 0], span: [s.pierCols, s.rows], layer: -s.pierPlates, height: s.pierPlates, fixed: true },
    { name: 'pier-east', cell: [s.pierCols + s.gap, 0], span: [s.pierCols, s.rows], layer: -s.pierPlates, height: s.pierPlates, fixed: true },
  ];
}

/**
 * Lands every placement of a plan on the two piers, as the `place` tool's vertical drop does: a brick
 * comes to rest on the highest part under its footprint. Returns the parts (piers first, then
 * bricks named `b1`, `b2`, … in order), or the index of the first placement with nothing under it.
 */
export function landPlan(s: Pick<B1Scene, 'pierCols' | 'rows' | 'gap' | 'pierPlates'>, plan: Placement[]): { parts: PlannedPart[] } | { unsupported: number } {
  return landParts(pierParts(s), plan);
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
