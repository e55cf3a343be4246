/**
 * V5 icons: flat shapes drawn by code from a seeded stream — regular and irregular polygons,
 * stars, letter-like glyphs made of round-capped strokes, smooth blobs, and combinations with
 * bars, knobs and notches. An icon is a list of filled outlines on a 512 × 512 canvas (pixels,
 * y down), each added to or cut from the shape in order; {@link iconSvg} writes the same
 * icon as SVG and {@link rasterizeIcon} draws it into RGBA with 4 × 4 supersampling.
 *
 * The raster is our own, not librsvg's, because instance generation is synchronous and must
 * give the same pixels on every machine; the test suite checks that sharp draws the SVG the
 * same way.
 */
import type { Rng } from '../../../core/rng.ts';
import { minimumEnclosingCircle } from './circle.ts';
import { roundTo } from '../../../core/determinism.ts';

/** Canvas side, pixels (the rotation seed rasterises icons at 512 × 512). */
export const ICON_CANVAS = 512;
const SUPER = 4;

/** A filled outline, added to or cut from the icon. */
export interface IconShape {
  op: 'add' | 'cut';
  /** Outline vertices in canvas pixels, y down; rounded to 1e-3 px. */
  points: [number, number][];
}

/** A generated icon: plain data, stored in the instance. */
export interface IconSpec {
  /** What the generator drew, e.g. `star-7`, `glyph-5`, `combo-polygon+bar`. */
  kind: string;
  /** CSS colour of the fill. */
  fill: string;
  shapes: IconShape[];
}

const FILLS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#ff7f0e', '#bcbd22'];

type Pt = [number, number];

function circle(cx: number, cy: number, r: number, n = 32): Pt[] {
  return Array.from({ length: n }, (_, k) => {
    const a = (2 * Math.PI * k) / n;
    return [cx + r * Math.cos(a), cy + r * Math.sin(a)] as Pt;
  });
}

function regular(n: number, r: number, phase: number, jitter: (k: number) => number = () => 1): Pt[] {
  return Array.from({ length: n }, (_, k) => {
    const a = phase + (2 * Math.PI * k) / n;
    const rr = r * jitter(k);
    return [rr * Math.cos(a), rr * Math.sin(a)] as Pt;
  });
}

function star(n: number, r: number, inner: number, phase: number, jitter: (k: number) => number = () => 1): Pt[] {
  return Array.from({ length: 2 * n }, (_, k) => {
    const a = phase + (Math.PI * k) / n;
    const rr = (k % 2 === 0 ? r : r * inner) * jitter(k);
    return [rr * Math.cos(a), rr * Math.sin(a)] as Pt;
  });
}

/** A rectangle of width `w` around the segment a→b (a stroke without caps). */
function bar(a: Pt, b: Pt, w: number): Pt[] {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len = Math.sqrt(dx * dx + dy * dy) || 1;
  const nx = (-dy / len) * (w / 2);
  const ny = (dx / len) * (w / 2);
  return [
    [a[0] + nx, a[1] + ny],
    [b[0] + nx, b[1] + ny],
    [b[0] - nx, b[1] - ny],
    [a[0] - nx, a[1] - ny],
  ];
}

function blob(rng: Rng, r: number): Pt[] {
  const terms = [2, 3, 4, 5].map((k) => ({ k, a: rng.range(-0.16, 0.16), phase: rng.range(0, 2 * Math.PI) }));
  return Array.from({ length: 120 }, (_, i) => {
    const t = (2 * Math.PI * i) / 120;
    let f = 1;
    for (const term of terms) f += term.a * Math.cos(term.k * t + term.phase);
    return [r * f * Math.cos(t), r * f * Math.sin(t)] as Pt;
  });
}

/** Letter-like glyph: a connected walk of round-capped strokes over a 3 × 4 grid of nodes. */
function glyph(rng: Rng, r: number): { shapes: IconShape[]; strokes: number } {
  const cols = [-0.62, 0, 0.62];
  const rows = [-0.92, -0.31, 0.31, 0.92];
  const node = (c: number, k: number): Pt => [cols[c] * r, rows[k] * r];
  const width = rng.range(0.2, 0.3) * r;
  const used = new Set<string>();
  const visited: Array<[number, number]> = [[rng.int(0, 2), rng.int(0, 3)]];
  const shapes: IconShape[] = [];
  const strokes = rng.int(3, 6);
  let cur = visited[0];
  for (let s = 0; s < strokes; s++) {
    // Sometimes branch from an earlier node, so glyphs get junctions like F, K or Y.
    if (s > 0 && rng.next() < 0.3) cur = rng.pick(visited);
    const moves: Array<[number, number]> = [];
    for (let dc = -1; dc <= 1; dc++) {
      for (let dk = -1; dk <= 1; dk++) {
        const c = cur[0] + dc;
        const k = cur[1] + dk;
        if ((dc || dk) && c >= 0 && c <= 2 && k >= 0 && k <= 3) {
          const key = [cur, [c, k]].map((p) => p.join(',')).sort().join('|');
          if (!used.has(key)) moves.push([c, k]);
        }
      }
    }
    if (!moves.length) break;
    const next = rng.pick(moves);
    used.add([cur, next].map((p) => p.join(',')).sort().join('|'));
    shapes.push({ op: 'add', points: bar(node(...cur), node(...next), width) });
    visited.push(next);
    cur = next;
  }
  for (const [c, k] of visited) {
    const [x, y] = node(c, k);
    shapes.push({ op: 'add', points: circle(x, y, width / 2, 20) });
  }
  return { shapes, strokes: used.size };
}

function baseShape(rng: Rng, r: number): { kind: string; points: Pt[] } {
  const which = rng.int(0, 2);
  const phase = rng.range(0, 2 * Math.PI);
  if (which === 0) {
    const n = rng.int(3, 7);
    return { kind: `polygon-${n}`, points: regular(n, r, phase) };
  }
  if (which === 1) {
    const n = rng.int(4, 8);
    return { kind: `star-${n}`, points: star(n, r, rng.range(0.45, 0.65), phase) };
  }
  return { kind: 'blob', points: blob(rng, r) };
}

/**
 * Draws one icon (before filtering), 160–200 px from its centre to its farthest point; the
 * occupancy tests in `extrusion.ts` decide whether it is kept.
 */
export function drawIcon(rng: Rng): IconSpec {
  const r = rng.range(150, 190);
  const family = rng.int(0, 5);
  let kind: string;
  let shapes: IconShape[];
  if (family === 0) {
    const n = rng.int(3, 8);
    const irregular = rng.next() < 0.5;
    const jit = Array.from({ length: n }, () => (irregular ? rng.range(0.75, 1.1) : 1));
    kind = `${irregular ? 'irregular-' : ''}polygon-${n}`;
    shapes = [{ op: 'add', points: regular(n, r, rng.range(0, 2 * Math.PI), (k) => jit[k]) }];
  } else if (family === 1) {
    const n = rng.int(4, 9);
    const irregular = rng.next() < 0.5;
    const jit = Array.from({ length: 2 * n }, () => (irregular ? rng.range(0.8, 1.1) : 1));
    kind = `${irregular ? 'irregular-' : ''}star-${n}`;
    shapes = [{ op: 'add', points: star(n, r, rng.range(0.38, 0.62), rng.range(0, 2 * Math.PI), (k) => jit[k]) }];
  } else if (family === 2) {
    const g = glyph(rng, r);
    kind = `glyph-${g.strokes}`;
    shapes = g.shapes;
  } else if (family === 3) {
    kind = 'blob';
    shapes = [{ op: 'add', points: blob(rng, r * 0.9) }];
  } else {
    // A combination: a base shape with one or two attachments (a bar, a knob, a notch).
    const base = baseShape(rng, r * 0.72);
    shapes = [{ op: 'add', points: base.points }];
    const parts: string[] = [base.kind];
    const extras = rng.int(1, 2);
    for (let e = 0; e < extras; e++) {
      const a = rng.range(0, 2 * Math.PI);
      const dir: Pt = [Math.cos(a), Math.sin(a)];
      const what = rng.int(0, 2);
      if (what === 0) {
        const from: Pt = [dir[0] * r * 0.2, dir[1] * r * 0.2];
        const to: Pt = [dir[0] * r, dir[1] * r];
        shapes.push({ op: 'add', points: bar(from, to, rng.range(0.16, 0.26) * r) });
        parts.push('bar');
      } else if (what === 1) {
        const kr = rng.range(0.2, 0.3) * r;
        shapes.push({ op: 'add', points: circle(dir[0] * (r - kr), dir[1] * (r - kr), kr) });
        parts.push('knob');
      } else {
        const kr = rng.range(0.14, 0.22) * r;
        shapes.push({ op: 'cut', points: circle(dir[0] * r * 0.66, dir[1] * r * 0.66, kr) });
        parts.push('notch');
      }
    }
    kind = `combo-${parts.join('+')}`;
  }
  // Size by the enclosing circle of the added outlines (radius 160–200 px), and place it a
  // little off-centre: the extrusion re-centres on the enclosing circle of the pixels.
  const mec = minimumEnclosingCircle(shapes.filter((s) => s.op === 'add').flatMap((s) => s.points));
  const k = rng.range(160, 200) / mec.r;
  const ox = ICON_CANVAS / 2 + rng.range(-20, 20);
  const oy = ICON_CANVAS / 2 + rng.range(-20, 20);
  const fill = rng.pick(FILLS);
  return {
    kind,
    fill,
    shapes: shapes.map((s) => ({
      op: s.op,
      points: s.points.map(([x, y]) => [roundTo(ox + k * (x - mec.x), 3), roundTo(oy + k * (y - mec.y), 3)] as Pt),
    })),
  };
}

/** The icon as an SVG document (512 × 512, transparent background). */
export function iconSvg(icon: IconSpec): string {
  const path = (pts: Pt[]): string => `M${pts.map(([x, y]) => `${x} ${y}`).join('L')}Z`;
  const parts = icon.shapes.map((s) => `<path d="${path(s.points)}" fill="${s.op === 'add' ? '#fff' : '#000'}"/>`);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${ICON_CANVAS}" height="${ICON_CANVAS}" viewBox="0 0 ${ICON_CANVAS} ${ICON_CANVAS}">` +
    `<mask id="m" maskUnits="userSpaceOnUse" x="0" y="0" width="${ICON_CANVAS}" height="${ICON_CANVAS}">` +
    `<rect width="${ICON_CANVAS}" height="${ICON_CANVAS}" fill="#000"/>${parts.join('')}</mask>` +
    `<rect width="${ICON_CANVAS}" height="${ICON_CANVAS}" fill="${icon.fill}" mask="url(#m)"/></svg>`
  );
}

function parseHex(color: string): [number, number, number] {
  const n = Number.parseInt(color.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/**
 * Draws the icon into straight-alpha RGBA (512 × 512 × 4): each pixel's alpha is the covered
 * fraction of its 16 sub-samples; covered pixels carry the fill colour, empty ones are
 * transparent black. Outlines are filled even-odd (every outline the generator makes is simple).
 */
export function rasterizeIcon(icon: IconSpec): Uint8Array {
  const W = ICON_CANVAS * SUPER;
  const sub = new Uint8Array(W * W);
  const xs: number[] = [];
  for (const shape of icon.shapes) {
    const pts = shape.points;
    let minY = Infinity;
    let maxY = -Infinity;
    for (const p of pts) {
      minY = Math.min(minY, p[1]);
      maxY = Math.max(maxY, p[1]);
    }
    const rowLo = Math.max(0, Math.ceil(minY * SUPER - 0.5));
    const rowHi = Math.min(W - 1, Math.floor(maxY * SUPER - 0.5));
    const value = shape.op === 'add' ? 1 : 0;
    for (let row = rowLo; row <= rowHi; row++) {
      const y = (row + 0.5) / SUPER;
      xs.length = 0;
      for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
        const [x0, y0] = pts[j];
        const [x1, y1] = pts[i];
        if ((y0 <= y && y < y1) || (y1 <= y && y < y0)) xs.push(x0 + ((y - y0) * (x1 - x0)) / (y1 - y0));
      }
      xs.sort((a, b) => a - b);
      for (let k = 0; k + 1 < xs.length; k += 2) {
        const c0 = Math.max(0, Math.ceil(xs[k] * SUPER - 0.5));
        const c1 = Math.min(W, Math.ceil(xs[k + 1] * SUPER - 0.5));
        if (c1 > c0) sub.fill(value, row * W + c0, row * W + c1);
      }
    }
  }
  const [fr, fg, fb] = parseHex(icon.fill);
  const rgba = new Uint8Array(ICON_CANVAS * ICON_CANVAS * 4);
  for (let v = 0; v < ICON_CANVAS; v++) {
    for (let u = 0; u < ICON_CANVAS; u++) {
      let n = 0;
      for (let dy = 0; dy < SUPER; dy++) {
        const base = (v * SUPER + dy) * W + u * SUPER;
        for (let dx = 0; dx < SUPER; dx++) n += sub[base + dx];
      }
      if (n === 0) continue;
      const o = (v * ICON_CANVAS + u) * 4;
      rgba[o] = fr;
      rgba[o + 1] = fg;
      rgba[o + 2] = fb;
      rgba[o + 3] = Math.round((255 * n) / (SUPER * SUPER));
    }
  }
  return rgba;
}

/**
 * The seed's foreground rule on an RGBA raster: the background colour is the mean of the four
 * corner pixels, and a pixel is foreground when its opacity exceeds 8 % and its colour differs
 * from the background by more than 30 in L1 distance. Returns one byte per pixel (0/1).
 */
export function foregroundMask(rgba: Uint8Array, size = ICON_CANVAS): Uint8Array {
  const corners = [0, size - 1, (size - 1) * size, size * size - 1];
  const bg = [0, 1, 2].map((c) => corners.reduce((s, p) => s + rgba[p * 4 + c], 0) / 4);
  const mask = new Uint8Array(size * size);
  for (let p = 0; p < size * size; p++) {
    const o = p * 4;
    if (rgba[o + 3] <= 0.08 * 255) continue;
    const d = Math.abs(rgba[o] - bg[0]) + Math.abs(rgba[o + 1] - bg[1]) + Math.abs(rgba[o + 2] - bg[2]);
    if (d > 30) mask[p] = 1;
  }
  return mask;
}
