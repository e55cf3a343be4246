/**
 * Draws a rotated-copy table (V3): a reference part on a plinth and lettered candidates in a row
 * before it, exactly one a proper rotation of the reference, the others near misses (its mirror
 * image, its cubes with one moved). Pure: every choice comes from the given stream.
 */
import type { CameraSpec } from '../../../render/camera-spec.ts';
import { certifyRotatedCopy, closeNearMiss, mirrorCells, oneCubeMoves, properKey, smallestTurn } from '../../../solvers/polycube-chirality.ts';
import { normalize, type Cell } from '../../../solvers/polycube.ts';
import type { Rng } from '../../../core/rng.ts';
import { finishTable } from '../../kits/part-sight/table-question.ts';
import { consistentPlacement, oneCubeMovesInPlace } from '../../kits/part-sight/alternatives.ts';
import { HIDING_WALL, searchWall, WALL_TRIES } from '../../kits/part-sight/walls.ts';
import type { SolidBox } from '../../kits/part-sight/parts.ts';
import { readRotatedCopy, type RotatedCopyReading } from '../../kits/part-sight/readings.ts';
import { chiralPool, standingPoses } from '../../kits/part-sight/shape-pool.ts';
import {
  footprintRadius,
  frameCamera,
  PLATE_SIDE,
  plateFor,
  r9,
  type TableLayout,
  type TablePart,
  type TableScene,
  type Wall,
} from '../../kits/part-sight/table-scene.ts';

/** How the copy is turned from the reference. */
export type CopyTurn = 'yaw' | 'tip' | 'any';

/** What a tier asks of a rotated-copy table. */
export interface RotatedCopyPlan {
  candidates: number;
  cubes: number;
  /**
   * `yaw`: the copy stands on the same face as the reference, turned about the vertical by 60° or
   * more; `tip`: it stands on another face (the smallest turn is 90° or more about a tilted axis);
   * `any`: the smallest turn is 120° or more about an axis tilted 30° or more from the vertical.
   */
  turn: CopyTurn;
  /** One-cube near misses besides the mirror image. */
  moved: number;
  /** Every one-cube near miss keeps the reference's bounding box and neighbour counts. */
  closeMoves: boolean;
  /** Near misses stand as the reference does (same face, with the cube moved or mirrored in place). */
  sameFace: boolean;
  /** First camera elevation range, degrees. */
  elevation: [number, number];
  /** Every candidate gets a wall searched so that the first view leaves it in doubt (`+occ`). */
  hideEvery: boolean;
  /** Elevation range the camera tools allow, degrees. */
  elevationRange: [number, number];
}

/** Plinth height under the reference, and the candidates' row and pitch, metres. */
export const PLINTH_HEIGHT = 0.06;
const REFERENCE_Z = -0.16;
const ROW_Z = 0.16;
const COL_PITCH = 0.2;
const PLATE_AHEAD = 0.07;
const TURN_TRIES = 40;


/** A drawn rotated-copy table and what its first view shows. */
export interface RotatedCopyDraw {
  scene: TableScene;
  /** Index (among the candidates) of the copy. */
  copy: number;
  /** The smallest turn from the reference to the copy as they stand. */
  turn: { angleDeg: number; axisTiltDeg: number };
  /** How each candidate was made. */
  made: Array<'copy' | 'mirror' | 'moved'>;
  camera: CameraSpec;
  /** What the first view leaves open (read only at tiers that hide things). */
  firstView: RotatedCopyReading | null;
}

/** Whether a smallest turn meets the plan. */
function turnFits(turn: CopyTurn, t: { angleDeg: number; axisTiltDeg: number }): boolean {
  if (turn === 'yaw') return t.axisTiltDeg < 1e-6 && t.angleDeg >= 60 - 1e-9;
  if (turn === 'tip') return t.axisTiltDeg > 1 && t.angleDeg >= 90 - 1e-9;
  return t.axisTiltDeg >= 30 && t.angleDeg >= 120 - 1e-9;
}

/**
 * One draw: a table with the copy at candidate index `copy`, or a string saying why this draw
 * failed (the caller re-draws). The reference is part 0 (letter R); candidates follow.
 */
export function drawRotatedCopy(rng: Rng, plan: RotatedCopyPlan, copy: number, letters: string): RotatedCopyDraw | string {
  const shape = rng.pick(chiralPool(plan.cubes));
  const mirror = mirrorCells(shape);
  const refPose = rng.pick(standingPoses(shape));
  const refYaw = rng.int(0, 359);
  // The copy: a pose and turn on the table that meet the tier's turn.
  let copyPlace: { cells: Cell[]; yawDeg: number } | null = null;
  let turn = { angleDeg: 0, axisTiltDeg: 0 };
  for (let t = 0; t < TURN_TRIES && !copyPlace; t++) {
    const cells = plan.turn === 'yaw' ? refPose : rng.pick(standingPoses(shape).filter((p) => p.join() !== refPose.join()));
    const yawDeg = rng.int(0, 359);
    const st = smallestTurn({ cells: refPose, yawDeg: refYaw }, { cells, yawDeg });
    if (st && turnFits(plan.turn, st)) {
      copyPlace = { cells, yawDeg };
      turn = { angleDeg: r9(Math.round(st.angleDeg * 1e6) / 1e6), axisTiltDeg: r9(Math.round(st.axisTiltDeg * 1e6) / 1e6) };
    }
  }
  if (!copyPlace) return `no pose of the copy turns as the tier asks (${plan.turn})`;
  // Near misses: the mirror image, and shapes with one cube moved.
  const movedShapes = rng.shuffle(oneCubeMoves(shape).filter((m) => !plan.closeMoves || closeNearMiss(shape, m)));
  if (movedShapes.length < plan.moved) return `only ${movedShapes.length} one-cube near misses qualify`;
  const misses: Array<{ made: 'mirror' | 'moved'; cells: Cell[] }> = [];
  misses.push({ made: 'mirror', cells: plan.sameFace ? mirrorCells(refPose) : rng.pick(standingPoses(mirror)) });
  if (plan.sameFace) {
    const inPlace = rng.shuffle(
      oneCubeMovesInPlace(refPose).filter((m) => {
        const k = properKey(normalize(m));
        return k !== properKey(shape) && k !== properKey(mirror);
      }),
    );
    const keys = new Set<string>();
    for (const m of inPlace) {
      if (misses.length > plan.moved) break;
      const k = properKey(normalize(m));
      if (keys.has(k) || (plan.closeMoves && !closeNearMiss(shape, m))) continue;
      keys.add(k);
      misses.push({ made: 'moved', cells: normalize(m) });
    }
    if (misses.length < plan.moved + 1) return 'too few one-cube moves stand as the reference does';
  } else {
    for (const m of movedShapes.slice(0, plan.moved)) misses.push({ made: 'moved', cells: rng.pick(standingPoses(m)) });
  }
  const order = rng.shuffle(misses);
  const made: Array<'copy' | 'mirror' | 'moved'> = [];
  const candidates: TablePart[] = [];
  for (let i = 0; i < plan.candidates; i++) {
    const x = (i - (plan.candidates - 1) / 2) * COL_PITCH + rng.range(-0.012, 0.012);
    const z = ROW_Z + rng.range(-0.012, 0.012);
    if (i === copy) {
      made.push('copy');
      candidates.push({ letter: letters[i], cells: copyPlace.cells, yawDeg: copyPlace.yawDeg, at: [r9(x), r9(z)], base: 0 });
    } else {
      const m = order.shift()!;
      made.push(m.made);
      candidates.push({ letter: letters[i], cells: m.cells, yawDeg: rng.int(0, 359), at: [r9(x), r9(z)], base: 0 });
    }
  }
  certifyRotatedCopy(refPose, candidates.map((c) => c.cells));
  const reference: TablePart = { letter: 'R', cells: refPose, yawDeg: refYaw, at: [0, REFERENCE_Z], base: PLINTH_HEIGHT };
  const parts = [reference, ...candidates];
  const azimuth = rng.int(-20, 20);
  const plates = parts.map((p) => plateFor(p, footprintRadius(p.cells) + PLATE_AHEAD + PLATE_SIDE / 2, azimuth));
  const stands = [plinthUnder(reference, plates[0])];
  const layout = (walls: Wall[]): TableLayout => ({ parts, stands, walls, plates });
  const camera = frameCamera(layout([]), azimuth, rng.int(plan.elevation[0], plan.elevation[1]), 0.9, plan.hideEvery ? 0.05 : 0);
  const walls: Wall[] = [];
  if (plan.hideEvery) {
    for (let i = 0; i < candidates.length; i++) {
      // Every candidate alike: the first view must not tell it from its own mirror image.
      const wall = searchWall(rng, layout(walls), i + 1, camera, HIDING_WALL, (sight) => consistentPlacement(sight, camera, 0, mirrorCells(candidates[i].cells)) !== null);
      if (!wall) return `no wall among ${WALL_TRIES} hides the hand of candidate ${letters[i]}`;
      walls.push(wall);
    }
  }
  const done = finishTable(layout(walls), camera, plan.elevationRange);
  if (typeof done === 'string') return done;
  const { scene, sight } = done;
  // Read only where the tier hides things: elsewhere the first view may show everything.
  const firstView = plan.hideEvery ? readRotatedCopy(sight, camera, refPose, candidates.map((_, i) => i + 1), copy) : null;
  if (firstView && firstView.answers.length < 2) return 'the first view decides the question';
  return { scene, copy, turn, made, camera, firstView };
}

/** The plinth under the reference and its letter stand. */
function plinthUnder(reference: TablePart, plate: { at: [number, number] }): SolidBox {
  const r = footprintRadius(reference.cells);
  const x0 = Math.min(reference.at[0] - r - 0.03, plate.at[0] - PLATE_SIDE / 2 - 0.015);
  const x1 = Math.max(reference.at[0] + r + 0.03, plate.at[0] + PLATE_SIDE / 2 + 0.015);
  const z0 = reference.at[1] - r - 0.03;
  const z1 = Math.max(reference.at[1] + r + 0.03, plate.at[1] + PLATE_SIDE / 2 + 0.015);
  return { half: [r9((x1 - x0) / 2), PLINTH_HEIGHT / 2, r9((z1 - z0) / 2)], pose: { p: [r9((x0 + x1) / 2), PLINTH_HEIGHT / 2, r9((z0 + z1) / 2)], q: [0, 0, 0, 1] } };
}
