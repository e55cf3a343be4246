import type { LabelMeasure, MeasureResult } from './page/protocol.ts';

/**
 * Fewest visible pixels a body the rules mention must have in a 768×768 picture (16 × 16 px);
 * scaled by image area for other sizes.
 */
export const DEFAULT_MIN_PIXELS = 256;
const REFERENCE_AREA = 768 * 768;

/** A body the rules mention, with its own minimum where the default does not fit. */
export interface BodyRequirement {
  name: string;
  /** Fewest visible pixels (at 768×768; scaled by area); default {@link DEFAULT_MIN_PIXELS}. */
  minPixels?: number;
  /** The body may reach beyond the frame (a long table, a floor). Default false. */
  mayBeCut?: boolean;
}

/** What a view must show: what the rules mention, less what the tier hides on purpose. */
export interface ViewRequirements {
  /** Bodies the rules mention: each visible at the minimum size and not cut by the frame. */
  bodies?: (string | BodyRequirement)[];
  /** Bodies the tier hides on purpose (declared by the family): exempt from the body checks. */
  hidden?: string[];
  /** Rulers (indexes into the scene's `rulers`) the rules mention: none of their labels may be hidden behind a body or cut by the frame. */
  rulers?: number[];
  /** Default minimum for `bodies`, pixels at 768×768. */
  minPixels?: number;
}

/** Kinds of failure of the view rule. */
export type ViewFailureKind =
  | 'body-unknown'
  | 'body-not-drawn'
  | 'body-too-small'
  | 'body-cut'
  | 'ruler-unknown'
  | 'label-occluded'
  | 'label-cut'
  | 'label-overlap'
  | 'ruler-unreadable';

/** One reason a view breaks the rule. */
export interface ViewFailure {
  kind: ViewFailureKind;
  /** The body name, or `ruler N` / `ruler N label "20 cm"`. */
  subject: string;
  /** A sentence for people. */
  message: string;
  details: Record<string, unknown>;
}

/** The verdict of {@link checkViewRule}. */
export interface ViewVerdict {
  ok: boolean;
  failures: ViewFailure[];
}

const inside = (r: number[], width: number, height: number): boolean => r[0] >= 0 && r[1] >= 0 && r[2] <= width && r[3] <= height;
const overlap = (a: number[], b: number[]): boolean => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
const labelName = (l: LabelMeasure): string => `ruler ${l.ruler} label ${JSON.stringify(l.text)}`;

/**
 * The framing rule for one view, checked on a {@link MeasureResult} (`Renderer.measure`): every
 * required body (less the hidden ones) is drawn, has at least its minimum of visible pixels and
 * is not cut by the frame; no shown ruler label is cut by the frame or overlaps another shown
 * label; no label of a required ruler is hidden behind a body, cut by the frame or pushed out
 * by another ruler's label, and each required ruler shows at least two labels (a scale needs
 * two). Pure: the same measurement and requirements give the same failures, in a fixed order.
 */
export function checkViewRule(m: MeasureResult, req: ViewRequirements): ViewVerdict {
  const failures: ViewFailure[] = [];
  const fail = (kind: ViewFailureKind, subject: string, message: string, details: Record<string, unknown> = {}): void => {
    failures.push({ kind, subject, message, details });
  };
  const scale = (m.width * m.height) / REFERENCE_AREA;
  const hidden = new Set(req.hidden ?? []);
  const byName = new Map(m.bodies.map((b) => [b.name, b]));
  for (const entry of req.bodies ?? []) {
    const r: BodyRequirement = typeof entry === 'string' ? { name: entry } : entry;
    if (hidden.has(r.name)) continue;
    const b = byName.get(r.name);
    if (!b) {
      fail('body-unknown', r.name, `the rules mention '${r.name}', which is not in the scene`);
      continue;
    }
    if (!b.drawn) {
      fail('body-not-drawn', r.name, `'${r.name}' is not drawn`);
      continue;
    }
    const min = Math.ceil((r.minPixels ?? req.minPixels ?? DEFAULT_MIN_PIXELS) * scale);
    if (b.pixels < min) {
      fail('body-too-small', r.name, `'${r.name}' shows ${b.pixels} pixels, fewer than ${min}`, { pixels: b.pixels, minPixels: min });
    }
    if (b.cut && !r.mayBeCut) fail('body-cut', r.name, `'${r.name}' is cut by the frame`, { bounds: b.bounds, width: m.width, height: m.height });
  }
  const shown = m.labels.filter((l) => l.state === 'shown');
  for (const l of shown) {
    if (!inside(l.rect, m.width, m.height)) fail('label-cut', labelName(l), `${labelName(l)} is drawn across the frame`, { rect: l.rect });
  }
  for (let i = 0; i < shown.length; i++) {
    for (let j = i + 1; j < shown.length; j++) {
      if (overlap(shown[i].rect, shown[j].rect)) {
        fail('label-overlap', labelName(shown[j]), `${labelName(shown[j])} is drawn over ${labelName(shown[i])}`, { rects: [shown[i].rect, shown[j].rect] });
      }
    }
  }
  const rulerCount = m.labels.reduce((n, l) => Math.max(n, l.ruler + 1), 0);
  for (const r of req.rulers ?? []) {
    const mine = m.labels.filter((l) => l.ruler === r);
    if (!Number.isInteger(r) || r < 0 || (mine.length === 0 && r >= rulerCount)) {
      fail('ruler-unknown', `ruler ${r}`, `the rules mention ruler ${r}, which has no labels in the scene`);
      continue;
    }
    for (const l of mine) {
      if (l.state === 'occluded') fail('label-occluded', labelName(l), `${labelName(l)} is hidden behind a body`, { rect: l.rect });
      else if (l.state === 'cut') fail('label-cut', labelName(l), `${labelName(l)} would be cut by the frame, so it is left out`, { rect: l.rect });
      else if (l.state === 'overlap') fail('label-overlap', labelName(l), `${labelName(l)} gives way to another ruler's label`, { rect: l.rect });
    }
    const count = mine.filter((l) => l.state === 'shown').length;
    if (count < 2) fail('ruler-unreadable', `ruler ${r}`, `ruler ${r} shows ${count} label${count === 1 ? '' : 's'}; reading a scale needs two`, { shown: count });
  }
  return { ok: failures.length === 0, failures };
}
