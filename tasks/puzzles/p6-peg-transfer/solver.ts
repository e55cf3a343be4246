/**
 * Exhaustive breadth-first search over peg-transfer states. A state gives, for each disk
 * (index 0 = smallest), the peg it is on; in a legal state every peg's disks are stacked
 * largest at the bottom, so the state alone fixes the stacks.
 */

import type { Instance, ReferenceSolution, ShortestSolutions } from '../../types.ts';
import { pegLetter, type P6Scene, type PegState } from './scene.ts';

/** A move of the top disk of peg `from` onto peg `to`. */
export interface PegMove {
  from: number;
  to: number;
}

/** Rules of a peg-transfer variant. */
export interface PegRules {
  pegs: number;
  /** Only moves between neighbouring pegs (|from − to| = 1). */
  adjacentOnly: boolean;
}

function encode(s: PegState, pegs: number): number {
  let k = 0;
  for (let i = s.length - 1; i >= 0; i--) k = k * pegs + s[i];
  return k;
}

function decode(k: number, n: number, pegs: number): PegState {
  const s: PegState = [];
  for (let i = 0; i < n; i++) {
    s.push(k % pegs);
    k = Math.floor(k / pegs);
  }
  return s;
}

/** Index of the top (smallest) disk on `peg`, or -1 when the peg is empty. */
export function topDisk(s: PegState, peg: number): number {
  for (let i = 0; i < s.length; i++) if (s[i] === peg) return i;
  return -1;
}

/** Why a move is illegal in `s`, or null when it is legal. */
export function moveProblem(s: PegState, m: PegMove, rules: PegRules): string | null {
  if (m.from === m.to) return 'from and to are the same peg';
  if (rules.adjacentOnly && Math.abs(m.from - m.to) !== 1) return 'only moves between neighbouring pegs are allowed';
  const d = topDisk(s, m.from);
  if (d < 0) return 'the source peg has no disk';
  const t = topDisk(s, m.to);
  if (t >= 0 && t < d) return 'a disk may not rest on a smaller disk';
  return null;
}

/** The state after a legal move. */
export function applyMove(s: PegState, m: PegMove): PegState {
  const out = s.slice();
  out[topDisk(s, m.from)] = m.to;
  return out;
}

/**
 * Distances (in moves) from every state to the goal "all disks on `target`", by breadth-first
 * search backwards from the goal. Moves are reversible under both rule sets, so the search
 * over the reversed graph is the same search. -1 marks states that cannot reach the goal.
 */
export function distancesToGoal(n: number, target: number, rules: PegRules): Int32Array {
  const size = rules.pegs ** n;
  const dist = new Int32Array(size).fill(-1);
  const goal = encode(new Array(n).fill(target), rules.pegs);
  const queue = new Int32Array(size);
  let head = 0;
  let tail = 0;
  dist[goal] = 0;
  queue[tail++] = goal;
  while (head < tail) {
    const k = queue[head++];
    const s = decode(k, n, rules.pegs);
    for (let from = 0; from < rules.pegs; from++) {
      for (let to = 0; to < rules.pegs; to++) {
        const m = { from, to };
        if (moveProblem(s, m, rules)) continue;
        const k2 = encode(applyMove(s, m), rules.pegs);
        if (dist[k2] < 0) {
          dist[k2] = dist[k] + 1;
          queue[tail++] = k2;
        }
      }
    }
  }
  return dist;
}

/** Distance of one state, from a table made by {@link distancesToGoal}. */
export function distanceOf(dist: Int32Array, s: PegState, pegs: number): number {
  return dist[encode(s, pegs)];
}

/**
 * A shortest move sequence from `start` to all disks on `target`, proven shortest by the
 * exhaustive search (every state's exact distance is known; each step goes one closer).
 * Among equally short next moves the first in (from, to) order is taken, so the plan is
 * deterministic. Also reports how many shortest plans exist.
 */
export function solvePegTransfer(
  start: PegState,
  target: number,
  rules: PegRules,
): { moves: PegMove[]; optimalLength: number; shortestPlans: number; statesSearched: number } {
  const n = start.length;
  const dist = distancesToGoal(n, target, rules);
  const d0 = distanceOf(dist, start, rules.pegs);
  if (d0 < 0) throw new Error('peg-transfer start state cannot reach the goal');
  const moves: PegMove[] = [];
  let s = start;
  while (distanceOf(dist, s, rules.pegs) > 0) {
    const here = distanceOf(dist, s, rules.pegs);
    let next: PegMove | null = null;
    for (let from = 0; from < rules.pegs && !next; from++) {
      for (let to = 0; to < rules.pegs && !next; to++) {
        const m = { from, to };
        if (!moveProblem(s, m, rules) && distanceOf(dist, applyMove(s, m), rules.pegs) === here - 1) next = m;
      }
    }
    moves.push(next!);
    s = applyMove(s, next!);
  }
  // Count shortest plans by dynamic programming over the distance layers.
  const memo = new Map<number, number>();
  const count = (st: PegState): number => {
    const k = encode(st, rules.pegs);
    const d = dist[k];
    if (d === 0) return 1;
    const hit = memo.get(k);
    if (hit !== undefined) return hit;
    let c = 0;
    for (let from = 0; from < rules.pegs; from++) {
      for (let to = 0; to < rules.pegs; to++) {
        const m = { from, to };
        if (moveProblem(st, m, rules)) continue;
        const nx = applyMove(st, m);
        if (distanceOf(dist, nx, rules.pegs) === d - 1) c += count(nx);
      }
    }
    memo.set(k, c);
    return c;
  };
  let reachable = 0;
  for (const d of dist) if (d >= 0) reachable++;
  return { moves, optimalLength: d0, shortestPlans: count(start), statesSearched: reachable };
}

/** The reference: a shortest plan found by exhaustive search (optimal; unique when only one shortest plan exists). */
export function reference(instance: Instance<P6Scene>): ReferenceSolution {
  const s = instance.scene;
  const sol = solvePegTransfer(s.start, s.target, { pegs: 3, adjacentOnly: s.adjacentOnly });
  return {
    calls: sol.moves.map((m) => ({ tool: 'move', args: { from: pegLetter(s, m.from), to: pegLetter(s, m.to) } })),
    optimal: true,
    unique: sol.shortestPlans === 1,
    method: `breadth-first search over all ${sol.statesSearched} reachable states; shortest = ${sol.optimalLength} moves (${sol.shortestPlans} shortest plan${sol.shortestPlans === 1 ? '' : 's'})`,
  };
}

/** The exhaustive search's own word on the instance, for `verify` to check the reference against (`TaskFamily.shortestSolutions`). */
export function shortestSolutions(instance: Instance<P6Scene>): ShortestSolutions | null {
  const s = instance.scene;
  const sol = solvePegTransfer(s.start, s.target, { pegs: 3, adjacentOnly: s.adjacentOnly });
  return { length: sol.optimalLength, count: sol.shortestPlans };
}

/** Feedback of one move to an agent that never looks: refused (rolled back), accepted, or the task done. */
export type BlindOutcome = 'refused' | 'accepted' | 'done';

/**
 * The best policy of an agent that never looks, computed exactly. The start is uniform over the
 * states `minMoves`–`maxMoves` from a goal peg drawn uniformly (as the generator draws them), and
 * uniform over the letter orders the rules allow; the agent's only feedback is whether each move
 * was refused, accepted or finished the task (call results name no disk). A belief is the sorted
 * list of candidates — (state, goal, letter order) — still consistent with the feedback, and a
 * dynamic programme over beliefs, moves left and refusals left takes the best move at each.
 */
export class BlindPlanner {
  private readonly pegs: number;
  private readonly orders: number[][];
  /** Moves by letter: (from, to) indices into the letters A, B, C. */
  readonly moves: PegMove[] = [];
  private readonly goals: number[];
  /** after[state][order · moves + m]: the state after letter move m under that order, or -1 when refused. */
  private readonly after: Int32Array[];
  private readonly memo = new Map<string, { value: number; move: number }>();
  /** The candidates before any move: index ((state · pegs + goal) · orders + order). */
  readonly start: number[] = [];

  /**
   * @param orders - the letter orders a seed may draw: `orders[o][letter]` is that letter's peg
   *   position (one identity order when the letters run A, B, C along the board).
   */
  constructor(n: number, rules: PegRules, range: { minMoves: number; maxMoves: number }, orders: number[][] = [[0, 1, 2]]) {
    this.pegs = rules.pegs;
    this.orders = orders;
    const size = rules.pegs ** n;
    const dist = Array.from({ length: rules.pegs }, (_, g) => distancesToGoal(n, g, rules));
    this.goals = Array.from({ length: rules.pegs }, (_, g) => encode(new Array(n).fill(g), rules.pegs));
    for (let from = 0; from < rules.pegs; from++) for (let to = 0; to < rules.pegs; to++) if (from !== to) this.moves.push({ from, to });
    const M = this.moves.length;
    this.after = Array.from({ length: size }, (_, k) => {
      const s = decode(k, n, rules.pegs);
      const row = new Int32Array(orders.length * M);
      orders.forEach((order, o) =>
        this.moves.forEach((m, i) => {
          const phys = { from: order[m.from], to: order[m.to] };
          row[o * M + i] = moveProblem(s, phys, rules) ? -1 : encode(applyMove(s, phys), rules.pegs);
        }),
      );
      return row;
    });
    for (let k = 0; k < size; k++) {
      for (let g = 0; g < rules.pegs; g++) {
        if (dist[g][k] < range.minMoves || dist[g][k] > range.maxMoves) continue;
        for (let o = 0; o < orders.length; o++) this.start.push((k * rules.pegs + g) * orders.length + o);
      }
    }
  }

  /**
   * The candidates of `belief` split by what letter move `m` would report: refused (left where
   * they were), accepted (moved on) or done (their count), each list sorted. One pass, since the
   * dynamic programme splits every belief by every move.
   */
  private split(belief: number[], m: number): { refused: number[]; accepted: number[]; done: number } {
    const refused: number[] = [];
    const accepted: number[] = [];
    let done = 0;
    const O = this.orders.length;
    for (const c of belief) {
      const o = c % O;
      const k = Math.floor(c / O / this.pegs);
      const g = Math.floor(c / O) % this.pegs;
      const next = this.after[k][o * this.moves.length + m];
      if (next < 0) refused.push(c);
      else if (next === this.goals[g]) done++;
      else accepted.push((next * this.pegs + g) * O + o);
    }
    // A refused candidate keeps its index, so that list keeps the belief's order.
    return { refused, accepted: accepted.sort((a, b) => a - b), done };
  }

  /** The candidates of `belief` still consistent after letter move `m` was refused or accepted (without finishing the task), sorted. */
  update(belief: number[], m: number, outcome: Exclude<BlindOutcome, 'done'>): number[] {
    return this.split(belief, m)[outcome];
  }

  /** Most candidates of `belief` the best policy solves with `left` moves and `refusals` refused moves to spare, and its first move (-1 when none helps). */
  best(belief: number[], left: number, refusals: number): { value: number; move: number } {
    if (left === 0 || belief.length === 0) return { value: 0, move: -1 };
    const key = `${left}:${refusals}:${belief.join(',')}`;
    const known = this.memo.get(key);
    if (known) return known;
    let top = { value: 0, move: -1 };
    for (let m = 0; m < this.moves.length; m++) {
      const { refused, accepted, done } = this.split(belief, m);
      const spared = refusals > 0 ? refused : [];
      // Nothing below can solve more than every candidate left.
      if (done + accepted.length + spared.length <= top.value) continue;
      const v = done + this.best(accepted, left - 1, refusals).value + (spared.length ? this.best(spared, left - 1, refusals - 1).value : 0);
      if (v > top.value) top = { value: v, move: m };
    }
    this.memo.set(key, top);
    return top;
  }
}

/**
 * The best success rate any agent that never looks can reach on a tier ({@link BlindPlanner}),
 * spending at most `budget` moves and `refusals` refused moves. Peg positions are taken as known
 * unless `orders` lists the letter orders a seed may draw.
 */
export function bestBlindSuccess(
  n: number,
  rules: PegRules,
  range: { minMoves: number; maxMoves: number },
  budget: number,
  refusals: number,
  orders?: number[][],
): number {
  const planner = new BlindPlanner(n, rules, range, orders);
  return planner.start.length ? planner.best(planner.start, budget, refusals).value / planner.start.length : 0;
}
