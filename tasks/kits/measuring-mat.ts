/**
 * The measuring mat a construction site stands on (B1's, shared): a hidden floor, the mat
 * itself with a thin line every centimetre and a bold one every five, the black-and-white target
 * at the world origin (the mat's back-left corner), and four rulers along its edges (red along x,
 * blue along z, reading centimetres from the origin). Placements are read off it in the world
 * frame: x to the right and z toward the front in a first view from the front.
 *
 * Every body is drawn only (the mat does not collide; the hidden floor under it does), so
 * bricks that miss their site land on the floor under the mat. Body names: `floor`, `mat`,
 * `mat-lines`, `mat-lines-bold`, `origin-target`, `origin-target-ring`, `origin-target-dot`.
 */
import type { Quat, RulerSpec, ShapeSpec } from '../../sim/types.ts';
import type { World } from '../../sim/world.ts';
import type { BodyRequirement } from '../../render/view-rule.ts';

/** Colours of the mat's parts. */
export const MAT_COLORS = { mat: '#ece6d5', minor: '#b5ab93', major: '#6f6756', targetDark: '#111111', targetLight: '#ffffff', rulerX: '#a93226', rulerZ: '#1f4e8c' } as const;
/** Mat line spacing, m, and every how many lines one is bold. */
const LINE_STEP = 0.01;
const BOLD_EVERY = 5;
/** Height of the rulers' bands above the floor, m (just above the mat). */
const RULER_Y = 0.0008;
const IDENTITY: Quat = [0, 0, 0, 1];

/** Thin boxes along z at every mat line across x (and along x across z), split into minor and bold ones. */
export function matLines(mat: readonly [number, number]): { minor: ShapeSpec[]; major: ShapeSpec[] } {
  const minor: ShapeSpec[] = [];
  const major: ShapeSpec[] = [];
  const line = (along: 'x' | 'z', at: number, bold: boolean): void => {
    const w = bold ? 0.0004 : 0.00005;
    const [X, Z] = mat;
    const shape: ShapeSpec =
      along === 'z'
        ? { type: 'box', half: [w, 0.0001, Z / 2], pose: { p: [at, 0, Z / 2], q: IDENTITY } }
        : { type: 'box', half: [X / 2, 0.0001, w], pose: { p: [X / 2, 0, at], q: IDENTITY } };
    (bold ? major : minor).push(shape);
  };
  for (const [along, size] of [['z', mat[0]], ['x', mat[1]]] as const) {
    const n = Math.round(size / LINE_STEP);
    // The edges carry the rulers; lines fill the inside.
    for (let i = 1; i < n; i++) line(along, Math.round(i * LINE_STEP * 1e6) / 1e6, i % BOLD_EVERY === 0);
  }
  return { minor, major };
}

/** Adds the hidden floor, the mat, its lines and the origin target to `world` (see the module comment). */
export function addMeasuringMat(world: World, mat: readonly [number, number]): void {
  world.addBody({
    name: 'floor',
    kind: 'static',
    pose: { p: [mat[0] / 2, -0.005, mat[1] / 2], q: IDENTITY },
    shapes: [{ type: 'box', half: [0.6, 0.005, 0.6] }],
    material: { density: 1000, friction: 0.6, restitution: 0 },
    visible: false,
  });
  world.addBody({ name: 'mat', kind: 'static', collides: false, pose: { p: [mat[0] / 2, 0.0002, mat[1] / 2], q: IDENTITY }, shapes: [{ type: 'box', half: [mat[0] / 2, 0.0002, mat[1] / 2] }], color: MAT_COLORS.mat });
  const lines = matLines(mat);
  // One line is the body's shape, the others are drawn-only: no collider (not even a sensor) per line.
  world.addBody({ name: 'mat-lines', kind: 'static', collides: false, pose: { p: [0, 0.0005, 0], q: IDENTITY }, shapes: lines.minor.slice(0, 1), visual: lines.minor.slice(1), color: MAT_COLORS.minor });
  world.addBody({ name: 'mat-lines-bold', kind: 'static', collides: false, pose: { p: [0, 0.00052, 0], q: IDENTITY }, shapes: lines.major.slice(0, 1), visual: lines.major.slice(1), color: MAT_COLORS.major });
  // The origin target: black disc, white ring, black centre dot.
  const disc = (name: string, radius: number, y: number, color: string): void =>
    world.addBody({ name, kind: 'static', collides: false, pose: { p: [0, y, 0], q: IDENTITY }, shapes: [{ type: 'cylinder', radius, halfHeight: 0.0003 }], color });
  disc('origin-target', 0.011, 0.0009, MAT_COLORS.targetDark);
  disc('origin-target-ring', 0.0075, 0.0012, MAT_COLORS.targetLight);
  disc('origin-target-dot', 0.003, 0.0015, MAT_COLORS.targetDark);
}

/**
 * The mat's four rulers: red along its back and front edges (x), blue along its left and right
 * edges (z), a minor tick every 5 mm and a label every 5 cm. The z rulers' ticks and labels
 * point into the mat (a site keeps clear of them): outside, the nearer labels would leave the
 * frame, since the mat widens toward the camera.
 */
export function matRulers(mat: readonly [number, number]): RulerSpec[] {
  const [X, Z] = mat;
  const r = (from: [number, number, number], to: [number, number, number], tickDir: [number, number, number], color: string): RulerSpec => ({ from, to, tickDir, minor: 0.005, major: 0.05, color });
  return [
    r([0, RULER_Y, 0], [X, RULER_Y, 0], [0, 0, -1], MAT_COLORS.rulerX),
    r([0, RULER_Y, Z], [X, RULER_Y, Z], [0, 0, 1], MAT_COLORS.rulerX),
    r([0, RULER_Y, 0], [0, RULER_Y, Z], [1, 0, 0], MAT_COLORS.rulerZ),
    r([X, RULER_Y, 0], [X, RULER_Y, Z], [-1, 0, 0], MAT_COLORS.rulerZ),
  ];
}

/** The mat's bodies for a view rule (`viewParts`): the mat and the origin target to be seen, the lines as scenery. */
export function matViewBodies(): { bodies: BodyRequirement[]; scenery: string[] } {
  return {
    bodies: [
      { name: 'mat', minPixels: 50000 },
      { name: 'origin', group: ['origin-target', 'origin-target-ring', 'origin-target-dot'], minPixels: 400 },
    ],
    scenery: ['mat-lines', 'mat-lines-bold'],
  };
}

/** The rules text's sentence on the world frame the mat defines. */
export const MAT_FRAME_TEXT =
  "World frame (every position you give is in it, in metres): the origin is the centre of the black-and-white target at the mat's back-left corner; x grows to the right along the red rulers, z grows toward the front along the blue rulers; heights are up. The rulers read centimetres from the origin, and the mat has a line every 1 cm, a bolder one every 5 cm.";
