/**
 * T1 shortcut filters and its sightless strategy: firing at once must not work, the windows
 * must be narrow enough for timing to matter, the hidden slope (L7) must defeat timing from the
 * first strobe alone, and the decoy ball must move at a clearly different speed; and the
 * strongest fixed firing schedule (fitted on the solver's windows of other seeds) must fail.
 * See README.md for the shortcuts considered.
 */
import type { SightlessStrategy } from '../../sightless.ts';
import type { Instance, InstanceFilter, ToolCall } from '../../types.ts';
import { phaseWindows } from './solver.ts';
import { analyticArrival, analyticWindow, BALL_RADIUS, fmt, GATE_THICKNESS, naiveWindow, WAIT_MIN_S, type GateName, type T1Scene } from './scene.ts';

/** Narrowest analytic window an instance may have, seconds (the measured one is about 50 ms wider). */
const MIN_WINDOW_S = 0.05;
/** Widest analytic window, seconds: wider, and timing would hardly matter. */
const MAX_WINDOW_S = 0.4;

/** Cheap static checks every instance must pass (the generator re-draws until they hold; verify reports them). */
export const SHORTCUT_FILTERS: InstanceFilter<T1Scene>[] = [
  {
    name: 'no-open-at-once',
    check(i) {
      const w = analyticWindow(i.scene, i.scene.gates[0]);
      return w.lo < 0.5 ? `firing the entrance gate ${fmt(w.lo)} s after the first observation is already inside its window` : null;
    },
  },
  {
    name: 'window-width',
    check(i) {
      for (const g of i.scene.gates) {
        const w = analyticWindow(i.scene, g);
        // The analytic window is about 50 ms narrower than the one the solver measures.
        if (w.hi - w.lo < MIN_WINDOW_S) return `the ${g.name} gate's window is only ${fmt(w.hi - w.lo, 3)} s wide`;
        if (w.hi - w.lo > MAX_WINDOW_S) return `the ${g.name} gate's window is ${fmt(w.hi - w.lo, 3)} s wide: timing would not matter`;
      }
      return null;
    },
  },
  {
    name: 'hidden-change-bites',
    check(i) {
      if (i.scene.kinkX === null) return null;
      // Firing at the middle of the windows a constant-speed reading gives must fail some gate.
      const bites = i.scene.gates.some((g) => {
        const naive = naiveWindow(i.scene, g);
        const mid = (naive.lo + naive.hi) / 2;
        const w = analyticWindow(i.scene, g);
        return mid < w.lo - 0.03 || mid > w.hi + 0.03;
      });
      return bites ? null : 'timing from the first strobe alone would still pass every gate';
    },
  },
  {
    name: 'decoy-distinct',
    check(i) {
      const d = i.scene.decoy;
      if (!d) return null;
      // Against the red ball's speed in the first pictures and where it meets the gates (L7).
      const s = i.scene;
      const atGate = analyticArrival(s, s.gates[0].x - GATE_THICKNESS / 2 - BALL_RADIUS).v;
      for (const v of [s.speed, atGate]) {
        const r = d.speed / v;
        if (Math.abs(r - 1) < 0.2) return `the decoy ball's speed is within 20 % of the real one's (${fmt(r)}×)`;
      }
      return null;
    },
  },
];

/** Training seeds per tier the fixed schedule is fitted on. */
const SCHEDULE_TRAINING = 60;
/** Steps per second of the T1 world (firing times fall on this grid). */
const STEPS_PER_S = 240;
/** Steps of the shortest wait. */
const MIN_WAIT_STEPS = Math.ceil(WAIT_MIN_S * STEPS_PER_S);

/** After the last firing the schedule waits this long, this many times (10 s in all: the ball is in the pit long before). */
const FINAL_WAIT_S = 2.5;
const FINAL_WAITS = 4;

/** A firing schedule: for each gate, in firing order, the step after the first picture at which to fire it. */
export interface FixedSchedule {
  fires: Array<{ gate: GateName; step: number }>;
  /** Training instances it would have solved, of how many. */
  hits: number;
  of: number;
}

/** Steps after the first picture during which each gate's window is open, `[lo, hi]`, per instance. */
type Windows = Array<Array<[number, number]>>;

/**
 * How many of `rows` have `t` inside their window of column `g`, for every step t in 0..last
 * (a difference array over the windows).
 */
function cover(windows: Windows, rows: number[], g: number, last: number): Int32Array {
  const diff = new Int32Array(last + 2);
  for (const i of rows) {
    const [lo, hi] = windows[i][g];
    diff[Math.min(lo, last + 1)]++;
    diff[Math.min(hi + 1, last + 1)]--;
  }
  const counts = new Int32Array(last + 1);
  let run = 0;
  for (let t = 0; t <= last; t++) counts[t] = run += diff[t];
  return counts;
}

/** The step with the highest count, in the middle of the longest run of it (the firing time farthest from the edges of what worked). */
function bestStep(counts: Int32Array): { step: number; count: number } {
  let best = -1;
  for (const c of counts) best = Math.max(best, c);
  let run: [number, number] | null = null;
  for (let t = 0; t < counts.length; ) {
    if (counts[t] !== best) {
      t++;
      continue;
    }
    let end = t;
    while (end + 1 < counts.length && counts[end + 1] === best) end++;
    if (!run || end - t > run[1] - run[0]) run = [t, end];
    t = end + 1;
  }
  return { step: Math.floor((run![0] + run![1]) / 2), count: best };
}

/**
 * The fixed schedule that hits the most of `windows` (one row per training instance, one
 * column per gate in the order the ball meets them): for one gate the step inside most
 * windows; for two, every entrance step and, among the instances it hits, the exit step inside
 * most of their exit windows.
 */
export function bestSchedule(gates: GateName[], windows: Windows): FixedSchedule {
  const rows = windows.map((_, i) => i);
  const last = Math.max(...windows.flat().map((w) => w[1]));
  const entrance = cover(windows, rows, 0, last);
  if (gates.length === 1) {
    const only = bestStep(entrance);
    return { fires: [{ gate: gates[0], step: only.step }], hits: only.count, of: windows.length };
  }
  const joint = new Int32Array(last + 1);
  for (let t = 0; t <= last; t++) {
    if (entrance[t] === 0) continue;
    const hit = rows.filter((i) => windows[i][0][0] <= t && t <= windows[i][0][1]);
    joint[t] = bestStep(cover(windows, hit, 1, last)).count;
  }
  const e = bestStep(joint);
  const hit = rows.filter((i) => windows[i][0][0] <= e.step && e.step <= windows[i][0][1]);
  const x = bestStep(cover(windows, hit, 1, last));
  return {
    fires: [
      { gate: gates[0], step: e.step },
      { gate: gates[1], step: x.step },
    ].sort((a, b) => a.step - b.step),
    hits: e.count,
    of: windows.length,
  };
}

/**
 * The battery's fixed-timing adversary, at its strongest: it knows the family's phase windows
 * on other seeds exactly (measured by the solver, not guessed from reference scripts) and fires
 * each gate at the time that lies in the most of them, never looking. The tier table spreads
 * arrival times over at least sixteen window widths, so no such time lies in more than about
 * one window in sixteen (two gates: fewer still).
 */
export const bestFixedSchedule: SightlessStrategy<FixedSchedule | undefined> = {
  name: 'best-fixed-schedule',
  description: "fires each gate at the one time after the first picture that lies in the most phase windows of other seeds (measured by the solver), then waits",
  bound: 0.1,
  training: SCHEDULE_TRAINING,
  async fit(training) {
    if (training.length === 0) return undefined;
    const gates = (training[0].instance as Instance<T1Scene>).scene.gates.map((g) => g.name);
    const windows: Windows = [];
    for (const t of training) {
      const ws = await phaseWindows(t.instance as Instance<T1Scene>);
      windows.push(gates.map((name) => {
        const w = ws.find((x) => x.gate === name)!;
        return [w.loStep, w.hiStep] as [number, number];
      }));
    }
    return bestSchedule(gates, windows);
  },
  next(ctx, fitted) {
    if (!fitted) return null;
    const named = ctx.view.tools.some((t) => t.name === 'open_gate' && 'gate' in (((t.parameters as { properties?: object }).properties) ?? {}));
    const script: ToolCall[] = [];
    let at = 0;
    for (const f of fitted.fires) {
      // Two firings closer than the shortest wait go together.
      if (f.step - at >= MIN_WAIT_STEPS) {
        script.push({ tool: 'wait', args: { seconds: Math.round(((f.step - at) / STEPS_PER_S) * 1e6) / 1e6 } });
        at = f.step;
      }
      script.push({ tool: 'open_gate', args: named ? { gate: f.gate } : {} });
    }
    // Then let the ball run in short waits: the episode ends at the first one after which the
    // ball has touched a gate or lies in the pit, without simulating the rest.
    for (let k = 0; k < FINAL_WAITS; k++) script.push({ tool: 'wait', args: { seconds: FINAL_WAIT_S } });
    let sent = 0;
    for (const turn of ctx.history) for (const r of turn) if (r.status !== 'not-run') sent++;
    const rest = script.slice(sent, sent + ctx.actionCap);
    return rest.length ? rest : null;
  },
};

/** T1's own sightless strategies for the shortcut battery. */
export const SIGHTLESS: SightlessStrategy[] = [bestFixedSchedule as SightlessStrategy];
