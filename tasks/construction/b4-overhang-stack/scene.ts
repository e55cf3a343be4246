/**
 * B4 overhang stack: the scene an instance carries (plain JSON, a pure function of seed and
 * tier), the tiers, and the fixed sizes the family's files share. Every field is described in
 * README.md. World frame: x runs along the stacking direction toward the table's edge and past
 * it, y is up (the table top at 0), z toward the first camera.
 */
import type { Pose } from '../../../sim/types.ts';
import type { Tier } from '../../types.ts';

/** One loose block of the supply. */
export interface SupplyBlock {
  /** Its colour, which is also its name in the tools ('red' is the body 'block-red'). */
  color: BlockColor;
  /** Length along x, m. */
  length: number;
}

/** Parameters a B4 world is built from (plain JSON). */
export interface B4Scene {
  /** x of the table's edge, m (the table runs from x = `TABLE_BACK` to here). */
  edgeX: number;
  /** x of the red marker post standing on the floor past the edge, m. */
  markerX: number;
  /** The supply: each block lies on the table behind the stacking line, in rows from front to back. */
  blocks: SupplyBlock[];
  /** How many blocks the reference's column uses (the fewest that can reach the marker). */
  needed: number;
}

/** The block colours, in supply order, and how they are drawn. */
export const BLOCK_COLORS = { red: '#c0392b', blue: '#2e6fb7', yellow: '#e5b812', green: '#27ae60', purple: '#8e44ad', orange: '#e67e22' } as const;
/** A block's colour name. */
export type BlockColor = keyof typeof BLOCK_COLORS;

/** Block height (y) and depth (z), m: every block has this cross-section, so mass goes with length. */
export const BLOCK_HEIGHT = 0.02;
export const BLOCK_DEPTH = 0.04;
/** Wood-like density, kg/m³. */
export const BLOCK_DENSITY = 600;
/** The table's back end, m (x). */
export const TABLE_BACK = -0.03;
/** The table slab's thickness and the floor's height, m. */
export const TABLE_THICKNESS = 0.03;
export const FLOOR_Y = -0.22;
/** z of the stacking line (the blocks' centres when stacked), m. */
export const STACK_Z = 0;
/** x of every supply block's back end, m. */
export const SUPPLY_BACK_X = 0.01;
/** z of the first supply row and the spacing of the rows (going back, −z), m. */
export const SUPPLY_Z0 = -0.07;
export const SUPPLY_PITCH = 0.055;
/** Marker post radius and the height of its ball's top below the table top, m. */
export const MARKER_RADIUS = 0.0025;
export const MARKER_BALL = 0.007;
export const MARKER_TOP = -0.012;
/**
 * How far inside its resting patch every level's centre of mass must stay, m: the rule's margin
 * from the tipping limit (a verdict at the limit itself is not physical; see the kit).
 */
export const RULE_MARGIN = 0.005;
/** The margin the reference keeps, m (more than the rule's, as a careful builder would). */
export const REFERENCE_MARGIN = 0.006;
/** Height a carried block clears everything by, m. */
export const CARRY_CLEARANCE = 0.02;
/** Gap left under a block lowered onto the stack before it settles, m. */
export const DROP_GAP = 0.0003;

/** What each tier draws. */
export interface TierSettings {
  /** Blocks in the supply. */
  supply: number;
  /** Blocks the reference's column uses (the marker needs all of them). */
  needed: number;
  /** Range of the long blocks' length, m. */
  length: [number, number];
  /** Mixed lengths: two long, two middling and two short (else all alike). */
  mixed: boolean;
  /** The marker's distance past the edge, as a fraction of the reference column's overhang. */
  reachFraction: [number, number];
  /** The first view's turn away from straight in front, degrees (0: none). */
  turnedView: [number, number] | null;
}

/** Tier settings (see the family's descriptor for the words). */
export const TIERS: Record<Tier, TierSettings> = {
  L1: { supply: 3, needed: 3, length: [0.14, 0.22], mixed: false, reachFraction: [0.9, 0.97], turnedView: null },
  L3: { supply: 4, needed: 4, length: [0.18, 0.24], mixed: false, reachFraction: [0.94, 0.985], turnedView: null },
  L5: { supply: 6, needed: 4, length: [0.17, 0.23], mixed: true, reachFraction: [0.94, 0.985], turnedView: null },
  L7: { supply: 6, needed: 4, length: [0.17, 0.23], mixed: true, reachFraction: [0.94, 0.985], turnedView: [35, 60] },
};

/** The action budget: the reference's placements plus two (refused placements count). */
export function actionBudget(tier: Tier): number {
  return TIERS[tier].needed + 2;
}

/** The body name of a block. */
export function blockBody(color: BlockColor): string {
  return `block-${color}`;
}

/** Where a supply block lies before it is used (and goes back to when removed). */
export function supplyPose(s: B4Scene, index: number): Pose {
  const b = s.blocks[index];
  return { p: [SUPPLY_BACK_X + b.length / 2, BLOCK_HEIGHT / 2, SUPPLY_Z0 - SUPPLY_PITCH * index], q: [0, 0, 0, 1] };
}

/** The centre height of the stack's level `k` (0 = on the table). */
export function levelY(k: number): number {
  return BLOCK_HEIGHT * (k + 0.5);
}

/** The table's far (back) side in z, m: behind the last supply row. */
export function tableBackZ(s: B4Scene): number {
  return SUPPLY_Z0 - SUPPLY_PITCH * (s.blocks.length - 1) - 0.045;
}

/** The table's front side in z, m. */
export const TABLE_FRONT_Z = 0.08;
/** The ruler's line: along x, level with the table top, just in front of the stacking line. */
export const RULER_Z = 0.045;
/** The largest x a placement may ask for, m: past every marker the generator draws. */
export const RULER_END = 0.75;

/** The ruler's far end, m (x): the first 5 cm mark at least 3 cm past the marker. */
export function rulerEnd(s: B4Scene): number {
  return Math.min(RULER_END, Math.ceil((s.markerX + 0.03) / 0.05 - 1e-9) * 0.05);
}
