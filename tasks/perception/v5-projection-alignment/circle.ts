/**
 * The minimum enclosing circle of a planar point set (used to centre icons, as the rotation
 * seed does, and to size them when they are drawn).
 */

type P = [number, number];

function cross(o: P, a: P, b: P): number {
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

/** Convex hull (monotone chain) of points given in lexicographic order. */
function hull(sorted: P[]): P[] {
  if (sorted.length < 3) return sorted.slice();
  const lower: P[] = [];
  for (const p of sorted) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: P[] = [];
  for (let i = sorted.length - 1; i >= 0; i--) {
    const p = sorted[i];
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], p) <= 0) upper.pop();
    upper.push(p);
  }
  return lower.slice(0, -1).concat(upper.slice(0, -1));
}

/** A circle: centre and radius. */
export interface Circle {
  x: number;
  y: number;
  r: number;
}

function circleOf2(a: P, b: P): Circle {
  const x = (a[0] + b[0]) / 2;
  const y = (a[1] + b[1]) / 2;
  return { x, y, r: Math.sqrt((a[0] - x) ** 2 + (a[1] - y) ** 2) };
}

function circleOf3(a: P, b: P, c: P): Circle {
  const d = 2 * (a[0] * (b[1] - c[1]) + b[0] * (c[1] - a[1]) + c[0] * (a[1] - b[1]));
  if (Math.abs(d) < 1e-12) {
    // Collinear: the widest pair spans the circle.
    const pairs = [circleOf2(a, b), circleOf2(a, c), circleOf2(b, c)];
    return pairs.reduce((m, q) => (q.r > m.r ? q : m));
  }
  const a2 = a[0] * a[0] + a[1] * a[1];
  const b2 = b[0] * b[0] + b[1] * b[1];
  const c2 = c[0] * c[0] + c[1] * c[1];
  const x = (a2 * (b[1] - c[1]) + b2 * (c[1] - a[1]) + c2 * (a[1] - b[1])) / d;
  const y = (a2 * (c[0] - b[0]) + b2 * (a[0] - c[0]) + c2 * (b[0] - a[0])) / d;
  return { x, y, r: Math.sqrt((a[0] - x) ** 2 + (a[1] - y) ** 2) };
}

function inside(c: Circle, p: P): boolean {
  return (p[0] - c.x) ** 2 + (p[1] - c.y) ** 2 <= c.r * c.r * (1 + 1e-12) + 1e-12;
}

/** Minimum enclosing circle (incremental Welzl; exact, deterministic for a fixed point order). */
export function minimumEnclosingCircle(points: P[]): Circle {
  const pts = hull(points.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]));
  if (pts.length === 0) return { x: 0, y: 0, r: 0 };
  let c: Circle = { x: pts[0][0], y: pts[0][1], r: 0 };
  for (let i = 1; i < pts.length; i++) {
    if (inside(c, pts[i])) continue;
    c = { x: pts[i][0], y: pts[i][1], r: 0 };
    for (let j = 0; j < i; j++) {
      if (inside(c, pts[j])) continue;
      c = circleOf2(pts[i], pts[j]);
      for (let k = 0; k < j; k++) if (!inside(c, pts[k])) c = circleOf3(pts[i], pts[j], pts[k]);
    }
  }
  return c;
}

