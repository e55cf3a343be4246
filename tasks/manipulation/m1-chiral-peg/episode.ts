/**
 * M1 episode: the plate with its through-holes, the rails, the held peg and the working
 * frame's axis arrows, and the `translate` and `rotate` tools acting on the peg (every move a
 * swept check; touching the plate or a rail, or leaving the workspace, rolls it back).
 */
import { SpaceActError } from '../../../core/errors.ts';
import { qangle, qrotate, transformPoint, vadd, vdist } from '../../../sim/math.ts';
import type { BodySpec, Pose, Quat, ShapeSpec, Vec3 } from '../../../sim/types.ts';
import type { World, WorldOptions } from '../../../sim/world.ts';
import { ViolationError } from '../../../sim/violation.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import { plateGeometry } from './plate-geometry.ts';
import { turnsBetween } from './solver.ts';
import {
  MAX_STEP,
  mm,
  INSERT_DEPTH,
  PEG_HEIGHT,
  PLATE,
  RAIL_WIDTH,
  REFERENCE_DEPTH,
  WORKSPACE,
  frameToWorld,
  goalQuat,
  holePolygon,
  holeRimName,
  holeRimShapes,
  pegShapes,
  rulerCoords,
  turned,
  yaw,
  type M1Scene,
} from './scene.ts';

/** Where the axis arrows stand (their common origin), world metres. */
const MARKER_ORIGIN: Vec3 = [PLATE.width / 2 + 0.05, PLATE.top, PLATE.depth / 2 + 0.03];
const ARROW_LENGTH = 0.06;
const COLORS = { peg: '#e39b2d', plate: '#cfc6b4', rim: '#5b5246', rails: '#7d6b58', x: '#d62728', y: '#2ca02c', z: '#1f77b4', origin: '#f4f4f4' };

function deg(rad: number): number {
  return (rad * 180) / Math.PI;
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

/** World settings: the workspace the peg must stay in. */
export function worldOptions(): WorldOptions {
  return { workspace: { min: [...WORKSPACE.min], max: [...WORKSPACE.max] } };
}

/** Builds the plate, rails, peg and axis marker, and the tools acting on the peg. */
export function build(instance: Instance<M1Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  const x1 = PLATE.width / 2;
  const z1 = PLATE.depth / 2;
  const bottom = PLATE.top - PLATE.thickness;
  const geo = plateGeometry({ x0: -x1, x1, z0: -z1, z1 }, s.holes.map((h) => holePolygon(h, s.clearance)), bottom, PLATE.top);
  const steel = { density: 7800, friction: 0.4, restitution: 0 };
  // The collider (convex pieces) is not drawn; the seamless mesh is drawn and does not collide.
  world.addBody({ name: 'plate', kind: 'static', pose: { p: [0, 0, 0], q: [0, 0, 0, 1] }, shapes: geo.pieces, material: steel, visible: false });
  world.addBody({ name: 'plate-surface', kind: 'static', collides: false, pose: { p: [0, 0, 0], q: [0, 0, 0, 1] }, shapes: [geo.mesh], color: COLORS.plate });
  // A dark rim around each hole on the plate's top (drawn only): the holes read clearly, and
  // the view rule can tell that none is hidden in the first view.
  s.holes.forEach((h, i) => {
    world.addBody({ name: holeRimName(i), kind: 'static', collides: false, pose: { p: [h.x, PLATE.top, h.z], q: yaw(h.yawDeg) }, shapes: holeRimShapes(h.cells, s.clearance), color: COLORS.rim });
  });
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
  // Inside the matching hole the shaft can be off its centre by at most the clearance (plus a
  // little turn), so these only guard against a peg that is somewhere else entirely.
  const centreTol = 2 * s.clearance + 0.002;
  const angleTol = (5 * Math.PI) / 180;
  /** Shares of the progress measure (see `progress`); together below 1, which only solving reaches. */
  const PROGRESS = { turned: 0.3, aligned: 0.2, inserted: 0.45 } as const;

  const solved = (): boolean => {
    const pose = world.getPose('peg');
    if (qangle(pose.q, goal) > angleTol) return false;
    if (Math.hypot(pose.p[0] - hole.x, pose.p[2] - hole.z) > centreTol) return false;
    const h = heights(s.pegCells, pose, shapes);
    // Shaft deep enough, and the cap still above the plate (not a peg slid in underneath).
    return h.shaftBottom <= PLATE.top - INSERT_DEPTH && h.capBottom >= PLATE.top - 1e-3;
  };

  const moveTo = (target: Pose): void => {
    try {
      world.moveSwept('peg', target);
    } catch (err) {
      // The plate's collider is not drawn; its drawn surface is. Name that one, so the rollback
      // image tints what was hit and the message names what the picture shows.
      if (err instanceof ViolationError && err.violation.bodies.includes('plate')) {
        const v = err.violation;
        throw new ViolationError({ ...v, bodies: v.bodies.map((b) => (b === 'plate' ? 'plate-surface' : b)), message: v.message.replaceAll("'plate'", "'plate-surface'") });
      }
      throw err;
    }
  };

  return {
    tools: {
      translate(args) {
        const d: Vec3 = [Number(args.dx_m ?? 0), Number(args.dy_m ?? 0), Number(args.dz_m ?? 0)];
        if (!d.every((v) => Number.isFinite(v) && Math.abs(v) <= MAX_STEP)) {
          throw new SpaceActError('invalid-argument', 'translate: each displacement must be a number within the schema\'s limits', { args });
        }
        const dist = Math.hypot(...d);
        if (dist === 0) return 'nothing to do: the displacement is zero';
        const pose = world.getPose('peg');
        moveTo({ p: vadd(pose.p, frameToWorld(s.frameYawDeg, d)), q: pose.q });
        return solved() ? 'moved the peg; it is in the matching hole' : 'moved the peg';
      },
      rotate(args) {
        const axis = String(args.axis);
        const angle = Number(args.angle_deg);
        if ((axis !== 'x' && axis !== 'y' && axis !== 'z') || !Number.isFinite(angle) || Math.abs(angle) > 180) {
          throw new SpaceActError('invalid-argument', 'rotate: axis must be x, y or z and angle_deg a number within the schema\'s limits', { args });
        }
        if (angle === 0) return 'nothing to do: the angle is zero';
        // Turns over 90° go in two halves, so the swept path never takes the short way round.
        const parts = Math.abs(angle) > 90 ? 2 : 1;
        for (let k = 0; k < parts; k++) {
          const pose = world.getPose('peg');
          moveTo({ p: pose.p, q: turned(pose.q, s.frameYawDeg, axis as 'x' | 'y' | 'z', angle / parts) });
        }
        return solved() ? 'turned the peg; it is in the matching hole' : 'turned the peg';
      },
    },
    solved,
    viewParts: () => [
      {
        bodies: [
          { name: 'plate-surface', minPixels: 30000 },
          { name: 'rails', minPixels: 300 },
          { name: 'peg', minPixels: 2500 },
          // Every hole in sight: none hidden by the peg (M1 has no occlusion lever).
          ...s.holes.map((_, i) => ({ name: holeRimName(i), minPixels: 400 })),
          { name: 'frame-x', minPixels: 300 },
          { name: 'frame-y', minPixels: 300 },
          { name: 'frame-z', minPixels: 300 },
        ],
        // The small cube where the working frame's arrows meet.
        scenery: ['frame-origin'],
        // Each arrow read one by one: its head and most of its shaft in sight.
        arrows: (['x', 'y', 'z'] as const).map((a) => ({ body: `frame-${a}`, what: `+${a} of the working frame` })),
      },
    ],
    progress() {
      if (solved()) return 1;
      // Credit only for the steps an insertion is made of, each counted once the one before it
      // holds: the peg turned to the pose that fits (0.3), then its shaft over the matching hole
      // (0.2 more), then pushed in (up to 0.45 more, by depth). Being near the goal or half
      // turned towards it earns nothing: a peg pressed against the plate beside the right hole,
      // or turned most of the way, is not on its way in.
      const pose = world.getPose('peg');
      if (qangle(pose.q, goal) > angleTol) return 0;
      if (Math.hypot(pose.p[0] - hole.x, pose.p[2] - hole.z) > centreTol) return PROGRESS.turned;
      const h = heights(s.pegCells, pose, shapes);
      const depth = Math.min(1, Math.max(0, (PLATE.top - h.shaftBottom) / INSERT_DEPTH));
      return PROGRESS.turned + PROGRESS.aligned + PROGRESS.inserted * depth;
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

