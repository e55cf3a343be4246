/**
 * Determinism checks that find one-bit randomness (issue 36 item 8):
 *
 * - purity: each of several seeds per tier generated three times must give deep-equal
 *   instances (a generator that reads `Math.random` once for one bit differs in one of three
 *   generations with probability 3/4 per seed, so eight seeds miss it about once in 65,000);
 * - replay: a replay records every body's pose after every call, so two replays that end in
 *   different states are told apart at the first call and body whose pose differs, in
 *   millimetres and degrees, instead of by two unequal hash lists.
 */
import type { Pose } from '../sim/types.ts';
import type { TaskEnv } from '../tasks/env.ts';
import type { Instance, TaskFamily, Tier, ToolCall } from '../tasks/types.ts';
import { firstDifference } from './json-difference.ts';

/** Seeds per tier the check-suite generates three times. */
export const PURITY_SEEDS = 4;
/** Generations of each seed compared. */
export const PURITY_GENERATIONS = 3;

/**
 * Generates each of `seeds` of one tier `generations` times and says, per seed whose
 * instances differ, where they first differ (`firstDifference`). `first` may hold an instance
 * already generated once for a seed (it counts as the first generation).
 */
export function purityProblems(family: TaskFamily, tier: Tier, seeds: readonly number[], opts: { generations?: number; first?: ReadonlyMap<number, Instance> } = {}): string[] {
  const generations = opts.generations ?? PURITY_GENERATIONS;
  const problems: string[] = [];
  for (const seed of seeds) {
    const a = opts.first?.get(seed) ?? family.generate(seed, tier);
    for (let g = 2; g <= generations; g++) {
      const b = family.generate(seed, tier);
      const d = firstDifference(a, b);
      if (d) {
        problems.push(`${family.id} ${tier} seed ${seed}: generation ${g} differs from generation 1 at ${d.replace('fixture', 'first').replace('regenerated', `generation ${g}`)} (generate must be a pure function of the seed and tier: no Math.random, Date.now, performance.now or state kept between calls)`);
        break;
      }
    }
  }
  return problems;
}

/** Every body's pose after one call of a replay. */
export interface CallPoses {
  turn: number;
  /** 1-based position of the call within its turn. */
  call: number;
  /** 1-based position of the call in the episode. */
  episodeCall: number;
  tool: string;
  poses: Record<string, Pose>;
}

/** A replay's trace: filled as the episode's calls run. */
export interface PoseTrace {
  calls: CallPoses[];
  /** Tells the trace that a turn ended (the next call is call 1 of the next turn). */
  endTurn(): void;
}

/**
 * Records every body's pose after each call `env` runs from now on (wrapping `execute` on
 * this one environment object, so episodes that do not ask pay nothing).
 */
export function recordPoses(env: TaskEnv): PoseTrace {
  let turn = 1;
  let call = 0;
  const trace: PoseTrace = {
    calls: [],
    endTurn() {
      turn++;
      call = 0;
    },
  };
  const execute = env.execute.bind(env);
  env.execute = (c: ToolCall) => {
    const r = execute(c);
    call++;
    const poses: Record<string, Pose> = {};
    for (const name of env.world.bodyNames()) poses[name] = env.world.getPose(name);
    trace.calls.push({ turn, call, episodeCall: trace.calls.length + 1, tool: c.tool, poses });
    return r;
  };
  return trace;
}

/** Angle in degrees between two unit quaternions. */
function angleDegrees(a: Pose['q'], b: Pose['q']): number {
  const dot = Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);
  return (2 * Math.acos(Math.min(1, dot)) * 180) / Math.PI;
}

/**
 * The first call and body whose pose differs between two replays of the same calls, as a
 * sentence (turn, call, body, distance in mm, angle in degrees), or null when every pose is
 * bit-equal.
 */
export function firstPoseDifference(a: readonly CallPoses[], b: readonly CallPoses[]): string | null {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    const where = `turn ${x.turn}, call ${x.call} (episode call ${x.episodeCall}, ${x.tool})`;
    if (x.tool !== y.tool) return `${where}: the second replay ran ${y.tool} instead`;
    for (const body of new Set([...Object.keys(x.poses), ...Object.keys(y.poses)])) {
      const p = x.poses[body];
      const q = y.poses[body];
      if (!p || !q) return `${where}: body '${body}' exists in only one replay`;
      if (p.p.every((v, k) => v === q.p[k]) && p.q.every((v, k) => v === q.q[k])) continue;
      const mm = Math.hypot(p.p[0] - q.p[0], p.p[1] - q.p[1], p.p[2] - q.p[2]) * 1000;
      return `${where}: body '${body}' differs by ${mm.toPrecision(3)} mm and ${angleDegrees(p.q, q.q).toPrecision(3)}°`;
    }
  }
  if (a.length !== b.length) return `the replays ran ${a.length} and ${b.length} calls`;
  return null;
}
