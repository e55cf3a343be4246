/**
 * T1 scene parameters, the tier table and the analytic motion model.
 *
 * Everything here is plain arithmetic (no physics), so the generator stays a pure, synchronous
 * function of (seed, tier). The analytic model (a rolling solid sphere: constant speed on the
 * level, `a = 5/7 · g · sin θ` on a slope) is used to lay instances out with margins and to
 * word the plan; the phase windows themselves are measured in the physics world by
 * `solver.ts`.
 */
import type { Tier } from '../../types.ts';

/** Ball radius, metres. */
export const BALL_RADIUS = 0.02;
/** Gate slab thickness along the track, metres. */
export const GATE_THICKNESS = 0.02;
/** Gap between a closed gate's lower edge and the floor, metres. */
export const GATE_GAP = 0.0015;
/** Gate slab height, metres. */
export const GATE_HEIGHT = 0.066;
/** How far a gate lifts, metres (its lower edge then clears the ball by about 1.75 cm). */
export const GATE_LIFT = 0.056;
/** Seconds a gate takes to rise, and again to close. */
export const GATE_MOVE_S = 0.1;
/** Floor run between the last gate (or the tunnel's mouth) and the pit's edge, metres. */
export const RUNOUT = 0.1;
/** Length of the pit along the track, metres. */
export const PIT_LENGTH = 0.18;
/** Depth of the pit floor below the track's end, metres. */
export const PIT_DEPTH = 0.07;
/** Lateral offset of the decoy track (behind the main one, seen from the first view), metres. */
export const DECOY_Z = -0.2;
/** Gravity used by the analytic model, m/s² (the world's default). */
export const G = 9.81;
/** Seconds the environment runs a moving world before the first observation. */
export const PREROLL_S = 1;

/** Shortest and longest `wait`, seconds. */
export const WAIT_MIN_S = 0.05;
export const WAIT_MAX_S = 10;

/** A number as the rules and tool results write it. */
export function fmt(x: number, digits = 2): string {
  return x.toFixed(digits);
}

/** Names of the gates, in the order the ball meets them. */
export type GateName = 'entrance' | 'exit';

/** One gate: its name and the x of its centre plane. */
export interface GateSpec {
  name: GateName;
  x: number;
}

/** The second track and its ball, which the gates do not act on. */
export interface DecoySpec {
  /** Ball centre at world time 0, x. */
  startX: number;
  /** m/s along +x. */
  speed: number;
  /** Floor extent along x. */
  fromX: number;
  toX: number;
  /** Tunnel extent along x (no gates). */
  tunnelFromX: number;
  tunnelToX: number;
}

/** Everything a T1 world is built from. Positions are x along the track (the ball rolls to +x). */
export interface T1Scene {
  /** Main ball centre at world time 0, x (it rests on the floor). */
  startX: number;
  /** Initial rolling speed, m/s. */
  speed: number;
  /** Floor extent along x: the back wall stands at `fromX`, the pit begins at `toX`. */
  fromX: number;
  toX: number;
  /** Where a hidden downhill section starts (L7), or null for a level track. */
  kinkX: number | null;
  /** Slope of the downhill section, degrees (0 when level). */
  slopeDeg: number;
  /** Gates in the order the ball meets them: the entrance, and at L5+ the exit. */
  gates: GateSpec[];
  /** Seconds a gate stays fully open once raised. */
  openS: number;
  /** Tunnel extent along x (roof and walls; the ball is hidden inside). */
  tunnelFromX: number;
  tunnelToX: number;
  decoy: DecoySpec | null;
}

/** The levers of a tier. */
export interface TierParams {
  speed: [number, number];
  /** Seconds from the first observation until the ball's front would reach the entrance gate on a level track. */
  arrival: [number, number];
  openS: number;
  gates: 1 | 2;
  tunnel: [number, number];
  decoy: boolean;
  hiddenSlope: boolean;
}

/** Tier table. */
export const TIER_PARAMS: Record<Tier, TierParams> = {
  L1: { speed: [0.2, 0.3], arrival: [2.2, 3.2], openS: 0.6, gates: 1, tunnel: [0.25, 0.25], decoy: false, hiddenSlope: false },
  L3: { speed: [0.35, 0.45], arrival: [1.6, 2.4], openS: 0.4, gates: 1, tunnel: [0.25, 0.35], decoy: true, hiddenSlope: false },
  L5: { speed: [0.45, 0.6], arrival: [1.4, 2.0], openS: 0.3, gates: 2, tunnel: [0.3, 0.45], decoy: true, hiddenSlope: false },
  L7: { speed: [0.45, 0.6], arrival: [1.4, 2.0], openS: 0.3, gates: 2, tunnel: [0.3, 0.45], decoy: true, hiddenSlope: true },
};

/** Height of the main track's floor surface at `x` (0 on the level part). */
export function floorY(s: T1Scene, x: number): number {
  if (s.kinkX === null || x <= s.kinkX) return 0;
  return -(x - s.kinkX) * Math.tan((s.slopeDeg * Math.PI) / 180);
}

/** Ball motion under the analytic model: time (world seconds) its centre reaches x, and its speed there. */
export function analyticArrival(s: T1Scene, x: number): { t: number; v: number } {
  const v0 = s.speed;
  if (s.kinkX === null || x <= s.kinkX) return { t: (x - s.startX) / v0, v: v0 };
  const th = (s.slopeDeg * Math.PI) / 180;
  const tk = (s.kinkX - s.startX) / v0;
  const a = (5 / 7) * G * Math.sin(th);
  const d = (x - s.kinkX) / Math.cos(th);
  const v = Math.sqrt(v0 * v0 + 2 * a * d);
  return { t: tk + (v - v0) / a, v };
}

/** Lift of a gate (metres) `since` seconds after it was fired; 0 before and after its cycle. */
export function gateLift(since: number, openS: number): number {
  if (since <= 0) return 0;
  if (since < GATE_MOVE_S) return (GATE_LIFT * since) / GATE_MOVE_S;
  if (since <= GATE_MOVE_S + openS) return GATE_LIFT;
  const closing = since - GATE_MOVE_S - openS;
  if (closing < GATE_MOVE_S) return GATE_LIFT * (1 - closing / GATE_MOVE_S);
  return 0;
}

/**
 * Conservative analytic window of firing times for a gate, in seconds after the first
 * observation: the gate's lower edge stays above the ball's top while the ball overlaps the
 * gate's slab. The true window (measured by the solver) is a little wider.
 */
export function analyticWindow(s: T1Scene, gate: GateSpec): { lo: number; hi: number } {
  const tIn = analyticArrival(s, gate.x - GATE_THICKNESS / 2 - BALL_RADIUS).t;
  const tOut = analyticArrival(s, gate.x + GATE_THICKNESS / 2 + BALL_RADIUS).t;
  const need = (2 * BALL_RADIUS - GATE_GAP) / GATE_LIFT;
  const up = GATE_MOVE_S * need;
  const down = GATE_MOVE_S + s.openS + GATE_MOVE_S * (1 - need);
  return { lo: tOut - down - PREROLL_S, hi: tIn - up - PREROLL_S };
}

/**
 * The window a person would compute from the first strobe alone, taking the speed seen there
 * as constant (what the hidden slope at L7 defeats).
 */
export function naiveWindow(s: T1Scene, gate: GateSpec): { lo: number; hi: number } {
  return analyticWindow({ ...s, kinkX: null, slopeDeg: 0 }, gate);
}
