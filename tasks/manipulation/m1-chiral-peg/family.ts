/**
 * M1 chiral peg-in-hole.
 *
 * The agent holds a peg (kinematic, moved only by swept moves) over a plate with several
 * through-holes. The peg's shaft has a chiral pentomino cross-section (F, L, N, P or Y: no
 * mirror symmetry and no rotational symmetry) and a cap that overhangs it all round, so the
 * peg goes in shaft first or not at all. One hole has the shaft's outline (grown by the
 * clearance); the decoys are its mirror image — which only a flipped peg could enter, and the
 * cap forbids flipping — and outlines with one square moved. The agent must see the
 * cross-section, pick the hole of the same handedness, turn the peg to fit it, and lower it in.
 *
 * Tools (metric, relative, in the working frame shown by coloured arrows): `translate` moves the
 * peg in a straight line; `rotate` turns it about an axis through its own centre. Every move is
 * a swept check (`World.moveSwept`): touching the plate or its rails, or leaving the workspace,
 * stops the move and rolls it back. No dynamics are involved, so moves take no world time and
 * there is no statics check. The episode ends when the shaft is in the matching hole at least
 * {@link INSERT_DEPTH} deep.
 *
 * Tiers: L1 three holes turned by quarter turns, 4 mm clearance, peg upright; L3 four holes
 * turned by multiples of 15°, the variant's mirror image as a further decoy, 2 mm; L5 five
 * holes, 0.8 mm, and the peg starts tipped over (shaft sideways or up) so getting it upright
 * and the right way round needs turns about horizontal axes; L7 is L5 with `+rot`: the working
 * frame is turned about the vertical by ±30–60°, shown only by the in-scene axis arrows.
 */
import { SpaceActError } from '../../../core/errors.ts';
import { ViolationError } from '../../../sim/violation.ts';
import { qangle, qrotate, transformPoint, vadd, vdist } from '../../../sim/math.ts';
import type { BodySpec, Pose, Quat, RulerSpec, ShapeSpec, Vec3 } from '../../../sim/types.ts';
import type { World } from '../../../sim/world.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { makeInstance } from '../../instance.ts';
import type { FamilyEnv, Instance, TaskFamily, Tier, ToolSpec } from '../../types.ts';
import { TIER_SETTINGS, drawScene, sceneProblem } from './generator.ts';
import { plateGeometry } from './plate-geometry.ts';
import {
  CELL,
  GRID,
  INSERT_DEPTH,
  PEG_HEIGHT,
  PLATE,
  RAIL_WIDTH,
  REFERENCE_DEPTH,
  RULER_ZERO,
  SHAFT_LENGTH,
  WORKSPACE,
  frameToWorld,
  goalQuat,
  holePolygon,
  pegShapes,
  rulerCoords,
  turned,
  yaw,
  type M1Scene,
} from './scene.ts';
import { reference, turnsBetween } from './solver.ts';

export type { M1Scene } from './scene.ts';

const ID = 'M1';
/** Largest |displacement| of one translate, per axis, metres. */
const MAX_STEP = 0.5;
/** Where the axis arrows stand (their common origin), world metres. */
const MARKER_ORIGIN: Vec3 = [PLATE.width / 2 + 0.05, PLATE.top, PLATE.depth / 2 + 0.03];
const ARROW_LENGTH = 0.06;
const COLORS = { peg: '#e39b2d', plate: '#cfc6b4', rails: '#7d6b58', x: '#d62728', y: '#2ca02c', z: '#1f77b4', origin: '#f4f4f4' };

function mm(x: number): string {
  return `${Number((x * 1000).toFixed(1))} mm`;
}

function cm(x: number): string {
  return `${Number((x * 100).toFixed(1))} cm`;
}

function deg(rad: number): number {
  return (rad * 180) / Math.PI;
}

function translateTool(): ToolSpec {
  const d = { type: 'number', minimum: -MAX_STEP, maximum: MAX_STEP };
  return {
    name: 'translate',
    kind: 'physical',
    description:
      `Move the held peg in a straight line by dx_m, dy_m and dz_m metres along the working frame's x, y and z axes (the red, green and blue arrows; each at most ${MAX_STEP} m, omitted = 0). ` +
      'The whole path is checked: if the peg would touch the plate or its rails, or leave the workspace, the move is rolled back.',
    parameters: {
      type: 'object',
      properties: { dx_m: { ...d }, dy_m: { ...d }, dz_m: { ...d } },
      additionalProperties: false,
    },
  };
}

function rotateTool(): ToolSpec {
  return {
    name: 'rotate',
    kind: 'physical',
    description:
      "Turn the held peg by angle_deg degrees about an axis through the peg's own centre (the centre of its bounding box) parallel to the working frame's x, y or z axis. " +
      'Positive angles turn counter-clockwise as seen looking from the tip of that axis arrow back towards the peg (right-hand rule). The whole turn is checked like a move.',
    parameters: {
      type: 'object',
      properties: {
        axis: { type: 'string', enum: ['x', 'y', 'z'] },
        angle_deg: { type: 'number', minimum: -180, maximum: 180 },
      },
      required: ['axis', 'angle_deg'],
      additionalProperties: false,
    },
  };
}

function rulesText(s: M1Scene, tier: Tier): string {
  const cfg = TIER_SETTINGS[tier];
  const n = s.holes.length;
  const lines = [
    `A flat plate ${mm(PLATE.thickness)} thick rests on two rails; it has ${n} through-holes. You hold a peg above it (the orange part): a shaft ${mm(SHAFT_LENGTH)} long whose cross-section is five ${mm(CELL)} squares joined edge to edge, topped by a thin cap that overhangs the shaft by ${mm(6e-3)} all round. The cap shows the shaft's outline but is too wide for any hole, so the peg can only go in shaft first.`,
    `Exactly one hole has the shaft's outline (with ${mm(s.clearance)} clearance on every side). The others are decoys: the mirror image of the outline, and outlines with one square in another place. The cross-section is not mirror-symmetric, so the peg fits its hole in only one orientation.`,
    `Goal: push the shaft into the matching hole until its bottom end is at least ${mm(INSERT_DEPTH)} below the plate's top surface. The episode ends as soon as it is.`,
    'Frame: the red, green and blue arrows beside the plate show the working frame\'s +x, +y and +z axes; +y is straight up.' +
      (s.frameYawDeg === 0
        ? ' In the first view +x points to the right along the plate and +z towards you.'
        : ' This frame is NOT lined up with the plate: it is turned about the vertical by a whole multiple of 15° that you must read from the arrows. translate and rotate both use the arrows\' frame.'),
    `Measuring: rulers run along the plate's front and left top edges from its front-left corner (0), with ticks every ${mm(GRID)}; a third ruler stands upright at the back-left corner and measures height above the plate's top surface. The centre of each hole (the middle of its outline's bounding box) and the peg's starting centre lie on the ${mm(GRID)} ticks. ` +
      (cfg.angleStep === 90
        ? 'Every hole is turned by whole quarter turns relative to the plate\'s edges, and so is the peg.'
        : `Every hole is turned about the vertical by a whole multiple of ${cfg.angleStep}° relative to the plate's edges; the peg starts ${cfg.tipped ? 'in an orientation made of quarter turns about the plate\'s axes followed by a turn about the vertical by' : 'turned about the vertical by'} a whole multiple of ${cfg.angleStep}°.`),
    'Tools: translate(dx_m, dy_m, dz_m) moves the peg in a straight line; rotate(axis, angle_deg) turns it about an axis through its own centre (the centre of its bounding box). Both are relative to where the peg is now.',
    `Every move is swept along its whole path. If the peg would touch the plate or a rail, or leave the workspace, the move is stopped, rolled back (the peg stays where it was), and the rest of that turn is not run. The workspace is a box from just above the floor to ${cm(WORKSPACE.max[1] - PLATE.top)} above the plate's top, reaching ${cm(WORKSPACE.max[0] - PLATE.width / 2)} past the plate's left and right edges and ${cm(WORKSPACE.max[2] - PLATE.depth / 2)} past its front and back edges; the whole peg must stay inside it.`,
  ];
  return lines.join('\n');
}

function planText(s: M1Scene): string {
  const hole = s.holes[s.match];
  const c = rulerCoords([hole.x, PLATE.top, hole.z]);
  const turns = turnsBetween(s.start.q, goalQuat(s), s.frameYawDeg);
  const turnText = turns.length ? turns.map((t) => `rotate about ${t.axis} by ${t.angleDeg}°`).join(', then ') : 'no turn';
  return (
    `The matching hole is the one centred ${mm(c.along)} along the front ruler and ${mm(c.back)} back along the left ruler. ` +
    `1) At the start height turn the peg into the fitting orientation (${turnText}). ` +
    '2) Move it level until its centre is right above that hole\'s centre. ' +
    `3) Lower it straight down until the shaft's bottom is ${mm(INSERT_DEPTH)}–${mm(SHAFT_LENGTH)} below the plate's top (about ${mm(0.025)} is safe).`
  );
}

function draw(seed: number, tier: Tier, attempt: number): Instance<M1Scene> {
  const scene = drawScene(tier, redrawRng(ID, tier, seed, attempt));
  const cfg = TIER_SETTINGS[tier];
  const top = PLATE.top;
  const x1 = PLATE.width / 2;
  const z1 = PLATE.depth / 2;
  const rulers: RulerSpec[] = [
    { from: [...RULER_ZERO], to: [x1, top, z1], tickDir: [0, 0, 1], minor: GRID, major: 0.05 },
    { from: [...RULER_ZERO], to: [-x1, top, -z1], tickDir: [-1, 0, 0], minor: GRID, major: 0.05 },
    { from: [-x1, top, -z1], to: [-x1, top + 0.25, -z1], tickDir: [1, 0, 0], minor: GRID, major: 0.05 },
  ];
  return makeInstance(m1ChiralPeg, tier, seed, {
    title: `Chiral peg-in-hole, ${scene.holes.length} holes, ${mm(scene.clearance)} clearance${cfg.tipped ? ', peg tipped over' : ''}${cfg.rotatedFrame ? ', turned working frame' : ''}`,
    rules: rulesText(scene, tier),
    tools: [translateTool(), rotateTool()],
    camera: {
      initial: { azimuth: 18, elevation: 48, distance: 0.95, target: [0, top + 0.03, 0] },
      elevationRange: [-10, 90],
    },
    rulers,
    ground: { y: 0, color: '#6f7782' },
    dynamic: false,
    scoring: 'graded',
    scene,
    reveal: { plan: planText(scene) },
  });
}

const FILTERS = [{ name: 'fair-layout', check: (inst: Instance<M1Scene>) => sceneProblem(inst.scene) }];

function generate(seed: number, tier: Tier): Instance<M1Scene> {
  return generateFiltered((attempt) => draw(seed, tier, attempt), FILTERS);
}

/** One coloured arrow along local +x from the origin, for the axis marker (drawn only). */
function arrowShapes(): ShapeSpec[] {
  const r = 0.0025;
  const head = 0.006;
  const tip = ARROW_LENGTH + 0.016;
  return [
    { type: 'box', half: [ARROW_LENGTH / 2, r, r], pose: { p: [ARROW_LENGTH / 2, 0, 0], q: [0, 0, 0, 1] } },
    {
      type: 'hull',
      points: [
        [ARROW_LENGTH, head, head],
        [ARROW_LENGTH, head, -head],
        [ARROW_LENGTH, -head, head],
        [ARROW_LENGTH, -head, -head],
        [tip, 0, 0],
      ],
    },
  ];
}

function markerBodies(frameYawDeg: number): BodySpec[] {
  const f = yaw(frameYawDeg);
  const h = Math.SQRT1_2;
  const arrow = (name: string, q: Quat, color: string): BodySpec => ({
    name,
    kind: 'static',
    collides: false,
    pose: { p: [...MARKER_ORIGIN], q },
    shapes: arrowShapes(),
    color,
  });
  return [
    { name: 'frame-origin', kind: 'static', collides: false, pose: { p: [...MARKER_ORIGIN], q: f }, shapes: [{ type: 'box', half: [0.005, 0.005, 0.005] }], color: COLORS.origin },
    arrow('frame-x', f, COLORS.x),
    // Local +x onto +y: a quarter turn about z.
    arrow('frame-y', [0, 0, h, h], COLORS.y),
    // Local +x onto the frame's +z: a quarter turn about -y, after the frame's own turn.
    arrow('frame-z', yaw(frameYawDeg - 90), COLORS.z),
  ];
}

/** Lowest point of the shaft and lowest point of the cap's underside, world y. */
function heights(cells: M1Scene['pegCells'], pose: Pose, shapes: ShapeSpec[]): { shaftBottom: number; capBottom: number } {
  let shaftBottom = Infinity;
  let capBottom = Infinity;
  shapes.forEach((sh, i) => {
    if (sh.type !== 'box' || !sh.pose) return;
    const isCap = i >= cells.length;
    for (const sx of [-1, 1]) {
      for (const sy of [-1, 1]) {
        for (const sz of [-1, 1]) {
          const local = vadd(sh.pose.p, qrotate(sh.pose.q, [sx * sh.half[0], sy * sh.half[1], sz * sh.half[2]]));
          const y = transformPoint(pose, local)[1];
          if (isCap) capBottom = Math.min(capBottom, y);
          else shaftBottom = Math.min(shaftBottom, y);
        }
      }
    }
  });
  return { shaftBottom, capBottom };
}

/** Builds the plate, rails, peg and axis marker, and the tools acting on the peg. */
function build(instance: Instance<M1Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  const x1 = PLATE.width / 2;
  const z1 = PLATE.depth / 2;
  const bottom = PLATE.top - PLATE.thickness;
  const geo = plateGeometry({ x0: -x1, x1, z0: -z1, z1 }, s.holes.map((h) => holePolygon(h, s.clearance)), bottom, PLATE.top);
  const steel = { density: 7800, friction: 0.4, restitution: 0 };
  // The collider (convex pieces) is not drawn; the seamless mesh is drawn and does not collide.
  world.addBody({ name: 'plate', kind: 'static', pose: { p: [0, 0, 0], q: [0, 0, 0, 1] }, shapes: geo.pieces, material: steel, visible: false });
  world.addBody({ name: 'plate-surface', kind: 'static', collides: false, pose: { p: [0, 0, 0], q: [0, 0, 0, 1] }, shapes: [geo.mesh], color: COLORS.plate });
  const railHalf: Vec3 = [RAIL_WIDTH / 2, bottom / 2, z1];
  world.addBody({
    name: 'rails',
    kind: 'static',
    pose: { p: [0, 0, 0], q: [0, 0, 0, 1] },
    shapes: [
      { type: 'box', half: railHalf, pose: { p: [-x1 + RAIL_WIDTH / 2, bottom / 2, 0], q: [0, 0, 0, 1] } },
      { type: 'box', half: railHalf, pose: { p: [x1 - RAIL_WIDTH / 2, bottom / 2, 0], q: [0, 0, 0, 1] } },
    ],
    material: steel,
    color: COLORS.rails,
  });
  for (const b of markerBodies(s.frameYawDeg)) world.addBody(b);
  const shapes = pegShapes(s.pegCells);
  world.addBody({ name: 'peg', kind: 'kinematic', pose: { p: [...s.start.p], q: [...s.start.q] }, shapes, material: steel, color: COLORS.peg });

  const hole = s.holes[s.match];
  const goal = goalQuat(s);
  const goalP: Vec3 = [hole.x, PLATE.top - REFERENCE_DEPTH + PEG_HEIGHT / 2, hole.z];
  const startErr = qangle(s.start.q, goal);
  const startDist = vdist(s.start.p, goalP);
  // Inside the matching hole the shaft can be off its centre by at most the clearance (plus a
  // little turn), so these only guard against a peg that is somewhere else entirely.
  const centreTol = 2 * s.clearance + 0.002;
  const angleTol = (5 * Math.PI) / 180;

  const solved = (): boolean => {
    const pose = world.getPose('peg');
    if (qangle(pose.q, goal) > angleTol) return false;
    if (Math.hypot(pose.p[0] - hole.x, pose.p[2] - hole.z) > centreTol) return false;
    const h = heights(s.pegCells, pose, shapes);
    // Shaft deep enough, and the cap still above the plate (not a peg slid in underneath).
    return h.shaftBottom <= PLATE.top - INSERT_DEPTH && h.capBottom >= PLATE.top - 1e-3;
  };

  const moveTo = (target: Pose): void => {
    world.moveSwept('peg', target);
  };

  return {
    tools: {
      translate(args) {
        const d: Vec3 = [Number(args.dx_m ?? 0), Number(args.dy_m ?? 0), Number(args.dz_m ?? 0)];
        if (!d.every((v) => Number.isFinite(v) && Math.abs(v) <= MAX_STEP)) {
          throw new SpaceActError('invalid-argument', `translate: each displacement must be a number within ±${MAX_STEP} m`, { args });
        }
        const dist = Math.hypot(...d);
        if (dist === 0) return 'nothing to do: the displacement is zero';
        const pose = world.getPose('peg');
        moveTo({ p: vadd(pose.p, frameToWorld(s.frameYawDeg, d)), q: pose.q });
        return solved() ? `moved the peg ${mm(dist)}; it is in the matching hole` : `moved the peg ${mm(dist)}`;
      },
      rotate(args) {
        const axis = String(args.axis);
        const angle = Number(args.angle_deg);
        if ((axis !== 'x' && axis !== 'y' && axis !== 'z') || !Number.isFinite(angle) || Math.abs(angle) > 180) {
          throw new SpaceActError('invalid-argument', 'rotate: axis must be x, y or z and angle_deg within ±180', { args });
        }
        if (angle === 0) return 'nothing to do: the angle is zero';
        // Turns over 90° go in two halves, so the swept path never takes the short way round.
        const parts = Math.abs(angle) > 90 ? 2 : 1;
        for (let k = 0; k < parts; k++) {
          const pose = world.getPose('peg');
          moveTo({ p: pose.p, q: turned(pose.q, s.frameYawDeg, axis as 'x' | 'y' | 'z', angle / parts) });
        }
        return solved() ? `turned the peg ${angle}° about ${axis}; it is in the matching hole` : `turned the peg ${angle}° about ${axis}`;
      },
    },
    solved,
    progress() {
      if (solved()) return 1;
      const pose = world.getPose('peg');
      const turn = startErr > 0 ? Math.max(0, 1 - qangle(pose.q, goal) / startErr) : 1;
      const near = startDist > 0 ? Math.max(0, 1 - vdist(pose.p, goalP) / startDist) : 1;
      // Unsolved episodes stay below 1: orientation and position count half each.
      return 0.95 * (0.5 * turn + 0.5 * near);
    },
    staticsAfter: () => false,
    stateText() {
      const pose = world.getPose('peg');
      const c = rulerCoords(pose.p);
      const err = deg(qangle(pose.q, goal));
      const down = qrotate(pose.q, [0, -1, 0]);
      const lines = [
        `Working frame: turned ${s.frameYawDeg}° about +y from the plate's axes (front ruler = +x, left ruler runs towards -z).`,
        `Peg centre: ${mm(c.along)} along the front ruler, ${mm(c.back)} back along the left ruler, ${mm(c.up)} above the plate's top. The shaft points along (${down.map((v) => v.toFixed(3)).join(', ')}) in the plate's axes (x along the front ruler, y up, z towards the front). Orientation error to the fitting pose: ${err.toFixed(1)}°.`,
        `Turns that would fit it (working frame): ${(() => {
          try {
            const t = turnsBetween(pose.q, goal, s.frameYawDeg);
            return t.length ? t.map((x) => `${x.axis} ${x.angleDeg}°`).join(', ') : 'none needed';
          } catch {
            return 'none of up to three standard turns';
          }
        })()}.`,
        ...s.holes.map((h, i) => {
          const hc = rulerCoords([h.x, PLATE.top, h.z]);
          return `Hole ${i + 1}${i === s.match ? ' (MATCH)' : ` (${h.kind})`}: centre ${mm(hc.along)} along, ${mm(hc.back)} back; turned ${h.yawDeg}° about +y.`;
        }),
      ];
      return lines.join('\n');
    },
  };
}

/** M1 chiral peg-in-hole: insert an asymmetric peg into its only matching hole, every move swept. */
export const m1ChiralPeg: TaskFamily<M1Scene> = {
  id: ID,
  version: 1,
  category: 'M',
  title: 'Chiral peg-in-hole',
  summary:
    'Insert a held peg with a chiral pentomino cross-section and an overhanging cap into the one hole of a plate that matches it, among its mirror image and one-square variants. Tests seeing handedness, mental rotation and precise metric control; every move is swept for collision and rolled back on contact.',
  tiers: {
    L1: { levers: [], description: 'Three holes (match, mirror image, one variant) turned by quarter turns; 4 mm clearance; the peg starts upright, a quarter or half turn off.' },
    L3: { levers: [], description: 'Four holes turned by multiples of 15°, adding the variant\'s mirror image; 2 mm clearance; the peg starts upright, at least 30° off.' },
    L5: { levers: [], description: 'Five holes; 0.8 mm clearance; the peg starts tipped over (shaft sideways or up) and must be turned about horizontal axes.' },
    L7: { levers: ['+rot'], description: 'L5 with the working frame turned about the vertical by ±30–60°, shown only by the axis arrows.' },
  },
  worldOptions: () => ({ workspace: { min: [...WORKSPACE.min], max: [...WORKSPACE.max] } }),
  generate,
  build,
  reference: (instance) => reference(instance.scene),
  shortcutFilters: FILTERS,
};
