/**
 * T4 episode: the table with the launcher at its edge, the shelf beyond it with the catcher (an
 * open box) and a stop at its far end, the ruler strips (along the shelf and up the table's
 * front) and the ball; the `place_catcher`, `fire` and `wait` tools.
 *
 * `fire` and `place_catcher` first carry the ball back into the launcher's cradle by swept
 * motion (up, over, down) wherever it is, so a placement never collides with a ball lying on the
 * shelf; `fire` then gives it the launcher's speed. Neither takes world time: the flight happens
 * during the following waits. Nothing a call returns says where the ball went.
 */
import { SpaceActError } from '../../../core/errors.ts';
import type { Pose, ShapeSpec, Vec3 } from '../../../sim/types.ts';
import type { World } from '../../../sim/world.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import {
  BALL_DENSITY,
  BALL_RADIUS,
  CATCHER_BASE,
  catchWindowAnalytic,
  CATCHER_GAP,
  CATCHER_HALF_OUTER,
  CATCHER_HEIGHT,
  CATCHER_INNER,
  CATCHER_WALL,
  launchPoint,
  PLACE_RANGE,
  REST_SPEED,
  rimCrossing,
  SHELF_END,
  SHELF_HALF_DEPTH,
  STOP_HEIGHT,
  STOP_THICKNESS,
  STRIP_Z,
  TABLE_BACK,
  TABLE_HALF_DEPTH,
  WAIT_RANGE,
  type T4Scene,
} from './scene.ts';
import { runWait } from '../../kits/world-clock.ts';

const BALL = 'ball';
const CATCHER = 'catcher';
/** How far above the higher of where the ball is and the cradle it is carried back, m. */
const CARRY_HEIGHT = 0.12;
/** Where the white strip for the height ruler lies on the table's front face (x from, to), m. */
export const HEIGHT_STRIP_X: [number, number] = [TABLE_BACK + 0.01, TABLE_BACK + 0.06];
/** The launcher's barrel: half its length and half its thickness, m. */
const BARREL_HALF: [number, number] = [0.045, 0.014];

function fmt(x: number, digits = 2): string {
  return Number(x.toFixed(digits)).toString();
}

/** A rotation about z by `deg` degrees. */
function aboutZ(deg: number): Pose['q'] {
  const half = (deg * Math.PI) / 360;
  return [0, 0, Math.sin(half), Math.cos(half)];
}

/** The catcher's shapes in its own frame: origin at the middle of its base's underside. */
function catcherShapes(): ShapeSpec[] {
  const outer = CATCHER_HALF_OUTER;
  const wallY = CATCHER_BASE + (CATCHER_HEIGHT - CATCHER_BASE) / 2;
  const wallHalfY = (CATCHER_HEIGHT - CATCHER_BASE) / 2;
  const id: Pose['q'] = [0, 0, 0, 1];
  return [
    { type: 'box', half: [outer, CATCHER_BASE / 2, outer], pose: { p: [0, CATCHER_BASE / 2, 0], q: id } },
    { type: 'box', half: [CATCHER_WALL / 2, wallHalfY, outer], pose: { p: [-outer + CATCHER_WALL / 2, wallY, 0], q: id } },
    { type: 'box', half: [CATCHER_WALL / 2, wallHalfY, outer], pose: { p: [outer - CATCHER_WALL / 2, wallY, 0], q: id } },
    { type: 'box', half: [CATCHER_INNER / 2, wallHalfY, CATCHER_WALL / 2], pose: { p: [0, wallY, -outer + CATCHER_WALL / 2], q: id } },
    { type: 'box', half: [CATCHER_INNER / 2, wallHalfY, CATCHER_WALL / 2], pose: { p: [0, wallY, outer - CATCHER_WALL / 2], q: id } },
  ];
}

/** The catcher's pose with its centre at `x` along the shelf. */
export function catcherPose(s: T4Scene, x: number): Pose {
  return { p: [x, s.shelfHeight + CATCHER_GAP, 0], q: [0, 0, 0, 1] };
}

/** The ball's pose in the launcher's cradle. */
function cradlePose(s: T4Scene): Pose {
  const [x, y] = launchPoint(s);
  return { p: [x, y, 0], q: [0, 0, 0, 1] };
}

/** Where a drag-free ball is best caught: the middle of the placements that catch it by geometry. */
export function analyticCatch(s: T4Scene): number {
  const w = catchWindowAnalytic(s);
  return (w.from + w.to) / 2;
}

/** Builds the T4 world for `instance` and returns its tools and tests. */
export function build(instance: Instance<T4Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  const H = s.tableHeight;
  const D = s.shelfHeight;
  const id: Pose['q'] = [0, 0, 0, 1];
  world.addBody({ name: 'floor', kind: 'static', pose: { p: [0.7, -0.01, 0], q: id }, shapes: [{ type: 'box', half: [2, 0.01, 1] }], visible: false });
  world.addBody({
    name: 'table',
    kind: 'static',
    pose: { p: [TABLE_BACK / 2, H / 2, 0], q: id },
    shapes: [{ type: 'box', half: [-TABLE_BACK / 2, H / 2, TABLE_HALF_DEPTH] }],
    material: { density: 700, friction: 0.6, restitution: 0 },
    color: '#a0522d',
  });
  const shelfTo = SHELF_END + STOP_THICKNESS;
  world.addBody({
    name: 'shelf',
    kind: 'static',
    pose: { p: [shelfTo / 2, D / 2, 0], q: id },
    shapes: [{ type: 'box', half: [shelfTo / 2, D / 2, SHELF_HALF_DEPTH] }],
    material: { density: 700, friction: 0.6, restitution: 0 },
    color: '#95a5a6',
  });
  world.addBody({
    name: 'stop',
    kind: 'static',
    pose: { p: [SHELF_END + STOP_THICKNESS / 2, D + STOP_HEIGHT / 2, 0], q: id },
    shapes: [{ type: 'box', half: [STOP_THICKNESS / 2, STOP_HEIGHT / 2, SHELF_HALF_DEPTH] }],
    material: { density: 700, friction: 0, restitution: 0 },
    color: '#5d6d7e',
  });
  // The ruler strips: along the shelf's front edge, and up the table's front face from the shelf's height.
  world.addBody({
    name: 'ruler-strip',
    kind: 'static',
    collides: false,
    pose: { p: [shelfTo / 2, D + 0.0003, (STRIP_Z[0] + STRIP_Z[1]) / 2], q: id },
    shapes: [{ type: 'box', half: [shelfTo / 2, 0.0003, (STRIP_Z[1] - STRIP_Z[0]) / 2] }],
    color: '#fbfcfc',
  });
  const stripTop = H - 0.005;
  world.addBody({
    name: 'height-strip',
    kind: 'static',
    collides: false,
    pose: { p: [(HEIGHT_STRIP_X[0] + HEIGHT_STRIP_X[1]) / 2, (D + stripTop) / 2, TABLE_HALF_DEPTH + 0.0003], q: id },
    shapes: [{ type: 'box', half: [(HEIGHT_STRIP_X[1] - HEIGHT_STRIP_X[0]) / 2, (stripTop - D) / 2, 0.0003] }],
    color: '#fbfcfc',
  });
  // The launcher's barrel, drawn along the barrel's angle behind the cradle (no collider: the
  // ball leaves it without touching it).
  const [x0, y0] = launchPoint(s);
  const b = (s.barrelDeg * Math.PI) / 180;
  const back = BALL_RADIUS + 0.003 + BARREL_HALF[0];
  world.addBody({
    name: 'launcher',
    kind: 'static',
    collides: false,
    pose: { p: [x0 - back * Math.cos(b), y0 - back * Math.sin(b), 0], q: aboutZ(s.barrelDeg) },
    shapes: [{ type: 'box', half: [BARREL_HALF[0], BARREL_HALF[1], BARREL_HALF[1]] }],
    color: '#2c3e50',
  });
  world.addBody({
    name: CATCHER,
    kind: 'kinematic',
    pose: catcherPose(s, s.catcherStart),
    shapes: catcherShapes(),
    // Frictionless (a contact takes the smaller coefficient): a spinning ball that meets a wall
    // cannot climb it, so only a ball that drops in between the walls is caught.
    material: { density: 700, friction: 0, restitution: 0 },
    color: '#f39c12',
  });
  world.addBody({
    name: BALL,
    kind: 'dynamic',
    pose: cradlePose(s),
    shapes: [{ type: 'ball', radius: BALL_RADIUS }],
    material: { density: BALL_DENSITY, friction: 0.6, restitution: 0 },
    color: '#c0392b',
    ccd: true,
  });
  const launch = (): void => {
    const a = (s.launchDeg * Math.PI) / 180;
    world.setVelocity(BALL, [s.speed * Math.cos(a), s.speed * Math.sin(a), 0], [0, 0, 0]);
  };
  // The launcher fires once as the episode begins: the first strobe strip shows that shot.
  launch();

  const speedNow = (): number => {
    const v = world.getVelocity(BALL).linear;
    return Math.hypot(v[0], v[1], v[2]);
  };
  const inCradle = (): boolean => {
    const p = world.getPose(BALL).p;
    const c = cradlePose(s).p;
    return world.bodyKind(BALL) === 'kinematic' && Math.hypot(p[0] - c[0], p[1] - c[1], p[2] - c[2]) < 1e-6;
  };
  // Back to the cradle by swept motion (up, over, down), held there until fired.
  const reload = (): void => {
    if (inCradle()) return;
    const from = world.getPose(BALL).p;
    const cradle = cradlePose(s);
    const y = Math.max(from[1], cradle.p[1]) + CARRY_HEIGHT;
    world.setKind(BALL, 'kinematic');
    world.moveSwept(BALL, { p: [from[0], y, from[2]], q: cradle.q });
    world.moveSwept(BALL, { p: [cradle.p[0], y, cradle.p[2]], q: cradle.q });
    world.moveSwept(BALL, cradle);
  };
  const catcherX = (): number => world.getPose(CATCHER).p[0];
  const inCatcher = (): boolean => {
    const p = world.getPose(BALL).p;
    const c = world.getPose(CATCHER).p;
    const half = CATCHER_INNER / 2;
    return Math.abs(p[0] - c[0]) < half && Math.abs(p[2] - c[2]) < half && p[1] > c[1] && p[1] < c[1] + CATCHER_HEIGHT + BALL_RADIUS;
  };

  return {
    tools: {
      place_catcher(args) {
        const x = Number(args.distance_m);
        if (!(x >= PLACE_RANGE[0] && x <= PLACE_RANGE[1])) throw new SpaceActError('invalid-argument', `distance_m must be between ${PLACE_RANGE[0]} and ${PLACE_RANGE[1]}`, { field: 'distance_m' });
        reload();
        // Along the shelf, a hair above it: nothing else lies on the shelf once the ball is back.
        world.moveSwept(CATCHER, catcherPose(s, x));
        return `The ball is back in the launcher and the catcher stands at ${fmt(x, 3)} m.`;
      },
      fire() {
        reload();
        world.setKind(BALL, 'dynamic');
        launch();
        return 'The launcher fired; the ball flies during the next wait.';
      },
      wait(args) {
        return runWait(world, args, WAIT_RANGE);
      },
    },
    staticsAfter() {
      return false;
    },
    solved() {
      return world.bodyKind(BALL) === 'dynamic' && speedNow() < REST_SPEED && inCatcher();
    },
    // The first view: every part the rules name, the ball in its cradle and both rulers readable.
    viewParts: () => [
      {
        bodies: [
          { name: 'table', minPixels: 8000 },
          { name: 'launcher', minPixels: 200 },
          { name: BALL, minPixels: 200 },
          { name: 'shelf', minPixels: 8000 },
          { name: CATCHER, minPixels: 600 },
          { name: 'stop', minPixels: 200 },
          { name: 'ruler-strip', minPixels: 6000 },
          { name: 'height-strip', minPixels: 1000 },
        ],
      },
    ],
    progress() {
      // Headway is the catcher's distance from where the ball comes down.
      const miss = Math.abs(catcherX() - analyticCatch(s));
      return Math.max(0, Math.min(0.9, 0.9 * (1 - miss / 0.5)));
    },
    stateText() {
      const p = world.getPose(BALL).p;
      return [
        `Table ${fmt(H, 4)} m high, shelf ${fmt(D, 4)} m; barrel drawn at ${fmt(s.barrelDeg, 3)}°, the ball leaves at ${fmt(s.launchDeg, 3)}° and ${fmt(s.speed, 4)} m/s.`,
        `The ball's centre crosses the catcher's rim plane at ${fmt(rimCrossing(s), 4)} m; catcher at ${fmt(catcherX(), 4)} m.`,
        `Ball at (${fmt(p[0], 4)}, ${fmt(p[1], 4)}) m, speed ${fmt(speedNow(), 4)} m/s; world time ${fmt(world.time, 3)} s.`,
      ].join('\n');
    },
  };
}

/** Points the first camera must show: the table's back, the shelf's far end, the flight's top and room for the labels. */
export function framePoints(s: T4Scene, apex: number): Vec3[] {
  const far = SHELF_END + STOP_THICKNESS;
  const top = Math.max(s.tableHeight + 0.1, apex + BALL_RADIUS + 0.03);
  return [
    [TABLE_BACK, top, -TABLE_HALF_DEPTH],
    [TABLE_BACK, -0.03, SHELF_HALF_DEPTH],
    [far, s.shelfHeight + STOP_HEIGHT + 0.01, -SHELF_HALF_DEPTH],
    [far, -0.03, SHELF_HALF_DEPTH],
    [0.6, top, 0],
  ];
}
