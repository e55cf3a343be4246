/**
 * T5 episode: the fulcrum (a post with a pin, sliding along the floor behind the lever), the
 * lever (a wooden beam hanging from the pin on an aluminium hanger, a crate bolted on its load
 * end, a steel counterweight clamped on its top), the marker post with the green target band
 * and the height ruler, and the white board under the lever with the distance ruler; the
 * `set_fulcrum`, `set_counterweight`, `release` and `wait` tools.
 *
 * While latched the lever's parts are kinematic and level. `release()` joins them into one rigid
 * lever (multibody fixed joints: exactly rigid) hanging from the stand's pin on a real revolute
 * joint with limits (the stops) and a damped hinge (a velocity motor at speed 0, no torque at
 * rest), and makes them dynamic. Setting the fulcrum or the counterweight first latches the lever
 * again: it turns back to level about the pin by swept motion and the joints are removed. Nothing
 * a call returns says where the lever came to rest.
 */
import { ViolationError } from '../../../sim/violation.ts';
import type { Pose, Vec3 } from '../../../sim/types.ts';
import type { World } from '../../../sim/world.ts';
import { runWait } from '../../kits/world-clock.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import {
  balanceCrateY,
  bandMiddle,
  BEAM_DENSITY,
  BEAM_T,
  BEAM_W,
  beamTopY,
  counterweightRange,
  CRATE_DENSITY,
  CW_DENSITY,
  CW_GAP,
  CW_SIDE,
  DT,
  fmt,
  FREE_MARGIN_DEG,
  fulcrumRange,
  HANG,
  HANGER_DENSITY,
  HANGER_THICK,
  HANGER_WIDTH,
  HANGER_Z,
  hangerHeight,
  HINGE_DAMPING,
  LIMIT_DEG,
  PIN_Y,
  REST_HOLD_S,
  REST_OMEGA,
  WAIT_RANGE,
  type T5Scene,
} from './scene.ts';

export const STAND = 'fulcrum';
export const HANGER = 'hanger';
export const LEVER = 'lever';
export const CRATE = 'crate';
export const COUNTERWEIGHT = 'counterweight';
export const MARKER = 'marker';
export const BAND = 'band';
export const BOARD = 'ruler-board';
/** The lever's parts, turned together. */
const PARTS = [HANGER, LEVER, CRATE, COUNTERWEIGHT];
/** The stand's post: half its width (x) and depth (z), and its z (behind the crate's widest reach). */
const POST_HALF: [number, number] = [0.018, 0.014];
const POST_Z = -0.086;
/** The stand's foot: half its size, m. */
const FOOT_HALF: Vec3 = [0.07, 0.01, 0.05];
/** Radius of the pin, m. */
const PIN_R = 0.006;
/** The marker post: x of its centre, half its width and depth, m; its front face is in the lever's front plane. */
export const MARKER_X = -0.085;
const MARKER_HALF: [number, number] = [0.03, 0.015];
export const MARKER_FRONT_Z = BEAM_W / 2;
/** Height of the marker post, m. */
export const MARKER_TOP = PIN_Y + 0.32;
/** The white board under the lever carrying the distance ruler: height, z of its front face, m. */
export const BOARD_HEIGHT = 0.07;
export const BOARD_Z = 0.14;
/** Gap kept under the counterweight as it slides along the lever, m. */
const SLIDE_LIFT = 0.002;

const ID: Pose['q'] = [0, 0, 0, 1];

/** The family's state, kept in `world.meta` so one snapshot rolls it back. */
interface T5State {
  released: boolean;
  fulcrum: number;
  counterweight: number;
  /** World steps the lever has rested (slower than {@link REST_OMEGA}) with the crate's centre in the band. */
  restSteps: number;
}

function state(world: World): T5State {
  return world.meta.t5 as T5State;
}

/** A rotation about z by `deg` degrees. */
function aboutZ(deg: number): Pose['q'] {
  const half = (deg * Math.PI) / 360;
  return [0, 0, Math.sin(half), Math.cos(half)];
}

/** The lever's angle now, degrees counter-clockwise seen from the first camera (0: level). */
export function leverAngleDeg(world: World): number {
  const q = world.getPose(LEVER).q;
  return (2 * Math.atan2(q[2], q[3]) * 180) / Math.PI;
}

function standPose(x: number): Pose {
  return { p: [x, 0, POST_Z], q: ID };
}

function hangerPose(x: number): Pose {
  return { p: [x, PIN_Y - HANG + hangerHeight() / 2, HANGER_Z], q: ID };
}

function counterweightPose(x: number, lift = 0): Pose {
  return { p: [x, beamTopY() + CW_GAP + CW_SIDE / 2 + lift, 0], q: ID };
}

/** Builds the T5 world for `instance` and returns its tools and tests. */
export function build(instance: Instance<T5Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  const L = s.leverLength;
  world.meta.t5 = { released: false, fulcrum: s.fulcrumStart, counterweight: s.counterweightStart, restSteps: 0 } satisfies T5State;
  world.addBody({ name: 'floor', kind: 'static', pose: { p: [0.6, -0.01, 0], q: ID }, shapes: [{ type: 'box', half: [2, 0.01, 1] }], visible: false });
  // The stand: a foot on the floor, a post behind the lever and the pin reaching forward to the hanger.
  const pinFrontZ = HANGER_Z + HANGER_THICK / 2 + 0.004;
  const pinBackZ = POST_Z + POST_HALF[1];
  world.addBody({
    name: STAND,
    kind: 'kinematic',
    pose: standPose(s.fulcrumStart),
    shapes: [
      { type: 'box', half: FOOT_HALF, pose: { p: [0, FOOT_HALF[1] + 0.001, 0], q: ID } },
      { type: 'box', half: [POST_HALF[0], (PIN_Y + 0.03) / 2, POST_HALF[1]], pose: { p: [0, (PIN_Y + 0.03) / 2, 0], q: ID } },
      {
        type: 'cylinder',
        radius: PIN_R,
        halfHeight: (pinFrontZ - pinBackZ) / 2,
        pose: { p: [0, PIN_Y, (pinFrontZ + pinBackZ) / 2 - POST_Z], q: [Math.SQRT1_2, 0, 0, Math.SQRT1_2] },
      },
    ],
    material: { density: 2000, friction: 0.5, restitution: 0 },
    color: '#34495e',
  });
  world.addBody({
    name: HANGER,
    kind: 'kinematic',
    pose: hangerPose(s.fulcrumStart),
    shapes: [{ type: 'box', half: [HANGER_WIDTH / 2, hangerHeight() / 2, HANGER_THICK / 2] }],
    material: { density: HANGER_DENSITY, friction: 0.5, restitution: 0 },
    color: '#aab7b8',
  });
  world.addBody({
    name: LEVER,
    kind: 'kinematic',
    pose: { p: [L / 2, PIN_Y - HANG, 0], q: ID },
    shapes: [{ type: 'box', half: [L / 2, BEAM_T / 2, BEAM_W / 2] }],
    material: { density: BEAM_DENSITY, friction: 0.6, restitution: 0 },
    color: '#c8a165',
  });
  world.addBody({
    name: CRATE,
    kind: 'kinematic',
    pose: { p: [s.crateSide / 2, beamTopY() + s.crateSide / 2, 0], q: ID },
    shapes: [{ type: 'box', half: [s.crateSide / 2, s.crateSide / 2, s.crateSide / 2] }],
    material: { density: s.crateDensity, friction: 0.6, restitution: 0 },
    color: '#b9770e',
  });
  world.addBody({
    name: COUNTERWEIGHT,
    kind: 'kinematic',
    pose: counterweightPose(s.counterweightStart),
    shapes: [{ type: 'box', half: [CW_SIDE / 2, CW_SIDE / 2, CW_SIDE / 2] }],
    material: { density: CW_DENSITY, friction: 0.6, restitution: 0 },
    color: '#566573',
  });
  // The marker post (drawn only: the crate passes beside it), the green band on its front face,
  // and the white board under the lever for the distance ruler.
  world.addBody({
    name: MARKER,
    kind: 'static',
    collides: false,
    pose: { p: [MARKER_X, MARKER_TOP / 2, MARKER_FRONT_Z - MARKER_HALF[1]], q: ID },
    shapes: [{ type: 'box', half: [MARKER_HALF[0], MARKER_TOP / 2, MARKER_HALF[1]] }],
    color: '#fbfcfc',
  });
  world.addBody({
    name: BAND,
    kind: 'static',
    collides: false,
    pose: { p: [MARKER_X, (s.bandLow + s.bandHigh) / 2, MARKER_FRONT_Z + 0.0006], q: ID },
    shapes: [{ type: 'box', half: [MARKER_HALF[0] + 0.025, (s.bandHigh - s.bandLow) / 2, 0.0005] }],
    color: '#27ae60',
    opacity: 0.85,
  });
  world.addBody({
    name: BOARD,
    kind: 'static',
    collides: false,
    pose: { p: [(L + 0.06) / 2 - 0.03, BOARD_HEIGHT / 2, BOARD_Z - 0.005], q: ID },
    shapes: [{ type: 'box', half: [(L + 0.06) / 2, BOARD_HEIGHT / 2, 0.005] }],
    color: '#fbfcfc',
  });

  // The world judges rest after every step (rolled back with the meta on a refusal).
  world.addStepListener((w) => {
    const st = state(w);
    if (!st.released) return;
    const omega = Math.abs(w.getVelocity(LEVER).angular[2]);
    const y = w.getPose(CRATE).p[1];
    const free = Math.abs(leverAngleDeg(w)) < LIMIT_DEG - FREE_MARGIN_DEG;
    if (free && omega < REST_OMEGA && y >= s.bandLow && y <= s.bandHigh) st.restSteps++;
    else st.restSteps = 0;
  });

  const pin = (): Vec3 => [state(world).fulcrum, PIN_Y, 0];
  /** Joins the parts into one lever on the pin and lets it go. */
  const release = (): void => {
    const st = state(world);
    for (const name of PARTS) world.setKind(name, 'dynamic');
    world.addJoint({
      name: 'pivot',
      type: 'revolute',
      bodyA: STAND,
      bodyB: HANGER,
      anchor: pin(),
      axis: [0, 0, 1],
      limits: [-LIMIT_DEG, LIMIT_DEG],
      motor: { velocity: 0, damping: HINGE_DAMPING },
      contacts: false,
    });
    const at = (x: number): Vec3 => [x, beamTopY(), 0];
    world.addJoint({ name: 'hanger-lever', type: 'fixed', bodyA: HANGER, bodyB: LEVER, anchor: [st.fulcrum, PIN_Y - HANG, 0], contacts: false, multibody: true });
    world.addJoint({ name: 'lever-crate', type: 'fixed', bodyA: LEVER, bodyB: CRATE, anchor: at(s.crateSide / 2), contacts: false, multibody: true });
    world.addJoint({ name: 'lever-counterweight', type: 'fixed', bodyA: LEVER, bodyB: COUNTERWEIGHT, anchor: at(st.counterweight), contacts: false, multibody: true });
    st.released = true;
    st.restSteps = 0;
  };
  /** Turns the lever back to level about the pin (swept) and holds it there, its joints removed. */
  const latch = (): void => {
    const st = state(world);
    if (!st.released) return;
    for (const j of ['lever-counterweight', 'lever-crate', 'hanger-lever', 'pivot']) world.removeJoint(j);
    for (const name of PARTS) world.setKind(name, 'kinematic');
    const deg = leverAngleDeg(world);
    // The pin runs through the hanger (they turn about it), so the stand is no obstacle to this turn.
    if (Math.abs(deg) > 1e-9) world.moveGroupSwept(PARTS, { type: 'rotate', pivot: pin(), axis: [0, 0, 1], angleDeg: -deg }, { exclude: [STAND] });
    st.released = false;
    st.restSteps = 0;
  };
  const refuse = (bodies: string[], message: string): never => {
    throw new ViolationError({ kind: 'rule', bodies, message });
  };

  return {
    tools: {
      set_fulcrum(args) {
        const x = Number(args.distance_m);
        const r = fulcrumRange(s);
        if (!(x >= r[0] && x <= r[1])) refuse([STAND, LEVER], "The fulcrum must stand under the lever's bare beam, not under the crate or too near an end; nothing was moved.");
        latch();
        // The stand slides along the floor behind the lever, the hanger with it along the beam.
        world.moveGroupSwept([STAND, HANGER], { type: 'path', frame: standPose(state(world).fulcrum), waypoints: [standPose(x)] });
        state(world).fulcrum = x;
        return 'The lever is latched level and hangs from the fulcrum at the new place.';
      },
      set_counterweight(args) {
        const x = Number(args.distance_m);
        const r = counterweightRange(s);
        if (!(x >= r[0] && x <= r[1])) refuse([COUNTERWEIGHT, LEVER], 'The counterweight must sit wholly on the lever beside the crate; nothing was moved.');
        latch();
        const from = state(world).counterweight;
        world.moveSwept(COUNTERWEIGHT, counterweightPose(from, SLIDE_LIFT));
        world.moveSwept(COUNTERWEIGHT, counterweightPose(x, SLIDE_LIFT));
        world.moveSwept(COUNTERWEIGHT, counterweightPose(x));
        state(world).counterweight = x;
        return 'The lever is latched level and the counterweight is clamped at the new place.';
      },
      release() {
        if (state(world).released) refuse([LEVER], 'The lever is already free; nothing changed.');
        release();
        return 'The latch opened; the lever turns during the following waits.';
      },
      wait(args) {
        return runWait(world, args, WAIT_RANGE);
      },
    },
    staticsAfter() {
      return false;
    },
    solved() {
      const st = state(world);
      return st.released && st.restSteps * DT >= REST_HOLD_S - 1e-9;
    },
    viewParts: () => [
      {
        bodies: [
          { name: STAND, minPixels: 3000 },
          { name: HANGER, minPixels: 300 },
          { name: LEVER, minPixels: 8000 },
          { name: CRATE, minPixels: 1500 },
          { name: COUNTERWEIGHT, minPixels: 600 },
          { name: MARKER, minPixels: 6000 },
          { name: BAND, minPixels: 400 },
          { name: BOARD, minPixels: 6000 },
        ],
      },
    ],
    progress() {
      const st = state(world);
      // Headway is how near the crate's resting height (by the moment balance) is to the band's middle.
      const miss = Math.abs(balanceCrateY(s, st.fulcrum, st.counterweight) - bandMiddle(s));
      return Math.max(0, Math.min(0.9, 0.9 * (1 - miss / 0.2)));
    },
    stateText() {
      const st = state(world);
      const c = world.getPose(CRATE).p;
      return [
        `Lever ${fmt(L, 4)} m, crate ${fmt(s.crateSide, 4)} m at ${fmt(s.crateDensity, 1)} kg/m³ (stated ${CRATE_DENSITY}); counterweight ${fmt(CW_DENSITY * CW_SIDE ** 3, 3)} kg.`,
        `Fulcrum at ${fmt(st.fulcrum, 4)} m, counterweight at ${fmt(st.counterweight, 4)} m from the load end; ${st.released ? 'released' : 'latched'}.`,
        `Lever at ${fmt(leverAngleDeg(world), 3)}°; crate centre at ${fmt(c[1], 4)} m (band ${fmt(s.bandLow, 4)}–${fmt(s.bandHigh, 4)} m; moment balance ${fmt(balanceCrateY(s, st.fulcrum, st.counterweight), 4)} m); world time ${fmt(world.time, 3)} s.`,
      ].join('\n');
    },
    observationText() {
      return state(world).released ? 'The lever is free on its pin.' : 'The lever is latched level.';
    },
  };
}

/** Points the first camera must show: the marker post, the lever's far end, the floor and the top of the post, with room for the labels. */
export function framePoints(s: T5Scene): Vec3[] {
  const far = s.leverLength + 0.04;
  return [
    [MARKER_X - MARKER_HALF[0] - 0.1, MARKER_TOP + 0.02, 0],
    [MARKER_X - MARKER_HALF[0] - 0.1, -0.02, BOARD_Z],
    [far, PIN_Y + 0.12, 0],
    [far, -0.02, BOARD_Z],
  ];
}
