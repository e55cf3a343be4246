/**
 * V3 rotated copy: the scene an instance carries (plain JSON, a pure function of seed and tier)
 * and the tiers. Every field is described in README.md.
 */
import type { RotatedCopyPlan } from './table.ts';
import type { TableScene } from '../../kits/part-sight/table-scene.ts';
import type { LeverTable } from '../../levers.ts';
import type { Tier } from '../../types.ts';

/** Parameters a V3 world is built from: the table scene (part 0 is the reference, R), the answer and how the candidates were made. */
export interface V3Scene extends TableScene {
  /** Letter of the candidate that is a proper rotation of the reference: the answer. */
  answer: string;
  /** The smallest turn (over the shape's symmetries) that carries the reference, as it stands, onto the copy, as it stands: angle and tilt of its axis from the vertical, degrees. */
  turn: { angleDeg: number; axisTiltDeg: number };
  /** How each candidate (in letter order) was made: `copy`, `mirror` (the reference's mirror image), `moved` (the reference with one cube moved). */
  made: Array<'copy' | 'mirror' | 'moved'>;
  /** At L7: the candidates the first view leaves possible as the answer (letters); null elsewhere. */
  firstView: { answers: string[] } | null;
}

/** Option letters of the candidates, left to right as seen from the first view. */
export const LETTERS = 'ABCD';

/** What each tier asks of the table. */
export const TIERS: Record<Tier, RotatedCopyPlan> = {
  L1: { candidates: 3, cubes: 5, turn: 'yaw', moved: 1, closeMoves: false, sameFace: true, elevation: [28, 36], hideEvery: false, elevationRange: [0, 90] },
  L3: { candidates: 4, cubes: 5, turn: 'tip', moved: 2, closeMoves: false, sameFace: false, elevation: [24, 32], hideEvery: false, elevationRange: [0, 90] },
  L5: { candidates: 4, cubes: 6, turn: 'any', moved: 2, closeMoves: true, sameFace: false, elevation: [24, 32], hideEvery: false, elevationRange: [0, 90] },
  L7: { candidates: 4, cubes: 6, turn: 'any', moved: 2, closeMoves: true, sameFace: false, elevation: [16, 24], hideEvery: true, elevationRange: [0, 90] },
};

/**
 * The levers V3 supports as single-factor studies over L5 (`V3-L5+occ-s100`, tasks/levers.ts):
 * `+occ` is its L7's hiding walls over the L5 table, seen from L5's first-view elevation (L7 also
 * lowers the first view, 16–24° against 24–32°, a second change).
 */
export const V3_LEVERS: LeverTable<RotatedCopyPlan> = {
  '+occ': { description: 'L5 with a wall before every candidate, each searched so the first view cannot tell that candidate from its mirror image (every candidate still shows 15 % or more of itself).', apply: (s) => ({ ...s, hideEvery: TIERS.L7.hideEvery }) },
};
