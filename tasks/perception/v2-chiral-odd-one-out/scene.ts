/**
 * V2 chiral odd-one-out: the scene an instance carries (plain JSON, a pure function of seed and
 * tier) and the tiers. Every field is described in README.md.
 */
import type { Cell } from '../../../solvers/polycube.ts';
import type { OddOneOutPlan } from './table.ts';
import type { TableScene } from '../../kits/part-sight/table-scene.ts';
import type { LeverTable } from '../../levers.ts';
import type { Tier } from '../../types.ts';

/** Parameters a V2 world is built from: the table scene, the copies' shape and the answer. */
export interface V2Scene extends TableScene {
  /** The shape every part but one is a proper rotation of (normalised cells). */
  shape: Cell[];
  /** Letter of the part that is the shape's mirror image: the answer. */
  answer: string;
  /**
   * What the first view leaves open, where the tier hides on purpose (L7): the letters of the
   * parts whose hand it cannot tell, and the letters it leaves possible as the answer. Null at
   * tiers whose first view is not read.
   */
  firstView: { ambiguous: string[]; answers: string[] } | null;
}

/** Option letters, in the order the parts stand (back row left to right, then the front row). */
export const LETTERS = 'ABCDEF';

/** What each tier asks of the table. */
export const TIERS: Record<Tier, OddOneOutPlan> = {
  L1: { parts: 4, cubes: 5, sameFace: true, elevation: [30, 38], walls: 'none', elevationRange: [0, 90] },
  L3: { parts: 6, cubes: 5, sameFace: false, elevation: [24, 32], walls: 'none', elevationRange: [0, 90] },
  L5: { parts: 6, cubes: 6, sameFace: false, elevation: [22, 30], walls: 'low', elevationRange: [0, 90] },
  L7: { parts: 6, cubes: 6, sameFace: false, elevation: [16, 24], walls: 'hiding', elevationRange: [0, 90] },
};

/**
 * The levers V2 supports as single-factor studies over L5 (`V2-L5+occ-s100`, tasks/levers.ts):
 * `+occ` is its L7's hiding walls over the L5 table, seen from L5's first-view elevation (L7 also
 * lowers the first view, 16–24° against 22–30°, a second change; under the walls at the lower
 * view the study of seed 100 showed a part 225 pixels of the view rule's 250).
 */
export const V2_LEVERS: LeverTable<OddOneOutPlan> = {
  '+occ': { description: 'L5 with a taller wall before every part, each searched so the first view cannot tell that part from its mirror image (every part still shows 15 % or more of itself).', apply: (s) => ({ ...s, walls: TIERS.L7.walls }) },
};
