/**
 * Framing a long, low track (T1's channel, T2's ice): the first camera and the frame size,
 * chosen so that the track fills the picture. A square frame of a 1.5 m track leaves the scene a thin band with a ball of a dozen
 * pixels; a wide frame (strobe frames stacked in a column) and a camera fitted to the track's
 * own corners make the ball about 30 px and the 1 cm ticks about 7 px apart. The camera is
 * orthographic: with perspective, the ruler (6 cm in front of the ball) would read a ball near
 * the end of a 1.5 m track a few centimetres off.
 */
import { roundTo } from '../../core/determinism.ts';
import type { Vec3 } from '../../sim/types.ts';
import { cameraFrame } from '../../render/camera-frame.ts';
import type { CameraSpec } from '../../render/camera-spec.ts';

/** Width in pixels of each track picture (each strobe frame); the height follows the scene's shape. */
export const TRACK_FRAME_WIDTH = 1280;
/** Frame heights allowed, pixels (a multiple of 8 in between). */
const FRAME_HEIGHT: [number, number] = [240, 352];

/**
 * What a scene other than a long, low track changes in the framing (T3's pendulum is about as
 * tall as it is wide): the elevation, the frame's width and the heights allowed. Left out, each
 * is the track's.
 */
export interface FramingOptions {
  elevation?: number;
  width?: number;
  heights?: [number, number];
}
/** Camera elevation of the first view, degrees: high enough that the rails do not hide the ball. */
export const TRACK_ELEVATION = 38;
/**
 * Field of view, degrees, from which the orthographic camera's visible height follows its
 * distance (so zooming works as for a perspective camera).
 */
export const TRACK_FOV = 12;
/** Fraction of the frame left free on each side. */
const MARGIN_X = 0.025;
const MARGIN_Y = 0.06;

/**
 * Where `p` lands in normalised device coordinates of the orthographic camera `cam` (visible
 * height 2 · distance · tan(fov / 2), as the renderer derives it) on a frame of `aspect`.
 */
function project(cam: CameraSpec, aspect: number, p: Vec3): [number, number] {
  const f = cameraFrame(cam);
  const rel: Vec3 = [p[0] - cam.target[0], p[1] - cam.target[1], p[2] - cam.target[2]];
  const half = cam.distance * Math.tan(((cam.fov ?? 40) * Math.PI) / 360);
  const x = rel[0] * f.right[0] + rel[1] * f.right[1] + rel[2] * f.right[2];
  const y = rel[0] * f.up[0] + rel[1] * f.up[1] + rel[2] * f.up[2];
  return [x / (half * aspect), y / half];
}

/** Projected bounds of `points`. */
function bounds(cam: CameraSpec, aspect: number, points: Vec3[]): { x0: number; x1: number; y0: number; y1: number } {
  const b = { x0: Infinity, x1: -Infinity, y0: Infinity, y1: -Infinity };
  for (const p of points) {
    const q = project(cam, aspect, p);
    b.x0 = Math.min(b.x0, q[0]);
    b.x1 = Math.max(b.x1, q[0]);
    b.y0 = Math.min(b.y0, q[1]);
    b.y1 = Math.max(b.y1, q[1]);
  }
  return b;
}

/** The closest distance at which `points` fit the margins of a frame of `aspect`, by bisection. */
function closestFit(cam: CameraSpec, aspect: number, points: Vec3[]): number {
  const fits = (distance: number): boolean => {
    const b = bounds({ ...cam, distance }, aspect, points);
    return b.x0 >= -1 + 2 * MARGIN_X && b.x1 <= 1 - 2 * MARGIN_X && b.y0 >= -1 + 2 * MARGIN_Y && b.y1 <= 1 - 2 * MARGIN_Y;
  };
  let near = 0.05;
  let far = 50;
  for (let i = 0; i < 60; i++) {
    const mid = (near + far) / 2;
    if (fits(mid)) far = mid;
    else near = mid;
  }
  return far;
}

/**
 * The first camera and frame of a track scene: an orthographic camera at azimuth 0 (looking along
 * −z at the track's side, so that a point of the track and the ruler mark in front of it share
 * one column of pixels wherever they are), raised by {@link TRACK_ELEVATION}, that shows every point of `points` as close as
 * the margins allow and centred on them, in a frame {@link TRACK_FRAME_WIDTH} wide and as tall as
 * the scene's shape needs (the picture is cropped to the track's band). Plain arithmetic with
 * rounded results, so the generator stays pure. `opts.elevation` overrides the elevation for a
 * scene whose heights matter as much as its lengths (T4's flight over a shelf: a lower camera
 * shows the drop nearly at full height).
 */
export function fitTrackCamera(points: Vec3[], opts: FramingOptions = {}): { camera: CameraSpec; frame: [number, number] } {
  const width = opts.width ?? TRACK_FRAME_WIDTH;
  const heights = opts.heights ?? FRAME_HEIGHT;
  const lo: Vec3 = [Infinity, Infinity, Infinity];
  const hi: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const p of points) for (let k = 0; k < 3; k++) {
    lo[k] = Math.min(lo[k], p[k]);
    hi[k] = Math.max(hi[k], p[k]);
  }
  const cam: CameraSpec = {
    azimuth: 0,
    elevation: opts.elevation ?? TRACK_ELEVATION,
    distance: 1,
    target: [(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2],
    fov: TRACK_FOV,
    projection: 'orthographic',
  };
  let height = opts.heights ? Math.round((heights[0] + heights[1]) / 16) * 8 : 320;
  for (let round = 0; round < 4; round++) {
    const aspect = width / height;
    cam.distance = closestFit(cam, aspect, points);
    const b = bounds(cam, aspect, points);
    // Centre the projected bounds: move the target along the camera's right and up axes.
    const f = cameraFrame(cam);
    const t = Math.tan(((cam.fov ?? 40) * Math.PI) / 360) * cam.distance;
    const dx = ((b.x0 + b.x1) / 2) * t * aspect;
    const dy = ((b.y0 + b.y1) / 2) * t;
    cam.target = [0, 1, 2].map((k) => cam.target[k] + dx * f.right[k] + dy * f.up[k]) as Vec3;
    // Crop the frame to the scene's band: the height at which width and height fill together.
    const usedX = (b.x1 - b.x0) / 2 / (1 - 2 * MARGIN_X);
    const usedY = (b.y1 - b.y0) / 2 / (1 - 2 * MARGIN_Y);
    height = Math.min(heights[1], Math.max(heights[0], Math.ceil((height * usedY) / usedX / 8) * 8));
  }
  const aspect = width / height;
  const target = cam.target.map((v) => roundTo(v, 4)) as Vec3;
  const distance = roundTo(closestFit({ ...cam, target }, aspect, points) * 1.002, 4);
  return { camera: { ...cam, distance, target }, frame: [width, height] };
}
