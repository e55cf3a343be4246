/**
 * Double-precision distance and penetration depth between convex shapes: GJK for the distance
 * (with a proven lower bound and its separating plane), EPA for the depth of an overlap.
 *
 * Why our own: Rapier's (f32) `contactShape` is off by micrometres to tens of micrometres for
 * cylinders and hulls near contact even in the scaled query space (measured against an
 * independent f64 oracle, shapes of 3–60 mm at 0–0.5 mm apart: cylinder–cylinder up to 46 µm,
 * hull–cylinder up to 17 µm, cylinder–box up to 5 µm), in rare grazes by more than 0.15 mm
 * (a pair overlapping by 0.2–26 µm reported apart), its penetration depths for cylinders are off
 * by more than 0.1 mm, and it returns null when shapes interpenetrate and its penetration solver
 * gives up. Verdicts that must hold within the 0.1 mm contact tolerance — is this pose free, how
 * far apart are these bodies, how deep is this overlap — are therefore computed here, and the
 * same code is faster than a call into Rapier's WASM for every pair but cylinders.
 *
 * Shapes are described by support functions in world coordinates: boxes, cylinders, hulls and
 * triangles exactly; balls as a centre point plus a margin.
 *
 * - **GJK** iterates on the Minkowski difference `D = A − B`, the closest point of each simplex
 *   found by Voronoi-region tests. Every iteration brackets the core distance: `|v|` (the
 *   simplex's closest point) from above, `v̂·w` (w the support point of `D` in `−v`) from below.
 *   The lower bound is a certificate — the plane of normal `v̂` at that offset separates the
 *   shapes — so a caller advancing a shape along a line may step up to where that plane is
 *   reached, whatever accuracy the distance was computed to. The iteration stops when the bounds
 *   agree to the requested accuracy, when the lower bound exceeds the caller's reach, or when
 *   the simplex encloses the origin (overlap).
 * - **EPA** grows a polytope inside `D` from GJK's final simplex towards the boundary point
 *   nearest the origin: the nearest face's distance bounds the depth from below, the support
 *   value of `D` along that face's normal from above; it stops when they agree to the accuracy.
 */
import type { Pose, ShapeSpec, Vec3 } from './types.ts';
import { qrotate } from './math.ts';

/**
 * A convex shape placed in the world: plain data (no closures, so placing one per query stays
 * cheap), read by {@link support}.
 */
export type PlacedConvex =
  | { kind: 'point'; centre: Vec3; margin: number }
  | { kind: 'box'; centre: Vec3; margin: 0; axes: [Vec3, Vec3, Vec3]; half: Vec3 }
  | { kind: 'cylinder'; centre: Vec3; margin: 0; axis: Vec3; radius: number; halfHeight: number }
  | { kind: 'points'; centre: Vec3; margin: number; points: Vec3[] };

/**
 * The convex shape `spec` (box, ball, cylinder, capsule or hull; its own `pose` ignored) placed at
 * `pose`. A capsule is its segment as a two-point core with its radius as the margin, as a ball is
 * its centre with its radius.
 * Returns null for a triangle mesh (use {@link placeTriangle} per triangle).
 */
export function placeConvex(spec: ShapeSpec, pose: Pose): PlacedConvex | null {
  const c = pose.p;
  switch (spec.type) {
    case 'ball':
      return { kind: 'point', centre: c, margin: spec.radius };
    case 'box':
      return { kind: 'box', centre: c, margin: 0, axes: [qrotate(pose.q, [1, 0, 0]), qrotate(pose.q, [0, 1, 0]), qrotate(pose.q, [0, 0, 1])], half: spec.half };
    case 'cylinder': {
      // A unit axis even when the pose's quaternion is not quite unit (f32 poses read back from
      // Rapier): the support's radial part is measured against it, and a residue of 1e-8 along
      // the axis would otherwise pass for a radial direction and move the support by a radius.
      const axis = qrotate(pose.q, [0, 1, 0]);
      const n = Math.hypot(axis[0], axis[1], axis[2]);
      return { kind: 'cylinder', centre: c, margin: 0, axis: [axis[0] / n, axis[1] / n, axis[2] / n], radius: spec.radius, halfHeight: spec.halfHeight };
    }
    case 'capsule': {
      const a = qrotate(pose.q, [0, spec.halfHeight, 0]);
      return { kind: 'points', centre: c, margin: spec.radius, points: [[c[0] + a[0], c[1] + a[1], c[2] + a[2]], [c[0] - a[0], c[1] - a[1], c[2] - a[2]]] };
    }
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
const cross = (u: Vec3, v: Vec3): Vec3 => [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];

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
  for (let i = 0; i < keep.length; i++) {
    const p = keep[i][pick];
    out[0] += weights[i] * p[0];
    out[1] += weights[i] * p[1];
    out[2] += weights[i] * p[2];
  }
  return out;
}

/** The vertex of A − B farthest in direction −d (the minimiser of d·x over A − B). */
function vertex(A: PlacedConvex, B: PlacedConvex, d: Vec3): Vertex {
  const a = support(A, [-d[0], -d[1], -d[2]]);
  const b = support(B, d);
  return { w: sub(a, b), a, b };
}

/** What {@link convexQuery} should compute. */
export interface ConvexQueryOptions {
  /**
   * Farthest distance of interest: as soon as a lower bound exceeds it the answer is `beyond`
   * (Infinity: always bracket the distance).
   */
  reach: number;
  /** Absolute accuracy: the distance (or depth) is bracketed to within this much. */
  accuracy: number;
  /** Relative accuracy of a separation, as a fraction of the distance (0: absolute only). */
  relative?: number;
  /** Compute the penetration depth of an overlap (EPA); otherwise an overlap is only reported. */
  depth?: boolean;
  /** A unit direction from B towards A to start from (the normal of a nearby earlier answer). */
  hint?: Vec3;
}

/** Answer of {@link convexQuery}. Distances include the balls' margins. */
export interface ConvexAnswer {
  /**
   * - `beyond`: farther apart than `reach` (proven; `lower` > reach).
   * - `apart`: `lower` ≤ distance ≤ `upper`, bracketed to the accuracy; `lower` may be ≤ 0 when
   *   the shapes touch within the accuracy (treat as contact).
   * - `overlap`: the shapes intersect; with `depth` requested, the penetration depth lies in
   *   [`-upper`, `-lower`] (both ≤ 0; the depth estimate is `-lower`); without, `lower` is
   *   −Infinity and `upper` (≤ 0) the certain part.
   */
  status: 'beyond' | 'apart' | 'overlap';
  lower: number;
  upper: number;
  /**
   * Unit normal from B towards A: apart, the normal of the plane certifying `lower` (A may move
   * by `lower` against it before touching); overlapping, the direction in which moving A by
   * the depth separates them.
   */
  normal?: Vec3;
  /** Closest points (apart) or deepest points (overlap), on A and on B. */
  pointA?: Vec3;
  pointB?: Vec3;
}

const MAX_GJK_ITERATIONS = 128;
const MAX_EPA_ITERATIONS = 128;

/**
 * Distance, or overlap and depth, of two placed convex shapes; see the module comment. Every
 * bound is rigorous up to f64 rounding of the support functions (about 1e-16 of the sizes).
 */
export function convexQuery(A: PlacedConvex, B: PlacedConvex, opts: ConvexQueryOptions): ConvexAnswer {
  const margin = A.margin + B.margin;
  const relative = opts.relative ?? 0;
  // Start from the hinted direction (its minimiser over D is nearly the closest point) or the
  // centre difference.
  let dir: Vec3 = opts.hint ? [opts.hint[0], opts.hint[1], opts.hint[2]] : sub(A.centre, B.centre);
  if (dir[0] === 0 && dir[1] === 0 && dir[2] === 0) dir = [1, 0, 0];
  let simplex: Vertex[] = [vertex(A, B, dir)];
  let weights = [1];
  let v = simplex[0].w;
  /** Best lower bound on the core distance and its plane normal (unit, from B towards A). */
  let lower = -Infinity;
  let lowerNormal: Vec3 | undefined;
  // A bound worth using in the first test: the hinted plane.
  {
    const hl = Math.hypot(dir[0], dir[1], dir[2]);
    const n: Vec3 = [dir[0] / hl, dir[1] / hl, dir[2] / hl];
    const lb = dot(n, v);
    if (lb > lower) [lower, lowerNormal] = [lb, n];
  }
  let inside = false;
  for (let iter = 0; iter < MAX_GJK_ITERATIONS; iter++) {
    const vv = dot(v, v);
    const upperCore = Math.sqrt(vv);
    if (upperCore <= 1e-6 * opts.accuracy) {
      inside = true;
      break;
    }
    const next = vertex(A, B, v);
    const lb = dot(v, next.w) / upperCore;
    if (lb > lower) [lower, lowerNormal] = [lb, [v[0] / upperCore, v[1] / upperCore, v[2] / upperCore]];
    if (lower - margin > opts.reach) return { status: 'beyond', lower: lower - margin, upper: upperCore - margin, normal: lowerNormal };
    // Converged: the bounds agree (absolutely, or relative to the distance).
    if (upperCore - lower <= Math.max(opts.accuracy, relative * (upperCore - margin))) break;
    if (simplex.some((s) => s.w[0] === next.w[0] && s.w[1] === next.w[1] && s.w[2] === next.w[2])) break;
    const r = closest([...simplex, next]);
    if (r === 'inside') {
      simplex = [...simplex, next];
      inside = true;
      break;
    }
    const nv = combine(r.weights, r.keep);
    if (dot(nv, nv) >= vv) break; // no progress left in f64
    simplex = r.keep;
    weights = r.weights;
    v = nv;
  }
  if (!inside) {
    const upperCore = Math.sqrt(dot(v, v));
    const pa = combine(weights, simplex, 'a');
    const pb = combine(weights, simplex, 'b');
    // Move the closest points out to the balls' surfaces.
    const u: Vec3 = [(pb[0] - pa[0]) / upperCore, (pb[1] - pa[1]) / upperCore, (pb[2] - pa[2]) / upperCore];
    const pointA: Vec3 = [pa[0] + u[0] * A.margin, pa[1] + u[1] * A.margin, pa[2] + u[2] * A.margin];
    const pointB: Vec3 = [pb[0] - u[0] * B.margin, pb[1] - u[1] * B.margin, pb[2] - u[2] * B.margin];
    // Apart (or touching within the accuracy); or cores apart but within the balls' margins (a
    // ball reaching in), where the depth is the margin less the core distance, bracketed alike.
    const status = upperCore - margin > 0 ? 'apart' : 'overlap';
    return { status, lower: lower - margin, upper: upperCore - margin, normal: lowerNormal, pointA, pointB };
  }
  // Overlapping cores: the signed distance is at most −margin; how deep needs EPA.
  if (!opts.depth) {
    // Some point of the overlap: the simplex's support points, averaged.
    const even = simplex.map(() => 1 / simplex.length);
    return { status: 'overlap', lower: -Infinity, upper: -margin, pointA: combine(even, simplex, 'a'), pointB: combine(even, simplex, 'b') };
  }
  const pen = penetration(A, B, simplex, opts.accuracy);
  // Depth of the cores plus the margins.
  return { status: 'overlap', lower: -(pen.upper + margin), upper: -(pen.lower + margin), normal: pen.normal, pointA: pen.pointA, pointB: pen.pointB };
}

interface Face {
  i: number;
  j: number;
  k: number;
  n: Vec3;
  d: number;
}

/**
 * Penetration depth of the cores (D = A − B containing the origin) by EPA from GJK's final
 * simplex; see the module comment. `lower`/`upper` bracket the depth.
 */
function penetration(A: PlacedConvex, B: PlacedConvex, simplex: Vertex[], accuracy: number): { lower: number; upper: number; normal: Vec3; pointA: Vec3; pointB: Vec3 } {
  /** The support vertex of D in direction u (maximiser of u·x). */
  const sup = (u: Vec3): Vertex => vertex(A, B, [-u[0], -u[1], -u[2]]);
  const tiny = 1e-9 * accuracy;
  const touching = (u: Vec3, w: Vertex): { lower: number; upper: number; normal: Vec3; pointA: Vec3; pointB: Vec3 } => ({
    lower: 0,
    upper: Math.max(0, dot(u, w.w)),
    normal: [-u[0], -u[1], -u[2]],
    pointA: w.a,
    pointB: w.b,
  });
  const V: Vertex[] = simplex.slice();
  // Blow a point, segment or triangle through the origin up to a tetrahedron. If D does not
  // extend past the origin in a direction tried, the origin is on its boundary: depth 0.
  if (V.length === 1) {
    const u = unit(sub(A.centre, B.centre), [1, 0, 0]);
    return touching([-u[0], -u[1], -u[2]], V[0]);
  }
  if (V.length === 2) {
    const e = sub(V[1].w, V[0].w);
    const ref: Vec3 = Math.abs(e[0]) < Math.abs(e[1]) ? (Math.abs(e[0]) < Math.abs(e[2]) ? [1, 0, 0] : [0, 0, 1]) : Math.abs(e[1]) < Math.abs(e[2]) ? [0, 1, 0] : [0, 0, 1];
    const u = unit(cross(e, ref), [1, 0, 0]);
    const w = sup(u);
    if (dot(u, w.w) <= tiny) return touching(u, w);
    V.push(w);
  }
  if (V.length === 3) {
    const n = unit(cross(sub(V[1].w, V[0].w), sub(V[2].w, V[0].w)), [1, 0, 0]);
    const w = sup(n);
    if (dot(n, w.w) <= tiny) return touching(n, w);
    const m: Vec3 = [-n[0], -n[1], -n[2]];
    const w2 = sup(m);
    if (dot(m, w2.w) <= tiny) return touching(m, w2);
    V.push(w);
  }
  const interior: Vec3 = [0, 0, 0];
  for (const p of V) for (let c = 0; c < 3; c++) interior[c] += p.w[c] / V.length;
  const faces: Face[] = [];
  const makeFace = (i: number, j: number, k: number): Face => {
    let n = cross(sub(V[j].w, V[i].w), sub(V[k].w, V[i].w));
    const len = Math.hypot(n[0], n[1], n[2]);
    if (len > 0) n = [n[0] / len, n[1] / len, n[2] / len];
    if (dot(n, sub(V[i].w, interior)) < 0) {
      n = [-n[0], -n[1], -n[2]];
      [j, k] = [k, j];
    }
    // A degenerate sliver has no normal to expand along; it is never the nearest face.
    return { i, j, k, n, d: len > 0 ? dot(n, V[i].w) : Infinity };
  };
  faces.push(makeFace(0, 1, 2), makeFace(0, 1, 3), makeFace(0, 2, 3), makeFace(1, 2, 3));
  let upper = Infinity;
  let upperNormal: Vec3 = faces[0].n;
  let nearest = faces[0];
  for (let iter = 0; iter < MAX_EPA_ITERATIONS; iter++) {
    nearest = faces[0];
    for (const f of faces) if (f.d < nearest.d) nearest = f;
    if (nearest.d === Infinity) break;
    const n = nearest.n;
    const w = sup(n);
    const h = dot(n, w.w);
    if (h < upper) [upper, upperNormal] = [h, n];
    if (h - nearest.d <= accuracy) break;
    // Replace the faces that see w by a fan from w to their horizon.
    const horizon = new Map<string, [number, number]>();
    const kept: Face[] = [];
    for (const f of faces) {
      if (dot(f.n, sub(w.w, V[f.i].w)) > tiny) {
        for (const [a, b] of [[f.i, f.j], [f.j, f.k], [f.k, f.i]] as const) {
          const back = `${b},${a}`;
          if (horizon.has(back)) horizon.delete(back);
          else horizon.set(`${a},${b}`, [a, b]);
        }
      } else kept.push(f);
    }
    if (kept.length === faces.length) break; // w sees nothing: no progress left in f64
    const wi = V.length;
    V.push(w);
    faces.length = 0;
    faces.push(...kept);
    for (const [a, b] of horizon.values()) faces.push(makeFace(a, b, wi));
  }
  const lower = Math.max(0, Math.min(nearest.d, upper));
  // Deepest points: the origin's projection on the nearest face, in barycentric coordinates.
  const [p, q, r] = [V[nearest.i], V[nearest.j], V[nearest.k]];
  const wts = barycentric(p.w, q.w, r.w, [nearest.n[0] * nearest.d, nearest.n[1] * nearest.d, nearest.n[2] * nearest.d]);
  const pointA = combine(wts, [p, q, r], 'a');
  const pointB = combine(wts, [p, q, r], 'b');
  return { lower, upper: Math.max(lower, upper), normal: [-upperNormal[0], -upperNormal[1], -upperNormal[2]], pointA, pointB };
}

function unit(v: Vec3, fallback: Vec3): Vec3 {
  const l = Math.hypot(v[0], v[1], v[2]);
  return l > 0 ? [v[0] / l, v[1] / l, v[2] / l] : fallback;
}

/** Barycentric weights of point x (in the plane of abc), clamped to the triangle. */
function barycentric(a: Vec3, b: Vec3, c: Vec3, x: Vec3): number[] {
  const v0 = sub(b, a);
  const v1 = sub(c, a);
  const v2 = sub(x, a);
  const d00 = dot(v0, v0);
  const d01 = dot(v0, v1);
  const d11 = dot(v1, v1);
  const d20 = dot(v2, v0);
  const d21 = dot(v2, v1);
  const den = d00 * d11 - d01 * d01;
  if (!(den > 0)) return [1, 0, 0];
  let v = (d11 * d20 - d01 * d21) / den;
  let w = (d00 * d21 - d01 * d20) / den;
  v = Math.min(1, Math.max(0, v));
  w = Math.min(1 - v, Math.max(0, w));
  return [1 - v - w, v, w];
}

/** Result of {@link convexDistance}. */
export interface ConvexDistance {
  /** Distance between the shapes; 0 when they intersect. */
  distance: number;
  /** Closest points (on A, on B) when apart. */
  pointA?: Vec3;
  pointB?: Vec3;
}

/** Distance between two convex shapes (0 if they intersect) to about 1e-12 of their size, with the closest points when apart. */
export function convexDistance(A: PlacedConvex, B: PlacedConvex): ConvexDistance {
  const r = convexQuery(A, B, { reach: Infinity, accuracy: 0, relative: 1e-12 });
  if (r.status !== 'apart' || r.upper <= 0) return { distance: 0 };
  return { distance: r.upper, pointA: r.pointA, pointB: r.pointB };
}
