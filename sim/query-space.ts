/**
 * A scaled copy of the world's colliders for geometric queries (sweeps, contacts, distances).
 *
 * Why: Rapier's (parry's) distance and contact queries are wrong for centimetre-size shapes.
 * Measured with rapier3d-compat 0.21: two boxes of 5–12 mm held 0.5 mm apart, turned about the
 * vertical, report a wrong distance in 283 of 720 poses (some negative, i.e. penetrating); convex
 * hulls of the same boxes in 107 of 720; a box against a cylinder in 36. The same poses scaled
 * up 5× or more are all exact. Queries therefore run on colliders scaled by {@link QUERY_SCALE}
 * in a separate Rapier world that is never stepped; results are scaled back.
 *
 * The copies are created lazily per body and moved to the body's current pose before use.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import { composePose } from './math.ts';
import { colliderDesc, compileShape, shapeAabb, type Aabb, type CompiledShape } from './shapes.ts';
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
      return { type: 'cylinder', radius: spec.radius * k, halfHeight: spec.halfHeight * k, ...pose };
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

/** One body's collider copies. */
export interface QueryEntry {
  name: string;
  colliders: RAPIER.Collider[];
  /** Query-space AABB of each collider at the last synced pose. */
  aabbs: Aabb[];
  /** Query-space world pose of each collider at the last synced pose (f64, as composed). */
  poses: Pose[];
  /** Query-space shapes (index-aligned with the colliders). */
  shapes: CompiledShape[];
  convex: boolean[];
  poseKey: string;
}

/** The scaled query world; see the module comment. */
export class QuerySpace {
  private readonly raw = new RAPIER.World({ x: 0, y: 0, z: 0 });
  /** Keyed by the body's (unscaled) compiled shapes array, which is stable for a body's life. */
  private readonly entries = new Map<readonly CompiledShape[], QueryEntry>();

  /** The body's collider copies, moved to `pose` (world units). */
  sync(name: string, key: readonly CompiledShape[], scaled: CompiledShape[], pose: Pose): QueryEntry {
    let e = this.entries.get(key);
    if (!e) {
      e = {
        name,
        colliders: scaled.map((sh) => this.raw.createCollider(colliderDesc({ ...sh.spec, pose: undefined }))),
        aabbs: [],
        poses: [],
        shapes: scaled,
        convex: scaled.map((sh) => sh.spec.type !== 'mesh'),
        poseKey: '',
      };
      this.entries.set(key, e);
    }
    const poseKey = `${pose.p.join(',')}|${pose.q.join(',')}`;
    if (poseKey !== e.poseKey) {
      const sp = scalePose(pose, QUERY_SCALE);
      e.poses = e.colliders.map((c, i) => {
        const at = composePose(sp, e!.shapes[i].local);
        c.setTranslation({ x: at.p[0], y: at.p[1], z: at.p[2] });
        c.setRotation({ x: at.q[0], y: at.q[1], z: at.q[2], w: at.q[3] });
        return at;
      });
      e.aabbs = e.shapes.map((sh) => shapeAabb(sh, sp));
      e.poseKey = poseKey;
    }
    return e;
  }

  /** Drops the copies of a body. */
  remove(key: readonly CompiledShape[]): void {
    const e = this.entries.get(key);
    if (!e) return;
    for (const c of e.colliders) this.raw.removeCollider(c, false);
    this.entries.delete(key);
  }

  /** Drops the copies of every body not in `live`. */
  prune(live: Set<readonly CompiledShape[]>): void {
    for (const key of [...this.entries.keys()]) if (!live.has(key)) this.remove(key);
  }

  /** Releases the WASM memory. */
  free(): void {
    this.raw.free();
  }
}
