/**
 * V1 block counting: the scene an instance carries, the tiers and the fixed sizes and colours
 * of the table, walls and rulers.
 */
import type { Pose, Vec3 } from '../../../sim/types.ts';
import type { LeverTable } from '../../levers.ts';
import type { Tier } from '../../types.ts';
import type { PileBlock, PilePlan } from './pile.ts';

/** A wall of the L7 `+occ` lever: a static box. */
export interface WallBox {
  name: string;
  half: Vec3;
  pose: Pose;
}

/** Parameters a V1 world is built from (the instance's `scene`). */
export interface V1Scene {
  blocks: PileBlock[];
  /** Static walls (L7 only) hiding the lower pile from low views on two sides. */
  walls: WallBox[];
  /** The static table top the pile stands on (its top face is the plane y = 0). */
  table: { half: Vec3; pose: Pose };
  /** The number of cubes in the pile: the answer. */
  cubeCount: number;
  /**
   * Cubes visible (`isVisible` in visibility.ts: enough unoccluded samples and pixels) from the first view, the
   * best a count that never moves the camera can do; always below `cubeCount`. An answer off
   * by one earns progress only where this count is off by two or more.
   */
  firstViewCount: number;
  /** Whether the pile may hold decoys (the rules say so from L3 up). */
  decoys: boolean;
}

/** Per-tier generator settings of V1. */
export interface V1TierSettings {
  plan: PilePlan;
  /** Cubes that must be wholly out of sight (not one unoccluded sample) in the first view. */
  minHidden: number;
  /**
   * Range the number of cubes the first view hides (does not show at the visibility threshold)
   * is drawn from, uniformly: wide, so "what the first view shows plus a typical number" is
   * rarely right.
   */
  hidden: [number, number];
  /**
   * Re-draw until the first view hides exactly the drawn number (true), or take the candidate
   * camera nearest to it (false: for large piles, whose draws cost too much to repeat).
   */
  exactHidden: boolean;
  /**
   * Fix the cube count per seed, balanced over seeds (every count once per block of seeds),
   * instead of re-drawing it with the layout: where re-draws are frequent (the walled L7) the
   * surviving counts otherwise cluster and a constant count guesses too often.
   */
  balancedCount: boolean;
  /** The `+occ` lever: an L-shaped wall along the two sides facing the first camera. */
  walls: boolean;
  /** Require that no single checked view shows every cube (the `no-single-view` filter). */
  severalViews: boolean;
}

/** Settings of each tier. L7 is L5 plus the walls. */
export const V1_TIERS: Record<Tier, V1TierSettings> = {
  L1: { plan: { cols: 3, rows: 3, cubes: [9, 24], decoys: [0, 0], maxCubesHigh: 3 }, minHidden: 1, hidden: [1, 8], exactHidden: true, balancedCount: false, walls: false, severalViews: false },
  L3: { plan: { cols: 4, rows: 3, cubes: [12, 30], decoys: [2, 3], maxCubesHigh: 3 }, minHidden: 2, hidden: [3, 11], exactHidden: false, balancedCount: false, walls: false, severalViews: true },
  L5: { plan: { cols: 4, rows: 4, cubes: [18, 40], decoys: [4, 6], maxCubesHigh: 4 }, minHidden: 3, hidden: [5, 15], exactHidden: false, balancedCount: false, walls: false, severalViews: true },
  L7: { plan: { cols: 4, rows: 4, cubes: [18, 40], decoys: [4, 6], maxCubesHigh: 4 }, minHidden: 3, hidden: [7, 18], exactHidden: false, balancedCount: true, walls: true, severalViews: true },
};

/**
 * The levers V1 supports as single-factor studies over L5 (`V1-L5+occ-s100`, tasks/levers.ts):
 * `+occ` is its L7's wall over the L5 pile, with the L7 settings the wall needs (the first view
 * hides 7–18 cubes; the cube count balanced per seed, since walled draws are re-drawn often).
 */
export const V1_LEVERS: LeverTable<V1TierSettings> = {
  '+occ': {
    description: 'L5 plus a wall 8 cm high along the side the first camera faces (within 25°), hiding the lower two layers from every view but steep ones from that side; 7–18 cubes hidden from the first view.',
    apply: (s) => ({ ...s, walls: V1_TIERS.L7.walls, hidden: V1_TIERS.L7.hidden, balancedCount: V1_TIERS.L7.balancedCount }),
  },
};

/** Elevation range the camera may orbit to: level with the pile up to straight down. */
export const ELEVATION_RANGE: [number, number] = [0, 90];
export const WALL_HEIGHT = 0.08;
/** The first camera looks at this fraction of the pile's height: low, so front stacks hide more. */
export const TARGET_HEIGHT = 0.4;
export const WALL_THICKNESS = 0.012;
/** Clear space between the pile's outer faces and a wall or ruler, metres. */
export const WALL_GAP = 0.045;
export const RULER_GAP = 0.012;
/** The table's edge lies this far beyond a ruler, so ruler labels hang clear of the table top. */
export const RULER_EDGE = 0.005;
/** Table margin on a side with neither ruler nor wall, metres. */
export const TABLE_MARGIN = 0.03;
export const TABLE_THICKNESS = 0.02;
export const WOOD = { density: 650, friction: 0.6, restitution: 0 };
/** Progress of an answer off by one (see `progress` in `build`): 17.5 of the 35 unsolved points. */
export const NEAR_MISS_PROGRESS = 0.5;
export const WALL_COLOR = '#8d949b';
export const TABLE_COLOR = '#8a8178';
