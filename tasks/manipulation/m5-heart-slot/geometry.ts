/**
 * M5 geometry derived from the scene: the part's colliders (the two convex halves of its heart,
 * as prisms), the openings' outlines on the wall and the wall's pieces (the plate-with-holes
 * builder, stood up across z), the orientations that fit, the route, and the straight-line and
 * edge-on checks.
 */
import { qaxisAngle, qmul, qnormalize } from '../../../sim/math.ts';
import type { Pose, Quat, ShapeSpec, Vec3 } from '../../../sim/types.ts';
import { plateGeometry, type PlateGeometry } from '../m1-chiral-peg/plate-geometry.ts';
import type { Point2 } from '../m1-chiral-peg/polyomino.ts';
import { extentAlong, grownHeart, heart, inside, longestBar } from './heart.ts';
import { WORKSPACE, type M5Opening, type M5Scene } from './scene.ts';

function r9(x: number): number {
  return Math.round(x * 1e9) / 1e9 + 0;
}

/** The part's colliders in its own frame: each convex half of the heart as a prism `thickness` deep. */
export function partShapes(s: M5Scene): ShapeSpec[] {
  const h = heart(s.part.width, s.part.height);
  const t = s.part.thickness / 2;
  const prism = (pts: Point2[]): ShapeSpec => ({ type: 'hull', points: pts.flatMap(([x, y]): Vec3[] => [[x, y, -t], [x, y, t]]) });
  return [prism(h.right), prism(h.right.map(([x, y]): Point2 => [r9(-x), y]))];
}

/** Turns a point by `deg` about the origin (counter-clockwise). */
function turn([u, v]: Point2, deg: number): Point2 {
  const a = (deg * Math.PI) / 180;
  const c = Math.cos(a);
  const s = Math.sin(a);
  return [u * c - v * s, u * s + v * c];
}

/** An opening's outline in world (x, y): its heart grown by the clearance, turned and placed. */
export function openingPolygon(o: M5Opening, clearance: number): Point2[] {
  return grownHeart(heart(o.width, o.height), clearance).map((p) => {
    const [u, v] = turn(p, o.turnDeg);
    return [r9(o.x + u), r9(o.y + v)];
  });
}

/** Largest distance from an opening's centre to its outline, metres. */
export function openingRadius(o: Pick<M5Opening, 'width' | 'height'>, clearance: number): number {
  return Math.max(...grownHeart(heart(o.width, o.height), clearance).map(([u, v]) => Math.hypot(u, v)));
}

/** The orientation of the wall bodies: the plate builder's (x, z) plane stood up as world (x, −y). */
export const WALL_TURN: Quat = [Math.SQRT1_2, 0, 0, Math.SQRT1_2];

/** The wall's geometry in its own frame (placed at world z with {@link WALL_TURN}; world y is the plate's −z). */
export function wallGeometry(s: M5Scene): PlateGeometry {
  const holes = s.wall.openings.map((o) => openingPolygon(o, s.clearance).map(([x, y]): Point2 => [x, -y]));
  const t = s.wall.thickness / 2;
  return plateGeometry({ x0: WORKSPACE.min[0], x1: WORKSPACE.max[0], z0: -WORKSPACE.max[1], z1: 0 }, holes, -t, t);
}

/** The orientation in which the part's heart lies on an opening's (face-on, its z along the wall's normal). */
export function fitQuat(o: M5Opening): Quat {
  return qnormalize(qaxisAngle([0, 0, 1], (o.turnDeg * Math.PI) / 180));
}

/** The other orientation of the family: turned a half turn about the heart's symmetry axis. */
export function flippedFit(o: M5Opening): Quat {
  const axis: Vec3 = [-Math.sin((o.turnDeg * Math.PI) / 180), Math.cos((o.turnDeg * Math.PI) / 180), 0];
  return qnormalize(qmul(qaxisAngle(axis, Math.PI), fitQuat(o)));
}

/** The matching opening. */
export function match(s: M5Scene): M5Opening {
  return s.wall.openings.find((o) => o.kind === 'match')!;
}

/** Largest distance from the part's centre to any of its points, metres. */
export function partRadius(s: M5Scene): number {
  return Math.hypot(s.part.width / 2, s.part.height / 2, s.part.thickness / 2);
}

/** The route the reference follows: the start, the part face-on in front of the matching opening, behind it, the goal. */
export function routePoses(s: M5Scene): Pose[] {
  const m = match(s);
  const off = s.part.thickness / 2 + s.wall.thickness / 2 + 0.02;
  const q = fitQuat(m);
  return [s.start, { p: [m.x, m.y, s.wall.z + off], q }, { p: [m.x, m.y, s.wall.z - off], q }, s.goal];
}

/** The whole part must be behind this z for success (the wall's back face, less a millimetre). */
export function finishZ(s: M5Scene): number {
  return s.wall.z - s.wall.thickness / 2 - 0.001;
}

/**
 * Why the straight move of the part's centre from `a` to `b` might not be refused, or null when
 * it is sure to be: where the centre crosses the wall's middle plane it is in solid wall (outside
 * every opening by a millimetre, inside the wall's edges) — and the centre of the heart's
 * bounding box is inside the block, so the block would be in the wall there.
 */
export function straightLineGap(s: M5Scene, a: Pose, b: Pose): string | null {
  const t = (s.wall.z - a.p[2]) / (b.p[2] - a.p[2]);
  if (!(t > 0 && t < 1)) return 'the straight line does not cross the wall';
  const x = a.p[0] + t * (b.p[0] - a.p[0]);
  const y = a.p[1] + t * (b.p[1] - a.p[1]);
  for (const o of s.wall.openings) {
    const poly = openingPolygon(o, s.clearance + 0.001);
    if (inside(poly, x, y)) return "the straight line passes the block's centre through an opening";
  }
  if (x < WORKSPACE.min[0] || x > WORKSPACE.max[0] || y < WORKSPACE.min[1] || y > WORKSPACE.max[1]) return 'the straight line crosses the wall outside its edges';
  return null;
}

const edgeOnCache = new Map<string, { bar: number; least: number }>();

/**
 * The edge-on check: the longest straight bar as thick as the part that fits the opening, and
 * the part's least extent across its own plane. An edge-on part is a bar that long and that
 * thick, so it passes only if the first exceeds the second. Cached by the numbers it depends on.
 */
export function edgeOn(part: M5Scene['part'], o: Pick<M5Opening, 'width' | 'height'>, clearance: number): { bar: number; least: number } {
  const key = JSON.stringify([part, o.width, o.height, clearance]);
  let hit = edgeOnCache.get(key);
  if (!hit) {
    const outline = heart(part.width, part.height).outline;
    let least = Infinity;
    for (let deg = 0; deg < 180; deg += 1) least = Math.min(least, extentAlong(outline, (deg * Math.PI) / 180));
    hit = { bar: longestBar(grownHeart(heart(o.width, o.height), clearance), part.thickness), least };
    edgeOnCache.set(key, hit);
  }
  return hit;
}

const faceOnCache = new Map<string, boolean>();

/** Whether the part's heart (face-on, in some turn and place) fits inside an opening: sampled (turns every 3°, offsets every 2 mm within ±10 mm), for decoys; cached. */
export function fitsFaceOn(part: M5Scene['part'], o: Pick<M5Opening, 'width' | 'height'>, clearance: number): boolean {
  const key = JSON.stringify([part, o.width, o.height, clearance]);
  let hit = faceOnCache.get(key);
  if (hit === undefined) {
    hit = sampleFaceOn(part, o, clearance);
    faceOnCache.set(key, hit);
  }
  return hit;
}

function sampleFaceOn(part: M5Scene['part'], o: Pick<M5Opening, 'width' | 'height'>, clearance: number): boolean {
  const poly = grownHeart(heart(o.width, o.height), clearance);
  const shape = heart(part.width, part.height).outline;
  // Turns every 3°, offsets every 2 mm: the decoys miss by far more than that.
  for (let deg = 0; deg < 360; deg += 3) {
    const pts = shape.map((p) => turn(p, deg));
    for (let dx = -0.01; dx <= 0.01; dx += 0.002) {
      for (let dy = -0.01; dy <= 0.01; dy += 0.002) {
        if (pts.every(([x, y]) => inside(poly, x + dx, y + dy))) return true;
      }
    }
  }
  return false;
}
