import { SpaceActError } from '../../core/errors.ts';
import { addCounts, DEFAULT_MAX_STATES, type SearchOptions, type SearchProblem, type SearchResult } from './problem.ts';

/** The stored search graph: parents, moves and path counts of every reached state. */
interface Tree<S, M> {
  states: S[];
  parent: number[];
  move: (M | undefined)[];
  count: number[];
}

/** The first-found path from the start to `goal`, from parent links. */
export function pathTo<S, M>(tree: { states: S[]; parent: number[]; move: (M | undefined)[] }, goal: number): { moves: M[]; states: S[] } {
  const moves: M[] = [];
  const states: S[] = [];
  for (let i = goal; tree.parent[i] >= 0; i = tree.parent[i]) {
    moves.push(tree.move[i] as M);
    states.push(tree.states[i]);
  }
  return { moves: moves.reverse(), states: states.reverse() };
}

/**
 * Lists a state's successors for the breadth-first searches: their keys first, and a successor
 * itself only on request. With the problem's fast path (`successorKeys`/`successorAt`) a
 * successor is built only when asked for; without it every successor is built and keyed.
 */
class SuccessorLister<S, M> {
  /** The keys of the last listed state's successors (the first `count`). */
  readonly keys: Array<string | number> = [];
  count = 0;
  private built: Array<readonly [M, S]> | null = null;
  private from: S | undefined;
  private readonly fast: boolean;

  constructor(private readonly problem: Pick<SearchProblem<S, M>, 'key' | 'successors' | 'successorKeys' | 'successorAt'>) {
    this.fast = !!(problem.successorKeys && problem.successorAt);
  }

  /** Lists `from`'s successors' keys into {@link keys}; returns how many. */
  list(from: S): number {
    this.from = from;
    if (this.fast) return (this.count = this.problem.successorKeys!(from, this.keys));
    this.built = [...this.problem.successors(from)];
    for (let j = 0; j < this.built.length; j++) this.keys[j] = this.problem.key(this.built[j][1]);
    return (this.count = this.built.length);
  }

  /** The `j`-th successor of the state last listed, with its move. */
  at(j: number): readonly [M, S] {
    return this.fast ? this.problem.successorAt!(this.from as S, j) : this.built![j];
  }
}

/**
 * Breadth-first search, layer by layer, from the start to the nearest goal. Finishing the
 * layer where the first goal appears proves the length optimal, and the number of shortest
 * paths into each state (summed over its parents one layer up) gives the number of optimal
 * solutions. Goal states are not expanded, so a counted sequence ends at its first goal.
 *
 * When no goal is reachable the whole reachable space is searched and `solvable` is false.
 */
export function breadthFirst<S, M>(problem: SearchProblem<S, M>, opts: SearchOptions = {}): SearchResult<S, M> {
  const maxStates = opts.maxStates ?? DEFAULT_MAX_STATES;
  const index = new Map<string | number, number>();
  const tree: Tree<S, M> = { states: [problem.start], parent: [-1], move: [undefined], count: [1] };
  index.set(problem.key(problem.start), 0);
  const depth: number[] = [0];
  const successors = new SuccessorLister(problem);
  let layer = [0];
  let d = 0;
  for (;;) {
    const goals = layer.filter((i) => problem.isGoal(tree.states[i]));
    if (goals.length) {
      let total = 0;
      for (const g of goals) total = addCounts(total, tree.count[g]);
      const best = Math.min(...goals);
      const path = pathTo(tree, best);
      return {
        solvable: true,
        length: d,
        ...path,
        optimalCount: total,
        countSaturated: total > Number.MAX_SAFE_INTEGER,
        statesSearched: tree.states.length,
        method: 'breadth-first',
      };
    }
    if (!layer.length) break;
    const next: number[] = [];
    for (const i of layer) {
      const n = successors.list(tree.states[i]);
      for (let j = 0; j < n; j++) {
        const k = successors.keys[j];
        const known = index.get(k);
        if (known === undefined) {
          if (tree.states.length >= maxStates) {
            throw new SpaceActError('invalid-state', `breadth-first search stopped: more than ${maxStates} states`, { maxStates, depth: d });
          }
          const [m, s] = successors.at(j);
          const at = tree.states.length;
          index.set(k, at);
          tree.states.push(s);
          tree.parent.push(i);
          tree.move.push(m);
          tree.count.push(tree.count[i]);
          depth.push(d + 1);
          next.push(at);
        } else if (depth[known] === d + 1) {
          tree.count[known] = addCounts(tree.count[known], tree.count[i]);
        }
      }
    }
    layer = next;
    d++;
  }
  return {
    solvable: false,
    length: -1,
    moves: [],
    states: [],
    optimalCount: 0,
    countSaturated: false,
    statesSearched: tree.states.length,
    method: 'breadth-first',
  };
}

/**
 * Every state reachable from the start, with its distance in moves from the start (goals are
 * expanded too: this maps the whole component). For state-space figures such as the number of
 * positions at each distance, and for distance tables of small puzzles.
 */
export function reachableStates<S, M>(
  problem: Pick<SearchProblem<S, M>, 'start' | 'key' | 'successors' | 'successorKeys' | 'successorAt'>,
  opts: SearchOptions = {},
): { states: S[]; distance: number[]; byDistance: number[] } {
  const { states, distance } = mapComponent(problem, opts, false);
  const byDistance: number[] = [];
  for (const d of distance) byDistance[d] = (byDistance[d] ?? 0) + 1;
  return { states, distance, byDistance };
}

/**
 * The breadth-first enumeration behind {@link reachableStates}; with `withEdges`, also each
 * state's successors as state indices, in the order `successors` lists them (so a second search
 * over the component need not generate and key every move again).
 */
function mapComponent<S, M>(
  problem: Pick<SearchProblem<S, M>, 'start' | 'key' | 'successors' | 'successorKeys' | 'successorAt'>,
  opts: SearchOptions,
  withEdges: boolean,
): { states: S[]; distance: number[]; index: Map<string | number, number>; edges: number[][] } {
  const maxStates = opts.maxStates ?? DEFAULT_MAX_STATES;
  const index = new Map<string | number, number>([[problem.key(problem.start), 0]]);
  const states = [problem.start];
  const distance = [0];
  const edges: number[][] = [];
  const successors = new SuccessorLister(problem);
  for (let head = 0; head < states.length; head++) {
    const out: number[] = [];
    // The successors' keys first (with the fast path, no state is built for a key already
    // mapped: most moves of a dense component lead back to mapped positions).
    const n = successors.list(states[head]);
    for (let j = 0; j < n; j++) {
      const k = successors.keys[j];
      const known = index.get(k);
      if (known !== undefined) {
        if (withEdges) out.push(known);
        continue;
      }
      if (states.length >= maxStates) throw new SpaceActError('invalid-state', `state enumeration stopped: more than ${maxStates} states`, { maxStates });
      if (withEdges) out.push(states.length);
      index.set(k, states.length);
      states.push(successors.at(j)[1]);
      distance.push(distance[head] + 1);
    }
    if (withEdges) edges.push(out);
  }
  return { states, distance, index, edges };
}

/**
 * For a puzzle whose moves can always be undone (every move has a reverse move): every state
 * reachable from the start and its exact distance to the nearest goal, by enumerating the
 * component and then searching breadth-first outward from all its goal states at once.
 * Generators use it to pick a start at a chosen distance; the distance of a chosen start is
 * then re-proved by a forward search. States that cannot reach a goal get -1. `toGoalByKey`
 * holds the same distances by state key (what an episode's progress measure looks up).
 */
export function goalDistances<S, M>(
  problem: Pick<SearchProblem<S, M>, 'start' | 'key' | 'successors' | 'isGoal' | 'successorKeys' | 'successorAt'>,
  opts: SearchOptions = {},
): { states: S[]; toGoal: number[]; toGoalByKey: Map<string | number, number> } {
  const { states, index, edges } = mapComponent(problem, opts, true);
  const toGoal = new Array<number>(states.length).fill(-1);
  const queue: number[] = [];
  states.forEach((s, i) => {
    if (problem.isGoal(s)) {
      toGoal[i] = 0;
      queue.push(i);
    }
  });
  // Moves are reversible, so searching outward from the goals along the recorded moves gives
  // every state's distance to its nearest goal.
  for (let head = 0; head < queue.length; head++) {
    const i = queue[head];
    for (const j of edges[i]) {
      if (toGoal[j] < 0) {
        toGoal[j] = toGoal[i] + 1;
        queue.push(j);
      }
    }
  }
  const toGoalByKey = new Map<string | number, number>();
  for (const [key, i] of index) toGoalByKey.set(key, toGoal[i]);
  return { states, toGoal, toGoalByKey };
}
