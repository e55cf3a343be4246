/**
 * Rulers for a held part in front of a wall (M3, M5): one along the bottom of the wall's near
 * face and one up its left edge, both from its bottom-left corner, with 1 cm ticks and 10 cm
 * labels, so positions on the wall read straight off the picture.
 */
import type { RulerSpec } from '../../../sim/types.ts';

/** The workspace box the wall spans (its x and y extent). */
export interface WallSpan {
  min: [number, number, number];
  max: [number, number, number];
}

/** The two rulers on the near face of a wall `thickness` thick centred on z = 0 and as wide and high as `span`. */
export function wallFaceRulers(span: WallSpan, thickness: number): RulerSpec[] {
  const front = thickness / 2 + 0.001;
  const x0 = span.min[0];
  return [
    { from: [x0, 0.002, front], to: [span.max[0], 0.002, front], tickDir: [0, 1, 0], minor: 0.01, major: 0.1 },
    { from: [x0 + 0.002, 0, front], to: [x0 + 0.002, span.max[1], front], tickDir: [1, 0, 0], minor: 0.01, major: 0.1 },
  ];
}

/**
 * Where the working frame's arrows stand for a family whose rulers are {@link wallFaceRulers}:
 * on the floor left of the wall's left end and well in front of it. Both rulers start at the
 * wall's bottom-left corner and draw their labels into the wall (above the bottom ruler, right
 * of the upright one), so arrows at that corner ran under the "0" and "10 cm" plates and behind
 * the bottom ruler's band (issue 32). From the first cameras (from the front, a little right and
 * above), a point this far forward and left shows below the bottom ruler and left of the upright
 * one: the +y arrow rises beside the upright ruler's bare side, the +x arrow runs below the
 * corner's labels.
 */
export function wallFrameArrowsAt(span: WallSpan, thickness: number): [number, number, number] {
  return [span.min[0] - 0.02, 0.003, thickness / 2 + 0.1];
}
