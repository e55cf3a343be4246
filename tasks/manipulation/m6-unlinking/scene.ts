/**
 * M6 unlinking: the scene an instance carries, the tiers and the fixed sizes.
 *
 * Frames: world metres, y up. A fixed frame stands across z: a base block on the floor, two posts
 * and a top bar running along x, enclosing an opening in the x–y plane. A held hook — a square loop
 * of four bars in its own y–z plane, its own x axis its thickness — hangs linked round the frame's
 * top bar: the top bar runs through the hook's loop. The hook's bottom bar has a slot cut through it,
 * slanted at `slotAngleDeg` from the hook's own x axis (in its x–z plane) and centred `slotOffset`
 * along the bar. The one way out: turn the hook so the slot runs along the top bar, bring the slot
 * under it, and lift the hook off through the slot.
 */
import type { Pose } from '../../../sim/types.ts';
import type { Tier } from '../../types.ts';
import type { LeverTable } from '../../levers.ts';

/** Parameters an M6 world is built from: plain JSON, a pure function of (seed, tier). */
export interface M6Scene {
  /** The fixed frame. */
  frame: {
    /** Side of the square section of the top bar and the posts, metres. */
    bar: number;
    /** Inside width of the opening (between the posts, along x), metres. */
    width: number;
    /** Height of the top bar's centre line above the floor, metres. */
    topY: number;
    /** Height of the base block, metres. */
    baseHeight: number;
  };
  /** The hook. */
  hook: {
    /** Side of the square section of its bars, metres. */
    bar: number;
    /** Outside length of the loop along its own z (the bottom bar's length), metres. */
    length: number;
    /** Outside height of the loop along its own y, metres. */
    height: number;
    /** Width of the bottom plate along the hook's own x (the slot's length through it grows with it), metres. */
    plateWidth: number;
    /** Angle of the slot from the hook's own x axis, in its x–z plane, degrees. */
    slotAngleDeg: number;
    /** Where the slot's centre line crosses the bottom bar's axis, along the hook's own z from its centre, metres. */
    slotOffset: number;
    /** Width of the slot (across its direction), metres: the frame's bar plus twice the clearance. */
    slotWidth: number;
  };
  /** The clearance of the slot round the frame's top bar, per side, metres. */
  clearance: number;
  /** The hook's start pose: the centre of its loop `p`, orientation `q`. */
  start: Pose;
  /** Whether `rotate` and `move` turn about the hook's own axes (`+tool`). */
  toolFrame: boolean;
}

/** What each tier draws. */
export interface M6TierSettings {
  clearance: number;
  /** Slot angle range (a random sign), degrees, drawn continuously. */
  slotAngle: [number, number];
  /** Slot offset range along the bar (a random sign), metres, drawn continuously. */
  slotOffset: [number, number];
  toolFrame: boolean;
  /**
   * The action budget (refused and rolled-back calls count): the reference's two or three calls
   * times a small factor (README "Budget").
   */
  actions: number;
}

/** Tier settings. */
export const TIERS: Record<Tier, M6TierSettings> = {
  // Version 3: at 100 seeds the pose prober freed 11, 8, 5 and 5 of 100 hooks (L1–L7) with six
  // actions and 4 mm at L1 and L3. It learns the start pose in a probe or two; what is left is the
  // slot's slant and place, which only a lift tests, and each lift covers a (slant, place) cell
  // about as large as the clearance allows. Five actions leave it about two lifts; 3 mm at every
  // tier, L1's slot 10–50° and offsets up to 28 mm make the cells smaller and more of them. A model
  // that reads the slot has room for one correction after a refused lift (the rollback image shows
  // where the plate met the bar).
  L1: { clearance: 0.003, slotAngle: [10, 50], slotOffset: [0, 0.028], toolFrame: false, actions: 5 },
  L3: { clearance: 0.003, slotAngle: [25, 55], slotOffset: [0, 0.028], toolFrame: false, actions: 5 },
  L5: { clearance: 0.003, slotAngle: [25, 55], slotOffset: [0.008, 0.028], toolFrame: false, actions: 5 },
  L7: { clearance: 0.003, slotAngle: [25, 55], slotOffset: [0.008, 0.028], toolFrame: true, actions: 5 },
};

/**
 * The levers M6 supports as single-factor studies over L5 (`M6-L5+tool-s100`;
 * tasks/levers.ts): each the L5 settings with one change.
 */
export const M6_LEVERS: LeverTable<M6TierSettings> = {
  '+tool': { description: "L5 with rotations about the hook's own axes (drawn on it), which turn with it.", apply: (s) => ({ ...s, toolFrame: true }) },
};

/** Fixed sizes, metres. */
export const SIZES = { frameBar: 0.012, frameWidth: 0.22, topY: 0.2, baseHeight: 0.03, hookBar: 0.01, hookLength: 0.12, hookHeight: 0.08, plateWidth: 0.044 };
/** The workspace, metres. */
export const WORKSPACE = { min: [-0.3, 0.005, -0.25] as [number, number, number], max: [0.3, 0.45, 0.25] as [number, number, number] };
/** How far apart the pieces' bounding boxes must be for them to count as separated, metres. */
export const SEPARATION = 0.005;
