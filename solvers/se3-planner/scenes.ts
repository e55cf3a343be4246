/**
 * The planner's own narrow-passage scene, used by its tests and by `npm run bench`: a wall with
 * a rectangular slot and a box-shaped part that must pass through it.
 *
 * The wall stands across z = 0 (thickness {@link SLOT_WALL_THICKNESS}), the slot is centred
 * {@link SLOT_CENTRE_HEIGHT} above the floor, and the part — a box 100 × 40 × 20 mm — starts on the
 * +z side, off the slot's axis and turned 25° away from the orientation that fits, and must end
 * on the −z side, off the axis and turned again. The slot is `40 + 2c` by `20 + 2c` mm for a
 * clearance `c` per side, so the part passes only end-on, with its 40 mm side along x and its
 * 20 mm side vertical (or turned half a turn about its long axis), within a few degrees and
 * millimetres: a narrow passage in orientation as well as in position, 120 mm long (the part's
 * length plus the wall's thickness).
 */
import { qaxisAngle, qmul, qnormalize } from '../../sim/math.ts';
import type { Pose, Quat, Vec3 } from '../../sim/types.ts';
import type { World } from '../../sim/world.ts';

/** Half extents of the part, metres (100 × 40 × 20 mm). */
export const SLOT_PART_HALF: Vec3 = [0.05, 0.02, 0.01];
/** Thickness of the wall, metres. */
export const SLOT_WALL_THICKNESS = 0.02;
/** Height of the slot's centre above the floor, metres. */
export const SLOT_CENTRE_HEIGHT = 0.2;
/** Half extents of the wall (x, y), metres. */
const WALL_HALF = { x: 0.3, y: 0.2 };

/** Settings of {@link buildSlotScene}. */
export interface SlotSceneOptions {
  /** Slot width (along x) and height (along y), metres. */
  width: number;
  height: number;
}

/** The slot for a clearance per side: the part's 40 × 20 mm end face grown by `c` all round. */
export function slotForClearance(c: number): SlotSceneOptions {
  return { width: 2 * SLOT_PART_HALF[1] + 2 * c, height: 2 * SLOT_PART_HALF[2] + 2 * c };
}

/**
 * The orientation in which the part fits the slot end-on: its long side (local x) along −z
 * through the wall, its 40 mm side (local y) along x and its 20 mm side (local z) along y.
 */
export const SLOT_FIT: Quat = [-0.5, -0.5, -0.5, 0.5];

/** The part's start pose: 15 cm in front of the wall, 4 cm off the slot's axis, turned 25° off the fitting orientation. */
export const SLOT_START: Pose = {
  p: [0.04, 0.17, 0.15],
  q: qnormalize(qmul(qaxisAngle(qnormalize3([1, 2, 0.5]), (25 * Math.PI) / 180), SLOT_FIT)) as Quat,
};

/** The goal: 15 cm behind the wall, 5 cm off the axis the other way, turned 25° off the fitting orientation about another axis. */
export const SLOT_GOAL: Pose = {
  p: [-0.05, 0.23, -0.15],
  q: qnormalize(qmul(qaxisAngle(qnormalize3([-1, 0.5, 1]), (25 * Math.PI) / 180), SLOT_FIT)) as Quat,
};

function qnormalize3(v: Vec3): Vec3 {
  const n = Math.hypot(...v);
  return [v[0] / n, v[1] / n, v[2] / n];
}

/** A wall across z = 0 with a rectangular opening, as four boxes framing it. */
export interface WallSpec {
  /** Opening width (along x) and height (along y), metres. */
  width: number;
  height: number;
  /** Wall thickness, metres (default {@link SLOT_WALL_THICKNESS}). */
  thickness?: number;
  /** Height of the opening's centre above the floor, metres (default {@link SLOT_CENTRE_HEIGHT}). */
  centreHeight?: number;
  /** Half extents of the whole wall (x, y), metres (default 0.3 × 0.2). */
  halfSize?: { x: number; y: number };
}

/** Adds the wall as a static body named `wall`. */
export function addWall(world: World, spec: WallSpec): void {
  const t = (spec.thickness ?? SLOT_WALL_THICKNESS) / 2;
  const w = spec.width / 2;
  const h = spec.height / 2;
  const cy = spec.centreHeight ?? SLOT_CENTRE_HEIGHT;
  const half = spec.halfSize ?? WALL_HALF;
  const I: Quat = [0, 0, 0, 1];
  const sideHalf = (half.x - w) / 2;
  const lowHalf = (cy - h) / 2;
  const topHalf = (2 * half.y - (cy + h)) / 2;
  world.addBody({
    name: 'wall',
    kind: 'static',
    pose: { p: [0, 0, 0], q: I },
    color: '#b7b0a2',
    shapes: [
      { type: 'box', half: [sideHalf, half.y, t], pose: { p: [-w - sideHalf, half.y, 0], q: I } },
      { type: 'box', half: [sideHalf, half.y, t], pose: { p: [w + sideHalf, half.y, 0], q: I } },
      { type: 'box', half: [w, lowHalf, t], pose: { p: [0, lowHalf, 0], q: I } },
      { type: 'box', half: [w, topHalf, t], pose: { p: [0, cy + h + topHalf, 0], q: I } },
    ],
  });
}

/** Adds the slot wall and the part (`part`, kinematic, at {@link SLOT_START}) to `world`. */
export function buildSlotScene(world: World, opts: SlotSceneOptions): void {
  addWall(world, opts);
  world.addBody({ name: 'part', kind: 'kinematic', pose: structuredClone(SLOT_START), shapes: [{ type: 'box', half: [...SLOT_PART_HALF] }], color: '#e39b2d' });
}

/** The workspace of the slot scene (the part's whole box must stay inside). */
export const SLOT_WORKSPACE = { min: [-0.3, 0.01, -0.3] as Vec3, max: [0.3, 0.4, 0.3] as Vec3 };
