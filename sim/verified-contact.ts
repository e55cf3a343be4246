/**
 * One contact query between a convex query shape and a collider, answered in double precision
 * by `sim/convex-distance.ts` (GJK, and EPA for an overlap's depth) on the exact geometry.
 *
 * Rapier's own queries are not used: in f32 they misjudge centimetre shapes near contact by up
 * to tens of micrometres (by more than 0.15 mm in rare grazes of cylinders), mismeasure
 * cylinder overlaps by more than 0.1 mm and answer "cannot tell" under penetration (see
 * `sim/convex-distance.ts`). The answer here is a proven bracket: a pair reported apart is apart
 * by at least the distance given (so a pose called free is free), a pair within reach is never
 * missed.
 *
 * - Pairs whose bounding spheres are farther apart than the reach are dismissed at once.
 * - A triangle mesh is the union of its triangles (a surface: a body wholly inside a closed mesh
 *   touches no triangle); triangles whose boxes are out of reach are skipped.
 */
import { convexQuery, placeConvex, placeTriangle, type ConvexAnswer, type PlacedConvex } from './convex-distance.ts';
import { transformPoint } from './math.ts';
import type { Pose, Quat, ShapeSpec, Vec3 } from './types.ts';

/** A convex query shape with its geometry (in its own frame). */
export interface QueryGeometry {
  spec: ShapeSpec;
  /** Largest distance of a point of the shape from its own origin. */
  radius: number;
}

/** A collider with its exact geometry: the spec in the collider's frame and the collider's world pose. */
export interface ColliderGeometry {
  spec: ShapeSpec;
  pose: Pose;
  /** Its world AABB, when known (a cheap filter). */
  aabb?: { min: Vec3; max: Vec3 };
}

/** Answer of {@link verifiedContact}. */
export interface VerifiedContact {
  /**
   * Signed distance: apart, a proven lower bound within the accuracy of the true distance (it
   * may be ≤ 0 for a pair touching within the accuracy); overlapping, minus the penetration
   * depth when it was asked for, else a negative number no deeper than the truth.
   */
  distance: number;
  /** Unit normal pointing from the collider towards the query shape, when known. */
  normal?: Vec3;
  /** A point midway between the closest points (or inside the overlap), when known. */
  point?: Vec3;
}

/** How precisely {@link verifiedContact} answers. */
export interface ContactAccuracy {
  /** Absolute accuracy of a distance or depth, in the query's units. */
  accuracy: number;
  /** Relative accuracy of a separation (a fraction of the distance; 0: absolute only). */
  relative?: number;
  /** Measure the penetration depth of an overlap (EPA); otherwise only its sign is certain. */
  depth?: boolean;
  /**
   * A slot holding the normal of this pair's previous answer (a sweep asks about the same pair
   * at nearby poses): GJK starts from it, and the new normal is written back.
   */
  hint?: { normal?: Vec3 };
}

const radiusCache = new WeakMap<ShapeSpec, number>();
function colliderRadius(g: ColliderGeometry): number {
  let r = radiusCache.get(g.spec);
  if (r === undefined) radiusCache.set(g.spec, (r = specRadius(g.spec)));
  return r;
}

/** Radius of a spec about its own origin. */
export function specRadius(spec: ShapeSpec): number {
  switch (spec.type) {
    case 'box':
      return Math.hypot(spec.half[0], spec.half[1], spec.half[2]);
    case 'ball':
      return spec.radius;
    case 'cylinder':
      return Math.hypot(spec.radius, spec.halfHeight);
    case 'capsule':
      return spec.radius + spec.halfHeight;
    case 'hull':
      return Math.max(...spec.points.map((p) => Math.hypot(p[0], p[1], p[2])));
    case 'mesh':
      return Math.max(...spec.vertices.map((p) => Math.hypot(p[0], p[1], p[2])));
  }
}

type WorldTriangle = { tri: PlacedConvex; min: Vec3; max: Vec3 };
/** World triangles of mesh colliders with their bounding boxes, kept per spec for the last pose. */
const meshCache = new WeakMap<ShapeSpec, { pose: Pose; list: WorldTriangle[] }>();

function meshTriangles(g: ColliderGeometry): WorldTriangle[] {
  const cached = meshCache.get(g.spec);
  if (cached && samePose(cached.pose, g.pose)) return cached.list;
  const spec = g.spec as Extract<ShapeSpec, { type: 'mesh' }>;
  const v = spec.vertices.map((p) => transformPoint(g.pose, p));
  const list = spec.indices.map(([i, j, k]) => {
    const [a, b, c] = [v[i], v[j], v[k]];
    return {
      tri: placeTriangle(a, b, c),
      min: [Math.min(a[0], b[0], c[0]), Math.min(a[1], b[1], c[1]), Math.min(a[2], b[2], c[2])] as Vec3,
      max: [Math.max(a[0], b[0], c[0]), Math.max(a[1], b[1], c[1]), Math.max(a[2], b[2], c[2])] as Vec3,
    };
  });
  meshCache.set(g.spec, { pose: g.pose, list });
  return list;
}

function samePose(a: Pose, b: Pose): boolean {
  return a === b || (a.p[0] === b.p[0] && a.p[1] === b.p[1] && a.p[2] === b.p[2] && a.q[0] === b.q[0] && a.q[1] === b.q[1] && a.q[2] === b.q[2] && a.q[3] === b.q[3]);
}

/** The collider placed in the world, kept per geometry object (a sweep asks about it many times). */
const placedCache = new WeakMap<ColliderGeometry, PlacedConvex>();
function placedCollider(g: ColliderGeometry): PlacedConvex {
  let placed = placedCache.get(g);
  if (!placed) placedCache.set(g, (placed = placeConvex(g.spec, g.pose)!));
  return placed;
}

function answerOf(r: ConvexAnswer, reach: number): VerifiedContact | null {
  if (r.status === 'beyond' || r.lower > reach) return null;
  const point: Vec3 | undefined = r.pointA && r.pointB ? [(r.pointA[0] + r.pointB[0]) / 2, (r.pointA[1] + r.pointB[1]) / 2, (r.pointA[2] + r.pointB[2]) / 2] : undefined;
  // Apart: the certified lower bound. Overlapping: the depth's upper estimate when measured,
  // else the bound that is certain (no deeper than the truth).
  const distance = r.status === 'overlap' ? (Number.isFinite(r.lower) && r.lower < r.upper ? r.lower : r.upper) : r.lower;
  return { distance, normal: r.normal, point };
}

/**
 * Contact between the query shape at (`pos`, `rot`) and a collider within `reach`, or null when
 * they are (provably) farther apart; see the module comment.
 */
export function verifiedContact(g: ColliderGeometry, shape: QueryGeometry, pos: Vec3, rot: Quat, reach: number, acc: ContactAccuracy): VerifiedContact | null {
  const centreGap = Math.hypot(pos[0] - g.pose.p[0], pos[1] - g.pose.p[1], pos[2] - g.pose.p[2]) - shape.radius - colliderRadius(g);
  if (centreGap > reach) return null;
  const mover = placeConvex(shape.spec, { p: pos, q: rot })!;
  const opts = { reach, accuracy: acc.accuracy, relative: acc.relative, depth: acc.depth, hint: acc.hint?.normal };
  if (g.spec.type !== 'mesh') {
    const r = convexQuery(mover, placedCollider(g), opts);
    if (acc.hint && r.normal) acc.hint.normal = r.normal;
    return answerOf(r, reach);
  }
  const rad = shape.radius + reach;
  let best: VerifiedContact | null = null;
  for (const t of meshTriangles(g)) {
    if (t.min[0] > pos[0] + rad || t.max[0] < pos[0] - rad || t.min[1] > pos[1] + rad || t.max[1] < pos[1] - rad || t.min[2] > pos[2] + rad || t.max[2] < pos[2] - rad) continue;
    const c = answerOf(convexQuery(mover, t.tri, { ...opts, hint: undefined }), reach);
    if (c && (!best || c.distance < best.distance)) best = c;
  }
  return best;
}
