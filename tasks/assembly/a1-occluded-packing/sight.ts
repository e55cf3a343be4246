/**
 * What the first view of an A1 instance can see: whether a piece lying behind the hiding wall is
 * really out of sight from the initial camera (every sight line to its bounding box passes
 * through the wall; the polycube kit's `hiddenBehindWall`). The generator places hidden pieces
 * with it, and a shortcut filter checks every instance with it.
 */
import type { Vec3 } from '../../../sim/types.ts';
import type { Cell } from '../../../solvers/polycube.ts';
import { hiddenBehindWall, type WallBox } from '../../kits/polycube-pieces/sight.ts';
import { HIDE_WALL, INITIAL_CAMERA } from './scene.ts';

/** The hiding wall as a box: its front face at `zFront`, standing on the table. */
const WALL_BOX: WallBox = {
  min: [-HIDE_WALL.halfLength, 0, HIDE_WALL.zFront - HIDE_WALL.thickness],
  max: [HIDE_WALL.halfLength, HIDE_WALL.height, HIDE_WALL.zFront],
};

/** Whether a piece is hidden from the first view behind the wall (shrunk by 3 mm for margin). */
export function hiddenFromFirstView(cells: readonly Cell[], position: Vec3): boolean {
  return hiddenBehindWall(cells, position, INITIAL_CAMERA, WALL_BOX, 0.003);
}
