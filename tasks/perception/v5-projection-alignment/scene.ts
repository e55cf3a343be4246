/**
 * V5 projection alignment: the scene an instance carries (the icon, the scramble, the working
 * frame), the episode state kept in the world and the fixed settings of the family.
 */
import type { LeverTable } from '../../levers.ts';
import type { Tier } from '../../types.ts';
import type { IconSpec } from './icon.ts';
import type { Quaternion, WorkingFrame } from './rotation.ts';

/** Parameters a V5 world is built from (plain JSON, part of the instance). */
export interface V5Scene {
  icon: IconSpec;
  /** Seed of the hash that places the interior depth samples. */
  sampleSeed: number;
  /** The reversible initialisation: 30° actions applied to the target pose, in order (labels like `y+30`). */
  scramble: string[];
  /** Working frame of the rotation axes (`+rot` lever), or null for the view axes. */
  frame: WorkingFrame | null;
}

/** What a tier asks of a V5 draw. */
export interface V5TierSettings {
  /** Scramble length (30° turns), inclusive. */
  scramble: [number, number];
  /** The `+rot` lever: rotate() turns about a tilted working frame, drawn last (after the scramble). */
  tiltedFrame: boolean;
}

/** The settings of each tier. L7 is L5 plus the tilted frame. */
export const V5_TIERS: Record<Tier, V5TierSettings> = {
  L1: { scramble: [2, 3], tiltedFrame: false },
  L3: { scramble: [3, 5], tiltedFrame: false },
  L5: { scramble: [4, 8], tiltedFrame: false },
  L7: { scramble: [4, 8], tiltedFrame: true },
};

/**
 * The levers V5 supports as single-factor studies over L5 (`V5-L5+rot-s100`, tasks/levers.ts):
 * `+rot` is its L7's tilted working frame. The frame is drawn last, so a study is the seed's L5
 * icon and scramble with rotate() turning about tilted axes.
 */
export const V5_LEVERS: LeverTable<V5TierSettings> = {
  '+rot': {
    description: 'L5 with a tilted working frame: the three rotation axes are the picture axes turned 30–50° about the vertical and then 15–30° about the turned horizontal axis (stated in the rules).',
    apply: (s) => ({ ...s, tiltedFrame: true }),
  },
};
/** A start whose silhouette already overlaps the target this much is re-drawn. */
export const START_IOU_MAX = 0.8;
/** Turns of an episode: one rotation per turn, with room beyond the step cap for refused calls. */
export const BUDGETS = { turns: 60, actionsPerTurn: 1 };
/** Name of the icon body in the world. */
export const BODY = 'icon';

/** Episode state kept in `world.meta.v5` (snapshotted, rolled back and hashed with the world). */
export interface V5State {
  /** Orientation of the object, unit quaternion in double precision. */
  q: Quaternion;
  rotations: number;
  iou: number;
  best: number;
  /** Rotations in a row that did not raise `best`. */
  since: number;
  stopped: boolean;
  /** Per rotation: action label, IoU after it, pose error after it (degrees). */
  trace: Array<{ action: string; iou: number; pose_error_deg: number }>;
}
