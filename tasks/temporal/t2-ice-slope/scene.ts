/**
 * T2 ice slope: the scene an instance carries (plain JSON, a pure function of seed and tier),
 * the tiers and the sizes the family's files share. Every field is described in README.md.
 *
 * Slope coordinate `s`: metres along the ice from the launch pad's centre in the direction the
 * puck is launched. World frame: x along the ice's direction (level), y up, z toward the first
 * camera; the ice surface at slope coordinate s is the point (s cos θ, −s sin θ, 0), θ the tilt
 * (positive: the ice runs downhill in the launch direction).
 */
import type { Vec3 } from '../../../sim/types.ts';
import type { LeverTable } from '../../levers.ts';
import type { Tier } from '../../types.ts';

/** A stretch of the ice with a different slipperiness, from `from` (slope coordinate) to the end. */
export interface IcePatch {
  from: number;
  friction: number;
}

/** Parameters a T2 world is built from (plain JSON). */
export interface T2Scene {
  /** Tilt of the ice, degrees: positive runs downhill in the launch direction, negative uphill. */
  tiltDeg: number;
  /** Coulomb friction coefficient of the ice from the pad on (the puck's own is higher: contacts take the smaller). */
  friction: number;
  /** L7: a stretch of different ice from a point on to the end, drawn the same; null below L7. */
  patch: IcePatch | null;
  /** The green band: slope coordinates of its near and far edges, m. */
  zone: { from: number; to: number };
  /** Slope coordinate of the bumper at the far end of the ice, m. */
  end: number;
}

/** Gravity, m/s². */
export const G = 9.81;
/** The puck: radius and half height, m; density, kg/m³. */
export const PUCK_RADIUS = 0.03;
export const PUCK_HALF_HEIGHT = 0.008;
export const PUCK_DENSITY = 900;
/** The ice reaches this far behind the pad, m. */
export const ICE_BACK = -0.12;
/** Half the ice's width (z), m. */
export const ICE_HALF_WIDTH = 0.08;
/** Depth of the ice block under its surface at its lowest point, m. */
export const ICE_DEPTH = 0.05;
/** How far below the main ice's surface the patch's collider lies, m (the puck slides off onto it, never into its edge). */
export const PATCH_DROP = 0.0002;
/** The bumper at the far end: height above the ice and thickness along it, m. */
export const BUMPER_HEIGHT = 0.03;
export const BUMPER_THICKNESS = 0.02;
/** The white ruler strip beside the ice (z from the ice's front edge outward), m. */
export const STRIP_Z: [number, number] = [ICE_HALF_WIDTH + 0.004, ICE_HALF_WIDTH + 0.05];
/** A launch speed, m/s. */
export const SPEED_RANGE: [number, number] = [0.1, 4];
/** A wait, s. */
export const WAIT_RANGE: [number, number] = [0.25, 10];
/** The puck counts as at rest below this speed, m/s. */
export const REST_SPEED = 0.002;

/** What each tier draws. */
export interface TierSettings {
  /** |tilt| range in degrees (0: level); the sign is drawn. */
  tilt: [number, number];
  /** Friction range of the ice. */
  friction: [number, number];
  /** Range of the zone centre's distance from the pad, m. */
  distance: [number, number];
  /** Width of the green band, m. */
  zoneWidth: number;
  /** L7: the patch's start as a share of the zone distance, and its friction as a factor of the first ice's (either range). */
  patch: { from: [number, number]; factor: Array<[number, number]> } | null;
}

/** Tier settings (see the family's descriptor for the words). */
export const TIERS: Record<Tier, TierSettings> = {
  L1: { tilt: [0, 0], friction: [0.03, 0.25], distance: [0.5, 1.7], zoneWidth: 0.05, patch: null },
  L3: { tilt: [1.5, 3.5], friction: [0.03, 0.25], distance: [0.5, 1.7], zoneWidth: 0.05, patch: null },
  L5: { tilt: [1.5, 3.5], friction: [0.03, 0.25], distance: [0.9, 1.8], zoneWidth: 0.05, patch: null },
  L7: { tilt: [1.5, 3.5], friction: [0.03, 0.25], distance: [0.9, 1.8], zoneWidth: 0.05, patch: { from: [0.3, 0.6], factor: [[0.55, 0.7], [1.5, 1.9]] } },
};

/**
 * The levers T2 supports as single-factor studies over L5 (`T2-L5+change-s100`; tasks/levers.ts).
 * `+change` is its L7's undisclosed change; the patch is drawn after L5's values, so a study is the seed's L5 sheet with a stretch of other ice where the filters allow it.
 */
export const T2_LEVERS: LeverTable<TierSettings> = {
  '+change': { description: 'L5 with a stretch of ice part of the way to the band with less or more friction than the rest, drawn the same (undisclosed); a probe on the first stretch misjudges the rest.', apply: (s) => ({ ...s, patch: TIERS.L7.patch }) },
};

/** The action budget: two launches and their waits, and one more wait (every launch and wait counts). */
export const ACTION_BUDGET = 5;

/** The ice surface point at slope coordinate `s`. */
export function surfacePoint(s: T2Scene, at: number, lift = 0): Vec3 {
  const t = (s.tiltDeg * Math.PI) / 180;
  return [at * Math.cos(t) + lift * Math.sin(t), -at * Math.sin(t) + lift * Math.cos(t), 0];
}

/** Slope coordinate of a world point (its projection onto the ice's direction). */
export function slopeCoordinate(s: T2Scene, p: readonly number[]): number {
  const t = (s.tiltDeg * Math.PI) / 180;
  return p[0] * Math.cos(t) - p[1] * Math.sin(t);
}

/** Deceleration of the puck on ice of friction `mu`, m/s² (positive: it slows down). */
export function deceleration(s: T2Scene, mu: number): number {
  const t = (s.tiltDeg * Math.PI) / 180;
  return G * (mu * Math.cos(t) - Math.sin(t));
}

/**
 * Where a puck launched from the pad at `speed` comes to rest, by the textbook formula
 * v² / (2 g (μ cos θ − sin θ)), piecewise over the patch; before the bumper it is capped there.
 */
export function analyticStop(s: T2Scene, speed: number): number {
  const a1 = deceleration(s, s.friction);
  const first = (speed * speed) / (2 * a1);
  let stop = first;
  if (s.patch && first > s.patch.from) {
    const v2 = speed * speed - 2 * a1 * s.patch.from;
    stop = s.patch.from + v2 / (2 * deceleration(s, s.patch.friction));
  }
  return Math.min(stop, s.end - BUMPER_THICKNESS / 2 - PUCK_RADIUS);
}

/** The zone's centre, m. */
export function zoneCentre(s: T2Scene): number {
  return (s.zone.from + s.zone.to) / 2;
}
