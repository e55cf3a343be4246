/**
 * B7 overhang column: the scene (the loose-block kit's table, edge, marker and supply, plus how
 * many blocks the marker needs) and the tiers.
 */
import type { TableEdgeScene } from '../../tasks/kits/loose-blocks/table-edge.ts';
import type { LeverTable } from '../../tasks/levers.ts';
import type { Tier } from '../../tasks/types.ts';

/** A B7 world: the kit's `edgeX`, `markerX` and `blocks`, and the blocks the marker needs. */
export interface B7Scene extends TableEdgeScene {
  /** Blocks in the reference column (no column of fewer reaches the marker). */
  needed: number;
}

/** How far inside its resting patch every level's centre of mass must stay, m (the rule). */
export const RULE_MARGIN = 0.005;
/** The reference's margin, m: a little more than the rule's. */
export const REFERENCE_MARGIN = 0.006;

/** What a tier draws. */
export interface B7TierSettings {
  /** Blocks in the supply, and how many the marker needs. */
  supply: number;
  needed: number;
  /** The long blocks' length, m; `mixed` supplies also hold middling and short ones. */
  length: [number, number];
  mixed: boolean;
  /** The marker past the edge, as a fraction of the reference column's overhang. */
  reachFraction: [number, number];
  /** The first view turned to one side by this many degrees (null: straight on). */
  turnedView: [number, number] | null;
}

/** The tiers. */
export const TIERS: Record<Tier, B7TierSettings> = {
  L1: { supply: 3, needed: 3, length: [0.14, 0.22], mixed: false, reachFraction: [0.9, 0.97], turnedView: null },
  L3: { supply: 4, needed: 4, length: [0.18, 0.24], mixed: false, reachFraction: [0.94, 0.985], turnedView: null },
  L5: { supply: 6, needed: 4, length: [0.17, 0.23], mixed: true, reachFraction: [0.94, 0.985], turnedView: null },
  L7: { supply: 6, needed: 4, length: [0.17, 0.23], mixed: true, reachFraction: [0.94, 0.985], turnedView: [35, 60] },
};

/** Lever studies over L5: `+rot` is L7's turned first view. */
export const B7_LEVERS: LeverTable<B7TierSettings> = {
  '+rot': { description: 'L5 with the first view turned 35–60° to one side.', apply: (s) => ({ ...s, turnedView: TIERS.L7.turnedView }) },
};
