/**
 * Option letters drawn in the scene: each letter is a few flat dark boxes (a 5 × 7 dot font,
 * rows merged into bars) on the sloping face of a small light wedge standing on the table, the
 * face turned up 45° towards the first camera. A sloping face reads from low and from high views
 * alike (a flat plate all but vanishes in a low view), and the ray-cast visibility check sees it
 * as one more flat patch.
 */
import { round9 as round } from '../../../core/determinism.ts';
import { qmul, qrotate, yawQuat } from '../../../sim/math.ts';
import type { Pose, Quat, ShapeSpec, Vec3 } from '../../../sim/types.ts';
import type { Patch } from './surface.ts';

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

/** A letter stand on a flat top: the letter, where its centre stands (x, z), the way its face looks (yaw, degrees; 0 faces +z) and the top's height. */
export interface LetterPlate {
  letter: string;
  at: [number, number];
  yawDeg: number;
  /** Height of the flat top the stand rests on (0: the table), metres. */
  base: number;
}

/** The stand: its sloping face is `side` square, tilted `slopeDeg` from the horizontal. */
export const PLATE = { side: 0.055, slopeDeg: 45 } as const;
const SLOPE = (PLATE.slopeDeg * Math.PI) / 180;
/** Depth and height of the wedge, metres. */
const DEPTH = PLATE.side * Math.cos(SLOPE);
const HEIGHT = PLATE.side * Math.sin(SLOPE);
/** Thickness of the ink above the face, metres. */
const INK = 0.0008;
/** Glyph dot pitch, metres (7 rows ≈ 4.2 cm tall). */
const DOT = 0.006;

/** The turn that tips the face: about x, so local +y becomes the face's outward normal. */
const TILT: Quat = [Math.sin(SLOPE / 2), 0, 0, Math.cos(SLOPE / 2)];

/** The wedge as a convex hull in its body frame (origin under the middle of the face, on the top it stands on). */
export function plateShape(): ShapeSpec {
  const w = PLATE.side / 2;
  const d = DEPTH / 2;
  const points: Vec3[] = [
    [-w, 0, d],
    [w, 0, d],
    [-w, 0, -d],
    [w, 0, -d],
    [-w, HEIGHT, -d],
    [w, HEIGHT, -d],
  ];
  return { type: 'hull', points: points.map((p) => p.map(round) as Vec3) };
}

/** The pose of a stand's body. */
export function platePose(p: LetterPlate): Pose {
  return { p: [p.at[0], p.base, p.at[1]], q: yawQuat(p.yawDeg) };
}

/**
 * The ink of a letter as boxes in the frame of the ink body (posed at the middle of the sloping
 * face, see {@link inkPose}): one box per run of dots in a row, the letter's top up the slope.
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
      // Row 0 is the top of the letter: towards −z, which the tilt turns up the slope.
      const z = (r - 3) * DOT;
      out.push({ type: 'box', half: [((e - c) * DOT) / 2, INK / 2, DOT / 2], pose: { p: [round(x), INK / 2, round(z)], q: [0, 0, 0, 1] } });
      c = e;
    }
  });
  return out;
}

/** The pose of a stand's ink body: the middle of the sloping face, tilted with it. */
export function inkPose(p: LetterPlate): Pose {
  const q = yawQuat(p.yawDeg);
  const mid = qrotate(q, [0, HEIGHT / 2, 0]);
  return { p: [round(p.at[0] + mid[0]), round(p.base + mid[1]), round(p.at[1] + mid[2])], q: qmul(q, TILT).map(round) as Quat };
}

/** The stand's faces that hide things and show the letter, as patches: the sloping face first, then the back. */
export function platePatches(p: LetterPlate, owner: number): Patch[] {
  const q = yawQuat(p.yawDeg);
  const at = (v: Vec3): Vec3 => {
    const w = qrotate(q, v);
    return [p.at[0] + w[0], p.base + w[1], p.at[1] + w[2]];
  };
  const face: Patch = {
    centre: at([0, HEIGHT / 2, 0]),
    u: qrotate(q, [PLATE.side / 2, 0, 0]),
    v: qrotate(q, [0, HEIGHT / 2, -DEPTH / 2]),
    normal: qrotate(q, [0, Math.cos(SLOPE), Math.sin(SLOPE)]),
    owner,
  };
  const back: Patch = { centre: at([0, HEIGHT / 2, -DEPTH / 2]), u: qrotate(q, [PLATE.side / 2, 0, 0]), v: qrotate(q, [0, HEIGHT / 2, 0]), normal: qrotate(q, [0, 0, -1]), owner };
  return [face, back];
}

/** The stand's bounding box (for framing, overlap tests and the table's size). */
export function plateBox(p: LetterPlate): { half: Vec3; pose: Pose } {
  const q = yawQuat(p.yawDeg);
  return { half: [PLATE.side / 2, HEIGHT / 2, DEPTH / 2], pose: { p: [p.at[0], p.base + HEIGHT / 2, p.at[1]], q } };
}
