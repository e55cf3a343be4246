/**
 * One contact query between a convex query shape and a collider, answered by Rapier and checked
 * in double precision near contact (see `sim/convex-distance.ts` for why).
 *
 * - Rapier is asked with a prediction distance widened by `band`, so that its own error cannot
 *   hide a pair that is really within reach.
 * - Where Rapier says the pair is within `band`, the distance is recomputed by f64 GJK on the
 *   exact geometry (per triangle for a mesh), and that answer wins: its sign decides free versus
 *   overlapping, its closest points give the normal.
 * - Where Rapier returns null ("cannot tell" as well as "far"), an intersection test decides; an
 *   overlap that neither can measure is reported with depth −Infinity (treat it as contact).
 */
import type RAPIER from '@dimforge/rapier3d-compat';
import { convexDistance, placeConvex, placeTriangle, type PlacedConvex } from './convex-distance.ts';
import { qrotate, transformPoint } from './math.ts';
import type { Pose, Quat, ShapeSpec, Vec3 } from './types.ts';

/** A convex query shape with its geometry (in its own frame). */
export interface QueryGeometry {
  query: RAPIER.Shape;
  spec: ShapeSpec;
  /** Largest distance of a point of the shape from its own origin. */
  radius: number;
}

/** A collider with its exact geometry: the spec in the collider's frame and the collider's world pose. */
export interface ColliderGeometry {
  collider: RAPIER.Collider;
  spec: ShapeSpec;
  pose: Pose;
  /** Its world AABB, when known (a cheap filter). */
  aabb?: { min: Vec3; max: Vec3 };
}

/** World AABB of a convex spec (its own `pose` ignored) at (`pos`, `rot`). */
function specAabb(spec: ShapeSpec, pos: Vec3, rot: Quat): { min: Vec3; max: Vec3 } {
  const ext: Vec3 = [0, 0, 0];
  if (spec.type === 'ball') ext[0] = ext[1] = ext[2] = spec.radius;
  else if (spec.type === 'box' || spec.type === 'cylinder') {
    const axes = [qrotate(rot, [1, 0, 0]), qrotate(rot, [0, 1, 0]), qrotate(rot, [0, 0, 1])];
    for (let i = 0; i < 3; i++) {
      if (spec.type === 'box') ext[i] = Math.abs(axes[0][i]) * spec.half[0] + Math.abs(axes[1][i]) * spec.half[1] + Math.abs(axes[2][i]) * spec.half[2];
      else ext[i] = Math.abs(axes[1][i]) * spec.halfHeight + spec.radius * Math.sqrt(Math.max(0, 1 - axes[1][i] * axes[1][i]));
    }
  } else {
    const pts = spec.type === 'hull' ? spec.points : spec.vertices;
    const min: Vec3 = [Infinity, Infinity, Infinity];
    const max: Vec3 = [-Infinity, -Infinity, -Infinity];
    for (const p of pts) {
      const w = qrotate(rot, p);
      for (let i = 0; i < 3; i++) {
        min[i] = Math.min(min[i], pos[i] + w[i]);
        max[i] = Math.max(max[i], pos[i] + w[i]);
      }
    }
    return { min, max };
  }
  return { min: [pos[0] - ext[0], pos[1] - ext[1], pos[2] - ext[2]], max: [pos[0] + ext[0], pos[1] + ext[1], pos[2] + ext[2]] };
}

function boxesWithin(a: { min: Vec3; max: Vec3 }, b: { min: Vec3; max: Vec3 }, margin: number): boolean {
  for (let i = 0; i < 3; i++) if (a.min[i] > b.max[i] + margin || b.min[i] > a.max[i] + margin) return false;
  return true;
}

/** Answer of {@link verifiedContact}. */
export interface VerifiedContact {
  /** Signed distance; negative when overlapping (−Infinity: overlapping by an unknown depth). */
  distance: number;
  /** Unit normal pointing from the collider towards the query shape, when known. */
  normal?: Vec3;
  /** A point midway between the closest points (or inside the overlap), when known. */
  point?: Vec3;
}

const radiusCache = new WeakMap<ShapeSpec, number>();
function colliderRadius(g: ColliderGeometry): number {
  let r = radiusCache.get(g.spec);
  if (r === undefined) radiusCache.set(g.spec, (r = specRadius(g.spec)));
  return r;
}

/** Depth reported for an overlap too thin for Rapier to measure (it called the pair apart). */
const OVERLAP_UNMEASURED = 1e-12;

/** Radius of a convex spec about its own origin. */
export function specRadius(spec: ShapeSpec): number {
  switch (spec.type) {
    case 'box':
      return Math.hypot(spec.half[0], spec.half[1], spec.half[2]);
    case 'ball':
      return spec.radius;
    case 'cylinder':
      return Math.hypot(spec.radius, spec.halfHeight);
    case 'hull':
      return Math.max(...spec.points.map((p) => Math.hypot(p[0], p[1], p[2])));
    case 'mesh':
      return Math.max(...spec.vertices.map((p) => Math.hypot(p[0], p[1], p[2])));
  }
}

type WorldTriangle = { tri: PlacedConvex; min: Vec3; max: Vec3 };
/** World triangles of mesh colliders with their bounding boxes, kept per spec for the last pose. */
const meshCache = new WeakMap<ShapeSpec, { key: string; list: WorldTriangle[] }>();

function meshTriangles(g: ColliderGeometry): WorldTriangle[] {
  const key = `${g.pose.p.join(',')}|${g.pose.q.join(',')}`;
  const cached = meshCache.get(g.spec);
  let list = cached && cached.key === key ? cached.list : undefined;
  if (!list) {
    const spec = g.spec as Extract<ShapeSpec, { type: 'mesh' }>;
    const v = spec.vertices.map((p) => transformPoint(g.pose, p));
    list = spec.indices.map(([i, j, k]) => {
      const [a, b, c] = [v[i], v[j], v[k]];
      return {
        tri: placeTriangle(a, b, c),
        min: [Math.min(a[0], b[0], c[0]), Math.min(a[1], b[1], c[1]), Math.min(a[2], b[2], c[2])] as Vec3,
        max: [Math.max(a[0], b[0], c[0]), Math.max(a[1], b[1], c[1]), Math.max(a[2], b[2], c[2])] as Vec3,
      };
    });
    meshCache.set(g.spec, { key, list });
  }
  return list;
}

/**
 * Exact (f64) distance between the query shape at (`pos`, `rot`) and the collider, looking no
 * farther than `reach` for a mesh. Null when nothing is within reach of a mesh.
 */
export function exactDistance(g: ColliderGeometry, shape: QueryGeometry, pos: Vec3, rot: Quat, reach: number): { distance: number; normal?: Vec3; point?: Vec3 } | null {
  const mover = placeConvex(shape.spec, { p: pos, q: rot })!;
  const candidates: PlacedConvex[] = [];
  if (g.spec.type === 'mesh') {
    const r = shape.radius + reach;
    for (const t of meshTriangles(g)) {
      if (t.min[0] > pos[0] + r || t.max[0] < pos[0] - r || t.min[1] > pos[1] + r || t.max[1] < pos[1] - r || t.min[2] > pos[2] + r || t.max[2] < pos[2] - r) continue;
      candidates.push(t.tri);
    }
    if (!candidates.length) return null;
  } else candidates.push(placeConvex(g.spec, g.pose)!);
  let best: { distance: number; normal?: Vec3; point?: Vec3 } | null = null;
  for (const other of candidates) {
    const d = convexDistance(mover, other);
    if (best && d.distance >= best.distance) continue;
    if (d.distance > 0 && d.pointA && d.pointB) {
      const n: Vec3 = [d.pointA[0] - d.pointB[0], d.pointA[1] - d.pointB[1], d.pointA[2] - d.pointB[2]];
      const len = Math.hypot(n[0], n[1], n[2]);
      best = { distance: d.distance, normal: [n[0] / len, n[1] / len, n[2] / len], point: [(d.pointA[0] + d.pointB[0]) / 2, (d.pointA[1] + d.pointB[1]) / 2, (d.pointA[2] + d.pointB[2]) / 2] };
    } else best = { distance: 0 };
    if (best.distance === 0) break;
  }
  return best;
}

/**
 * Contact between the query shape at (`pos`, `rot`) and a collider within `reach`, or null when
 * they are farther apart; Rapier's answer within `band` of contact is replaced by the f64 one
 * (see the module comment).
 */
export function verifiedContact(g: ColliderGeometry, shape: QueryGeometry, pos: Vec3, rot: Quat, reach: number, band: number): VerifiedContact | null {
  const p = { x: pos[0], y: pos[1], z: pos[2] };
  const r = { x: rot[0], y: rot[1], z: rot[2], w: rot[3] };
  const c = g.collider.contactShape(shape.query, p, r, Math.max(reach, 0) + band);
  if (c) {
    const point: Vec3 = [(c.point1.x + c.point2.x) / 2, (c.point1.y + c.point2.y) / 2, (c.point1.z + c.point2.z) / 2];
    if (c.distance > band) return c.distance <= reach ? { distance: c.distance, normal: [c.normal1.x, c.normal1.y, c.normal1.z], point } : null;
    const exact = exactDistance(g, shape, pos, rot, reach + band);
    if (exact && exact.distance > 0) return exact.distance <= reach ? exact : null;
    if (!exact) return c.distance <= reach ? { distance: c.distance, normal: [c.normal1.x, c.normal1.y, c.normal1.z], point } : null;
    // Overlapping in f64: Rapier's depth where it measured one, else an overlap too thin for it.
    return { distance: c.distance < 0 ? c.distance : -OVERLAP_UNMEASURED, normal: [c.normal1.x, c.normal1.y, c.normal1.z], point };
  }
  // Null: farther than reach + band, or "cannot tell". Pairs whose bounding spheres or boxes are
  // farther apart than the band can be neither overlapping nor near: Rapier is trusted there
  // (checking them all tripled the cost of a sweep that ends in contact).
  const near = Math.min(reach, band);
  const gap = Math.hypot(pos[0] - g.pose.p[0], pos[1] - g.pose.p[1], pos[2] - g.pose.p[2]) - shape.radius - colliderRadius(g);
  if (gap > near) return null;
  if (g.aabb && !boxesWithin(specAabb(shape.spec, pos, rot), g.aabb, near)) return null;
  if (!g.collider.intersectsShape(shape.query, p, r)) {
    // Rapier also answers null for some pairs a few micrometres apart (a box and a cylinder).

    const exact = exactDistance(g, shape, pos, rot, reach);
    return exact && exact.distance <= reach ? exact : null;
  }
  const exact = exactDistance(g, shape, pos, rot, reach + band);
  if (exact && exact.distance > 0) return exact.distance <= reach ? exact : null;
  return { distance: -Infinity, point: [...pos] };
}
