/**
 * Shape specs → Rapier colliders, plus what the swept checks and contact queries need about a
 * shape (exact world AABBs, bounding radii about the body origin, shrunk copies).
 */
import RAPIER from '@dimforge/rapier3d-compat';
import { convexQuery, placeConvex } from './convex-distance.ts';
import { clonePose, composePose, qrotate, transformPoint, vcross, vdot, vlen, vsub } from './math.ts';
import type { BodyKind, Pose, ShapeSpec, Vec3 } from './types.ts';
import { IDENTITY_QUAT } from './types.ts';
import { arrayOf, finiteNumber, invalid, oneOf, plainObject, pose as validPose, vec3 } from './validate.ts';

/** Largest accepted half extent, radius or |vertex coordinate| of a shape, metres. */
export const MAX_SHAPE_SIZE = 1e3;
/** Smallest accepted half extent or radius, metres (0.01 mm). */
export const MIN_SHAPE_SIZE = 1e-5;
const MAX_VERTICES = 200000;

/** An axis-aligned box `min..max` in world coordinates. */
export interface Aabb {
  min: Vec3;
  max: Vec3;
}

/** A shape prepared for queries: its pose in the body frame and bounds. */
export interface CompiledShape {
  spec: ShapeSpec;
  /** Pose of the shape in the body frame (identity when the spec has none). */
  local: Pose;
  /** False for triangle meshes (which can be hit but not swept). */
  convex: boolean;
  /** Largest distance of any point of the shape from the body origin. */
  radius: number;
  /** Hull or mesh vertices in the shape's own frame (empty for primitives). */
  points: Vec3[];
}

const IDENTITY_POSE: Pose = { p: [0, 0, 0], q: [...IDENTITY_QUAT] };

function size(value: unknown, path: string): number {
  return finiteNumber(value, path, { min: MIN_SHAPE_SIZE, max: MAX_SHAPE_SIZE });
}

/**
 * Validates one shape spec and returns a normalised deep copy. `kind` is the body's kind:
 * triangle meshes are accepted only on static bodies (Rapier cannot compute their mass).
 */
export function validateShape(value: unknown, path: string, kind: BodyKind): ShapeSpec {
  const s = plainObject(value, path);
  const type = oneOf(s.type, `${path}.type`, ['box', 'ball', 'cylinder', 'capsule', 'hull', 'mesh'] as const);
  const pose = s.pose === undefined ? undefined : validPose(s.pose, `${path}.pose`);
  const withPose = <T extends ShapeSpec>(shape: T): T => (pose ? { ...shape, pose } : shape);
  switch (type) {
    case 'box': {
      const half = vec3(s.half, `${path}.half`, MAX_SHAPE_SIZE);
      half.forEach((h, i) => size(h, `${path}.half[${i}]`));
      return withPose({ type, half });
    }
    case 'ball':
      return withPose({ type, radius: size(s.radius, `${path}.radius`) });
    case 'cylinder':
    case 'capsule':
      return withPose({ type, radius: size(s.radius, `${path}.radius`), halfHeight: size(s.halfHeight, `${path}.halfHeight`) });
    case 'hull': {
      const pts = arrayOf(s.points, `${path}.points`, 4, MAX_VERTICES).map((p, i) => vec3(p, `${path}.points[${i}]`, MAX_SHAPE_SIZE));
      if (!spansVolume(pts) || !RAPIER.ColliderDesc.convexHull(flatten(pts))) invalid(`${path}.points`, 'the points are degenerate (all on one plane or line); a hull needs volume', pts.length);
      return withPose({ type, points: pts });
    }
    case 'mesh': {
      if (kind !== 'static') invalid(`${path}.type`, `triangle meshes are only allowed on static bodies (this body is ${kind})`, type);
      const vertices = arrayOf(s.vertices, `${path}.vertices`, 3, MAX_VERTICES).map((p, i) => vec3(p, `${path}.vertices[${i}]`, MAX_SHAPE_SIZE));
      const indices = arrayOf(s.indices, `${path}.indices`, 1, MAX_VERTICES).map((t, i) => {
        const tri = arrayOf(t, `${path}.indices[${i}]`, 3, 3);
        return tri.map((v, j) => finiteNumber(v, `${path}.indices[${i}][${j}]`, { min: 0, max: vertices.length - 1, integer: true })) as [number, number, number];
      });
      return withPose({ type, vertices, indices });
    }
  }
}

/** Whether the points span a volume (not all on one plane), relative to their extent. */
function spansVolume(points: Vec3[]): boolean {
  const p0 = points[0];
  const far = (score: (p: Vec3) => number): Vec3 => points.reduce((best, p) => (score(p) > score(best) ? p : best), p0);
  const p1 = far((p) => vlen(vsub(p, p0)));
  const size = vlen(vsub(p1, p0));
  if (size === 0) return false;
  const axis = vsub(p1, p0);
  const p2 = far((p) => vlen(vcross(axis, vsub(p, p0))));
  const normal = vcross(axis, vsub(p2, p0));
  const n = vlen(normal);
  if (n <= 1e-9 * size * size) return false;
  const height = Math.max(...points.map((p) => Math.abs(vdot(normal, vsub(p, p0)) / n)));
  return height > 1e-6 * size;
}

function flatten(points: Vec3[]): Float32Array {
  const out = new Float32Array(points.length * 3);
  points.forEach((p, i) => out.set(p, i * 3));
  return out;
}

/** The Rapier collider description of a (validated) shape, offset by its pose. */
export function colliderDesc(shape: ShapeSpec): RAPIER.ColliderDesc {
  let desc: RAPIER.ColliderDesc | null;
  switch (shape.type) {
    case 'box':
      desc = RAPIER.ColliderDesc.cuboid(shape.half[0], shape.half[1], shape.half[2]);
      break;
    case 'ball':
      desc = RAPIER.ColliderDesc.ball(shape.radius);
      break;
    case 'cylinder':
      desc = RAPIER.ColliderDesc.cylinder(shape.halfHeight, shape.radius);
      break;
    case 'capsule':
      desc = RAPIER.ColliderDesc.capsule(shape.halfHeight, shape.radius);
      break;
    case 'hull':
      desc = RAPIER.ColliderDesc.convexHull(flatten(shape.points));
      break;
    case 'mesh':
      desc = RAPIER.ColliderDesc.trimesh(flatten(shape.vertices), new Uint32Array(shape.indices.flat()));
      break;
  }
  if (!desc) invalid('shape', `Rapier could not build a ${shape.type} collider`);
  if (shape.pose) {
    desc.setTranslation(shape.pose.p[0], shape.pose.p[1], shape.pose.p[2]);
    desc.setRotation({ x: shape.pose.q[0], y: shape.pose.q[1], z: shape.pose.q[2], w: shape.pose.q[3] });
  }
  return desc;
}

/** Prepares a validated shape for queries. */
export function compileShape(shape: ShapeSpec): CompiledShape {
  const local = shape.pose ? clonePose(shape.pose) : clonePose(IDENTITY_POSE);
  let points: Vec3[] = [];
  let own = 0; // radius of the shape about its own origin
  switch (shape.type) {
    case 'box':
      own = vlen(shape.half);
      break;
    case 'ball':
      own = shape.radius;
      break;
    case 'cylinder':
      own = Math.hypot(shape.halfHeight, shape.radius);
      break;
    case 'capsule':
      own = shape.halfHeight + shape.radius;
      break;
    case 'hull':
      points = shape.points;
      break;
    case 'mesh':
      points = shape.vertices;
      break;
  }
  let radius = vlen(local.p) + own;
  if (points.length) radius = Math.max(...points.map((p) => vlen(transformPoint(local, p))));
  return { spec: shape, local, convex: shape.type !== 'mesh', radius, points };
}

/**
 * The same compiled shape seen from another frame: `offset` is the pose of the shape's body in
 * that frame (for group motion the frame is the group's, and each member's shapes are rebased
 * into it). The spec is shared; `local` and the bounding `radius` about the new origin are
 * recomputed.
 */
export function rebaseShape(shape: CompiledShape, offset: Pose): CompiledShape {
  const local = composePose(offset, shape.local);
  const s = shape.spec;
  let radius: number;
  if (shape.points.length) radius = Math.max(...shape.points.map((p) => vlen(transformPoint(local, p))));
  else {
    const own = s.type === 'box' ? vlen(s.half) : s.type === 'ball' ? s.radius : s.type === 'cylinder' ? Math.hypot(s.halfHeight, s.radius) : s.type === 'capsule' ? s.halfHeight + s.radius : 0;
    radius = vlen(local.p) + own;
  }
  return { spec: shape.spec, local, convex: shape.convex, radius, points: shape.points };
}

/**
 * The spec of a shape shrunk inwards by about `delta` (never below 10 % of its size), in the
 * shape's own frame (no `pose`): used to check that a body sliding along, or lifting off,
 * something it already touches does not press into it. Hulls are scaled about their centroid
 * so that the nearest face moves in by `delta`. Null for triangle meshes.
 */
export function erodedSpec(shape: CompiledShape, delta: number): ShapeSpec | null {
  const s = shape.spec;
  const shrink = (v: number): number => Math.max(v - delta, 0.1 * v);
  switch (s.type) {
    case 'box':
      return { type: 'box', half: [shrink(s.half[0]), shrink(s.half[1]), shrink(s.half[2])] };
    case 'ball':
      return { type: 'ball', radius: shrink(s.radius) };
    case 'cylinder':
      return { type: 'cylinder', radius: shrink(s.radius), halfHeight: shrink(s.halfHeight) };
    case 'capsule':
      // Only the radius: the segment is the core, and shrinking it would pull the round ends in
      // by more than `delta` relative to the surface.
      return { type: 'capsule', radius: shrink(s.radius), halfHeight: s.halfHeight };
    case 'hull': {
      const n = s.points.length;
      const c: Vec3 = [0, 0, 0];
      for (const p of s.points) for (let i = 0; i < 3; i++) c[i] += p[i] / n;
      // The centroid's depth inside the hull: the distance to its nearest face.
      const size = vlen(vsub(s.points[0], c)) || 1;
      const depth = convexQuery({ kind: 'point', centre: c, margin: 0 }, placeConvex(s, IDENTITY_POSE)!, { reach: Infinity, accuracy: 1e-9 * size, depth: true });
      const inradius = depth.status === 'overlap' ? -depth.upper : 0;
      const k = inradius > 0 ? Math.max(0.1, 1 - delta / inradius) : 1;
      return { type: 'hull', points: s.points.map((p) => [c[0] + (p[0] - c[0]) * k, c[1] + (p[1] - c[1]) * k, c[2] + (p[2] - c[2]) * k] as Vec3) };
    }
    case 'mesh':
      return null;
  }
}

/** Exact world AABB of a compiled shape when its body is at `bodyPose`. */
export function shapeAabb(shape: CompiledShape, bodyPose: Pose): Aabb {
  const pose = composePose(bodyPose, shape.local);
  const spec = shape.spec;
  if (spec.type === 'hull' || spec.type === 'mesh') {
    const min: Vec3 = [Infinity, Infinity, Infinity];
    const max: Vec3 = [-Infinity, -Infinity, -Infinity];
    for (const v of shape.points) {
      const w = transformPoint(pose, v);
      for (let i = 0; i < 3; i++) {
        if (w[i] < min[i]) min[i] = w[i];
        if (w[i] > max[i]) max[i] = w[i];
      }
    }
    return { min, max };
  }
  const c = pose.p;
  const ext: Vec3 = [0, 0, 0];
  if (spec.type === 'ball') {
    ext[0] = ext[1] = ext[2] = spec.radius;
  } else if (spec.type === 'box') {
    const ax = qrotate(pose.q, [1, 0, 0]);
    const ay = qrotate(pose.q, [0, 1, 0]);
    const az = qrotate(pose.q, [0, 0, 1]);
    for (let i = 0; i < 3; i++) ext[i] = Math.abs(ax[i]) * spec.half[0] + Math.abs(ay[i]) * spec.half[1] + Math.abs(az[i]) * spec.half[2];
  } else if (spec.type === 'capsule') {
    // The segment's extent, then the radius all round (the round ends reach it along every axis).
    const axis = qrotate(pose.q, [0, 1, 0]);
    for (let i = 0; i < 3; i++) ext[i] = Math.abs(axis[i]) * spec.halfHeight + spec.radius;
  } else {
    const axis = qrotate(pose.q, [0, 1, 0]);
    for (let i = 0; i < 3; i++) ext[i] = Math.abs(axis[i]) * spec.halfHeight + spec.radius * Math.sqrt(Math.max(0, 1 - axis[i] * axis[i]));
  }
  return { min: [c[0] - ext[0], c[1] - ext[1], c[2] - ext[2]], max: [c[0] + ext[0], c[1] + ext[1], c[2] + ext[2]] };
}

/** Union of AABBs (the first one is copied, none is mutated). */
export function unionAabb(boxes: Aabb[]): Aabb {
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const b of boxes) {
    for (let i = 0; i < 3; i++) {
      if (b.min[i] < min[i]) min[i] = b.min[i];
      if (b.max[i] > max[i]) max[i] = b.max[i];
    }
  }
  return { min, max };
}

/** `box` grown by `margin` on every side. */
export function inflateAabb(box: Aabb, margin: number): Aabb {
  return {
    min: [box.min[0] - margin, box.min[1] - margin, box.min[2] - margin],
    max: [box.max[0] + margin, box.max[1] + margin, box.max[2] + margin],
  };
}

/** Whether two AABBs overlap (touching counts). */
export function aabbOverlap(a: Aabb, b: Aabb): boolean {
  return a.min[0] <= b.max[0] && b.min[0] <= a.max[0] && a.min[1] <= b.max[1] && b.min[1] <= a.max[1] && a.min[2] <= b.max[2] && b.min[2] <= a.max[2];
}

/** Whether `inner` lies inside `outer` (touching the boundary counts as inside). */
export function aabbInside(inner: Aabb, outer: Aabb): boolean {
  return inner.min[0] >= outer.min[0] && inner.min[1] >= outer.min[1] && inner.min[2] >= outer.min[2] && inner.max[0] <= outer.max[0] && inner.max[1] <= outer.max[1] && inner.max[2] <= outer.max[2];
}

/** Eight corners of a box with half extents `half` in the frame `pose`. */
export function boxCorners(half: Vec3, pose: Pose): Vec3[] {
  const out: Vec3[] = [];
  for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) out.push(transformPoint(pose, [sx * half[0], sy * half[1], sz * half[2]]));
  return out;
}

/** Local AABB of a set of shapes in their body frame (for displacement measures). */
export function localAabb(shapes: CompiledShape[]): Aabb {
  return unionAabb(shapes.map((s) => shapeAabb(s, IDENTITY_POSE)));
}
