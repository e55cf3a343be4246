/**
 * The M1 scene: dimensions, the instance's scene data, and the geometry both the world builder
 * and the solver derive from it (peg shapes, hole outlines, frames).
 *
 * Frames: the world is Y-up; the plate's top surface is horizontal at {@link PLATE.top}, centred
 * on the origin, its long side along x. The peg's own frame has y along the shaft (the cap at
 * +y) and its origin at the centre of its bounding box; standing upright at yaw ψ (a turn about
 * +y), its shaft fits a hole of the same cells turned by ψ.
 */
import { qaxisAngle, qmul, qnormalize, qrotate, yawQuat } from '../../../sim/math.ts';
import type { Quat, ShapeSpec, Vec3 } from '../../../sim/types.ts';
import { cellCentres, grownOutline, normalise, type Cell2, type Point2 } from './polyomino.ts';
import { round9, roundTo } from '../../../core/determinism.ts';

/** Side of one square of the peg's cross-section, metres. */
export const CELL = 0.02;
/** Length of the shaft, metres. */
export const SHAFT_LENGTH = 0.05;
/** Thickness of the cap, metres. */
export const CAP_THICKNESS = 0.008;
/** How far the cap overhangs the shaft on every side, metres (wider than any hole's clearance). */
export const CAP_OVERHANG = 0.006;
/** Total height of the peg, metres. */
export const PEG_HEIGHT = SHAFT_LENGTH + CAP_THICKNESS;
/** The plate: width along x, depth along z, thickness, and the height of its top surface (metres). */
export const PLATE = { width: 0.42, depth: 0.29, thickness: 0.02, top: 0.1 } as const;
/** Width of the two rails the plate rests on, under its left and right ends (metres). */
export const RAIL_WIDTH = 0.015;
/** The shaft's bottom must be this far below the plate's top for success (metres). */
export const INSERT_DEPTH = 0.015;
/** How deep the reference inserts the shaft (metres). */
export const REFERENCE_DEPTH = 0.025;
/** Minor tick spacing of the plate's rulers (metres). Hole centres and the peg's start are drawn continuously, not on these ticks. */
export const GRID = 0.005;
/** The workspace the peg must stay in (its bounding box), world metres. */
export const WORKSPACE = { min: [-0.4, 0.005, -0.32] as Vec3, max: [0.4, 0.5, 0.32] as Vec3 };
/** Where the rulers start: the front-left corner of the plate's top surface. */
export const RULER_ZERO: Vec3 = [-PLATE.width / 2, PLATE.top, PLATE.depth / 2];

/** Largest |displacement| of one translate, per axis, metres. */
export const MAX_STEP = 0.5;

/** A length in millimetres as the rules and tool results write it. */
export function mm(x: number): string {
  return `${Number((x * 1000).toFixed(1))} mm`;
}

/** A length in centimetres as the rules write it. */
export function cm(x: number): string {
  return `${Number((x * 100).toFixed(1))} cm`;
}

/** What a hole is for: the one that fits, the mirror image, or a one-square variant. */
export type HoleKind = 'match' | 'mirror' | 'variant';

/** One through-hole: its cells (in its own frame), centre and turn. */
export interface M1Hole {
  cells: Cell2[];
  /** Centre of the outline's bounding box, world metres. */
  x: number;
  z: number;
  /** Turn about +y, degrees (a whole quarter turn at L1, any angle from L3). */
  yawDeg: number;
  kind: HoleKind;
}

/** Parameters an M1 world is built from. */
export interface M1Scene {
  /** The peg's cross-section in its own frame (x, z). */
  pegCells: Cell2[];
  /** Clearance per side between the shaft and its hole, metres. */
  clearance: number;
  holes: M1Hole[];
  /** Index of the matching hole in `holes`. */
  match: number;
  /** The peg's start pose (centre and orientation). */
  start: { p: Vec3; q: Quat };
  /** Turn of the working frame about +y, degrees (0 unless the `+rot` lever is on). */
  frameYawDeg: number;
}

/** A quaternion with components rounded to 1e-12 and renormalised. */
export function tidyQuat(q: Quat): Quat {
  const r = qnormalize(q.map((v) => roundTo(v, 12)) as Quat);
  return r.map((v) => roundTo(v, 12)) as Quat;
}

/** The turn about +y by `deg` degrees. */
export function yaw(deg: number): Quat {
  return yawQuat(deg);
}

/** The working frame's unit axis `x`, `y` or `z` in world coordinates. */
export function frameAxis(frameYawDeg: number, axis: 'x' | 'y' | 'z'): Vec3 {
  const unit: Vec3 = axis === 'x' ? [1, 0, 0] : axis === 'y' ? [0, 1, 0] : [0, 0, 1];
  return qrotate(yaw(frameYawDeg), unit);
}

/** A working-frame vector in world coordinates. */
export function frameToWorld(frameYawDeg: number, v: Vec3): Vec3 {
  return qrotate(yaw(frameYawDeg), v);
}

/** A world vector in working-frame coordinates. */
export function worldToFrame(frameYawDeg: number, v: Vec3): Vec3 {
  return qrotate(yaw(-frameYawDeg), v);
}

/** The world-frame turn by `deg` degrees about the working frame's `axis`, applied to `q`. */
export function turned(q: Quat, frameYawDeg: number, axis: 'x' | 'y' | 'z', deg: number): Quat {
  return qnormalize(qmul(qaxisAngle(frameAxis(frameYawDeg, axis), (deg * Math.PI) / 180), q));
}

/** The outline of a hole in world `(x, z)`: its cells grown by the clearance, turned and placed. */
export function holePolygon(hole: M1Hole, clearance: number): Point2[] {
  const q = yaw(hole.yawDeg);
  return grownOutline(hole.cells, CELL, clearance).map(([u, v]) => {
    const w = qrotate(q, [u, 0, v]);
    return [round9(hole.x + w[0]), round9(hole.z + w[2])];
  });
}

/** Width of the dark rim drawn around each hole on the plate's top, metres. */
export const RIM_WIDTH = 0.0025;

/** The body name of hole `i`'s rim (drawn only). */
export function holeRimName(i: number): string {
  return `hole-rim-${i + 1}`;
}

/**
 * A hole's rim in the hole's own frame (origin at the hole's centre on the plate's top, turned
 * with the hole): one flat box per edge of the hole's outline, lying on the plate just outside
 * the edge, lengthened at the outline's convex corners so the rim is closed.
 */
export function holeRimShapes(cells: Cell2[], clearance: number): ShapeSpec[] {
  const loop = grownOutline(cells, CELL, clearance);
  const m = loop.length;
  const h = 0.0002;
  const shapes: ShapeSpec[] = [];
  for (let i = 0; i < m; i++) {
    const a = loop[i];
    const b = loop[(i + 1) % m];
    const c = loop[(i + 2) % m];
    const d: Point2 = [Math.sign(b[0] - a[0]), Math.sign(b[1] - a[1])];
    const next: Point2 = [Math.sign(c[0] - b[0]), Math.sign(c[1] - b[1])];
    // Counter-clockwise loop: the outside (the plate) is to the right of each edge, and a left
    // turn at the edge's end is a convex corner of the hole.
    const out: Point2 = [d[1], -d[0]];
    const convexEnd = d[0] * next[1] - d[1] * next[0] > 0;
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]) + (convexEnd ? RIM_WIDTH : 0);
    const mid: Point2 = [a[0] + (d[0] * len) / 2 + (out[0] * RIM_WIDTH) / 2, a[1] + (d[1] * len) / 2 + (out[1] * RIM_WIDTH) / 2];
    const half: Vec3 = d[0] !== 0 ? [len / 2, h, RIM_WIDTH / 2] : [RIM_WIDTH / 2, h, len / 2];
    shapes.push({ type: 'box', half: half.map(round9) as Vec3, pose: { p: [round9(mid[0]), h, round9(mid[1])], q: [0, 0, 0, 1] } });
  }
  return shapes;
}

/** Largest distance from a hole's centre to its outline, metres. */
export function holeRadius(cells: Cell2[], clearance: number): number {
  return Math.max(...grownOutline(cells, CELL, clearance).map(([u, v]) => Math.hypot(u, v)));
}

/**
 * The peg's colliders in its own frame: one box per shaft square, and a cap of one box per
 * square widened by {@link CAP_OVERHANG} on every side without a neighbour (so the cap's outline
 * is the shaft's outline grown all round, and shows the cross-section from above).
 */
export function pegShapes(cells: Cell2[]): ShapeSpec[] {
  const n = normalise(cells);
  const centres = cellCentres(n, CELL);
  const has = (i: number, j: number): boolean => n.some((c) => c[0] === i && c[1] === j);
  const shaftY = -PEG_HEIGHT / 2 + SHAFT_LENGTH / 2;
  const capY = PEG_HEIGHT / 2 - CAP_THICKNESS / 2;
  const shapes: ShapeSpec[] = centres.map(([u, v]) => ({
    type: 'box',
    half: [CELL / 2, SHAFT_LENGTH / 2, CELL / 2],
    pose: { p: [round9(u), round9(shaftY), round9(v)], q: [0, 0, 0, 1] },
  }));
  n.forEach(([i, j], k) => {
    const [u, v] = centres[k];
    const xl = u - CELL / 2 - (has(i - 1, j) ? 0 : CAP_OVERHANG);
    const xr = u + CELL / 2 + (has(i + 1, j) ? 0 : CAP_OVERHANG);
    const zl = v - CELL / 2 - (has(i, j - 1) ? 0 : CAP_OVERHANG);
    const zr = v + CELL / 2 + (has(i, j + 1) ? 0 : CAP_OVERHANG);
    shapes.push({
      type: 'box',
      half: [round9((xr - xl) / 2), CAP_THICKNESS / 2, round9((zr - zl) / 2)],
      pose: { p: [round9((xl + xr) / 2), round9(capY), round9((zl + zr) / 2)], q: [0, 0, 0, 1] },
    });
  });
  return shapes;
}

/** Largest distance from the peg's centre to any point of it, metres. */
export function pegRadius(cells: Cell2[]): number {
  const outline = grownOutline(cells, CELL, CAP_OVERHANG);
  return Math.max(...outline.map(([u, v]) => Math.hypot(u, v, PEG_HEIGHT / 2)));
}

/** The orientation in which the shaft fits the matching hole. */
export function goalQuat(scene: M1Scene): Quat {
  return yaw(scene.holes[scene.match].yawDeg);
}

/** Ruler reading of a world point: along the front ruler (x), along the left ruler (back), height above the plate top. */
export function rulerCoords(p: Vec3): { along: number; back: number; up: number } {
  return { along: p[0] - RULER_ZERO[0], back: RULER_ZERO[2] - p[2], up: p[1] - PLATE.top };
}
