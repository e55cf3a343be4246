/**
 * T5 lever synthesis: the scene an instance carries (plain JSON, a pure function of seed and
 * tier), the tiers, the sizes the family's files share, and the moment balance the certificate
 * compares the engine with. Every field is described in README.md.
 *
 * World frame: metres, y up, the floor at y = 0; x along the lever, 0 at its load end (where
 * the crate sits) when the lever is level; z toward the first camera. The lever turns in the
 * plane z = 0 about the fulcrum's pin, which lies {@link HANG} above the lever's centre line: the
 * lever hangs from it like a balance beam, so it settles at the angle where the moments of its
 * parts about the pin balance (tan θ = Σ m u / Σ m v), not only at a stop.
 */
import type { Tier } from '../../types.ts';
import type { LeverTable } from '../../levers.ts';

/** Parameters a T5 world is built from (plain JSON). */
export interface T5Scene {
  /** Length of the lever (the wooden beam), m. */
  leverLength: number;
  /** Side of the cubic crate bolted on the lever's load end, m. */
  crateSide: number;
  /** Density of the crate, kg/m³: {@link CRATE_DENSITY} below L7, more at L7 (drawn the same). */
  crateDensity: number;
  /** Height of the bottom of the green target band above the floor, m. */
  bandLow: number;
  /** Height of the top of the green target band above the floor, m. */
  bandHigh: number;
  /** Where the fulcrum's pin stands before the first placement, m from the load end. */
  fulcrumStart: number;
  /** Where the counterweight's centre sits before the first placement, m from the load end. */
  counterweightStart: number;
}

/** Gravity, m/s². */
export const G = 9.81;
/** The world's step, s. */
export const DT = 1 / 240;
/** Height of the fulcrum's pin above the floor, m. */
export const PIN_Y = 0.7;
/** Distance from the pin down to the lever's centre line, m (the hanger's drop). */
export const HANG = 0.12;
/** The beam: thickness (y) and depth (z), m; density (wood), kg/m³. */
export const BEAM_T = 0.03;
export const BEAM_W = 0.06;
export const BEAM_DENSITY = 600;
/** Density of the crate as the rules state it (sand), kg/m³. */
export const CRATE_DENSITY = 1800;
/** The counterweight: a steel cube, side m, density kg/m³ (2.0 kg). */
export const CW_SIDE = 0.063;
export const CW_DENSITY = 8000;
/** Gap the clamped counterweight keeps above the lever's top, m (a slide never ends touching it). */
export const CW_GAP = 0.0003;
/** The hanger: an aluminium plate behind the beam from its centre line to above the pin; width (x), thickness (z), m; density kg/m³. */
export const HANGER_WIDTH = 0.04;
export const HANGER_THICK = 0.006;
export const HANGER_ABOVE = 0.02;
export const HANGER_DENSITY = 2700;
/** z of the hanger plate's centre (just behind the beam). */
export const HANGER_Z = -(BEAM_W / 2 + 0.002 + HANGER_THICK / 2);
/** The lever's stops: the revolute joint's limits either side of level, degrees. */
export const LIMIT_DEG = 24;
/** A plan keeps its resting angle this far from either stop, degrees. */
export const STOP_MARGIN_DEG = 2;
/** The success test: the lever rests free, at least this far from either stop, degrees. */
export const FREE_MARGIN_DEG = 0.5;
/** The hinge's damping (a velocity motor at speed 0: no torque at rest), 1/s. */
export const HINGE_DAMPING = 2.5;
/** A wait, s. */
export const WAIT_RANGE: [number, number] = [0.05, 10];
/** Where the tools may put the fulcrum or the counterweight, m from the load end (further limits: the lever itself). */
export const PLACE_RANGE: [number, number] = [0, 1.6];
/** Shortest distance of the fulcrum from either end of the lever, m. */
export const FULCRUM_END_GAP = 0.1;
/** The lever counts as at rest below this angular speed, rad/s, held for {@link REST_HOLD_S}. */
export const REST_OMEGA = 0.004;
export const REST_HOLD_S = 0.5;
/** The action budget: twice the reference's four calls (a probe release and a corrected one fit). */
export const ACTION_BUDGET = 8;

/** What each tier draws. */
export interface TierSettings {
  leverLength: [number, number];
  crateSide: [number, number];
  /** Band height (top − bottom), m. */
  bandHeight: number;
  /** Margin kept between the band and the highest and lowest resting heights the lever can reach, m. */
  reachMargin: number;
  /** The crate's real density over the stated one (1 below L7). */
  crateFactor: [number, number];
}

/** Tier settings (see the family's descriptor for the words). */
export const TIERS: Record<Tier, TierSettings> = {
  L1: { leverLength: [0.9, 1.3], crateSide: [0.07, 0.13], bandHeight: 0.03, reachMargin: 0.03, crateFactor: [1, 1] },
  L3: { leverLength: [0.9, 1.3], crateSide: [0.07, 0.13], bandHeight: 0.025, reachMargin: 0.03, crateFactor: [1, 1] },
  L5: { leverLength: [0.9, 1.3], crateSide: [0.07, 0.13], bandHeight: 0.02, reachMargin: 0.03, crateFactor: [1, 1] },
  L7: { leverLength: [0.9, 1.3], crateSide: [0.07, 0.13], bandHeight: 0.02, reachMargin: 0.03, crateFactor: [1.35, 1.7] },
};

/**
 * The levers T5 supports as single-factor studies over L5 (`T5-L5+change-s100`;
 * tasks/levers.ts): each the L5 settings with one change.
 */
export const T5_LEVERS: LeverTable<TierSettings> = {
  '+change': { description: "L5 with the crate 1.35\u20131.7 times as heavy as its stated contents make it (undisclosed); the balance worked with the stated density misses the band.", apply: (s) => ({ ...s, crateFactor: [1.35, 1.7] }) },
};

/** One rigid part of the lever: its mass (kg) and its centre of mass (u along the lever from the pin, v up from the pin) when the lever is level. */
export interface LeverPart {
  name: string;
  mass: number;
  u: number;
  v: number;
}

/** Height of the lever's top face when level, m. */
export function beamTopY(): number {
  return PIN_Y - HANG + BEAM_T / 2;
}

/** The hanger plate's height, m (from the beam's centre line to {@link HANGER_ABOVE} over the pin). */
export function hangerHeight(): number {
  return HANG + HANGER_ABOVE;
}

/** The parts of the lever with the fulcrum at `fulcrum` and the counterweight's centre at `cw` (both m from the load end), level. */
export function leverParts(s: T5Scene, fulcrum: number, cw: number): LeverPart[] {
  const top = -HANG + BEAM_T / 2;
  return [
    { name: 'beam', mass: BEAM_DENSITY * s.leverLength * BEAM_T * BEAM_W, u: s.leverLength / 2 - fulcrum, v: -HANG },
    { name: 'crate', mass: s.crateDensity * s.crateSide ** 3, u: s.crateSide / 2 - fulcrum, v: top + s.crateSide / 2 },
    { name: 'counterweight', mass: CW_DENSITY * CW_SIDE ** 3, u: cw - fulcrum, v: top + CW_GAP + CW_SIDE / 2 },
    { name: 'hanger', mass: HANGER_DENSITY * HANGER_WIDTH * HANGER_THICK * hangerHeight(), u: 0, v: -HANG + hangerHeight() / 2 },
  ];
}

/**
 * The moment balance: the lever's resting angle (degrees, counter-clockwise seen from the first
 * camera, so negative lifts the load end) where the moments of its parts' weights about the pin
 * cancel, g Σ m (u cos θ − v sin θ) = 0, i.e. tan θ = Σ m u / Σ m v (every part hangs below the
 * pin on balance, Σ m v < 0, so this rest is stable); clamped to the stops.
 */
export function balanceAngleDeg(s: T5Scene, fulcrum: number, cw: number): number {
  let su = 0;
  let sv = 0;
  for (const p of leverParts(s, fulcrum, cw)) {
    su += p.mass * p.u;
    sv += p.mass * p.v;
  }
  const deg = (Math.atan(su / sv) * 180) / Math.PI;
  return Math.max(-LIMIT_DEG, Math.min(LIMIT_DEG, deg));
}

/** Height of the crate's centre above the floor with the lever turned `deg` (counter-clockwise) about the pin at `fulcrum`. */
export function crateCentreY(s: T5Scene, fulcrum: number, deg: number): number {
  const u = s.crateSide / 2 - fulcrum;
  const v = -HANG + BEAM_T / 2 + s.crateSide / 2;
  const a = (deg * Math.PI) / 180;
  return PIN_Y + u * Math.sin(a) + v * Math.cos(a);
}

/** The crate centre's height when the lever is level, m. */
export function crateLevelY(s: T5Scene): number {
  return beamTopY() + s.crateSide / 2;
}

/** The crate centre's resting height by the moment balance, m. */
export function balanceCrateY(s: T5Scene, fulcrum: number, cw: number): number {
  return crateCentreY(s, fulcrum, balanceAngleDeg(s, fulcrum, cw));
}

/** Where the counterweight's centre may sit with the fulcrum anywhere: from the crate's far face to the lever's far end, m. */
export function counterweightRange(s: T5Scene): [number, number] {
  return [s.crateSide + CW_SIDE / 2 + 0.002, s.leverLength - CW_SIDE / 2];
}

/** Where the fulcrum may stand, m from the load end: under the bare beam, clear of the crate and the far end. */
export function fulcrumRange(s: T5Scene): [number, number] {
  return [Math.max(FULCRUM_END_GAP, s.crateSide + HANGER_WIDTH / 2 + 0.01), s.leverLength - FULCRUM_END_GAP];
}

/**
 * The counterweight position (m from the load end) that rests the crate's centre at `y` with the
 * fulcrum at `fulcrum`, by the moment balance (Σ m u is linear in it); null when the angle is
 * within {@link STOP_MARGIN_DEG} of a stop or the position is off the lever.
 */
export function counterweightFor(s: T5Scene, fulcrum: number, y: number): number | null {
  // The angle that puts the crate's centre at y (monotone on the stops' range: bisection).
  let lo = -(LIMIT_DEG - STOP_MARGIN_DEG);
  let hi = LIMIT_DEG - STOP_MARGIN_DEG;
  const f = (d: number): number => crateCentreY(s, fulcrum, d) - y;
  if (Math.sign(f(lo)) === Math.sign(f(hi))) return null;
  for (let i = 0; i < 80; i++) {
    const mid = (lo + hi) / 2;
    if (Math.sign(f(mid)) === Math.sign(f(lo))) lo = mid;
    else hi = mid;
  }
  const deg = (lo + hi) / 2;
  const t = Math.tan((deg * Math.PI) / 180);
  const parts = leverParts(s, fulcrum, fulcrum);
  let su = 0;
  let sv = 0;
  for (const p of parts) {
    su += p.mass * p.u;
    sv += p.mass * p.v;
  }
  const mc = CW_DENSITY * CW_SIDE ** 3;
  // t · sv = su (with the counterweight at the pin) + mc (cw − fulcrum).
  const cw = fulcrum + (t * sv - su) / mc;
  const r = counterweightRange(s);
  return cw >= r[0] && cw <= r[1] ? cw : null;
}

/**
 * The heights (m) at which the crate's centre can rest by the moment balance with the fulcrum on
 * a 1 cm grid and the counterweight anywhere on the lever, at least {@link STOP_MARGIN_DEG} from
 * the stops: the lowest and the highest.
 */
export function reachableCrateY(s: T5Scene): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  const fr = fulcrumRange(s);
  const cr = counterweightRange(s);
  const free = LIMIT_DEG - STOP_MARGIN_DEG;
  for (let f = Math.ceil(fr[0] * 100) / 100; f <= fr[1] + 1e-9; f += 0.01) {
    for (const c of [cr[0], cr[1]]) {
      const deg = Math.max(-free, Math.min(free, balanceAngleDeg(s, f, c)));
      const y = crateCentreY(s, f, deg);
      lo = Math.min(lo, y);
      hi = Math.max(hi, y);
    }
  }
  return [lo, hi];
}

/** The middle of the target band, m. */
export function bandMiddle(s: T5Scene): number {
  return (s.bandLow + s.bandHigh) / 2;
}

/** Round a number for text (never a seed-varying one in what an agent reads). */
export function fmt(x: number, digits = 3): string {
  return Number(x.toFixed(digits)).toString();
}
