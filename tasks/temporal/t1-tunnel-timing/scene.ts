/**
 * T1 scene parameters, the tier table and the analytic motion model.
 *
 * Everything here is plain arithmetic (no physics), so the generator stays a pure, synchronous
 * function of (seed, tier). The analytic model (a rolling solid sphere: constant speed on the
 * level, `a = 5/7 · g · sin θ` on a slope) is used to lay instances out with margins and to
 * word the plan; the phase windows themselves are measured in the physics world by
 * `solver.ts`.
 */
import type { LeverTable } from '../../levers.ts';
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
export const PIT_LENGTH = 0.14;
/** Depth of the pit floor below the track's end, metres. */
export const PIT_DEPTH = 0.07;
/** Lateral offset of the decoy track (behind the main one, seen from the first view), metres. */
export const DECOY_Z = -0.13;
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
  /** Where that section ends and the track is level again (a little before the entrance gate), or null. */
  slopeToX: number | null;
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
  /**
   * Rolling speed of the red ball where it meets the gates, m/s. On a level track (L1–L5) it
   * rolls at this speed all the way; at L7 it starts slower and reaches it on the hidden slope.
   */
  speed: [number, number];
  /**
   * Seconds from the first observation until the ball's front reaches the entrance gate's face
   * (the true arrival, slope included), drawn uniformly. The range is what defeats a fixed
   * schedule: it is at least 16 times the widest window of the tier, so no firing time lies
   * in more than about one window in sixteen.
   */
  arrival: [number, number];
  /** Seconds a gate stays fully open. */
  openS: number;
  gates: 1 | 2;
  /** Tunnel length range, metres. */
  tunnel: [number, number];
  decoy: boolean;
  /** L7: how much faster the ball meets the gates than it started (the hidden slope's effect), or null. */
  speedUp: [number, number] | null;
}

/**
 * Tier table. The ball is slow (about 4–5 cm per 0.25 s frame, a good step to read against
 * 1 cm ticks) so that a wide spread of arrival times fits on a track short enough to fill a
 * picture. Windows narrow from L1 to L5 (a shorter open time against a ball that needs about
 * 0.06 m / speed to pass under the gate); L7 has L5's open time and a slower ball at the gates,
 * so its windows are no wider than L5's.
 */
export const TIER_PARAMS: Record<Tier, TierParams> = {
  L1: { speed: [0.15, 0.19], arrival: [1.0, 5.8], openS: 0.46, gates: 1, tunnel: [0.2, 0.2], decoy: false, speedUp: null },
  L3: { speed: [0.16, 0.2], arrival: [1.0, 5.2], openS: 0.4, gates: 1, tunnel: [0.2, 0.28], decoy: true, speedUp: null },
  L5: { speed: [0.17, 0.21], arrival: [1.0, 4.4], openS: 0.35, gates: 2, tunnel: [0.2, 0.3], decoy: true, speedUp: null },
  L7: { speed: [0.17, 0.205], arrival: [1.6, 5.0], openS: 0.35, gates: 2, tunnel: [0.2, 0.3], decoy: true, speedUp: [1.22, 1.35] },
};

/**
 * The levers T1 supports as single-factor studies over L5 (`T1-L5+change-s100`,
 * tasks/levers.ts): `+change`, the paper's undisclosed change, is its L7's hidden slope (the
 * tier table names it `+hidden-slope`), with the L7 ball speeds and arrival times the slope
 * needs to fit the track and keep the windows no wider than L5's.
 */
export const T1_LEVERS: LeverTable<TierParams> = {
  '+change': {
    description: 'L5 plus an undisclosed hidden slope: just past where the first strobe leaves the ball the track runs very gently downhill and levels out before the entrance, so the ball meets the gates 22–35 % faster than it started; timing from the first strobe alone fails.',
    apply: (s) => ({ ...s, speed: TIER_PARAMS.L7.speed, arrival: TIER_PARAMS.L7.arrival, speedUp: TIER_PARAMS.L7.speedUp }),
  },
};

/** Height of the main track's floor surface at `x` (0 on the first level part; lower past the downhill section). */
export function floorY(s: T1Scene, x: number): number {
  if (s.kinkX === null || x <= s.kinkX) return 0;
  const to = Math.min(x, s.slopeToX ?? Infinity);
  return -(to - s.kinkX) * Math.tan((s.slopeDeg * Math.PI) / 180);
}

/**
 * Ball motion under the analytic model: time (world seconds) its centre reaches x, and its
 * speed there. Level: constant speed; downhill: a = 5/7 · g · sin θ; level again: the speed
 * it reached.
 */
export function analyticArrival(s: T1Scene, x: number): { t: number; v: number } {
  const v0 = s.speed;
  if (s.kinkX === null || x <= s.kinkX) return { t: (x - s.startX) / v0, v: v0 };
  const th = (s.slopeDeg * Math.PI) / 180;
  const tk = (s.kinkX - s.startX) / v0;
  const a = (5 / 7) * G * Math.sin(th);
  const to = Math.min(x, s.slopeToX ?? Infinity);
  const d = (to - s.kinkX) / Math.cos(th);
  const v = Math.sqrt(v0 * v0 + 2 * a * d);
  const onSlope = a > 0 ? (v - v0) / a : d / v0;
  return { t: tk + onSlope + (x - to) / v, v };
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
  return analyticWindow({ ...s, kinkX: null, slopeToX: null, slopeDeg: 0 }, gate);
}
