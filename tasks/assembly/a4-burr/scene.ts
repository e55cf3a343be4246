/**
 * A4 burr: the scene an instance carries (plain JSON, a pure function of seed and tier), the
 * tiers' settings and the physical layout. Everything is in metres; the table top is at y = 0
 * and the burr stands on it centred on x = z = 0. A burr cell `[i, j, k]` (see `burr.ts`) is a
 * cube of the polycube-piece kit's size (`CELL`, 3 cm); cube layer `j = −3` stands on the table.
 */
import type { CameraSpec } from '../../../render/camera-spec.ts';
import type { Vec3 } from '../../../sim/types.ts';
import type { Cell } from '../../../solvers/polycube.ts';
import type { LeverTable } from '../../levers.ts';
import type { Tier } from '../../types.ts';
import { round9 } from '../../../core/determinism.ts';
import { CELL, pieceMid } from '../../kits/polycube-pieces/pieces.ts';
import { HALF_LENGTH, SIX_SLOTS, THREE_SLOTS, type StickSlot } from './burr.ts';

/** One stick as an instance stores it. */
export interface A4Stick {
  /** Its colour name, which is also the name the agent uses ('grey' for the key). */
  name: string;
  /** CSS colour. */
  color: string;
  /** Its cubes at its place in the assembled burr, burr cells `[i, j, k]`. */
  cells: Cell[];
  /** The key stick: clamped at its assembled place from the start; it never moves. */
  key: boolean;
  /** Where it starts: its offset in whole cubes `[dx, dy, dz]` from its assembled place ([0, 0, 0] for the key). */
  start: Cell;
  /** Out of sight from the first view behind the screen (`+occ`). */
  hidden: boolean;
}

/** The `+occ` screen: an upright board on the table, axis-aligned, its corners in metres. */
export interface A4Screen {
  min: Vec3;
  max: Vec3;
}

/** Parameters an A4 world is built from. */
export interface A4Scene {
  /** Every stick; the key among them. */
  sticks: A4Stick[];
  /** The burr's level: moves to take the first stick out of the assembled burr (the key clamped, the table under it). */
  level: number;
  /** The `+occ` screen, or null. */
  screen: A4Screen | null;
}

/** What each tier asks of a draw. */
export interface TierSpec {
  /** The stick slots of the burr. */
  slots: readonly StickSlot[];
  /** Slot indices the key may take. */
  keySlots: number[];
  /** Fewest and most moves to the first stick out. */
  level: [number, number];
  /** Most sticks that may slide straight out of the assembled burr. */
  maxDirect: number;
  /** Chance that a shared cube is cut away from every stick. */
  holeChance: number;
  /** Sticks to hide behind a screen (`+occ`). */
  hidden: number;
}

/** The tiers' parameters. */
export const TIER_SPECS: Record<Tier, TierSpec> = {
  L1: { slots: THREE_SLOTS, keySlots: [1], level: [1, 1], maxDirect: 1, holeChance: 0.3, hidden: 0 },
  L3: { slots: SIX_SLOTS, keySlots: [2, 3], level: [1, 1], maxDirect: 1, holeChance: 0.7, hidden: 0 },
  L5: { slots: SIX_SLOTS, keySlots: [2, 3], level: [2, 6], maxDirect: 0, holeChance: 0.6, hidden: 0 },
  L7: { slots: SIX_SLOTS, keySlots: [2, 3], level: [2, 6], maxDirect: 0, holeChance: 0.6, hidden: 1 },
};

/**
 * The levers A4 supports as single-factor studies over L5 (`A4-L5+occ-s100`, tasks/levers.ts):
 * `+occ` is its L7's screen over the L5 burr. The screen is placed last in a draw, so a study is
 * the seed's L5 burr (in its mirror image where only that leaves a stick to hide on the left),
 * drawn again only where no stick can be hidden.
 */
export const A4_LEVERS: LeverTable<TierSpec> = {
  '+occ': { description: 'L5 with one stick parked behind a screen, out of sight from the first view.', apply: (s) => ({ ...s, hidden: 1 }) },
};

/** Largest slide a call may ask for, in cubes (the same at every tier; odd, so it never reads like a budget, which is even). */
export const MAX_SLIDE = 25;
/** The work area: sticks must stay within this many cubes of the burr's centre sideways. */
export const WORK_HALF = 12;
/** ... and below this cube layer on top. */
export const WORK_TOP = 11;
/** Stacked parking: cubes between a parked stick and the one parked beyond it. */
export const PARK_GAP = 1;
/** Random extra cubes a stick is parked out (0 to this), so distances vary with the seed. */
export const PARK_EXTRA = 2;

/** Table slab: top at y = 0. */
export const TABLE = { half: [0.5, 0.01, 0.5] as Vec3, centreZ: 0 } as const;

/** The first view: from the front right and above, the burr in the middle and every parked stick in frame (the three-stick tier closer). */
export function initialCamera(tier: Tier): CameraSpec {
  return tier === 'L1'
    ? { azimuth: 28, elevation: 38, distance: 1.05, target: [0.02, 0.07, 0.02] }
    : { azimuth: 28, elevation: 40, distance: 1.55, target: [0, 0.08, 0] };
}

/** World centre of burr cell `[i, j, k]`. */
export function cellCentre(c: readonly number[]): Vec3 {
  return [round9((c[0] + 0.5) * CELL), round9((c[1] + HALF_LENGTH + 0.5) * CELL), round9((c[2] + 0.5) * CELL)];
}

/** Body origin of a stick shifted by `offset` cubes (the kit's shapes are centred on the middle of its cell box). */
export function stickOrigin(cells: readonly Cell[], offset: readonly number[]): Vec3 {
  const mid = pieceMid(cells);
  const c = cellCentre([mid[0] + offset[0], mid[1] + offset[1], mid[2] + offset[2]]);
  return c;
}
