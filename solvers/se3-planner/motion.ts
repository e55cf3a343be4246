/**
 * How a held part moves under the metric manipulation tools, as pure pose arithmetic shared by
 * the planner (which turns a path into calls and checks each call's swept legs) and by the
 * families' tool handlers (which run the same legs through `World.moveSwept`). One definition
 * on both sides is what makes a planned script replay through the episode loop exactly.
 *
 * The tools:
 * - `translate {dx_m, dy_m, dz_m}`: a straight move by a vector given in the working frame.
 * - `rotate {axis, angle_deg}`: a turn about an axis through the part's origin (its grip
 *   centre). `axis` is `x`, `y`, `z` or a direction `[ax, ay, az]`, in the working frame
 *   (`rotationFrame: 'world'`) or in the part's own tool frame (`rotationFrame: 'tool'`).
 * - `move {dx_m, dy_m, dz_m, axis, angle_deg}` (only when `combined`): both at once at constant
 *   rates — the world's swept path, linear in position and slerp in rotation.
 *
 * A turn of more than 90° runs as two halves, so its swept path never takes the other way round
 * (slerp follows the shorter arc). The halves together sweep exactly the one turn.
 */
import { SpaceActError } from '../../core/errors.ts';
import { qaxisAngle, qconj, qmul, qnormalize, qrotate, vadd, vlen, vscale } from '../../sim/math.ts';
import type { Pose, Quat, Vec3 } from '../../sim/types.ts';

/** A tool call as the episode loop receives it (the same shape as the task layer's `ToolCall`). */
export interface PlannedCall {
  tool: string;
  args: Record<string, unknown>;
}

/** An axis argument: a named axis of the frame, or a direction in it. */
export type AxisArg = 'x' | 'y' | 'z' | [number, number, number];

/** How a held part is moved: tool names, frames and limits. */
export interface HeldPartMotion {
  /** Tool names (defaults `translate`, `rotate`, `move`). */
  tools?: { translate?: string; rotate?: string; move?: string };
  /** Orientation of the working frame in the world (identity when omitted). */
  frame?: Quat;
  /** Whose axes `rotate`/`move` turn about: the working frame's (default) or the part's own. */
  rotationFrame?: 'world' | 'tool';
  /** Plan with the combined `move` tool (one call per path edge) instead of rotate-then-translate. */
  combined?: boolean;
  /** Largest |component| of one translation, metres (default 0.5). Longer moves become several calls. */
  maxTranslate?: number;
}

/** Largest turn of one call, degrees (the tools' schema bound). */
export const MAX_TURN_DEG = 180;
/** Turns above this many degrees run as two halves. */
export const HALF_TURN_SPLIT_DEG = 90;

const IDENTITY: Quat = [0, 0, 0, 1];
const NAMED: Record<string, Vec3> = { x: [1, 0, 0], y: [0, 1, 0], z: [0, 0, 1] };

/** The tool names of a motion spec. */
export function toolNames(m: HeldPartMotion): { translate: string; rotate: string; move: string } {
  return { translate: m.tools?.translate ?? 'translate', rotate: m.tools?.rotate ?? 'rotate', move: m.tools?.move ?? 'move' };
}

function round(x: number, step: number): number {
  const r = Math.round(x / step) * step;
  // Trim the binary noise of the multiplication so the JSON stays short.
  return Number(r.toFixed(Math.max(0, Math.round(-Math.log10(step)))));
}

/** A unit axis from an axis argument (named, or a non-zero direction). */
export function axisVector(axis: unknown): Vec3 {
  if (typeof axis === 'string' && NAMED[axis]) return [...NAMED[axis]] as Vec3;
  if (Array.isArray(axis) && axis.length === 3 && axis.every((v) => typeof v === 'number' && Number.isFinite(v))) {
    const n = vlen(axis as Vec3);
    if (n > 1e-6) return vscale(axis as Vec3, 1 / n);
  }
  throw new SpaceActError('invalid-argument', `axis must be "x", "y", "z" or a non-zero direction [ax, ay, az], got ${JSON.stringify(axis)}`, { axis });
}

function finiteArg(args: Record<string, unknown>, key: string, max: number, tool: string): number {
  const v = args[key] ?? 0;
  if (typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) > max) {
    throw new SpaceActError('invalid-argument', `${tool}: ${key} must be a number within ±${max}`, { args });
  }
  return v;
}

/** The pose after turning `pose` by `deg` about `axis` (working or tool frame), origin fixed. */
function turn(m: HeldPartMotion, q: Quat, axis: Vec3, deg: number): Quat {
  const rad = (deg * Math.PI) / 180;
  if (m.rotationFrame === 'tool') return qnormalize(qmul(q, qaxisAngle(axis, rad)));
  const world = qrotate(m.frame ?? IDENTITY, axis);
  return qnormalize(qmul(qaxisAngle(world, rad), q));
}

/**
 * The swept legs of one call from `from`: the poses `World.moveSwept` is asked to reach, in
 * order (a turn over 90° is two legs). Throws `invalid-argument` for a call this model cannot
 * run (unknown tool, bad numbers).
 */
export function callLegs(m: HeldPartMotion, from: Pose, call: PlannedCall): Pose[] {
  const names = toolNames(m);
  const args = call.args ?? {};
  // No closures here: adaptive agents call this for thousands of candidates a turn.
  if (call.tool === names.translate) return [{ p: vadd(from.p, callShift(m, args, call.tool)), q: [...from.q] }];
  if (call.tool === names.rotate || (m.combined && call.tool === names.move)) {
    const d = call.tool === names.rotate ? ([0, 0, 0] as Vec3) : callShift(m, args, call.tool);
    const deg = finiteArg(args, 'angle_deg', MAX_TURN_DEG, call.tool);
    const axis = deg === 0 ? ([1, 0, 0] as Vec3) : axisVector(args.axis);
    const parts = Math.abs(deg) > HALF_TURN_SPLIT_DEG ? 2 : 1;
    const legs: Pose[] = [];
    for (let k = 1; k <= parts; k++) legs.push({ p: vadd(from.p, vscale(d, k / parts)), q: turn(m, from.q, axis, (deg * k) / parts) });
    return legs;
  }
  throw new SpaceActError('invalid-argument', `the held-part motion has no tool "${call.tool}"`, { tool: call.tool });
}

/** A call's translation (`dx_m`, `dy_m`, `dz_m` in the working frame), in world axes. */
function callShift(m: HeldPartMotion, args: Record<string, unknown>, tool: string): Vec3 {
  const maxT = m.maxTranslate ?? 0.5;
  return qrotate(m.frame ?? IDENTITY, [finiteArg(args, 'dx_m', maxT, tool), finiteArg(args, 'dy_m', maxT, tool), finiteArg(args, 'dz_m', maxT, tool)]);
}

/** Rotation from `a` to `b` as (unit axis in the rotation frame, degrees in [0, 180]), or null if equal. */
function relativeTurn(m: HeldPartMotion, a: Quat, b: Quat): { axis: Vec3; deg: number } | null {
  // World-frame turn R with R·a = b, or tool-frame turn T with a·T = b.
  let r = m.rotationFrame === 'tool' ? qmul(qconj(a), b) : qmul(b, qconj(a));
  if (r[3] < 0) r = [-r[0], -r[1], -r[2], -r[3]];
  const s = Math.hypot(r[0], r[1], r[2]);
  if (s < 1e-12) return null;
  const rad = 2 * Math.atan2(s, r[3]);
  let axis: Vec3 = [r[0] / s, r[1] / s, r[2] / s];
  if (m.rotationFrame !== 'tool') axis = qrotate(qconj(m.frame ?? IDENTITY), axis);
  return { axis, deg: (rad * 180) / Math.PI };
}

/** Options of {@link callsBetween}. */
export interface CallRounding {
  /** Round arguments for the script (metres to 1 µm, degrees to 1e-4°, axis components to 1e-6). Default false. */
  round?: boolean;
}

/**
 * The calls that take the part from `from` to `to`: a turn (if the orientations differ) then a
 * translation (split where it exceeds the per-call limit), or one combined `move` per
 * translation chunk when the model is `combined`. With `round`, arguments are rounded for a
 * readable script and the calls reach `to` only to within that rounding.
 */
export function callsBetween(m: HeldPartMotion, from: Pose, to: Pose, opts: CallRounding = {}): PlannedCall[] {
  const names = toolNames(m);
  const maxT = m.maxTranslate ?? 0.5;
  const world = [to.p[0] - from.p[0], to.p[1] - from.p[1], to.p[2] - from.p[2]] as Vec3;
  const local = qrotate(qconj(m.frame ?? IDENTITY), world);
  const chunks = Math.max(1, Math.ceil((Math.max(...local.map(Math.abs)) / maxT) * (1 + 1e-9)));
  const r = (x: number, step: number): number => (opts.round ? round(x, step) : x);
  const axisArg = (a: Vec3): AxisArg => {
    for (const [name, v] of Object.entries(NAMED)) if (Math.abs(a[0] - v[0]) < 1e-12 && Math.abs(a[1] - v[1]) < 1e-12 && Math.abs(a[2] - v[2]) < 1e-12) return name as AxisArg;
    return [r(a[0], 1e-6), r(a[1], 1e-6), r(a[2], 1e-6)];
  };
  const shift = (k: number): Record<string, number> => ({ dx_m: r(local[0] / k, 1e-6), dy_m: r(local[1] / k, 1e-6), dz_m: r(local[2] / k, 1e-6) });
  const moved = Math.hypot(...local) > 0;
  const t = relativeTurn(m, from.q, to.q);
  const calls: PlannedCall[] = [];
  if (m.combined) {
    if (t && chunks > 1) {
      // A turn with a long move: turn during the first chunk, translate the rest.
      calls.push({ tool: names.move, args: { ...shift(chunks), axis: axisArg(t.axis), angle_deg: r(t.deg, 1e-4) } });
      for (let k = 1; k < chunks; k++) calls.push({ tool: names.translate, args: shift(chunks) });
    } else if (t) {
      calls.push(moved ? { tool: names.move, args: { ...shift(1), axis: axisArg(t.axis), angle_deg: r(t.deg, 1e-4) } } : { tool: names.rotate, args: { axis: axisArg(t.axis), angle_deg: r(t.deg, 1e-4) } });
    } else if (moved) {
      for (let k = 0; k < chunks; k++) calls.push({ tool: names.translate, args: shift(chunks) });
    }
    return calls;
  }
  if (t) calls.push({ tool: names.rotate, args: { axis: axisArg(t.axis), angle_deg: r(t.deg, 1e-4) } });
  if (moved) for (let k = 0; k < chunks; k++) calls.push({ tool: names.translate, args: shift(chunks) });
  return calls;
}

/** The swept legs from `a` to `b` under the model (unrounded calls; the last leg ends at `b`). */
export function edgeLegs(m: HeldPartMotion, a: Pose, b: Pose): Pose[] {
  const legs: Pose[] = [];
  let at = a;
  for (const call of callsBetween(m, a, b)) {
    for (const leg of callLegs(m, at, call)) {
      legs.push(leg);
      at = leg;
    }
  }
  if (legs.length) legs[legs.length - 1] = { p: [...b.p], q: [...b.q] };
  return legs;
}
