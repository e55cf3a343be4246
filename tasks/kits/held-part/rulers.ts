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
