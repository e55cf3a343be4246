/**
 * The projection that defines V5's success test, computed in Node exactly as the rotation
 * seed rasterises it: every depth sample of the rotated solid is projected orthographically to
 * (160 + 5·x, 160 − 5·y) on a 320 × 320 canvas, rounded to a pixel, and stamped with a disk of
 * radius 2; the mask then gets one morphological closing with the 3 × 3 elliptical (cross)
 * kernel. IoU of two such masks is the task's score. The same bits are what the observation
 * panel draws, so the pictures and the score always agree.
 */
import { DEPTH_SAMPLES, type IconSolid } from './extrusion.ts';
import { qmatrix } from './rotation.ts';

/** Side of a projection image, pixels. */
export const VIEW_SIZE = 320;
/** Image centre, pixels. */
export const VIEW_CENTER = 160;
/** Pixels per unit. */
export const VIEW_SCALE = 5;
/** Radius of the disk stamped at every projected sample: round(320 / 64 × 0.36) = 2. */
export const SPLAT_RADIUS = 2;
/** The success threshold on projection IoU. */
export const IOU_SUCCESS = 0.9;

const N = VIEW_SIZE;

/** Reusable scratch images (module level: the hot path allocates nothing per call). */
const centres = new Uint8Array(N * N);
const row1 = new Uint8Array(N * N);
const row2 = new Uint8Array(N * N);
const scratch = new Uint8Array(N * N);

/**
 * Horizontal dilations of `src` by ±1 and ±2 pixels within each row (the building blocks of
 * the radius-2 disk and of the cross).
 */
function rowDilations(src: Uint8Array, one: Uint8Array, two: Uint8Array | null): void {
  for (let v = 0; v < N; v++) {
    const o = v * N;
    for (let u = 0; u < N; u++) {
      const c = src[o + u];
      const l1 = u > 0 ? src[o + u - 1] : 0;
      const r1 = u < N - 1 ? src[o + u + 1] : 0;
      one[o + u] = c | l1 | r1;
      if (two) two[o + u] = c | l1 | r1 | (u > 1 ? src[o + u - 2] : 0) | (u < N - 2 ? src[o + u + 2] : 0);
    }
  }
}

/**
 * Stamps the radius-2 disk (the 13 pixels with |d| ≤ 2) at every set pixel of `src`:
 * rows v±2 contribute the centre column, rows v±1 three pixels, row v five.
 */
function dilateDisk(src: Uint8Array, dst: Uint8Array): void {
  rowDilations(src, row1, row2);
  for (let v = 0; v < N; v++) {
    const o = v * N;
    for (let u = 0; u < N; u++) {
      let b = row2[o + u];
      if (v > 0) b |= row1[o - N + u];
      if (v < N - 1) b |= row1[o + N + u];
      if (v > 1) b |= src[o - 2 * N + u];
      if (v < N - 2) b |= src[o + 2 * N + u];
      dst[o + u] = b;
    }
  }
}

/**
 * One morphological closing with the 3 × 3 elliptical kernel (a cross), in place. Pixels
 * outside the image neither add to the dilation nor remove in the erosion (OpenCV's border
 * convention for morphology).
 */
export function closeMask(mask: Uint8Array): void {
  rowDilations(mask, row1, null);
  for (let v = 0; v < N; v++) {
    const o = v * N;
    for (let u = 0; u < N; u++) {
      scratch[o + u] = row1[o + u] | (v > 0 ? mask[o - N + u] : 0) | (v < N - 1 ? mask[o + N + u] : 0);
    }
  }
  for (let v = 0; v < N; v++) {
    const o = v * N;
    for (let u = 0; u < N; u++) {
      mask[o + u] =
        scratch[o + u] &
        (u > 0 ? scratch[o + u - 1] : 1) &
        (u < N - 1 ? scratch[o + u + 1] : 1) &
        (v > 0 ? scratch[o - N + u] : 1) &
        (v < N - 1 ? scratch[o + N + u] : 1);
    }
  }
}

/**
 * The silhouette of the solid at orientation `q` (unit quaternion, object → world): 320 × 320
 * bytes, 1 inside, rows top to bottom.
 */
export function silhouette(solid: IconSolid, q: readonly number[]): Uint8Array {
  const m = qmatrix(q);
  const s = VIEW_SCALE;
  // Image u = 160 + 5·(world x), v = 160 − 5·(world y); pre-scaled rows of R.
  const ax = m[0] * s;
  const ay = m[1] * s;
  const az = m[2] * s;
  const bx = -m[3] * s;
  const by = -m[4] * s;
  const bz = -m[5] * s;
  const { x, y, h, depth, count } = solid;
  centres.fill(0);
  // Rounding to the nearest pixel: floor(t + 0.5), with t + 0.5 ≥ 0 checked first.
  const half = VIEW_CENTER + 0.5;
  for (let i = 0; i < count; i++) {
    const u0 = half + ax * x[i] + ay * y[i];
    const v0 = half + bx * x[i] + by * y[i];
    const du = az * h[i];
    const dv = bz * h[i];
    const o = i * DEPTH_SAMPLES;
    for (let j = 0; j < DEPTH_SAMPLES; j++) {
      const f = depth[o + j];
      const uf = u0 + f * du;
      const vf = v0 + f * dv;
      if (uf < 0 || vf < 0 || uf >= N || vf >= N) continue;
      centres[(vf | 0) * N + (uf | 0)] = 1;
    }
  }
  const out = new Uint8Array(N * N);
  dilateDisk(centres, out);
  closeMask(out);
  return out;
}

/** Intersection over union of two masks of equal size (1 when both are empty). */
export function maskIoU(a: Uint8Array, b: Uint8Array): number {
  let inter = 0;
  let union = 0;
  for (let i = 0; i < a.length; i++) {
    const p = a[i];
    const q = b[i];
    inter += p & q;
    union += p | q;
  }
  return union === 0 ? 1 : inter / union;
}

/** Number of set pixels. */
export function maskArea(mask: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < mask.length; i++) n += mask[i];
  return n;
}

/** Side of the coarse occupancy grid used to screen poses during search. */
const COARSE = 80;
/** Pixels of the full image per coarse cell. */
const COARSE_CELL = VIEW_SIZE / COARSE;
/** Every this many icon points take part in the coarse screen. */
const COARSE_STRIDE = 8;

/**
 * A coarse occupancy grid of the projection (80 × 80 cells of 4 × 4 pixels, every eighth icon
 * point), for screening poses cheaply in the reference searches. It only decides which poses
 * get the exact {@link silhouette}; it never decides success.
 */
export function coarseSilhouette(solid: IconSolid, q: readonly number[]): Uint8Array {
  const m = qmatrix(q);
  const s = VIEW_SCALE / COARSE_CELL;
  const c = VIEW_CENTER / COARSE_CELL;
  const out = new Uint8Array(COARSE * COARSE);
  const { x, y, h, depth, count } = solid;
  for (let i = 0; i < count; i += COARSE_STRIDE) {
    const u0 = c + s * (m[0] * x[i] + m[1] * y[i]);
    const v0 = c - s * (m[3] * x[i] + m[4] * y[i]);
    const du = s * m[2] * h[i];
    const dv = -s * m[5] * h[i];
    const o = i * DEPTH_SAMPLES;
    for (let j = 0; j < DEPTH_SAMPLES; j++) {
      const f = depth[o + j];
      const uf = u0 + f * du;
      const vf = v0 + f * dv;
      if (uf < 0 || vf < 0 || uf >= COARSE || vf >= COARSE) continue;
      out[(vf | 0) * COARSE + (uf | 0)] = 1;
    }
  }
  return out;
}
