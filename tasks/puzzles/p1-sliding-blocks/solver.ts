/**
 * P1 solver: the sliding-block puzzle as a search problem for the discrete-puzzle kit. A state
 * is the north-west cell of every block; a move slides one block 1 or more cells in one
 * straight direction through empty cells. Blocks of the same size (other than the target) are
 * interchangeable, so a state's key names cells by block size only.
 */
import { breadthFirst, type SearchProblem, type SearchResult } from '../../../solvers/discrete-search/index.ts';
import { DIRECTION_STEP, TRAY_DIRECTIONS, type TrayDirection } from '../../kits/grid-tray.ts';
import type { Instance, ReferenceSolution } from '../../types.ts';
import type { P1Block, P1Scene } from './scene.ts';

/** One slide: block index, direction, cells. */
export interface P1Move {
  block: number;
  dir: TrayDirection;
  cells: number;
}

/** Block positions as cell indices (col + row × cols), in scene order. */
export type P1State = number[];

/** The puzzle of a scene from a given state (default: the scene's own start). */
export function slidingProblem(scene: Pick<P1Scene, 'cols' | 'rows' | 'blocks' | 'goal'>, start?: P1State): SearchProblem<P1State, P1Move> {
  const { cols, rows, blocks } = scene;
  const goalIndex = scene.goal.col + scene.goal.row * cols;
  // Key: one character per cell, naming the size of the block whose north-west corner is there
  // (1 the target, then one code per other size); equal-sized blocks are interchangeable.
  const sizes: string[] = [];
  const sizeCode = blocks.map((b, i) => {
    if (i === 0) return 1;
    const k = `${b.w}x${b.h}`;
    if (!sizes.includes(k)) sizes.push(k);
    return 2 + sizes.indexOf(k);
  });
  const keyCells = new Uint16Array(cols * rows);
  const occupancy = (s: P1State): Int8Array => {
    const g = new Int8Array(cols * rows).fill(-1);
    s.forEach((p, i) => {
      const c0 = p % cols;
      const r0 = (p - c0) / cols;
      for (let r = 0; r < blocks[i].h; r++) for (let c = 0; c < blocks[i].w; c++) g[(r0 + r) * cols + c0 + c] = i;
    });
    return g;
  };
  return {
    start: start ?? blocks.map((b) => b.col + b.row * cols),
    key(s) {
      keyCells.fill(48);
      for (let i = 0; i < s.length; i++) keyCells[s[i]] = 48 + sizeCode[i];
      return String.fromCharCode(...keyCells);
    },
    isGoal: (s) => s[0] === goalIndex,
    *successors(s) {
      const g = occupancy(s);
      for (let i = 0; i < s.length; i++) {
        const b = blocks[i];
        const c0 = s[i] % cols;
        const r0 = (s[i] - c0) / cols;
        for (const dir of TRAY_DIRECTIONS) {
          const [dc, dr] = DIRECTION_STEP[dir];
          for (let n = 1; ; n++) {
            // The leading edge's new cells must be inside and empty.
            const c = c0 + dc * n;
            const r = r0 + dr * n;
            if (c < 0 || r < 0 || c + b.w > cols || r + b.h > rows) break;
            let free = true;
            if (dc !== 0) {
              const edge = dc > 0 ? c + b.w - 1 : c;
              for (let k = 0; k < b.h && free; k++) if (g[(r + k) * cols + edge] >= 0 && g[(r + k) * cols + edge] !== i) free = false;
            } else {
              const edge = dr > 0 ? r + b.h - 1 : r;
              for (let k = 0; k < b.w && free; k++) if (g[edge * cols + c + k] >= 0 && g[edge * cols + c + k] !== i) free = false;
            }
            if (!free) break;
            const next = s.slice();
            next[i] = c + r * cols;
            yield [{ block: i, dir, cells: n }, next] as const;
          }
        }
      }
    },
  };
}

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

/** A block's cells as a set of indices (for layout checks). */
export function cellsOf(b: P1Block, cols: number): number[] {
  const out: number[] = [];
  for (let r = 0; r < b.h; r++) for (let c = 0; c < b.w; c++) out.push((b.row + r) * cols + b.col + c);
  return out;
}
