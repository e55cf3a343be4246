/**
 * P6 peg transfer: the scene an instance carries and the fixed sizes of the board, pegs and
 * disks, shared by the generator, the episode and the solver.
 */
import type { Tier } from '../../types.ts';

/** Peg index per disk, smallest disk first. */
export type PegState = number[];

/** Parameters a P6 world is built from. */
export interface P6Scene {
  /** Peg index per disk, smallest disk first. */
  start: PegState;
  /** Peg every disk must end on. */
  target: number;
  adjacentOnly: boolean;
}

/** Peg names as the agent uses them, left to right in the first view. */
export const PEG_NAMES = ['A', 'B', 'C'];
/** Distance between neighbouring pegs, m. */
export const PEG_SPACING = 0.12;
export const PEG_RADIUS = 0.005;
export const PEG_HEIGHT = 0.11;
/** Radius of the hole through every disk, m. */
export const HOLE_RADIUS = 0.008;
export const DISK_THICKNESS = 0.012;
/** Vertical gap left under a lowered disk; it settles this far when released. */
export const DROP_GAP = 0.0005;
// No green: the goal pad is green.
export const DISK_COLORS = ['#e74c3c', '#f39c12', '#f1c40f', '#8e44ad', '#2980b9', '#7f8c8d'];

/** Disks per tier. */
export const TIER_DISKS: Record<Tier, number> = { L1: 3, L3: 4, L5: 5, L7: 5 };

/** Outer radius of disk `i` (0 = smallest), m. */
export function diskRadius(i: number): number {
  return 0.016 + 0.006 * i;
}

/** x of a peg's axis, m. */
export function pegX(peg: number): number {
  return (peg - 1) * PEG_SPACING;
}
