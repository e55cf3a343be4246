/**
 * T6 gear train: the scene an instance carries (plain JSON, a pure function of seed and tier),
 * the tiers and the geometry the family's files share. Every field is described in README.md.
 *
 * World frame: x to the right of the first view, y up (0 at the pegboard's top), z toward the
 * first camera. Gears lie flat (axis +y); an angle about +y is right-handed (+x turns toward −z),
 * which is counter-clockwise seen from above.
 */
import type { LeverTable } from '../../levers.ts';
import type { Tier } from '../../types.ts';

/** One peg of the pegboard. */
export interface T6Peg {
  /** The letter painted beside it: `I` (input), `O` (output) or A, B, … */
  name: string;
  /** Position of its axis on the board, m. */
  x: number;
  z: number;
}

/** Parameters a T6 world is built from (plain JSON). */
export interface T6Scene {
  /** The pegs, the input `I` first and the output `O` second. */
  pegs: T6Peg[];
  /** Tooth counts of the loose gears in the tray, slot by slot (slot 0 at the front left). */
  tray: number[];
  /** The asked output rotation for one input turn, as a fraction of a turn: numerator (signed: + counter-clockwise from above) and denominator, in lowest terms. */
  target: { num: number; den: number };
  /** L7: the peg standing off the spot its route needs (the gears there do not reach each other), else null. */
  offPeg: string | null;
}

/** Module: pitch-circle radius per tooth × 2, m (a gear of z teeth has pitch radius M·z/2). */
export const MODULE = 0.005;
/** Radius of a pin (a tooth), m: the pin gear's 0.2·π·m. */
export const PIN_RADIUS = 0.2 * Math.PI * MODULE;
/** Height of the gears' mid-plane above the board's top, m. */
export const GEAR_Y = 0.02;
/** The pegboard: x from, to; z from, to, m. */
export const BOARD_X: [number, number] = [-0.36, 0.36];
export const BOARD_Z: [number, number] = [-0.22, 0.16];
/** The tray in front of the board: slots per row, pitch, first slot's centre (x, z), m. */
export const TRAY_COLUMNS = 5;
export const TRAY_PITCH = 0.15;
export const TRAY_ORIGIN: [number, number] = [-0.3, 0.25];
/** Rows of the tray. */
export const TRAY_ROWS = 2;
/** Height gears are carried at between tray and peg (above everything), m. */
export const CARRY_Y = 0.09;
/** Pegs must be at least this far apart, m. */
export const MIN_PEG_GAP = 0.045;
/** How far a peg's distance may differ from the sum of two pitch radii for those gears to mesh, m. */
export const MESH_TOL = 0.0005;
/** Two gears that do not mesh keep at least this gap between their pin circles, m. */
export const CLEARANCE = 0.004;
/** The input turns one full turn per `turn_input`, counter-clockwise from above; its top speed, °/s. */
export const TURN_SPEED = 360;
/** Half the width of the dial's mark: the output must stop within this many degrees of the asked rotation. */
export const MARK_HALF_DEG = 10;
/** Every other train a tray and pegboard allow must end at least this far (°) from the asked rotation. */
export const MIN_SEPARATION_DEG = 30;

/** What each tier draws. */
export interface TierSettings {
  /** Letters of the pegs besides I and O (their number is the same for every seed of the tier). */
  pegLetters: string;
  /** Gears in the tray. */
  trayGears: number;
  /** Range of gears in the asked train, input and output included. */
  train: [number, number];
  /** A second route of the other parity (same input and output gears, the opposite direction). */
  parityDecoy: boolean;
  /** Gears that form the same routes with a different input/output pair (a wrong ratio). */
  ratioDecoy: boolean;
  /** L7: the route that looks right has one peg off its spot; a second right route exists. */
  offPeg: boolean;
}

/** Tooth counts gears are drawn from. */
export const TEETH = [12, 14, 16, 18, 20, 22, 24, 26, 28];

/** Tier settings (see the family's descriptor for the words). */
export const TIERS: Record<Tier, TierSettings> = {
  L1: { pegLetters: 'AB', trayGears: 4, train: [2, 3], parityDecoy: false, ratioDecoy: false, offPeg: false },
  L3: { pegLetters: 'ABCD', trayGears: 6, train: [3, 4], parityDecoy: true, ratioDecoy: false, offPeg: false },
  L5: { pegLetters: 'ABCDE', trayGears: 10, train: [3, 4], parityDecoy: true, ratioDecoy: true, offPeg: false },
  L7: { pegLetters: 'ABCDEF', trayGears: 10, train: [3, 4], parityDecoy: false, ratioDecoy: true, offPeg: true },
};

/**
 * The levers T6 supports as single-factor studies over L5 (`T6-L5+change-s100`,
 * tasks/levers.ts): `+change` is its L7's undisclosed change over the L5 board — a second right
 * route, and one peg of the first a few millimetres off its spot. As at L7, the second route
 * takes the place of the parity decoy and one more peg letter (the board holds no more routes:
 * a four-gear train, its parity decoy and a second route need seven middle pegs).
 */
export const T6_LEVERS: LeverTable<TierSettings> = {
  '+change': {
    description: 'L5 with a second right route, while one peg of the first stands a few millimetres off its spot (undisclosed): its gears do not reach each other, which only a turn of the input (or a close look) shows.',
    apply: (s) => ({ ...s, offPeg: true, parityDecoy: TIERS.L7.parityDecoy, pegLetters: TIERS.L7.pegLetters }),
  },
};

/** The action budget: the reference's actions times this factor (rounded up). */
export const BUDGET_FACTOR = 2;

/** Pitch radius of a gear of `teeth` teeth, m. */
export function pitchRadius(teeth: number): number {
  return (MODULE * teeth) / 2;
}

/** Greatest common divisor. */
export function gcd(a: number, b: number): number {
  a = Math.abs(a);
  b = Math.abs(b);
  while (b) [a, b] = [b, a % b];
  return a;
}

/**
 * The exact rotation of the last gear of a simple train of `teeth` (the first on the input) for
 * one counter-clockwise input turn, in turns: (−1)^(n−1) · z_first / z_last, in lowest terms.
 */
export function trainRatio(teeth: number[]): { num: number; den: number } {
  const first = teeth[0];
  const last = teeth[teeth.length - 1];
  const sign = teeth.length % 2 === 1 ? 1 : -1;
  const g = gcd(first, last);
  return { num: (sign * first) / g, den: last / g };
}

/** The asked rotation of the output, degrees (+ counter-clockwise from above). */
export function targetDeg(s: T6Scene): number {
  return (360 * s.target.num) / s.target.den;
}

/** The peg named `name`. */
export function peg(s: T6Scene, name: string): T6Peg {
  const p = s.pegs.find((q) => q.name === name);
  if (!p) throw new RangeError(`no peg ${name}`);
  return p;
}

/** Centre of tray slot `k` (x, z), m. */
export function traySlot(k: number): [number, number] {
  const col = k % TRAY_COLUMNS;
  const row = Math.floor(k / TRAY_COLUMNS);
  return [TRAY_ORIGIN[0] + col * TRAY_PITCH, TRAY_ORIGIN[1] + row * TRAY_PITCH];
}

/** Distance between two pegs, m. */
export function pegDistance(a: T6Peg, b: T6Peg): number {
  return Math.hypot(a.x - b.x, a.z - b.z);
}

/** Whether gears of `za` and `zb` teeth on pegs `d` apart mesh (their pitch circles touch). */
export function meshes(d: number, za: number, zb: number): boolean {
  return Math.abs(d - pitchRadius(za) - pitchRadius(zb)) <= MESH_TOL;
}

/** Whether gears of `za` and `zb` teeth on pegs `d` apart stay clear of each other (pins never touch). */
export function clear(d: number, za: number, zb: number): boolean {
  return d >= pitchRadius(za) + pitchRadius(zb) + 2 * PIN_RADIUS + CLEARANCE;
}

/**
 * Whether gears of `za` and `zb` teeth on pegs `d` apart drive each other in the engine: their
 * pins reach each other (pitch circles less than two pin radii and 1 mm apart: pins 1.2 mm apart
 * still pushed each other when the train was driven by pin contacts alone, 2.2 mm apart did not).
 * Placement refuses pegs too near (the pins clash), so a driving pair turns at −z_a / z_b.
 */
export function drives(d: number, za: number, zb: number): boolean {
  return d < pitchRadius(za) + pitchRadius(zb) + 2 * PIN_RADIUS + 0.001;
}
