import sharp, { type OverlayOptions } from 'sharp';

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

/** Options of {@link composeRow}. */
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
export async function composeRow(images: Buffer[], opts: ComposeRowOptions = {}): Promise<Buffer> {
  if (images.length === 0) throw new RangeError('composeRow needs at least one image');
  const sizes = await Promise.all(
    images.map(async (img) => {
      const m = await sharp(img).metadata();
      return { width: m.width, height: m.height };
    }),
  );
  const separator = opts.separator ?? 8;
  const tallest = Math.max(...sizes.map((s) => s.height));
  const labelled = opts.labels !== undefined;
  const labelHeight = labelled ? (opts.labelHeight ?? Math.max(24, Math.round(tallest * 0.05))) : 0;
  const width = sizes.reduce((sum, s) => sum + s.width, 0) + separator * (images.length - 1);
  const height = labelHeight + tallest;
  const layers: OverlayOptions[] = [];
  let x = 0;
  for (const [i, img] of images.entries()) {
    const { width: w } = sizes[i];
    if (labelled) {
      const bar = await labelBar(opts.labels![i] ?? '', w, labelHeight, opts.labelStyles?.[i]);
      layers.push({ input: bar, left: x, top: 0 });
    }
    layers.push({ input: img, left: x, top: labelHeight });
    x += w + separator;
  }
  return sharp({ create: { width, height, channels: 3, background: opts.background ?? '#101214' } })
    .composite(layers)
    .png()
    .toBuffer();
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
  const { width = 1, height = 1 } = await sharp(image).metadata();
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
  const bar = await sharp(Buffer.from(svg)).png().toBuffer();
  return sharp({ create: { width, height: height + barHeight, channels: 3, background: '#101214' } })
    .composite([
      { input: image, left: 0, top: 0 },
      { input: bar, left: 0, top: height },
    ])
    .png()
    .toBuffer();
}
