/**
 * P2 solver: the traffic jam as a search problem for the discrete-puzzle kit, through the shared
 * sliding-pieces problem (`tasks/kits/sliding-search.ts`) with every vehicle limited to its own
 * axis. One move drives one vehicle any number of cells; breadth-first search proves the
 * shortest solution and counts the shortest solutions.
 */
import { breadthFirst, type SearchResult } from '../../../solvers/discrete-search/index.ts';
import { slidingProblem, type GridPiece, type SlideMove, type SlideState } from '../../kits/sliding-search.ts';
import type { Instance, ReferenceSolution, ShortestSolutions } from '../../types.ts';
import type { P2Scene, P2Vehicle } from './scene.ts';

/** A vehicle as a grid piece (held in place when `fixed`). */
export function pieceOf(v: P2Vehicle, fixed = false): GridPiece {
  return { col: v.col, row: v.row, w: v.axis === 'ew' ? v.length : 1, h: v.axis === 'ns' ? v.length : 1, axis: v.axis, fixed };
}

/** The search problem of a scene; vehicles named in `hold` never move. */
export function trafficProblem(scene: P2Scene, hold: string[] = []) {
  const a = scene.vehicles[0];
  return slidingProblem({ cols: scene.size, rows: scene.size, blocks: scene.vehicles.map((v) => pieceOf(v, hold.includes(v.id))), goal: { col: scene.goalCol, row: a.row } });
}

/** The shortest solution, proven by breadth-first search (vehicles in `hold` kept still). */
export function solveTraffic(scene: P2Scene, hold: string[] = []): SearchResult<SlideState, SlideMove> {
  return breadthFirst(trafficProblem(scene, hold), { maxStates: 2_000_000 });
}

/** Moves as the agent's tool calls. */
export function movesToCalls(scene: P2Scene, moves: SlideMove[]): ReferenceSolution['calls'] {
  return moves.map((m) => ({ tool: 'drive', args: { vehicle: scene.vehicles[m.block].id, direction: m.dir, cells: m.cells } }));
}

/** The reference solution: shortest by breadth-first search, with the count of shortest solutions. */
export function reference(instance: Instance<P2Scene>): ReferenceSolution {
  const r = solveTraffic(instance.scene);
  if (!r.solvable) throw new Error(`P2 instance ${instance.id} has no solution`);
  return {
    calls: movesToCalls(instance.scene, r.moves),
    optimal: true,
    method: `breadth-first search over ${r.statesSearched} states (a vehicle driven any distance is one move); shortest = ${r.length} moves, ${r.optimalCount} shortest solution${r.optimalCount === 1 ? '' : 's'}`,
  };
}

/** The search's own word on the instance, for `verify` to check the reference against (`TaskFamily.shortestSolutions`). */
export function shortestSolutions(instance: Instance<P2Scene>): ShortestSolutions | null {
  const r = solveTraffic(instance.scene);
  return r.solvable ? { length: r.length, count: r.optimalCount } : null;
}
