import type { Vec3 } from '../sim/types.ts';

/**
 * A camera that orbits a target point. Angles in degrees.
 *
 * The camera sits at `target + distance * (cos(el)·sin(az), sin(el), cos(el)·cos(az))` and
 * looks at `target`, Y up: azimuth 0 looks from +Z (the "front" view), azimuth 90 from +X
 * ("right"), elevation 90 straight down ("top").
 */
export interface CameraSpec {
  azimuth: number;
  elevation: number;
  /** metres from the target */
  distance: number;
  target: Vec3;
  /** vertical field of view in degrees (perspective); default 40 */
  fov?: number;
  projection?: 'perspective' | 'orthographic';
  /** visible height in metres for the orthographic camera; default derived from distance and fov */
  orthoHeight?: number;
}

/** Named views and the angles they stand for. */
export const NAMED_VIEWS: Record<string, { azimuth: number; elevation: number }> = {
  front: { azimuth: 0, elevation: 0 },
  back: { azimuth: 180, elevation: 0 },
  left: { azimuth: -90, elevation: 0 },
  right: { azimuth: 90, elevation: 0 },
  top: { azimuth: 0, elevation: 90 },
  iso: { azimuth: 45, elevation: 30 },
};
