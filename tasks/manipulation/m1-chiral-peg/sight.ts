/**
 * What the first view of an M1 instance can see: whether the held peg, where it starts, stands
 * in front of a hole or of a ruler's labels in the picture. M1 hides nothing on purpose (its
 * L7 lever turns the working frame), so the generator re-draws a start that would hide one
 * (filter `holes-and-rulers-in-sight`); the view rule then measures the rendered first view.
 *
 * Geometry only: the peg's corners, the holes' outlines and a band beside each ruler (where its
 * labels stand) are projected through the first camera, and their convex hulls are tested for
 * overlap with a margin in pixels.
 */
import { cameraFrame, DEFAULT_FOV } from '../../../render/camera-frame.ts';
import type { CameraSpec } from '../../../render/camera-spec.ts';
import { qrotate, transformPoint, vadd } from '../../../sim/math.ts';
import type { RulerSpec, Vec3 } from '../../../sim/types.ts';
import { holePolygon, PLATE, pegShapes, type M1Scene } from './scene.ts';

type P2 = [number, number];

/** How far (metres) beside a ruler its labels may reach, on the side its ticks point to. */
const LABEL_BAND = 0.045;
/** Least gap (pixels of a 768-pixel picture) between the peg and a hole or a ruler's label band. */
const MARGIN_PX = 6;

/** Projects world points to pixels of a square picture of `size` pixels (y down). */
function projector(camera: CameraSpec, size: number): (p: Vec3) => P2 {
  const f = cameraFrame(camera);
  const scale = size / 2 / Math.tan((((camera.fov ?? DEFAULT_FOV) * Math.PI) / 180) / 2);
  return (p) => {
    const d: Vec3 = [p[0] - f.position[0], p[1] - f.position[1], p[2] - f.position[2]];
    const depth = -(d[0] * f.back[0] + d[1] * f.back[1] + d[2] * f.back[2]);
    const x = d[0] * f.right[0] + d[1] * f.right[1] + d[2] * f.right[2];
    const y = d[0] * f.up[0] + d[1] * f.up[1] + d[2] * f.up[2];
    return [size / 2 + (scale * x) / depth, size / 2 - (scale * y) / depth];
  };
}

/** The convex hull of points (monotone chain), counter-clockwise. */
function hull(points: P2[]): P2[] {
  const p = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (p.length < 3) return p;
  const cross = (o: P2, a: P2, b: P2): number => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: P2[] = [];
  for (const q of p) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], q) <= 0) lower.pop();
    lower.push(q);
  }
  const upper: P2[] = [];
  for (const q of [...p].reverse()) {
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], q) <= 0) upper.pop();
    upper.push(q);
  }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)];
}

/** Whether two convex polygons come closer than `margin` pixels (separating axis test, the gap widened by the margin). */
function closerThan(a: P2[], b: P2[], margin: number): boolean {
  for (const poly of [a, b]) {
    for (let i = 0; i < poly.length; i++) {
      const p = poly[i];
      const q = poly[(i + 1) % poly.length];
      const n: P2 = [q[1] - p[1], p[0] - q[0]];
      const len = Math.hypot(n[0], n[1]);
      if (len === 0) continue;
      const dot = (v: P2): number => (v[0] * n[0] + v[1] * n[1]) / len;
      const ra = a.map(dot);
      const rb = b.map(dot);
      if (Math.max(...ra) + margin < Math.min(...rb) || Math.max(...rb) + margin < Math.min(...ra)) return false;
    }
  }
  return true;
}

/** The peg's corners at its start pose, world metres. */
function pegCorners(scene: M1Scene): Vec3[] {
  const out: Vec3[] = [];
  for (const sh of pegShapes(scene.pegCells)) {
    if (sh.type !== 'box' || !sh.pose) continue;
    for (let c = 0; c < 8; c++) {
      const local = vadd(sh.pose.p, qrotate(sh.pose.q, [(c & 1 ? 1 : -1) * sh.half[0], (c & 2 ? 1 : -1) * sh.half[1], (c & 4 ? 1 : -1) * sh.half[2]]));
      out.push(transformPoint(scene.start, local));
    }
  }
  return out;
}

/** The band beside a ruler where its labels stand: the ruler's ends and the same pushed out along its tick direction. */
function labelBand(r: RulerSpec): Vec3[] {
  const t = r.tickDir ?? [0, 0, 1];
  const push = (p: Vec3): Vec3 => [p[0] + t[0] * LABEL_BAND, p[1] + t[1] * LABEL_BAND, p[2] + t[2] * LABEL_BAND];
  return [r.from, r.to, push(r.from), push(r.to)];
}

/**
 * What the peg hides in the first view, as sentences (empty when it hides nothing): a hole or
 * a ruler's labels that its projection comes within a few pixels of.
 */
export function hiddenByPeg(scene: M1Scene, camera: CameraSpec, rulers: RulerSpec[]): string[] {
  const size = 768;
  const project = projector(camera, size);
  const peg = hull(pegCorners(scene).map(project));
  const out: string[] = [];
  scene.holes.forEach((h, i) => {
    const outline = holePolygon(h, scene.clearance).map(([x, z]): Vec3 => [x, PLATE.top, z]);
    if (closerThan(peg, hull(outline.map(project)), MARGIN_PX)) out.push(`the peg stands in front of hole ${i + 1} in the first view`);
  });
  rulers.forEach((r, i) => {
    if (closerThan(peg, hull(labelBand(r).map(project)), MARGIN_PX)) out.push(`the peg stands in front of ruler ${i + 1}'s labels in the first view`);
  });
  return out;
}
