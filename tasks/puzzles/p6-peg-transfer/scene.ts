/**
 * P6 peg transfer: the scene an instance carries and the fixed sizes of the board, pegs and
 * disks, shared by the generator, the episode and the solver.
 */
import type { LetterPlate } from '../../kits/part-sight/letters.ts';
import type { LeverTable } from '../../levers.ts';
import type { Tier } from '../../types.ts';

/** Peg index per disk, smallest disk first. */
export type PegState = number[];

/** Parameters a P6 world is built from. */
export interface P6Scene {
  /** Peg index per disk, smallest disk first. */
  start: PegState;
  /** Peg every disk must end on (marked only by the green pad in the scene). */
  target: number;
  adjacentOnly: boolean;
  /**
   * Turn of the board about the vertical, degrees counter-clockwise seen from above (0: the
   * pegs run A, B, C from left to right in the first view; the L7 `+rot` lever turns it).
   */
  yawDeg: number;
  /**
   * The letter standing in front of each peg, in board order (the peg at along −12 cm first).
   * `['A', 'B', 'C']` below L5; from L5 a drawn order, so which letter names the middle peg —
   * the one the neighbouring-pegs rule turns on — is shown only by the stands in the scene.
   */
  letters: string[];
}

/** Peg names as the agent uses them; each is drawn on a stand in front of its peg. */
export const PEG_NAMES = ['A', 'B', 'C'];

/** The letter of the peg at board position `peg` (0, 1, 2 along the board). */
export function pegLetter(s: Pick<P6Scene, 'letters'>, peg: number): string {
  return s.letters[peg];
}

/** The board position of the peg named `letter`, or −1 when no peg has that name. */
export function pegOfLetter(s: Pick<P6Scene, 'letters'>, letter: string): number {
  return s.letters.indexOf(letter);
}
/** Distance between neighbouring pegs, m. */
export const PEG_SPACING = 0.12;
/** Half the board's length (along the row of pegs), m. */
export const BOARD_HALF_LENGTH = 0.2;
/** Half the board's width (across the row of pegs), m. */
export const BOARD_HALF_WIDTH = 0.07;
export const PEG_RADIUS = 0.005;
export const PEG_HEIGHT = 0.11;
/** Radius of the hole through every disk, m. */
export const HOLE_RADIUS = 0.008;
export const DISK_THICKNESS = 0.012;
/** Vertical gap left under a lowered disk; it settles this far when released. */
export const DROP_GAP = 0.0005;
// No green: the goal pad is green.
export const DISK_COLORS = ['#e74c3c', '#f39c12', '#f1c40f', '#8e44ad', '#2980b9', '#7f8c8d'];
/** The disks' colour names, for the state read-out (call results never name a disk: which one moved would tell its size). */
export const DISK_COLOR_NAMES = ['red', 'orange', 'yellow', 'purple', 'blue', 'grey'];

/** What a tier sets: disks, how far the start is from the goal, the variant rule and the lever. */
export interface P6Tier {
  disks: number;
  /** Shortest plan length range of the start (by exact search). */
  minMoves: number;
  maxMoves: number;
  adjacentOnly: boolean;
  /** `+rot`: the board turned 50–130° either way, so the pegs no longer run left to right. */
  rotated: boolean;
  /** The letters stand in a drawn order along the board (see {@link P6Scene.letters}). */
  shuffledLetters: boolean;
}

/** The tier table. */
export const TIER_TABLE: Record<Tier, P6Tier> = {
  L1: { disks: 3, minMoves: 4, maxMoves: 7, adjacentOnly: false, rotated: false, shuffledLetters: false },
  L3: { disks: 5, minMoves: 12, maxMoves: 25, adjacentOnly: false, rotated: false, shuffledLetters: false },
  L5: { disks: 5, minMoves: 30, maxMoves: 80, adjacentOnly: true, rotated: false, shuffledLetters: true },
  L7: { disks: 5, minMoves: 30, maxMoves: 80, adjacentOnly: true, rotated: true, shuffledLetters: true },
};

/**
 * The levers P6 supports as single-factor studies over L5 (`P6-L5+rot-s100`, tasks/levers.ts):
 * `+rot` is its L7's board turn over the L5 start and goal (the turn is drawn after them, so a
 * study keeps the seed's L5 puzzle; the letters' drawn order follows the turn in the stream).
 */
export const P6_LEVERS: LeverTable<P6Tier> = {
  '+rot': {
    description: 'L5 with the board turned 50–130° about the vertical: the pegs no longer run left to right in the first view and must be told apart by the letters on their stands.',
    apply: (s) => ({ ...s, rotated: true }),
  },
};

/**
 * The whole-episode action budget of a tier: the plan of its longest start plus a quarter again
 * (at least two spare moves), the same for every seed of the tier. Version 4 gave each seed its
 * own plan's length plus a quarter, and stating it told a text-only agent how long the shortest
 * plan was, which with a few probing moves picked the goal peg (issue 36; README.md). What
 * stops blind search is {@link REFUSALS_ALLOWED}, not the budget's size.
 */
export function actionBudget(tier: P6Tier): number {
  return tier.maxMoves + Math.max(2, Math.ceil(tier.maxMoves / 4));
}

/**
 * Refused moves an episode allows: none, the first one ends it unsolved (scored by how far the
 * disks got). A seeing player never needs to break a rule, but each refusal is a bit about which
 * peg's top disk is the larger, and with a 27-state L1 the best blind policy that may spend
 * refused moves solves a third of the starts; allowing none holds it to 2 % (README.md).
 */
export const REFUSALS_ALLOWED = 0;

/** Outer radius of disk `i` (0 = smallest), m. */
export function diskRadius(i: number): number {
  return 0.016 + 0.006 * i;
}

/** Position of a peg's axis along the board (its own x), m. */
export function pegX(peg: number): number {
  return (peg - 1) * PEG_SPACING;
}

/** A point given along the board (`along`, its own x) and across it (`across`, its own z) in world x, z. */
export function boardPoint(yawDeg: number, along: number, across: number): [number, number] {
  const a = (yawDeg * Math.PI) / 180;
  const c = Math.cos(a);
  const s = Math.sin(a);
  // A turn about +y by a: x' = x cos a + z sin a, z' = −x sin a + z cos a.
  return [Math.round((along * c + across * s) * 1e9) / 1e9, Math.round((-along * s + across * c) * 1e9) / 1e9];
}

/** World x, z of a peg's axis. */
export function pegXZ(s: Pick<P6Scene, 'yawDeg'>, peg: number): [number, number] {
  return boardPoint(s.yawDeg, pegX(peg), 0);
}

/** Height of the ground (the table the board lies on) below the board's top, m. */
export const GROUND_Y = -0.02;
/** How far in front of the pegs (across the board) the letter stands are, m: past the board's front edge. */
export const LETTER_ACROSS = 0.11;

/**
 * Which of the board's long sides faces the first camera (which looks from +z): 1 for its front
 * (the side at +across), −1 for its back, once the board is turned more than 90° (L7's `+rot`).
 */
export function facingSide(yawDeg: number): 1 | -1 {
  return Math.cos((yawDeg * Math.PI) / 180) >= -1e-9 ? 1 : -1;
}

/**
 * The letter stands: one per peg, on the table beside the board's long side that faces the
 * first camera, each facing it. Before version 4 they stood by the board's front whichever way
 * it was turned, so a board turned more than 90° put them behind the pegs and disks (issue 32).
 */
export function letterPlates(s: Pick<P6Scene, 'yawDeg' | 'letters'>): LetterPlate[] {
  const side = facingSide(s.yawDeg);
  return s.letters.map((letter, peg) => ({ letter, at: boardPoint(s.yawDeg, pegX(peg), side * LETTER_ACROSS), yawDeg: 0, base: GROUND_Y }));
}
