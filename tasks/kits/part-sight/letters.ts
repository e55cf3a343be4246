/**
 * Option letters drawn in the scene: each letter is a few flat dark boxes (a 5 × 7 dot font,
 * rows merged into bars) lying on a light plate on the table, so a picture shows which part is
 * which from any camera that sees the plate, and the ray-cast visibility check can treat the
 * plate like any other box.
 */
import { qrotate, yawQuat } from '../../../sim/math.ts';
import type { Pose, ShapeSpec, Vec3 } from '../../../sim/types.ts';

/** 5 × 7 dot glyphs, top row first, '#' = ink. */
const GLYPHS: Record<string, readonly string[]> = {
  A: ['.###.', '#...#', '#...#', '#####', '#...#', '#...#', '#...#'],
  B: ['####.', '#...#', '#...#', '####.', '#...#', '#...#', '####.'],
  C: ['.####', '#....', '#....', '#....', '#....', '#....', '.####'],
  D: ['####.', '#...#', '#...#', '#...#', '#...#', '#...#', '####.'],
  E: ['#####', '#....', '#....', '####.', '#....', '#....', '#####'],
  F: ['#####', '#....', '#....', '####.', '#....', '#....', '#....'],
  G: ['.####', '#....', '#....', '#..##', '#...#', '#...#', '.###.'],
  H: ['#...#', '#...#', '#...#', '#####', '#...#', '#...#', '#...#'],
  R: ['####.', '#...#', '#...#', '####.', '#.#..', '#..#.', '#...#'],
};

/** Letters this font can draw. */
export const DRAWABLE_LETTERS = Object.keys(GLYPHS).join('');

/** A letter plate on the table: the letter, where its centre stands (x, z) and its yaw (the letter's top points along −z turned by the yaw). */
export interface LetterPlate {
  letter: string;
  at: [number, number];
  yawDeg: number;
}

/** Plate size: side of the square plate and its thickness, metres. */
export const PLATE = { side: 0.055, thickness: 0.002 } as const;
/** Height of the ink above the plate's top, metres. */
const INK = 0.0008;
/** Glyph dot pitch, metres (7 rows ≈ 4.2 cm tall). */
const DOT = 0.006;

/** The plate's collider box as a pose and half extents (it lies on the table, top at {@link PLATE}.thickness). */
export function plateBox(p: LetterPlate): { half: Vec3; pose: Pose } {
  return { half: [PLATE.side / 2, PLATE.thickness / 2, PLATE.side / 2], pose: { p: [p.at[0], PLATE.thickness / 2, p.at[1]], q: yawQuat(p.yawDeg) } };
}

/**
 * The ink of a letter as drawn-only boxes in the frame of the ink body (posed at the plate's
 * centre on its top face, turned by the plate's yaw): one box per run of dots in a row.
 */
export function glyphShapes(letter: string): ShapeSpec[] {
  const rows = GLYPHS[letter];
  if (!rows) throw new RangeError(`no glyph for letter ${letter}`);
  const out: ShapeSpec[] = [];
  rows.forEach((row, r) => {
    let c = 0;
    while (c < row.length) {
      if (row[c] !== '#') {
        c++;
        continue;
      }
      let e = c;
      while (e < row.length && row[e] === '#') e++;
      const x = ((c + e) / 2 - 2.5) * DOT;
      // Row 0 is the top of the letter: furthest from a reader standing on the +z side.
      const z = (r - 3) * DOT;
      out.push({ type: 'box', half: [((e - c) * DOT) / 2, INK / 2, DOT / 2], pose: { p: [round(x), INK / 2, round(z)], q: [0, 0, 0, 1] } });
      c = e;
    }
  });
  return out;
}

/** The pose of a plate's ink body: on the plate's top, turned with it. */
export function inkPose(p: LetterPlate): Pose {
  return { p: [p.at[0], PLATE.thickness, p.at[1]], q: yawQuat(p.yawDeg) };
}

/** World point of a plate-local point (x across the letter, z down the letter), on the plate's top. */
export function platePoint(p: LetterPlate, local: [number, number]): Vec3 {
  const w = qrotate(yawQuat(p.yawDeg), [local[0], 0, local[1]]);
  return [p.at[0] + w[0], PLATE.thickness, p.at[1] + w[2]];
}

function round(x: number): number {
  return Math.round(x * 1e9) / 1e9 + 0;
}
