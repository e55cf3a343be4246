/**
 * P3 crate pushing: what an instance carries (see README.md for every field) and the fixed sizes
 * of the room, the crates, the pusher, the platform and its ramp.
 */
import type { Tier } from '../../types.ts';

/** Parameters a P3 world is built from. */
export interface P3Scene {
  /** Columns (west to east) and rows (north to south) of the map, border walls included. */
  cols: number;
  rows: number;
  /** Cell edge, m. */
  cell: number;
  /**
   * The map in the usual Sokoban text notation (XSB), one string per row, north first:
   * `#` wall, ` ` floor, `.` marked cell, `$` crate, `*` crate on a marked cell, `@` the
   * pusher, `+` the pusher on a marked cell.
   */
  map: string[];
  /**
   * The height of every cell, one string per row like `map` (null when the room is flat):
   * `0` ground, `1` the raised platform, `n`/`e`/`s`/`w` a ramp that rises toward that side.
   * Wall cells are `0`.
   */
  heights: string[] | null;
  /** Height of the platform's top above the ground, m. */
  platformHeight: number;
  /** Height of the wall blocks, m (taller at L7, where they hide part of the room at first). */
  wallHeight: number;
  /** The proven optimum: fewest pushes, then fewest steps among those; and how many step sequences reach it. */
  optimum: { pushes: number; moves: number; solutions: number };
}

/** Cell edge, m. */
export const CELL = 0.05;
/** Half the edge of a crate, m (a 36 mm cube in a 50 mm cell: the marked cell shows around it). */
export const CRATE_HALF = 0.018;
/** The pusher: an upright cylinder. */
export const PUSHER_RADIUS = 0.015;
export const PUSHER_HALF_HEIGHT = 0.02;
/** Platform height, m (the ramp climbs it over one cell: a slope of 21.8°). */
export const PLATFORM_HEIGHT = 0.02;
/** Wall heights, m. */
export const WALL_HEIGHT = 0.05;
export const TALL_WALL_HEIGHT = 0.1;
/** Rails along the platform's drops and the ramp's sides: thickness and height above the platform top, m. */
export const RAIL_THICKNESS = 0.004;
export const RAIL_RISE = 0.014;

export const FLOOR_COLORS = ['#d8c9a8', '#cdbd99'];
export const PLATFORM_COLOR = '#b9c7d6';
export const RAMP_COLOR = '#8da2b8';
export const RAIL_COLOR = '#34495e';
export const WALL_COLOR = '#7b6650';
export const CRATE_COLOR = '#b7793a';
export const GOAL_COLOR = '#27ae60';
export const PUSHER_COLOR = '#1f5fbf';

/**
 * Room size (inside the border walls), crates, wall cells and push band of each tier, and
 * `steps`: the band of the proven optimum's step count (the generator re-draws a room whose
 * start walks fewer or more). Its top fixes the tier's action budget ({@link actionBudget});
 * its floor keeps L1's budget at most about four times any room's optimum (README.md).
 */
export const TIER_SPEC: Record<Tier, { w: number; h: number; crates: number; walls: [number, number]; platform: boolean; band: [number, number]; steps: [number, number]; tall: boolean }> = {
  L1: { w: 5, h: 4, crates: 1, walls: [1, 3], platform: false, band: [4, 6], steps: [8, 20], tall: false },
  L3: { w: 6, h: 5, crates: 2, walls: [3, 5], platform: false, band: [9, 13], steps: [9, 45], tall: false },
  L5: { w: 7, h: 6, crates: 2, walls: [3, 6], platform: true, band: [12, 18], steps: [12, 55], tall: false },
  L7: { w: 7, h: 6, crates: 2, walls: [3, 6], platform: true, band: [12, 18], steps: [12, 55], tall: true },
};

/**
 * The whole-episode action budget of a tier: the longest optimum the tier allows (the top of
 * `steps`) plus half again, the same for every seed of the tier (L1 30, L3 68, L5 and L7 83).
 * Version 5 gave each seed its own optimum plus half again, and stating it told a text-only
 * agent how many steps the shortest solution takes, a number that narrows the rooms a sampler
 * keeps to those whose solutions are that long (issue 36; P6 version 4 fell to exactly this).
 * The tops sit near the 99th percentile of the generator's optima (3,000 seeds per tier:
 * longest 26 / 57 / 83 steps), so few rooms are re-drawn (README.md).
 */
export function actionBudget(tier: Tier): number {
  const max = TIER_SPEC[tier].steps[1];
  return max + Math.ceil(max / 2);
}
