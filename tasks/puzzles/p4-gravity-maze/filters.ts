/**
 * P4 shortcut filters and sightless strategies: what a model could try without looking at the
 * cube. See README.md for the shortcuts considered.
 */
import { Rng } from '../../../core/rng.ts';
import type { SightlessContext, SightlessStrategy } from '../../sightless.ts';
import type { Instance, InstanceFilter, ToolCall } from '../../types.ts';
import { applyMove, EXITED, MAZE_MOVES, parseMaze, type MazeState } from './maze.ts';
import { TIER_SPEC, type P4Scene } from './scene.ts';
import { solveMaze, startState } from './solver.ts';

/** Shortcut filters (re-checked by `verify`; the generator draws only mazes in the band). */
export const SHORTCUT_FILTERS: InstanceFilter<P4Scene>[] = [
  {
    name: 'solvable-in-band',
    check(instance) {
      const r = solveMaze(instance.scene);
      const [lo, hi] = TIER_SPEC[instance.tier].band;
      if (!r.solvable) return 'the ball can never leave through the exit';
      if (r.length < lo || r.length > hi) return `the shortest way out is ${r.length} turns, outside the band ${lo}–${hi}`;
      const o = instance.scene.optimum;
      return o.turns === r.length && o.solutions === r.optimalCount ? null : 'the scene states another optimum than the search proves';
    },
  },
];

const MOVES: ToolCall[] = [
  { tool: 'tilt', args: { toward: 'north' } },
  { tool: 'tilt', args: { toward: 'east' } },
  { tool: 'tilt', args: { toward: 'south' } },
  { tool: 'tilt', args: { toward: 'west' } },
  { tool: 'spin', args: { direction: 'clockwise' } },
  { tool: 'spin', args: { direction: 'anticlockwise' } },
];

/**
 * The fixed sequence of at most `length` turns (indices into MOVES, which match MAZE_MOVES)
 * that gets the ball out of the most of these mazes within each one's action budget; ties go to
 * the first found in a depth-first order.
 */
export function bestFixedSequence(instances: Array<Instance<P4Scene>>, length: number): number[] {
  const mazes = instances.map((i) => ({ maze: parseMaze(i.scene), start: startState(i.scene), budget: i.budgets.actions ?? Infinity }));
  let best: number[] = [];
  let bestCount = 0;
  const seq: number[] = [];
  const walk = (states: MazeState[], out: boolean[]): void => {
    const count = out.filter(Boolean).length;
    if (count > bestCount) {
      bestCount = count;
      best = seq.slice();
    }
    if (seq.length >= length) return;
    for (let k = 0; k < MAZE_MOVES.length; k++) {
      const depth = seq.length;
      seq.push(k);
      const next = states.map((st, i) => (out[i] || depth >= mazes[i].budget ? st : applyMove(mazes[i].maze, st, k)));
      walk(next, out.map((o, i) => o || next[i].cell === EXITED));
      seq.pop();
    }
  };
  walk(mazes.map((m) => m.start), mazes.map(() => false));
  return best;
}

/** Calls sent so far (a refused one counts too). */
function sent(ctx: SightlessContext): number {
  return ctx.history.flat().filter((r) => r.status !== 'not-run').length;
}

/** P4's own sightless strategies for the shortcut battery. */
export const SIGHTLESS: SightlessStrategy[] = [
  {
    name: 'random-turns',
    description: 'Turns the cube at random (any of the four tilts and two spins), five turns a turn, never looking where the ball is.',
    bound: 0.1,
    next(ctx) {
      const rng = new Rng(`P4-random/${ctx.seed}/${ctx.turn}`);
      return Array.from({ length: ctx.actionCap }, () => structuredClone(rng.pick(MOVES)));
    },
  },
  {
    name: 'tilt-round',
    description: 'Tips the cube north, east, south, west over and over (the ball visits every side), as a model that rolls the maze around without looking.',
    bound: 0.05,
    next(ctx) {
      const k = sent(ctx);
      return Array.from({ length: ctx.actionCap }, (_, i) => structuredClone(MOVES[(k + i) % 4]));
    },
  },
  {
    name: 'learned-sequence',
    description: 'Plays the one fixed sequence of up to six turns that gets the ball out of the most training mazes (other seeds of the tier), then keeps tipping the cube round, as a model that memorised a "universal" sequence from published examples.',
    bound: 0.1,
    fit(training) {
      return bestFixedSequence(training.map((t) => t.instance as Instance<P4Scene>), 6);
    },
    next(ctx, fitted) {
      const seq = (fitted as number[] | undefined) ?? [];
      const k = sent(ctx);
      return Array.from({ length: ctx.actionCap }, (_, i) => structuredClone(MOVES[k + i < seq.length ? seq[k + i] : (k + i) % 4]));
    },
  },
  {
    name: 'rock-and-spin',
    description: 'Tips the cube one way and back, then spins it a quarter turn, and repeats, as a model that shakes the maze about every side without looking.',
    bound: 0.05,
    next(ctx) {
      const cycle = [MOVES[0], MOVES[2], MOVES[4]];
      const k = sent(ctx);
      return Array.from({ length: ctx.actionCap }, (_, i) => structuredClone(cycle[(k + i) % cycle.length]));
    },
  },
];
