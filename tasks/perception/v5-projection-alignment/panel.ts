/**
 * The V5 observation: one 972 × 320 panel of three 320 × 320 views — the target silhouette,
 * the depth-shaded current view, the current silhouette — separated by two 6-pixel strips of
 * intensity 12 (the rotation seed's layout). The silhouettes are the very masks the IoU is
 * computed from; the depth view is the renderer's depth picture of the world body.
 */
import sharp from 'sharp';
import type { CameraSpec } from '../../../render/camera-spec.ts';
import { UNIT_M } from './extrusion.ts';
import { VIEW_SCALE, VIEW_SIZE } from './projection.ts';
import { round9 } from '../../../core/determinism.ts';

/** Width of a separator strip, pixels. */
export const SEPARATOR = 6;
/** Grey level of the separator strips. */
export const SEPARATOR_LEVEL = 12;
/** Panel width: three views and two separators (972 pixels). */
export const PANEL_WIDTH = 3 * VIEW_SIZE + 2 * SEPARATOR;
/** Panel height: one view (320 pixels). */
export const PANEL_HEIGHT = VIEW_SIZE;
/** The depth view is drawn at 0.9 of the silhouettes' scale, as the seed's auxiliary view. */
export const DEPTH_VIEW_SCALE = 0.9;

/** Left edge of each view in the panel (target, depth, current). */
export const VIEW_LEFT = [0, VIEW_SIZE + SEPARATOR, 2 * (VIEW_SIZE + SEPARATOR)] as const;

/**
 * The camera of the depth view: straight on from +z, orthographic, its height chosen so one
 * unit covers 0.9 × 5 pixels of the 320-pixel view.
 */
export const DEPTH_CAMERA: CameraSpec = {
  azimuth: 0,
  elevation: 0,
  distance: 1,
  target: [0, 0, 0],
  projection: 'orthographic',
  orthoHeight: round9((VIEW_SIZE / (DEPTH_VIEW_SCALE * VIEW_SCALE)) * UNIT_M),
};

/**
 * Composes the panel (RGB PNG, grey levels) from the two masks (one byte per pixel, 0/1) and
 * the depth view (a 320 × 320 PNG).
 */
export async function composePanel(target: Uint8Array, depthPng: Buffer, current: Uint8Array): Promise<Buffer> {
  const depth = await sharp(depthPng).greyscale().raw().toBuffer({ resolveWithObject: true });
  if (depth.info.width !== VIEW_SIZE || depth.info.height !== VIEW_SIZE) {
    throw new RangeError(`depth view must be ${VIEW_SIZE} × ${VIEW_SIZE}, got ${depth.info.width} × ${depth.info.height}`);
  }
  const grey = Buffer.alloc(PANEL_WIDTH * PANEL_HEIGHT, SEPARATOR_LEVEL);
  for (let v = 0; v < VIEW_SIZE; v++) {
    const row = v * PANEL_WIDTH;
    for (let u = 0; u < VIEW_SIZE; u++) {
      const p = v * VIEW_SIZE + u;
      grey[row + VIEW_LEFT[0] + u] = target[p] ? 255 : 0;
      grey[row + VIEW_LEFT[1] + u] = depth.data[p * depth.info.channels];
      grey[row + VIEW_LEFT[2] + u] = current[p] ? 255 : 0;
    }
  }
  const rgb = Buffer.alloc(grey.length * 3);
  for (let i = 0; i < grey.length; i++) rgb[3 * i] = rgb[3 * i + 1] = rgb[3 * i + 2] = grey[i];
  return sharp(rgb, { raw: { width: PANEL_WIDTH, height: PANEL_HEIGHT, channels: 3 } }).png().toBuffer();
}
