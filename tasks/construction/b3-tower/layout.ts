/**
 * B3 scene layout: where the push arrow, its force label, the marker post and (at L7) the
 * screen stand around the baseplate — all relative to the baseplate's centre, from the push's
 * direction alone, so the generator can keep the whole layout on the mat and the episode draws
 * exactly what the generator measured.
 *
 * The arrow lies on the push's line (over the baseplate's centre at the push's height), its tip
 * {@link ARROW_GAP} short of the baseplate's edge. The label stands upright beside the arrow's
 * shaft, facing the first view: above the shaft for a push along x, beside it (on the side away
 * from the post) for a push along z, so it never covers the arrow. The marker post stands past
 * the baseplate's corner on the side the push points to (for a push along x) or to its right
 * (for a push along z), out of the push's way.
 */
import { roundTo } from '../../../core/determinism.ts';
import { ARROW_GAP, ARROW_LENGTH, plateHalf, POST_GAP, pushVector, type PushDir } from './scene.ts';

/** Letter height of the force label, m. */
export const LABEL_HEIGHT = 0.012;
/** Characters of the label ("0.62 N"). */
export const LABEL_CHARS = 6;
/** The label's width, m (5×7 cells with one cell between characters). */
export const LABEL_WIDTH = roundTo(((LABEL_CHARS * 6 - 1) * LABEL_HEIGHT) / 7, 6);
/** Height of the label's centre above the shaft for a push along x, m. */
export const LABEL_RISE = 0.016;
/** Gap between the shaft and the label's near edge for a push along z, m. */
export const LABEL_SIDE_GAP = 0.012;
/**
 * Extra room kept on both sides of the label, m: the mat's side rulers carry their labels inside
 * the mat, and the force label (standing up at the push's height) must never be covered by one.
 */
export const LABEL_CLEAR = 0.03;
/** Radius of the marker post, m. */
export const POST_RADIUS = 0.0025;
/** How far the post ruler's labels reach beside the post, m (kept clear of the mat's side rulers). */
export const POST_LABELS = 0.06;
/** Distance of the screen (L7) in front of the baseplate's front edge, m. */
export const SCREEN_GAP = 0.02;
/** Height of the screen, m. */
export const SCREEN_HEIGHT = 0.05;

/** Positions relative to the baseplate's centre (x, z in m; heights are the scene's). */
export interface Layout {
  /** Arrow tail and tip (x, z). */
  tail: [number, number];
  tip: [number, number];
  /** Label centre (x, z) and its height offset from the push's line, m. */
  label: [number, number];
  labelRise: number;
  /** Marker post axis (x, z). */
  post: [number, number];
  /** Footprint of everything drawn, relative to the centre: [xmin, xmax, zmin, zmax]. */
  extent: [number, number, number, number];
}

/** The layout of a push direction around a baseplate of `plate` studs. */
export function layoutOf(plate: number, dir: PushDir, screen = false): Layout {
  const h = plateHalf(plate);
  const [dx, dz] = pushVector(dir);
  const tipD = h + ARROW_GAP;
  const tailD = tipD + ARROW_LENGTH;
  const tip: [number, number] = [-dx * tipD, -dz * tipD];
  const tail: [number, number] = [-dx * tailD, -dz * tailD];
  let label: [number, number];
  let labelRise: number;
  let post: [number, number];
  if (dx !== 0) {
    label = [(tip[0] + tail[0]) / 2, 0];
    labelRise = LABEL_RISE;
    post = [dx * (h + POST_GAP), -h];
  } else {
    post = [h + POST_GAP, 0];
    label = [-(LABEL_SIDE_GAP + LABEL_WIDTH / 2), (tip[1] + tail[1]) / 2];
    labelRise = 0;
  }
  // The post's ruler labels stand on its side away from the site (see generate.ts).
  const away = post[0] >= 0 ? 1 : -1;
  const xs = [-h, h, tail[0], tip[0], label[0] - LABEL_WIDTH / 2 - LABEL_CLEAR, label[0] + LABEL_WIDTH / 2 + LABEL_CLEAR, post[0] - 0.006, post[0] + 0.006, post[0] + away * POST_LABELS];
  const zs = [-h, h, tail[1], tip[1], label[1], post[1] - 0.006, post[1] + 0.006];
  if (screen) zs.push(h + SCREEN_GAP + 0.002);
  const r = (x: number): number => roundTo(x, 6);
  return {
    tail: [r(tail[0]), r(tail[1])],
    tip: [r(tip[0]), r(tip[1])],
    label: [r(label[0]), r(label[1])],
    labelRise,
    post: [r(post[0]), r(post[1])],
    extent: [r(Math.min(...xs)), r(Math.max(...xs)), r(Math.min(...zs)), r(Math.max(...zs))],
  };
}
