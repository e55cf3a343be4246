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
 * **Starting in overlap** (the contract). Obstacles the body penetrates at its start by more
 * than the tolerance are reported in `startOverlap` with the deepest penetration. Against them
 * the touching shape is shrunk by its penetration plus one tolerance, so moving out of the
 * overlap or along it is possible, and whatever the sweep reports as free (the target, or the
 * last free pose) is checked not to overlap any of them deeper than at the start plus the
 * tolerance; if it would, the sweep stops at once (`toi` 0, last free pose = the start). An
 * overlap Rapier cannot measure keeps the full shape: the move stops at once. A strict sweep
 * (`strictInitialContacts`) stops at once on any start contact or overlap.
 *
 * **No Rapier answer is trusted alone** (`sim/verified-contact.ts`): a null from
 * `contactShape` — "cannot tell", as under penetration — is settled by an intersection test and
 * an f64 GJK distance; distances within {@link VERIFY_BAND} tolerances of contact are recomputed
 * in f64; an advance that lands inside (a wrong normal overshot) backs off by bisection; the last
 * free pose must show {@link FREE_CLEARANCE} tolerances of clearance.
 *
 * Queries go through each obstacle collider directly (not Rapier's broad phase, which is only
 * refreshed by a simulation step), so they see poses set since the last step.
 */
import { composePose, interpolatePose, qangle, qmul, qrotate, qslerp, vadd, vdist, vlerp, vsub } from './math.ts';
import { aabbInside, aabbOverlap, erodedSpec, inflateAabb, queryShapeOf, shapeAabb, unionAabb, type Aabb, type CompiledShape } from './shapes.ts';
import type { Pose, Quat, Vec3, Violation } from './types.ts';
import { specRadius, verifiedContact, type ColliderGeometry, type QueryGeometry, type VerifiedContact } from './verified-contact.ts';

/** One collider the moving body may hit, with its exact geometry (`spec` in the collider's frame, world `pose`). */
export interface SweepObstacle extends ColliderGeometry {
  /** Name of the body owning the collider. */
  body: string;
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
  /**
   * Obstacles the body overlaps at its start by more than the tolerance, and the deepest such
   * penetration (Infinity where Rapier could not measure it).
   */
  startOverlap?: { bodies: string[]; depth: number };
}

/** Erosion of a body against what it touches at its start, in contact tolerances (plus the initial penetration). */
export const INITIAL_CONTACT_MARGIN = 5;
/**
 * Clearance, in contact tolerances, that a last free pose must show to every obstacle in the
 * query space: a margin over the distance queries' own error (micrometres for a cylinder near a
 * box corner), so that a pose reported free is free by an exact computation too.
 */
export const FREE_CLEARANCE = 0.1;
/**
 * Distance, in contact tolerances, within which Rapier's answer is recomputed in double
 * precision (its error near contact reaches tens of micrometres for cylinders).
 */
export const VERIFY_BAND = 1.5;
/** Upper bound on proxy checks per sweep; past it a hit is accepted where it stands (still conservative). */
const CAST_BUDGET = 20000;

/** The point `start + disp · x`. */
function along(start: Vec3, disp: Vec3, x: number): Vec3 {
  return [start[0] + disp[0] * x, start[1] + disp[1] * x, start[2] + disp[2] * x];
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

  /**
   * Contact query that treats "cannot tell" as contact: Rapier's `contactShape` also returns
   * null when the shapes interpenetrate and its penetration solver gives up, so a null is
   * followed by an intersection test. Returns null when the shapes are farther apart than
   * `reach`; `distance` is -Infinity for an overlap of unknown depth.
   */
  const contact = (ob: SweepObstacle, query: QueryGeometry, pos: Vec3, rot: Quat, reach: number): VerifiedContact | null => {
    queries++;
    return verifiedContact(ob, query, pos, rot, reach, VERIFY_BAND * tolerance);
  };
  const geometry = shapes.map((sh): QueryGeometry | null => (sh.query ? { query: sh.query, spec: sh.spec, radius: specRadius(sh.spec) } : null));

  // What the body touches or overlaps at its start, per pair of moving shape and obstacle (a
  // compound resting on a support with one shape still meets that support with its other shapes
  // at full size). Pairs within the tolerance (touching, or pressed in by at most the tolerance)
  // are checked with the shape shrunk by a few tolerances more than its penetration: lifting off
  // and sliding along are free. Deeper overlaps are shrunk by their depth plus one tolerance
  // and the free pose reported is checked not to be deeper than the start (see the module
  // comment); an overlap of unknown depth keeps the full shape, so the move stops at once.
  const pairKey = (i: number, j: number): number => i * obstacles.length + j;
  const obstacleIndex = new Map(obstacles.map((ob, j) => [ob, j]));
  /** Initial penetration (≥ 0; Infinity if unknown) of pairs touching or overlapping at the start. */
  const startDepth = new Map<number, number>();
  const overlapBodies = new Map<string, number>();
  for (const [i, sh] of shapes.entries()) {
    if (!sh.query) continue;
    const sp = composePose(from, sh.local);
    const box = inflateAabb(shapeAabb(sh, from), tolerance);
    for (const [j, ob] of obstacles.entries()) {
      if (!aabbOverlap(box, ob.aabb)) continue;
      const c = contact(ob, geometry[i]!, sp.p, sp.q, tolerance);
      if (!c) continue;
      const depth = Math.max(0, -c.distance);
      startDepth.set(pairKey(i, j), depth);
      if (depth > tolerance) overlapBodies.set(ob.body, Math.max(overlapBodies.get(ob.body) ?? 0, depth));
    }
  }
  const erodedCache = new Map<string, QueryGeometry | null>();
  const erodedBy = (i: number, delta: number): QueryGeometry | null => {
    const key = `${i}:${delta}`;
    if (!erodedCache.has(key)) {
      const spec = erodedSpec(shapes[i], delta);
      const query = spec && queryShapeOf(spec);
      erodedCache.set(key, spec && query ? { query, spec, radius: specRadius(spec) } : null);
    }
    return erodedCache.get(key)!;
  };
  const queryOf = (i: number, ob: SweepObstacle): QueryGeometry | null => {
    if (!startDepth.size || input.strictInitialContacts) return geometry[i];
    const depth = startDepth.get(pairKey(i, obstacleIndex.get(ob)!));
    if (depth === undefined || depth === Infinity) return geometry[i];
    if (depth > tolerance) return erodedBy(i, depth + tolerance);
    // The margin of a few tolerances keeps a body sliding along a support from grazing the
    // threshold, where the refinement would need many tiny segments.
    return erodedBy(i, INITIAL_CONTACT_MARGIN * tolerance + depth);
  };

  const bodyAabb = (p: Pose): Aabb => unionAabb(shapes.map((sh) => shapeAabb(sh, p)));

  /**
   * Distance queries at an exact pose: bodies within `reach`, nearest point, and whether any pair
   * is closer than `clearance` (overlap, or too close to call free).
   */
  const probe = (p: Pose, reach: number, clearance = 0): { bodies: string[]; movers: number[]; point?: Vec3; intersects: boolean } => {
    const near = new Set<string>();
    const movers = new Set<number>();
    let best = Infinity;
    let point: Vec3 | undefined;
    let intersects = false;
    for (let i = 0; i < shapes.length; i++) {
      const sh = shapes[i];
      if (!sh.query) continue;
      const sp = composePose(p, sh.local);
      const box = inflateAabb(shapeAabb(sh, p), reach);
      for (const ob of obstacles) {
        const query = queryOf(i, ob);
        if (!query || !aabbOverlap(box, ob.aabb)) continue;
        const hit = contact(ob, query, sp.p, sp.q, reach);
        if (!hit) continue;
        near.add(ob.body);
        movers.add(i);
        if (hit.distance <= clearance) intersects = true;
        if (hit.point && (hit.distance < best || point === undefined)) {
          best = hit.distance;
          point = hit.point;
        }
      }
    }
    return { bodies: [...near].sort(), movers: [...movers].sort((x, y) => x - y), point, intersects };
  };

  /** A pose before `s` verified free by an exact test (stepping back if rounding put it in contact). */
  const freeBefore = (s: number): Pose => {
    let back = speed > 0 ? tolerance / (4 * speed) : 0;
    for (let i = 0; i < 12; i++) {
      const t = Math.max(0, s - back);
      const p = poseAt(t);
      if (!probe(p, FREE_CLEARANCE * tolerance, FREE_CLEARANCE * tolerance).intersects) return p;
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
  const approach = (ob: SweepObstacle, query: QueryGeometry, start: Vec3, rot: Quat, disp: Vec3, w: number): number | null => {
    const len = Math.hypot(disp[0], disp[1], disp[2]);
    let t = 0;
    // Against a mesh each step only advances by the gap (the slope bound is |disp|), so sliding
    // past a mesh wall at a 1 mm gap takes one step per millimetre of travel: give meshes far
    // more steps before the conservative give-up (which reports a contact).
    const maxIterations = ob.convex ? 64 : 4096;
    let previous = -1;
    for (let iter = 0; iter < maxIterations; iter++) {
      const hit = contact(ob, query, along(start, disp, t), rot, w + len * (1 - t) + eps);
      if (!hit) return null;
      const gap = hit.distance - w;
      if (gap <= eps) return previous >= 0 && gap < -eps ? backOff(ob, query, start, rot, disp, len, w, previous, t) : t;
      if (len < 1e-12) return null;
      let rate = len;
      if (ob.convex && hit.normal) {
        const n = hit.normal;
        const closing = -(disp[0] * n[0] + disp[1] * n[1] + disp[2] * n[2]);
        if (closing <= 0) return null;
        // A hair above the measured slope absorbs rounding in the normal.
        rate = Math.min(len, closing * 1.001 + 1e-6 * len);
      }
      previous = t;
      t += gap / rate;
      if (t >= 1) {
        // The end of the segment is the last chance to meet it: look there before calling it free.
        const end = contact(ob, query, along(start, disp, 1), rot, w + eps);
        return end ? backOff(ob, query, start, rot, disp, len, w, previous, 1) : null;
      }
    }
    return t;
  };

  /**
   * An advance from `lo` (gap > eps) landed at `hi` inside the band (or inside the obstacle):
   * the normal was off. Bisect back to the first parameter within `w + eps`. (Defined once per
   * sweep, not per approach: closures created in the hot loop cost a third of a sweep.)
   */
  function backOff(ob: SweepObstacle, query: QueryGeometry, start: Vec3, rot: Quat, disp: Vec3, len: number, w: number, lo: number, hi: number): number {
    for (let k = 0; k < 60 && (hi - lo) * len > eps / 2; k++) {
      const mid = (lo + hi) / 2;
      const m = contact(ob, query, along(start, disp, mid), rot, w + eps);
      if (m && m.distance - w <= eps) hi = mid;
      else lo = mid;
    }
    return hi;
  }

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
    for (let i = 0; i < shapes.length; i++) {
      const sh = shapes[i];
      if (!sh.query) continue;
      const w = sh.radius * chord;
      widest = Math.max(widest, w);
      const r = qmul(qm, sh.local.q);
      const start = vadd(pa, qrotate(qm, sh.local.p));
      const box = inflateAabb(unionAabb([shapeAabb(sh, { p: pa, q: qm }), shapeAabb(sh, { p: pb, q: qm })]), w + tolerance);
      for (const ob of obstacles) {
        const query = queryOf(i, ob);
        if (!query || !aabbOverlap(box, ob.aabb)) continue;
        budget--;
        const t = approach(ob, query, start, r, disp, w);
        if (t !== null && t < tMin) tMin = t;
      }
    }
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

  const startOverlap = overlapBodies.size ? { bodies: [...overlapBodies.keys()].sort(), depth: Math.max(...overlapBodies.values()) } : undefined;
  let outcome: SweepOutcome;
  if (topologyAt !== null && topologyViolation) {
    outcome = { kind: 'topology', toi: topologyAt, bodies: topologyViolation.bodies, point: topologyViolation.point, lastFree: poseAt(lastTopologyOk), topologyViolation, queries };
  } else if (workspaceAt !== null) {
    outcome = { kind: 'workspace', toi: workspaceAt, bodies: [], lastFree: workspaceAt === 0 ? poseAt(0) : freeWithin(workspaceAt), queries };
  } else if (collisionAt !== null) {
    // Bodies within the tolerance at the contact pose; widen the search only if rounding left none.
    const at = poseAt(collisionAt);
    let info = probe(at, tolerance);
    for (let reach = 4 * tolerance; !info.bodies.length && reach < 0.05; reach *= 4) info = probe(at, reach);
    const lastFree = freeBefore(collisionAt);
    outcome = { kind: 'collision', toi: collisionAt, bodies: info.bodies, movers: info.movers, point: info.point, lastFree, queries };
  } else {
    outcome = { kind: 'free', toi: 1, bodies: [], lastFree: poseAt(1), queries };
  }
  if (startOverlap) {
    // The start-in-overlap contract: nothing reported free is deeper than the start.
    const deeper = deeperThanStart(outcome.lastFree);
    if (deeper.length) outcome = { kind: 'collision', toi: 0, bodies: deeper, movers: [], lastFree: poseAt(0), queries };
    outcome.startOverlap = startOverlap;
  }
  outcome.queries = queries;
  return outcome;

  /**
   * Bodies that the body at `p` overlaps deeper (by more than the tolerance) than at the start,
   * among those it overlapped at the start; depth per body is the deepest of its shape pairs.
   */
  function deeperThanStart(p: Pose): string[] {
    const out: string[] = [];
    for (const [body, startDepthOfBody] of overlapBodies) {
      let deepestNow = 0;
      shapes.forEach((sh, i) => {
        if (!geometry[i]) return;
        const sp = composePose(p, sh.local);
        for (const ob of obstacles) {
          if (ob.body !== body) continue;
          const c = contact(ob, geometry[i]!, sp.p, sp.q, 0);
          if (c) deepestNow = Math.max(deepestNow, -c.distance);
        }
      });
      if (startDepthOfBody !== Infinity && deepestNow > startDepthOfBody + tolerance) out.push(body);
    }
    return out.sort();
  }

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
