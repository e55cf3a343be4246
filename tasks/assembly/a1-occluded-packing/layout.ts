/**
 * Physical layout of A1: the box, the hiding wall and the table slots. Everything is in
 * metres; the table top is at y = 0 and the box is centred on the origin. Cube size, gaps and
 * piece colliders are the shared polycube-piece model (`../polycube-pieces/pieces.ts`).
 */
import type { CameraSpec } from '../../../render/camera-spec.ts';
import type { Vec3 } from '../../../sim/types.ts';
import { CELL } from '../../kits/polycube-pieces/pieces.ts';
import type { BoxDims } from './geometry.ts';
import { round9 } from '../../../core/determinism.ts';

/** Thickness of the box floor. */
export const FLOOR = 0.006;
/** Thickness of the box walls. */
export const WALL = 0.006;
/** The wall that hides some pieces: its front face (z), thickness, half length and height. */
export const HIDE_WALL = { zFront: -0.1, thickness: 0.01, halfLength: 0.4, height: 0.13 } as const;
/** Table slab: top at y = 0. */
export const TABLE = { half: [0.46, 0.01, 0.25] as Vec3, centreZ: -0.04 } as const;
/** Slots in front of the wall, left and right of the box (x, z of a piece's footprint centre), in one row. */
export const VISIBLE_SLOTS: readonly [number, number][] = [
  [-0.15, 0.02], [0.15, 0.02], [-0.27, 0.02], [0.27, 0.02],
];
/** Slots behind the wall. */
export const HIDDEN_SLOTS: readonly [number, number][] = [
  [-0.26, -0.16], [-0.13, -0.16], [0, -0.16], [0.13, -0.16], [0.26, -0.16],
];

/** The first view: low, from the front, the whole table in frame. */
export const INITIAL_CAMERA: CameraSpec = { azimuth: 0, elevation: 30, distance: 1.0, target: [0, 0.02, 0.02] };

/** Box floor top. */
export const FLOOR_TOP = FLOOR;

/** Centre of internal cell `[i, j, k]` in the world. */
export function cellCentre(box: BoxDims, c: readonly number[]): Vec3 {
  return [
    round9((c[0] + 0.5 - box.cols / 2) * CELL),
    round9(FLOOR_TOP + (c[1] + 0.5) * CELL),
    round9((c[2] + 0.5 - box.rows / 2) * CELL),
  ];
}

/** Top of the box walls. */
export function boxTop(box: BoxDims): number {
  return round9(FLOOR_TOP + box.layers * CELL);
}
