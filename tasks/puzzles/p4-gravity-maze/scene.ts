/**
 * P4 gravity maze: what an instance carries (see README.md for every field) and the fixed sizes
 * of the maze cube, its ball and the tray under it.
 */
import type { Tier } from '../../types.ts';

/** A cell of the maze in the cube's own frame: x east, y up, z south at the start. */
export interface MazeCell {
  x: number;
  y: number;
  z: number;
}

/** A face of a cell named by the side it faces in the cube's own frame (at the start). */
export type MazeFace = 'up' | 'down' | 'north' | 'south' | 'east' | 'west';

/** Parameters a P4 world is built from. */
export interface P4Scene {
  /** Cells along each edge of the cube (4). */
  size: number;
  /** Cell edge, m. */
  cell: number;
  /**
   * The solid cells, one string per (layer, row): `layers[y][z][x]` is `#` for a solid block and
   * `.` for an open cell; layer y = 0 is the bottom, row z = 0 the north side, column x = 0 the
   * west side, all in the cube's own frame, which is the world's frame at the start.
   */
  layers: string[][];
  /** The ball's cell at the start (it rests there: the cell below is solid or the floor). */
  ball: MazeCell;
  /** The exit: an open cell on the cube's surface and the face of it that is a hole in the shell. */
  exit: MazeCell & { face: MazeFace };
  /** Whether the blocks are opaque (L5+): the ball is then seen only where no block is in the way. */
  opaque: boolean;
  /** Azimuth of the first camera, degrees (0: from the south; L7 looks from another side). */
  viewAzimuth: number;
  /** The proven optimum: fewest turns, and how many different shortest turn sequences there are. */
  optimum: { turns: number; solutions: number };
}

export const SIZE = 4;
/** Cell edge, m. */
export const CELL = 0.03;
export const BALL_RADIUS = 0.011;
/** Thickness of the glass shell, m. */
export const SHELL = 0.003;
/** The cube's centre (the pivot of every turn), m. */
export const CENTRE: [number, number, number] = [0, 0.14, 0];

export const BLOCK_COLOR = '#3d6fb6';
export const GLASS_COLOR = '#cfe6f5';
export const FRAME_COLOR = '#2c3e50';
export const EXIT_COLOR = '#f1c40f';
export const BALL_COLOR = '#d62d20';
export const TRAY_COLOR = '#b9b2a3';

/** Chance of a block in each surface cell, and the band of shortest turn counts, per tier. */
export const TIER_SPEC: Record<Tier, { solid: number; band: [number, number]; opaque: boolean; turned: boolean }> = {
  L1: { solid: 0.4, band: [4, 5], opaque: false, turned: false },
  L3: { solid: 0.4, band: [6, 8], opaque: false, turned: false },
  L5: { solid: 0.4, band: [9, 12], opaque: true, turned: false },
  L7: { solid: 0.4, band: [9, 12], opaque: true, turned: true },
};

/**
 * The whole-episode action budget of a tier: the longest shortest way out its band allows plus
 * half again, the same for every seed of the tier (L1 8, L3 12, L5 and L7 18). Version 2 gave
 * each seed its own fewest turns plus half again, and stating it told a text-only agent how many
 * turns the shortest way out takes, a number that narrows the mazes a sampler keeps to those
 * that far from their exit (issue 36; P6 version 4 fell to exactly this). The generator keeps
 * only mazes in the band, so no seed's optimum is longer than its top.
 */
export function actionBudget(tier: Tier): number {
  const max = TIER_SPEC[tier].band[1];
  return max + Math.ceil(max / 2);
}
