/**
 * Rotation maths of polycube pieces: the 24 cube rotations as integer matrices, the quarter
 * turns about world axes the agent names, shortest turn lists, and exact quaternions, shared by
 * every family whose pieces are turned in quarter turns before they are lowered.
 */
import { SpaceActError } from '../../../core/errors.ts';
import type { Quat } from '../../../sim/types.ts';
import { rotate, rotations24, shapeKey, type Cell, type Rotation } from '../../../solvers/polycube.ts';
import { noNegativeZero } from '../../../core/determinism.ts';

/** A quarter turn about a world axis, as the agent names it. */
export type TurnName = 'x+' | 'x-' | 'y+' | 'y-' | 'z+' | 'z-';

/** Every quarter-turn name, in the fixed order searches use. */
export const TURN_NAMES: readonly TurnName[] = ['x+', 'x-', 'y+', 'y-', 'z+', 'z-'];

/** Longest turn list a `place` call accepts (every cube rotation needs at most this many). */
export const MAX_TURNS = 3;

/** Right-handed quarter turns about world axes, row-major `p' = M p`. */
const TURN_MATRICES: Record<TurnName, Rotation> = {
  'x+': [1, 0, 0, 0, 0, -1, 0, 1, 0],
  'x-': [1, 0, 0, 0, 0, 1, 0, -1, 0],
  'y+': [0, 0, 1, 0, 1, 0, -1, 0, 0],
  'y-': [0, 0, -1, 0, 1, 0, 1, 0, 0],
  'z+': [0, -1, 0, 1, 0, 0, 0, 0, 1],
  'z-': [0, 1, 0, -1, 0, 0, 0, 0, 1],
};

/** Matrix product `a · b` (apply `b` first). */
export function matMul(a: Rotation, b: Rotation): Rotation {
  const out = new Array<number>(9);
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) out[r * 3 + c] = noNegativeZero(a[r * 3] * b[c] + a[r * 3 + 1] * b[3 + c] + a[r * 3 + 2] * b[6 + c]);
  }
  return out as unknown as Rotation;
}

/** `M p` for an integer or real vector. */
export function matApply(m: Rotation, p: readonly number[]): [number, number, number] {
  return [
    noNegativeZero(m[0] * p[0] + m[1] * p[1] + m[2] * p[2]),
    noNegativeZero(m[3] * p[0] + m[4] * p[1] + m[5] * p[2]),
    noNegativeZero(m[6] * p[0] + m[7] * p[1] + m[8] * p[2]),
  ];
}

/** The inverse of a cube rotation (its transpose). */
export function transpose(m: Rotation): Rotation {
  return [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]];
}

/** The 24 rotations, identity first (the toolkit's order); an orientation is an index into it. */
export const ROTATIONS: readonly Rotation[] = rotations24();

function rotKey(m: Rotation): string {
  return m.join(',');
}

const ROTATION_INDEX = new Map(ROTATIONS.map((m, i) => [rotKey(m), i]));

/** Index of a rotation matrix in {@link ROTATIONS}. */
export function rotationIndex(m: Rotation): number {
  const i = ROTATION_INDEX.get(rotKey(m));
  if (i === undefined) throw new Error(`not a cube rotation: ${rotKey(m)}`);
  return i;
}

/** The rotation a list of quarter turns makes, each about a fixed world axis, first turn first. */
export function turnsMatrix(turns: readonly TurnName[]): Rotation {
  let m = ROTATIONS[0];
  for (const t of turns) m = matMul(TURN_MATRICES[t], m);
  return m;
}

/**
 * For every rotation, a shortest list of quarter turns that makes it (breadth-first over the
 * turn names in their fixed order, so ties always resolve the same way).
 */
export const SHORTEST_TURNS: readonly TurnName[][] = (() => {
  const best: (TurnName[] | null)[] = ROTATIONS.map(() => null);
  best[0] = [];
  let frontier: TurnName[][] = [[]];
  while (frontier.length) {
    const next: TurnName[][] = [];
    for (const seq of frontier) {
      for (const t of TURN_NAMES) {
        const s = [...seq, t];
        const i = rotationIndex(turnsMatrix(s));
        if (best[i] === null) {
          best[i] = s;
          next.push(s);
        }
      }
    }
    frontier = next;
  }
  if (best.some((b) => b === null || b.length > MAX_TURNS)) throw new Error('quarter turns do not reach every rotation within MAX_TURNS');
  return best as TurnName[][];
})();

/**
 * The shortest turn list that carries a piece's table cells onto `target` cells (same shape
 * and orientation, any translation), with its rotation index.
 */
export function turnsOnto(tableCells: readonly Cell[], target: readonly Cell[]): { rotation: number; turns: TurnName[] } {
  const want = shapeKey(target);
  let best = -1;
  ROTATIONS.forEach((m, r) => {
    if (shapeKey(rotate(tableCells, m)) !== want) return;
    if (best < 0 || SHORTEST_TURNS[r].length < SHORTEST_TURNS[best].length) best = r;
  });
  if (best < 0) throw new SpaceActError('invalid-state', 'a piece does not match the cells the packing gives it');
  return { rotation: best, turns: SHORTEST_TURNS[best].slice() };
}

/**
 * The unit quaternion of a rotation matrix, snapped to the exact values a cube rotation has
 * (0, ±½, ±√½, ±1), so poses carry no float noise from the conversion.
 */
export function matToQuat(m: Rotation): Quat {
  const [m00, m01, m02, m10, m11, m12, m20, m21, m22] = m;
  const tr = m00 + m11 + m22;
  let q: Quat;
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2;
    q = [(m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, 0.25 * s];
  } else if (m00 > m11 && m00 > m22) {
    const s = Math.sqrt(1 + m00 - m11 - m22) * 2;
    q = [0.25 * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s];
  } else if (m11 > m22) {
    const s = Math.sqrt(1 + m11 - m00 - m22) * 2;
    q = [(m01 + m10) / s, 0.25 * s, (m12 + m21) / s, (m02 - m20) / s];
  } else {
    const s = Math.sqrt(1 + m22 - m00 - m11) * 2;
    q = [(m02 + m20) / s, (m12 + m21) / s, 0.25 * s, (m10 - m01) / s];
  }
  const snap = (v: number): number => {
    for (const c of [0, 0.5, Math.SQRT1_2, 1]) {
      if (Math.abs(Math.abs(v) - c) < 1e-6) return c === 0 ? 0 : Math.sign(v) * c;
    }
    return v;
  };
  // A canonical sign (first non-zero component positive) so equal rotations give equal quaternions.
  const snapped = q.map(snap) as Quat;
  const lead = snapped.find((v) => v !== 0)!;
  return (lead < 0 ? snapped.map((v) => noNegativeZero(-v)) : snapped) as Quat;
}
