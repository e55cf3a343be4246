/**
 * Letters drawn in the scene: a 5×7 pixel font turned into thin boxes, for labels that a rule
 * names (a piece's letter, a compass mark). The boxes go on a drawn-only body (`collides:
 * false`) laid on top of the part it names; a family moves the label with its part as one rigid
 * group, so the letter is always where the part is.
 */
import type { ShapeSpec } from '../../sim/types.ts';

// Rows top to bottom, '#' lit. Each glyph is 5 columns wide and 7 rows tall.
const FONT: Record<string, string[]> = {
  A: [' ### ', '#   #', '#   #', '#####', '#   #', '#   #', '#   #'],
  B: ['#### ', '#   #', '#   #', '#### ', '#   #', '#   #', '#### '],
  C: [' ### ', '#   #', '#    ', '#    ', '#    ', '#   #', ' ### '],
  D: ['#### ', '#   #', '#   #', '#   #', '#   #', '#   #', '#### '],
  E: ['#####', '#    ', '#    ', '#### ', '#    ', '#    ', '#####'],
  F: ['#####', '#    ', '#    ', '#### ', '#    ', '#    ', '#    '],
  G: [' ### ', '#   #', '#    ', '# ###', '#   #', '#   #', ' ####'],
  H: ['#   #', '#   #', '#   #', '#####', '#   #', '#   #', '#   #'],
  I: [' ### ', '  #  ', '  #  ', '  #  ', '  #  ', '  #  ', ' ### '],
  J: ['  ###', '   # ', '   # ', '   # ', '   # ', '#  # ', ' ##  '],
  K: ['#   #', '#  # ', '# #  ', '##   ', '# #  ', '#  # ', '#   #'],
  L: ['#    ', '#    ', '#    ', '#    ', '#    ', '#    ', '#####'],
  M: ['#   #', '## ##', '# # #', '# # #', '#   #', '#   #', '#   #'],
  N: ['#   #', '##  #', '# # #', '#  ##', '#   #', '#   #', '#   #'],
  O: [' ### ', '#   #', '#   #', '#   #', '#   #', '#   #', ' ### '],
  P: ['#### ', '#   #', '#   #', '#### ', '#    ', '#    ', '#    '],
  Q: [' ### ', '#   #', '#   #', '#   #', '# # #', '#  # ', ' ## #'],
  R: ['#### ', '#   #', '#   #', '#### ', '# #  ', '#  # ', '#   #'],
  S: [' ####', '#    ', '#    ', ' ### ', '    #', '    #', '#### '],
  T: ['#####', '  #  ', '  #  ', '  #  ', '  #  ', '  #  ', '  #  '],
  U: ['#   #', '#   #', '#   #', '#   #', '#   #', '#   #', ' ### '],
  V: ['#   #', '#   #', '#   #', '#   #', '#   #', ' # # ', '  #  '],
  W: ['#   #', '#   #', '#   #', '# # #', '# # #', '# # #', ' # # '],
  X: ['#   #', '#   #', ' # # ', '  #  ', ' # # ', '#   #', '#   #'],
  Y: ['#   #', '#   #', ' # # ', '  #  ', '  #  ', '  #  ', '  #  '],
  Z: ['#####', '    #', '   # ', '  #  ', ' #   ', '#    ', '#####'],
};

/** Letters the font can draw. */
export const GLYPH_LETTERS = Object.keys(FONT).join('');

// Figures, for a value a scene shows as a label (B3's push force, "0.62 N"): digits, the
// decimal point and a space, in the same 5×7 cells.
const FIGURES: Record<string, string[]> = {
  '0': [' ### ', '#   #', '#  ##', '# # #', '##  #', '#   #', ' ### '],
  '1': ['  #  ', ' ##  ', '  #  ', '  #  ', '  #  ', '  #  ', ' ### '],
  '2': [' ### ', '#   #', '    #', '   # ', '  #  ', ' #   ', '#####'],
  '3': ['#####', '   # ', '  #  ', '   # ', '    #', '#   #', ' ### '],
  '4': ['   # ', '  ## ', ' # # ', '#  # ', '#####', '   # ', '   # '],
  '5': ['#####', '#    ', '#### ', '    #', '    #', '#   #', ' ### '],
  '6': ['  ## ', ' #   ', '#    ', '#### ', '#   #', '#   #', ' ### '],
  '7': ['#####', '    #', '   # ', '  #  ', ' #   ', ' #   ', ' #   '],
  '8': [' ### ', '#   #', '#   #', ' ### ', '#   #', '#   #', ' ### '],
  '9': [' ### ', '#   #', '#   #', ' ####', '    #', '   # ', ' ##  '],
  '.': ['     ', '     ', '     ', '     ', '     ', ' ##  ', ' ##  '],
  ' ': ['     ', '     ', '     ', '     ', '     ', '     ', '     '],
};

/**
 * Boxes spelling `text` (letters A–Z, digits, '.' and spaces) lying flat in the XZ plane, centred on the origin, read
 * upright when seen from above with −Z as "up" on the page; `height` is the letter height in
 * metres and `thickness` the boxes' height. `yaw` turns the text about Y (radians, rounded
 * sines/cosines so instances stay portable). Runs of lit pixels become one box each.
 */
export function glyphShapes(text: string, height: number, thickness: number, yaw = 0): ShapeSpec[] {
  const px = height / 7;
  const advance = 6 * px;
  const width = text.length * advance - px;
  const c = Math.round(Math.cos(yaw) * 1e9) / 1e9;
  const s = Math.round(Math.sin(yaw) * 1e9) / 1e9;
  const qy = Math.round(Math.sin(yaw / 2) * 1e9) / 1e9;
  const qw = Math.round(Math.cos(yaw / 2) * 1e9) / 1e9;
  const r = (x: number): number => Math.round(x * 1e9) / 1e9;
  const shapes: ShapeSpec[] = [];
  [...text.toUpperCase()].forEach((ch, k) => {
    const rows = FONT[ch] ?? FIGURES[ch];
    if (!rows) throw new RangeError(`no glyph for "${ch}"`);
    rows.forEach((row, j) => {
      for (let i = 0; i < 5; ) {
        if (row[i] !== '#') {
          i++;
          continue;
        }
        let e = i;
        while (e < 5 && row[e] === '#') e++;
        const x = -width / 2 + k * advance + ((i + e) / 2) * px;
        const z = -height / 2 + (j + 0.5) * px;
        // Rotate (x, z) by yaw about +Y: x' = x cos + z sin, z' = −x sin + z cos.
        shapes.push({
          type: 'box',
          half: [r(((e - i) * px) / 2), r(thickness / 2), r(px / 2)],
          pose: { p: [r(x * c + z * s), 0, r(-x * s + z * c)], q: [0, qy, 0, qw] },
        });
        i = e;
      }
    });
  });
  return shapes;
}
