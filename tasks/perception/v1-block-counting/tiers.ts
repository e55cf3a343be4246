import type { Tier } from '../../types.ts';
import type { PilePlan } from './pile.ts';

/** Per-tier generator settings of V1. */
export interface V1TierSettings {
  plan: PilePlan;
  /** Cubes that must be wholly out of sight (not one unoccluded sample) in the first view. */
  minHidden: number;
  /** The `+occ` lever: an L-shaped wall along the two sides facing the first camera. */
  walls: boolean;
  /** Require that no single checked view shows every cube (the `no-single-view` filter). */
  severalViews: boolean;
}

/** Settings of each tier. L7 is L5 plus the walls. */
export const V1_TIERS: Record<Tier, V1TierSettings> = {
  L1: { plan: { cols: 3, rows: 2, cubes: [4, 10], decoys: [0, 0], maxCubesHigh: 2 }, minHidden: 1, walls: false, severalViews: false },
  L3: { plan: { cols: 3, rows: 3, cubes: [12, 20], decoys: [2, 3], maxCubesHigh: 3 }, minHidden: 2, walls: false, severalViews: true },
  L5: { plan: { cols: 4, rows: 4, cubes: [20, 31], decoys: [4, 6], maxCubesHigh: 4 }, minHidden: 3, walls: false, severalViews: true },
  L7: { plan: { cols: 4, rows: 4, cubes: [20, 31], decoys: [4, 6], maxCubesHigh: 4 }, minHidden: 3, walls: true, severalViews: true },
};
