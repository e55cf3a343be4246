/**
 * T3 episode: the gantry (beam, posts, pivot axle), the pendulum — a rod on a revolute joint at
 * the pivot and a drum-shaped bob fixed to it, both real bodies swinging under gravity — the steel
 * ball held in a clamp above the bob's path, the rulers, and the tools: `wait` lets world time
 * run, `release` opens the clamp (once) and the ball falls.
 *
 * Whether the ball struck the bob is decided by the world after every step: the ball within
 * {@link TOUCH_TOLERANCE} of the drum's collider is a strike; a ball that has fallen below the
 * lowest point the drum ever reaches without one has missed. Nothing a call returns says where
 * the bob is or when it will pass: the strobe frames show it.
 */
import { SpaceActError } from '../../../core/errors.ts';
import type { Pose } from '../../../sim/types.ts';
import type { World, WorldOptions } from '../../../sim/world.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import {
  BALL_DENSITY,
  BALL_Z,
  DRUM_DENSITY,
  DRUM_HALF,
  DT,
  fmt,
  heldBallCentre,
  initialState,
  pivotY,
  ROD_RADIUS,
  rodLength,
  TOUCH_TOLERANCE,
  WAIT_RANGE,
  type T3Scene,
} from './scene.ts';
import { runWait } from '../../kits/world-clock.ts';

/** Body names the rules and the view rule use. */
export const BOB = 'bob';
export const ROD = 'rod';
export const BALL = 'ball';
export const GANTRY = 'gantry';
export const CLAMP = 'clamp';
export const RULER_STRIP = 'ruler-strip';

/** Half-thickness of the gantry's posts (x) and depth (z), m. */
const POST_HALF: [number, number] = [0.015, 0.03];
/** The beam's half height and its bottom's height above the pivot, m. */
const BEAM_HALF_HEIGHT = 0.015;
const BEAM_ABOVE_PIVOT = 0.02;
/**
 * The white board under the swing that carries the horizontal ruler, standing on edge and facing
 * the camera: its front face's z, its height, and how far its top edge is below the drum's lowest
 * point, m. (A strip lying flat is a sliver of pixels at the camera's low elevation.)
 */
export const STRIP_FRONT_Z = 0.1;
export const STRIP_HEIGHT = 0.045;
export const STRIP_BELOW = 0.03;
/** Gap between the clamp and the held ball's top, m. */
const CLAMP_GAP = 0.001;

/** The family's state, kept in `world.meta` so one snapshot rolls it back. */
interface T3State {
  released: boolean;
  struck: boolean;
  missed: boolean;
  /** Least distance between the falling ball and the drum so far, m (for progress). */
  closest: number;
}

function state(world: World): T3State {
  return world.meta.t3 as T3State;
}

/** World settings: the default 1/240 s step, stated so the windows' grid is the family's own. */
export function worldOptions(): WorldOptions {
  return { timestep: DT };
}

/**
 * The x of the gantry's posts (their centres), m: clear of the widest swing, and placed so that
 * the strip's ruler, which runs between them, has its labelled 10 cm mark straight below the
 * pivot (it reads a whole number of tens there).
 */
export function postX(s: T3Scene): number {
  const reach = s.length * Math.sin((s.amplitudeDeg * Math.PI) / 180) + s.bobRadius + 0.03;
  return Math.ceil(reach * 10 - 1e-9) / 10 + POST_HALF[0];
}

/** Height of the drum's lowest point (its surface at the bottom of the swing), m. */
export function drumLowestY(s: T3Scene): number {
  return pivotY(s) - s.length - s.bobRadius;
}

/** Height of the beam's top, m. */
export function beamTopY(s: T3Scene): number {
  return pivotY(s) + BEAM_ABOVE_PIVOT + 2 * BEAM_HALF_HEIGHT;
}

/** The front face of the right post (z), where the vertical ruler lies. */
export function postFrontZ(): number {
  return POST_HALF[1];
}

/** Half-width of the right post, m. */
export function postHalfWidth(): number {
  return POST_HALF[0];
}

function rotZ(theta: number): Pose['q'] {
  return [0, 0, Math.sin(theta / 2), Math.cos(theta / 2)];
}

/** Builds the T3 world for `instance` and returns its tools and tests. */
export function build(instance: Instance<T3Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  const py = pivotY(s);
  const px = postX(s);
  const beamY = py + BEAM_ABOVE_PIVOT + BEAM_HALF_HEIGHT;
  world.meta.t3 = { released: false, struck: false, missed: false, closest: 1 } satisfies T3State;
  world.addBody({ name: 'floor', kind: 'static', pose: { p: [0, -0.01, 0], q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half: [2, 0.01, 1] }], material: { density: 1000, friction: 0.6, restitution: 0 }, visible: false });
  // The gantry: two posts, the beam across them and the bracket holding the pivot axle.
  const postHalfY = (beamY + BEAM_HALF_HEIGHT) / 2;
  world.addBody({
    name: GANTRY,
    kind: 'static',
    pose: { p: [0, 0, 0], q: [0, 0, 0, 1] },
    shapes: [
      { type: 'box', half: [POST_HALF[0], postHalfY, POST_HALF[1]], pose: { p: [-px, postHalfY, 0], q: [0, 0, 0, 1] } },
      { type: 'box', half: [POST_HALF[0], postHalfY, POST_HALF[1]], pose: { p: [px, postHalfY, 0], q: [0, 0, 0, 1] } },
      { type: 'box', half: [px + POST_HALF[0], BEAM_HALF_HEIGHT, 0.06], pose: { p: [0, beamY, 0], q: [0, 0, 0, 1] } },
      { type: 'box', half: [0.008, BEAM_ABOVE_PIVOT / 2 + 0.004, 0.03], pose: { p: [0, py + BEAM_ABOVE_PIVOT / 2 + 0.002, 0], q: [0, 0, 0, 1] } },
      { type: 'cylinder', radius: 0.006, halfHeight: 0.03, pose: { p: [0, py, 0], q: [Math.SQRT1_2, 0, 0, Math.SQRT1_2] } },
    ],
    material: { density: 1000, friction: 0.5, restitution: 0 },
    color: '#5d6d7e',
  });
  // The white board under the swing, in front of the ball's path, carrying the horizontal ruler.
  const stripTop = drumLowestY(s) - STRIP_BELOW;
  world.addBody({
    name: RULER_STRIP,
    kind: 'static',
    collides: false,
    pose: { p: [0, stripTop - STRIP_HEIGHT / 2, STRIP_FRONT_Z - 0.005], q: [0, 0, 0, 1] },
    shapes: [{ type: 'box', half: [px - POST_HALF[0], STRIP_HEIGHT / 2, 0.005] }],
    color: '#fbfcfc',
  });
  // The pendulum: rod and drum, each posed about the pivot, swinging from the phase's angle.
  const [theta0, omega0] = initialState(s);
  const q = rotZ(theta0);
  const rl = rodLength(s);
  world.addBody({
    name: ROD,
    kind: 'dynamic',
    pose: { p: [0, py, 0], q },
    shapes: [{ type: 'cylinder', radius: ROD_RADIUS, halfHeight: rl / 2, pose: { p: [0, -rl / 2, 0], q: [0, 0, 0, 1] } }],
    material: { density: s.rodDensity, friction: 0.5, restitution: 0 },
    color: '#2c3e50',
  });
  world.addBody({
    name: BOB,
    kind: 'dynamic',
    pose: { p: [0, py, 0], q },
    shapes: [{ type: 'cylinder', radius: s.bobRadius, halfHeight: DRUM_HALF, pose: { p: [0, -s.length, 0], q: [Math.SQRT1_2, 0, 0, Math.SQRT1_2] } }],
    material: { density: DRUM_DENSITY, friction: 0.5, restitution: 0 },
    color: '#c0392b',
  });
  world.addJoint({ name: 'pivot', type: 'revolute', bodyA: GANTRY, bodyB: ROD, anchor: [0, py, 0], axis: [0, 0, 1], contacts: false });
  world.addJoint({ name: 'rod-bob', type: 'fixed', bodyA: ROD, bodyB: BOB, anchor: [0, py - rl, 0], contacts: false });
  for (const name of [ROD, BOB]) {
    const c = world.centerOfMass(name);
    world.setVelocity(name, [-omega0 * (c[1] - py), omega0 * c[0], 0], [0, 0, omega0]);
  }
  // The ball in its clamp, and the clamp on its hanger from the beam.
  const ball = heldBallCentre(s);
  world.addBody({
    name: BALL,
    kind: 'kinematic',
    pose: { p: ball, q: [0, 0, 0, 1] },
    shapes: [{ type: 'ball', radius: s.ballRadius }],
    material: { density: BALL_DENSITY, friction: 0.5, restitution: 0 },
    color: '#2471a3',
  });
  const clampBottom = ball[1] + s.ballRadius + CLAMP_GAP;
  const hangerTop = beamY - BEAM_HALF_HEIGHT;
  const hangerHalf = (hangerTop - clampBottom - 0.012) / 2;
  world.addBody({
    name: CLAMP,
    kind: 'static',
    pose: { p: [s.dropX, clampBottom, BALL_Z], q: [0, 0, 0, 1] },
    shapes: [
      { type: 'box', half: [0.012, 0.006, 0.008], pose: { p: [0, 0.006, 0], q: [0, 0, 0, 1] } },
      { type: 'cylinder', radius: 0.002, halfHeight: hangerHalf, pose: { p: [0, 0.012 + hangerHalf, 0], q: [0, 0, 0, 1] } },
    ],
    material: { density: 1000, friction: 0.5, restitution: 0 },
    color: '#7f8c8d',
  });

  // The world judges the strike after every step (rolled back with the meta on a refusal).
  const lowest = drumLowestY(s) - s.ballRadius - 0.002;
  world.addStepListener((w) => {
    const st = state(w);
    if (!st.released || st.struck || st.missed) return;
    const d = w.distance(BALL, BOB, 2);
    if (d < st.closest) st.closest = d;
    if (d <= TOUCH_TOLERANCE) st.struck = true;
    else if (w.getPose(BALL).p[1] < lowest) st.missed = true;
  });

  const failureText = (): string | null => (state(world).missed ? 'The ball fell past the bob without touching it: the run has failed.' : null);
  return {
    tools: {
      wait(args) {
        const waited = runWait(world, args, WAIT_RANGE, 2);
        return state(world).struck ? `${waited} The ball struck the bob.` : waited;
      },
      release() {
        const st = state(world);
        if (st.released) throw new SpaceActError('invalid-state', 'the ball has already been released; it can be released once');
        world.setKind(BALL, 'dynamic');
        st.released = true;
        return 'The clamp opened; the ball falls during the following wait.';
      },
    },
    solved() {
      return state(world).struck;
    },
    failed: failureText,
    staticsAfter() {
      return false;
    },
    // The frame the first strobe strip ends on: the gantry, the pendulum (rod and drum), the ball
    // in its clamp and the ruler strip, with both rulers readable; nothing is hidden (an L7 rod
    // is heavier than it looks, which is not a body).
    viewParts: () => [
      {
        bodies: [
          { name: GANTRY, minPixels: 8000 },
          { name: ROD, minPixels: 300 },
          { name: BOB, minPixels: 250 },
          { name: BALL, minPixels: 60 },
          { name: CLAMP, minPixels: 60 },
          { name: RULER_STRIP, minPixels: 8000 },
        ],
      },
    ],
    progress() {
      const st = state(world);
      if (st.struck) return 1;
      // A miss scores by how close the ball came to the drum (10 cm or more: nothing).
      return st.missed ? 0.9 * Math.max(0, 1 - st.closest / 0.1) : 0;
    },
    stateText() {
      const v = world.getVelocity(BOB).angular[2];
      const b = world.getPose(BALL).p;
      const st = state(world);
      return [
        `Pivot at height ${fmt(py, 4)} m above the floor; the drum's axis is ${fmt(s.length, 4)} m below it; swing amplitude ${fmt(s.amplitudeDeg, 3)}°; rod density ${fmt(s.rodDensity, 1)} kg/m³.`,
        `World time ${fmt(world.time, 4)} s; pendulum angle ${fmt((pendulumAngle(world) * 180) / Math.PI, 3)}° from hanging straight down (positive: toward +x), angular speed ${fmt(v, 4)} rad/s.`,
        `Ball centre (${fmt(b[0], 4)}, ${fmt(b[1], 4)}, ${fmt(b[2], 4)}) m; drop line x = ${fmt(s.dropX, 4)} m; ${st.released ? 'released' : 'held'}${st.struck ? ', struck the bob' : ''}${st.missed ? ', missed' : ''}.`,
      ].join('\n');
    },
    observationText() {
      return state(world).released ? 'The ball has been released.' : 'The ball is held in its clamp.';
    },
  };
}

/** The pendulum's angle now (rad), from the drum's pose: 0 hanging straight down, positive toward +x. */
export function pendulumAngle(world: World): number {
  // The drum's body turns about the pivot's z axis only: its quaternion is (0, 0, sin θ/2, cos θ/2).
  const q = world.getPose(BOB).q;
  return 2 * Math.atan2(q[2], q[3]);
}
