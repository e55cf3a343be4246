/**
 * M6 geometry: the frame's and the hook's shapes (the hook's bottom bar cut by the slanted slot
 * into two convex prisms), the orientation that lines the slot up with the frame's top bar, the
 * escape route, and the separation test.
 */
import { qaxisAngle, qmul, qnormalize } from '../../../sim/math.ts';
import type { Aabb } from '../../../sim/world.ts';
import type { Pose, Quat, ShapeSpec, Vec3 } from '../../../sim/types.ts';
import { convexHull } from '../m5-heart-slot/heart.ts';
import type { Point2 } from '../m1-chiral-peg/polyomino.ts';
import { SEPARATION, type M6Scene } from './scene.ts';

function box(min: Vec3, max: Vec3): ShapeSpec {
  return { type: 'box', half: [(max[0] - min[0]) / 2, (max[1] - min[1]) / 2, (max[2] - min[2]) / 2], pose: { p: [(max[0] + min[0]) / 2, (max[1] + min[1]) / 2, (max[2] + min[2]) / 2], q: [0, 0, 0, 1] } };
}

/** The frame's shapes (world coordinates): base block, two posts, top bar. */
export function frameShapes(f: M6Scene['frame']): ShapeSpec[] {
  const b = f.bar / 2;
  const w = f.width / 2;
  const top = f.topY + b;
  return [
    box([-w - f.bar - 0.03, 0, -0.05], [w + f.bar + 0.03, f.baseHeight, 0.05]),
    box([-w - f.bar, f.baseHeight, -b], [-w, top, b]),
    box([w, f.baseHeight, -b], [w + f.bar, top, b]),
    box([-w - f.bar, f.topY - b, -b], [w + f.bar, top, b]),
  ];
}

/** Clips a convex polygon (x, z) to the half-plane n·p ≥ d. */
function clip(poly: Point2[], n: Point2, d: number): Point2[] {
  const out: Point2[] = [];
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i];
    const b = poly[(i + 1) % poly.length];
    const da = n[0] * a[0] + n[1] * a[1] - d;
    const db = n[0] * b[0] + n[1] * b[1] - d;
    if (da >= 0) out.push(a);
    if ((da >= 0) !== (db >= 0)) {
      const t = da / (da - db);
      out.push([a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]);
    }
  }
  return out;
}

/**
 * The hook's shapes in its own frame: top bar and two side bars as boxes, and the bottom plate as
 * the two convex prisms left on either side of the slot (the slot's walls are planes through the
 * hook's y axis direction, at `slotAngleDeg` from its x axis, `slotWidth` apart).
 */
export function hookShapes(h: M6Scene['hook']): ShapeSpec[] {
  const hb = h.bar / 2;
  const z = h.length / 2;
  const y = h.height / 2;
  const shapes: ShapeSpec[] = [box([-hb, y - h.bar, -z], [hb, y, z]), box([-hb, -y + h.bar, -z], [hb, y - h.bar, -z + h.bar]), box([-hb, -y + h.bar, z - h.bar], [hb, y - h.bar, z])];
  const a = (h.slotAngleDeg * Math.PI) / 180;
  // The slot's direction u = (cos a, sin a) in (x, z); its walls are n·(p − c) = ±w/2 with n ⟂ u.
  const n: Point2 = [-Math.sin(a), Math.cos(a)];
  const c = n[1] * h.slotOffset;
  const pw = h.plateWidth / 2;
  const bar: Point2[] = [[-pw, -z], [pw, -z], [pw, z], [-pw, z]];
  for (const side of [1, -1]) {
    const piece = clip(bar, [side * n[0], side * n[1]], side * c + h.slotWidth / 2);
    if (piece.length < 3) continue;
    const hull = convexHull(piece.map(([px, pz]): Point2 => [Math.round(px * 1e9) / 1e9, Math.round(pz * 1e9) / 1e9]));
    shapes.push({ type: 'hull', points: hull.flatMap(([px, pz]): Vec3[] => [[px, -y, pz], [px, -y + h.bar, pz]]) });
  }
  return shapes;
}

/** The hook orientation (about world y) in which the slot runs along world x, the frame's top bar. */
export function alignedQuat(h: M6Scene['hook']): Quat {
  return qnormalize(qaxisAngle([0, 1, 0], (h.slotAngleDeg * Math.PI) / 180));
}

/** Where the slot's centre is, in the hook's own frame (on the bottom bar's axis). */
export function slotCentre(h: M6Scene['hook']): Vec3 {
  return [0, -h.height / 2 + h.bar / 2, h.slotOffset];
}

/**
 * The escape route: the start; turned so the slot runs along the top bar; moved so the slot is
 * right under the bar; lifted until the bottom bar is above it; then up and clear.
 */
export function routePoses(s: M6Scene): Pose[] {
  const q = alignedQuat(s.hook);
  const sc = slotCentre(s.hook);
  // In the aligned orientation the slot centre's world offset from the hook centre.
  const a = (s.hook.slotAngleDeg * Math.PI) / 180;
  const off: Vec3 = [sc[2] * Math.sin(a), sc[1], sc[2] * Math.cos(a)];
  const p0 = s.start.p;
  const under: Vec3 = [p0[0] - off[0], s.frame.topY - off[1] - s.frame.bar / 2 - s.hook.bar / 2 - 0.004, -off[2]];
  const above: Vec3 = [under[0], s.frame.topY - off[1] + s.frame.bar / 2 + s.hook.bar / 2 + 0.004, under[2]];
  const clear: Vec3 = [above[0], above[1] + 0.08, above[2]];
  return [s.start, { p: [...p0], q }, { p: under, q }, { p: above, q }, { p: clear, q }];
}

/** The pose the reference ends at: clear above the frame. */
export function goalPose(s: M6Scene): Pose {
  return routePoses(s)[4];
}

/** Whether two boxes are at least `gap` apart along some axis. */
export function boxesApart(a: Aabb, b: Aabb, gap: number): boolean {
  for (let i = 0; i < 3; i++) if (a.min[i] - b.max[i] >= gap || b.min[i] - a.max[i] >= gap) return true;
  return false;
}

/** The separation test: the hook's and the frame's top structure's bounding boxes are apart (then they cannot be linked). */
export function separated(hook: Aabb, frame: Aabb): boolean {
  return boxesApart(hook, frame, SEPARATION);
}

/** The hook turned about world y by `deg` from the aligned orientation. */
export function turnedFromAligned(h: M6Scene['hook'], deg: number): Quat {
  return qnormalize(qmul(qaxisAngle([0, 1, 0], (deg * Math.PI) / 180), alignedQuat(h)));
}
