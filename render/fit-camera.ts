import { SpaceActError } from '../core/errors.ts';
import type { Pose, Quat, SceneDescription, ShapeSpec, Vec3 } from '../sim/types.ts';
import { NAMED_VIEWS, type CameraSpec } from './camera-spec.ts';
import { DEFAULT_FOV } from './camera-frame.ts';

function rotate(q: Quat, v: Vec3): Vec3 {
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  const [x, y, z, w] = [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
  // v + 2w(u×v) + 2u×(u×v), u = (x, y, z)
  const cx = y * v[2] - z * v[1];
  const cy = z * v[0] - x * v[2];
  const cz = x * v[1] - y * v[0];
  return [
    v[0] + 2 * (w * cx + y * cz - z * cy),
    v[1] + 2 * (w * cy + z * cx - x * cz),
    v[2] + 2 * (w * cz + x * cy - y * cx),
  ];
}

function apply(pose: Pose, v: Vec3): Vec3 {
  const r = rotate(pose.q, v);
  return [r[0] + pose.p[0], r[1] + pose.p[1], r[2] + pose.p[2]];
}

/** Points that bound a shape in its own frame (box corners, hull points, …) and a radius to add around each. */
function shapePoints(s: ShapeSpec): { points: Vec3[]; pad: number } {
  const corners = (h: Vec3): Vec3[] =>
    [0, 1, 2, 3, 4, 5, 6, 7].map((i) => [i & 1 ? h[0] : -h[0], i & 2 ? h[1] : -h[1], i & 4 ? h[2] : -h[2]]);
  switch (s.type) {
    case 'box':
      return { points: corners(s.half), pad: 0 };
    case 'ball':
      return { points: [[0, 0, 0]], pad: s.radius };
    case 'cylinder':
      return { points: corners([s.radius, s.halfHeight, s.radius]), pad: 0 };
    case 'capsule':
      return { points: [[0, s.halfHeight, 0], [0, -s.halfHeight, 0]], pad: s.radius };
    case 'hull':
      return { points: s.points, pad: 0 };
    case 'mesh':
      return { points: s.vertices, pad: 0 };
  }
}

/** A sphere around the scene's visible bodies and its rulers, or null for an empty scene. */
export function sceneSphere(scene: SceneDescription): { center: Vec3; radius: number } | null {
  const pts: { p: Vec3; pad: number }[] = [];
  for (const b of scene.bodies) {
    if (!b.visible) continue;
    for (const s of b.visual ? [...b.shapes, ...b.visual] : b.shapes) {
      const { points, pad } = shapePoints(s);
      for (const p of points) pts.push({ p: apply(b.pose, s.pose ? apply(s.pose, p) : p), pad });
    }
  }
  for (const r of scene.rulers) pts.push({ p: r.from, pad: 0 }, { p: r.to, pad: 0 });
  if (pts.length === 0) return null;
  const lo: Vec3 = [Infinity, Infinity, Infinity];
  const hi: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const { p, pad } of pts) {
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], p[k] - pad);
      hi[k] = Math.max(hi[k], p[k] + pad);
    }
  }
  const center: Vec3 = [(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2];
  const radius = Math.max(...pts.map(({ p, pad }) => Math.hypot(p[0] - center[0], p[1] - center[1], p[2] - center[2]) + pad));
  return { center, radius: Math.max(radius, 1e-3) };
}

/**
 * A camera that shows the whole scene from a named view (default `iso`): aimed at the centre of
 * the scene's bounds, far enough that the bounding sphere fits the field of view.
 */
export function fitCamera(scene: SceneDescription, view = 'iso', fov = DEFAULT_FOV): CameraSpec {
  const angles = NAMED_VIEWS[view];
  if (!angles) {
    throw new SpaceActError('invalid-argument', `unknown view ${JSON.stringify(view)}; one of ${Object.keys(NAMED_VIEWS).join(', ')}`, {
      view,
    });
  }
  const sphere = sceneSphere(scene) ?? { center: [0, 0, 0] as Vec3, radius: 0.5 };
  const distance = (1.08 * sphere.radius) / Math.sin(((fov / 2) * Math.PI) / 180);
  return { ...angles, distance, target: sphere.center, fov, orthoHeight: 2.16 * sphere.radius };
}
