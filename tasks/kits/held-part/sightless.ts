/**
 * Sightless strategies for held-part tasks: what a model that reads the rules and never looks
 * at a picture could try with translate / rotate / move. The shortcut battery runs them over
 * many seeds per tier; each must stay under its bound. They are named apart from the battery's
 * shared `memorised-plan`, `straight-line` and `blind-probe`, which run as well.
 *
 * - `memorised-tier-reference`: replays the reference script of another seed of the same tier (learned
 *   from published examples), as if every instance were laid out alike.
 * - `average-displacement`: one straight move by the average net displacement the references of other
 *   seeds make (per tier), then the average net turn — "go toward where the goal usually is".
 * - `touch-walk`: random small moves and tilts (5 cm steps, 10–30° turns, swings), keeping
 *   whatever is not refused: a random walk through the free space that uses the rolled-back
 *   moves as a sense of touch.
 */
import { qaxisAngle, qmul } from '../../../sim/math.ts';
import type { Quat, Vec3 } from '../../../sim/types.ts';
import { Rng } from '../../../core/rng.ts';
import { axisVector } from '../../../solvers/se3-planner/motion.ts';
import type { SightlessContext, SightlessStrategy } from '../../sightless.ts';
import type { Tier, ToolCall, ToolSpec } from '../../types.ts';

function tool(ctx: SightlessContext, name: string): ToolSpec | undefined {
  return ctx.view.tools.find((t) => t.name === name);
}

/** The largest |component| a translate accepts (from its schema), default 0.5 m. */
function maxStep(ctx: SightlessContext): number {
  const s = tool(ctx, 'translate')?.parameters as { properties?: { dx_m?: { maximum?: number } } } | undefined;
  return s?.properties?.dx_m?.maximum ?? 0.5;
}

/** How many calls were made so far (a replayed script continues after them). */
function callsMade(ctx: SightlessContext): number {
  return ctx.history.reduce((n, turn) => n + turn.length, 0);
}

/** Replays another seed's reference script of the same tier. */
export const memorisedTierReference: SightlessStrategy<Partial<Record<Tier, ToolCall[]>>> = {
  name: 'memorised-tier-reference',
  description: "Replays the reference script of another seed of the same tier, as if every instance were laid out alike.",
  bound: 0.05,
  fit(training) {
    const out: Partial<Record<Tier, ToolCall[]>> = {};
    for (const t of training) if (!out[t.instance.tier]) out[t.instance.tier] = t.reference.calls;
    return out;
  },
  next(ctx, fitted) {
    const script = fitted?.[ctx.view.tier];
    if (!script) return null;
    const done = callsMade(ctx);
    if (done >= script.length) return null;
    return script.slice(done, done + ctx.actionCap);
  },
};

interface NetMotion {
  shift: Vec3;
  turn: Quat;
}

/** Net translation (working frame) and net world turn of a script, read from its arguments. */
function netMotion(calls: ToolCall[]): NetMotion {
  const shift: Vec3 = [0, 0, 0];
  let turn: Quat = [0, 0, 0, 1];
  for (const c of calls) {
    shift[0] += Number(c.args.dx_m ?? 0);
    shift[1] += Number(c.args.dy_m ?? 0);
    shift[2] += Number(c.args.dz_m ?? 0);
    if (c.args.angle_deg !== undefined && c.args.axis !== undefined) {
      try {
        turn = qmul(qaxisAngle(axisVector(c.args.axis), (Number(c.args.angle_deg) * Math.PI) / 180), turn);
      } catch {
        // a malformed axis in a training script is skipped
      }
    }
  }
  return { shift, turn };
}

/** One straight move by the average net displacement of other seeds' references, then their average turn. */
export const averageDisplacement: SightlessStrategy<Partial<Record<Tier, NetMotion>>> = {
  name: 'average-displacement',
  description: 'Moves straight by the average net displacement of other seeds\' references (per tier), then turns by their average net turn.',
  bound: 0.02,
  fit(training) {
    const sums: Partial<Record<Tier, { shift: Vec3; q: Quat; n: number }>> = {};
    for (const t of training) {
      const m = netMotion(t.reference.calls);
      const s = (sums[t.instance.tier] ??= { shift: [0, 0, 0], q: [0, 0, 0, 0], n: 0 });
      for (let i = 0; i < 3; i++) s.shift[i] += m.shift[i];
      // Average turns by summing quaternions in one hemisphere (fine for a rough guess).
      const sign = s.n && s.q[0] * m.turn[0] + s.q[1] * m.turn[1] + s.q[2] * m.turn[2] + s.q[3] * m.turn[3] < 0 ? -1 : 1;
      for (let i = 0; i < 4; i++) s.q[i] += sign * m.turn[i];
      s.n++;
    }
    const out: Partial<Record<Tier, NetMotion>> = {};
    for (const [tier, s] of Object.entries(sums) as Array<[Tier, { shift: Vec3; q: Quat; n: number }]>) {
      const n = Math.hypot(...s.q) || 1;
      out[tier] = { shift: s.shift.map((v) => v / s.n) as Vec3, turn: s.q.map((v) => v / n) as Quat };
    }
    return out;
  },
  next(ctx, fitted) {
    const m = fitted?.[ctx.view.tier];
    if (!m || ctx.turn > 1) return null;
    const limit = maxStep(ctx);
    const parts = Math.max(1, Math.ceil(Math.max(...m.shift.map(Math.abs)) / limit));
    const calls: ToolCall[] = [];
    for (let k = 0; k < parts; k++) calls.push({ tool: 'translate', args: { dx_m: m.shift[0] / parts, dy_m: m.shift[1] / parts, dz_m: m.shift[2] / parts } });
    const w = Math.max(-1, Math.min(1, m.turn[3]));
    const s = Math.hypot(m.turn[0], m.turn[1], m.turn[2]);
    if (s > 1e-6) {
      const deg = Math.min(180, (2 * Math.atan2(s, w) * 180) / Math.PI);
      calls.push({ tool: 'rotate', args: { axis: [m.turn[0] / s, m.turn[1] / s, m.turn[2] / s], angle_deg: deg } });
    }
    return calls.slice(0, ctx.actionCap);
  },
};

/** Random small moves and tilts, keeping what is not refused. */
export const touchWalk: SightlessStrategy = {
  name: 'touch-walk',
  description: 'Random 5 cm moves, 10–30° turns and swings, keeping whatever is not refused (a random walk that uses refusals as touch).',
  bound: 0.05,
  next(ctx) {
    const rng = new Rng(`blind-probe/${ctx.view.id}/${ctx.seed}/${ctx.turn}`);
    const axes: Array<'x' | 'y' | 'z'> = ['x', 'y', 'z'];
    const hasMove = !!tool(ctx, 'move');
    const calls: ToolCall[] = [];
    for (let k = 0; k < ctx.actionCap; k++) {
      const kind = rng.int(0, hasMove ? 2 : 1);
      const step = (rng.next() < 0.5 ? -1 : 1) * 0.05;
      const axis = rng.pick(axes);
      const angle = (rng.next() < 0.5 ? -1 : 1) * rng.range(10, 30);
      if (kind === 0) calls.push({ tool: 'translate', args: { [`d${axis}_m`]: step } });
      else if (kind === 1) calls.push({ tool: 'rotate', args: { axis: rng.pick(axes), angle_deg: angle } });
      else calls.push({ tool: 'move', args: { [`d${axis}_m`]: step, axis: rng.pick(axes), angle_deg: angle } });
    }
    return calls;
  },
};

/** The three strategies every held-part family runs. */
export const HELD_PART_SIGHTLESS: SightlessStrategy[] = [memorisedTierReference as SightlessStrategy, averageDisplacement as SightlessStrategy, touchWalk];
