import sharp from 'sharp';

/** A decoded image: `channels` bytes per pixel, rows top to bottom. */
export interface Pixels {
  width: number;
  height: number;
  channels: number;
  data: Buffer;
}

/** Decodes a PNG (or any image sharp reads) to raw pixels. */
export async function decodePng(png: Buffer): Promise<Pixels> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: info.channels, data };
}

/** A pixel rectangle `[x0, y0, x1, y1)`. */
export type Region = [x0: number, y0: number, x1: number, y1: number];

/**
 * Counts the pixels in `region` (default the whole image) whose colour passes `test`, and
 * returns their centroid (NaN when none).
 */
export function findPixels(
  img: Pixels,
  test: (r: number, g: number, b: number) => boolean,
  region: Region = [0, 0, img.width, img.height],
): { count: number; cx: number; cy: number } {
  let count = 0;
  let sx = 0;
  let sy = 0;
  const [x0, y0, x1, y1] = region;
  for (let y = Math.max(0, y0); y < Math.min(img.height, y1); y++) {
    for (let x = Math.max(0, x0); x < Math.min(img.width, x1); x++) {
      const i = (y * img.width + x) * img.channels;
      const r = img.data[i];
      const g = img.channels >= 3 ? img.data[i + 1] : r;
      const b = img.channels >= 3 ? img.data[i + 2] : r;
      if (test(r, g, b)) {
        count++;
        sx += x;
        sy += y;
      }
    }
  }
  return { count, cx: sx / count, cy: sy / count };
}

/** True for the rollback highlight colour (#ff00ff) as lighting leaves it: strong red and blue, little green. */
export function isHighlightPixel(r: number, g: number, b: number): boolean {
  return r > 150 && b > 150 && g < 90 && Math.abs(r - b) < 60;
}
