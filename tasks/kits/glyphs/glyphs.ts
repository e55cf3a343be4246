/**
 * Letters painted in the scene, for rules that name things by letter
 * (trays A–D, pegs A/B/C, options A–H): a 5 × 7 dot font whose strokes become thin flat boxes.
 * A picture can then show the name the rules use, and the renderer draws it as any other body
 * (same depth, outlines and shadows), so a label is hidden by what stands in front of it.
 *
 * The boxes lie in the body's own x–z plane, ink from y = 0 up to the ink thickness, the text
 * reading along +x with the tops of the characters towards −z: laid flat on a table and seen
 * from the front (+z), it reads upright. Pose the body to put it anywhere (a tilt makes a
 * sloping sign). Kept here so every family paints the same letters.
 */
import { round9 } from '../../../core/determinism.ts';
import type { ShapeSpec } from '../../../sim/types.ts';

/** Dots per character: columns and rows. */
export const GLYPH_COLS = 5;
export const GLYPH_ROWS = 7;

/** 5 × 7 dot glyphs, top row first, '#' = ink. */
const GLYPHS: Readonly<Record<string, readonly string[]>> = {
  A: ['.###.', '#...#', '#...#', '#####', '#...#', '#...#', '#...#'],
  B: ['####.', '#...#', '#...#', '####.', '#...#', '#...#', '####.'],
  C: ['.####', '#....', '#....', '#....', '#....', '#....', '.####'],
  D: ['####.', '#...#', '#...#', '#...#', '#...#', '#...#', '####.'],
  E: ['#####', '#....', '#....', '####.', '#....', '#....', '#####'],
  F: ['#####', '#....', '#....', '####.', '#....', '#....', '#....'],
  G: ['.####', '#....', '#....', '#..##', '#...#', '#...#', '.###.'],
  H: ['#...#', '#...#', '#...#', '#####', '#...#', '#...#', '#...#'],
};

/** The characters this font can paint. */
export const PAINTABLE = Object.keys(GLYPHS).sort().join('');

/** Size of painted text: width along x and depth along z, metres. */
export function textSize(text: string, dot: number): { width: number; depth: number } {
  const n = [...text].length;
  return { width: round9((n * GLYPH_COLS + Math.max(0, n - 1)) * dot), depth: round9(GLYPH_ROWS * dot) };
}

/**
 * The ink of `text` as flat boxes (one per run of dots in a row, grown down over the rows that
 * repeat it), centred on the body origin in
 * x and z, `dot` metres a dot and `ink` metres thick. Characters are one dot apart.
 */
export function glyphBoxes(text: string, opts: { dot: number; ink: number }): ShapeSpec[] {
  const { dot, ink } = opts;
  const chars = [...text];
  for (const ch of chars) if (!GLYPHS[ch]) throw new RangeError(`no glyph for ${JSON.stringify(ch)}; paintable: ${PAINTABLE}`);
  const { width } = textSize(text, dot);
  const out: ShapeSpec[] = [];
  chars.forEach((ch, k) => {
    const left = -width / 2 + k * (GLYPH_COLS + 1) * dot;
    // Runs of ink in each row; a run repeated in the rows below grows into one taller box, so
    // a stroke is one box and the renderer draws no seam across it.
    const open = new Map<string, { top: number; rows: number }>();
    const emit = (key: string, run: { top: number; rows: number }): void => {
      const [c, e] = key.split(':').map(Number);
      const x = left + ((c + e) / 2) * dot;
      // Row 0 is the top of the character: towards −z, away from a viewer in front.
      const z = (run.top + run.rows / 2 - GLYPH_ROWS / 2) * dot;
      out.push({ type: 'box', half: [round9(((e - c) * dot) / 2), round9(ink / 2), round9((run.rows * dot) / 2)], pose: { p: [round9(x), round9(ink / 2), round9(z)], q: [0, 0, 0, 1] } });
    };
    GLYPHS[ch].forEach((row, r) => {
      const here = new Set<string>();
      let c = 0;
      while (c < row.length) {
        if (row[c] !== '#') {
          c++;
          continue;
        }
        let e = c;
        while (e < row.length && row[e] === '#') e++;
        here.add(`${c}:${e}`);
        c = e;
      }
      for (const [key, run] of [...open]) {
        if (here.has(key)) continue;
        emit(key, run);
        open.delete(key);
      }
      for (const key of here) {
        const run = open.get(key);
        if (run) run.rows++;
        else open.set(key, { top: r, rows: 1 });
      }
    });
    for (const [key, run] of open) emit(key, run);
  });
  return out;
}
