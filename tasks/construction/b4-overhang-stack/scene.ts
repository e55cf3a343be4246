/**
 * B4 overhang stack: the scene an instance carries (plain JSON, a pure function of seed and
 * tier), the tiers, and the margins the family's files share. Every field is described in
 * README.md. The table, the marker, the supply, their sizes and the world frame are the
 * loose-block kit's (`tasks/kits/loose-blocks/table-edge.ts`).
 */
import type { TableEdgeScene } from '../../kits/loose-blocks/table-edge.ts';
import type { LeverTable } from '../../levers.ts';
import type { Tier } from '../../types.ts';

/**
 * Parameters a B4 world is built from (plain JSON): the loose-block kit's table, edge, marker and
 * supply (`edgeX`, `markerX`, `blocks`), and the number of blocks the marker needs.
 */
export interface B4Scene extends TableEdgeScene {
  /** How many blocks the reference's column uses (the fewest that can reach the marker). */
  needed: number;
}

/**
 * How far inside its resting patch every level's centre of mass must stay, m: the rule's margin
 * from the tipping limit (a verdict at the limit itself is not physical; see the kit).
 */
export const RULE_MARGIN = 0.005;
/** The margin the reference keeps, m (more than the rule's, as a careful builder would). */
export const REFERENCE_MARGIN = 0.006;
/** The gap the reference keeps between blocks side by side on one level, m (lowered beside a block, a block must not graze it). */
export const REFERENCE_GAP = 0.005;

/** What each tier draws. */
export interface TierSettings {
  /** Blocks in the supply. */
  supply: number;
  /** Blocks the reference's column uses (the marker needs all of them). */
  needed: number;
  /** Range of the long blocks' length, m. */
  length: [number, number];
  /** Mixed lengths: two long, two middling and two short (else all alike, or as `counterweight` says). */
  mixed: boolean;
  /**
   * The counterweighted tier: two long blocks and one short (45–65 % of the long); the marker
   * lies past every column of the supply and only a block-on-two arrangement (one long block on
   * the table, the other on its far end, the short one on its back end) reaches it.
   */
  counterweight: boolean;
  /** The marker's distance past the edge, as a fraction of the reference's overhang. */
  reachFraction: [number, number];
  /** The first view's turn away from straight in front, degrees (0: none). */
  turnedView: [number, number] | null;
}

/** Tier settings (see the family's descriptor for the words). */
export const TIERS: Record<Tier, TierSettings> = {
  L1: { supply: 3, needed: 3, length: [0.14, 0.22], mixed: false, counterweight: false, reachFraction: [0.9, 0.97], turnedView: null },
  L3: { supply: 4, needed: 4, length: [0.18, 0.24], mixed: false, counterweight: false, reachFraction: [0.94, 0.985], turnedView: null },
  L5: { supply: 6, needed: 4, length: [0.17, 0.23], mixed: true, counterweight: false, reachFraction: [0.94, 0.985], turnedView: null },
  L7: { supply: 3, needed: 3, length: [0.17, 0.23], mixed: false, counterweight: true, reachFraction: [0.93, 0.985], turnedView: [35, 60] },
};

/**
 * The levers B4 supports as single-factor studies over L5 (`B4-L5+rot-s100`, tasks/levers.ts):
 * `+rot` is its L7's turned first view over the L5 column task. L7's other change,
 * `+counterweight` (a supply no column can use to reach the marker), is B4's own task, not one
 * of the paper's levers, so it has no study. The turn is drawn last: a study is the seed's L5
 * table, supply and marker seen first from a turned view.
 */
export const B4_LEVERS: LeverTable<TierSettings> = {
  '+rot': { description: 'L5 with the first view turned 35–60° to one side.', apply: (s) => ({ ...s, turnedView: TIERS.L7.turnedView }) },
};

/** The action budget: the reference's placements plus two (refused placements count). */
export function actionBudget(tier: Tier): number {
  return TIERS[tier].needed + 2;
}
