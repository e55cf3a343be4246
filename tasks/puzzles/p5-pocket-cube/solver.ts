/**
 * P5 solver: the exact distance table of the whole pocket cube (`solvers/discrete-search`,
 * breadth-first over all 3,674,160 positions in both metrics). A shortest solution is read off
 * the table and the number of shortest solutions counted; the table also certifies the start's
 * distance in the half-turn and the quarter-turn metric.
 */
import { applyTurn, solvedCube, solvePocketCube, type CubeFace, type CubeTurn, type PocketCubeState } from '../../../solvers/discrete-search/index.ts';
import type { Instance, ReferenceSolution, ShortestSolutions } from '../../types.ts';
import type { P5Scene } from './scene.ts';

/** A turn in the usual notation: `R`, `R2`, `R'`. */
export function turnName(t: CubeTurn): string {
  return `${t.face}${t.quarters === 1 ? '' : t.quarters === 2 ? '2' : "'"}`;
}

/** The turn a name stands for. */
export function parseTurn(name: string): CubeTurn {
  const face = name[0] as CubeFace;
  const quarters = name.endsWith('2') ? 2 : name.endsWith("'") ? 3 : 1;
  return { face, quarters };
}

/** The start position: the scramble applied to the solved cube. */
export function startState(scene: P5Scene): PocketCubeState {
  return scene.scramble.map(parseTurn).reduce((s, t) => applyTurn(s, t), solvedCube());
}

/** A turn as the agent's tool call: clockwise 90, half 180, anticlockwise −90. */
export function turnCall(t: CubeTurn): { tool: string; args: Record<string, unknown> } {
  return { tool: 'turn', args: { face: t.face, angle: t.quarters === 1 ? 90 : t.quarters === 2 ? 180 : -90 } };
}

/** The reference solution: shortest in the half-turn metric, from the exact table. */
export function reference(instance: Instance<P5Scene>): ReferenceSolution {
  const s = startState(instance.scene);
  const htm = solvePocketCube(s, 'htm');
  const qtm = solvePocketCube(s, 'qtm');
  return {
    calls: htm.turns.map(turnCall),
    optimal: true,
    method: `exact distance table of all 3,674,160 positions (breadth-first, one corner fixed): ${htm.length} turns in the half-turn metric (${htm.optimalCount} shortest solutions), ${qtm.length} in the quarter-turn metric (${qtm.optimalCount})`,
  };
}

/** The exact table's word on the instance in the half-turn metric the reference is optimal in (`TaskFamily.shortestSolutions`). */
export function shortestSolutions(instance: Instance<P5Scene>): ShortestSolutions | null {
  const htm = solvePocketCube(startState(instance.scene), 'htm');
  return { length: htm.length, count: htm.optimalCount };
}
