import { SpaceActError } from '../../core/errors.ts';
import { pathTo } from './breadth-first.ts';
import { addCounts, DEFAULT_MAX_STATES, type SearchOptions, type SearchProblem, type SearchResult } from './problem.ts';

function heuristicOf<S, M>(problem: SearchProblem<S, M>): (s: S) => number {
  if (!problem.heuristic) throw new SpaceActError('invalid-argument', 'A* and IDA* need a heuristic (SearchProblem.heuristic)');
  return problem.heuristic.bind(problem);
}

/** Throws when a heuristic breaks consistency across one move (or is not 0 at a goal). */
export function checkConsistent(hParent: number, hChild: number, childIsGoal: boolean): void {
  if (!(hParent <= hChild + 1) || hChild < 0 || (childIsGoal && hChild !== 0) || !Number.isInteger(hChild)) {
    throw new SpaceActError('invalid-argument', `heuristic is not consistent: ${hParent} before a move, ${hChild} after it${childIsGoal ? ' (at a goal)' : ''}`, {
      before: hParent,
      after: hChild,
    });
  }
}

/**
 * A* with a consistent heuristic, expanding states in order of (f = g + h, then g). With a
 * consistent heuristic a state's g is final when it is expanded, and every shortest path into
 * it comes from states expanded before it, so path counts are summed exactly as in
 * breadth-first search; the search runs on until every state with f equal to the optimum has
 * been taken, which makes the count of optimal solutions complete.
 */
export function aStar<S, M>(problem: SearchProblem<S, M>, opts: SearchOptions = {}): SearchResult<S, M> {
  const h = heuristicOf(problem);
  const maxStates = opts.maxStates ?? DEFAULT_MAX_STATES;
  const index = new Map<string | number, number>();
  const states: S[] = [problem.start];
  const parent: number[] = [-1];
  const move: (M | undefined)[] = [undefined];
  const count: number[] = [1];
  const g: number[] = [0];
  const hv: number[] = [h(problem.start)];
  const closed: boolean[] = [false];
  index.set(problem.key(problem.start), 0);
  if (problem.isGoal(problem.start)) checkConsistent(hv[0], hv[0], true);
  // Buckets by f, then by g: buckets[f][g] is a stack of state indices.
  const buckets: number[][][] = [];
  const push = (i: number): void => {
    const f = g[i] + hv[i];
    ((buckets[f] ??= [])[g[i]] ??= []).push(i);
  };
  push(0);
  let best = Infinity;
  let total = 0;
  let firstGoal = -1;
  outer: for (let f = 0; f < buckets.length; f++) {
    if (f > best) break;
    const byG = buckets[f];
    if (!byG) continue;
    for (let gi = 0; gi < byG.length; gi++) {
      const stack = byG[gi];
      // Expanding may add to this same (f, g) bucket only through zero-cost moves, which do not exist.
      while (stack && stack.length) {
        const i = stack.pop()!;
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
        for (const [m, s] of problem.successors(states[i])) {
          const k = problem.key(s);
          let j = index.get(k);
          const ng = gi + 1;
          if (j === undefined) {
            if (states.length >= maxStates) throw new SpaceActError('invalid-state', `A* stopped: more than ${maxStates} states`, { maxStates });
            j = states.length;
            index.set(k, j);
            states.push(s);
            parent.push(i);
            move.push(m);
            count.push(count[i]);
            g.push(ng);
            const hs = h(s);
            checkConsistent(hv[i], hs, problem.isGoal(s));
            hv.push(hs);
            closed.push(false);
            push(j);
          } else if (ng < g[j]) {
            if (closed[j]) throw new SpaceActError('invalid-argument', 'heuristic is not consistent: a closed state was reached by a shorter path');
            g[j] = ng;
            parent[j] = i;
            move[j] = m;
            count[j] = count[i];
            push(j);
          } else if (ng === g[j]) {
            if (closed[j]) throw new SpaceActError('invalid-argument', 'heuristic is not consistent: a closed state gained a shortest path');
            count[j] = addCounts(count[j], count[i]);
          }
        }
      }
      if (f > best) break outer;
    }
  }
  if (firstGoal < 0) {
    return { solvable: false, length: -1, moves: [], states: [], optimalCount: 0, countSaturated: false, statesSearched: states.length, method: 'A*' };
  }
  return {
    solvable: true,
    length: best,
    ...pathTo({ states, parent, move }, firstGoal),
    optimalCount: total,
    countSaturated: total > Number.MAX_SAFE_INTEGER,
    statesSearched: states.length,
    method: 'A*',
  };
}
