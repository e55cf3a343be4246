/**
 * P5 pocket cube: what an instance carries (see README.md for every field), the cube's geometry
 * and the face conventions shared by the generator, the episode and the solver.
 */
import type { Vec3 } from '../../../sim/types.ts';

/** Parameters a P5 world is built from. */
export interface P5Scene {
  /**
   * The scramble that leads from solved to the start, as face turns of U, R and F (`U` a
   * clockwise quarter turn seen from outside, `U2` a half turn, `U'` anticlockwise).
   */
  scramble: string[];
  /** The start's exact distance from solved: half-turn metric and quarter-turn metric. */
  distance: { htm: number; qtm: number };
  /** Whether the second picture shows the bottom (L1–L5) or not (L7: the D face only by turning the camera). */
  bottomView: boolean;
}

/** The six faces, their outward directions (U up, F toward the first camera, R to its right). */
export const FACE_DIRS: Record<'U' | 'D' | 'R' | 'L' | 'F' | 'B', Vec3> = {
  U: [0, 1, 0],
  D: [0, -1, 0],
  R: [1, 0, 0],
  L: [-1, 0, 0],
  F: [0, 0, 1],
  B: [0, 0, -1],
};
export type Face = keyof typeof FACE_DIRS;
export const FACES: Face[] = ['U', 'D', 'R', 'L', 'F', 'B'];

/** Sticker colours of the solved cube, by face (the usual scheme). */
export const FACE_COLORS: Record<Face, string> = { U: '#f4f6f7', D: '#f1c40f', F: '#27ae60', B: '#2471a3', R: '#c0392b', L: '#e67e22' };

/** Home positions of the eight corner cubies (Kociemba's order: URF UFL ULB UBR DFR DLF DBL DRB), as ±1 per axis. */
export const HOME: Vec3[] = [
  [1, 1, 1],
  [-1, 1, 1],
  [-1, 1, -1],
  [1, 1, -1],
  [1, -1, 1],
  [-1, -1, 1],
  [-1, -1, -1],
  [1, -1, -1],
];
/** The faces of each corner slot in Kociemba's order (the first is U or D): a corner's twist is the index of its U/D sticker here. */
export const SLOT_FACES: Face[][] = [
  ['U', 'R', 'F'],
  ['U', 'F', 'L'],
  ['U', 'L', 'B'],
  ['U', 'B', 'R'],
  ['D', 'F', 'R'],
  ['D', 'L', 'F'],
  ['D', 'B', 'L'],
  ['D', 'R', 'B'],
];
export const CUBIE_NAMES = ['URF', 'UFL', 'ULB', 'UBR', 'DFR', 'DLF', 'DBL', 'DRB'];

/** Edge of one cubie, m. */
export const CUBIE = 0.03;
/** Gap between neighbouring cubies, m. */
export const GAP = 0.0015;
/** Centre of the cube, m. */
export const CENTRE: Vec3 = [0, 0.2, 0];
