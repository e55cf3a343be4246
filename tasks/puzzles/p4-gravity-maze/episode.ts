/**
 * P4 episode: the maze cube (blocks, glass shell with the exit hole, edge frame, exit frame) and
 * the ball as bodies, held in the air above a tray. `tilt` and `spin` turn the whole cube with
 * the ball inside as one rigid group about a world axis through the centre (the world's group
 * motion, swept; never a teleport). The ball then drops: a straight swept move down from where
 * it was carried, stopped by the first block or glass it meets — or by the tray, once it has
 * gone out through the hole. The orientation and the ball's cell are read from the poses.
 *
 * The drop is a swept move of a kinematic ball rather than a dynamic ball under gravity: Rapier's
 * ball, touching the cell wall it had rested on, caught on the edges of neighbouring blocks'
 * coplanar faces and rolled into other cells in about one fall in four (and hovered above gaps
 * at the default length unit). A ball released at rest in a vertical shaft falls straight down;
 * the sweep is that fall, with the world's own contact test deciding where it stops.
 */
import { SpaceActError } from '../../../core/errors.ts';
import { inverseTransformPoint, qrotate } from '../../../sim/math.ts';
import type { Pose, Quat, ShapeSpec, Vec3 } from '../../../sim/types.ts';
import type { World } from '../../../sim/world.ts';
import { glyphShapes } from '../../kits/glyphs.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import { cellIndex, cellOf, EXITED, FACE_NORMAL, MOVE_TURN, orientationIndex, parseMaze, type MazeMove, type MazeState } from './maze.ts';
import { BALL_COLOR, BALL_RADIUS, BLOCK_COLOR, CENTRE, EXIT_COLOR, FRAME_COLOR, GLASS_COLOR, SHELL, TRAY_COLOR, type MazeFace, type P4Scene } from './scene.ts';
import { startState, turnsToExit } from './solver.ts';

const IDENTITY: Quat = [0, 0, 0, 1];
/** Bodies that turn together: the cube's parts and the ball inside. */
export const CUBE_BODIES = ['maze-blocks', 'maze-glass', 'maze-frame', 'exit-frame'];
/** Top of the tray the ball lands on, m. */
export const TRAY_TOP = 0.01;
/** A drop shorter than this is a ball already resting on its floor (the sweep's start-contact slack), m. */
const RESTING = 0.0015;

/** Centre of a cell in the cube's frame (relative to the cube's centre), m. */
function cellCentre(s: P4Scene, c: { x: number; y: number; z: number }): Vec3 {
  const h = s.size / 2;
  return [(c.x + 0.5 - h) * s.cell, (c.y + 0.5 - h) * s.cell, (c.z + 0.5 - h) * s.cell];
}

function box(half: Vec3, p: Vec3): ShapeSpec {
  return { type: 'box', half, pose: { p, q: IDENTITY } };
}

/** The glass panels: six faces outside the cells, the exit's face with a hole of one cell. */
function glassShapes(s: P4Scene): ShapeSpec[] {
  const h = (s.size * s.cell) / 2;
  const out: ShapeSpec[] = [];
  const e = s.exit;
  for (const [face, n] of Object.entries(FACE_NORMAL)) {
    const axis = n.findIndex((v) => v !== 0);
    const [u, v] = [0, 1, 2].filter((k) => k !== axis);
    const centre: Vec3 = [0, 0, 0];
    centre[axis] = n[axis] * (h + SHELL / 2);
    const half: Vec3 = [0, 0, 0];
    half[axis] = SHELL / 2;
    if (face !== e.face) {
      // Panels overlap at the edges (each reaches over the shell's thickness) so no gap is left.
      half[u] = h + SHELL;
      half[v] = h + SHELL;
      out.push(box(half, centre));
      continue;
    }
    // The face with the hole: up to four strips around the exit cell.
    const ec = [e.x, e.y, e.z];
    const lo = -h - SHELL;
    const hi = h + SHELL;
    const cellLo = (k: number): number => -h + ec[k] * s.cell;
    const cellHi = (k: number): number => -h + (ec[k] + 1) * s.cell;
    const strip = (u0: number, u1: number, v0: number, v1: number): void => {
      if (u1 - u0 < 1e-9 || v1 - v0 < 1e-9) return;
      const c: Vec3 = [...centre] as Vec3;
      const hh: Vec3 = [...half] as Vec3;
      c[u] = (u0 + u1) / 2;
      hh[u] = (u1 - u0) / 2;
      c[v] = (v0 + v1) / 2;
      hh[v] = (v1 - v0) / 2;
      out.push(box(hh, c));
    };
    strip(lo, cellLo(u), lo, hi);
    strip(cellHi(u), hi, lo, hi);
    strip(cellLo(u), cellHi(u), lo, cellLo(v));
    strip(cellLo(u), cellHi(u), cellHi(v), hi);
  }
  return out;
}

/** Dark bars along the cube's twelve edges. */
function frameShapes(s: P4Scene): ShapeSpec[] {
  const h = (s.size * s.cell) / 2 + SHELL;
  const t = 0.0025;
  const out: ShapeSpec[] = [];
  for (let axis = 0; axis < 3; axis++) {
    const [u, v] = [0, 1, 2].filter((k) => k !== axis);
    for (const su of [-1, 1]) {
      for (const sv of [-1, 1]) {
        const p: Vec3 = [0, 0, 0];
        const half: Vec3 = [t, t, t];
        half[axis] = h + t;
        p[u] = su * h;
        p[v] = sv * h;
        out.push(box(half, p));
      }
    }
  }
  return out;
}

/** A yellow frame around the exit hole, just outside the glass. */
function exitFrameShapes(s: P4Scene): ShapeSpec[] {
  const n = FACE_NORMAL[s.exit.face];
  const axis = n.findIndex((v) => v !== 0);
  const [u, v] = [0, 1, 2].filter((k) => k !== axis);
  const c = cellCentre(s, s.exit);
  const t = 0.0022;
  const out: ShapeSpec[] = [];
  const base: Vec3 = [...c] as Vec3;
  base[axis] = n[axis] * ((s.size * s.cell) / 2 + SHELL + t);
  for (const [k, sign] of [[u, -1], [u, 1], [v, -1], [v, 1]] as Array<[number, number]>) {
    const other = k === u ? v : u;
    const p: Vec3 = [...base] as Vec3;
    p[k] += sign * (s.cell / 2 + t);
    const half: Vec3 = [0, 0, 0];
    half[axis] = t;
    half[k] = t;
    half[other] = s.cell / 2 + 2 * t;
    out.push(box(half, p));
  }
  return out;
}

/** The blocks: every solid surface cell, and the core as one block. */
function blockShapes(s: P4Scene): ShapeSpec[] {
  const maze = parseMaze(s);
  const out: ShapeSpec[] = [box([s.cell, s.cell, s.cell], [0, 0, 0])];
  maze.solid.forEach((solid, i) => {
    const c = cellOf(i, s.size);
    const core = [c.x, c.y, c.z].every((v) => v === 1 || v === 2);
    if (solid && !core) out.push(box([s.cell / 2, s.cell / 2, s.cell / 2], cellCentre(s, c)));
  });
  return out;
}

/** The compass letter on each side of the cube, by the azimuth of its direction from the centre (0: south, +z). */
const LETTER_AT_AZIMUTH: Record<number, string> = { 0: 'S', 90: 'E', 180: 'N', 270: 'W' };
/** The horizontal outward normal (x, z) of each side face of the cube at the start. */
const SIDE_NORMAL: Partial<Record<MazeFace, [number, number]>> = { east: [1, 0], west: [-1, 0], south: [0, 1], north: [0, -1] };

/**
 * The bodies an opaque cube (L5+) hides on purpose from a first camera at `azimuth` (degrees,
 * 0 from the south): the ball, the letter on the side opposite the maze's own view side
 * (`viewAzimuth`; the camera looks 30° past it), and the exit's frame when the exit is on the
 * bottom or on a side facing away from the camera.
 */
export function hiddenBehindOpaqueCube(s: P4Scene, azimuth: number): string[] {
  const out = ['ball', `compass-${LETTER_AT_AZIMUTH[(s.viewAzimuth + 180) % 360]}`];
  const a = (azimuth * Math.PI) / 180;
  const n = SIDE_NORMAL[s.exit.face];
  // The view direction is never within 30° of a face's edge-on, so the sign is never in doubt.
  if (s.exit.face === 'down' || (n && n[0] * Math.sin(a) + n[1] * Math.cos(a) < 0)) out.push('exit-frame');
  return out;
}

/** Builds the tray, the compass letters, the cube and the ball, and the `tilt` and `spin` tools. */
export function build(instance: Instance<P4Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  const maze = parseMaze(s);
  const half = (s.size * s.cell) / 2;
  world.addBody({ name: 'tray', kind: 'static', pose: { p: [0, TRAY_TOP / 2, 0], q: IDENTITY }, shapes: [{ type: 'box', half: [0.19, TRAY_TOP / 2, 0.19] }], color: TRAY_COLOR });
  // The compass letters lie on white tiles on the tray, read upright from the south, outside the
  // cube's footprint so that no view from above the tray loses more than one behind the cube.
  const letter = 0.034;
  const at = 0.15;
  const marks: Array<[string, number, number]> = [['N', 0, -at], ['S', 0, at], ['E', at, 0], ['W', -at, 0]];
  world.addBody({
    name: 'compass-tiles',
    kind: 'static',
    collides: false,
    pose: { p: [0, TRAY_TOP + 0.0003, 0], q: IDENTITY },
    shapes: marks.map(([, x, z]) => box([0.026, 0.0003, 0.026], [x, 0, z])),
    color: '#f4f1e8',
  });
  for (const [ch, x, z] of marks) {
    world.addBody({ name: `compass-${ch}`, kind: 'static', collides: false, pose: { p: [x, TRAY_TOP + 0.0008, z], q: IDENTITY }, shapes: glyphShapes(ch, letter, 0.001), color: '#1f2d3d' });
  }
  const cubePose: Pose = { p: [...CENTRE] as Vec3, q: IDENTITY };
  world.addBody({ name: 'maze-blocks', kind: 'kinematic', pose: cubePose, shapes: blockShapes(s), color: BLOCK_COLOR, opacity: s.opaque ? 1 : 0.3, tags: ['maze'] });
  world.addBody({ name: 'maze-glass', kind: 'kinematic', pose: cubePose, shapes: glassShapes(s), color: GLASS_COLOR, opacity: 0.16, tags: ['maze'] });
  world.addBody({ name: 'maze-frame', kind: 'kinematic', collides: false, pose: cubePose, shapes: frameShapes(s), color: FRAME_COLOR });
  world.addBody({ name: 'exit-frame', kind: 'kinematic', collides: false, pose: cubePose, shapes: exitFrameShapes(s), color: EXIT_COLOR });
  // The ball rests on its floor (a tenth of a millimetre above it).
  const b = cellCentre(s, s.ball);
  world.addBody({
    name: 'ball',
    kind: 'kinematic',
    pose: { p: [CENTRE[0] + b[0], CENTRE[1] + b[1] - (s.cell / 2 - BALL_RADIUS - 0.0001), CENTRE[2] + b[2]], q: IDENTITY },
    shapes: [{ type: 'ball', radius: BALL_RADIUS }],
    material: { density: 7800, friction: 0.3, restitution: 0 },
    color: BALL_COLOR,
    tags: ['ball'],
  });
  const group = [...CUBE_BODIES, 'ball'];

  /** The cube's orientation and the ball's cell, from the poses. */
  const state = (): MazeState => {
    const pose = world.getPose('maze-blocks');
    const cols = ([[1, 0, 0], [0, 1, 0], [0, 0, 1]] as Vec3[]).map((e) => qrotate(pose.q, e).map((x) => Math.round(x)));
    // Row-major world = M · cube: column j of M is the image of cube axis j.
    const m = [0, 1, 2].flatMap((r) => [0, 1, 2].map((c) => cols[c][r]));
    const o = orientationIndex(m);
    const local = inverseTransformPoint(pose, world.getPose('ball').p);
    const idx = local.map((v) => Math.floor(v / s.cell + s.size / 2));
    if (idx.some((v) => v < 0 || v >= s.size)) return { o, cell: EXITED };
    return { o, cell: cellIndex({ x: idx[0], y: idx[1], z: idx[2] }, s.size) };
  };
  const toExit = turnsToExit(maze, startState(s));
  const key = (st: MazeState): number => (st.cell === EXITED ? -1 : st.o * 64 + st.cell);
  const startTurns = Math.max(1, toExit.get(key(startState(s))) ?? 1);

  const drop = (): void => {
    const from = world.getPose('ball');
    const r = world.sweep('ball', { p: [from.p[0], -0.05, from.p[2]], q: from.q });
    if (!r.hit) throw new SpaceActError('invalid-state', 'P4: the ball fell past the tray');
    if (from.p[1] - r.lastFreePose.p[1] > RESTING) world.moveSwept('ball', r.lastFreePose);
  };
  const turn = (move: MazeMove): string => {
    const { axis, angleDeg } = MOVE_TURN[move];
    world.moveGroupSwept(group, { type: 'rotate', pivot: [...CENTRE] as Vec3, axis, angleDeg });
    drop();
    return `turned the cube: ${move}`;
  };

  return {
    tools: {
      tilt(args) {
        const toward = String(args.toward);
        if (!['north', 'east', 'south', 'west'].includes(toward)) throw new SpaceActError('invalid-argument', 'toward must be north, east, south or west');
        return turn(`tilt ${toward}` as MazeMove);
      },
      spin(args) {
        const direction = String(args.direction);
        if (!['clockwise', 'anticlockwise'].includes(direction)) throw new SpaceActError('invalid-argument', 'direction must be clockwise or anticlockwise');
        return turn(`spin ${direction}` as MazeMove);
      },
    },
    solved() {
      // Out of the cube, lying on the tray.
      const local = inverseTransformPoint(world.getPose('maze-blocks'), world.getPose('ball').p);
      const outside = local.some((v) => Math.abs(v) > half + SHELL);
      return outside && world.getPose('ball').p[1] < TRAY_TOP + BALL_RADIUS + 0.002;
    },
    // The first view (the loop's one picture) shows the tray, the four compass letters, the maze
    // cube (its blocks, glass and edge frame as one part), the exit's yellow frame and the ball.
    // At L5+ the opaque blocks hide on purpose what lies behind them: the ball (seen only through
    // open cells), the exit's frame when the exit faces away from the camera, and the compass
    // letter straight behind the cube (the three others still say which way is north).
    viewParts: () => [
      {
        bodies: [
          { name: 'tray', minPixels: 20000, mayBeCut: true },
          ...['N', 'E', 'S', 'W'].map((ch) => ({ name: `compass-${ch}`, minPixels: 120 })),
          { name: 'maze cube', group: ['maze-blocks', 'maze-glass', 'maze-frame'], minPixels: 20000 },
          { name: 'exit-frame', minPixels: 150 },
          { name: 'ball', minPixels: 200 },
        ],
        letters: ['N', 'E', 'S', 'W'].map((ch) => ({ body: `compass-${ch}`, text: ch, role: 'compass' as const })),
        // Translucent blocks (L1, L3) still dim and cross the compass letter straight behind the
        // cube (about half of it shows): the letters are placed so that the cube hides at most
        // that one, and the three others say which way is north.
        hidden: s.opaque ? hiddenBehindOpaqueCube(s, instance.camera.initial.azimuth) : [`compass-${LETTER_AT_AZIMUTH[(s.viewAzimuth + 180) % 360]}`],
        hiddenBecause: 'the maze cube stands between the first view and the compass letter straight behind it; opaque blocks (L5, L7) also hide the ball and, facing away, the exit frame',
        // What stands behind the cube (hiddenBehindOpaqueCube): the ball, the compass letter
        // straight behind it and the exit's frame when the exit faces away; the letter alone when
        // the blocks are translucent.
        hiddenAtMost: s.opaque ? 3 : 1,
        // The tiles the compass letters stand on (the letters are required).
        scenery: ['compass-tiles'],
        rulers: [],
      },
    ],
    staticsAfter() {
      // Every part is kinematic: the ball ends each turn resting where its drop stopped.
      return false;
    },
    progress() {
      const d = toExit.get(key(state())) ?? -1;
      return d < 0 ? 0 : Math.max(0, 1 - d / startTurns);
    },
    stateText() {
      const st = state();
      if (st.cell === EXITED) return 'The ball is out of the cube.';
      const c = cellOf(st.cell, s.size);
      const pose = world.getPose('maze-blocks');
      const name = (v: Vec3): string => {
        const r = v.map((x) => Math.round(x));
        return r[1] === 1 ? 'up' : r[1] === -1 ? 'down' : r[0] === 1 ? 'east' : r[0] === -1 ? 'west' : r[2] === 1 ? 'south' : 'north';
      };
      return [
        `The ball is in the cell at x ${c.x}, y ${c.y}, z ${c.z} of the maze's own grid (layers[y][z][x] in the scene, the cube's frame at the start).`,
        `The cube's own up now points ${name(qrotate(pose.q, [0, 1, 0]))}, its own south ${name(qrotate(pose.q, [0, 0, 1]))}, its own east ${name(qrotate(pose.q, [1, 0, 0]))}.`,
        `Turns still needed: ${toExit.get(key(st)) ?? -1}.`,
      ].join('\n');
    },
  };
}

