/**
 * The query space: every body's collider geometry scaled by {@link QUERY_SCALE}, placed at the
 * body's current pose, for geometric queries (sweeps, contacts, distances).
 *
 * Why scaled: the contact queries were first Rapier's (f32), which are wrong for centimetre-size
 * shapes (two boxes of 5–12 mm held 0.5 mm apart, turned about the vertical, gave a wrong
 * distance in 283 of 720 poses; the same poses scaled up 5× or more were exact). The queries are
 * now double precision (`sim/verified-contact.ts`), where scale does not matter; the scaled
 * space stays so that sweep parameters, and so the poses sweeps report, are unchanged.
 *
 * Entries are created lazily per body and moved to the body's current pose before use.
 */
import { composePose } from './math.ts';
import { compileShape, shapeAabb, type Aabb, type CompiledShape } from './shapes.ts';
import type { Pose, ShapeSpec } from './types.ts';

/** Length factor of the query space (bricks' 1.6 mm half-heights become 32 mm). */
export const QUERY_SCALE = 20;

/** A shape spec scaled by `k` (sizes and offsets; orientations unchanged). */
export function scaleShape(spec: ShapeSpec, k: number): ShapeSpec {
  const pose = spec.pose ? { pose: { p: [spec.pose.p[0] * k, spec.pose.p[1] * k, spec.pose.p[2] * k] as [number, number, number], q: spec.pose.q } } : {};
  switch (spec.type) {
    case 'box':
      return { type: 'box', half: [spec.half[0] * k, spec.half[1] * k, spec.half[2] * k], ...pose };
    case 'ball':
      return { type: 'ball', radius: spec.radius * k, ...pose };
    case 'cylinder':
    case 'capsule':
      return { type: spec.type, radius: spec.radius * k, halfHeight: spec.halfHeight * k, ...pose };
    case 'hull':
      return { type: 'hull', points: spec.points.map((p) => [p[0] * k, p[1] * k, p[2] * k]), ...pose };
    case 'mesh':
      return { type: 'mesh', vertices: spec.vertices.map((p) => [p[0] * k, p[1] * k, p[2] * k]), indices: spec.indices, ...pose };
  }
}

/** A pose with its position scaled by `k`. */
export function scalePose(pose: Pose, k: number): Pose {
  return { p: [pose.p[0] * k, pose.p[1] * k, pose.p[2] * k], q: pose.q };
}

/** Compiled shapes of a body in query space. */
export function compileScaled(specs: ShapeSpec[]): CompiledShape[] {
  return specs.map((s) => compileShape(scaleShape(s, QUERY_SCALE)));
}

/** One body's colliders in query space. */
export interface QueryEntry {
  name: string;
  /** Query-space AABB of each collider at the last synced pose. */
  aabbs: Aabb[];
  /** Query-space world pose of each collider at the last synced pose (f64, as composed). */
  poses: Pose[];
  /** Query-space shapes (index-aligned with the poses). */
  shapes: CompiledShape[];
  convex: boolean[];
  poseKey: string;
}

/** The scaled query space; see the module comment. */
export class QuerySpace {
  /** Keyed by the body's (unscaled) compiled shapes array, which is stable for a body's life. */
  private readonly entries = new Map<readonly CompiledShape[], QueryEntry>();

  /** The body's colliders, placed at `pose` (world units). */
  sync(name: string, key: readonly CompiledShape[], scaled: CompiledShape[], pose: Pose): QueryEntry {
    let e = this.entries.get(key);
    if (!e) {
      e = { name, aabbs: [], poses: [], shapes: scaled, convex: scaled.map((sh) => sh.convex), poseKey: '' };
      this.entries.set(key, e);
    }
    const poseKey = `${pose.p.join(',')}|${pose.q.join(',')}`;
    if (poseKey !== e.poseKey) {
      const sp = scalePose(pose, QUERY_SCALE);
      e.poses = e.shapes.map((sh) => composePose(sp, sh.local));
      e.aabbs = e.shapes.map((sh) => shapeAabb(sh, sp));
      e.poseKey = poseKey;
    }
    return e;
  }

  /** Drops the entry of a body. */
  remove(key: readonly CompiledShape[]): void {
    this.entries.delete(key);
  }

  /** Drops the entries of every body not in `live`. */
  prune(live: Set<readonly CompiledShape[]>): void {
    for (const key of [...this.entries.keys()]) if (!live.has(key)) this.remove(key);
  }
}
