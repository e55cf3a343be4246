/**
 * P1 solver: the sliding-block puzzle as a search problem for the discrete-puzzle kit (through
 * the shared sliding-pieces problem, `tasks/kits/sliding-search.ts`). A state is the north-west
 * cell of every block; a move slides one block 1 or more cells in one straight direction through
 * empty cells. Blocks of the same size (other than the target) are interchangeable.
 */
import { breadthFirst, type SearchResult } from '../../../solvers/discrete-search/index.ts';
import { slidingProblem, type SlideMove, type SlideState } from '../../kits/sliding-search.ts';
import type { Instance, ReferenceSolution, ShortestSolutions } from '../../types.ts';
import type { P1Block, P1Scene } from './scene.ts';


export { slidingProblem };
/** One slide: block index, direction, cells. */
export type P1Move = SlideMove;
/** Block positions as cell indices (col + row × cols), in scene order. */
export type P1State = SlideState;

/** The shortest solution of a scene, proven by breadth-first search, with the number of shortest solutions. */
export function solveSliding(scene: P1Scene): SearchResult<P1State, P1Move> {
  return breadthFirst(slidingProblem(scene), { maxStates: 2_000_000 });
}

/** Moves as the agent's tool calls. */
export function movesToCalls(scene: P1Scene, moves: P1Move[]): ReferenceSolution['calls'] {
  return moves.map((m) => ({ tool: 'slide', args: { block: scene.blocks[m.block].id, direction: m.dir, cells: m.cells } }));
}

/** The reference solution: shortest by breadth-first search, with the count of shortest solutions. */
export function reference(instance: Instance<P1Scene>): ReferenceSolution {
  const r = solveSliding(instance.scene);
  if (!r.solvable) throw new Error(`P1 instance ${instance.id} has no solution`);
  return {
    calls: movesToCalls(instance.scene, r.moves),
    optimal: true,
    method: `breadth-first search over ${r.statesSearched} states (blocks of equal size interchangeable); shortest = ${r.length} slides, ${r.optimalCount} shortest solution${r.optimalCount === 1 ? '' : 's'}`,
  };
}

/**
 * The search's own word on the instance, for `verify` to check the reference against
 * (`TaskFamily.shortestSolutions`). Shortest solutions are counted as sequences of slides in the
 * search's states, where blocks of equal size are interchangeable.
 */
export function shortestSolutions(instance: Instance<P1Scene>): ShortestSolutions | null {
  const r = solveSliding(instance.scene);
  return r.solvable ? { length: r.length, count: r.optimalCount } : null;
}

/** A block's cells as a set of indices (for layout checks). */
export function cellsOf(b: P1Block, cols: number): number[] {
  const out: number[] = [];
  for (let r = 0; r < b.h; r++) for (let c = 0; c < b.w; c++) out.push((b.row + r) * cols + b.col + c);
  return out;
}
