/**
 * Drawn-only markers for held-part tasks: coloured axis arrows showing the working frame the
 * tools use (red x, green y, blue z), and small arrows fixed to a part for its own tool frame.
 * Neither collides with anything.
 */
import { qmul, qnormalize } from '../../../sim/math.ts';
import type { BodySpec, Pose, Quat, ShapeSpec, Vec3 } from '../../../sim/types.ts';

/** Colours of the x, y and z arrows, and of the origin cube. */
export const AXIS_COLORS = { x: '#d62728', y: '#2ca02c', z: '#1f77b4', origin: '#f4f4f4' } as const;

const H = Math.SQRT1_2;
/** Orientations taking local +x onto local +x, +y and +z. */
const ONTO: Record<'x' | 'y' | 'z', Quat> = { x: [0, 0, 0, 1], y: [0, 0, H, H], z: [0, -H, 0, H] };

/** An arrow along local +x from the origin: a square shaft and a pyramid head. */
export function arrowShapes(length: number, pose: Pose = { p: [0, 0, 0], q: [0, 0, 0, 1] }): ShapeSpec[] {
  const r = length * 0.04;
  const head = length * 0.1;
  const tip = length * 1.27;
  const shaft: ShapeSpec = { type: 'box', half: [length / 2, r, r], pose: { p: [length / 2, 0, 0], q: [0, 0, 0, 1] } };
  const cone: ShapeSpec = {
    type: 'hull',
    points: [
      [length, head, head],
      [length, head, -head],
      [length, -head, head],
      [length, -head, -head],
      [tip, 0, 0],
    ],
  };
  // Compose each piece with the arrow's own pose.
  return [shaft, cone].map((s) => {
    const local = s.pose ?? { p: [0, 0, 0] as Vec3, q: [0, 0, 0, 1] as Quat };
    const q = qnormalize(qmul(pose.q, local.q));
    const rotated = rotate(pose.q, local.p);
    return { ...s, pose: { p: [pose.p[0] + rotated[0], pose.p[1] + rotated[1], pose.p[2] + rotated[2]], q } } as ShapeSpec;
  });
}

function rotate(q: Quat, v: Vec3): Vec3 {
  const [x, y, z, w] = q;
  const tx = 2 * (y * v[2] - z * v[1]);
  const ty = 2 * (z * v[0] - x * v[2]);
  const tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
}

/**
 * Bodies drawing a frame's three axes at `origin` (world), for a frame turned by `frame`
 * (world ← frame). Named `<prefix>-x`, `-y`, `-z` and `-origin`.
 */
export function frameArrowBodies(prefix: string, origin: Vec3, frame: Quat, length: number): BodySpec[] {
  const body = (name: string, q: Quat, color: string, shapes: ShapeSpec[]): BodySpec => ({ name, kind: 'static', collides: false, pose: { p: [...origin], q }, shapes, color });
  const cube = length * 0.08;
  return [
    body(`${prefix}-origin`, frame, AXIS_COLORS.origin, [{ type: 'box', half: [cube, cube, cube] }]),
    ...(['x', 'y', 'z'] as const).map((a) => body(`${prefix}-${a}`, qnormalize(qmul(frame, ONTO[a])), AXIS_COLORS[a], arrowShapes(length))),
  ];
}

/**
 * Drawn-only shapes of three short arrows fixed to a part at `origin` (in the part's frame),
 * along the part's own x, y and z. Put them in the part's `visual` list; they take the part's
 * colour, so the family gives each its own small body colour through separate marker bodies
 * when colour matters (see M5's tool frame).
 */
export function partAxisShapes(origin: Vec3, length: number): Record<'x' | 'y' | 'z', ShapeSpec[]> {
  return {
    x: arrowShapes(length, { p: origin, q: ONTO.x }),
    y: arrowShapes(length, { p: origin, q: ONTO.y }),
    z: arrowShapes(length, { p: origin, q: ONTO.z }),
  };
}
