/**
 * T2 episode: the sheet of ice (drawn as one block; its colliders invisible, one per stretch of
 * ice, so an L7 patch shows no seam), the launch pad, the green band, the bumper at the far end,
 * the ruler strip and the puck; the `launch` and `wait` tools.
 *
 * `launch` picks the puck up wherever it is (moving or not), carries it back to the pad by swept
 * motion and gives it its speed along the ice; it takes no world time, so the slide happens
 * during the following `wait`. Nothing a call returns says where the puck is or how fast it
 * goes: the strobe frames show it.
 */
import { SpaceActError } from '../../../core/errors.ts';
import type { Pose, Vec3 } from '../../../sim/types.ts';
import type { World } from '../../../sim/world.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import {
  BUMPER_HEIGHT,
  BUMPER_THICKNESS,
  ICE_BACK,
  ICE_DEPTH,
  ICE_HALF_WIDTH,
  PATCH_DROP,
  PUCK_DENSITY,
  PUCK_HALF_HEIGHT,
  PUCK_RADIUS,
  REST_SPEED,
  slopeCoordinate,
  SPEED_RANGE,
  STRIP_Z,
  surfacePoint,
  WAIT_RANGE,
  zoneCentre,
  type T2Scene,
} from './scene.ts';
import { runWait } from '../../kits/world-clock.ts';

const PUCK = 'puck';
/** Height the puck is carried back at, above the higher of where it is and the pad, m. */
const CARRY_HEIGHT = 0.06;
/** Gap left under the puck set down on the pad, m. */
const SET_DOWN_GAP = 0.0002;

/** The floor's height under the scene: below the ice's lowest point by its depth. */
export function floorY(s: T2Scene): number {
  return Math.min(surfacePoint(s, ICE_BACK)[1], surfacePoint(s, s.end + BUMPER_THICKNESS)[1]) - ICE_DEPTH;
}

function fmt(x: number, digits = 2): string {
  return Number(x.toFixed(digits)).toString();
}

/** The tilt as a quaternion (about z): the ice's +x runs along the launch direction. */
function tiltQuat(s: T2Scene): Pose['q'] {
  const half = (-s.tiltDeg * Math.PI) / 360;
  return [0, 0, Math.sin(half), Math.cos(half)];
}

/** A prism under the ice's surface from slope coordinate `from` to `to`, `drop` below it, down to the floor, across `z`. */
function slabHull(s: T2Scene, from: number, to: number, z: [number, number], drop = 0): { type: 'hull'; points: Vec3[] } {
  const points: Vec3[] = [];
  const bottom = floorY(s);
  for (const at of [from, to]) {
    const top = surfacePoint(s, at, -drop);
    for (const zz of z) points.push([top[0], top[1], zz], [top[0], bottom, zz]);
  }
  return { type: 'hull', points };
}

/** The puck's pose resting on the ice at slope coordinate `at`. */
function puckPose(s: T2Scene, at: number, gap = 0): Pose {
  return { p: surfacePoint(s, at, PUCK_HALF_HEIGHT + gap), q: tiltQuat(s) };
}

/** A thin drawn layer on the ice's surface from `from` to `to` (the pad, the green band). */
function paint(world: World, s: T2Scene, name: string, from: number, to: number, color: string, lift: number, z: [number, number] = [-ICE_HALF_WIDTH, ICE_HALF_WIDTH]): void {
  const mid = surfacePoint(s, (from + to) / 2, lift);
  world.addBody({
    name,
    kind: 'static',
    collides: false,
    pose: { p: [mid[0], mid[1], (z[0] + z[1]) / 2], q: tiltQuat(s) },
    shapes: [{ type: 'box', half: [(to - from) / 2, 0.0003, (z[1] - z[0]) / 2] }],
    color,
  });
}

/** Builds the T2 world for `instance` and returns its tools and tests. */
export function build(instance: Instance<T2Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  const far = s.end + BUMPER_THICKNESS;
  const ice: [number, number] = [-ICE_HALF_WIDTH, ICE_HALF_WIDTH];
  world.addBody({ name: 'floor', kind: 'static', pose: { p: [1, floorY(s) - 0.01, 0], q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half: [3, 0.01, 1] }], visible: false });
  // The ice as drawn: one block whatever lies under it.
  world.addBody({ name: 'ice', kind: 'static', collides: false, pose: { p: [0, 0, 0], q: [0, 0, 0, 1] }, shapes: [slabHull(s, ICE_BACK, far, ice)], color: '#d4e6f1' });
  // The colliders: one convex block per plane of ice, never split along the puck's path. The
  // patch's block reaches back under the whole first stretch a hair below it, so the puck slides
  // off the first stretch onto the middle of a flat face (striking an edge would stop it dead).
  const firstTo = s.patch ? s.patch.from : far;
  world.addBody({ name: 'ice-surface', kind: 'static', pose: { p: [0, 0, 0], q: [0, 0, 0, 1] }, shapes: [slabHull(s, ICE_BACK, firstTo, ice)], material: { density: 900, friction: s.friction, restitution: 0 }, visible: false });
  if (s.patch) {
    world.addBody({ name: 'ice-patch', kind: 'static', pose: { p: [0, 0, 0], q: [0, 0, 0, 1] }, shapes: [slabHull(s, ICE_BACK, far, ice, PATCH_DROP)], material: { density: 900, friction: s.patch.friction, restitution: 0 }, visible: false });
  }
  const bumperCentre = surfacePoint(s, s.end + BUMPER_THICKNESS / 2, BUMPER_HEIGHT / 2);
  world.addBody({
    name: 'bumper',
    kind: 'static',
    pose: { p: bumperCentre, q: tiltQuat(s) },
    shapes: [{ type: 'box', half: [BUMPER_THICKNESS / 2, BUMPER_HEIGHT / 2, ICE_HALF_WIDTH] }],
    material: { density: 1000, friction: 0.5, restitution: 0 },
    color: '#5d6d7e',
  });
  paint(world, s, 'pad', -0.04, 0.04, '#7f8c8d', 0.0004);
  paint(world, s, 'green-band', s.zone.from, s.zone.to, '#27ae60', 0.0004);
  // The ruler's white strip beside the ice's front edge, level with its surface.
  paint(world, s, 'ruler-strip', ICE_BACK, far, '#fbfcfc', 0, STRIP_Z);
  world.addBody({
    name: PUCK,
    kind: 'dynamic',
    pose: puckPose(s, 0, SET_DOWN_GAP),
    shapes: [{ type: 'cylinder', radius: PUCK_RADIUS, halfHeight: PUCK_HALF_HEIGHT }],
    // The puck's rubber is grippier than any ice: a contact takes the smaller coefficient.
    material: { density: PUCK_DENSITY, friction: 1, restitution: 0 },
    color: '#c0392b',
  });

  const speedNow = (): number => {
    const v = world.getVelocity(PUCK).linear;
    return Math.hypot(v[0], v[1], v[2]);
  };
  const atRest = (): boolean => speedNow() < REST_SPEED;
  const where = (): number => slopeCoordinate(s, world.getPose(PUCK).p);
  const dir: Vec3 = [Math.cos((s.tiltDeg * Math.PI) / 180), -Math.sin((s.tiltDeg * Math.PI) / 180), 0];

  return {
    tools: {
      launch(args) {
        const speed = Number(args.speed_mps);
        if (!(speed >= SPEED_RANGE[0] && speed <= SPEED_RANGE[1])) throw new SpaceActError('invalid-argument', `speed_mps must be between ${SPEED_RANGE[0]} and ${SPEED_RANGE[1]}`, { field: 'speed_mps' });
        // Back to the pad by swept motion: up, over, down.
        const from = world.getPose(PUCK).p;
        const pad = puckPose(s, 0, SET_DOWN_GAP);
        const y = Math.max(from[1], pad.p[1]) + CARRY_HEIGHT;
        world.setKind(PUCK, 'kinematic');
        world.moveSwept(PUCK, { p: [from[0], y, from[2]], q: pad.q });
        world.moveSwept(PUCK, { p: [pad.p[0], y, pad.p[2]], q: pad.q });
        world.moveSwept(PUCK, pad);
        world.setKind(PUCK, 'dynamic');
        world.setVelocity(PUCK, [dir[0] * speed, dir[1] * speed, 0], [0, 0, 0]);
        return `The puck is on the pad and launched at ${fmt(speed, 3)} m/s; it slides during the next wait.`;
      },
      wait(args) {
        return runWait(world, args, WAIT_RANGE);
      },
    },
    staticsAfter() {
      return false;
    },
    solved() {
      const at = where();
      return atRest() && at >= s.zone.from && at <= s.zone.to;
    },
    // The first view: the ice, the pad with the puck on it, the green band, the bumper and the
    // ruler strip with its ruler readable; nothing is hidden (an L7 patch is not a body).
    viewParts: () => [
      {
        bodies: [
          { name: 'ice', minPixels: 20000 },
          { name: PUCK, minPixels: 150 },
          { name: 'pad', minPixels: 100 },
          { name: 'green-band', minPixels: 200 },
          { name: 'bumper', minPixels: 150 },
          { name: 'ruler-strip', minPixels: 8000 },
        ],
      },
    ],
    progress() {
      if (!atRest()) return 0;
      const centre = zoneCentre(s);
      return Math.max(0, Math.min(0.95, 1 - Math.abs(where() - centre) / centre));
    },
    stateText() {
      return [
        `Tilt ${fmt(s.tiltDeg, 3)}° (positive: downhill in the launch direction); ice friction ${fmt(s.friction, 4)}${s.patch ? `, ${fmt(s.patch.friction, 4)} from ${fmt(s.patch.from, 4)} m on` : ''}.`,
        `Green band from ${fmt(s.zone.from, 4)} to ${fmt(s.zone.to, 4)} m along the ice from the pad's centre; bumper at ${fmt(s.end, 4)} m.`,
        `Puck at ${fmt(where(), 4)} m, speed ${fmt(speedNow(), 4)} m/s; world time ${fmt(world.time, 3)} s.`,
      ].join('\n');
    },
  };
}
