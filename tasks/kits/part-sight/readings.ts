/**
 * What one view lets a careful viewer conclude about the mental-rotation questions: for each part,
 * which kinds of shape it could still be without the picture changing, and from that, which
 * answers the view leaves open. A view "decides" a question when exactly one answer is left.
 *
 * The viewer is assumed to know the shape in question (the reference, or the shape the copies
 * share), that every part stands on the table in one of its stable poses, and the rules (exactly
 * one odd part, exactly one rotated copy); alternatives are searched in each part's own grid and
 * turn on the table, which is what a picture leaves most in doubt.
 */
import type { CameraSpec } from '../../../render/camera-spec.ts';
import { mirrorCells, properlyCongruent } from '../../../solvers/polycube-chirality.ts';
import type { Cell } from '../../../solvers/polycube.ts';
import { consistentPlacement, oneCubeMovesInPlace } from './alternatives.ts';
import type { PartsSight } from './parts.ts';

/** The answers an odd-one-out question leaves open, given which hands each part may have (0 = the shape, 1 = its mirror image). */
export function oddOneOutAnswers(hands: ReadonlyArray<readonly number[]>): number[] {
  const answers = new Set<number>();
  const pick: number[] = [];
  const walk = (i: number): void => {
    if (i === hands.length) {
      const ones = pick.filter((h) => h === 1).length;
      // Exactly one part differs from all the others.
      if (ones === 1) answers.add(pick.indexOf(1));
      else if (ones === pick.length - 1) answers.add(pick.indexOf(0));
      return;
    }
    for (const h of hands[i]) {
      pick.push(h);
      walk(i + 1);
      pick.pop();
    }
  };
  walk(0);
  return [...answers].sort((a, b) => a - b);
}

/** What one view leaves open in an odd-one-out question. */
export interface OddOneOutReading {
  /** Parts whose hand (copy or mirror image) the view cannot tell. */
  ambiguous: number[];
  /** The odd part's possible indices; one entry when the view decides the question. */
  answers: number[];
}

/**
 * Reads an odd-one-out scene from one view: `shape` is the copies' shape, `odd` the true odd
 * part (used only to know each part's own hand; the other hand is searched for).
 * `parts` limits which parts are searched (the others count as told), e.g. to stop early.
 */
export function readOddOneOut(sight: PartsSight, camera: CameraSpec, shape: readonly Cell[], odd: number, parts?: readonly number[]): OddOneOutReading {
  const mirror = mirrorCells(shape);
  const hands = sight.parts.map((_, i) => {
    const own = i === odd ? 1 : 0;
    if (parts && !parts.includes(i)) return [own];
    const other = own === 1 ? shape : mirror;
    return consistentPlacement(sight, camera, i, other) ? [0, 1] : [own];
  });
  return { ambiguous: hands.flatMap((h, i) => (h.length > 1 ? [i] : [])), answers: oddOneOutAnswers(hands) };
}

/** What one view leaves open in a rotated-copy question. */
export interface RotatedCopyReading {
  /** Candidates that could be a rotated copy of the reference as far as the view shows. */
  couldBeCopy: number[];
  /** Whether the true copy could, as far as the view shows, be something else (a mirror image, or a cube moved). */
  copyInDoubt: boolean;
  /** The candidates the view leaves possible as the answer; one entry when it decides the question. */
  answers: number[];
}

/**
 * Whether one view leaves a candidate in doubt: a candidate that is not a copy could be one (a
 * placement of the reference fits the picture), or the copy could be something else (a
 * placement of the mirror image, or of its own cells with one cube moved, fits the picture).
 */
export function candidateInDoubt(sight: PartsSight, camera: CameraSpec, pi: number, reference: readonly Cell[], isCopy: boolean): boolean {
  if (!isCopy) return consistentPlacement(sight, camera, pi, reference) !== null;
  if (consistentPlacement(sight, camera, pi, mirrorCells(reference)) !== null) return true;
  for (const moved of oneCubeMovesInPlace(sight.parts[pi].cells)) {
    if (properlyCongruent(moved, reference)) continue;
    if (placementConsistent(sight, camera, pi, moved)) return true;
  }
  return false;
}

/**
 * Reads a rotated-copy scene from one view. `candidates` are the part indices of the candidates
 * in letter order, `copy` the index (into `candidates`) of the true copy.
 */
export function readRotatedCopy(sight: PartsSight, camera: CameraSpec, reference: readonly Cell[], candidates: readonly number[], copy: number): RotatedCopyReading {
  const couldBeCopy = candidates.flatMap((pi, i) => (i === copy || candidateInDoubt(sight, camera, pi, reference, false) ? [i] : []));
  const copyInDoubt = candidateInDoubt(sight, camera, candidates[copy], reference, true);
  // With the true copy beyond doubt, it is the answer; otherwise any candidate that could be a copy may be.
  const answers = copyInDoubt ? couldBeCopy : [copy];
  return { couldBeCopy, copyInDoubt, answers };
}

/** Whether part `pi` could have exactly the cells `cells` (its grid) as far as `camera` shows. */
function placementConsistent(sight: PartsSight, camera: CameraSpec, pi: number, cells: Cell[]): boolean {
  const want = cells.map((c) => c.join(',')).sort().join(';');
  return consistentPlacement(sight, camera, pi, cells, (c) => c.map((x) => x.join(',')).sort().join(';') === want) !== null;
}
