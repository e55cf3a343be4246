/**
 * V5 projection alignment: the scene an instance carries (the icon, the scramble, the working
 * frame), the episode state kept in the world and the fixed settings of the family.
 */
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

/** Scramble lengths (30° turns) per tier, inclusive. */
export const SCRAMBLE: Record<Tier, [number, number]> = { L1: [2, 3], L3: [3, 5], L5: [4, 8], L7: [4, 8] };
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
