/**
 * The T3 phase-window solver and its certificate.
 *
 * 1. **Free run.** A world built exactly as an episode builds it (the ball held) runs through the
 *    environment's pre-roll and on; the drum's pose is recorded after every step. Until the ball
 *    touches the drum nothing changes the pendulum's motion, so this is its motion in every
 *    episode up to a strike.
 * 2. **Period certificate.** The simulated period (mean spacing of the upward zero crossings of
 *    the angle) must agree within 1 % with the exact large-amplitude period of the rigid
 *    pendulum, 4 √(L_eq / g) K(sin(θ₀/2)) with K the complete elliptic integral of the first kind
 *    and L_eq = I / (M d) from the rod's and the drum's masses.
 * 3. **Fall.** The ball's fall from the clamp is recorded once, in a world without the pendulum:
 *    a released ball falls the same way whenever it is released, until it touches the drum.
 * 4. **Scan.** Releases can only happen at step boundaries, so every release step after the first
 *    picture is tested — the finest grid there is: the recorded fall is laid against the recorded
 *    swing with the episode's own rule (the ball within {@link TOUCH_TOLERANCE} of the drum's
 *    collider, measured by the engine, before it has fallen below the drum's lowest reach). The
 *    release steps that strike form the phase windows, one per pass of the drum under the drop
 *    line.
 * 5. **Confirmation.** In fresh worlds with the real tools: releasing at the middle of the first
 *    window strikes; three steps before it (too early) and three steps after it (too late) miss.
 */
import { SpaceActError } from '../../../core/errors.ts';
import { roundTo } from '../../../core/determinism.ts';
import type { Pose } from '../../../sim/types.ts';
import { World } from '../../../sim/world.ts';
import type { Instance, ReferenceSolution } from '../../types.ts';
import { BALL, BOB, build, drumLowestY, pendulumAngle, worldOptions } from './episode.ts';
import { analyticWindows, DT, effectiveLength, exactPeriod, fmt, PREROLL_S, smallAnglePeriod, TOUCH_TOLERANCE, WAIT_RANGE, type StepWindow, type T3Scene } from './scene.ts';

/** Seconds after the first picture over which release steps are scanned. */
export const SCAN_S = 3;
/** Steps outside a window used to confirm that its edges are real. */
const EDGE_PROBE_STEPS = 3;
/** Steps of the shortest wait: a release sooner after the first picture is not in the reference. */
const MIN_WAIT_STEPS = Math.ceil(WAIT_RANGE[0] / DT);
/** Largest disagreement allowed between the simulated and the exact period. */
export const PERIOD_TOLERANCE = 0.01;

/** What the solver measured for one instance. */
export interface T3Solution {
  /** Release windows in steps after the first picture, in order. */
  windows: StepWindow[];
  /** The window the reference uses. */
  window: StepWindow;
  /** Its middle step. */
  midStep: number;
  /** Steps from the release to the strike, at the middle step. */
  strikeSteps: number;
  /** Simulated period, s, and the exact (elliptic) and small-angle ones. */
  simulatedPeriod: number;
  exactPeriod: number;
  smallAnglePeriod: number;
  /** The ideal pendulum's window (scene.ts) that overlaps the engine's, if any. */
  analytic: StepWindow | null;
  confirmation: string;
}

function sceneInstance(scene: T3Scene): Instance<T3Scene> {
  return { scene } as Instance<T3Scene>;
}

/** A world built as an episode builds it, with its tools. */
async function freshWorld(scene: T3Scene): Promise<{ world: World; tools: ReturnType<typeof build>['tools'] }> {
  const world = await World.create(worldOptions());
  const env = build(sceneInstance(scene), world);
  return { world, tools: env.tools };
}

/** The drum's pose after every step from the first picture on, and the angle after every step from world time 0. */
async function freeRun(scene: T3Scene, seconds: number): Promise<{ poses: Pose[]; angles: number[] }> {
  const { world } = await freshWorld(scene);
  try {
    const angles = [pendulumAngle(world)];
    const poses: Pose[] = [];
    const first = Math.round(PREROLL_S / DT);
    const total = first + Math.round(seconds / DT);
    for (let n = 1; n <= total; n++) {
      world.advance(DT);
      angles.push(pendulumAngle(world));
      if (n >= first) poses.push(world.getPose(BOB));
    }
    return { poses, angles };
  } finally {
    world.free();
  }
}

/** Mean spacing of the upward zero crossings of `angles` (one per step), s. */
export function measuredPeriod(angles: number[]): number {
  const crossings: number[] = [];
  for (let n = 1; n < angles.length; n++) {
    if (angles[n - 1] < 0 && angles[n] >= 0) crossings.push((n - 1 + -angles[n - 1] / (angles[n] - angles[n - 1])) * DT);
  }
  if (crossings.length < 2) throw new SpaceActError('invalid-instance', 'the pendulum does not swing through a full period');
  return (crossings[crossings.length - 1] - crossings[0]) / (crossings.length - 1);
}

/** The ball's centre after every step since its release, until it is below the drum's lowest reach (the episode's miss rule). */
async function fallPath(scene: T3Scene): Promise<Pose[]> {
  const { world, tools } = await freshWorld(scene);
  try {
    // The pendulum out of the way (the episode's strike rule still runs, on an empty stretch of floor).
    for (const j of world.jointNames()) world.removeJoint(j);
    for (const name of [BOB, 'rod']) {
      world.setKind(name, 'kinematic');
      world.setPose(name, { p: [5, 5, 5], q: [0, 0, 0, 1] });
    }
    tools.release({});
    const lowest = drumLowestY(scene) - scene.ballRadius - 0.002;
    const path: Pose[] = [world.getPose(BALL)];
    for (let k = 0; k < 2400 && path[path.length - 1].p[1] >= lowest; k++) {
      world.advance(DT);
      path.push(world.getPose(BALL));
    }
    return path;
  } finally {
    world.free();
  }
}

/**
 * The release steps (after the first picture, up to `seconds`) whose fall touches the drum, as
 * windows, and for each striking step how many steps after the release it strikes.
 */
async function scan(scene: T3Scene, seconds: number): Promise<{ windows: StepWindow[]; strikeAfter: Map<number, number>; angles: number[] }> {
  const fall = await fallPath(scene);
  const { poses, angles } = await freeRun(scene, seconds + fall.length * DT + 0.1);
  // A scratch world holding only the two bodies, posed by hand: the engine's own distance query.
  const probe = await World.create(worldOptions());
  const src = await freshWorld(scene);
  try {
    probe.addBody({ ...src.world.bodySpec(BOB), kind: 'kinematic' });
    probe.addBody({ ...src.world.bodySpec(BALL), kind: 'kinematic' });
    const reach = scene.bobRadius + scene.ballRadius + 0.01;
    const strikeAfter = new Map<number, number>();
    const last = Math.round(seconds / DT);
    const lowest = drumLowestY(scene) - scene.ballRadius - 0.002;
    for (let n = 0; n <= last; n++) {
      for (let k = 1; k < fall.length; k++) {
        const b = fall[k].p;
        const drum = poses[n + k];
        // The drum's axis point in the swing plane: the body's origin is the pivot.
        const q = drum.q;
        const th = 2 * Math.atan2(q[2], q[3]);
        const cx = drum.p[0] + scene.length * Math.sin(th);
        const cy = drum.p[1] - scene.length * Math.cos(th);
        if (Math.hypot(b[0] - cx, b[1] - cy) <= reach) {
          probe.setPose(BOB, drum);
          probe.setPose(BALL, fall[k]);
          if (probe.distance(BALL, BOB, 1) <= TOUCH_TOLERANCE) {
            strikeAfter.set(n, k);
            break;
          }
        }
        if (b[1] < lowest) break;
      }
    }
    const windows: StepWindow[] = [];
    for (let n = 0; n <= last; n++) {
      if (!strikeAfter.has(n)) continue;
      const w = windows[windows.length - 1];
      if (w && w.hi === n - 1) w.hi = n;
      else windows.push({ lo: n, hi: n });
    }
    return { windows, strikeAfter, angles };
  } finally {
    probe.free();
    src.world.free();
  }
}

/** Releases `step` steps after the first picture in a fresh world with the real tools; whether it struck, and when. */
export async function playRelease(scene: T3Scene, step: number): Promise<{ struck: boolean; missed: boolean; steps: number }> {
  const { world, tools } = await freshWorld(scene);
  try {
    world.advance(PREROLL_S + step * DT);
    tools.release({});
    const st = (): { struck: boolean; missed: boolean } => world.meta.t3 as { struck: boolean; missed: boolean };
    let k = 0;
    while (!st().struck && !st().missed && k < 2400) {
      world.advance(DT);
      k++;
    }
    return { struck: st().struck, missed: st().missed, steps: k };
  } finally {
    world.free();
  }
}

/** Windows already measured, by scene (pure results of the scene, so sharing them changes nothing). */
const windowCache = new Map<string, StepWindow[]>();

/** The engine's release windows over the first {@link SCAN_S} seconds after the first picture. */
export async function phaseWindows(instance: Instance<T3Scene>): Promise<StepWindow[]> {
  const key = JSON.stringify(instance.scene);
  let w = windowCache.get(key);
  if (!w) {
    w = (await scan(instance.scene, SCAN_S)).windows;
    windowCache.set(key, w);
    if (windowCache.size > 512) windowCache.delete(windowCache.keys().next().value!);
  }
  return structuredClone(w);
}

/**
 * Finds and certifies the windows: the period against the elliptic integral, the first window
 * (no sooner than the shortest wait) by replay, its edges by releases just outside it.
 */
export async function solveT3(instance: Instance<T3Scene>): Promise<T3Solution> {
  const s = instance.scene;
  const { windows, strikeAfter, angles } = await scan(s, SCAN_S);
  windowCache.set(JSON.stringify(s), structuredClone(windows));
  const leq = effectiveLength(s);
  const exact = exactPeriod(leq, s.amplitudeDeg);
  const simulated = measuredPeriod(angles);
  if (Math.abs(simulated / exact - 1) > PERIOD_TOLERANCE) {
    throw new SpaceActError('invalid-instance', `${instance.id}: the simulated period ${fmt(simulated, 4)} s is more than 1 % from the exact one ${fmt(exact, 4)} s`);
  }
  const window = windows.find((w) => w.lo >= MIN_WAIT_STEPS + EDGE_PROBE_STEPS);
  if (!window) throw new SpaceActError('invalid-instance', `${instance.id}: no release window within ${SCAN_S} s of the first picture`);
  const midStep = Math.round((window.lo + window.hi) / 2);
  const checks: string[] = [];
  const mid = await playRelease(s, midStep);
  if (!mid.struck) throw new SpaceActError('invalid-instance', `${instance.id}: releasing at the middle of the window does not strike the bob`);
  checks.push(`releasing ${fmt(midStep * DT)} s after the first picture strikes`);
  if ((await playRelease(s, 0)).struck) throw new SpaceActError('invalid-instance', `${instance.id}: releasing at once strikes the bob`);
  checks.push('releasing at once misses');
  for (const [label, step] of [['too early', window.lo - EDGE_PROBE_STEPS], ['too late', window.hi + EDGE_PROBE_STEPS]] as const) {
    const r = await playRelease(s, step);
    if (r.struck) throw new SpaceActError('invalid-instance', `${instance.id}: releasing ${EDGE_PROBE_STEPS} steps ${label} also strikes`);
    checks.push(`${EDGE_PROBE_STEPS} steps ${label} misses`);
  }
  const analytic = analyticWindows(s, SCAN_S).find((a) => a.lo <= window.hi && a.hi >= window.lo) ?? null;
  return {
    windows,
    window,
    midStep,
    strikeSteps: strikeAfter.get(midStep) ?? mid.steps,
    simulatedPeriod: simulated,
    exactPeriod: exact,
    smallAnglePeriod: smallAnglePeriod(leq),
    analytic,
    confirmation: checks.join('; '),
  };
}

/** Seconds of a step count, as a tidy decimal a wait call carries (it rounds back to the same steps). */
export function stepsToSeconds(steps: number): number {
  return roundTo(steps * DT, 6);
}

/** The reference: wait to the middle of the first window, release, wait for the strike. */
export async function reference(instance: Instance<T3Scene>): Promise<ReferenceSolution> {
  const sol = await solveT3(instance);
  const strikeWait = Math.max(WAIT_RANGE[0], Math.ceil((sol.strikeSteps * DT + 0.05) * 20) / 20);
  const ms = (steps: number): string => fmt(steps * DT * 1000, 1);
  const a = sol.analytic;
  return {
    calls: [
      { tool: 'wait', args: { seconds: stepsToSeconds(sol.midStep) } },
      { tool: 'release', args: {} },
      { tool: 'wait', args: { seconds: strikeWait } },
    ],
    optimal: true,
    unique: false,
    method:
      `phase-window solver: every release step (1/240 s) laid against the recorded swing with the engine's touch rule; ` +
      `window ${fmt(sol.window.lo * DT)}–${fmt(sol.window.hi * DT)} s after the first picture (${ms(sol.window.hi - sol.window.lo + 1)} ms wide); ` +
      `period: simulated ${fmt(sol.simulatedPeriod, 4)} s, exact 4√(L/g)K(sin θ₀/2) ${fmt(sol.exactPeriod, 4)} s (${fmt((sol.simulatedPeriod / sol.exactPeriod - 1) * 100, 3)} %), small-angle ${fmt(sol.smallAnglePeriod, 4)} s; ` +
      `ideal pendulum's window ${a ? `${fmt(a.lo * DT)}–${fmt(a.hi * DT)} s` : 'none overlapping'}; confirmed: ${sol.confirmation}; ` +
      'a release takes no world time, so no solution is shorter than a wait, the release and a wait',
  };
}
