import type { Vec3 } from '../sim/types.ts';
import type { CameraSpec } from './camera-spec.ts';

/** Default vertical field of view in degrees when a {@link CameraSpec} gives none. */
export const DEFAULT_FOV = 40;

/** A camera placed in the world: its position and its right/up/back axes (unit vectors). */
export interface CameraFrame {
  position: Vec3;
  right: Vec3;
  up: Vec3;
  /** Points from the target towards the camera (three.js camera +Z). */
  back: Vec3;
}

const DEG = Math.PI / 180;

/**
 * Places an orbit camera. The right axis is taken from the azimuth alone, so the frame stays
 * well defined at elevation ±90° (a top view looks down with world −Z at the top of the image
 * for azimuth 0, as if the front view had been tilted down), where `lookAt` with a fixed Y-up
 * would be degenerate.
 *
 * Shared by Node (camera fitting, tests) and the page (drawing); plain numbers only.
 */
export function cameraFrame(spec: CameraSpec): CameraFrame {
  const az = spec.azimuth * DEG;
  const el = spec.elevation * DEG;
  const ce = Math.cos(el);
  const back: Vec3 = [ce * Math.sin(az), Math.sin(el), ce * Math.cos(az)];
  const right: Vec3 = [Math.cos(az), 0, -Math.sin(az)];
  // up = back × right keeps (right, up, back) right-handed, matching three's camera axes.
  const up: Vec3 = [
    back[1] * right[2] - back[2] * right[1],
    back[2] * right[0] - back[0] * right[2],
    back[0] * right[1] - back[1] * right[0],
  ];
  const t = spec.target;
  const d = spec.distance;
  return { position: [t[0] + d * back[0], t[1] + d * back[1], t[2] + d * back[2]], right, up, back };
}

/**
 * Visible height in metres of the orthographic form of a camera: `orthoHeight` if given,
 * otherwise the height the perspective camera sees at the target's distance.
 */
export function orthoHeightOf(spec: CameraSpec): number {
  if (spec.orthoHeight !== undefined) return spec.orthoHeight;
  return 2 * spec.distance * Math.tan(((spec.fov ?? DEFAULT_FOV) * DEG) / 2);
}
