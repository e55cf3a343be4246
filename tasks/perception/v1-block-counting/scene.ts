import type { Pose, Vec3 } from '../../../sim/types.ts';
import type { PileBlock } from './pile.ts';

/** A wall of the L7 `+occ` lever: a static box. */
export interface WallBox {
  name: string;
  half: Vec3;
  pose: Pose;
}

/** Parameters a V1 world is built from (the instance's `scene`). */
export interface V1Scene {
  blocks: PileBlock[];
  /** Static walls (L7 only) hiding the lower pile from low views on two sides. */
  walls: WallBox[];
  /** The static table top the pile stands on (its top face is the plane y = 0). */
  table: { half: Vec3; pose: Pose };
  /** The number of cubes in the pile: the answer. */
  cubeCount: number;
  /**
   * Cubes visible (`isVisible` in visibility.ts: enough unoccluded samples and pixels) from the first view, the
   * best a count that never moves the camera can do; always below `cubeCount`. An answer off
   * by one earns progress only where this count is off by two or more.
   */
  firstViewCount: number;
  /** Whether the pile may hold decoys (the rules say so from L3 up). */
  decoys: boolean;
}
