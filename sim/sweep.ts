/**
 * Continuous collision checking of a rigid body moving along an SE(3) path.
 *
 * The path from pose A to pose B is linear in position and slerp in rotation, parameterised by
 * `s ∈ [0, 1]`. Only linear motion has a closed-form treatment, so the path is cut into segments
 * whose rotation is at most `maxSegmentAngle`. Over one segment each shape is replaced by a proxy
 * that keeps the segment's middle orientation and translates linearly; every point of the real
 * shape stays within `w = 2·r·sin(θ/4)` of the proxy (r: the point's distance from the body
 * origin, θ: the segment's rotation). The first `t` at which the proxy comes within `w` of an
 * obstacle is found by conservative advancement on exact distance queries (Rapier's
 * `contactShape`): for convex shapes the distance is a convex function of the translation, so
 * its tangent (slope from the contact normal) is a safe step; for triangle meshes the slope bound
 * is the segment length. Before that `t` the body cannot touch anything; a hit may be early. It is
 * refined by recursion: the remainder of the segment is halved, which halves `w`, until
 * `2w + ε ≤ tolerance`. The reported parameter `toi` then satisfies
 *
 * - every pose before `toi` is collision-free (distance > 0 to every obstacle), and
 * - at `toi` the body is within `tolerance` of touching something.
 *
 * A pure translation has `w = 0` and needs no recursion. (Rapier's `castShape` was the first
 * choice, but with a target distance it is slow — 0.1–0.25 ms — and its time of impact is off by
 * up to 0.1 mm, sometimes late, for a small box sliding over a large one.) The last free pose is
 * taken just before `toi` and verified with an exact intersection test. The same segment bound
 * decides the workspace check on the body's AABB; topology predicates are sampled along the path.
 *
 * **Starting in contact.** Colliders the body already touches at its start pose (within the
 * tolerance: a support it rests on, a neighbour it slides along) are checked against the touching
 * shape of the body shrunk by `δ = 5 × tolerance + its initial penetration` (per pair of moving
 * shape and obstacle: the body's other shapes meet that collider at full size). Lifting off them or sliding along them is
 * free; pressing into them by more than about `δ` is a contact like any other.
 *
 * Queries go through each obstacle collider directly (not Rapier's broad phase, which is only
 * refreshed by a simulation step), so they see poses set since the last step.
 */
import type RAPIER from '@dimforge/rapier3d-compat';
import { composePose, interpolatePose, qangle, qmul, qrotate, qslerp, vadd, vdist, vlerp, vsub } from './math.ts';
import { aabbInside, aabbOverlap, erodedQuery, inflateAabb, shapeAabb, unionAabb, type Aabb, type CompiledShape } from './shapes.ts';
import type { Pose, Vec3, Violation } from './types.ts';

/** One collider the moving body may hit. */
export interface SweepObstacle {
  /** Name of the body owning the collider. */
  body: string;
  collider: RAPIER.Collider;
  /** False for triangle meshes. */
  convex: boolean;
  /** World AABB of the collider now. */
  aabb: Aabb;
}

/** Everything a sweep needs; built by the world. */
export interface SweepInput {
  shapes: CompiledShape[];
  from: Pose;
  to: Pose;
  obstacles: SweepObstacle[];
  /** Contact tolerance, metres. */
  tolerance: number;
  /** Largest rotation of one cast segment, radians. */
  maxSegmentAngle: number;
  workspace?: Aabb;
  /**
   * Treat everything the body touches at its start pose as an ordinary obstacle (a move starting
   * in contact then stops at once). Default false: see the module comment.
   */
  strictInitialContacts?: boolean;
  /** Topology predicates evaluated with the moving body at `pose`. */
  topology?: (pose: Pose) => Violation | null;
  /** Largest path step between topology samples: metres of travel and radians of turn. */
  topologyStep?: { length: number; angle: number };
}

/** What stopped the sweep first, if anything. */
export interface SweepOutcome {
  kind: 'free' | 'collision' | 'workspace' | 'topology';
  /** Path fraction where it stopped; 1 when free. */
  toi: number;
  /** Bodies touched (collision) or named by the topology violation. */
  bodies: string[];
  /** Indices (into `shapes`) of the moving shapes within reach of what they touched (collision only). */
  movers?: number[];
  point?: Vec3;
  /** A pose on the path before `toi` that is verified free. */
  lastFree: Pose;
  /** The topology predicate's own record. */
  topologyViolation?: Violation;
  /** Number of shape casts and distance queries spent (for benchmarks). */
  queries: number;
}

/** Erosion of a body against what it touches at its start, in contact tolerances (plus the initial penetration). */
export const INITIAL_CONTACT_MARGIN = 5;
/** Upper bound on proxy checks per sweep; past it a hit is accepted where it stands (still conservative). */
const CAST_BUDGET = 20000;

function rv(v: Vec3): RAPIER.Vector {
  return { x: v[0], y: v[1], z: v[2] };
}

/** Runs the sweep; see the module comment for the guarantees. */
export function sweepPath(input: SweepInput): SweepOutcome {
  const { shapes, from, to, obstacles, tolerance } = input;
  const length = vdist(from.p, to.p);
  const angle = qangle(from.q, to.q);
  const radius = Math.max(0, ...shapes.map((s) => s.radius));
  /** Bound on how far any point of the body moves per unit of `s`. */
  const speed = length + angle * radius;
  const segments = Math.max(1, Math.ceil(angle / input.maxSegmentAngle));
  let queries = 0;
  let budget = CAST_BUDGET;
  /** Closeness at which a proxy counts as arrived. */
  const eps = tolerance / 16;

  const poseAt = (s: number): Pose => interpolatePose(from, to, s);

  // Colliders touched at the start are checked with a shrunk body (see the module comment), per
  // pair of moving shape and obstacle: a compound resting on a support with one shape still
  // meets that support with its other shapes at full size.
  const touching = new Set<number>();
  const obstacleIndex = new Map(obstacles.map((ob, j) => [ob, j]));
  const pairKey = (i: number, j: number): number => i * obstacles.length + j;
  /** Deepest initial penetration of each moving shape into what it touches. */
  const deepest = shapes.map(() => 0);
  if (!input.strictInitialContacts) {
    for (const [i, sh] of shapes.entries()) {
      if (!sh.query) continue;
      const sp = composePose(from, sh.local);
      const box = inflateAabb(shapeAabb(sh, from), tolerance);
      for (const [j, ob] of obstacles.entries()) {
        if (!aabbOverlap(box, ob.aabb)) continue;
        queries++;
        const c = ob.collider.contactShape(sh.query, rv(sp.p), { x: sp.q[0], y: sp.q[1], z: sp.q[2], w: sp.q[3] }, tolerance);
        if (c && c.distance <= tolerance) {
          touching.add(pairKey(i, j));
          deepest[i] = Math.max(deepest[i], -c.distance);
        }
      }
    }
  }
  // The margin of a few tolerances keeps a body sliding along a support from grazing the
  // threshold, where the refinement would need many tiny segments.
  const eroded = touching.size ? shapes.map((sh, i) => erodedQuery(sh, INITIAL_CONTACT_MARGIN * tolerance + deepest[i])) : [];
  const queryOf = (i: number, ob: SweepObstacle): RAPIER.Shape | null => (touching.size && touching.has(pairKey(i, obstacleIndex.get(ob)!)) ? eroded[i] : shapes[i].query);

  const bodyAabb = (p: Pose): Aabb => unionAabb(shapes.map((sh) => shapeAabb(sh, p)));

  /** Distance queries at an exact pose: bodies within `reach`, nearest point, and any overlap. */
  const probe = (p: Pose, reach: number): { bodies: string[]; movers: number[]; point?: Vec3; intersects: boolean } => {
    const near = new Set<string>();
    const movers = new Set<number>();
    let best = Infinity;
    let point: Vec3 | undefined;
    let intersects = false;
    shapes.forEach((sh, i) => {
      if (!sh.query) return;
      const sp = composePose(p, sh.local);
      const box = inflateAabb(shapeAabb(sh, p), reach);
      for (const ob of obstacles) {
        const query = queryOf(i, ob);
        if (!query || !aabbOverlap(box, ob.aabb)) continue;
        queries++;
        const c = ob.collider.contactShape(query, rv(sp.p), { x: sp.q[0], y: sp.q[1], z: sp.q[2], w: sp.q[3] }, reach);
        if (!c || c.distance > reach) continue;
        near.add(ob.body);
        movers.add(i);
        if (c.distance <= 0) intersects = true;
        if (c.distance < best) {
          best = c.distance;
          point = [(c.point1.x + c.point2.x) / 2, (c.point1.y + c.point2.y) / 2, (c.point1.z + c.point2.z) / 2];
        }
      }
    });
    return { bodies: [...near].sort(), movers: [...movers].sort((x, y) => x - y), point, intersects };
  };

  /** A pose before `s` verified free by an exact test (stepping back if rounding put it in contact). */
  const freeBefore = (s: number): Pose => {
    let back = speed > 0 ? tolerance / (4 * speed) : 0;
    for (let i = 0; i < 12; i++) {
      const t = Math.max(0, s - back);
      const p = poseAt(t);
      if (!probe(p, 0).intersects) return p;
      if (t === 0) break;
      back *= 4;
    }
    return poseAt(0);
  };

  /**
   * First `t ∈ [0, 1]` at which a proxy (fixed orientation, translating by `disp`) comes within
   * `w + eps` of an obstacle, or null. Conservative advancement on exact distance queries: the
   * distance between convex shapes is a convex function of `t` under translation, so the tangent
   * at the current `t` (slope from the contact normal) never overestimates how far it is safe to
   * advance; for a triangle mesh the slope bound is `|disp|`.
   */
  const approach = (ob: SweepObstacle, query: RAPIER.Shape, start: Vec3, rot: RAPIER.Rotation, disp: Vec3, w: number): number | null => {
    const len = Math.hypot(disp[0], disp[1], disp[2]);
    let t = 0;
    // Against a mesh each step only advances by the gap (the slope bound is |disp|), so sliding
    // past a mesh wall at a 1 mm gap takes one step per millimetre of travel: give meshes far
    // more steps before the conservative give-up (which reports a contact).
    const maxIterations = ob.convex ? 64 : 4096;
    for (let iter = 0; iter < maxIterations; iter++) {
      queries++;
      const pos = { x: start[0] + disp[0] * t, y: start[1] + disp[1] * t, z: start[2] + disp[2] * t };
      const c = ob.collider.contactShape(query, pos, rot, w + len * (1 - t) + eps);
      if (!c) return null;
      const gap = c.distance - w;
      if (gap <= eps) return t;
      if (len < 1e-12) return null;
      let rate = len;
      if (ob.convex) {
        const closing = -(disp[0] * c.normal1.x + disp[1] * c.normal1.y + disp[2] * c.normal1.z);
        if (closing <= 0) return null;
        // A hair above the measured slope absorbs rounding in the normal.
        rate = Math.min(len, closing * 1.001 + 1e-6 * len);
      }
      t += gap / rate;
      if (t >= 1) return null;
    }
    return t;
  };

  /** First contact parameter in [a, b], or null. */
  const refine = (a: number, b: number): number | null => {
    const theta = angle * (b - a);
    const qm = qslerp(from.q, to.q, (a + b) / 2);
    const pa = vlerp(from.p, to.p, a);
    const pb = vlerp(from.p, to.p, b);
    const disp = vsub(pb, pa);
    const chord = 2 * Math.sin(theta / 4);
    let tMin = Infinity;
    let widest = 0;
    shapes.forEach((sh, i) => {
      if (!sh.query) return;
      const w = sh.radius * chord;
      widest = Math.max(widest, w);
      const rot = qmul(qm, sh.local.q);
      const r = { x: rot[0], y: rot[1], z: rot[2], w: rot[3] };
      const start = vadd(pa, qrotate(qm, sh.local.p));
      const box = inflateAabb(unionAabb([shapeAabb(sh, { p: pa, q: qm }), shapeAabb(sh, { p: pb, q: qm })]), w + tolerance);
      for (const ob of obstacles) {
        const query = queryOf(i, ob);
        if (!query || !aabbOverlap(box, ob.aabb)) continue;
        budget--;
        const t = approach(ob, query, start, r, disp, w);
        if (t !== null && t < tMin) tMin = t;
      }
    });
    if (tMin === Infinity) return null;
    const sHit = a + Math.min(1, Math.max(0, tMin)) * (b - a);
    // Within w + eps of the proxy means within 2w + eps of the body: below the tolerance here.
    if (2 * widest + eps <= tolerance || budget <= 0) return sHit;
    const m = (sHit + b) / 2;
    return refine(sHit, m) ?? refine(m, b);
  };

  /** First parameter in [a, b] where the body's AABB leaves the workspace, or null. */
  const exitWorkspace = (a: number, b: number, ws: Aabb): number | null => {
    const boxA = bodyAabb(poseAt(a));
    if (!aabbInside(boxA, ws)) return a;
    const boxB = bodyAabb(poseAt(b));
    const w = radius * 2 * Math.sin((angle * (b - a)) / 4);
    if (aabbInside(inflateAabb(unionAabb([boxA, boxB]), w), ws)) return null;
    if ((b - a) * speed <= tolerance / 4) return aabbInside(boxB, ws) ? null : b;
    const m = (a + b) / 2;
    return exitWorkspace(a, m, ws) ?? exitWorkspace(m, b, ws);
  };

  // 1. Collision.
  let collisionAt: number | null = null;
  if (speed === 0) {
    // No motion: only a strict sweep reports what the body already touches.
    collisionAt = input.strictInitialContacts && probe(from, tolerance).bodies.length ? 0 : null;
  } else {
    for (let k = 0; k < segments && collisionAt === null; k++) collisionAt = refine(k / segments, (k + 1) / segments);
  }
  let stop = collisionAt ?? Infinity;

  // 2. Workspace (only the part of the path before the collision matters).
  let workspaceAt: number | null = null;
  if (input.workspace) {
    for (let k = 0; k < segments && workspaceAt === null; k++) {
      const a = k / segments;
      if (a > stop) break;
      workspaceAt = exitWorkspace(a, (k + 1) / segments, input.workspace);
    }
    if (workspaceAt !== null && workspaceAt < stop) stop = workspaceAt;
    else workspaceAt = null;
  }

  // 3. Topology predicates at sample points before the first stop.
  let topologyAt: number | null = null;
  let topologyViolation: Violation | undefined;
  let lastTopologyOk = 0;
  if (input.topology) {
    const step = input.topologyStep ?? { length: 0.005, angle: (5 * Math.PI) / 180 };
    const samples = Math.max(segments, Math.ceil(length / step.length), Math.ceil(angle / step.angle), 1);
    for (let k = 1; k <= samples; k++) {
      const s = k / samples;
      if (s >= stop) break;
      const v = input.topology(poseAt(s));
      if (v) {
        topologyAt = s;
        topologyViolation = v;
        break;
      }
      lastTopologyOk = s;
    }
  }

  if (topologyAt !== null && topologyViolation) {
    return { kind: 'topology', toi: topologyAt, bodies: topologyViolation.bodies, point: topologyViolation.point, lastFree: poseAt(lastTopologyOk), topologyViolation, queries };
  }
  if (workspaceAt !== null) {
    return { kind: 'workspace', toi: workspaceAt, bodies: [], lastFree: workspaceAt === 0 ? poseAt(0) : freeWithin(workspaceAt), queries };
  }
  if (collisionAt !== null) {
    // Bodies within the tolerance at the contact pose; widen the search only if rounding left none.
    const at = poseAt(collisionAt);
    let info = probe(at, tolerance);
    for (let reach = 4 * tolerance; !info.bodies.length && reach < 0.05; reach *= 4) info = probe(at, reach);
    const lastFree = freeBefore(collisionAt);
    return { kind: 'collision', toi: collisionAt, bodies: info.bodies, movers: info.movers, point: info.point, lastFree, queries };
  }
  return { kind: 'free', toi: 1, bodies: [], lastFree: poseAt(1), queries };

  /** A pose before `s` whose AABB is inside the workspace. */
  function freeWithin(s: number): Pose {
    let back = speed > 0 ? tolerance / (4 * speed) : 0;
    for (let i = 0; i < 12; i++) {
      const t = Math.max(0, s - back);
      const p = poseAt(t);
      if (aabbInside(bodyAabb(p), input.workspace!) || t === 0) return p;
      back *= 4;
    }
    return poseAt(0);
  }
}
