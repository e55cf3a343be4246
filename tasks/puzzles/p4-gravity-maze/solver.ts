/**
 * P4 solver: breadth-first search over (orientation × ball cell) — at most 24 × 64 positions —
 * through the discrete-puzzle kit. Finishing the layer where the ball first leaves through the
 * exit proves the fewest turns; the kit counts the shortest turn sequences.
 */
import { breadthFirst, type SearchResult } from '../../../solvers/discrete-search/index.ts';
import type { Instance, ReferenceSolution, ShortestSolutions, ToolCall } from '../../types.ts';
import { applyMove, cellIndex, EXITED, MAZE_MOVES, mazeProblem, parseMaze, type Maze, type MazeMove, type MazeState } from './maze.ts';
import type { P4Scene } from './scene.ts';

/** The start: the ball's cell with the cube as it is (orientation 0, the identity). */
export function startState(scene: Pick<P4Scene, 'size' | 'ball'>): MazeState {
  return { o: 0, cell: cellIndex(scene.ball, scene.size) };
}

/** The fewest turns from the start, with the number of shortest turn sequences. */
export function solveMaze(scene: P4Scene): SearchResult<MazeState, MazeMove> {
  const maze = parseMaze(scene);
  return breadthFirst(mazeProblem(maze, startState(scene)), { maxStates: 10_000 });
}

/**
 * Turns still needed from every position the start can reach (-1 where the ball can no longer
 * get out): the reachable graph mapped forward, then breadth-first backward from the exit.
 */
export function turnsToExit(maze: Maze, start: MazeState): Map<number, number> {
  const key = (s: MazeState): number => (s.cell === EXITED ? -1 : s.o * 64 + s.cell);
  const states = new Map<number, MazeState>([[key(start), start]]);
  const preds = new Map<number, number[]>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const s = queue[head];
    if (s.cell === EXITED) continue;
    for (let k = 0; k < MAZE_MOVES.length; k++) {
      const t = applyMove(maze, s, k);
      const kt = key(t);
      (preds.get(kt) ?? preds.set(kt, []).get(kt)!).push(key(s));
      if (!states.has(kt)) {
        states.set(kt, t);
        queue.push(t);
      }
    }
  }
  const dist = new Map<number, number>();
  for (const k of states.keys()) dist.set(k, -1);
  if (!states.has(-1)) return dist;
  dist.set(-1, 0);
  const back = [-1];
  for (let head = 0; head < back.length; head++) {
    const k = back[head];
    for (const p of preds.get(k) ?? []) {
      if (dist.get(p)! < 0) {
        dist.set(p, dist.get(k)! + 1);
        back.push(p);
      }
    }
  }
  return dist;
}

/** A move as the agent's call. */
export function moveToCall(m: MazeMove): ToolCall {
  const [verb, dir] = m.split(' ');
  return verb === 'tilt' ? { tool: 'tilt', args: { toward: dir } } : { tool: 'spin', args: { direction: dir } };
}

/** The reference: fewest turns by breadth-first search, with the count of shortest turn sequences. */
export function reference(instance: Instance<P4Scene>): ReferenceSolution {
  const r = solveMaze(instance.scene);
  if (!r.solvable) throw new Error(`P4 instance ${instance.id} has no solution`);
  return {
    calls: r.moves.map(moveToCall),
    optimal: true,
    method: `breadth-first search over ${r.statesSearched} positions (orientation × ball cell); shortest = ${r.length} turns, ${r.optimalCount} shortest turn sequence${r.optimalCount === 1 ? '' : 's'}`,
  };
}

/** The search's own word on the instance, for `verify` to check the reference against (`TaskFamily.shortestSolutions`). */
export function shortestSolutions(instance: Instance<P4Scene>): ShortestSolutions | null {
  const r = solveMaze(instance.scene);
  return r.solvable ? { length: r.length, count: r.optimalCount } : null;
}
