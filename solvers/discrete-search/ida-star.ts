import { SpaceActError } from '../../core/errors.ts';
import { checkConsistent } from './a-star.ts';
import { addCounts, DEFAULT_MAX_STATES, type SearchProblem, type SearchResult } from './problem.ts';

/** Limits of an IDA* search. */
export interface IdaStarOptions {
  /** Stop (throwing `SpaceActError`) after expanding this many states in all. Default 5,000,000. */
  maxExpansions?: number;
  /** Largest solution length tried before giving up as unsolvable within the bound. Default 200. */
  maxLength?: number;
  /** Count every optimal solution (the last iteration runs to its end). Default true. */
  countAll?: boolean;
}

/**
 * Iterative-deepening A*: depth-first searches bounded by f = g + h, the bound raised to the
 * smallest f that exceeded it, until a goal is reached. It keeps only the current path in
 * memory, for spaces too large to store. A shortest path never visits a state twice, so the
 * last iteration, run to its end, enumerates every optimal solution exactly once (states on
 * the current path are skipped, which prunes only non-shortest paths).
 *
 * It cannot prove a puzzle unsolvable: past `maxLength` it reports `solvable: false` for that
 * bound only (the method string says so).
 */
export function idaStar<S, M>(problem: SearchProblem<S, M>, opts: IdaStarOptions = {}): SearchResult<S, M> {
  if (!problem.heuristic) throw new SpaceActError('invalid-argument', 'IDA* needs a heuristic (SearchProblem.heuristic)');
  const h = problem.heuristic.bind(problem);
  const maxExpansions = opts.maxExpansions ?? DEFAULT_MAX_STATES;
  const maxLength = opts.maxLength ?? 200;
  const countAll = opts.countAll ?? true;
  let expansions = 0;
  const pathKeys = new Set<string | number>();
  const moves: M[] = [];
  const states: S[] = [];
  let found: { moves: M[]; states: S[] } | null = null;
  let count = 0;

  // Returns the smallest f above the bound met below this node (Infinity if none).
  const dfs = (s: S, g: number, hs: number, bound: number): number => {
    const f = g + hs;
    if (f > bound) return f;
    if (problem.isGoal(s)) {
      if (!found) found = { moves: moves.slice(), states: states.slice() };
      count = addCounts(count, 1);
      return f;
    }
    if (++expansions > maxExpansions) throw new SpaceActError('invalid-state', `IDA* stopped: more than ${maxExpansions} expansions`, { maxExpansions, bound });
    let next = Infinity;
    for (const [m, c] of problem.successors(s)) {
      const k = problem.key(c);
      if (pathKeys.has(k)) continue;
      const hc = h(c);
      checkConsistent(hs, hc, problem.isGoal(c));
      pathKeys.add(k);
      moves.push(m);
      states.push(c);
      const t = dfs(c, g + 1, hc, bound);
      moves.pop();
      states.pop();
      pathKeys.delete(k);
      if (t < next) next = t;
      if (found && !countAll) return next;
    }
    return next;
  };

  const h0 = h(problem.start);
  let bound = h0;
  while (bound <= maxLength) {
    pathKeys.clear();
    pathKeys.add(problem.key(problem.start));
    const t = dfs(problem.start, 0, h0, bound);
    if (found) {
      const f = found as { moves: M[]; states: S[] };
      return {
        solvable: true,
        length: bound,
        moves: f.moves,
        states: f.states,
        optimalCount: countAll ? count : -1,
        countSaturated: count > Number.MAX_SAFE_INTEGER,
        statesSearched: expansions,
        method: 'IDA*',
      };
    }
    if (t === Infinity) break;
    bound = t;
  }
  return {
    solvable: false,
    length: -1,
    moves: [],
    states: [],
    optimalCount: 0,
    countSaturated: false,
    statesSearched: expansions,
    method: bound > maxLength ? `IDA* (no solution within ${maxLength} moves)` : 'IDA* (every path searched: no solution)',
  };
}
