import { html, type Html } from '../core/html-escape.ts';
import type { Interval } from '../core/statistics.ts';

/** One bar of a {@link barChart}. */
export interface Bar {
  label: string;
  /** Null draws no bar and prints "–" (e.g. no graded episode). */
  value: number | null;
  /** A whisker, e.g. a Wilson interval, in the value's units. */
  interval?: Interval | null;
  /** Text after the value, e.g. "3/4". */
  note?: string;
  color?: string;
}

/** Options of {@link barChart}. */
export interface BarChartOptions {
  title: string;
  bars: Bar[];
  /** Value at the right end of the axis. */
  max: number;
  /** Formats a value for its label. */
  format(v: number): string;
  /** Axis ticks, in value units. */
  ticks?: number[];
}

const ROW = 26;
const LABEL_W = 180;
const PLOT_W = 280;
const VALUE_W = 130;
const TOP = 34;

function fmt(x: number): string {
  return (Math.round(x * 10) / 10).toString();
}

/**
 * A horizontal bar chart as inline SVG: one row per bar, an optional whisker per bar, axis
 * ticks. Every text goes through the escaping template, so labels may be anything.
 */
export function barChart(o: BarChartOptions): Html {
  const height = TOP + o.bars.length * ROW + 22;
  const width = LABEL_W + PLOT_W + VALUE_W;
  const x = (v: number): number => LABEL_W + (Math.max(0, Math.min(o.max, v)) / o.max) * PLOT_W;
  const ticks = o.ticks ?? [0, o.max / 2, o.max];
  const rows = o.bars.map((b, i) => {
    const y = TOP + i * ROW;
    const mid = y + ROW / 2;
    const color = b.color ?? '#4a7bb7';
    const bar = b.value === null ? null : html`<rect x="${fmt(LABEL_W)}" y="${fmt(y + 5)}" width="${fmt(x(b.value) - LABEL_W)}" height="${fmt(ROW - 10)}" fill="${color}" rx="2"/>`;
    const whisker = b.interval
      ? html`<g stroke="#222" stroke-width="1.5"><line x1="${fmt(x(b.interval.lo))}" x2="${fmt(x(b.interval.hi))}" y1="${fmt(mid)}" y2="${fmt(mid)}"/><line x1="${fmt(x(b.interval.lo))}" x2="${fmt(x(b.interval.lo))}" y1="${fmt(mid - 5)}" y2="${fmt(mid + 5)}"/><line x1="${fmt(x(b.interval.hi))}" x2="${fmt(x(b.interval.hi))}" y1="${fmt(mid - 5)}" y2="${fmt(mid + 5)}"/></g>`
      : null;
    const value = b.value === null ? '–' : o.format(b.value);
    return html`<g class="bar"><text x="${fmt(LABEL_W - 8)}" y="${fmt(mid + 4)}" text-anchor="end">${b.label}</text>${bar}${whisker}<text x="${fmt(LABEL_W + PLOT_W + 8)}" y="${fmt(mid + 4)}">${value}${b.note ? ` (${b.note})` : ''}</text></g>`;
  });
  const axis = ticks.map(
    (t) =>
      html`<line x1="${fmt(x(t))}" x2="${fmt(x(t))}" y1="${fmt(TOP - 4)}" y2="${fmt(height - 20)}" stroke="#ccc"/><text x="${fmt(x(t))}" y="${fmt(height - 6)}" text-anchor="middle" fill="#666">${o.format(t)}</text>`,
  );
  return html`<svg class="chart" role="img" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" font-family="system-ui, sans-serif" font-size="12"><title>${o.title}</title><text x="0" y="16" font-weight="600" font-size="13">${o.title}</text>${axis}${rows}</svg>`;
}
