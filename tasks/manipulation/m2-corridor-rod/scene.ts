/**
 * M2 corridor rod: the scene an instance carries, the tiers, the fixed sizes, and the analytic
 * critical length of a rod that can pass a bend.
 *
 * Frames: world metres, y up; the corridor's floor is at y = 0. The corridor is a chain of
 * straight segments of rectangular section meeting at right-angle bends; its centre line runs
 * through `points` (the first is the closed end, the last the open exit). The rod is a capsule
 * (a cylinder with round ends) whose own x axis runs along its length, held at its midpoint.
 *
 * **Critical length of a bend.** A capsule of radius r is clear of the walls exactly when its
 * axis segment stays at least r from them, i.e. inside the corridor eroded by r (the inner
 * corner of a bend becomes a quarter circle of radius r). Project onto the bend's plane: the
 * axis's heading there turns from one corridor's direction to the other's, so at some moment it
 * is at 45° (135° is no easier); a segment at 45° inside the eroded L of in-plane widths a and b
 * is at most P = √2·(a + b − (2 + √2)·r) long (tangent to the rounded inner corner, ends on the
 * eroded outer walls), and the axis's extent across the plane is at most H − 2r (H the section's
 * extent across the plane). So no axis longer than √(P² + (H − 2r)²) passes — and for equal widths
 * one that long passes, tilted by a constant angle across the plane while it swings (the 45°
 * position is the tightest for a symmetric bend). The generator makes both corridors of a bend
 * the same width in the bend's plane and every segment longer than the rod, so the bound is
 * the critical length.
 */
import type { Pose, Vec3 } from '../../../sim/types.ts';
import type { Tier } from '../../types.ts';

/** Parameters an M2 world is built from: plain JSON, a pure function of (seed, tier). */
export interface M2Scene {
  /** The corridor. */
  corridor: {
    /** Inside width across a horizontal segment (horizontal, perpendicular to it), metres. */
    width: number;
    /** Inside height of a horizontal segment (floor to ceiling), metres. */
    height: number;
    /** Thickness of walls, floor and ceiling, metres. */
    wall: number;
    /**
     * Centre line: the closed end, each bend, and the open exit, in order; consecutive points
     * differ along one world axis. Horizontal segments run at mid-height (y = height / 2); a
     * vertical segment (L7) rises from a bend to the exit.
     */
    points: Vec3[];
  };
  /** The rod: a capsule. */
  rod: {
    /** Radius of the cylinder and of its round ends, metres. */
    radius: number;
    /** Length of the axis segment between the centres of the round ends, metres. */
    axisLength: number;
    /** Overall length, end to end (`axisLength + 2·radius`), metres. */
    length: number;
  };
  /** The rod's start pose: midpoint `p` and orientation `q` (its x axis along the rod). */
  start: Pose;
  /** Critical axis length: the longest rod axis that can pass every bend (see the module comment), metres. */
  criticalAxis: number;
  /** How much shorter the rod's axis is than the critical length, as a fraction. */
  slack: number;
  /** A rod whose axis is this fraction longer cannot pass (the tightness the filter checks). */
  tightness: number;
}

/** What each tier draws. */
export interface M2TierSettings {
  /** Number of bends. */
  bends: 1 | 2;
  /** Whether the second bend turns upward (out of the plane of the first). */
  verticalSecond: boolean;
  /** Range of (height − 2·radius) as a fraction of the flat critical length P: how much a tilt can add. */
  tiltRoom: [number, number];
  /** Range the rod's slack below the critical length is drawn from (continuously), as fractions. */
  slack: [number, number];
  /** Tightness a longer rod is checked against. */
  tightness: number;
  /**
   * Most calls the planned reference makes at this tier (a test plays the planner over seeds
   * and checks it): the action budget is {@link BUDGET_FACTOR} times this.
   */
  referenceCallsAtMost: number;
}

/** Tier settings: L1 one bend under a ceiling just above the rod; L3 a ceiling that leaves room to tilt, which the rod needs; L5 two bends; L7 the second bend turns upward. */
export const TIERS: Record<Tier, M2TierSettings> = {
  L1: { bends: 1, verticalSecond: false, tiltRoom: [0.04, 0.06], slack: [0.07, 0.085], tightness: 0.1, referenceCallsAtMost: 12 },
  L3: { bends: 1, verticalSecond: false, tiltRoom: [0.3, 0.45], slack: [0.05, 0.055], tightness: 0.06, referenceCallsAtMost: 12 },
  L5: { bends: 2, verticalSecond: false, tiltRoom: [0.3, 0.45], slack: [0.045, 0.05], tightness: 0.06, referenceCallsAtMost: 20 },
  L7: { bends: 2, verticalSecond: true, tiltRoom: [0.3, 0.45], slack: [0.045, 0.05], tightness: 0.06, referenceCallsAtMost: 20 },
};

/**
 * The action budget's factor over the most calls the reference makes at a tier: room for a
 * model that looks to swing in smaller steps and correct a few refused ones (README.md), too few
 * to map the corridor by feeling with refused moves and then carry the rod through it.
 */
export const BUDGET_FACTOR = 3;

/** The action budget of a tier (refused and rolled-back calls count): the same for every seed. */
export function actionBudget(tier: Tier): number {
  return BUDGET_FACTOR * TIERS[tier].referenceCallsAtMost;
}

/** Wall, floor and ceiling thickness, metres. */
export const WALL = 0.02;
/** Gap between the rod's far end and the closed end at the start, metres. */
export const START_GAP = 0.02;

/** Longest segment at 45° in the eroded L of in-plane widths a and b (see the module comment). */
export function flatCritical(a: number, b: number, r: number): number {
  return Math.SQRT2 * (a + b - (2 + Math.SQRT2) * r);
}

/** Critical axis length of one bend: widths a, b in its plane, extent H across it. */
export function bendCritical(a: number, b: number, across: number, r: number): number {
  return Math.hypot(flatCritical(a, b, r), Math.max(0, across - 2 * r));
}

/** Unit direction of segment i (from points[i] to points[i + 1]). */
export function segmentDirection(points: Vec3[], i: number): Vec3 {
  const d: Vec3 = [points[i + 1][0] - points[i][0], points[i + 1][1] - points[i][1], points[i + 1][2] - points[i][2]];
  const n = Math.hypot(...d);
  return [d[0] / n, d[1] / n, d[2] / n];
}

/**
 * The section of segment i: its extent along each world axis across it (the axis along it is 0).
 * A horizontal segment is `width` across and `height` high; a vertical one is `height` along the
 * direction of the segment before it (so that bend has equal widths in its plane) and `width`
 * along the other horizontal axis.
 */
export function segmentSection(s: M2Scene['corridor'], i: number): Vec3 {
  const d = segmentDirection(s.points, i);
  const along = d.map((v) => Math.abs(v) > 0.5);
  if (along[1]) {
    const prev = segmentDirection(s.points, i - 1);
    return Math.abs(prev[0]) > 0.5 ? [s.height, 0, s.width] : [s.width, 0, s.height];
  }
  return along[0] ? [0, s.height, s.width] : [s.width, s.height, 0];
}

/** Critical axis length of every bend of a corridor for a rod of radius r. */
export function bendCriticals(c: M2Scene['corridor'], r: number): number[] {
  const out: number[] = [];
  for (let k = 1; k < c.points.length - 1; k++) {
    const d0 = segmentDirection(c.points, k - 1);
    const d1 = segmentDirection(c.points, k);
    const s0 = segmentSection(c, k - 1);
    const s1 = segmentSection(c, k);
    const axis = (v: Vec3): number => v.findIndex((x) => Math.abs(x) > 0.5);
    const i0 = axis(d0);
    const i1 = axis(d1);
    const across = 3 - i0 - i1;
    // In-plane widths: the incoming section along the outgoing direction, and vice versa.
    out.push(bendCritical(s0[i1], s1[i0], Math.max(s0[across], s1[across]), r));
  }
  return out;
}
