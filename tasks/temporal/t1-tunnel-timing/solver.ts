/**
 * The T1 phase-window solver.
 *
 * 1. **Free run.** A fresh physics world is built from the instance exactly as an episode
 *    builds it, with every gate held fully raised, and run through the environment's 1 s
 *    pre-roll and on until the ball lies in the pit. The ball's centre is recorded after every
 *    step. A gate the ball never touches does not change its path, so this is the path of every
 *    successful episode.
 * 2. **Scan.** Gates can only be fired at step boundaries (world time is a whole number of
 *    1/240 s steps), so every possible firing step is tested — the finest grid there is. For a
 *    firing step the gate's programmed lift is replayed against the recorded path, step by step,
 *    with the same contact rule the episode applies (ball within 0.2 mm of the slab = touch).
 *    The steps with no touch form the gate's phase window; it must be one run of steps, must
 *    not contain step 0 (firing at once) and must be neither empty nor trivially wide.
 * 3. **Confirmation.** In fresh worlds with the real gate mechanism: firing every gate at the
 *    middle of its window solves the task; firing the entrance gate at once, or any gate three
 *    steps before or after its window (the others at their middles), fails.
 */
import { SpaceActError } from '../../../core/errors.ts';
import type { Vec3 } from '../../../sim/types.ts';
import { World } from '../../../sim/world.ts';
import type { Instance, ReferenceSolution } from '../../types.ts';
import { BALL_RADIUS, fmt, GATE_LIFT, GATE_THICKNESS, gateLift, PREROLL_S, type GateName, type T1Scene } from './scene.ts';
import { BALL, ballInPit, buildTrack, GATE_HALF, gateClosedPose, installGateMechanism, placeGate, t1State, TOUCH_TOLERANCE } from './track.ts';
import { roundTo } from '../../../core/determinism.ts';

/** World options every T1 world uses. */
export const T1_WORLD_OPTIONS = { timestep: 1 / 240 } as const;
const DT = T1_WORLD_OPTIONS.timestep;
/** Longest free run, seconds after the first observation. */
const MAX_RUN_S = 12;
/** Extra time the reference waits after the ball first lies in the pit, seconds. */
const SETTLE_MARGIN_S = 0.3;
/** Steps outside a window used to confirm that its edges are real. */
const EDGE_PROBE_STEPS = 3;

/** One gate's phase window, in steps (and seconds) after the first observation. */
export interface PhaseWindow {
  gate: GateName;
  /** First and last firing step (after the first observation) that let the ball pass. */
  loStep: number;
  hiStep: number;
  /** The middle step, used by the reference. */
  midStep: number;
  lo: number;
  hi: number;
  width: number;
}

/** The solver's answer for one instance. */
export interface T1Solution {
  windows: PhaseWindow[];
  /** Steps after the first observation at which the ball first lies in the pit (free run). */
  pitStep: number;
  /** Steps from the last firing to the end of the reference's final wait. */
  finalWaitSteps: number;
  /** What the confirmation runs showed, in words. */
  confirmation: string;
}

async function freshWorld(scene: T1Scene): Promise<World> {
  const world = await World.create(T1_WORLD_OPTIONS);
  buildTrack(world, scene);
  installGateMechanism(world, scene);
  return world;
}

/** Records the ball centre after every step from the first observation on, gates held up. */
async function freeRun(scene: T1Scene): Promise<{ path: Vec3[]; pitStep: number }> {
  const world = await freshWorld(scene);
  try {
    for (const g of scene.gates) {
      t1State(world).gates[g.name].jammedAt = GATE_LIFT;
      placeGate(world, scene, g.name, GATE_LIFT);
    }
    world.advance(PREROLL_S);
    const path: Vec3[] = [world.getPose(BALL).p];
    let pitStep = -1;
    const maxSteps = Math.round(MAX_RUN_S / DT);
    for (let n = 1; n <= maxSteps; n++) {
      world.advance(DT);
      const p = world.getPose(BALL).p;
      path.push(p);
      if (pitStep < 0 && ballInPit(scene, p)) pitStep = n;
      if (pitStep >= 0 && n >= pitStep + Math.round(SETTLE_MARGIN_S / DT)) break;
    }
    if (pitStep < 0) throw new SpaceActError('invalid-instance', `the ball does not reach the pit within ${MAX_RUN_S} s even with every gate raised`);
    return { path, pitStep };
  } finally {
    world.free();
  }
}

/** Distance from a ball centre to a gate slab lifted by `lift`, minus the radius. */
function gap(scene: T1Scene, gateX: number, lift: number, c: Vec3): number {
  const closed = gateClosedPose(scene, gateX).p;
  const centre: Vec3 = [closed[0], closed[1] + lift, closed[2]];
  let d2 = 0;
  for (let i = 0; i < 3; i++) {
    const d = Math.abs(c[i] - centre[i]) - GATE_HALF[i];
    if (d > 0) d2 += d * d;
  }
  return Math.sqrt(d2) - BALL_RADIUS;
}

/** Whether firing the gate `fire` steps after the first observation lets the recorded ball pass untouched. */
function passes(scene: T1Scene, gateX: number, path: Vec3[], near: number[], fire: number): boolean {
  for (const n of near) {
    // The episode places the gate after each step from the clock: lift at (n − fire) steps.
    const lift = gateLift((n - fire) * DT + 1e-9, scene.openS);
    if (gap(scene, gateX, lift, path[n]) <= TOUCH_TOLERANCE) return false;
  }
  return true;
}

/** Scans every firing step for each gate and returns its window (one run of steps). */
function scanWindows(scene: T1Scene, path: Vec3[]): PhaseWindow[] {
  return scene.gates.map((g) => {
    const near: number[] = [];
    path.forEach((p, n) => {
      if (Math.abs(p[0] - g.x) < BALL_RADIUS + GATE_THICKNESS / 2 + 0.005) near.push(n);
    });
    if (!near.length) throw new SpaceActError('invalid-instance', `the ball never reaches the ${g.name} gate`);
    const good: number[] = [];
    for (let fire = 0; fire <= near[near.length - 1]; fire++) if (passes(scene, g.x, path, near, fire)) good.push(fire);
    if (!good.length) throw new SpaceActError('invalid-instance', `no firing time lets the ball pass the ${g.name} gate`);
    const lo = good[0];
    const hi = good[good.length - 1];
    if (hi - lo + 1 !== good.length) throw new SpaceActError('invalid-instance', `the ${g.name} gate's window is not one interval`);
    return {
      gate: g.name,
      loStep: lo,
      hiStep: hi,
      midStep: Math.round((lo + hi) / 2),
      lo: lo * DT,
      hi: hi * DT,
      width: (hi - lo) * DT,
    };
  });
}

/** Plays firing steps (after the first observation, in gate order) in a fresh world with the real mechanism. */
async function play(scene: T1Scene, fires: Array<{ gate: GateName; step: number }>, endStep: number): Promise<{ solved: boolean; failed: boolean }> {
  const world = await freshWorld(scene);
  try {
    world.advance(PREROLL_S);
    let at = 0;
    for (const f of [...fires].sort((a, b) => a.step - b.step)) {
      world.advance((f.step - at) * DT);
      at = f.step;
      t1State(world).gates[f.gate].firedAt = world.time;
    }
    world.advance(Math.max(0, endStep - at) * DT);
    const failed = t1State(world).failure !== null;
    return { solved: !failed && ballInPit(scene, world.getPose(BALL).p), failed };
  } finally {
    world.free();
  }
}

/**
 * Finds and confirms every gate's phase window. Throws `invalid-instance` when the instance
 * breaks a requirement (no window, firing at once works, a window edge does not hold).
 */
export async function solveT1(instance: Instance<T1Scene>): Promise<T1Solution> {
  const scene = instance.scene;
  const { path, pitStep } = await freeRun(scene);
  const windows = scanWindows(scene, path);
  const endStep = pitStep + Math.round(SETTLE_MARGIN_S / DT);
  const mids = windows.map((w) => ({ gate: w.gate, step: w.midStep }));
  const last = Math.max(...mids.map((m) => m.step));
  if (endStep <= last) throw new SpaceActError('invalid-instance', 'the ball reaches the pit before the last gate is fired');
  const ref = await play(scene, mids, endStep);
  if (!ref.solved) throw new SpaceActError('invalid-instance', `${instance.id}: firing every gate at the middle of its window does not solve the task`);
  const checks: string[] = ['firing each gate at the middle of its window solves it'];
  const mustFail = async (label: string, fires: Array<{ gate: GateName; step: number }>): Promise<void> => {
    const r = await play(scene, fires, endStep);
    if (r.solved) throw new SpaceActError('invalid-instance', `${instance.id}: ${label} also solves the task`);
    checks.push(`${label} fails`);
  };
  await mustFail('firing the entrance gate at once', mids.map((m) => (m.gate === 'entrance' ? { ...m, step: 0 } : m)));
  for (const w of windows) {
    if (w.loStep === 0) throw new SpaceActError('invalid-instance', `${instance.id}: the ${w.gate} gate's window includes firing at once`);
    await mustFail(`firing the ${w.gate} gate ${EDGE_PROBE_STEPS} steps early`, mids.map((m) => (m.gate === w.gate ? { ...m, step: w.loStep - EDGE_PROBE_STEPS } : m)));
    await mustFail(`firing the ${w.gate} gate ${EDGE_PROBE_STEPS} steps late`, mids.map((m) => (m.gate === w.gate ? { ...m, step: w.hiStep + EDGE_PROBE_STEPS } : m)));
  }
  return { windows, pitStep, finalWaitSteps: endStep - last, confirmation: checks.join('; ') };
}

/** Seconds of a step count, as a tidy decimal a wait call can carry (it rounds back to the same steps). */
export function stepsToSeconds(steps: number): number {
  return roundTo(steps * DT, 6);
}

/** The reference: fire each gate in the middle of its phase window, then wait for the ball to pass. */
export async function reference(instance: Instance<T1Scene>): Promise<ReferenceSolution> {
  const sol = await solveT1(instance);
  const calls: ReferenceSolution['calls'] = [];
  let at = 0;
  for (const w of [...sol.windows].sort((a, b) => a.midStep - b.midStep)) {
    calls.push({ tool: 'wait', args: { seconds: stepsToSeconds(w.midStep - at) } });
    calls.push({ tool: 'open_gate', args: instance.scene.gates.length === 2 ? { gate: w.gate } : {} });
    at = w.midStep;
  }
  calls.push({ tool: 'wait', args: { seconds: stepsToSeconds(sol.finalWaitSteps) } });
  const windows = sol.windows.map((w) => `${w.gate} ${fmt(w.lo, 3)}–${fmt(w.hi, 3)} s (${fmt(w.width * 1000, 0)} ms wide)`).join(', ');
  return {
    calls,
    method: `phase-window solver: every firing step (1/240 s grid) replayed against the recorded physical path; windows after the first observation: ${windows}; confirmed in fresh physics worlds: ${sol.confirmation}`,
  };
}
