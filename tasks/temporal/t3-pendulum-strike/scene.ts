/**
 * T3 pendulum strike: the scene an instance carries (plain JSON, a pure function of seed and
 * tier), the tiers, the sizes the family's files share, and the ideal pendulum the certificate
 * compares the engine with. Every field is described in README.md.
 *
 * World frame: metres, y up, the floor at y = 0; the pendulum swings in the plane z = 0 about a
 * pivot at (0, `pivotY`, 0), its angle θ measured counter-clockwise about +z from hanging
 * straight down (θ > 0: the bob is on the +x side). The first camera looks along −z at that
 * plane.
 */
import type { Vec3 } from '../../../sim/types.ts';
import type { LeverTable } from '../../levers.ts';
import type { Tier } from '../../types.ts';
import { STROBE_FRAMES, STROBE_SPACING_S } from '../../../render/strobe.ts';

/** Parameters a T3 world is built from (plain JSON). */
export interface T3Scene {
  /** Pivot axis to the drum's axis, m. */
  length: number;
  /** Largest angle of the swing from hanging straight down, degrees. */
  amplitudeDeg: number;
  /**
   * Where the pendulum is at world time 0: the fraction of one period of the ideal pendulum (of
   * its effective length) that has passed since it was at rest at +amplitude (the +x side).
   */
  phase: number;
  /** Radius of the drum-shaped bob (its axis along z, 10 cm long), m. */
  bobRadius: number;
  /** Radius of the steel ball, m. */
  ballRadius: number;
  /** x of the vertical line the ball falls along (0: straight below the pivot), m. */
  dropX: number;
  /** Gap between the held ball's lowest point and the drum's top as the drum's axis passes under the drop line, m. */
  dropGap: number;
  /** Density of the rod, kg/m³ (light below L7; at L7 heavier, drawn the same). */
  rodDensity: number;
}

/** Gravity, m/s². */
export const G = 9.81;
/** The world's step, s (the default of `sim/`: a release falls on this grid). */
export const DT = 1 / 240;
/** World time of the first picture: the environment runs a moving world one strobe span first. */
export const PREROLL_S = STROBE_SPACING_S * (STROBE_FRAMES - 1);
/** Half the drum's length along z, m. */
export const DRUM_HALF = 0.05;
/** Density of the drum (aluminium), kg/m³. */
export const DRUM_DENSITY = 2700;
/** Radius of the rod, m; it runs from the pivot to the drum's surface. */
export const ROD_RADIUS = 0.0035;
/** Density of the light rod of L1–L5, kg/m³. */
export const LIGHT_ROD_DENSITY = 150;
/** Density of the ball (steel), kg/m³. */
export const BALL_DENSITY = 7850;
/** The plane the ball falls in, z (in front of the rod, over the drum's front half), m. */
export const BALL_Z = 0.03;
/** Height of the drum's lowest point above the floor, m. */
export const FLOOR_CLEARANCE = 0.1;
/** The ball counts as touching the drum within this distance, m. */
export const TOUCH_TOLERANCE = 0.0005;
/** A wait, s. */
export const WAIT_RANGE: [number, number] = [0.05, 10];
/** The action budget (every wait and every release counts): the reference takes three. */
export const ACTION_BUDGET = 10;

/** What each tier draws. */
export interface TierSettings {
  length: [number, number];
  amplitudeDeg: [number, number];
  bobRadius: number;
  ballRadius: number;
  /** The drop line's offset as a share of the bob's largest offset, either side; [0, 0]: under the pivot. */
  dropShare: [number, number];
  dropGap: [number, number];
  /** The rod's density range, kg/m³ (a single value below L7). */
  rodDensity: [number, number];
}

/** Tier settings (see the family's descriptor for the words). */
export const TIERS: Record<Tier, TierSettings> = {
  L1: { length: [0.35, 0.6], amplitudeDeg: [35, 50], bobRadius: 0.011, ballRadius: 0.007, dropShare: [0, 0], dropGap: [0.06, 0.12], rodDensity: [LIGHT_ROD_DENSITY, LIGHT_ROD_DENSITY] },
  L3: { length: [0.35, 0.6], amplitudeDeg: [40, 60], bobRadius: 0.0095, ballRadius: 0.007, dropShare: [0, 0], dropGap: [0.08, 0.18], rodDensity: [LIGHT_ROD_DENSITY, LIGHT_ROD_DENSITY] },
  L5: { length: [0.35, 0.6], amplitudeDeg: [40, 60], bobRadius: 0.0095, ballRadius: 0.007, dropShare: [0.1, 0.35], dropGap: [0.08, 0.18], rodDensity: [LIGHT_ROD_DENSITY, LIGHT_ROD_DENSITY] },
  L7: { length: [0.35, 0.6], amplitudeDeg: [40, 60], bobRadius: 0.0095, ballRadius: 0.007, dropShare: [0.1, 0.35], dropGap: [0.08, 0.18], rodDensity: [4000, 9000] },
};

/**
 * The levers T3 supports as single-factor studies over L5 (`T3-L5+change-s100`; tasks/levers.ts).
 * `+change` is its L7's: the rod's density is the draw's last value, so a study is the seed's L5
 * swing with a heavy rod.
 */
export const T3_LEVERS: LeverTable<TierSettings> = {
  '+change': { description: 'L5 with the rod heavier than it looks (density 4,000–9,000 kg/m³ instead of a light rod), undisclosed; the strobe frames show the shorter period.', apply: (s) => ({ ...s, rodDensity: TIERS.L7.rodDensity }) },
};

/** Height of the pivot above the floor, m. */
export function pivotY(s: T3Scene): number {
  return s.length + s.bobRadius + FLOOR_CLEARANCE;
}

/** Length of the rod (pivot to the drum's surface), m. */
export function rodLength(s: T3Scene): number {
  return s.length - s.bobRadius;
}

/** Masses of the drum and the rod, kg. */
export function masses(s: T3Scene): { drum: number; rod: number } {
  return {
    drum: DRUM_DENSITY * Math.PI * s.bobRadius * s.bobRadius * 2 * DRUM_HALF,
    rod: s.rodDensity * Math.PI * ROD_RADIUS * ROD_RADIUS * rodLength(s),
  };
}

/**
 * The effective length of the rigid pendulum (rod and drum), I / (M d): the length of the
 * simple pendulum with the same motion. The drum turns about its own axis with the swing
 * (½ m r²), the rod about its end (m (ℓ²/3 + r²/4)).
 */
export function effectiveLength(s: T3Scene): number {
  const m = masses(s);
  const l = rodLength(s);
  const inertia = m.rod * (l * l / 3 + ROD_RADIUS * ROD_RADIUS / 4) + m.drum * (s.bobRadius * s.bobRadius / 2 + s.length * s.length);
  return inertia / (m.rod * l / 2 + m.drum * s.length);
}

/** The complete elliptic integral of the first kind K(k) (modulus k), by the arithmetic-geometric mean. */
export function ellipticK(k: number): number {
  let a = 1;
  let b = Math.sqrt(1 - k * k);
  for (let i = 0; i < 30 && Math.abs(a - b) > 1e-15; i++) [a, b] = [(a + b) / 2, Math.sqrt(a * b)];
  return Math.PI / (2 * a);
}

/** The exact period of a pendulum of effective length `leq` swinging to `amplitudeDeg`: 4 √(L/g) K(sin(θ₀/2)). */
export function exactPeriod(leq: number, amplitudeDeg: number): number {
  return 4 * Math.sqrt(leq / G) * ellipticK(Math.sin((amplitudeDeg * Math.PI) / 360));
}

/** The small-angle period 2π √(L/g), s. */
export function smallAnglePeriod(leq: number): number {
  return 2 * Math.PI * Math.sqrt(leq / G);
}

/** The scene's exact period, s. */
export function period(s: T3Scene): number {
  return exactPeriod(effectiveLength(s), s.amplitudeDeg);
}

/** Steps of the ideal pendulum's integration per world step. */
const SUBSTEPS = 8;

/** One RK4 step of θ'' = −(g / L) sin θ. */
function rk4(state: [number, number], h: number, w2: number): [number, number] {
  const f = (th: number, om: number): [number, number] => [om, -w2 * Math.sin(th)];
  const [t0, o0] = state;
  const k1 = f(t0, o0);
  const k2 = f(t0 + (h / 2) * k1[0], o0 + (h / 2) * k1[1]);
  const k3 = f(t0 + (h / 2) * k2[0], o0 + (h / 2) * k2[1]);
  const k4 = f(t0 + h * k3[0], o0 + h * k3[1]);
  return [t0 + (h / 6) * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0]), o0 + (h / 6) * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1])];
}

/** The ideal pendulum's angle and angular speed (rad, rad/s) at world time 0. */
export function initialState(s: T3Scene): [number, number] {
  const leq = effectiveLength(s);
  const w2 = G / leq;
  const t = s.phase * period(s);
  const n = Math.max(1, Math.ceil((t / DT) * SUBSTEPS));
  let state: [number, number] = [(s.amplitudeDeg * Math.PI) / 180, 0];
  for (let i = 0; i < n; i++) state = rk4(state, t / n, w2);
  return state;
}

/** The ideal pendulum's angle (rad) after every world step from world time 0 to `seconds`. */
export function idealAngles(s: T3Scene, seconds: number): number[] {
  const w2 = G / effectiveLength(s);
  let state = initialState(s);
  const out = [state[0]];
  const steps = Math.round(seconds / DT);
  for (let n = 0; n < steps; n++) {
    for (let k = 0; k < SUBSTEPS; k++) state = rk4(state, DT / SUBSTEPS, w2);
    out.push(state[0]);
  }
  return out;
}

/** Where the drum's axis is at angle θ. */
export function drumCentre(s: T3Scene, theta: number): Vec3 {
  return [s.length * Math.sin(theta), pivotY(s) - s.length * Math.cos(theta), 0];
}

/** Height of the drum's axis as it passes under the drop line, m. */
export function crossingY(s: T3Scene): number {
  return pivotY(s) - Math.sqrt(s.length * s.length - s.dropX * s.dropX);
}

/** Where the held ball's centre is. */
export function heldBallCentre(s: T3Scene): Vec3 {
  return [s.dropX, crossingY(s) + s.bobRadius + s.dropGap + s.ballRadius, BALL_Z];
}

/** Seconds the ball falls from the clamp until it would touch the top of a drum waiting under the drop line. */
export function fallTime(s: T3Scene): number {
  return Math.sqrt((2 * s.dropGap) / G);
}

/** A window of release times, in world steps after the first picture (inclusive). */
export interface StepWindow {
  lo: number;
  hi: number;
}

/**
 * The ball's drop below the clamp after `k` steps of free fall, m, as the engine integrates it
 * (semi-implicit Euler: the speed grows by g·dt each step before the position moves).
 */
export function fallDrop(k: number): number {
  return (G * DT * DT * k * (k + 1)) / 2;
}

/**
 * The release windows the ideal pendulum gives over `seconds` after the first picture: release
 * steps for which, at some step of the ball's fall before it is below the drum's lowest reach,
 * the ball's centre is within (bob + ball radius) of the drum's axis in the swing plane (the ball
 * falls over the drum's length, so the plane is where they meet). The engine's windows
 * (solver.ts) decide; these are the filters' cheap estimate and the certificate's cross-check.
 */
export function analyticWindows(s: T3Scene, seconds: number): StepWindow[] {
  const first = Math.round(PREROLL_S / DT);
  const held = heldBallCentre(s);
  const lowest = pivotY(s) - s.length - s.bobRadius - s.ballRadius - 0.002;
  let fallSteps = 0;
  while (held[1] - fallDrop(fallSteps) >= lowest) fallSteps++;
  const angles = idealAngles(s, PREROLL_S + seconds + (fallSteps + 1) * DT);
  const reach = s.bobRadius + s.ballRadius;
  const px = angles.map((th) => s.length * Math.sin(th));
  const py = angles.map((th) => pivotY(s) - s.length * Math.cos(th));
  const out: StepWindow[] = [];
  let open: StepWindow | null = null;
  const last = Math.round(seconds / DT);
  for (let n = 0; n <= last; n++) {
    let hit = false;
    for (let k = 1; k <= fallSteps && !hit; k++) {
      const at = first + n + k;
      hit = Math.hypot(px[at] - s.dropX, py[at] - (held[1] - fallDrop(k))) <= reach;
    }
    if (hit && !open) open = { lo: n, hi: n };
    else if (hit && open) open.hi = n;
    else if (!hit && open) {
      out.push(open);
      open = null;
    }
  }
  if (open) out.push(open);
  return out;
}

/** Round a number for text (never a seed-varying one in what an agent reads). */
export function fmt(x: number, digits = 3): string {
  return Number(x.toFixed(digits)).toString();
}
