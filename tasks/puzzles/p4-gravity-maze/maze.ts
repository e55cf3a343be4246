/**
 * The gravity maze as a discrete puzzle: the cube's orientation (one of the 24 rotations that
 * map the cube onto itself, as integer matrices) and the ball's cell. A turn rotates the cube
 * 90° about a world axis; the ball then falls along the world's down direction, read in the
 * cube's frame, through open cells until a block or the shell stops it — or out through the
 * exit hole when that face points down. The episode's world does the same physically; this
 * model is what the search proves the optimum over.
 */
import type { SearchProblem } from '../../../solvers/discrete-search/index.ts';
import type { MazeCell, MazeFace, P4Scene } from './scene.ts';

/** A 3×3 integer rotation matrix, row-major: world = M · cube. */
export type Mat3 = readonly number[];
type V3 = [number, number, number];

/** The six actions: four tilts (the cube's top goes toward that side) and two spins (seen from above). */
export type MazeMove = 'tilt north' | 'tilt east' | 'tilt south' | 'tilt west' | 'spin clockwise' | 'spin anticlockwise';
export const MAZE_MOVES: readonly MazeMove[] = ['tilt north', 'tilt east', 'tilt south', 'tilt west', 'spin clockwise', 'spin anticlockwise'];

/** Each move as a turn about a world axis through the cube's centre, right-handed, degrees. */
export const MOVE_TURN: Record<MazeMove, { axis: V3; angleDeg: number }> = {
  // +90° about +x takes the top (+y) to the south (+z).
  'tilt north': { axis: [1, 0, 0], angleDeg: -90 },
  'tilt south': { axis: [1, 0, 0], angleDeg: 90 },
  // +90° about +z takes the top to the west (−x).
  'tilt east': { axis: [0, 0, 1], angleDeg: -90 },
  'tilt west': { axis: [0, 0, 1], angleDeg: 90 },
  // Seen from above (looking down −y), a positive turn about +y is anticlockwise.
  'spin clockwise': { axis: [0, 1, 0], angleDeg: -90 },
  'spin anticlockwise': { axis: [0, 1, 0], angleDeg: 90 },
};

/** The integer matrix of a quarter turn about a coordinate axis. */
export function quarterTurn(axis: V3, angleDeg: number): Mat3 {
  const s = angleDeg > 0 ? 1 : -1;
  if (axis[0]) return [1, 0, 0, 0, 0, -s, 0, s, 0];
  if (axis[1]) return [0, 0, s, 0, 1, 0, -s, 0, 0];
  return [0, -s, 0, s, 0, 0, 0, 0, 1];
}

export function mul(a: Mat3, b: Mat3): Mat3 {
  const out: number[] = [];
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) out.push(a[r * 3] * b[c] + a[r * 3 + 1] * b[3 + c] + a[r * 3 + 2] * b[6 + c]);
  return out;
}

export const IDENTITY: Mat3 = [1, 0, 0, 0, 1, 0, 0, 0, 1];
const MOVE_MATRIX = MAZE_MOVES.map((m) => quarterTurn(MOVE_TURN[m].axis, MOVE_TURN[m].angleDeg));

/** The 24 orientations, identity first, in the order a breadth-first closure under the moves finds them. */
export const ORIENTATIONS: readonly Mat3[] = (() => {
  const list: Mat3[] = [IDENTITY];
  const seen = new Set([IDENTITY.join(',')]);
  for (let i = 0; i < list.length; i++) {
    for (const m of MOVE_MATRIX) {
      const n = mul(m, list[i]);
      const k = n.join(',');
      if (!seen.has(k)) {
        seen.add(k);
        list.push(n);
      }
    }
  }
  return list;
})();
const ORIENTATION_INDEX = new Map(ORIENTATIONS.map((m, i) => [m.join(','), i]));

/** Index of an orientation matrix among the 24. */
export function orientationIndex(m: Mat3): number {
  const i = ORIENTATION_INDEX.get(m.map((x) => x + 0).join(','));
  if (i === undefined) throw new Error(`not a cube rotation: ${m.join(',')}`);
  return i;
}

/** TURN[o][k]: the orientation after move k from orientation o. */
const TURN: number[][] = ORIENTATIONS.map((o) => MOVE_MATRIX.map((m) => orientationIndex(mul(m, o))));

/** The world's down direction in the cube's frame for orientation o: Mᵀ·(0, −1, 0). */
export function downInCube(o: Mat3): V3 {
  return [-o[3], -o[4], -o[5]];
}

export const FACE_NORMAL: Record<MazeFace, V3> = { up: [0, 1, 0], down: [0, -1, 0], north: [0, 0, -1], south: [0, 0, 1], east: [1, 0, 0], west: [-1, 0, 0] };

/** A maze position: orientation index, and the ball's cell index (x + 4z + 16y), or EXITED. */
export interface MazeState {
  o: number;
  cell: number;
}
export const EXITED = -1;

/** The parsed maze: which cells are solid, and the exit. */
export interface Maze {
  size: number;
  solid: boolean[];
  exitCell: number;
  exitNormal: V3;
}

export function cellIndex(c: MazeCell, size = 4): number {
  return c.x + size * c.z + size * size * c.y;
}
export function cellOf(i: number, size = 4): MazeCell {
  return { x: i % size, z: Math.floor(i / size) % size, y: Math.floor(i / (size * size)) };
}

export function parseMaze(scene: Pick<P4Scene, 'size' | 'layers' | 'exit'>): Maze {
  const n = scene.size;
  const solid: boolean[] = new Array(n * n * n).fill(false);
  for (let y = 0; y < n; y++) for (let z = 0; z < n; z++) for (let x = 0; x < n; x++) solid[cellIndex({ x, y, z }, n)] = scene.layers[y][z][x] === '#';
  return { size: n, solid, exitCell: cellIndex(scene.exit, n), exitNormal: FACE_NORMAL[scene.exit.face] };
}

/** Where the ball comes to rest falling from `cell` along `down` (cube frame), or EXITED. */
export function fall(maze: Maze, cell: number, down: V3): number {
  const n = maze.size;
  let c = cellOf(cell, n);
  for (;;) {
    const i = cellIndex(c, n);
    if (i === maze.exitCell && down[0] === maze.exitNormal[0] && down[1] === maze.exitNormal[1] && down[2] === maze.exitNormal[2]) return EXITED;
    const next = { x: c.x + down[0], y: c.y + down[1], z: c.z + down[2] };
    if (next.x < 0 || next.y < 0 || next.z < 0 || next.x >= n || next.y >= n || next.z >= n) return i;
    if (maze.solid[cellIndex(next, n)]) return i;
    c = next;
  }
}

/** The move k from a state. */
export function applyMove(maze: Maze, s: MazeState, k: number): MazeState {
  const o = TURN[s.o][k];
  return { o, cell: fall(maze, s.cell, downInCube(ORIENTATIONS[o])) };
}

/** The puzzle as a search problem: start at `start` (default the scene's ball in the identity orientation). */
export function mazeProblem(maze: Maze, start: MazeState): SearchProblem<MazeState, MazeMove> {
  return {
    start,
    key: (s) => (s.cell === EXITED ? -1 : s.o * 64 + s.cell),
    isGoal: (s) => s.cell === EXITED,
    *successors(s) {
      if (s.cell === EXITED) return;
      for (let k = 0; k < MAZE_MOVES.length; k++) yield [MAZE_MOVES[k], applyMove(maze, s, k)] as const;
    },
  };
}
