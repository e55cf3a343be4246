/**
 * Double-precision distance between convex shapes by GJK, used to verify Rapier's answers near
 * contact.
 *
 * Why: Rapier's (f32) `contactShape` is off by micrometres to tens of micrometres for cylinders
 * and hulls near contact even in the scaled query space (measured against an independent f64
 * oracle, shapes of 3–60 mm at 0–0.5 mm apart: cylinder–cylinder up to 46 µm, hull–cylinder up
 * to 17 µm, cylinder–box up to 5 µm), and it returns null when shapes interpenetrate and its
 * penetration solver gives up. Verdicts that must hold within the 0.1 mm contact tolerance —
 * is this pose free, how far apart are these bodies — are therefore recomputed here whenever
 * Rapier says two shapes are close.
 *
 * Shapes are described by support functions in world coordinates: boxes, cylinders, hulls and
 * triangles exactly; balls as a centre point plus a margin. GJK iterates on the Minkowski
 * difference with the closest point of each simplex found by Voronoi-region tests, until the
 * support point in the search direction improves the bound by less than 1e-12 relative.
 */
import { qrotate } from './math.ts';
import type { Pose, ShapeSpec, Vec3 } from './types.ts';

/**
 * A convex shape placed in the world for {@link convexDistance}: plain data (no closures, so
 * placing one per query stays cheap), read by {@link support}.
 */
export type PlacedConvex =
  | { kind: 'point'; centre: Vec3; margin: number }
  | { kind: 'box'; centre: Vec3; margin: 0; axes: [Vec3, Vec3, Vec3]; half: Vec3 }
  | { kind: 'cylinder'; centre: Vec3; margin: 0; axis: Vec3; radius: number; halfHeight: number }
  | { kind: 'points'; centre: Vec3; margin: 0; points: Vec3[] };

/** Result of {@link convexDistance}. */
export interface ConvexDistance {
  /** Distance between the shapes; 0 when they intersect. */
  distance: number;
  /** Closest points (on A, on B) when apart. */
  pointA?: Vec3;
  pointB?: Vec3;
}

/**
 * The convex shape `spec` (box, ball, cylinder or hull; its own `pose` ignored) placed at `pose`.
 * Returns null for a triangle mesh (use {@link placeTriangle} per triangle).
 */
export function placeConvex(spec: ShapeSpec, pose: Pose): PlacedConvex | null {
  const c = pose.p;
  switch (spec.type) {
    case 'ball':
      return { kind: 'point', centre: c, margin: spec.radius };
    case 'box':
      return { kind: 'box', centre: c, margin: 0, axes: [qrotate(pose.q, [1, 0, 0]), qrotate(pose.q, [0, 1, 0]), qrotate(pose.q, [0, 0, 1])], half: spec.half };
    case 'cylinder':
      return { kind: 'cylinder', centre: c, margin: 0, axis: qrotate(pose.q, [0, 1, 0]), radius: spec.radius, halfHeight: spec.halfHeight };
    case 'hull': {
      const pts = spec.points.map((p) => {
        const r = qrotate(pose.q, p);
        return [c[0] + r[0], c[1] + r[1], c[2] + r[2]] as Vec3;
      });
      return polytope(pts);
    }
    case 'mesh':
      return null;
  }
}

/** A triangle (world vertices) as a convex shape. */
export function placeTriangle(a: Vec3, b: Vec3, c: Vec3): PlacedConvex {
  return polytope([a, b, c]);
}

function polytope(pts: Vec3[]): PlacedConvex {
  const centre: Vec3 = [0, 0, 0];
  for (const p of pts) for (let i = 0; i < 3; i++) centre[i] += p[i] / pts.length;
  return { kind: 'points', centre, margin: 0, points: pts };
}

/** Farthest point of a placed shape's core in direction `d` (need not be unit). */
export function support(s: PlacedConvex, d: Vec3): Vec3 {
  const c = s.centre;
  switch (s.kind) {
    case 'point':
      return c;
    case 'box': {
      const [ax, ay, az] = s.axes;
      const [hx, hy, hz] = s.half;
      const sx = d[0] * ax[0] + d[1] * ax[1] + d[2] * ax[2] >= 0 ? hx : -hx;
      const sy = d[0] * ay[0] + d[1] * ay[1] + d[2] * ay[2] >= 0 ? hy : -hy;
      const sz = d[0] * az[0] + d[1] * az[1] + d[2] * az[2] >= 0 ? hz : -hz;
      return [c[0] + ax[0] * sx + ay[0] * sy + az[0] * sz, c[1] + ax[1] * sx + ay[1] * sy + az[1] * sz, c[2] + ax[2] * sx + ay[2] * sy + az[2] * sz];
    }
    case 'cylinder': {
      const axis = s.axis;
      const along = d[0] * axis[0] + d[1] * axis[1] + d[2] * axis[2];
      const rx = d[0] - axis[0] * along;
      const ry = d[1] - axis[1] * along;
      const rz = d[2] - axis[2] * along;
      const rn = Math.hypot(rx, ry, rz);
      const h = along >= 0 ? s.halfHeight : -s.halfHeight;
      // Along the axis any cap point supports; the residue of `r` then has no direction.
      const k = rn > 1e-9 * Math.hypot(d[0], d[1], d[2]) ? s.radius / rn : 0;
      return [c[0] + axis[0] * h + rx * k, c[1] + axis[1] * h + ry * k, c[2] + axis[2] * h + rz * k];
    }
    case 'points': {
      const pts = s.points;
      let best = pts[0];
      let bestDot = best[0] * d[0] + best[1] * d[1] + best[2] * d[2];
      for (let i = 1; i < pts.length; i++) {
        const p = pts[i];
        const v = p[0] * d[0] + p[1] * d[1] + p[2] * d[2];
        if (v > bestDot) {
          best = p;
          bestDot = v;
        }
      }
      return best;
    }
  }
}

/** A vertex of the Minkowski difference with the support points that made it. */
interface Vertex {
  w: Vec3;
  a: Vec3;
  b: Vec3;
}

const dot = (u: Vec3, v: Vec3): number => u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
const sub = (u: Vec3, v: Vec3): Vec3 => [u[0] - v[0], u[1] - v[1], u[2] - v[2]];

/** Barycentric weights of the closest point to the origin on a simplex, with the supporting sub-simplex. */
function closest(s: Vertex[]): { weights: number[]; keep: Vertex[] } | 'inside' {
  if (s.length === 1) return { weights: [1], keep: s };
  if (s.length === 2) {
    const [p, q] = s;
    const e = sub(q.w, p.w);
    const ee = dot(e, e);
    const t = ee > 0 ? -dot(p.w, e) / ee : 0;
    if (t <= 0) return { weights: [1], keep: [p] };
    if (t >= 1) return { weights: [1], keep: [q] };
    return { weights: [1 - t, t], keep: [p, q] };
  }
  if (s.length === 3) return closestTriangle(s[0], s[1], s[2]);
  // Tetrahedron: the origin is inside when it lies on the inner side of all four faces.
  const [a, b, c, d] = s;
  const faces: Array<[Vertex, Vertex, Vertex, Vertex]> = [
    [a, b, c, d],
    [a, c, d, b],
    [a, d, b, c],
    [b, d, c, a],
  ];
  const e1 = sub(b.w, a.w);
  const e2 = sub(c.w, a.w);
  const e3 = sub(d.w, a.w);
  const volume = e1[0] * (e2[1] * e3[2] - e2[2] * e3[1]) - e1[1] * (e2[0] * e3[2] - e2[2] * e3[0]) + e1[2] * (e2[0] * e3[1] - e2[1] * e3[0]);
  const size = Math.max(dot(e1, e1), dot(e2, e2), dot(e3, e3));
  const flat = Math.abs(volume) <= 1e-12 * size ** 1.5;
  let best: { weights: number[]; keep: Vertex[]; dist: number } | null = null;
  let outside = false;
  for (const [p, q, r, o] of faces) {
    const pq = sub(q.w, p.w);
    const pr = sub(r.w, p.w);
    const n: Vec3 = [pq[1] * pr[2] - pq[2] * pr[1], pq[2] * pr[0] - pq[0] * pr[2], pq[0] * pr[1] - pq[1] * pr[0]];
    const sideOrigin = -dot(n, p.w);
    const sideOpposite = dot(n, sub(o.w, p.w));
    if (flat || sideOrigin * sideOpposite <= 0) {
      outside = true;
      const cand = closestTriangle(p, q, r);
      const v = combine(cand.weights, cand.keep);
      const dist = dot(v, v);
      if (!best || dist < best.dist) best = { ...cand, dist };
    }
  }
  if (!outside) return 'inside';
  return { weights: best!.weights, keep: best!.keep };
}

/** Closest point of triangle abc to the origin by Voronoi regions (Ericson, §5.1.5). */
function closestTriangle(a: Vertex, b: Vertex, c: Vertex): { weights: number[]; keep: Vertex[] } {
  const ab = sub(b.w, a.w);
  const ac = sub(c.w, a.w);
  const d1 = -dot(ab, a.w);
  const d2 = -dot(ac, a.w);
  if (d1 <= 0 && d2 <= 0) return { weights: [1], keep: [a] };
  const d3 = -dot(ab, b.w);
  const d4 = -dot(ac, b.w);
  if (d3 >= 0 && d4 <= d3) return { weights: [1], keep: [b] };
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const v = d1 / (d1 - d3);
    return { weights: [1 - v, v], keep: [a, b] };
  }
  const d5 = -dot(ab, c.w);
  const d6 = -dot(ac, c.w);
  if (d6 >= 0 && d5 <= d6) return { weights: [1], keep: [c] };
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const w = d2 / (d2 - d6);
    return { weights: [1 - w, w], keep: [a, c] };
  }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
    return { weights: [1 - w, w], keep: [b, c] };
  }
  const denom = 1 / (va + vb + vc);
  const v = vb * denom;
  const w = vc * denom;
  return { weights: [1 - v - w, v, w], keep: [a, b, c] };
}

function combine(weights: number[], keep: Vertex[], pick: 'w' | 'a' | 'b' = 'w'): Vec3 {
  const out: Vec3 = [0, 0, 0];
  keep.forEach((v, i) => {
    const p = v[pick];
    out[0] += weights[i] * p[0];
    out[1] += weights[i] * p[1];
    out[2] += weights[i] * p[2];
  });
  return out;
}

/** The vertex of A − B farthest in direction −d. */
function vertex(A: PlacedConvex, B: PlacedConvex, d: Vec3): Vertex {
  const a = support(A, [-d[0], -d[1], -d[2]]);
  const b = support(B, d);
  return { w: sub(a, b), a, b };
}

/** Distance between two convex shapes (0 if they intersect), with the closest points when apart. */
export function convexDistance(A: PlacedConvex, B: PlacedConvex): ConvexDistance {

  let dir = sub(B.centre, A.centre);
  if (dir[0] === 0 && dir[1] === 0 && dir[2] === 0) dir = [1, 0, 0];
  let simplex: Vertex[] = [vertex(A, B, dir)];
  let weights = [1];
  let v = simplex[0].w;
  const margin = A.margin + B.margin;
  for (let iter = 0; iter < 200; iter++) {
    const vv = dot(v, v);
    if (vv <= 1e-28) return { distance: 0 };
    const next = vertex(A, B, v);
    // Converged: the support point in −v tightens the bound by a negligible amount.
    if (vv - dot(v, next.w) <= 1e-12 * vv || simplex.some((s) => s.w[0] === next.w[0] && s.w[1] === next.w[1] && s.w[2] === next.w[2])) break;
    const r = closest([...simplex, next]);
    if (r === 'inside') return { distance: 0 };
    const nv = combine(r.weights, r.keep);
    if (dot(nv, nv) >= vv) break; // no progress left in f64
    simplex = r.keep;
    weights = r.weights;
    v = nv;
  }
  const core = Math.sqrt(dot(v, v));
  if (core <= margin) return { distance: 0 };
  const pa = combine(weights, simplex, 'a');
  const pb = combine(weights, simplex, 'b');
  // Move the closest points out to the balls' surfaces.
  const u: Vec3 = [(pb[0] - pa[0]) / core, (pb[1] - pa[1]) / core, (pb[2] - pa[2]) / core];
  return {
    distance: core - margin,
    pointA: [pa[0] + u[0] * A.margin, pa[1] + u[1] * A.margin, pa[2] + u[2] * A.margin],
    pointB: [pb[0] - u[0] * B.margin, pb[1] - u[1] * B.margin, pb[2] - u[2] * B.margin],
  };
}
