/**
 * Draws a chiral odd-one-out table (V2): lettered parts that are all proper rotations of one
 * chiral shape but one, its mirror image, and the walls the tier asks for (none, low ones drawn
 * at random, or ones searched so that the first view cannot tell any part from its mirror
 * image). Pure: every choice comes from the given stream.
 */
import type { CameraSpec } from '../../../render/camera-spec.ts';
import { certifyOddOneOut, mirrorCells } from '../../../solvers/polycube-chirality.ts';
import type { Cell } from '../../../solvers/polycube.ts';
import type { Rng } from '../../../core/rng.ts';
import { finishTable } from '../../kits/part-sight/table-question.ts';
import { consistentPlacement } from '../../kits/part-sight/alternatives.ts';
import { HIDING_WALL, LOW_WALL, searchWall, WALL_TRIES } from '../../kits/part-sight/walls.ts';
import { readOddOneOut, type OddOneOutReading } from '../../kits/part-sight/readings.ts';
import { chiralPool, standingPoses } from '../../kits/part-sight/shape-pool.ts';
import type { LetterPlate } from '../../kits/part-sight/letters.ts';
import type { PartsSight, SolidBox } from '../../kits/part-sight/parts.ts';
import {
  PLATE_SIDE,
  type TableLayout,
  footprintRadius,
  frameCamera,
  plateFor,
  r9,
  type TablePart,
  type TableScene,
  type Wall,
} from '../../kits/part-sight/table-scene.ts';

/** What a tier asks of an odd-one-out table. */
export interface OddOneOutPlan {
  parts: number;
  cubes: number;
  /** Every part stands on the same face of the shape (its copies differ only by a turn about the vertical). */
  sameFace: boolean;
  /** First camera elevation range, degrees. */
  elevation: [number, number];
  /**
   * Walls in front of the parts: `none`; `low`, one low wall before every part, drawn at random
   * (they hide the lowest layer from low views); `hiding` (`+occ`), one wall before every part,
   * searched so that the first view cannot tell that part from its mirror image. Every part gets
   * the same treatment, so where the walls stand says nothing about the answer.
   */
  walls: 'none' | 'low' | 'hiding';
  /** Elevation range the camera tools allow, degrees. */
  elevationRange: [number, number];
}

/** Column pitch, and the z of the back and front rows, metres. */
const COL_PITCH = 0.22;
const ROW_Z = [-0.15, 0.2];
/** Height of the step the back row stands on, metres: it lifts the back row clear of the front row in low views. */
export const STEP_HEIGHT = 0.09;
/** Gap from a part's footprint circle to its plate's near edge, metres. */
const PLATE_AHEAD = 0.07;
/**
 * Fewest pixels (the ray-cast estimate of `PartsSight.seenPixels`, in a 768-pixel picture) a part
 * behind its wall must show in the first view (version 2). The view rule asks 250 rendered
 * pixels of every part where walls stand (tasks/kits/part-sight/table-question.ts), and the
 * walls were searched only for a share of each part (15 %): a back-row part, far from the camera,
 * shows 1,500 to 4,000 pixels without its wall (median 2,500, at L7), and 15 % of the smaller
 * ones fell below the floor (V2-L7-s46's part C: 223 pixels, s85's part A: 240). The estimate runs high: over the L7
 * parts that show under 800 pixels, the rendered count was 0.76 to 1.06 of it (median 0.88), so
 * 360 estimated pixels leave at least 270 rendered.
 */
export const PART_SHOWN_PIXELS = 360;

/** A drawn odd-one-out table and what its first view shows. */
export interface OddOneOutDraw {
  scene: TableScene;
  /** The copies' shape (normalised). */
  shape: Cell[];
  /** Index of the mirror-image part. */
  odd: number;
  camera: CameraSpec;
  /** What the first view leaves open (read only where the walls hide on purpose). */
  firstView: OddOneOutReading | null;
}

/** Slot centres and tops of the layout: one row for up to 4 parts, else a back row on a step and a front row (back row first, each left to right). */
export function slots(count: number): Array<{ at: [number, number]; base: number }> {
  if (count <= 4) return Array.from({ length: count }, (_, i) => ({ at: [(i - (count - 1) / 2) * COL_PITCH, 0], base: 0 }));
  const perRow = Math.ceil(count / 2);
  return Array.from({ length: count }, (_, i) => {
    const row = Math.floor(i / perRow);
    return { at: [((i % perRow) - (perRow - 1) / 2) * COL_PITCH, ROW_Z[row]], base: row === 0 ? STEP_HEIGHT : 0 };
  });
}

/** The step under the raised parts and their plates (none when every part stands on the table). */
export function stepUnder(parts: readonly TablePart[], plates: readonly LetterPlate[]): SolidBox[] {
  const raised = parts.flatMap((p, i) => ((p.base ?? 0) > 0 ? [i] : []));
  if (raised.length === 0) return [];
  const xs = raised.flatMap((i) => [parts[i].at[0] - footprintRadius(parts[i].cells) - 0.07, parts[i].at[0] + footprintRadius(parts[i].cells) + 0.07]);
  const zs = raised.flatMap((i) => [parts[i].at[1] - footprintRadius(parts[i].cells) - 0.1, plates[i].at[1] + PLATE_SIDE / 2 + 0.012]);
  const [x0, x1, z0, z1] = [Math.min(...xs), Math.max(...xs), Math.min(...zs), Math.max(...zs)];
  return [{ half: [r9((x1 - x0) / 2), STEP_HEIGHT / 2, r9((z1 - z0) / 2)], pose: { p: [r9((x0 + x1) / 2), STEP_HEIGHT / 2, r9((z0 + z1) / 2)], q: [0, 0, 0, 1] } }];
}

/**
 * One draw: a table with the odd part at index `odd`, or a string saying why this draw failed
 * (the caller re-draws).
 */
export function drawOddOneOut(rng: Rng, plan: OddOneOutPlan, odd: number, letters: string): OddOneOutDraw | string {
  const shape = rng.pick(chiralPool(plan.cubes));
  const mirror = mirrorCells(shape);
  const face = rng.pick(standingPoses(shape));
  const parts: TablePart[] = slots(plan.parts).map(({ at, base }, i) => {
    const own = i === odd ? mirror : shape;
    const cells = plan.sameFace ? (i === odd ? mirrorCells(face) : face) : rng.pick(standingPoses(own));
    return { letter: letters[i], cells, yawDeg: rng.int(0, 359), at: [r9(at[0] + rng.range(-0.015, 0.015)), r9(at[1] + rng.range(-0.015, 0.015))], base };
  });
  certifyOddOneOut(parts.map((p) => p.cells));
  const azimuth = rng.int(-20, 20);
  const plates = parts.map((p) => plateFor(p, footprintRadius(p.cells) + PLATE_AHEAD + PLATE_SIDE / 2, azimuth));
  const stands = stepUnder(parts, plates);
  const layout = (walls: Wall[]): TableLayout => ({ parts, stands, walls, plates });
  const camera = frameCamera(layout([]), azimuth, rng.int(plan.elevation[0], plan.elevation[1]), 0.9, plan.walls === 'none' ? 0 : 0.05);
  // Walls: one before every part, alike for all parts (see `OddOneOutPlan.walls`).
  const walls: Wall[] = [];
  for (const pi of plan.walls === 'none' ? [] : parts.keys()) {
    const other = pi === odd ? shape : mirror;
    // Besides its share of itself (the kit's FIRST_VIEW_SHOWN), the part keeps PART_SHOWN_PIXELS
    // in sight behind its wall: a small back-row part's share alone can be too few pixels to see.
    const shows = (sight: PartsSight): boolean => sight.seenPixels(camera, 0) >= PART_SHOWN_PIXELS;
    const wall =
      plan.walls === 'hiding'
        ? searchWall(rng, layout(walls), pi, camera, HIDING_WALL, (sight) => shows(sight) && consistentPlacement(sight, camera, 0, other) !== null)
        : searchWall(rng, layout(walls), pi, camera, LOW_WALL, shows);
    if (!wall) return `no wall among ${WALL_TRIES} ${plan.walls === 'hiding' ? 'hides the hand of' : 'fits before'} part ${letters[pi]}`;
    walls.push(wall);
  }
  const done = finishTable(layout(walls), camera, plan.elevationRange);
  if (typeof done === 'string') return done;
  const { scene, sight } = done;
  // The other walls only hide more, but the whole table is read again, as finishTable reads it.
  const faint = plan.walls === 'none' ? -1 : scene.parts.findIndex((_, i) => sight.seenPixels(camera, i) < PART_SHOWN_PIXELS);
  if (faint >= 0) return `part ${scene.parts[faint].letter} shows fewer than ${PART_SHOWN_PIXELS} pixels in the first view`;
  // Read only where the tier hides things on purpose: elsewhere the first view may decide.
  const firstView = plan.walls === 'hiding' ? readOddOneOut(sight, camera, shape, odd) : null;
  if (firstView && firstView.ambiguous.length < parts.length) {
    return `parts ${parts.flatMap((p, i) => (firstView.ambiguous.includes(i) ? [] : [p.letter])).join(', ')} can be told from their mirror images in the first view`;
  }
  return { scene, shape, odd, camera, firstView };
}
