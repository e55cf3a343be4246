/**
 * P5 episode: eight cubies with their stickers as bodies, turned a layer at a time by group
 * motion (the four cubies of a face and their stickers swept together about the face's axis).
 * The position is read back from the cubies' poses: where each cubie is and which way it faces,
 * reduced to one corner held fixed and looked up in the exact distance table.
 */
import { SpaceActError } from '../../../core/errors.ts';
import { qmul, qrotate, qaxisAngle } from '../../../sim/math.ts';
import type { Pose, Quat, Vec3 } from '../../../sim/types.ts';
import type { World } from '../../../sim/world.ts';
import { cubeIndex, pocketCubeDistance, solvedCube, type PocketCubeState } from '../../../solvers/discrete-search/index.ts';
import type { CameraSpec } from '../../../render/camera-spec.ts';
import type { FamilyEnv, Instance, ObservationImage } from '../../types.ts';
import { CENTRE, CUBIE, CUBIE_NAMES, FACE_COLORS, FACE_DIRS, FACES, GAP, HOME, SLOT_FACES, type Face, type P5Scene } from './scene.ts';
import { parseTurn } from './solver.ts';

const r9 = (x: number): number => Math.round(x * 1e9) / 1e9;
const SPACING = (CUBIE + GAP) / 2;

function cubieBody(i: number): string {
  return `cubie-${CUBIE_NAMES[i]}`;
}
function stickerBody(i: number, f: Face): string {
  return `sticker-${CUBIE_NAMES[i]}-${f}`;
}
function homeFaces(i: number): Face[] {
  const h = HOME[i];
  return [h[1] > 0 ? 'U' : 'D', h[0] > 0 ? 'R' : 'L', h[2] > 0 ? 'F' : 'B'];
}
function dot(a: Vec3, b: Vec3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
function roundAxis(v: Vec3): Vec3 {
  return v.map((x) => Math.round(x)) as Vec3;
}
function faceOf(v: Vec3): Face {
  const r = roundAxis(v);
  return FACES.find((f) => dot(FACE_DIRS[f], r) === 1)!;
}

/** Rotation of a turn: clockwise seen from outside the face is a negative angle about its outward normal. */
function turnAngleDeg(quarters: number): number {
  return quarters === 2 ? 180 : quarters === 3 ? 90 : -90;
}

/** Cubie poses after a scramble, from the solved cube (set-up only; play turns are swept). */
function scrambledPoses(scene: P5Scene): Array<{ pos: Vec3; q: Quat }> {
  const cubies = HOME.map((h) => ({ pos: [...h] as Vec3, q: [0, 0, 0, 1] as Quat }));
  for (const name of scene.scramble) {
    const t = parseTurn(name);
    const n = FACE_DIRS[t.face];
    const rot = qaxisAngle(n, (turnAngleDeg(t.quarters) * Math.PI) / 180);
    for (const c of cubies) {
      if (dot(c.pos, n) > 0) {
        c.pos = roundAxis(qrotate(rot, c.pos));
        c.q = qmul(rot, c.q).map(r9) as Quat;
      }
    }
  }
  return cubies;
}

/**
 * The position as the fixed-corner state: each cubie's slot and twist from its pose, after
 * turning the whole cube so that the DBL cubie is home (turning the whole cube changes nothing).
 */
export function readCube(world: World): PocketCubeState {
  const rel = (i: number): { pos: Vec3; q: Quat } => {
    const p = world.getPose(cubieBody(i));
    return { pos: roundAxis([Math.sign(p.p[0] - CENTRE[0]), Math.sign(p.p[1] - CENTRE[1]), Math.sign(p.p[2] - CENTRE[2])]), q: p.q };
  };
  const dbl = rel(6);
  const undo: Quat = [-dbl.q[0], -dbl.q[1], -dbl.q[2], dbl.q[3]];
  const cp = new Array<number>(8).fill(-1);
  const co = new Array<number>(8).fill(0);
  for (let i = 0; i < 8; i++) {
    const c = rel(i);
    const pos = roundAxis(qrotate(undo, c.pos));
    const slot = HOME.findIndex((h) => h[0] === pos[0] && h[1] === pos[1] && h[2] === pos[2]);
    cp[slot] = i;
    // Where the cubie's U/D sticker points now.
    const ud = faceOf(qrotate(undo, qrotate(c.q, [0, HOME[i][1], 0])));
    co[slot] = SLOT_FACES[slot].indexOf(ud);
  }
  if (cp.includes(-1) || co.includes(-1)) throw new SpaceActError('invalid-state', 'the cube is not in a turnable position');
  return { cp, co };
}

/** Builds the stand, the cubies and their stickers, and the `turn` tool. */
export function build(instance: Instance<P5Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  // No stand touches the cube: every point within a corner's reach of the centre is swept by
  // some layer turn, so the cube is held above its base by its core (kinematic cubies).
  world.addBody({ name: 'base', kind: 'static', pose: { p: [0, -0.005, 0], q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half: [0.08, 0.005, 0.08] }], color: '#a6acaf' });
  const start = scrambledPoses(s);
  start.forEach((c, i) => {
    const pose: Pose = { p: [r9(CENTRE[0] + c.pos[0] * SPACING), r9(CENTRE[1] + c.pos[1] * SPACING), r9(CENTRE[2] + c.pos[2] * SPACING)], q: c.q };
    world.addBody({ name: cubieBody(i), kind: 'kinematic', pose, shapes: [{ type: 'box', half: [CUBIE / 2, CUBIE / 2, CUBIE / 2] }], color: '#1c1c1c', tags: ['cubie'] });
    for (const f of homeFaces(i)) {
      const d = FACE_DIRS[f];
      const off = CUBIE / 2 + 0.0005;
      const half: Vec3 = d.map((x) => (x !== 0 ? 0.0005 : CUBIE / 2 - 0.0025)) as Vec3;
      world.addBody({
        name: stickerBody(i, f),
        kind: 'kinematic',
        collides: false,
        pose,
        shapes: [{ type: 'box', half, pose: { p: [d[0] * off, d[1] * off, d[2] * off], q: [0, 0, 0, 1] } }],
        color: FACE_COLORS[f],
      });
    }
  });
  const solvedIndex = cubeIndex(solvedCube());
  const startDistance = Math.max(1, s.distance.htm);

  const stickersUniform = (): boolean => {
    const seen = new Map<Face, string>();
    for (let i = 0; i < 8; i++) {
      const q = world.getPose(cubieBody(i)).q;
      for (const f of homeFaces(i)) {
        const facing = faceOf(qrotate(q, FACE_DIRS[f]));
        const colour = FACE_COLORS[f];
        if (seen.has(facing) && seen.get(facing) !== colour) return false;
        seen.set(facing, colour);
      }
    }
    return true;
  };

  // The second picture of every observation: the cube from the opposite side, from below (from
  // above at L7, which hides the bottom face on purpose).
  const backView = (camera: CameraSpec): CameraSpec => ({ ...camera, azimuth: camera.azimuth + 180, elevation: s.bottomView ? -35 : 35 });
  return {
    tools: {
      turn(args) {
        const face = String(args.face) as Face;
        const angle = Number(args.angle);
        if (!FACES.includes(face) || ![90, 180, -90].includes(angle)) throw new SpaceActError('invalid-argument', 'face must be U, D, R, L, F or B and angle 90, 180 or -90');
        const n = FACE_DIRS[face];
        const members: string[] = [];
        for (let i = 0; i < 8; i++) {
          const p = world.getPose(cubieBody(i)).p;
          if (dot([p[0] - CENTRE[0], p[1] - CENTRE[1], p[2] - CENTRE[2]], n) > 0) members.push(cubieBody(i), ...homeFaces(i).map((f) => stickerBody(i, f)));
        }
        if (members.length !== 16) throw new SpaceActError('invalid-state', `the ${face} layer does not hold four cubies`);
        // Clockwise seen from outside the face: a negative turn about its outward normal.
        world.moveGroupSwept(members, { type: 'rotate', pivot: CENTRE, axis: n, angleDeg: -angle });
        return `turned the ${face} face ${angle === 180 ? 'half a turn' : angle === 90 ? 'a quarter turn clockwise' : 'a quarter turn anticlockwise'}`;
      },
    },
    solved() {
      return cubeIndex(readCube(world)) === solvedIndex && stickersUniform();
    },
    staticsAfter() {
      // The cubies are held by the cube's core (kinematic): nothing can settle.
      return false;
    },
    progress() {
      return Math.max(0, 1 - pocketCubeDistance(readCube(world), 'htm') / startDistance);
    },
    stateText() {
      const st = readCube(world);
      return `Fixed-corner state (Kociemba corner order URF UFL ULB UBR DFR DLF DBL DRB): cubies ${st.cp.map((c) => CUBIE_NAMES[c]).join(' ')}, twists ${st.co.join(' ')}; ${pocketCubeDistance(st, 'htm')} half-turn moves from solved.`;
    },
    // Both pictures of the first observation (view rule, AUTHORING step 4a): the whole cube (its
    // cubies and stickers as one part) in frame and large in both, and in the first the base
    // plate it is held above (wider than the view, it may run past the frame; the view from
    // below does not draw it). Which stickers face away from each
    // picture is the task's own geometry, not declared per sticker.
    viewParts: (ctx) => {
      const cube = ctx.scene().bodies.map((b) => b.name).filter((n) => n !== 'base');
      const whole = { name: 'cube', group: cube, minPixels: 40000 };
      return [
        { label: 'first view', bodies: [whole, { name: 'base', minPixels: 2000, mayBeCut: true }] },
        // The base stands under the cube in this view too; only the cube must be read there.
        { label: 'view from the opposite side', camera: backView(ctx.camera), bodies: [whole], scenery: ['base'] },
      ];
    },
    async observe(ctx) {
      const main = await ctx.renderer.render(ctx.scene(), ctx.camera);
      const back = backView(ctx.camera);
      const second = await ctx.renderer.render(ctx.scene(), back);
      const images: ObservationImage[] = [
        { kind: 'view', png: main, caption: 'Current view.' },
        { kind: 'view', png: second, caption: s.bottomView ? 'The same cube from the opposite side, from below.' : 'The same cube from the opposite side, from above.' },
      ];
      return images;
    },
  };
}
