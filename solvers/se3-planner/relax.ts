/**
 * Eroded copies of a body's shapes, for iterative constraint relaxation: planning first for a
 * thinner part (which is the same as planning among obstacles grown apart — every passage wider
 * by the erosion), then for thicker ones, each stage guided by the last stage's path.
 */
import { vadd, vscale, vsub } from '../../sim/math.ts';
import type { ShapeSpec, Vec3 } from '../../sim/types.ts';

/** Never erode a dimension below this fraction of its size (nothing vanishes). */
const KEEP = 0.2;

/** Smallest half-size (half extent, radius, half height) over a body's shapes, metres. */
export function thinnestHalfSize(shapes: ShapeSpec[]): number {
  let m = Infinity;
  for (const s of shapes) {
    if (s.type === 'box') m = Math.min(m, ...s.half);
    else if (s.type === 'ball') m = Math.min(m, s.radius);
    else if (s.type === 'cylinder') m = Math.min(m, s.radius, s.halfHeight);
    else if (s.type === 'hull') m = Math.min(m, ...hullHalf(s.points));
  }
  return Number.isFinite(m) ? m : 0;
}

function hullHalf(points: Vec3[]): Vec3 {
  const lo: Vec3 = [Infinity, Infinity, Infinity];
  const hi: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const p of points) for (let i = 0; i < 3; i++) {
    lo[i] = Math.min(lo[i], p[i]);
    hi[i] = Math.max(hi[i], p[i]);
  }
  return [(hi[0] - lo[0]) / 2, (hi[1] - lo[1]) / 2, (hi[2] - lo[2]) / 2];
}

/**
 * Each shape shrunk by `delta` on every side about its own centre (boxes, balls and cylinders
 * exactly; hulls scaled toward their centroid by `delta` over their smallest half extent),
 * never below a fifth of its size. Shape poses are kept.
 */
export function erodeShapes(shapes: ShapeSpec[], delta: number): ShapeSpec[] {
  const shrink = (h: number): number => Math.max(KEEP * h, h - delta);
  return shapes.map((s): ShapeSpec => {
    const pose = s.pose ? { pose: structuredClone(s.pose) } : {};
    switch (s.type) {
      case 'box':
        return { type: 'box', half: [shrink(s.half[0]), shrink(s.half[1]), shrink(s.half[2])], ...pose };
      case 'ball':
        return { type: 'ball', radius: shrink(s.radius), ...pose };
      case 'cylinder':
        return { type: 'cylinder', radius: shrink(s.radius), halfHeight: shrink(s.halfHeight), ...pose };
      case 'capsule':
        // The surface is the segment's radius-neighbourhood: shrinking the radius moves every side in.
        return { type: 'capsule', radius: shrink(s.radius), halfHeight: s.halfHeight, ...pose };
      case 'hull': {
        const c = vscale(s.points.reduce((acc, p) => vadd(acc, p), [0, 0, 0] as Vec3), 1 / s.points.length);
        const h = Math.min(...hullHalf(s.points));
        const k = Math.max(KEEP, 1 - delta / h);
        return { type: 'hull', points: s.points.map((p) => vadd(c, vscale(vsub(p, c), k))), ...pose };
      }
      case 'mesh':
        return structuredClone(s);
    }
  });
}

/** Each shape scaled by `factor` about the body's origin (sizes and offsets; orientations kept). */
export function scaleShapes(shapes: ShapeSpec[], factor: number): ShapeSpec[] {
  return shapes.map((s): ShapeSpec => {
    const pose = s.pose ? { pose: { p: vscale(s.pose.p, factor), q: [...s.pose.q] as [number, number, number, number] } } : {};
    switch (s.type) {
      case 'box':
        return { type: 'box', half: vscale(s.half, factor), ...pose };
      case 'ball':
        return { type: 'ball', radius: s.radius * factor, ...pose };
      case 'cylinder':
        return { type: 'cylinder', radius: s.radius * factor, halfHeight: s.halfHeight * factor, ...pose };
      case 'capsule':
        return { type: 'capsule', radius: s.radius * factor, halfHeight: s.halfHeight * factor, ...pose };
      case 'hull':
        return { type: 'hull', points: s.points.map((p) => vscale(p, factor)), ...pose };
      case 'mesh':
        return { type: 'mesh', vertices: s.vertices.map((p) => vscale(p, factor)), indices: s.indices.map((t) => [...t] as [number, number, number]), ...pose };
    }
  });
}
