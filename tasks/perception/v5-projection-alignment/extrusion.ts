/**
 * From an icon raster to the solid the task rotates (the rotation seed's icon processing and
 * sphere-bounded extrusion), in the seed's units: the 512-pixel canvas spans ±24 units before
 * the 1.24 scale, the bounding sphere has radius r = 28, and depth is bounded by 0.98 r.
 *
 * Object frame: X to the right of the target view, Y up, Z toward the viewer (the world frame
 * of the scene, in units of {@link UNIT_M} metres).
 */
import { minimumEnclosingCircle } from './circle.ts';
import { foregroundMask, ICON_CANVAS, rasterizeIcon, type IconSpec } from './icon.ts';
import { roundTo } from '../../../core/determinism.ts';

/** Radius of the bounding sphere, units. */
export const SPHERE_RADIUS = 28;
/** Depth is bounded by a sphere of this radius (0.98 r), so the solid stays strictly inside. */
export const DEPTH_RADIUS = 0.98 * SPHERE_RADIUS;
/** Scale applied to the canvas coordinates. */
export const ICON_SCALE = 1.24;
/** Units per canvas pixel before scaling: the canvas spans ±24 units. */
const UNITS_PER_PIXEL = 24 / 256;
/** Depth samples per icon point (two end points and 29 seeded interior ones). */
export const DEPTH_SAMPLES = 31;
/** Most icon points kept; larger sets are thinned by even index steps. */
export const MAX_POINTS = 90_000;
/** Metres per unit in the world: the bounding sphere is 0.28 m across. */
export const UNIT_M = 0.005;

/** Limits of the occupancy tests that prune fragmented or degenerate icons. */
export const ICON_LIMITS = {
  minForeground: 8000,
  minComponentRatio: 0.99,
  aspect: [0.4, 2.5] as [number, number],
  minBoxOccupancy: 0.2,
  circleOccupancy: [0.2, 0.85] as [number, number],
  /** Enclosing-circle radius after scaling, units. */
  radius: [17, 24.5] as [number, number],
};

/** The extruded solid as points, plus what the mesh builder needs. */
export interface IconSolid {
  /** Number of icon points. */
  count: number;
  /** Point coordinates, units, centred on the minimum enclosing circle; Y up. */
  x: Float64Array;
  y: Float64Array;
  /** Half-depth of the solid at each point, units. */
  h: Float64Array;
  /** Per point, {@link DEPTH_SAMPLES} depth fractions in [−1, 1] (z = fraction × h). */
  depth: Float32Array;
  /** Minimum enclosing circle of the scaled points: centre (canvas-unit frame, y down) and radius. */
  circle: { cx: number; cy: number; r: number };
  /** Foreground mask of the 512 × 512 raster. */
  mask: Uint8Array;
}

/** Measures of an icon's raster used by the filters. */
export interface IconStats {
  foreground: number;
  componentRatio: number;
  aspect: number;
  boxOccupancy: number;
  circleOccupancy: number;
  /** Enclosing-circle radius after scaling, units. */
  radius: number;
}

type P = [number, number];

/** The row-wise extreme foreground pixels (enough for hulls and enclosing circles). */
function rowExtremes(mask: Uint8Array, size: number): P[] {
  const out: P[] = [];
  for (let v = 0; v < size; v++) {
    let lo = -1;
    let hi = -1;
    for (let u = 0; u < size; u++) {
      if (mask[v * size + u]) {
        if (lo < 0) lo = u;
        hi = u;
      }
    }
    if (lo >= 0) {
      out.push([lo, v]);
      if (hi !== lo) out.push([hi, v]);
    }
  }
  return out;
}

function largestComponent(mask: Uint8Array, size: number): number {
  const seen = new Uint8Array(mask.length);
  const stack = new Int32Array(mask.length);
  let best = 0;
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || seen[start]) continue;
    let top = 0;
    let n = 0;
    stack[top++] = start;
    seen[start] = 1;
    while (top) {
      const p = stack[--top];
      n++;
      const u = p % size;
      const v = (p - u) / size;
      for (let dv = -1; dv <= 1; dv++) {
        for (let du = -1; du <= 1; du++) {
          const uu = u + du;
          const vv = v + dv;
          if (uu < 0 || vv < 0 || uu >= size || vv >= size) continue;
          const q = vv * size + uu;
          if (mask[q] && !seen[q]) {
            seen[q] = 1;
            stack[top++] = q;
          }
        }
      }
    }
    best = Math.max(best, n);
  }
  return best;
}

/** The occupancy measures of a foreground mask. */
export function iconStats(mask: Uint8Array, size = ICON_CANVAS): IconStats {
  let count = 0;
  let u0 = size;
  let u1 = -1;
  let v0 = size;
  let v1 = -1;
  for (let p = 0; p < mask.length; p++) {
    if (!mask[p]) continue;
    count++;
    const u = p % size;
    const v = (p - u) / size;
    u0 = Math.min(u0, u);
    u1 = Math.max(u1, u);
    v0 = Math.min(v0, v);
    v1 = Math.max(v1, v);
  }
  if (count === 0) return { foreground: 0, componentRatio: 0, aspect: 0, boxOccupancy: 0, circleOccupancy: 0, radius: 0 };
  const w = u1 - u0 + 1;
  const h = v1 - v0 + 1;
  const c = minimumEnclosingCircle(rowExtremes(mask, size));
  const rPixels = Math.max(c.r, 0.5);
  return {
    foreground: count,
    componentRatio: largestComponent(mask, size) / count,
    aspect: w / h,
    boxOccupancy: count / (w * h),
    circleOccupancy: count / (Math.PI * rPixels * rPixels),
    radius: c.r * UNITS_PER_PIXEL * ICON_SCALE,
  };
}

/** Why an icon is rejected by the occupancy tests, or null when it is kept. */
export function iconProblem(s: IconStats): string | null {
  const L = ICON_LIMITS;
  if (s.foreground < L.minForeground) return `only ${s.foreground} foreground pixels (< ${L.minForeground})`;
  if (s.componentRatio < L.minComponentRatio) return `fragmented: the largest piece holds ${(100 * s.componentRatio).toFixed(1)} % of the icon`;
  if (s.aspect < L.aspect[0] || s.aspect > L.aspect[1]) return `aspect ratio ${s.aspect.toFixed(2)} outside [${L.aspect.join(', ')}]`;
  if (s.boxOccupancy < L.minBoxOccupancy) return `fills only ${(100 * s.boxOccupancy).toFixed(0)} % of its bounding box`;
  if (s.circleOccupancy < L.circleOccupancy[0] || s.circleOccupancy > L.circleOccupancy[1]) {
    return `fills ${(100 * s.circleOccupancy).toFixed(0)} % of its enclosing circle (outside ${L.circleOccupancy.map((x) => x * 100).join('–')} %)`;
  }
  if (s.radius < L.radius[0] || s.radius > L.radius[1]) return `enclosing radius ${s.radius.toFixed(1)} units outside [${L.radius.join(', ')}]`;
  return null;
}

/** A 32-bit integer hash (splitmix-style), so depth samples need no random stream. */
function hash32(a: number, b: number, c: number): number {
  let h = (Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x7f4a7c15, 0xc2b2ae35) ^ Math.imul(c + 0x165667b1, 0x27d4eb2f)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d) >>> 0;
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

/** Half-depth of the solid at a point: the chord of the depth sphere, zero outside it. */
export function halfDepth(x: number, y: number): number {
  const d = DEPTH_RADIUS * DEPTH_RADIUS - x * x - y * y;
  return d > 0 ? Math.sqrt(d) : 0;
}

/**
 * The seed's icon processing and extrusion: foreground pixels scanned row by row become
 * points (24·(u−256)/256, 24·(v−256)/256) rounded to 4 decimals, thinned to at most
 * {@link MAX_POINTS} by even index steps, scaled by 1.24 and centred on their minimum
 * enclosing circle; each point gets {@link DEPTH_SAMPLES} depths z = (2q − 1)·h with q = 0 and
 * 1 for the end points and a hash of (task seed, point, sample) for the rest.
 */
export function extrude(icon: IconSpec, sampleSeed: number): IconSolid {
  const mask = foregroundMask(rasterizeIcon(icon));
  const size = ICON_CANVAS;
  const all: number[] = [];
  for (let v = 0; v < size; v++) for (let u = 0; u < size; u++) if (mask[v * size + u]) all.push(v * size + u);
  const n0 = all.length;
  const count = Math.min(n0, MAX_POINTS);
  const pick = (k: number): number => (n0 > MAX_POINTS ? all[Math.floor((k * (n0 - 1)) / (MAX_POINTS - 1))] : all[k]);
  const round4 = (t: number): number => roundTo(t, 4);
  const c = minimumEnclosingCircle(rowExtremes(mask, size));
  // Circle of the scaled points in the canvas-unit frame (y down).
  const cx = round4(UNITS_PER_PIXEL * (c.x - 256)) * ICON_SCALE;
  const cy = round4(UNITS_PER_PIXEL * (c.y - 256)) * ICON_SCALE;
  const x = new Float64Array(count);
  const y = new Float64Array(count);
  const h = new Float64Array(count);
  const depth = new Float32Array(count * DEPTH_SAMPLES);
  for (let k = 0; k < count; k++) {
    const p = pick(k);
    const u = p % size;
    const v = (p - u) / size;
    x[k] = round4(UNITS_PER_PIXEL * (u - 256)) * ICON_SCALE - cx;
    y[k] = -(round4(UNITS_PER_PIXEL * (v - 256)) * ICON_SCALE - cy);
    h[k] = halfDepth(x[k], y[k]);
    const o = k * DEPTH_SAMPLES;
    depth[o] = -1;
    depth[o + 1] = 1;
    for (let j = 2; j < DEPTH_SAMPLES; j++) depth[o + j] = (2 * hash32(sampleSeed, k, j)) / 4294967296 - 1;
  }
  return { count, x, y, h, depth, circle: { cx, cy, r: c.r * UNITS_PER_PIXEL * ICON_SCALE }, mask };
}

/** Canvas pixel of a point in object units (inverse of the point mapping), fractional. */
export function canvasPixel(solid: IconSolid, X: number, Y: number): [number, number] {
  const k = UNITS_PER_PIXEL * ICON_SCALE;
  return [256 + (X + solid.circle.cx) / k, 256 + (-Y + solid.circle.cy) / k];
}

/** Units per canvas pixel after scaling. */
export const UNITS_PER_CANVAS_PIXEL = UNITS_PER_PIXEL * ICON_SCALE;
