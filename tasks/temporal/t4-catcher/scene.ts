/**
 * T4 catcher: the scene an instance carries (plain JSON, a pure function of seed and tier), the
 * tiers and the sizes the family's files share. Every field is described in README.md.
 *
 * World frame: x along the throw (0 at the table's edge), y up (0 at the floor), z toward the
 * first camera. The flight lies in the plane z = 0.
 */
import type { LeverTable } from '../../levers.ts';
import type { Tier } from '../../types.ts';

/** Parameters a T4 world is built from (plain JSON). */
export interface T4Scene {
  /** Height of the table's top above the floor, m. */
  tableHeight: number;
  /** Height of the shelf's top (where the catcher stands) above the floor, m. */
  shelfHeight: number;
  /** Angle of the launcher's barrel as drawn, degrees above the horizontal. */
  barrelDeg: number;
  /** Angle the ball really leaves at, degrees above the horizontal (the barrel's, except at L7). */
  launchDeg: number;
  /** Launch speed, m/s (the same on every shot). */
  speed: number;
  /** x of the catcher's centre before the first placement (parked near the far end), m. */
  catcherStart: number;
}

/** Gravity, m/s². */
export const G = 9.81;
/** The ball: radius, m; density, kg/m³. */
export const BALL_RADIUS = 0.02;
export const BALL_DENSITY = 1000;
/** The launch point (the ball's centre in the launcher's cradle): x, and height above the table's top, m. */
export const LAUNCH_X = 0.03;
export const LAUNCH_LIFT = 0.04;
/** The table: from x = TABLE_BACK to its edge at x = 0; half its depth (z), m. */
export const TABLE_BACK = -0.3;
export const TABLE_HALF_DEPTH = 0.08;
/** The shelf runs from the table's edge to SHELF_END (the stop's near face); half its depth (z), m. */
export const SHELF_END = 1.75;
export const SHELF_HALF_DEPTH = 0.1;
/** The stop at the shelf's far end: thickness along x and height above the shelf, m. */
export const STOP_THICKNESS = 0.03;
export const STOP_HEIGHT = 0.08;
/** The catcher (an open box): inside width along x and z, wall thickness and height, base thickness, m. */
export const CATCHER_INNER = 0.06;
export const CATCHER_WALL = 0.005;
export const CATCHER_HEIGHT = 0.05;
export const CATCHER_BASE = 0.006;
/** Half the catcher's outside width, m. */
export const CATCHER_HALF_OUTER = CATCHER_INNER / 2 + CATCHER_WALL;
/** Gap kept under the catcher as it slides along the shelf, m. */
export const CATCHER_GAP = 0.0005;
/** The white ruler strip along the shelf's front edge (z from, to), m. */
export const STRIP_Z: [number, number] = [SHELF_HALF_DEPTH - 0.07, SHELF_HALF_DEPTH - 0.002];
/** Where the catcher's centre may be placed, m from the table's edge. */
export const PLACE_RANGE: [number, number] = [0.15, 1.65];
/** A wait, s. */
export const WAIT_RANGE: [number, number] = [0.05, 10];
/** The ball counts as at rest below this speed, m/s. */
export const REST_SPEED = 0.005;

/** What each tier draws. */
export interface TierSettings {
  /** Range of the table's height, m. */
  table: [number, number];
  /** Range of the shelf's height, m (a single value: fixed). */
  shelf: [number, number];
  /** Range of the barrel's angle, degrees (0: level). */
  angle: [number, number];
  /** Range of where the ball lands on the shelf (its centre touching the shelf's height), m from the table's edge. */
  landing: [number, number];
  /** L7: how far the real launch angle is off the drawn barrel, degrees (either sign); else null. */
  misaim: [number, number] | null;
}

/** Tier settings (see the family's descriptor for the words). */
export const TIERS: Record<Tier, TierSettings> = {
  L1: { table: [0.42, 0.58], shelf: [0.03, 0.03], angle: [0, 0], landing: [0.3, 1.4], misaim: null },
  L3: { table: [0.3, 0.48], shelf: [0.03, 0.03], angle: [12, 40], landing: [0.3, 1.4], misaim: null },
  L5: { table: [0.36, 0.52], shelf: [0.1, 0.26], angle: [12, 40], landing: [0.3, 1.4], misaim: null },
  L7: { table: [0.36, 0.52], shelf: [0.1, 0.26], angle: [15, 35], landing: [0.3, 1.4], misaim: [7, 12] },
};

/**
 * The levers T4 supports as single-factor studies over L5 (`T4-L5+change-s100`; tasks/levers.ts).
 * `+change` is its L7's undisclosed change; a study is drawn from L5's stream with L7's barrel range and misaim.
 */
export const T4_LEVERS: LeverTable<TierSettings> = {
  '+change': { description: 'L5 with the barrel drawn at 15–35° and the ball leaving 7–12° above or below it (undisclosed); the angle read off the barrel misses the catcher.', apply: (s) => ({ ...s, angle: TIERS.L7.angle, misaim: TIERS.L7.misaim }) },
};

/**
 * The action budget: a second probe (a firing and its wait) besides the shot the first picture
 * shows, then a placement, the real firing and its wait. Two placements with a firing and a wait
 * each would take six: a model that does not look gets one try.
 */
export const ACTION_BUDGET = 5;

/** The launch point: the ball's centre in the cradle. */
export function launchPoint(s: T4Scene): [number, number] {
  return [LAUNCH_X, s.tableHeight + LAUNCH_LIFT];
}

/**
 * Where a drag-free ball leaving the launch point at `speed` and `deg` above the horizontal has
 * its centre at height `y` on the way down: x = x₀ + v cos θ · t, with t the later root of
 * y₀ + v sin θ · t − g t² / 2 = y. Null when the ball never comes down to `y`.
 */
export function ballisticX(s: T4Scene, y: number, speed = s.speed, deg = s.launchDeg): number | null {
  const [x0, y0] = launchPoint(s);
  const a = (deg * Math.PI) / 180;
  const vx = speed * Math.cos(a);
  const vy = speed * Math.sin(a);
  const disc = vy * vy + 2 * G * (y0 - y);
  if (disc < 0) return null;
  return x0 + (vx * (vy + Math.sqrt(disc))) / G;
}

/** The landing point: x of the ball's centre when it first touches the shelf's top (drag-free formula). */
export function analyticLanding(s: T4Scene, speed = s.speed, deg = s.launchDeg): number {
  return ballisticX(s, s.shelfHeight + BALL_RADIUS, speed, deg) ?? Number.NaN;
}

/** Flight time from the launch point to the shelf (drag-free), s. */
export function flightTime(s: T4Scene): number {
  const [x0] = launchPoint(s);
  const a = (s.launchDeg * Math.PI) / 180;
  return (analyticLanding(s) - x0) / (s.speed * Math.cos(a));
}

/** Highest point of the ball's centre (drag-free), m. */
export function apexHeight(s: T4Scene): number {
  const vy = s.speed * Math.sin((s.launchDeg * Math.PI) / 180);
  return launchPoint(s)[1] + Math.max(0, vy) ** 2 / (2 * G);
}

/** The speed at which a ball leaving at `deg` lands at `x` on the shelf (bisection over the formula). */
export function speedForLanding(s: T4Scene, x: number, deg = s.launchDeg): number {
  let lo = 0.05;
  let hi = 20;
  for (let i = 0; i < 80; i++) {
    const mid = (lo + hi) / 2;
    if (analyticLanding(s, mid, deg) < x) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** The ball's angle below the horizontal as its centre comes down through height `y` (drag-free), degrees. */
export function descentDeg(s: T4Scene, y: number): number {
  const [, y0] = launchPoint(s);
  const a = (s.launchDeg * Math.PI) / 180;
  const vx = s.speed * Math.cos(a);
  const vy = Math.sqrt(Math.max(0, (s.speed * Math.sin(a)) ** 2 + 2 * G * (y0 - y)));
  return (Math.atan2(vy, vx) * 180) / Math.PI;
}

/** Height of the catcher's rim above the floor, m. */
export function rimHeight(s: T4Scene): number {
  return s.shelfHeight + CATCHER_GAP + CATCHER_HEIGHT;
}

/**
 * The catcher placements (its centre's x) that catch a drag-free ball, by geometry: the ball
 * must pass the near wall's top with its surface clear (its centre a radius above the rim,
 * measured across the path), and its centre must come down through the rim's plane no further
 * than the far wall's outer face (a ball that meets the far wall's top short of that is turned
 * back in: the engine's scans show it). An estimate for the solver's scan, which decides.
 */
export function catchWindowAnalytic(s: T4Scene): { from: number; to: number } {
  const rim = rimHeight(s);
  const phi = (descentDeg(s, rim) * Math.PI) / 180;
  const clear = ballisticX(s, rim + BALL_RADIUS / Math.cos(phi)) ?? Number.NaN;
  const low = ballisticX(s, rim) ?? Number.NaN;
  return { from: low - CATCHER_HALF_OUTER, to: clear + CATCHER_INNER / 2 };
}

/**
 * Where the ball's centre crosses the catcher's rim plane on the way down (drag-free): the
 * height of the rim plus a radius, the first height at which the rim could stop it.
 */
export function rimCrossing(s: T4Scene, speed = s.speed, deg = s.launchDeg): number {
  return ballisticX(s, s.shelfHeight + CATCHER_GAP + CATCHER_HEIGHT + BALL_RADIUS, speed, deg) ?? Number.NaN;
}
