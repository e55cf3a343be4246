/**
 * T6 first camera: the same for every seed (the board and tray have fixed sizes), looking down
 * from the front so that the pegboard, its letters, the dial and the tray's gears all show.
 */
import type { CameraSpec } from '../../../render/camera-spec.ts';

/** The first camera and the size of each strobe frame. */
export function firstCamera(): { camera: CameraSpec; frame: [number, number] } {
  return { camera: { azimuth: 0, elevation: 64, distance: 1.38, target: [0, 0, 0.1], fov: 36 }, frame: [768, 768] };
}
