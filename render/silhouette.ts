import sharp from 'sharp';
import { SpaceActError } from '../core/errors.ts';

/**
 * Intersection over union of two silhouettes of the same size (one byte per pixel, 0 or 1).
 * Two empty silhouettes match perfectly (1).
 */
export function silhouetteIoU(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) {
    throw new SpaceActError('invalid-argument', `silhouettes differ in size (${a.length} and ${b.length} pixels)`, {
      a: a.length,
      b: b.length,
    });
  }
  let inter = 0;
  let union = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    inter += x & y;
    union += x | y;
  }
  return union === 0 ? 1 : inter / union;
}

/** Expands packed bits (rows of ceil(width / 8) bytes, most significant bit first) to one byte per pixel. */
export function unpackBits(packed: Uint8Array, width: number, height: number): Uint8Array {
  const rowBytes = Math.ceil(width / 8);
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      out[y * width + x] = (packed[y * rowBytes + (x >> 3)] >> (7 - (x & 7))) & 1;
    }
  }
  return out;
}

/** A silhouette as a greyscale PNG: white where set, black elsewhere. */
export function maskPng(bits: Uint8Array, width: number, height: number): Promise<Buffer> {
  const grey = Buffer.alloc(width * height);
  for (let i = 0; i < grey.length; i++) grey[i] = bits[i] ? 255 : 0;
  return sharp(grey, { raw: { width, height, channels: 1 } }).png().toBuffer();
}
