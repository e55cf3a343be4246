import sharp from 'sharp';

/** An opaque picture as raw RGB bytes, rows top to bottom. */
interface RawRgb {
  data: Buffer;
  width: number;
  height: number;
}

/** Decodes a picture to raw RGB, laid over `background` where it is not opaque. */
async function rawRgb(input: Buffer, background: string): Promise<RawRgb> {
  const { data, info } = await sharp(input).flatten({ background }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`expected an RGB picture, got ${info.channels} channels`);
  return { data, width: info.width, height: info.height };
}

/**
 * A canvas of `width` × `height` in `background` with the `parts` copied in at their places,
 * encoded as PNG. The parts are opaque, so placing them is copying rows: far cheaper than a
 * general composite, which blends every layer (the same pixels either way).
 */
function placeRaw(width: number, height: number, background: string, parts: { image: RawRgb; left: number; top: number }[]): Promise<Buffer> {
  const canvas = Buffer.alloc(width * height * 3);
  const [r, g, b] = hexRgb(background);
  for (let i = 0; i < canvas.length; i += 3) {
    canvas[i] = r;
    canvas[i + 1] = g;
    canvas[i + 2] = b;
  }
  for (const { image, left, top } of parts) {
    const w = Math.min(image.width, width - left);
    for (let y = 0; y < image.height && top + y < height; y++) {
      image.data.copy(canvas, ((top + y) * width + left) * 3, y * image.width * 3, (y * image.width + w) * 3);
    }
  }
  return sharp(canvas, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

/** `#rrggbb` as three bytes. */
function hexRgb(color: string): [number, number, number] {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  if (!m) throw new RangeError(`expected a colour as #rrggbb, got ${JSON.stringify(color)}`);
  return [parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16)];
}

/** Colour behind composed pictures (seen in the gaps between them). */
const CANVAS = '#101214';

/** Escapes text for use inside SVG/XML content or attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** Look of a label bar. */
export interface LabelStyle {
  /** CSS colour of the bar; default `#202428`. */
  background?: string;
  /** CSS colour of the text; default white. */
  color?: string;
}

/**
 * A bar `width`×`height` pixels with `text` centred in bold sans-serif, drawn by sharp (librsvg)
 * from SVG. The text is escaped and shrunk to fit the width. Returns PNG bytes.
 */
export async function labelBar(text: string, width: number, height: number, style: LabelStyle = {}): Promise<Buffer> {
  const background = escapeXml(style.background ?? '#202428');
  const fill = escapeXml(style.color ?? '#ffffff');
  // DejaVu Sans bold averages about 0.68 em per character.
  const size = Math.max(6, Math.min(height * 0.6, (width * 0.94) / (0.68 * Math.max(1, [...text].length))));
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<rect width="100%" height="100%" fill="${background}"/>` +
    `<text x="50%" y="50%" dy="0.36em" text-anchor="middle" font-family="DejaVu Sans, Liberation Sans, sans-serif" ` +
    `font-weight="bold" font-size="${size.toFixed(1)}" fill="${fill}">${escapeXml(text)}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Options of {@link composeRow} and {@link composeColumn}. */
export interface ComposeRowOptions {
  /** One label per image, drawn in a bar above it. */
  labels?: string[];
  /** Per-image label look (same order as `labels`). */
  labelStyles?: LabelStyle[];
  /** Label bar height in pixels; default 5 % of the tallest image, at least 24. */
  labelHeight?: number;
  /** Gap between panels in pixels; default 8. */
  separator?: number;
  /** CSS colour of gaps and margins; default `#101214`. */
  background?: string;
}

/**
 * Puts images (PNG or any format sharp reads) side by side, each under an optional label bar,
 * separated by gaps. Panels are top-aligned; returns PNG bytes.
 */
export function composeRow(images: Buffer[], opts: ComposeRowOptions = {}): Promise<Buffer> {
  return compose(images, opts, 'row');
}

/**
 * Stacks images (PNG or any format sharp reads) top to bottom, each under an optional label bar
 * as wide as it, separated by gaps. Panels are left-aligned; returns PNG bytes.
 */
export function composeColumn(images: Buffer[], opts: ComposeRowOptions = {}): Promise<Buffer> {
  return compose(images, opts, 'column');
}

async function compose(images: Buffer[], opts: ComposeRowOptions, direction: 'row' | 'column'): Promise<Buffer> {
  if (images.length === 0) throw new RangeError(`compose${direction === 'row' ? 'Row' : 'Column'} needs at least one image`);
  const background = opts.background ?? '#101214';
  const raws = await Promise.all(images.map((img) => rawRgb(img, background)));
  const separator = opts.separator ?? 8;
  const tallest = Math.max(...raws.map((s) => s.height));
  const widest = Math.max(...raws.map((s) => s.width));
  const labelled = opts.labels !== undefined;
  const labelHeight = labelled ? (opts.labelHeight ?? Math.max(24, Math.round(tallest * 0.05))) : 0;
  const gaps = separator * (images.length - 1);
  const width = direction === 'row' ? raws.reduce((sum, s) => sum + s.width, 0) + gaps : widest;
  const height = direction === 'row' ? labelHeight + tallest : raws.reduce((sum, s) => sum + labelHeight + s.height, 0) + gaps;
  const parts: { image: RawRgb; left: number; top: number }[] = [];
  let x = 0;
  let y = 0;
  for (const [i, raw] of raws.entries()) {
    const { width: w, height: h } = raw;
    if (labelled) {
      const bar = await labelBar(opts.labels![i] ?? '', w, labelHeight, opts.labelStyles?.[i]);
      parts.push({ image: await rawRgb(bar, background), left: x, top: y });
    }
    parts.push({ image: raw, left: x, top: y + labelHeight });
    if (direction === 'row') x += w + separator;
    else y += labelHeight + h + separator;
  }
  return placeRaw(width, height, background, parts);
}

/** Splits `text` into lines of at most `perLine` characters at spaces (a longer word gets a line of its own). */
export function wrapText(text: string, perLine: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > perLine) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * `image` with a caption under it: `text` wrapped to the image's width in regular sans-serif
 * (escaped), dark text on a light bar, at most `maxLines` lines (the last one ends in "…" when
 * the text is longer). Returns PNG bytes.
 */
export async function withCaption(image: Buffer, text: string, opts: { fontSize?: number; maxLines?: number } = {}): Promise<Buffer> {
  const picture = await rawRgb(image, CANVAS);
  const { width, height } = picture;
  const size = opts.fontSize ?? Math.max(12, Math.min(22, Math.round(width / 60)));
  // DejaVu Sans averages about 0.6 em per character.
  const perLine = Math.max(8, Math.floor((width - size) / (0.6 * size)));
  let lines = wrapText(text, perLine);
  const maxLines = opts.maxLines ?? 4;
  if (lines.length > maxLines) lines = [...lines.slice(0, maxLines - 1), `${lines[maxLines - 1].slice(0, perLine - 1)}…`];
  const lineHeight = Math.round(size * 1.3);
  const barHeight = lineHeight * lines.length + Math.round(size * 0.8);
  const tspans = lines
    .map((l, i) => `<text x="${Math.round(size / 2)}" y="${Math.round(size * 0.4) + lineHeight * (i + 1) - Math.round(size * 0.3)}">${escapeXml(l)}</text>`)
    .join('');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${barHeight}">` +
    `<rect width="100%" height="100%" fill="#f4f1e8"/>` +
    `<g font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="${size}" fill="#1b1b1b">${tspans}</g></svg>`;
  const bar = await rawRgb(await sharp(Buffer.from(svg)).png().toBuffer(), CANVAS);
  return placeRaw(width, height + barHeight, CANVAS, [
    { image: picture, left: 0, top: 0 },
    { image: bar, left: 0, top: height },
  ]);
}
