/**
 * The heart outline of M5: the classic parametric heart (x = 16 sin³t, y = 13 cos t − 5 cos 2t −
 * 2 cos 3t − cos 4t), scaled to a given width and height, made exactly the union of two convex
 * halves (the convex hull of each side of its symmetry axis) so that the part's colliders and the
 * outline its opening is cut from are the same shape. Also the outline grown by a clearance
 * (mitred offset) and the longest thick band an outline holds (for the edge-on check).
 */
import type { Point2 } from '../m1-chiral-peg/polyomino.ts';

function r9(x: number): number {
  return Math.round(x * 1e9) / 1e9 + 0;
}

/** 2D convex hull (monotone chain), counter-clockwise, no repeated point. */
export function convexHull(points: Point2[]): Point2[] {
  const p = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o: Point2, a: Point2, b: Point2): number => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: Point2[] = [];
  for (const q of p) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], q) <= 1e-15) lower.pop();
    lower.push(q);
  }
  const upper: Point2[] = [];
  for (const q of [...p].reverse()) {
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], q) <= 1e-15) upper.pop();
    upper.push(q);
  }
  return lower.slice(0, -1).concat(upper.slice(0, -1));
}

/** The heart: its right half's convex hull, and the whole outline (counter-clockwise), centred on its bounding box. */
export interface Heart {
  /** The right half (x ≥ 0) as a convex polygon, counter-clockwise. */
  right: Point2[];
  /** The whole outline: the right hull's outer chain and its mirror image, counter-clockwise. */
  outline: Point2[];
}

/** The heart of the given width and height (metres), its bounding box centred on the origin. */
export function heart(width: number, height: number): Heart {
  const n = 48;
  const raw: Point2[] = [];
  for (let k = 0; k < n; k++) {
    const t = (2 * Math.PI * k) / n;
    raw.push([16 * Math.sin(t) ** 3, 13 * Math.cos(t) - 5 * Math.cos(2 * t) - 2 * Math.cos(3 * t) - Math.cos(4 * t)]);
  }
  const ys = raw.map((p) => p[1]);
  const y0 = Math.min(...ys);
  const y1 = Math.max(...ys);
  const sx = width / 32;
  const sy = height / (y1 - y0);
  const yc = (y0 + y1) / 2;
  const pts = raw.map((p): Point2 => [r9(p[0] * sx), r9((p[1] - yc) * sy)]);
  // The notch (top of the axis) and the tip (bottom) are t = 0 and t = π.
  const notch = pts[0];
  const tip = pts[n / 2];
  const right = convexHull([notch, tip, ...pts.filter((p) => p[0] > 0)]);
  // The hull runs counter-clockwise; its outer chain goes from the tip round to the notch.
  const ti = right.findIndex((p) => p[0] === tip[0] && p[1] === tip[1]);
  const chain: Point2[] = [];
  for (let k = 0; ; k++) {
    const p = right[(ti + k) % right.length];
    chain.push(p);
    if (p[0] === notch[0] && p[1] === notch[1]) break;
  }
  const mirrored = chain
    .slice(1, -1)
    .reverse()
    .map((p): Point2 => [r9(-p[0]), p[1]]);
  return { right, outline: [...chain, ...mirrored] };
}

/**
 * A counter-clockwise polygon grown outward by `d`: each corner moves to where its two edges,
 * each moved out by `d`, meet (mitred), limited to 4·d at sharp corners.
 */
export function growPolygon(poly: Point2[], d: number): Point2[] {
  const n = poly.length;
  const normal = (a: Point2, b: Point2): Point2 => {
    const dx = b[0] - a[0];
    const dy = b[1] - a[1];
    const l = Math.hypot(dx, dy);
    return [dy / l, -dx / l];
  };
  return poly.map((p, i) => {
    const n1 = normal(poly[(i + n - 1) % n], p);
    const n2 = normal(p, poly[(i + 1) % n]);
    const s: Point2 = [n1[0] + n2[0], n1[1] + n2[1]];
    const q = s[0] * s[0] + s[1] * s[1];
    let k = q > 1e-12 ? (2 * d) / q : d;
    k = Math.min(k * Math.sqrt(q), 4 * d) / Math.max(Math.sqrt(q), 1e-12);
    return [r9(p[0] + s[0] * k), r9(p[1] + s[1] * k)];
  });
}

/**
 * The heart grown by `d`: the union of its two convex halves each grown by `d` (mitred), so the
 * narrow notch between the lobes fills in as it should (growing the outline itself would fold
 * the notch's two sides across each other). Counter-clockwise, from the bottom of the axis.
 */
export function grownHeart(h: Heart, d: number): Point2[] {
  const grown = growPolygon(h.right, d);
  // Clip the grown right half to x ≥ 0 (Sutherland–Hodgman against one half-plane).
  const clipped: Point2[] = [];
  for (let i = 0; i < grown.length; i++) {
    const a = grown[i];
    const b = grown[(i + 1) % grown.length];
    if (a[0] >= 0) clipped.push(a);
    if ((a[0] >= 0) !== (b[0] >= 0)) {
      const t = a[0] / (a[0] - b[0]);
      clipped.push([0, r9(a[1] + t * (b[1] - a[1]))]);
    }
  }
  // Its two points on the axis: start the chain at the lower one, counter-clockwise.
  const onAxis = clipped.map((p, i) => [p, i] as const).filter(([p]) => p[0] === 0);
  const lowest = onAxis.reduce((m, c) => (c[0][1] < m[0][1] ? c : m))[1];
  const chain: Point2[] = [];
  for (let k = 0; k < clipped.length; k++) chain.push(clipped[(lowest + k) % clipped.length]);
  // The chain runs bottom axis point → round the right → top axis point; mirror the rest.
  const top = chain.findIndex((p, i) => i > 0 && p[0] === 0);
  const right = chain.slice(0, top + 1);
  const left = right
    .slice(1, -1)
    .reverse()
    .map((p): Point2 => [r9(-p[0]), p[1]]);
  return [...right, ...left];
}

/** Whether a point is inside a polygon (even–odd rule). */
export function inside(poly: Point2[], x: number, y: number): boolean {
  let c = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i];
    const [xj, yj] = poly[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

/** Extent of a polygon along the unit direction (cos a, sin a). */
export function extentAlong(poly: Point2[], a: number): number {
  const c = Math.cos(a);
  const s = Math.sin(a);
  const v = poly.map(([x, y]) => x * c + y * s);
  return Math.max(...v) - Math.min(...v);
}

/** The x-intervals where the horizontal line at height y is inside a polygon, sorted. */
function lineIntervals(poly: Point2[], y: number): Array<[number, number]> {
  const xs: number[] = [];
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i];
    const [xj, yj] = poly[j];
    if (yi > y !== yj > y) xs.push(xi + ((y - yi) * (xj - xi)) / (yj - yi));
  }
  xs.sort((a, b) => a - b);
  const out: Array<[number, number]> = [];
  for (let k = 0; k + 1 < xs.length; k += 2) out.push([xs[k], xs[k + 1]]);
  return out;
}

function intersect(a: Array<[number, number]>, b: Array<[number, number]>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const [a0, a1] of a) for (const [b0, b1] of b) if (Math.min(a1, b1) > Math.max(a0, b0)) out.push([Math.max(a0, b0), Math.min(a1, b1)]);
  return out;
}

/**
 * The longest straight bar of the given thickness that fits inside the polygon, over bar
 * directions every 3° and positions every half millimetre across (a sampled search; along a bar
 * the fit is exact on five lines through it): what an edge-on plate that thick could pass through.
 */
export function longestBar(poly: Point2[], thickness: number): number {
  let best = 0;
  for (let deg = 0; deg < 180; deg += 3) {
    const a = (deg * Math.PI) / 180;
    const c = Math.cos(a);
    const s = Math.sin(a);
    // Rotate the polygon by −a so bars run along x.
    const rot = poly.map(([x, y]): Point2 => [x * c + y * s, -x * s + y * c]);
    const ys = rot.map((p) => p[1]);
    const top = Math.max(...ys);
    for (let yb = Math.min(...ys); yb + thickness <= top; yb += 0.0005) {
      let common = lineIntervals(rot, yb);
      for (const f of [0.25, 0.5, 0.75, 1]) common = intersect(common, lineIntervals(rot, yb + f * thickness));
      for (const [x0, x1] of common) best = Math.max(best, x1 - x0);
    }
  }
  return best;
}
