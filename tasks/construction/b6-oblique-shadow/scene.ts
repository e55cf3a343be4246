/**
 * B6 oblique shadow: the fixed sizes, the tiers, the instance scene and the shadow geometry —
 * where each brick's shadow falls on the white board under the slanted key light, as convex
 * polygons, their union rasterised on the board, and the IoU the verdict takes.
 *
 * **Frames.** The agent acts in the *world frame*: metres, Y up, origin at the centre of the
 * target on the mat's back-left corner, x to the right and z to the front in the first view.
 * The baseplate's stud grid has its `+col` direction `yawDeg` degrees from +x toward +z (0
 * below L7) and is centred on (`siteX`, `siteZ`); cell `[col, row]` spans one pitch from
 * `(col − P/2)·pitch` along `+col` and `(row − P/2)·pitch` along `+row` from the centre.
 * Heights count in plates above the baseplate's top (layer 0).
 *
 * **Light.** The key light is directional. `shadow = [sx, sz]` is how far (m, along x and z) the
 * shadow of a point moves on a horizontal surface per metre the point is raised: a point at
 * height `h` above the board's top throws its shadow at `(x + sx·h, z + sz·h)`. The renderer's
 * key light is the same direction (`lightOf`). No trigonometry enters the verdict: the scene
 * stores `shadow` rounded to 1e-4.
 */
import { roundTo } from '../../../core/determinism.ts';
import { BRICK_DEFAULTS } from '../../../sim/bricks.ts';
import type { KeyLight } from '../../../sim/types.ts';
import type { LeverTable } from '../../levers.ts';
import type { Tier } from '../../types.ts';
import { brickType, BRICK_PLATES, heightOf, PITCH, PLATE, type SupplyItem } from '../../kits/bricks/catalog.ts';
import { footprint, landParts, type Placement, type PlannedPart } from '../../kits/bricks/plan.ts';

/** Height of one brick, m. */
export const BRICK_H = BRICK_PLATES * PLATE;
/** Thickness of the baseplate, plates. */
export const BASE_PLATES = 1;
/** Height of the board's top above the floor, m (the plane the verdict's shadows fall on). */
export const BOARD_TOP = 0.0012;
/** Width of the board along x, m. */
export const BOARD_W = 0.08;
/** The board reaches this far beyond the baseplate's z extent on both sides, m. */
export const BOARD_MARGIN_Z = 0.015;
/** Gap between the baseplate's right-most point and the board's left edge, m (the baseplate's own shadow stays off the board). */
export const BOARD_GAP = 0.012;
/** Height of the reference post, m (the same for every instance; stated in the rules). */
export const POST_H = 0.05;
/** Half side of the reference post's square section, m. */
export const POST_HALF = 0.003;
/** Least x of the post's axis, m (its ruler's labels stay clear of the mat's left ruler's). */
export const POST_MIN_X = 0.065;
/** Gap kept between the post's shadow and the board or baseplate, m. */
export const POST_CLEAR = 0.01;
/** The measuring mat, m. */
export const MAT: readonly [number, number] = [0.28, 0.24];
/** Least distance from anything drawn to the mat's left, right and front edges, m (the side rulers' labels stand inside the mat). */
export const SITE_MARGIN = 0.03;
/** …and to its back edge, m. */
export const SITE_MARGIN_BACK = 0.04;
/** Outline strips' width, m. */
export const OUTLINE_W = 0.0012;
/** Raster cell of the verdict's IoU on the board, m. */
export const RASTER = 0.0005;
/** A placement snaps to the stud grid when its studs line up with the grid to within this, m. */
export const SNAP_TOLERANCE = 0.003;
/** …and its length is within this angle of a grid direction, degrees. */
export const YAW_TOLERANCE_DEG = 10;
/** Turn budget of every instance. */
export const TURNS = 30;

/** What a tier changes. */
export interface TierSettings {
  /** Studs per side of the square baseplate. */
  plate: number;
  /** Columns in the hidden structure whose shadow is the target. */
  columns: [number, number];
  /** Bricks per column. */
  height: [number, number];
  /** A column may end in a plate (finer heights). */
  plates: boolean;
  /** Shadow length per metre of height (1 / tan of the light's elevation). */
  slope: [number, number];
  /** Largest turn of the shadow's direction from +x toward ±z, degrees. */
  spreadDeg: number;
  /** IoU the shadow must reach on the board (stated in the rules). */
  threshold: number;
  /** Plate and brick types in the supply that the target does not use. */
  decoys: number;
  /** The baseplate is turned on the mat by a drawn yaw (+rot). */
  rotated: boolean;
  /** Least area each column's own shadow covers on the board, m² (a column drawn under it is drawn again). */
  minColumnArea: number;
}

/** Tier levers. */
export const TIER_SETTINGS: Record<Tier, TierSettings> = {
  L1: { plate: 8, columns: [1, 1], height: [3, 5], plates: false, slope: [0.6, 0.85], spreadDeg: 15, threshold: 0.8, decoys: 1, rotated: false, minColumnArea: 0.0005 },
  L3: { plate: 8, columns: [2, 2], height: [2, 5], plates: false, slope: [0.85, 1.2], spreadDeg: 25, threshold: 0.88, decoys: 2, rotated: false, minColumnArea: 0.0002 },
  L5: { plate: 8, columns: [3, 3], height: [3, 6], plates: false, slope: [1.0, 1.5], spreadDeg: 25, threshold: 0.9, decoys: 2, rotated: false, minColumnArea: 0.00025 },
  L7: { plate: 8, columns: [3, 3], height: [3, 6], plates: false, slope: [1.0, 1.5], spreadDeg: 25, threshold: 0.9, decoys: 2, rotated: true, minColumnArea: 0.00025 },
};

/**
 * The levers B6 supports as single-factor studies over L5 (`B6-L5+rot-s100`; tasks/levers.ts).
 * `+rot` is its L7's lever; the turn is drawn where L7 draws it (so L7's instances keep their
 * meaning), so a study is a world of L5's stream with the baseplate turned.
 */
export const B6_LEVERS: LeverTable<TierSettings> = {
  '+rot': { description: 'L5 with the baseplate turned on the mat by 15–35° either way: the stud grid is not parallel to the mat, the board or the light.', apply: (s) => ({ ...s, rotated: true }) },
};

/** Parameters a B6 world is built from (plain JSON). */
export interface B6Scene {
  /** Studs per side of the square baseplate. */
  plate: number;
  /** World x and z of the baseplate's centre, m. */
  siteX: number;
  siteZ: number;
  /** Direction of the grid's +col axis, degrees from +x toward +z (0 below L7). */
  yawDeg: number;
  /** Horizontal shift of a shadow per metre of height, [x, z] (the light's direction and slant). */
  shadow: [number, number];
  /** The white board the target outline is drawn on: [x0, x1, z0, z1], m; its top at `BOARD_TOP`. */
  board: [number, number, number, number];
  /** World x and z of the reference post's axis, m (a square post `POST_H` tall). */
  post: [number, number];
  /** The hidden structure whose box shadow on the board is the target (placements bottom first, on the baseplate grid). */
  target: Placement[];
  /** The IoU the shadow must reach (tier constant). */
  threshold: number;
  /** Size of the measuring mat along x and z, m. */
  mat: [number, number];
  /** Brick types offered and how many of each (a removed brick goes back). */
  supply: SupplyItem[];
  /** Types in the supply the target does not use (for reports; never told). */
  decoys: string[];
}

/** A point in the x–z plane, m. */
export type P2 = [number, number];

/** World unit vectors (x, z) of the grid's +col and +row directions. */
export function gridAxes(s: Pick<B6Scene, 'yawDeg'>): { col: P2; row: P2 } {
  if (s.yawDeg === 0) return { col: [1, 0], row: [0, 1] };
  const a = (s.yawDeg * Math.PI) / 180;
  const c = roundTo(Math.cos(a), 12);
  const n = roundTo(Math.sin(a), 12);
  return { col: [c, n], row: [-n, c] };
}

/** World (x, z) of a grid point (`u` along cols, `v` along rows, in pitches from the grid's corner). */
export function gridToWorldXZ(s: Pick<B6Scene, 'plate' | 'siteX' | 'siteZ' | 'yawDeg'>, u: number, v: number): P2 {
  const { col, row } = gridAxes(s);
  const du = (u - s.plate / 2) * PITCH;
  const dv = (v - s.plate / 2) * PITCH;
  return [s.siteX + du * col[0] + dv * row[0], s.siteZ + du * col[1] + dv * row[1]];
}

/** Grid coordinates (pitches along cols and rows from the grid's corner) of a world (x, z). */
export function worldToGrid(s: Pick<B6Scene, 'plate' | 'siteX' | 'siteZ' | 'yawDeg'>, x: number, z: number): P2 {
  const { col, row } = gridAxes(s);
  const dx = x - s.siteX;
  const dz = z - s.siteZ;
  return [(dx * col[0] + dz * col[1]) / PITCH + s.plate / 2, (dx * row[0] + dz * row[1]) / PITCH + s.plate / 2];
}

/** Height of the baseplate's top above the floor, m. */
export const BASE_TOP = BASE_PLATES * PLATE;

/** Strength of the key light (brighter than the renderer's default, so shadows on the white board read clearly). */
export const KEY_INTENSITY = 3.2;

/**
 * The key light's shadow map normal bias, m: none. The renderer's default (0.004 × the scene's
 * radius, ≈ 0.7 mm here) shortens every shadow by about that over tan(elevation) — 5 points of
 * IoU on the board — and B6's shadows are what the player measures. Unbiased, the lit faces of
 * the bricks, mat and board still show no self-shadow speckle (the depth bias stays).
 */
export const SHADOW_NORMAL_BIAS = 0;
/** The key light's shadow map, texels a side: twice the renderer's default, so a shadow's penumbra on the board is ≈ 0.1 mm, not 0.2. */
export const SHADOW_MAP_SIZE = 4096;

/** The renderer's key light for a shadow shift: it shines from the side opposite the shadow, at the elevation whose cotangent is the shift's length. */
export function lightOf(shadow: P2): KeyLight {
  const k = Math.hypot(shadow[0], shadow[1]);
  return {
    azimuth: roundTo((Math.atan2(-shadow[0], -shadow[1]) * 180) / Math.PI, 4),
    elevation: roundTo((Math.atan2(1, k) * 180) / Math.PI, 4),
    intensity: KEY_INTENSITY,
    shadowNormalBias: SHADOW_NORMAL_BIAS,
    shadowMapSize: SHADOW_MAP_SIZE,
  };
}

/** The baseplate's corners in the world (x, z), counter-clockwise seen from above in x–z terms. */
export function baseplateCorners(s: Pick<B6Scene, 'plate' | 'siteX' | 'siteZ' | 'yawDeg'>): P2[] {
  return [gridToWorldXZ(s, 0, 0), gridToWorldXZ(s, s.plate, 0), gridToWorldXZ(s, s.plate, s.plate), gridToWorldXZ(s, 0, s.plate)];
}

// ---------------------------------------------------------------------------------------------
// Convex polygons and shadows

/** Convex hull (Andrew's monotone chain), counter-clockwise in (x, z); collinear points dropped. */
export function convexHull(points: readonly P2[]): P2[] {
  const pts = points.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (pts.length <= 2) return pts;
  const cross = (o: P2, a: P2, b: P2): number => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: P2[] = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], p) <= 1e-18) lower.pop();
    lower.push(p);
  }
  const upper: P2[] = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i];
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], p) <= 1e-18) upper.pop();
    upper.push(p);
  }
  return lower.slice(0, -1).concat(upper.slice(0, -1));
}

/** True when `p` is inside the counter-clockwise convex polygon `poly` (boundary counts). */
export function insideConvex(poly: readonly P2[], p: P2): boolean {
  const n = poly.length;
  if (n < 3) return false;
  for (let i = 0; i < n; i++) {
    const a = poly[i];
    const b = poly[(i + 1) % n];
    if ((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) < -1e-15) return false;
  }
  return true;
}

/** A convex polygon clipped to the rectangle [x0, x1] × [z0, z1] (Sutherland–Hodgman). */
export function clipToRect(poly: readonly P2[], rect: readonly [number, number, number, number]): P2[] {
  let out = poly.slice();
  const planes: Array<[0 | 1, number, 1 | -1]> = [
    [0, rect[0], 1],
    [0, rect[1], -1],
    [1, rect[2], 1],
    [1, rect[3], -1],
  ];
  for (const [axis, at, sign] of planes) {
    const input = out;
    out = [];
    const inside = (p: P2): boolean => sign * (p[axis] - at) >= 0;
    for (let i = 0; i < input.length; i++) {
      const a = input[i];
      const b = input[(i + 1) % input.length];
      const ia = inside(a);
      const ib = inside(b);
      if (ia) out.push(a);
      if (ia !== ib) {
        const t = (at - a[axis]) / (b[axis] - a[axis]);
        out.push([a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]);
      }
    }
    if (!out.length) return [];
  }
  return out;
}

/** A box with footprint `corners` (x, z) from height `y0` to `y1` (m above the floor): its shadow on the board's plane. */
export function prismShadow(corners: readonly P2[], y0: number, y1: number, shadow: P2): P2[] {
  const pts: P2[] = [];
  for (const y of [y0, y1]) {
    const h = y - BOARD_TOP;
    for (const c of corners) pts.push([c[0] + shadow[0] * h, c[1] + shadow[1] * h]);
  }
  return convexHull(pts);
}

/** Sides of the polygon a stud's circle is drawn with in the verdict's shadows. */
const STUD_SIDES = 16;

/** A brick's world footprint corners (x, z): its box as the brick system builds it (inset by the play on every side). */
export function brickCorners(s: Pick<B6Scene, 'plate' | 'siteX' | 'siteZ' | 'yawDeg'>, part: Pick<PlannedPart, 'cell' | 'span'>): P2[] {
  const e = BRICK_DEFAULTS.play / PITCH;
  const [c0, r0] = part.cell;
  const [c1, r1] = [part.cell[0] + part.span[0], part.cell[1] + part.span[1]];
  return [gridToWorldXZ(s, c0 + e, r0 + e), gridToWorldXZ(s, c1 - e, r0 + e), gridToWorldXZ(s, c1 - e, r1 - e), gridToWorldXZ(s, c0 + e, r1 - e)];
}

/** The landed parts of a plan on the baseplate (the baseplate first), or null when a placement has nothing under it. */
export function landOnBaseplate(s: Pick<B6Scene, 'plate'>, plan: readonly Placement[]): PlannedPart[] | null {
  const landed = landParts([{ name: 'baseplate', cell: [0, 0], span: [s.plate, s.plate], layer: -BASE_PLATES, height: BASE_PLATES, fixed: true }], plan);
  return 'unsupported' in landed ? null : landed.parts;
}

/**
 * The shadows on the board's plane of the bricks of `parts` (the baseplate left out: its shadow
 * never reaches the board), as convex polygons: each brick's box, and with `studs` each stud
 * no brick stands on (a cylinder `studHeight` tall on the brick's top).
 */
export function partShadows(s: Pick<B6Scene, 'plate' | 'siteX' | 'siteZ' | 'yawDeg' | 'shadow'>, parts: readonly PlannedPart[], studs: boolean): P2[][] {
  const out: P2[][] = [];
  const bricks = parts.filter((p) => !p.fixed);
  for (const p of bricks) {
    const y0 = BASE_TOP + p.layer * PLATE;
    const y1 = y0 + p.height * PLATE;
    out.push(prismShadow(brickCorners(s, p), y0, y1, s.shadow));
    if (!studs) continue;
    const top = p.layer + p.height;
    for (let i = p.cell[0]; i < p.cell[0] + p.span[0]; i++) {
      for (let j = p.cell[1]; j < p.cell[1] + p.span[1]; j++) {
        const covered = bricks.some((q) => q.layer === top && i >= q.cell[0] && i < q.cell[0] + q.span[0] && j >= q.cell[1] && j < q.cell[1] + q.span[1]);
        if (covered) continue;
        const [cx, cz] = gridToWorldXZ(s, i + 0.5, j + 0.5);
        const r = BRICK_DEFAULTS.studRadius;
        const circle: P2[] = [];
        for (let k = 0; k < STUD_SIDES; k++) {
          const a = (2 * Math.PI * k) / STUD_SIDES;
          circle.push([cx + r * Math.cos(a), cz + r * Math.sin(a)]);
        }
        out.push(prismShadow(circle, y1, y1 + BRICK_DEFAULTS.studHeight, s.shadow));
      }
    }
  }
  return out;
}

/** The target: the box shadows of the hidden structure, clipped to the board (empty pieces dropped). */
export function targetPolygons(s: B6Scene): P2[][] {
  const parts = landOnBaseplate(s, s.target);
  if (!parts) return [];
  return partShadows(s, parts, false)
    .map((p) => clipToRect(p, s.board))
    .filter((p) => p.length >= 3);
}

/** A boolean raster of polygons' union over the board: cells of {@link RASTER} m, sampled at their centres. */
export function rasterOnBoard(board: readonly [number, number, number, number], polys: readonly P2[][]): { nx: number; nz: number; bits: Uint8Array } {
  const nx = Math.round((board[1] - board[0]) / RASTER);
  const nz = Math.round((board[3] - board[2]) / RASTER);
  const bits = new Uint8Array(nx * nz);
  for (const poly of polys) {
    if (poly.length < 3) continue;
    let x0 = Infinity;
    let x1 = -Infinity;
    let z0 = Infinity;
    let z1 = -Infinity;
    for (const [x, z] of poly) {
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      z0 = Math.min(z0, z);
      z1 = Math.max(z1, z);
    }
    const i0 = Math.max(0, Math.floor((x0 - board[0]) / RASTER - 0.5));
    const i1 = Math.min(nx - 1, Math.ceil((x1 - board[0]) / RASTER - 0.5));
    const j0 = Math.max(0, Math.floor((z0 - board[2]) / RASTER - 0.5));
    const j1 = Math.min(nz - 1, Math.ceil((z1 - board[2]) / RASTER - 0.5));
    for (let j = j0; j <= j1; j++) {
      const z = board[2] + (j + 0.5) * RASTER;
      for (let i = i0; i <= i1; i++) {
        const k = j * nx + i;
        if (bits[k]) continue;
        if (insideConvex(poly, [board[0] + (i + 0.5) * RASTER, z])) bits[k] = 1;
      }
    }
  }
  return { nx, nz, bits };
}

/** Intersection over union of two equal-size rasters (1 when both are empty). */
export function rasterIoU(a: Uint8Array, b: Uint8Array): number {
  let inter = 0;
  let union = 0;
  for (let k = 0; k < a.length; k++) {
    if (a[k] && b[k]) inter++;
    if (a[k] || b[k]) union++;
  }
  return union === 0 ? 1 : inter / union;
}

/** Area of a raster's set cells, m². */
export function rasterArea(bits: Uint8Array): number {
  let n = 0;
  for (const b of bits) n += b;
  return n * RASTER * RASTER;
}

/** The IoU on the board between the shadow of the structure `parts` (studs included) and the target. */
export function shadowIoU(s: B6Scene, parts: readonly PlannedPart[]): number {
  const target = rasterOnBoard(s.board, targetPolygons(s)).bits;
  const shadow = rasterOnBoard(s.board, partShadows(s, parts, true)).bits;
  return rasterIoU(shadow, target);
}

/** The IoU of a plan (placements bottom first) on the baseplate; 0 when it cannot land. */
export function planIoU(s: B6Scene, plan: readonly Placement[]): number {
  const parts = landOnBaseplate(s, plan);
  return parts ? shadowIoU(s, parts) : 0;
}

/**
 * The outline of the union of convex polygons: every piece of an edge that has the union on one
 * side only (pieces split where edges of other polygons cross), as segments; shared and inner
 * pieces are dropped, and duplicates kept once.
 */
export function unionOutline(polys: readonly P2[][]): Array<[P2, P2]> {
  const out: Array<[P2, P2]> = [];
  const seen = new Set<string>();
  const inUnion = (p: P2): boolean => polys.some((q) => insideConvex(q, p));
  const EPS = 2e-5;
  for (let pi = 0; pi < polys.length; pi++) {
    const poly = polys[pi];
    for (let e = 0; e < poly.length; e++) {
      const a = poly[e];
      const b = poly[(e + 1) % poly.length];
      const d: P2 = [b[0] - a[0], b[1] - a[1]];
      const len = Math.hypot(d[0], d[1]);
      if (len < 1e-7) continue;
      const ts = [0, 1];
      for (let qi = 0; qi < polys.length; qi++) {
        if (qi === pi) continue;
        const q = polys[qi];
        for (let f = 0; f < q.length; f++) {
          const c = q[f];
          const g = q[(f + 1) % q.length];
          const h: P2 = [g[0] - c[0], g[1] - c[1]];
          const den = d[0] * h[1] - d[1] * h[0];
          if (Math.abs(den) < 1e-14) {
            // Parallel: where collinear, split at the other edge's ends.
            for (const w of [c, g]) {
              const cr = d[0] * (w[1] - a[1]) - d[1] * (w[0] - a[0]);
              if (Math.abs(cr) / len < 1e-9) {
                const t = (d[0] * (w[0] - a[0]) + d[1] * (w[1] - a[1])) / (len * len);
                if (t > 0 && t < 1) ts.push(t);
              }
            }
            continue;
          }
          const t = ((c[0] - a[0]) * h[1] - (c[1] - a[1]) * h[0]) / den;
          const u = ((c[0] - a[0]) * d[1] - (c[1] - a[1]) * d[0]) / den;
          if (t > 0 && t < 1 && u >= -1e-12 && u <= 1 + 1e-12) ts.push(t);
        }
      }
      ts.sort((x, y) => x - y);
      const n: P2 = [-d[1] / len, d[0] / len];
      for (let k = 0; k + 1 < ts.length; k++) {
        const t0 = ts[k];
        const t1 = ts[k + 1];
        if ((t1 - t0) * len < 1e-6) continue;
        const tm = (t0 + t1) / 2;
        const m: P2 = [a[0] + tm * d[0], a[1] + tm * d[1]];
        const left = inUnion([m[0] + EPS * n[0], m[1] + EPS * n[1]]);
        const right = inUnion([m[0] - EPS * n[0], m[1] - EPS * n[1]]);
        if (left === right) continue;
        const p0: P2 = [roundTo(a[0] + t0 * d[0], 6), roundTo(a[1] + t0 * d[1], 6)];
        const p1: P2 = [roundTo(a[0] + t1 * d[0], 6), roundTo(a[1] + t1 * d[1], 6)];
        const key = [p0, p1].map((p) => p.join(',')).sort().join(';');
        if (seen.has(key)) continue;
        seen.add(key);
        out.push([p0, p1]);
      }
    }
  }
  return out;
}

/** The world (x, z) centre of a placement's footprint. */
export function placementCentre(s: Pick<B6Scene, 'plate' | 'siteX' | 'siteZ' | 'yawDeg'>, p: Placement): P2 {
  const [fc, fr] = footprint(p);
  return gridToWorldXZ(s, p.col + fc / 2, p.row + fr / 2);
}

/** Bricks (not plates) and plates of a supply, as a count. */
export function heightPlatesOf(type: string): number {
  return heightOf(brickType(type));
}

/** The post's shadow on the mat, as a convex polygon (x, z). */
export function postShadow(s: Pick<B6Scene, 'post' | 'shadow'>): P2[] {
  const [px, pz] = s.post;
  const c: P2[] = [
    [px - POST_HALF, pz - POST_HALF],
    [px + POST_HALF, pz - POST_HALF],
    [px + POST_HALF, pz + POST_HALF],
    [px - POST_HALF, pz + POST_HALF],
  ];
  const pts: P2[] = [...c];
  for (const p of c) pts.push([p[0] + s.shadow[0] * POST_H, p[1] + s.shadow[1] * POST_H]);
  return convexHull(pts);
}

/** The action budget for a reference of `places` placements: its places and commit, plus half as many again and two. */
export function actionBudget(places: number): number {
  return places + 1 + Math.ceil(places / 2) + 2;
}
