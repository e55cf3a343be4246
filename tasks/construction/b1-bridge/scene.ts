/**
 * B1 bridge: the fixed sizes, the tiers, the instance scene and its geometry — the piers as plan
 * supports on their stud grid, and where that grid stands in the world frame the agent places in.
 * Brick types, plans and their statics are the shared brick kit (`tasks/kits/bricks/`).
 *
 * **Two frames.** The agent acts in the *world frame*: metres, Y up, origin at the centre of the
 * target on the mat's back-left corner, x to the right and z to the front in the first view
 * (the rulers and the mat lines are world-aligned). The piers carry their own *stud grid*: `col`
 * counts stud columns along the span, `row` stud rows across it; the west pier covers cols
 * `0 … W−1`, the gap cols `W … W+G−1`, the east pier cols `W+G … 2W+G−1`, every pier has
 * {@link ROWS} rows. Heights count in plates (3.2 mm) above the pier tops (layer 0 is the pier
 * top surface); a brick is 3 plates tall, a plate 1. The grid's centre stands at
 * (`siteX`, `siteZ`) and its +col direction points `spanYawDeg` degrees from +x toward +z
 * (0 below L7), so the grid's +row direction is `spanYawDeg + 90`.
 */
import { round9 } from '../../../core/determinism.ts';
import { BRICK_DEFAULTS } from '../../../sim/bricks.ts';
import type { LeverTable } from '../../levers.ts';
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
/** Factor by which the reference must out-carry the load in the statics model. */
export const REFERENCE_MARGIN = 1.3;

/** The measuring mat, m: x from 0 to `MAT[0]`, z from 0 to `MAT[1]` (the origin is its back-left corner). */
export const MAT: readonly [number, number] = [0.36, 0.34];
/**
 * Least distance from the piers' footprint to the mat's edges along x and along z, m (wider
 * along x: the z rulers' labels sit on the mat beside its left and right edges).
 */
export const SITE_MARGIN: readonly [number, number] = [0.045, 0.03];
/** A placement snaps to the stud grid when its studs line up with the studs under it to within this distance along both grid directions, m. */
export const SNAP_TOLERANCE = 0.003;
/** …and its length is within this angle of a grid direction, degrees. */
export const YAW_TOLERANCE_DEG = 10;
/** Actions an episode may spend beyond the reference's (place, remove and commit each count; refused ones too). */
export const ACTION_MARGIN = 3;
/** Turn budget of every instance. */
export const TURNS = 30;

/** What a tier changes. */
export interface TierSettings {
  pierCols: number[];
  gaps: number[];
  /** Levels of cantilevers each side of the reference (1: 3 bricks; 2: 5 bricks). */
  levels: 1 | 2;
  /** Widths (studs) the intended bridge may have. */
  widths: Array<1 | 2>;
  /** Longest brick type in the supply, studs. */
  maxLength: number;
  /**
   * Load over the reference's capacity (statics model), drawn in this range; null: the load is
   * just beyond what one pier could hold ({@link TWO_SIDED_MARGIN}× {@link singlePierBoundKg}).
   */
  ratio: [number, number] | null;
  /** Useful-looking types beyond the reference's. */
  alternatives: number;
  /** Short types that cannot reach far (distractors). */
  decoys: number;
  /** The same bridge built one stud wide must fail (the load needs two-wide bricks). */
  twoWide: boolean;
  /** Piers and their stud grid turned by ±30–60° relative to the world frame. */
  rotated: boolean;
}

/** Tier levers. */
export const TIER_SETTINGS: Record<Tier, TierSettings> = {
  L1: { pierCols: [3, 4, 5], gaps: [5, 7], levels: 1, widths: [1, 2], maxLength: 6, ratio: null, alternatives: 1, decoys: 1, twoWide: false, rotated: false },
  L3: { pierCols: [4, 5], gaps: [9, 11], levels: 2, widths: [1, 2], maxLength: 6, ratio: [0.45, 0.75], alternatives: 2, decoys: 1, twoWide: false, rotated: false },
  L5: { pierCols: [4, 5], gaps: [13, 15], levels: 2, widths: [2], maxLength: 8, ratio: [0.6, 0.75], alternatives: 2, decoys: 2, twoWide: true, rotated: false },
  L7: { pierCols: [4, 5], gaps: [13, 15], levels: 2, widths: [2], maxLength: 8, ratio: [0.6, 0.75], alternatives: 2, decoys: 2, twoWide: true, rotated: true },
};

/**
 * The levers B1 supports as single-factor studies over L5 (`B1-L5+rot-s100`; tasks/levers.ts).
 * `+rot` is its L7's lever. The turn is drawn where L7 draws it (early in the stream, so L7's
 * instances keep their meaning), so a study is a world of L5's stream with the site turned, not
 * the seed's L5 world turned.
 */
export const B1_LEVERS: LeverTable<TierSettings> = {
  '+rot': { description: 'L5 with the piers and their stud grid turned by ±30–60° about the vertical against the world frame the bricks are placed in.', apply: (s) => ({ ...s, rotated: true }) },
};

/** Bricks in a reference of `levels` levels: two cantilevers per level and a tie. */
export function referenceBricks(levels: number): number {
  return 2 * levels + 1;
}

/** The action budget of a tier: the reference's actions (its bricks and commit) plus {@link ACTION_MARGIN}. */
export function actionBudget(tier: Tier): number {
  return referenceBricks(TIER_SETTINGS[tier].levels) + 1 + ACTION_MARGIN;
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
  /** World x of the centre of the piers' footprint, m. */
  siteX: number;
  /** World z of the centre of the piers' footprint, m. */
  siteZ: number;
  /** Direction of the grid's +col (west pier to east pier), degrees from +x toward +z (0 below L7). */
  spanYawDeg: number;
  /** Size of the measuring mat along x and z, m (its back-left corner is the world origin). */
  mat: [number, number];
  /** Brick types offered and how many of each (a budget: a removed brick goes back). */
  supply: SupplyItem[];
  /** The short distractor types in the supply (for reports; never told). */
  decoys: string[];
}

/** The scene fields the stud-grid geometry depends on. */
export type GridScene = Pick<B1Scene, 'pierCols' | 'rows' | 'gap' | 'pierPlates'>;

/** The two piers as plan parts. */
export function pierParts(s: GridScene): PlannedPart[] {
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
export function landPlan(s: GridScene, plan: Placement[]): { parts: PlannedPart[] } | { unsupported: number } {
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

function ceil05(x: number): number {
  return Math.round(Math.ceil(x * 20 - 1e-9) * 5) / 100;
}

/** The L1 load of a pier width and gap, kg: {@link TWO_SIDED_MARGIN}× what one pier could hold, rounded up to 0.05 kg. */
export function l1Load(pierCols: number, gap: number): number {
  return ceil05(TWO_SIDED_MARGIN * singlePierBoundKg({ pierCols, rows: ROWS, loadCell: [pierCols + (gap - 1) / 2, LOAD_ROW] }));
}

/** The heaviest load an L1 instance can have, kg; L3 loads are never lighter. */
export const L1_MAX_LOAD_KG = Math.max(...TIER_SETTINGS.L1.pierCols.flatMap((w) => TIER_SETTINGS.L1.gaps.map((g) => l1Load(w, g))));

/** Least load of a tier, kg: L3 never lighter than any L1 load, L5/L7 at least 2.5 kg. */
export function minLoadKg(tier: Tier): number {
  return tier === 'L1' ? 0 : tier === 'L3' ? L1_MAX_LOAD_KG : 2.5;
}

/** Height of the pier tops above the floor, m. */
export function pierTopY(s: Pick<B1Scene, 'pierPlates'>): number {
  return s.pierPlates * PLATE;
}

/** Cells of the whole footprint along the span: two piers and the gap. */
export function spanCells(s: Pick<B1Scene, 'pierCols' | 'gap'>): number {
  return 2 * s.pierCols + s.gap;
}

/** The scene fields that place the grid in the world. */
export type SiteScene = GridScene & Pick<B1Scene, 'siteX' | 'siteZ' | 'spanYawDeg'>;

/** World unit vectors (x, z) of the grid's +col and +row directions. */
export function gridAxes(s: Pick<B1Scene, 'spanYawDeg'>): { col: [number, number]; row: [number, number] } {
  const a = (s.spanYawDeg * Math.PI) / 180;
  const c = Math.cos(a);
  const n = Math.sin(a);
  return { col: [c, n], row: [-n, c] };
}

/**
 * World position of a grid point (`u` along cols and `v` along rows in cells, `layer` in plates
 * above the pier tops). Rounded to 1e-9 m.
 */
export function gridToWorld(s: SiteScene, u: number, v: number, layer: number): [number, number, number] {
  const { col, row } = gridAxes(s);
  const du = (u - spanCells(s) / 2) * PITCH;
  const dv = (v - s.rows / 2) * PITCH;
  return [round9(s.siteX + du * col[0] + dv * row[0]), round9(pierTopY(s) + layer * PLATE), round9(s.siteZ + du * col[1] + dv * row[1])];
}

/** Grid coordinates (cells along cols and rows) of a world point (x, z). */
export function worldToGrid(s: SiteScene, x: number, z: number): [number, number] {
  const { col, row } = gridAxes(s);
  const dx = x - s.siteX;
  const dz = z - s.siteZ;
  return [(dx * col[0] + dz * col[1]) / PITCH + spanCells(s) / 2, (dx * row[0] + dz * row[1]) / PITCH + s.rows / 2];
}

/** A grid direction (cells along cols and rows) as a world unit vector. */
export function gridDirection(s: Pick<B1Scene, 'spanYawDeg'>, u: number, v: number): [number, number, number] {
  const { col, row } = gridAxes(s);
  const n = Math.hypot(u, v);
  return [round9((u * col[0] + v * row[0]) / n), 0, round9((u * col[1] + v * row[1]) / n)];
}

/** Half extents along world x and z of the piers' footprint, m. */
export function siteHalfExtents(s: Pick<B1Scene, 'pierCols' | 'gap' | 'rows' | 'spanYawDeg'>): [number, number] {
  const { col } = gridAxes(s);
  const a = (spanCells(s) * PITCH) / 2;
  const b = (s.rows * PITCH) / 2;
  return [a * Math.abs(col[0]) + b * Math.abs(col[1]), a * Math.abs(col[1]) + b * Math.abs(col[0])];
}

/** The angle of a brick's length in the tool's convention (degrees from +x toward +z, in [0, 180)) for a grid rotation. */
export function toolYaw(s: Pick<B1Scene, 'spanYawDeg'>, rot: 0 | 90): number {
  const y = (((s.spanYawDeg + rot) % 180) + 180) % 180;
  return round9(y);
}
