/**
 * What a discrete puzzle tells the search: its start, how to name a state, which states are
 * goals, and the moves out of a state. Every move costs one; the search finds the fewest moves.
 */
export interface SearchProblem<S, M> {
  /** The position the puzzle starts from. */
  start: S;
  /**
   * A canonical name of a state: two states with the same key are the same position (pieces of
   * the same shape that are interchangeable must get the same key wherever they are swapped).
   */
  key(state: S): string | number;
  /** Whether a state solves the puzzle. */
  isGoal(state: S): boolean;
  /**
   * Every legal move out of `state` with the state it leads to, in a fixed order: the search
   * is deterministic, and among equally short solutions it returns the first in this order.
   */
  successors(state: S): Iterable<readonly [M, S]>;
  /**
   * Optional fast path for the breadth-first searches (both or neither with
   * {@link successorAt}): writes the keys of `state`'s successors into `keys`, in the order
   * {@link successors} lists them, and returns how many. A search builds a successor (and its
   * move) only when its key is new, so most of a state's moves cost a key and nothing else.
   * Must agree exactly with `successors` and `key` (the sliding kit's test compares them).
   */
  successorKeys?(state: S, keys: Array<string | number>): number;
  /** The `j`-th successor of the state last given to {@link successorKeys}, with its move. */
  successorAt?(state: S, j: number): readonly [M, S];
  /**
   * A lower bound on the moves still needed (0 at a goal), used by A* and IDA*. It must be
   * consistent: across any one move it drops by at most 1. The searches check this and throw
   * when it does not hold, since a wrong bound would make the proof of optimality false.
   */
  heuristic?(state: S): number;
}

/** What a search proved about a puzzle. */
export interface SearchResult<S, M> {
  /** Whether any goal is reachable. False only after every reachable state was searched. */
  solvable: boolean;
  /** The fewest moves to a goal (-1 when unsolvable). */
  length: number;
  /** One shortest solution: the moves and the states they lead to (the start is not listed). */
  moves: M[];
  states: S[];
  /**
   * How many different shortest move sequences there are (distinct sequences of moves, each
   * sequence ending at the first goal it reaches). Exact up to `Number.MAX_SAFE_INTEGER`;
   * `countSaturated` says when it went past that.
   */
  optimalCount: number;
  countSaturated: boolean;
  /** States the search stored (BFS, A*) or expanded (IDA*), for reports. */
  statesSearched: number;
  /** The method, for reports: `breadth-first`, `A*` or `IDA*`. */
  method: string;
}

/** Limits of one search. */
export interface SearchOptions {
  /** Stop (throwing `SpaceActError`) after storing this many states. Default 5,000,000. */
  maxStates?: number;
}

/** Default bound on the states a search stores. */
export const DEFAULT_MAX_STATES = 5_000_000;

/** Adds path counts without losing track of overflow past 2^53. */
export function addCounts(a: number, b: number): number {
  const s = a + b;
  return s > Number.MAX_SAFE_INTEGER ? Number.MAX_SAFE_INTEGER + 1 : s;
}
