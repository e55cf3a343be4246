/**
 * B5 multi-wall: the fixed sizes, the tiers, the instance scene, and the projections of a set of
 * filled cells onto the views the targets are drawn in.
 *
 * **Frames.** The agent acts in the *world frame* of the measuring mat (`tasks/kits/measuring-mat.ts`):
 * metres, Y up, origin at the target on the mat's back-left corner, x to the right and z toward
 * the front in the first view. The baseplate's stud grid is lined up with it: cell `[col, row]`
 * spans x from `siteX − P·pitch/2 + col·pitch` one pitch on, z likewise from
 * `siteZ − P·pitch/2 + row·pitch`. A *cell* of the structure is `[col, row, layer]`, layer
 * counting whole bricks (9.6 mm) above the baseplate's top (layer 0 stands on it).
 *
 * **Views** (orthographic, as the target sheet draws them): `front` looks from +z toward −z
 * (a pixel is `[col, layer]`, col to the right); `right` looks from +x toward −x (a pixel is
 * `[row, layer]`, the front, high rows, on the left); `top` looks down (a pixel is `[col, row]`,
 * the front at the bottom).
 */
import { roundTo } from '../../../core/determinism.ts';
import type { Vec3 } from '../../../sim/types.ts';
import type { LeverTable } from '../../levers.ts';
import type { Tier } from '../../types.ts';
import { BRICK_PLATES, PITCH, PLATE, type SupplyItem } from '../../kits/bricks/catalog.ts';
import type { PlannedPart } from '../../kits/bricks/plan.ts';

/** Height of one brick, m. */
export const BRICK_H = BRICK_PLATES * PLATE;
/** Thickness of the baseplate, plates (its top is this far above the mat). */
export const BASE_PLATES = 1;
/** Studs per side of the square baseplate (every tier). */
export const PLATE_STUDS = 8;
/** The measuring mat, m. */
export const MAT: readonly [number, number] = [0.24, 0.2];
/** Least distance from the baseplate to the mat's left, right and front edges, m (the side rulers' labels stand inside the mat). */
export const SITE_MARGIN = 0.035;
/** …and to its back edge, m. */
export const SITE_MARGIN_BACK = 0.04;
/** A placement snaps to the stud grid when its studs line up with the grid to within this, m. */
export const SNAP_TOLERANCE = 0.003;
/** …and its length is within this angle of a grid direction, degrees. */
export const YAW_TOLERANCE_DEG = 10;
/** The action budget is the reference's actions (its bricks and commit) times this, rounded up. */
export const BUDGET_FACTOR = 1.5;
/** Turn budget of every instance. */
export const TURNS = 30;

/** A view the targets are drawn in. */
export type ViewName = 'front' | 'right' | 'top';
/** How the target views are drawn: filled silhouettes on a stud grid, or line drawings with dimension lines (+blueprint). */
export type DrawingStyle = 'silhouette' | 'lines';

/** A cell of the structure: `[col, row, layer]` (layer in whole bricks above the baseplate's top). */
export type Cell = [number, number, number];

/** What a tier changes. */
export interface TierSettings {
  /** Walls in the target. */
  walls: [number, number];
  /** Cells along a wall. */
  length: [number, number];
  /** Bricks a wall's column of cells may stand (its height in layers). */
  height: [number, number];
  /** Openings (a door or a window: cells left out under cells that stay) in all. */
  openings: [number, number];
  /** The views the targets are given in. */
  views: ViewName[];
  /** How they are drawn. */
  drawing: DrawingStyle;
  /** The supply holds exactly the bricks of a least-brick build (plus decoys); else spares. */
  tightSupply: boolean;
  /** The filled cells must follow from the views (every cell the only one behind some pixel). */
  uniqueCells: boolean;
  /** Brick types the supply draws from (walls are one stud thick). */
  types: string[];
  /** Brick types added that fit nowhere in a one-stud wall. */
  decoys: number;
}

/** Tier levers. */
export const TIER_SETTINGS: Record<Tier, TierSettings> = {
  L1: { walls: [1, 1], length: [3, 6], height: [1, 3], openings: [0, 0], views: ['front', 'right'], drawing: 'silhouette', tightSupply: false, uniqueCells: true, types: ['brick-1x1', 'brick-1x2', 'brick-1x4'], decoys: 0 },
  L3: { walls: [2, 2], length: [3, 6], height: [1, 4], openings: [0, 1], views: ['front', 'right'], drawing: 'silhouette', tightSupply: false, uniqueCells: false, types: ['brick-1x1', 'brick-1x2', 'brick-1x4', 'brick-1x6'], decoys: 1 },
  L5: { walls: [2, 3], length: [3, 6], height: [1, 4], openings: [1, 2], views: ['front', 'right', 'top'], drawing: 'silhouette', tightSupply: true, uniqueCells: true, types: ['brick-1x1', 'brick-1x2', 'brick-1x4', 'brick-1x6'], decoys: 1 },
  L7: { walls: [2, 3], length: [3, 6], height: [1, 4], openings: [1, 2], views: ['front', 'right', 'top'], drawing: 'lines', tightSupply: true, uniqueCells: true, types: ['brick-1x1', 'brick-1x2', 'brick-1x4', 'brick-1x6'], decoys: 1 },
};

/**
 * The levers B5 supports as single-factor studies over L5 (`B5-L5+blueprint-s100`; tasks/levers.ts).
 * `+blueprint` is its L7's lever; it draws nothing of its own, so a study is the seed's L5 world with its targets drawn as lines.
 */
export const B5_LEVERS: LeverTable<TierSettings> = {
  '+blueprint': { description: 'L5 with the target views only as line drawings (outlines and dimension lines, no grid, no colour).', apply: (s) => ({ ...s, drawing: 'lines' }) },
};

/** Tallest structure a tier draws, layers (the target sheet's frame is fitted to it). */
export const MAX_LAYERS = 4;

/** The projections a structure must match, one list of pixels per view of the tier. */
export interface TargetViews {
  /** `[col, layer]` pixels, sorted. */
  front?: Array<[number, number]>;
  /** `[row, layer]` pixels, sorted. */
  right?: Array<[number, number]>;
  /** `[col, row]` pixels, sorted. */
  top?: Array<[number, number]>;
}

/** Parameters a B5 world is built from (plain JSON). */
export interface B5Scene {
  /** Studs per side of the square baseplate. */
  plate: number;
  /** World x of the baseplate's centre, m. */
  siteX: number;
  /** World z of the baseplate's centre, m. */
  siteZ: number;
  /** Size of the measuring mat along x and z, m. */
  mat: [number, number];
  /** The views the targets are given in, in the order the sheet shows them. */
  views: ViewName[];
  /** How the target views are drawn. */
  drawing: DrawingStyle;
  /** The generator's structure: the filled cells of one reading of the targets (never shown). */
  cells: Cell[];
  /** The target projections: what the built bricks must cover exactly, view by view. */
  targets: TargetViews;
  /** Brick types offered and how many of each (a removed brick goes back). */
  supply: SupplyItem[];
  /** The distractor types in the supply (for reports; never told). */
  decoys: string[];
  /** Bricks in a least-brick build from the supply that matches the targets and stands (exact search; 0: none found). */
  leastBricks: number;
}

/** A pixel's key. */
export function pixelKey(p: readonly number[]): string {
  return `${p[0]},${p[1]}`;
}

/** The pixel a cell projects to in a view. */
export function project(c: readonly number[], v: ViewName): [number, number] {
  return v === 'front' ? [c[0], c[2]] : v === 'right' ? [c[1], c[2]] : [c[0], c[1]];
}

/** The projection of a set of cells onto a view: distinct pixels, sorted. */
export function projection(cells: ReadonlyArray<readonly number[]>, v: ViewName): Array<[number, number]> {
  const seen = new Map<string, [number, number]>();
  for (const c of cells) {
    const p = project(c, v);
    seen.set(pixelKey(p), p);
  }
  return [...seen.values()].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

/** The targets of a set of cells in the given views. */
export function targetsOf(cells: ReadonlyArray<readonly number[]>, views: readonly ViewName[]): TargetViews {
  const t: TargetViews = {};
  for (const v of views) t[v] = projection(cells, v);
  return t;
}

/**
 * Intersection over union of two structures' projections, summed over the views:
 * Σ|A∩B| / Σ|A∪B| (1 when they match in every view, 0 when nothing overlaps).
 */
export function viewsIoU(built: TargetViews, target: TargetViews, views: readonly ViewName[]): number {
  let inter = 0;
  let union = 0;
  for (const v of views) {
    const a = new Set((built[v] ?? []).map(pixelKey));
    const b = new Set((target[v] ?? []).map(pixelKey));
    for (const k of a) if (b.has(k)) inter++;
    union += new Set([...a, ...b]).size;
  }
  return union === 0 ? 1 : inter / union;
}

/** True when two structures' projections are the same in every view. */
export function sameViews(built: TargetViews, target: TargetViews, views: readonly ViewName[]): boolean {
  return views.every((v) => {
    const a = (built[v] ?? []).map(pixelKey).sort();
    const b = (target[v] ?? []).map(pixelKey).sort();
    return a.length === b.length && a.every((k, i) => k === b[i]);
  });
}

/** The cells of landed plan parts (bricks only; layers in plates turned into whole bricks). */
export function cellsOfParts(parts: ReadonlyArray<Pick<PlannedPart, 'cell' | 'span' | 'layer' | 'height' | 'fixed'>>): Cell[] {
  const out: Cell[] = [];
  for (const p of parts) {
    if (p.fixed) continue;
    // A brick counts in every brick layer its body reaches into.
    const l0 = Math.floor(p.layer / BRICK_PLATES);
    const l1 = Math.ceil((p.layer + p.height) / BRICK_PLATES);
    for (let i = 0; i < p.span[0]; i++) for (let j = 0; j < p.span[1]; j++) for (let l = l0; l < l1; l++) out.push([p.cell[0] + i, p.cell[1] + j, l]);
  }
  return out;
}

/** The baseplate as a plan support: cells `[0, P) × [0, P)`, top at layer 0. */
export function baseplatePart(plate: number): PlannedPart {
  return { name: 'baseplate', cell: [0, 0], span: [plate, plate], layer: -BASE_PLATES, height: BASE_PLATES, fixed: true };
}

/** The baseplate's half side, m. */
export function plateHalf(plate: number): number {
  return (plate * PITCH) / 2;
}

/** World point of a plan-frame point (plan x, y above the baseplate top, plan z). */
export function planToWorld(s: Pick<B5Scene, 'plate' | 'siteX' | 'siteZ'>, p: Vec3): Vec3 {
  const h = plateHalf(s.plate);
  return [s.siteX - h + p[0], BASE_PLATES * PLATE + p[1], s.siteZ - h + p[2]];
}

/** Plan-frame x and z (m) of a world x and z. */
export function worldToPlan(s: Pick<B5Scene, 'plate' | 'siteX' | 'siteZ'>, x: number, z: number): [number, number] {
  const h = plateHalf(s.plate);
  return [x - (s.siteX - h), z - (s.siteZ - h)];
}

/** The action budget for a reference of `bricks` placements (plus its commit). */
export function actionBudget(bricks: number): number {
  return Math.ceil(BUDGET_FACTOR * (bricks + 1));
}

/** Bricks in a supply, in all. */
export function supplyCount(supply: readonly SupplyItem[]): number {
  return supply.reduce((n, x) => n + x.count, 0);
}

/** Round a metric coordinate as the scene stores it. */
export function r4(x: number): number {
  return roundTo(x, 4);
}
