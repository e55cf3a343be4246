/**
 * An independent geometric oracle for judging the world's swept checks and distance verdicts.
 *
 * Everything is plain f64 JavaScript written from the textbook algorithms, sharing no code with
 * `sim/` or Rapier (only the `ShapeSpec`/`Pose` data types and the body-pose convention):
 *
 * - **Distance** between convex pieces by GJK on support functions (Gilbert–Johnson–Keerthi),
 *   with the closest point of each simplex found by Voronoi-region tests (Ericson, *Real-Time
 *   Collision Detection*, §5.1). Balls are a point core plus a margin; cylinders, boxes, hulls
 *   and mesh triangles are supported exactly.
 * - **Penetration depth** of an overlapping pair as the smallest support-function value of the
 *   Minkowski difference `A − B` over unit directions: exact over the separating-axis candidates
 *   for polytope pairs (face normals and edge-edge cross products), refined by a local search on
 *   the sphere where a cylinder's core takes part (accurate to a few micrometres there, which
 *   is all the 0.1 mm verdicts need; exact when a ball's centre is outside the other core).
 * - **First contact along a path** by conservative advancement on oracle distances: from a pose
 *   at distance `d`, no point of the moving body can travel more than `d` before the parameter
 *   grows by `d / speed`, `speed` bounding the travel of any point per unit of parameter.
 *
 * A body is a set of pieces; a compound or a mesh is the union of its pieces (a triangle mesh is
 * its surface: a body wholly inside a closed mesh touches no triangle, as in Rapier).
 */
import type { Pose, ShapeSpec, Vec3 } from '../../sim/types.ts';

/** One convex piece in world coordinates: a support function plus a round margin. */
export interface Piece {
  /** Support point of the core in direction `d` (need not be unit). */
  support(d: Vec3): Vec3;
  /** A point inside the core (start direction). */
  centre: Vec3;
  /** Radius added around the core (balls); 0 otherwise. */
  margin: number;
  /** Vertices of a polytope core (box, hull, triangle), for exact separating-axis depth; null if curved. */
  vertices: Vec3[] | null;
  /** Face normals and edge directions of a polytope core. */
  faces: Vec3[];
  edges: Vec3[];
}

const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: Vec3): number => Math.hypot(a[0], a[1], a[2]);

/** Rotates `v` by the unit quaternion `q = [x, y, z, w]` (written out, not imported). */
export function rotate(q: readonly number[], v: Vec3): Vec3 {
  const [x, y, z, w] = q;
  // t = 2 q.xyz × v ; v' = v + w t + q.xyz × t
  const tx = 2 * (y * v[2] - z * v[1]);
  const ty = 2 * (z * v[0] - x * v[2]);
  const tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
}

function conj(q: readonly number[]): number[] {
  return [-q[0], -q[1], -q[2], q[3]];
}

function mulq(a: readonly number[], b: readonly number[]): number[] {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}

/** Face normals and edge directions of hulls in their own frame, by point array. */
const hullCache = new WeakMap<Vec3[], { faces: Vec3[]; edges: Vec3[] }>();

/** The world pieces of a body with `shapes` at `pose`. */
export function pieces(shapes: ShapeSpec[], pose: Pose): Piece[] {
  const out: Piece[] = [];
  for (const s of shapes) {
    const lp = s.pose ?? { p: [0, 0, 0] as Vec3, q: [0, 0, 0, 1] };
    const q = mulq(pose.q, lp.q);
    const c = add(pose.p, rotate(pose.q, lp.p));
    const toWorld = (v: Vec3): Vec3 => add(c, rotate(q, v));
    const axes: Vec3[] = [rotate(q, [1, 0, 0]), rotate(q, [0, 1, 0]), rotate(q, [0, 0, 1])];
    switch (s.type) {
      case 'ball':
        out.push({ support: () => c, centre: c, margin: s.radius, vertices: null, faces: [], edges: [] });
        break;
      case 'capsule': {
        // A segment core (its two end points) with the radius as margin, like a ball's point.
        const top = toWorld([0, s.halfHeight, 0]);
        const bottom = toWorld([0, -s.halfHeight, 0]);
        const axis = scale(axes[1], 1 / norm(axes[1]));
        out.push({ support: (d) => (dot(d, axis) >= 0 ? top : bottom), centre: c, margin: s.radius, vertices: [top, bottom], faces: [], edges: [axis] });
        break;
      }
      case 'box': {
        const h = s.half;
        const verts: Vec3[] = [];
        for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) verts.push(toWorld([sx * h[0], sy * h[1], sz * h[2]]));
        out.push({
          support: (d) => {
            let p = c;
            for (let i = 0; i < 3; i++) p = add(p, scale(axes[i], (dot(d, axes[i]) >= 0 ? 1 : -1) * h[i]));
            return p;
          },
          centre: c,
          margin: 0,
          vertices: verts,
          faces: axes,
          edges: axes,
        });
        break;
      }
      case 'cylinder': {
        // Unit even for a quaternion a little off unit (f32 poses): a residue along the axis
        // must not pass for a radial direction in the support.
        const axis = scale(axes[1], 1 / norm(axes[1]));
        out.push({
          support: (d) => {
            const along = dot(d, axis);
            const radial = sub(d, scale(axis, along));
            const rn = norm(radial);
            let p = add(c, scale(axis, along >= 0 ? s.halfHeight : -s.halfHeight));
            // Along the axis any point of the cap supports; the rounding residue of `radial`
            // has no direction to trust.
            if (rn > 1e-9 * norm(d)) p = add(p, scale(radial, s.radius / rn));
            return p;
          },
          centre: c,
          margin: 0,
          vertices: null,
          // The cap normal is a candidate direction for the depth (the sides are searched).
          faces: [axis],
          edges: [axis],
        });
        break;
      }
      case 'hull': {
        const verts = s.points.map(toWorld);
        let local = hullCache.get(s.points);
        if (!local) {
          local = hullFacesAndEdges(s.points);
          hullCache.set(s.points, local);
        }
        out.push(polytope(verts, { faces: local.faces.map((f) => rotate(q, f)), edges: local.edges.map((e) => rotate(q, e)) }));
        break;
      }
      case 'mesh': {
        const verts = s.vertices.map(toWorld);
        for (const [i, j, k] of s.indices) {
          const tri = [verts[i], verts[j], verts[k]];
          const e = [sub(tri[1], tri[0]), sub(tri[2], tri[1]), sub(tri[0], tri[2])];
          const n = cross(e[0], e[1]);
          if (norm(n) === 0) continue;
          out.push(polytope(tri, { faces: [n], edges: e }));
        }
        break;
      }
    }
  }
  return out;
}

function polytope(verts: Vec3[], fe: { faces: Vec3[]; edges: Vec3[] }): Piece {
  const centre = scale(verts.reduce(add, [0, 0, 0] as Vec3), 1 / verts.length);
  return {
    support: (d) => {
      let best = verts[0];
      let bd = dot(best, d);
      for (let i = 1; i < verts.length; i++) {
        const v = dot(verts[i], d);
        if (v > bd) [best, bd] = [verts[i], v];
      }
      return best;
    },
    centre,
    margin: 0,
    vertices: verts,
    faces: fe.faces,
    edges: fe.edges,
  };
}

/** Face normals and edge directions of the convex hull of `verts` (brute force: hulls here are small). */
function hullFacesAndEdges(verts: Vec3[]): { faces: Vec3[]; edges: Vec3[] } {
  const faces: Vec3[] = [];
  const edges: Vec3[] = [];
  const n = verts.length;
  const size = Math.max(...verts.map((v) => norm(sub(v, verts[0]))));
  const eps = 1e-9 * size;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      for (let k = j + 1; k < n; k++) {
        const nn = cross(sub(verts[j], verts[i]), sub(verts[k], verts[i]));
        const len = norm(nn);
        if (len < eps * size) continue;
        const u = scale(nn, 1 / len);
        let above = 0;
        let below = 0;
        for (const v of verts) {
          const h = dot(u, sub(v, verts[i]));
          if (h > eps) above++;
          else if (h < -eps) below++;
        }
        if (above && below) continue;
        faces.push(u);
        // Hull edges lie on hull faces: the edges of the face's supporting triangle suffice as directions.
        edges.push(sub(verts[j], verts[i]), sub(verts[k], verts[j]), sub(verts[i], verts[k]));
      }
    }
  }
  return { faces, edges };
}

/** Closest point to the origin on a simplex, and the vertices that carry it. */
function closestOnSimplex(s: Vec3[]): { v: Vec3; keep: Vec3[]; inside: boolean } {
  if (s.length === 1) return { v: s[0], keep: s, inside: false };
  if (s.length === 2) {
    const [a, b] = s;
    const ab = sub(b, a);
    const t = -dot(a, ab) / dot(ab, ab);
    if (!(t > 0)) return { v: a, keep: [a], inside: false };
    if (t >= 1) return { v: b, keep: [b], inside: false };
    return { v: add(a, scale(ab, t)), keep: [a, b], inside: false };
  }
  if (s.length === 3) return closestOnTriangle(s[0], s[1], s[2]);
  const [a, b, c, d] = s;
  const faces: Array<[Vec3, Vec3, Vec3, Vec3]> = [
    [a, b, c, d],
    [a, c, d, b],
    [a, d, b, c],
    [b, d, c, a],
  ];
  const volume = dot(sub(b, a), cross(sub(c, a), sub(d, a)));
  const extent = Math.max(norm(sub(b, a)), norm(sub(c, a)), norm(sub(d, a)));
  const degenerate = Math.abs(volume) <= 1e-12 * extent ** 3;
  let best: { v: Vec3; keep: Vec3[]; inside: boolean } | null = null;
  let outside = false;
  for (const [p, q, r, opp] of faces) {
    const n = cross(sub(q, p), sub(r, p));
    const sOrigin = -dot(n, p);
    const sOpp = dot(n, sub(opp, p));
    // A flat tetrahedron has no inside: every face is a candidate.
    if (degenerate || sOrigin * sOpp <= 0) {
      outside = true;
      const cand = closestOnTriangle(p, q, r);
      if (!best || dot(cand.v, cand.v) < dot(best.v, best.v)) best = cand;
    }
  }
  if (!outside) return { v: [0, 0, 0], keep: s, inside: true };
  return best!;
}

/** Ericson's closest point of triangle abc to the origin, by Voronoi regions. */
function closestOnTriangle(a: Vec3, b: Vec3, c: Vec3): { v: Vec3; keep: Vec3[]; inside: boolean } {
  const ab = sub(b, a);
  const ac = sub(c, a);
  const ap = scale(a, -1);
  const d1 = dot(ab, ap);
  const d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return { v: a, keep: [a], inside: false };
  const bp = scale(b, -1);
  const d3 = dot(ab, bp);
  const d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return { v: b, keep: [b], inside: false };
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const v = d1 / (d1 - d3);
    return { v: add(a, scale(ab, v)), keep: [a, b], inside: false };
  }
  const cp = scale(c, -1);
  const d5 = dot(ab, cp);
  const d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return { v: c, keep: [c], inside: false };
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const w = d2 / (d2 - d6);
    return { v: add(a, scale(ac, w)), keep: [a, c], inside: false };
  }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
    return { v: add(b, scale(sub(c, b), w)), keep: [b, c], inside: false };
  }
  const denom = 1 / (va + vb + vc);
  const v = vb * denom;
  const w = vc * denom;
  return { v: add(a, add(scale(ab, v), scale(ac, w))), keep: [a, b, c], inside: false };
}

/** Distance between the cores of two pieces (0 when they intersect), by GJK. */
export function coreDistance(A: Piece, B: Piece): number {
  const sup = (d: Vec3): Vec3 => sub(A.support(d), B.support(scale(d, -1)));
  let v = sub(A.centre, B.centre);
  if (norm(v) === 0) v = [1, 0, 0];
  v = sup(v);
  let simplex: Vec3[] = [v];
  for (let iter = 0; iter < 500; iter++) {
    const vv = dot(v, v);
    if (vv <= 1e-30) return 0;
    const w = sup(scale(v, -1));
    // Converged: the support point in −v adds (relatively) nothing to the distance bound.
    if (vv - dot(v, w) <= 1e-13 * vv) return Math.sqrt(vv);
    if (simplex.some((p) => p[0] === w[0] && p[1] === w[1] && p[2] === w[2])) return Math.sqrt(vv);
    const r = closestOnSimplex([...simplex, w]);
    if (r.inside) return 0;
    const nv = dot(r.v, r.v);
    // No progress (rounding): v is as close as f64 gets.
    if (nv >= vv) return Math.sqrt(vv);
    v = r.v;
    simplex = r.keep;
  }
  return Math.sqrt(dot(v, v));
}

/** Directions tried on the sphere before the local search (curved pieces). */
const SPHERE_STARTS = 100;
/** Local searches run, each from the best start of a distinct basin. */
const REFINED_STARTS = 4;
/** Directions tried along each crease's great circle. */
const CREASE_STARTS = 24;

/** Support value of the Minkowski difference of the cores along unit `u`: h_A(u) + h_B(−u). */
function overlapAlong(A: Piece, B: Piece, u: Vec3): number {
  return dot(A.support(u), u) - dot(B.support(scale(u, -1)), u);
}

/**
 * Penetration depth of two pieces whose cores (with margins) overlap: the smallest translation
 * separating them. Exact over separating-axis candidates for two polytopes; for curved pieces a
 * local search on the sphere from many starts (accurate to well under a micrometre here).
 */
export function penetrationDepth(A: Piece, B: Piece): number {
  const margin = A.margin + B.margin;
  const cands: Vec3[] = [];
  for (const f of [...A.faces, ...B.faces]) cands.push(f, scale(f, -1));
  for (const ea of A.edges) {
    for (const eb of B.edges) {
      const c = cross(ea, eb);
      if (norm(c) > 1e-12 * norm(ea) * norm(eb)) cands.push(c, scale(c, -1));
    }
  }
  const dirOf = (u: Vec3): Vec3 => scale(u, 1 / norm(u));
  // With the origin inside M = A − B, the depth is the distance from the origin to M's boundary:
  // min over unit u of h_M(u) = h_A(u) + h_B(−u) = max_a a·u − min_b b·u (plus the margins).
  const H = (u: Vec3): number => overlapAlong(A, B, dirOf(u)) + margin;
  let best = Infinity;
  const consider = (u: Vec3): void => {
    const val = H(u);
    if (val < best) best = val;
  };
  for (const u of cands) consider(u);
  const curved = A.vertices === null || B.vertices === null;
  // Great circles where the support function has a crease (u ⊥ a cylinder's axis, u ⊥ a box's
  // edges): minima often sit on them, in valleys too narrow for the sixteen-direction pattern.
  const creases: Vec3[] = [];
  for (const e of [...A.edges, ...B.edges]) {
    const u = dirOf(e);
    if (!creases.some((c) => Math.abs(dot(c, u)) > 1 - 1e-9)) creases.push(u);
  }
  if (curved) {
    const starts: Vec3[] = [sub(B.centre, A.centre), ...cands];
    // A fixed, even spread of directions (a Fibonacci sphere): the support function has several
    // local minima on the sphere (a cylinder's caps, its side, the other shape's faces), some in
    // narrow basins.
    for (let i = 0; i < SPHERE_STARTS; i++) {
      const z = 1 - (2 * i + 1) / SPHERE_STARTS;
      const r = Math.sqrt(1 - z * z);
      const phi = i * Math.PI * (3 - Math.sqrt(5));
      starts.push([r * Math.cos(phi), r * Math.sin(phi), z]);
    }
    // And directions along every crease's great circle, where narrow valleys lie.
    for (const e of creases) {
      const t1 = norm(cross(e, [1, 0, 0])) > 0.5 ? dirOf(cross(e, [1, 0, 0])) : dirOf(cross(e, [0, 1, 0]));
      const t2 = cross(e, t1);
      for (let k = 0; k < CREASE_STARTS; k++) {
        const a = (2 * Math.PI * k) / CREASE_STARTS;
        starts.push(add(scale(t1, Math.cos(a)), scale(t2, Math.sin(a))));
      }
    }
    for (const s of starts) if (norm(s) > 0) consider(s);
    // Refine from the best starts of distinct basins (no two within 0.3 rad).
    const ranked = starts.filter((u) => norm(u) > 0).map((u) => ({ u: dirOf(u), v: H(u) })).sort((x, y) => x.v - y.v);
    const chosen: Vec3[] = [];
    for (const start of ranked) {
      if (chosen.length >= REFINED_STARTS) break;
      if (chosen.some((c) => dot(c, start.u) > Math.cos(0.3))) continue;
      chosen.push(start.u);
      const found = refineFrom(start.u, start.v);
      if (found < best) best = found;
    }
  }
  return best;

  /** Shrinking pattern search on the sphere from `dir`. */
  function refineFrom(dir: Vec3, value: number): number {
    let bestDir = dir;
    let best = value;
    let step = 0.3;
    for (let iter = 0; step > 1e-9 && iter < 800; iter++) {
      const t1 = norm(cross(bestDir, [1, 0, 0])) > 0.5 ? dirOf(cross(bestDir, [1, 0, 0])) : dirOf(cross(bestDir, [0, 1, 0]));
      const t2 = cross(bestDir, t1);
      let improved = false;
      // Sixteen directions around, and steps along the creases through u (tangent edge × u).
      const moves: Vec3[] = [];
      for (let k = 0; k < 16; k++) {
        const [a, b] = [Math.cos((k * Math.PI) / 8), Math.sin((k * Math.PI) / 8)];
        moves.push(add(scale(t1, a * step), scale(t2, b * step)));
      }
      for (const axis of creases) {
        const t = cross(axis, bestDir);
        const n = norm(t);
        if (n > 1e-12) moves.push(scale(t, step / n), scale(t, -step / n));
      }
      for (const move of moves) {
        const u = add(bestDir, move);
        const val = H(u);
        if (val < best) {
          [best, bestDir] = [val, dirOf(u)];
          improved = true;
        }
      }
      // Grow the step again after a success, so a long walk along a crease stays short.
      step = improved ? Math.min(0.3, step * 1.5) : step / 2;
    }
    return best;
  }
}

/** Signed distance between two pieces: the gap, or minus the penetration depth. */
export function pieceDistance(A: Piece, B: Piece): number {
  const core = coreDistance(A, B);
  const gap = core - A.margin - B.margin;
  if (gap > 0) return gap;
  // Cores apart, margins overlapping (a ball's sphere reaching in): the depth is exact.
  if (core > 0) return gap;
  return -Math.max(0, penetrationDepth(A, B));
}

/** Signed distance between two bodies given by their pieces (min over pairs; −depth of the deepest overlap). */
export function bodyDistance(a: Piece[], b: Piece[]): number {
  let best = Infinity;
  for (const A of a) for (const B of b) best = Math.min(best, pieceDistance(A, B));
  return best;
}

/** Whether any pair of pieces intersects (distance ≤ 0). */
export function bodiesIntersect(a: Piece[], b: Piece[]): boolean {
  for (const A of a) for (const B of b) if (coreDistance(A, B) - A.margin - B.margin <= 0) return true;
  return false;
}

/** Largest distance of any point of the shapes from the body origin. */
export function boundingRadius(shapes: ShapeSpec[]): number {
  let r = 0;
  for (const s of shapes) {
    const lp = s.pose ?? { p: [0, 0, 0] as Vec3, q: [0, 0, 0, 1] };
    const pts: Vec3[] = [];
    let pad = 0;
    if (s.type === 'ball') {
      pts.push([0, 0, 0]);
      pad = s.radius;
    } else if (s.type === 'box') {
      for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) pts.push([sx * s.half[0], sy * s.half[1], sz * s.half[2]]);
    } else if (s.type === 'cylinder') {
      pts.push([0, 0, 0]);
      pad = Math.hypot(s.radius, s.halfHeight);
    } else if (s.type === 'capsule') {
      pts.push([0, s.halfHeight, 0], [0, -s.halfHeight, 0]);
      pad = s.radius;
    } else if (s.type === 'hull') pts.push(...s.points);
    else pts.push(...s.vertices);
    for (const p of pts) r = Math.max(r, norm(add(lp.p, rotate(lp.q, p))) + pad);
  }
  return r;
}

/** The SE(3) path of a sweep: linear position, slerp rotation (written out independently). */
export function pathPose(from: Pose, to: Pose, s: number): Pose {
  const p: Vec3 = [from.p[0] + (to.p[0] - from.p[0]) * s, from.p[1] + (to.p[1] - from.p[1]) * s, from.p[2] + (to.p[2] - from.p[2]) * s];
  // Relative rotation r = to · from⁻¹ taken the short way, raised to the power s.
  let r = mulq(to.q, conj(from.q));
  if (r[3] < 0) r = r.map((x) => -x);
  const half = Math.acos(Math.min(1, r[3]));
  const sinHalf = Math.sin(half);
  let rs: number[];
  if (sinHalf < 1e-12) rs = [0, 0, 0, 1];
  else {
    const k = Math.sin(s * half) / sinHalf;
    rs = [r[0] * k, r[1] * k, r[2] * k, Math.cos(s * half)];
  }
  const q = mulq(rs, from.q);
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  return { p, q: [q[0] / n, q[1] / n, q[2] / n, q[3] / n] };
}

/** Rotation angle between two unit quaternions, radians. */
export function angleBetween(a: readonly number[], b: readonly number[]): number {
  const d = Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);
  return 2 * Math.acos(Math.min(1, d));
}

/**
 * First path parameter in [0, upTo] at which the moving body (shapes at `pathPose(from, to, s)`)
 * touches the obstacle pieces, by conservative advancement on oracle distances; null if none.
 * `floor` is the smallest step in metres of travel (a penetration thinner than it along the path
 * could be stepped over; it bounds the work of long grazes), `maxSteps` a budget after which the
 * answer is `undecided`.
 */
export function firstContact(
  moving: ShapeSpec[],
  from: Pose,
  to: Pose,
  obstacle: Piece[],
  upTo = 1,
  floor = 1e-7,
  maxSteps = 50000,
): { s: number | null; undecided: boolean; closest: number } {
  const length = Math.hypot(to.p[0] - from.p[0], to.p[1] - from.p[1], to.p[2] - from.p[2]);
  const speed = length + angleBetween(from.q, to.q) * boundingRadius(moving);
  let s = 0;
  let closest = Infinity;
  for (let k = 0; k < maxSteps; k++) {
    const d = bodyDistance(pieces(moving, pathPose(from, to, s)), obstacle);
    closest = Math.min(closest, d);
    if (d <= 0) return { s, undecided: false, closest };
    if (speed === 0) return { s: null, undecided: false, closest };
    s += Math.max(d, floor) / speed;
    if (s > upTo) return { s: null, undecided: false, closest };
  }
  return { s: null, undecided: true, closest };
}
