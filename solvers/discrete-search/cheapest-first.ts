import { SpaceActError } from '../../core/errors.ts';
import { pathTo } from './breadth-first.ts';
import { addCounts, DEFAULT_MAX_STATES, type SearchOptions, type SearchResult } from './problem.ts';

/**
 * A puzzle whose moves cost different amounts: each successor carries its cost (a positive
 * integer) and, optionally, how many distinct move sequences it stands for (a "macro" move such
 * as "walk to the crate by a shortest route, then push it", where several shortest routes exist).
 * Costs that rank one measure before another (fewest pushes, then fewest steps) are folded into
 * one integer with {@link lexicographicCost}.
 */
export interface WeightedSearchProblem<S, M> {
  /** The position the puzzle starts from. */
  start: S;
  /** A canonical name of a state (see `SearchProblem.key`). */
  key(state: S): string | number;
  /** Whether a state solves the puzzle. */
  isGoal(state: S): boolean;
  /**
   * Every legal move out of `state`, in a fixed order: `[move, next, cost, ways]`. `cost` is a
   * positive integer; `ways` (default 1) is the number of distinct move sequences this move
   * stands for, multiplied into the count of optimal solutions.
   */
  successors(state: S): Iterable<readonly [M, S, number, number?]>;
  /**
   * A lower bound on the cost still needed (0 at a goal). It must be consistent: across a move
   * of cost c it drops by at most c. The search checks this and throws when it does not hold.
   */
  heuristic?(state: S): number;
}

/** What a cheapest-first search proved: `length` is the least total cost. */
export type WeightedSearchResult<S, M> = SearchResult<S, M>;

/**
 * The integer cost of a move measured by several counts ranked one after another (e.g. pushes,
 * then steps): `counts[0] × base^(n−1) + … + counts[n−1]`, where every count of a whole solution
 * stays below `base`. Comparing two sums compares the counts in rank order.
 */
export function lexicographicCost(counts: readonly number[], base: number): number {
  let c = 0;
  for (const n of counts) {
    if (!Number.isInteger(n) || n < 0 || n >= base) throw new SpaceActError('invalid-argument', `lexicographicCost: ${n} is not an integer in [0, ${base})`);
    c = c * base + n;
  }
  return c;
}

/** The counts a {@link lexicographicCost} sum holds (`ranks` of them, most significant first). */
export function lexicographicCounts(cost: number, base: number, ranks: number): number[] {
  const out: number[] = [];
  let c = cost;
  for (let i = 0; i < ranks; i++) {
    out.unshift(c % base);
    c = Math.floor(c / base);
  }
  return out;
}

/** A binary heap of state indices ordered by (f, then g), smallest first. */
class Frontier {
  private items: Array<[number, number, number]> = [];
  get size(): number {
    return this.items.length;
  }
  push(f: number, g: number, i: number): void {
    const a = this.items;
    a.push([f, g, i]);
    let k = a.length - 1;
    while (k > 0) {
      const p = (k - 1) >> 1;
      if (!Frontier.less(a[k], a[p])) break;
      [a[k], a[p]] = [a[p], a[k]];
      k = p;
    }
  }
  pop(): [number, number, number] {
    const a = this.items;
    const top = a[0];
    const last = a.pop()!;
    if (a.length) {
      a[0] = last;
      let k = 0;
      for (;;) {
        const l = 2 * k + 1;
        const r = l + 1;
        let m = k;
        if (l < a.length && Frontier.less(a[l], a[m])) m = l;
        if (r < a.length && Frontier.less(a[r], a[m])) m = r;
        if (m === k) break;
        [a[k], a[m]] = [a[m], a[k]];
        k = m;
      }
    }
    return top;
  }
  private static less(x: [number, number, number], y: [number, number, number]): boolean {
    return x[0] < y[0] || (x[0] === y[0] && (x[1] < y[1] || (x[1] === y[1] && x[2] < y[2])));
  }
}

/**
 * Cheapest-first search (Dijkstra's algorithm, or A* when the problem has a heuristic) over
 * moves of positive integer cost, proving the least total cost and counting the optimal
 * solutions. States are expanded in order of (f = g + h, then g); with a consistent heuristic a
 * state's g is final when it is expanded, and every cheapest path into it comes from a state
 * expanded before it (a parent has a smaller g and no larger f), so path counts — each weighted
 * by its move's `ways` — are summed exactly. The search runs until every state with f equal to
 * the optimum has been taken, which makes the count complete. Goal states are not expanded, so a
 * counted sequence ends at its first goal. An exhausted space proves `solvable: false`.
 */
export function cheapestFirst<S, M>(problem: WeightedSearchProblem<S, M>, opts: SearchOptions = {}): WeightedSearchResult<S, M> {
  const maxStates = opts.maxStates ?? DEFAULT_MAX_STATES;
  const h = problem.heuristic ? problem.heuristic.bind(problem) : (): number => 0;
  const method = problem.heuristic ? 'A* (weighted moves)' : 'cheapest-first (Dijkstra)';
  const index = new Map<string | number, number>();
  const states: S[] = [problem.start];
  const parent: number[] = [-1];
  const move: (M | undefined)[] = [undefined];
  const count: number[] = [1];
  const g: number[] = [0];
  const hv: number[] = [h(problem.start)];
  const closed: boolean[] = [false];
  index.set(problem.key(problem.start), 0);
  const heuristicOk = (hParent: number, cost: number, hChild: number, childIsGoal: boolean): void => {
    if (!(hParent <= hChild + cost) || hChild < 0 || !Number.isFinite(hChild) || (childIsGoal && hChild !== 0)) {
      throw new SpaceActError('invalid-argument', `heuristic is not consistent: ${hParent} before a move of cost ${cost}, ${hChild} after it${childIsGoal ? ' (at a goal)' : ''}`, {
        before: hParent,
        after: hChild,
        cost,
      });
    }
  };
  if (problem.isGoal(problem.start)) heuristicOk(hv[0], 0, hv[0], true);
  const frontier = new Frontier();
  frontier.push(hv[0], 0, 0);
  let best = Infinity;
  let total = 0;
  let firstGoal = -1;
  while (frontier.size) {
    const [f, gi, i] = frontier.pop();
    if (f > best) break;
    if (closed[i] || g[i] !== gi) continue;
    closed[i] = true;
    if (problem.isGoal(states[i])) {
      if (gi < best) best = gi;
      if (gi === best) {
        total = addCounts(total, count[i]);
        if (firstGoal < 0) firstGoal = i;
      }
      continue;
    }
    for (const [m, s, cost, ways = 1] of problem.successors(states[i])) {
      if (!Number.isInteger(cost) || cost < 1) throw new SpaceActError('invalid-argument', `a move's cost must be a positive integer, not ${cost}`);
      if (!Number.isInteger(ways) || ways < 1) throw new SpaceActError('invalid-argument', `a move's ways must be a positive integer, not ${ways}`);
      const k = problem.key(s);
      let j = index.get(k);
      const ng = gi + cost;
      const paths = Math.min(Number.MAX_SAFE_INTEGER + 1, count[i] * ways);
      if (j === undefined) {
        if (states.length >= maxStates) throw new SpaceActError('invalid-state', `cheapest-first search stopped: more than ${maxStates} states`, { maxStates });
        j = states.length;
        index.set(k, j);
        states.push(s);
        parent.push(i);
        move.push(m);
        count.push(paths);
        g.push(ng);
        const hs = h(s);
        heuristicOk(hv[i], cost, hs, problem.isGoal(s));
        hv.push(hs);
        closed.push(false);
        frontier.push(ng + hs, ng, j);
      } else if (ng < g[j]) {
        if (closed[j]) throw new SpaceActError('invalid-argument', 'heuristic is not consistent: a closed state was reached by a cheaper path');
        heuristicOk(hv[i], cost, hv[j], problem.isGoal(s));
        g[j] = ng;
        parent[j] = i;
        move[j] = m;
        count[j] = paths;
        frontier.push(ng + hv[j], ng, j);
      } else if (ng === g[j]) {
        if (closed[j]) throw new SpaceActError('invalid-argument', 'heuristic is not consistent: a closed state gained a cheapest path');
        count[j] = addCounts(count[j], paths);
      }
    }
  }
  if (firstGoal < 0) {
    return { solvable: false, length: -1, moves: [], states: [], optimalCount: 0, countSaturated: false, statesSearched: states.length, method };
  }
  return {
    solvable: true,
    length: best,
    ...pathTo({ states, parent, move }, firstGoal),
    optimalCount: total,
    countSaturated: total > Number.MAX_SAFE_INTEGER,
    statesSearched: states.length,
    method,
  };
}
