/**
 * B2 cantilever: the fixed sizes, the tiers, the instance scene and its geometry — the studded
 * table as a plan support on its stud grid, the target cell beyond the table's edge, and where
 * that grid stands in the world frame the agent places in. Brick types, plans and their statics
 * are the shared brick kit (`tasks/kits/bricks/`).
 *
 * **Two frames.** The agent acts in the *world frame*: metres, Y up, origin at the centre of the
 * target on the mat's back-left corner, x to the right and z to the front in the first view.
 * The table carries its own *stud grid*: `col` counts stud columns toward the edge and beyond
 * it, `row` stud rows across; the table covers cols `0 … W−1` and rows `0 … ROWS−1`, its edge is
 * the line col = W, and the target cell is col `W + R − 1` (the R-th cell past the edge), row
 * {@link LOAD_ROW}. Heights count in plates (3.2 mm) above the table top (layer 0). The grid's
 * centre (the middle of the table plus the reach) stands at (`siteX`, `siteZ`) and its +col
 * direction points `reachYawDeg` degrees from +x toward +z (0 below L7).
 */
import { round9 } from '../../../core/determinism.ts';
import type { LeverTable } from '../../levers.ts';
import type { Tier } from '../../types.ts';
import { PITCH, PLATE, type SupplyItem } from '../../kits/bricks/catalog.ts';
import { landParts, type Placement, type PlannedPart } from '../../kits/bricks/plan.ts';

/** Rows of studs on the table (odd, so the target row is the middle one). */
export const ROWS = 3;
/** The row the payload hangs from: the middle one. */
export const LOAD_ROW = 1;
/** Height of the table above the mat, in plates (48 mm). */
export const TABLE_PLATES = 15;
/** How long the payload must hang without anything moving, s. */
export const HOLD_SECONDS = 2;
/** Largest motion of any brick during the load test that still counts as holding, m. */
export const HOLD_TOLERANCE = 0.002;
/** Factor by which the reference must out-carry the payload in the statics model. */
export const REFERENCE_MARGIN = 1.3;

/** The measuring mat, m: x from 0 to `MAT[0]`, z from 0 to `MAT[1]` (the origin is its back-left corner). */
export const MAT: readonly [number, number] = [0.36, 0.34];
/** Least distance from the site (table and reach) to the mat's edges along x and along z, m. */
export const SITE_MARGIN: readonly [number, number] = [0.045, 0.035];
/** A placement snaps to the stud grid when its studs line up with the studs under it to within this distance along both grid directions, m. */
export const SNAP_TOLERANCE = 0.003;
/** …and its length is within this angle of a grid direction, degrees. */
export const YAW_TOLERANCE_DEG = 10;
/** Turn budget of every instance. */
export const TURNS = 30;

/** What a tier changes. */
export interface TierSettings {
  /** Stud columns of the table toward its edge. */
  tableCols: number[];
  /** Cells past the edge to the target cell (R). */
  reaches: number[];
  /** Levels of the reference cantilever (bricks stepping out, one on the next). */
  levels: 1 | 2 | 3;
  /** Widths (studs) the intended cantilever may have. */
  widths: Array<1 | 2>;
  /** Longest brick type in the supply, studs. */
  maxLength: number;
  /** Payload over the reference's capacity (statics model), drawn in this range. */
  ratio: [number, number];
  /** Useful-looking types beyond the reference's. */
  alternatives: number;
  /** Short or thin types that cannot carry the payload so far out (distractors). */
  decoys: number;
  /** The same cantilever built one stud wide must fail (the payload needs two-wide bricks). */
  twoWide: boolean;
  /** Bricks that may stand beyond the reference's (the brick budget is the reference's count plus this). */
  spareBricks: number;
  /** Actions beyond the reference's (place, remove and commit each count; refused ones too). */
  actionMargin: number;
  /** Table and stud grid turned by ±30–60° relative to the world frame. */
  rotated: boolean;
}

/** Tier levers. */
export const TIER_SETTINGS: Record<Tier, TierSettings> = {
  L1: { tableCols: [4, 5], reaches: [3, 4], levels: 1, widths: [1, 2], maxLength: 6, ratio: [0.45, 0.75], alternatives: 1, decoys: 0, twoWide: false, spareBricks: 4, actionMargin: 3, rotated: false },
  L3: { tableCols: [4, 5], reaches: [6, 7, 8], levels: 2, widths: [1, 2], maxLength: 6, ratio: [0.55, 0.75], alternatives: 2, decoys: 0, twoWide: false, spareBricks: 2, actionMargin: 3, rotated: false },
  L5: { tableCols: [5, 6], reaches: [9, 10], levels: 2, widths: [2], maxLength: 8, ratio: [0.6, 0.75], alternatives: 2, decoys: 2, twoWide: true, spareBricks: 1, actionMargin: 3, rotated: false },
  L7: { tableCols: [5, 6], reaches: [9, 10], levels: 2, widths: [2], maxLength: 8, ratio: [0.6, 0.75], alternatives: 2, decoys: 2, twoWide: true, spareBricks: 1, actionMargin: 3, rotated: true },
};

/**
 * The levers B2 supports as single-factor studies over L5 (`B2-L5+rot-s100`; tasks/levers.ts).
 * `+rot` is its L7's lever; the turn is drawn where L7 draws it (early in the stream, so L7's instances keep their meaning), so a study is a world of L5's stream with the table turned, not the seed's L5 world turned.
 */
export const B2_LEVERS: LeverTable<TierSettings> = {
  '+rot': { description: 'L5 with the table and its stud grid turned by ±30–60° about the vertical against the world frame the bricks are placed in.', apply: (s) => ({ ...s, rotated: true }) },
};

/** The brick budget of a tier: the most bricks that may stand at once (the reference's plus the tier's spares). */
export function brickBudget(tier: Tier): number {
  const cfg = TIER_SETTINGS[tier];
  return cfg.levels + cfg.spareBricks;
}

/** The action budget of a tier: the reference's actions (one place per level and the commit) plus the tier's margin. */
export function actionBudget(tier: Tier): number {
  const cfg = TIER_SETTINGS[tier];
  return cfg.levels + 1 + cfg.actionMargin;
}

/** Parameters a B2 world is built from (plain JSON). */
export interface B2Scene {
  /** Stud columns of the table toward its edge (W). */
  tableCols: number;
  /** Stud rows of the table. */
  rows: number;
  /** Cells past the table's edge to the target cell (R): the target is the R-th cell out. */
  reach: number;
  /** Table height above the mat, plates. */
  tablePlates: number;
  /** Mass hung at the target at commit, kg. */
  payloadKg: number;
  /** How long the payload hangs, s. */
  holdSeconds: number;
  /** The stud cell `[col, row]` the payload hangs from: `[W + R − 1, LOAD_ROW]`. */
  targetCell: [number, number];
  /** Most bricks that may stand at once (the brick budget). */
  maxBricks: number;
  /** World x of the centre of the site (the table and the reach beyond it), m. */
  siteX: number;
  /** World z of the centre of the site, m. */
  siteZ: number;
  /** Direction of the grid's +col (from the table toward the target), degrees from +x toward +z (0 below L7). */
  reachYawDeg: number;
  /** Size of the measuring mat along x and z, m (its back-left corner is the world origin). */
  mat: [number, number];
  /** Brick types offered and how many of each (a removed brick goes back). */
  supply: SupplyItem[];
  /** The distractor types in the supply (for reports; never told). */
  decoys: string[];
}

/** The scene fields the stud-grid geometry depends on. */
export type GridScene = Pick<B2Scene, 'tableCols' | 'rows' | 'reach' | 'tablePlates'>;

/** The studded table as a plan part. */
export function tablePart(s: GridScene): PlannedPart {
  return { name: 'table', cell: [0, 0], span: [s.tableCols, s.rows], layer: -s.tablePlates, height: s.tablePlates, fixed: true };
}

/**
 * Lands every placement of a plan on the table, as the `place` tool's vertical drop does.
 * Returns the parts (the table first, then bricks `b1`, `b2`, … in order), or the index of the
 * first placement with nothing under it.
 */
export function landPlan(s: GridScene, plan: Placement[]): { parts: PlannedPart[] } | { unsupported: number } {
  return landParts([tablePart(s)], plan);
}

/** Height of the table top above the mat, m. */
export function tableTopY(s: Pick<B2Scene, 'tablePlates'>): number {
  return s.tablePlates * PLATE;
}

/** Cells of the whole site along the reach: the table and the cells past its edge up to the target's far side. */
export function spanCells(s: Pick<B2Scene, 'tableCols' | 'reach'>): number {
  return s.tableCols + s.reach;
}

/** The target cell of a table width and reach. */
export function targetCellOf(tableCols: number, reach: number): [number, number] {
  return [tableCols + reach - 1, LOAD_ROW];
}

/** The scene fields that place the grid in the world. */
export type SiteScene = GridScene & Pick<B2Scene, 'siteX' | 'siteZ' | 'reachYawDeg'>;

/** World unit vectors (x, z) of the grid's +col and +row directions. */
export function gridAxes(s: Pick<B2Scene, 'reachYawDeg'>): { col: [number, number]; row: [number, number] } {
  const a = (s.reachYawDeg * Math.PI) / 180;
  const c = Math.cos(a);
  const n = Math.sin(a);
  return { col: [c, n], row: [-n, c] };
}

/** World position of a grid point (`u` along cols and `v` along rows in cells, `layer` in plates above the table top), rounded to 1e-9 m. */
export function gridToWorld(s: SiteScene, u: number, v: number, layer: number): [number, number, number] {
  const { col, row } = gridAxes(s);
  const du = (u - spanCells(s) / 2) * PITCH;
  const dv = (v - s.rows / 2) * PITCH;
  return [round9(s.siteX + du * col[0] + dv * row[0]), round9(tableTopY(s) + layer * PLATE), round9(s.siteZ + du * col[1] + dv * row[1])];
}

/** Grid coordinates (cells along cols and rows) of a world point (x, z). */
export function worldToGrid(s: SiteScene, x: number, z: number): [number, number] {
  const { col, row } = gridAxes(s);
  const dx = x - s.siteX;
  const dz = z - s.siteZ;
  return [(dx * col[0] + dz * col[1]) / PITCH + spanCells(s) / 2, (dx * row[0] + dz * row[1]) / PITCH + s.rows / 2];
}

/** Half extents along world x and z of the site's footprint (table and reach), m. */
export function siteHalfExtents(s: Pick<B2Scene, 'tableCols' | 'reach' | 'rows' | 'reachYawDeg'>): [number, number] {
  const { col } = gridAxes(s);
  const a = (spanCells(s) * PITCH) / 2;
  const b = (s.rows * PITCH) / 2;
  return [a * Math.abs(col[0]) + b * Math.abs(col[1]), a * Math.abs(col[1]) + b * Math.abs(col[0])];
}

/** The angle of a brick's length in the tool's convention (degrees from +x toward +z, in [0, 180)) for a grid rotation. */
export function toolYaw(s: Pick<B2Scene, 'reachYawDeg'>, rot: 0 | 90): number {
  const y = (((s.reachYawDeg + rot) % 180) + 180) % 180;
  return round9(y);
}
