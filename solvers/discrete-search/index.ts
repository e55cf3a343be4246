/**
 * The discrete-puzzle kit: a puzzle describes its states and moves (`SearchProblem`), and the
 * searches prove the shortest solution and count how many there are — breadth-first search,
 * A* and IDA* with consistent heuristics. The pocket-cube distance table (both metrics, every
 * position) lives here too.
 */
export * from './problem.ts';
export { breadthFirst, goalDistances, reachableStates } from './breadth-first.ts';
export { aStar } from './a-star.ts';
export { idaStar, type IdaStarOptions } from './ida-star.ts';
export * from './pocket-cube.ts';
