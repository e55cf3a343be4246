import type { BodyMeasure, LabelMeasure, MeasureResult, ShapeMeasure } from './page/protocol.ts';

/**
 * Fewest visible pixels a body the rules mention must have in a 768×768 picture (16 × 16 px);
 * scaled by image area for other sizes.
 */
export const DEFAULT_MIN_PIXELS = 256;
const REFERENCE_AREA = 768 * 768;

/** A side of the picture's frame. */
export type FrameSide = 'top' | 'bottom' | 'left' | 'right';

/** A body the rules mention, with its own minimum where the default does not fit. */
export interface BodyRequirement {
  /** The body's name, or the part's name when `group` lists its bodies. */
  name: string;
  /**
   * The part is drawn as several bodies (an object of several colours, one body per colour):
   * their visible pixels add up, and the part is cut where any of them is.
   */
  group?: string[];
  /** Fewest visible pixels (at 768×768; scaled by area); default {@link DEFAULT_MIN_PIXELS}. */
  minPixels?: number;
  /**
   * The body may reach beyond the frame (a long table, a floor): `true` on any side, or only
   * across the sides listed (an object whose lower part a screen hides may run off the bottom,
   * never off the top). Default false.
   */
  mayBeCut?: boolean | FrameSide[];
}

/** What a view must show: what the rules mention, less what the tier hides on purpose. */
export interface ViewRequirements {
  /** Bodies the rules mention: each visible at the minimum size and not cut by the frame. */
  bodies?: (string | BodyRequirement)[];
  /** Bodies the tier hides on purpose (declared by the family): exempt from the body checks. */
  hidden?: string[];
  /** Rulers (indexes into the scene's `rulers`) the rules mention: none of their labels may be hidden behind a body or cut by the frame. */
  rulers?: number[];
  /**
   * Rulers the tier hides on purpose (declared by the family): none of their labels may show,
   * so a hidden scale never gives itself away through a label floating on what hides it.
   */
  hiddenRulers?: number[];
  /**
   * Why this tier hides `hidden` and `hiddenRulers` (its lever, or the task's premise), in a
   * sentence a reader can check against the tier's description. Required whenever anything is
   * hidden: a family cannot quietly exempt a body it failed to frame.
   */
  hiddenBecause?: string;
  /** Default minimum for `bodies`, pixels at 768×768. */
  minPixels?: number;
  /**
   * Backdrop the rules need not mention (a table top, the room's walls, a stand): drawn bodies
   * exempt from the size and frame checks, but declared, like every other drawn body. The rule
   * is not opt-in: a drawn body that is neither in `bodies`, nor `hidden`, nor `scenery` fails
   * it (`body-undeclared`), so a goal the family forgot to declare cannot sit outside the frame.
   */
  scenery?: string[];
  /**
   * Letters drawn in the scene that the rules name (a piece's letter, a compass mark): each at
   * least {@link MIN_LETTER_PX} pixels along its longer side and {@link MIN_LETTER_NARROW_PX}
   * along its narrower one, at least {@link MIN_LETTER_SHOWN} of it in sight, and no letter
   * shared between a compass mark and a piece. A hidden letter is exempt, and goes with the
   * hidden piece it names when hidden parts are counted (`hiddenAtMost`).
   */
  letters?: LetterRequirement[];
  /**
   * The most parts the tier's hiding lever promises to hide (what its tier text says: "a crate
   * or a green cell" is 1). Counted over `hidden`, a hidden letter going with the hidden piece it
   * names. Required whenever anything is hidden, so a lever cannot hide more than it promises.
   */
  hiddenAtMost?: number;
  /**
   * Arrows the rules tell the agent to read (a frame's axis arrows, a dial's turn arrow): each
   * shows its head and most of its shaft, measured shape by shape in the picture (ruler labels,
   * ruler marks and other bodies all count as covering it), and looks long enough to give its
   * direction. See {@link MIN_ARROW_HEAD_SHOWN}, {@link MIN_ARROW_SHAFT_SHOWN}, {@link MIN_ARROW_HEAD_PX}
   * and {@link MIN_ARROW_SHAFT_PX}. A hidden arrow is exempt.
   */
  arrows?: ArrowRequirement[];
}

/** An arrow drawn in the scene that the rules tell the agent to read. */
export interface ArrowRequirement {
  /** The arrow's body. */
  body: string;
  /** What it shows, for messages ("+x of the working frame"). */
  what?: string;
  /**
   * Indexes into the body's shapes of its head (default: the last shape, as `arrowShapes` and
   * every arrow here build it); the other shapes are its shaft. Empty for a painted strip with
   * no head, whose whole length is its shaft.
   */
  head?: number[];
}

/**
 * Share of an arrowhead's own pixels (its body drawn alone) the picture must show: the head is
 * the one thing that tells +x from -x, and a quarter of it under a label plate already leaves a
 * stub that reads as the end of a bar (M4-L7's "20 cm" over the +z head, M3-L7's "0" over +y).
 */
export const MIN_ARROW_HEAD_SHOWN = 0.75;

/**
 * Share of an arrow's shaft pixels (drawn alone) the picture must show: the shaft gives the
 * line the head points along; with half of it gone the head floats free of its origin.
 */
export const MIN_ARROW_SHAFT_SHOWN = 0.5;

/**
 * Fewest pixels an arrowhead must have drawn alone in a 768×768 picture (scaled by area): a head
 * seen tip-on or from far off shrinks to a dot that shows no direction (5 × 5 pixels is a dot).
 */
export const MIN_ARROW_HEAD_PX = 25;

/**
 * Fewest pixels an arrow's shaft must span (diagonal of its drawn-alone box) in a 768×768
 * picture (scaled with the picture's size): an arrow along the line of sight is a head with no
 * line behind it, which names no direction on the screen; its shaft spans its own width (3 to 5
 * pixels here). 12 pixels is a little more than the head's own length at the sizes drawn (8 to
 * 12 pixels), so the arrow reads as a line ending in a head. M2's upright arrow, seen from 58°
 * above, spans 14 pixels at L5.
 */
export const MIN_ARROW_SHAFT_PX = 12;

/** A letter drawn in the scene that the rules name. */
export interface LetterRequirement {
  /** The letter's body. */
  body: string;
  /** What it reads ("N", "A"). */
  text: string;
  /** A compass mark (a direction) or a piece's name. */
  role: 'compass' | 'piece';
  /** The body the letter names (its piece), if any: hidden together with it, it counts as one part. */
  piece?: string;
}

/**
 * Fewest pixels a letter must span along its longer side (projected bounds) in a 768×768
 * picture, scaled with the picture's size: two pixels for each of a 5×7 letter's seven rows.
 */
export const MIN_LETTER_PX = 14;

/**
 * Fewest pixels a letter must span along its narrower side: the three lit columns of an I at
 * between two and three pixels each; a letter seen flat at a grazing angle shrinks below it.
 */
export const MIN_LETTER_NARROW_PX = 8;

/** Share of a letter's own pixels (drawn alone) that must stay in sight: a letter half behind a wall does not read. */
export const MIN_LETTER_SHOWN = 0.5;

/** Kinds of failure of the view rule. */
export type ViewFailureKind =
  | 'body-unknown'
  | 'body-not-drawn'
  | 'body-too-small'
  | 'body-cut'
  | 'body-undeclared'
  | 'ruler-unknown'
  | 'label-occluded'
  | 'label-cut'
  | 'label-overlap'
  | 'ruler-unreadable'
  | 'hidden-label-shown'
  | 'hidden-unexplained'
  | 'letter-too-small'
  | 'letter-hidden'
  | 'letter-shared'
  | 'hidden-unbounded'
  | 'hidden-over-promise'
  | 'arrow-unmeasured'
  | 'arrow-head-hidden'
  | 'arrow-shaft-hidden'
  | 'arrow-too-short';

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

/**
 * The sides of the frame a part crosses: from its projected bounds; a part that the
 * measurement calls cut without crossing a side (it reaches behind the camera) crosses all.
 */
function cutSides(parts: BodyMeasure[], bounds: number[], width: number, height: number): FrameSide[] {
  if (!parts.some((b) => b.cut)) return [];
  const sides: FrameSide[] = [];
  if (bounds[1] < 0) sides.push('top');
  if (bounds[3] > height) sides.push('bottom');
  if (bounds[0] < 0) sides.push('left');
  if (bounds[2] > width) sides.push('right');
  return sides.length ? sides : ['top', 'bottom', 'left', 'right'];
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
 * two); no label of a ruler the tier hides on purpose is shown; and every drawn body is
 * declared (required, hidden or scenery). Pure: the same measurement and requirements give the same failures, in a fixed order.
 */
export function checkViewRule(m: MeasureResult, req: ViewRequirements): ViewVerdict {
  const failures: ViewFailure[] = [];
  const fail = (kind: ViewFailureKind, subject: string, message: string, details: Record<string, unknown> = {}): void => {
    failures.push({ kind, subject, message, details });
  };
  const scale = (m.width * m.height) / REFERENCE_AREA;
  const hidden = new Set(req.hidden ?? []);
  if ((hidden.size > 0 || (req.hiddenRulers ?? []).length > 0) && !(req.hiddenBecause ?? '').trim()) {
    const what = [...[...hidden].map((n) => `'${n}'`), ...(req.hiddenRulers ?? []).map((r) => `ruler ${r}`)].join(', ');
    fail('hidden-unexplained', what, `${what} declared hidden without a reason: say in hiddenBecause which lever (or the task's premise) hides it`);
  }
  const byName = new Map(m.bodies.map((b) => [b.name, b]));
  for (const entry of req.bodies ?? []) {
    const r: BodyRequirement = typeof entry === 'string' ? { name: entry } : entry;
    if (hidden.has(r.name)) continue;
    const names = (r.group ?? [r.name]).filter((n) => !(r.group && hidden.has(n)));
    const parts = names.map((n) => byName.get(n));
    const missing = names.filter((_, i) => !parts[i]);
    if (missing.length || names.length === 0) {
      fail('body-unknown', r.name, `the rules mention '${r.name}'${r.group ? ` (bodies ${missing.map((n) => `'${n}'`).join(', ')})` : ''}, which is not in the scene`);
      continue;
    }
    const found = parts as BodyMeasure[];
    if (found.some((b) => !b.drawn)) {
      fail('body-not-drawn', r.name, `'${r.name}' is not drawn`);
      continue;
    }
    const pixels = found.reduce((n, b) => n + b.pixels, 0);
    const min = Math.ceil((r.minPixels ?? req.minPixels ?? DEFAULT_MIN_PIXELS) * scale);
    if (pixels < min) {
      fail('body-too-small', r.name, `'${r.name}' shows ${pixels} pixels, fewer than ${min}`, { pixels, minPixels: min });
    }
    const bounds = found.reduce((a, b) => [Math.min(a[0], b.bounds[0]), Math.min(a[1], b.bounds[1]), Math.max(a[2], b.bounds[2]), Math.max(a[3], b.bounds[3])], [Infinity, Infinity, -Infinity, -Infinity]);
    const crossed = cutSides(found, bounds, m.width, m.height);
    const allowed = r.mayBeCut === true ? crossed : crossed.filter((side) => Array.isArray(r.mayBeCut) && r.mayBeCut.includes(side));
    if (crossed.length > allowed.length) {
      const sides = crossed.filter((side) => !allowed.includes(side));
      fail('body-cut', r.name, `'${r.name}' is cut by the frame${sides.length < 4 ? ` (${sides.join(', ')})` : ''}`, { bounds, sides, width: m.width, height: m.height });
    }
  }
  // Every drawn body is declared: required, hidden on purpose, or scenery.
  const declared = new Set([...hidden, ...(req.scenery ?? [])]);
  for (const entry of req.bodies ?? []) {
    const r: BodyRequirement = typeof entry === 'string' ? { name: entry } : entry;
    declared.add(r.name);
    for (const n of r.group ?? []) declared.add(n);
  }
  for (const b of m.bodies) {
    if (!b.drawn || declared.has(b.name)) continue;
    const where = b.pixels === 0 ? (b.cut ? 'outside the frame' : 'not seen (behind other bodies)') : `${b.pixels} pixels${b.cut ? ', cut by the frame' : ''}`;
    fail('body-undeclared', b.name, `'${b.name}' is drawn (${where}) but not declared: name it in bodies (what the rules mention), hidden (what the tier hides on purpose) or scenery (backdrop)`, { pixels: b.pixels, cut: b.cut });
  }
  const shown = m.labels.filter((l) => l.state === 'shown');
  // Letters: big enough both ways, mostly in sight, never shared between a compass and a piece.
  const linear = Math.sqrt(scale);
  for (const letter of req.letters ?? []) {
    if (hidden.has(letter.body)) continue;
    const b = byName.get(letter.body);
    if (!b) {
      fail('body-unknown', letter.body, `letter '${letter.body}' ("${letter.text}") is not in the scene`);
      continue;
    }
    const [narrow, long] = [b.bounds[2] - b.bounds[0], b.bounds[3] - b.bounds[1]].sort((x, y) => x - y);
    const minLong = MIN_LETTER_PX * linear;
    const minNarrow = MIN_LETTER_NARROW_PX * linear;
    if (!(long >= minLong && narrow >= minNarrow)) {
      fail('letter-too-small', letter.body, `letter "${letter.text}" ('${letter.body}') spans ${Math.round(long)} × ${Math.round(narrow)} pixels; a letter needs ${Math.ceil(minLong)} × ${Math.ceil(minNarrow)}`, { long, narrow, minLong, minNarrow });
    }
    if (b.alonePixels !== undefined && b.pixels < MIN_LETTER_SHOWN * b.alonePixels) {
      fail('letter-hidden', letter.body, `letter "${letter.text}" ('${letter.body}') shows ${b.pixels} of its ${b.alonePixels} pixels; the rest is hidden behind other bodies`, { pixels: b.pixels, alonePixels: b.alonePixels });
    }
  }
  const pieceTexts = new Set((req.letters ?? []).filter((l) => l.role === 'piece').map((l) => l.text.toUpperCase()));
  for (const letter of req.letters ?? []) {
    if (letter.role === 'compass' && pieceTexts.has(letter.text.toUpperCase())) {
      fail('letter-shared', letter.body, `compass letter "${letter.text}" ('${letter.body}') is also a piece's letter`, { text: letter.text });
    }
  }
  // A hiding lever hides at most what its tier text promises.
  if (hidden.size > 0) {
    const letterOf = new Map((req.letters ?? []).map((l) => [l.body, l]));
    const parts = [...hidden].filter((n) => {
      const piece = letterOf.get(n)?.piece;
      return !(piece !== undefined && hidden.has(piece));
    });
    if (req.hiddenAtMost === undefined) {
      fail('hidden-unbounded', parts.join(', '), `${parts.length} part${parts.length === 1 ? '' : 's'} declared hidden with no bound: say in hiddenAtMost how many the tier text promises to hide`, { hidden: parts });
    } else if (parts.length > req.hiddenAtMost) {
      fail('hidden-over-promise', parts.join(', '), `the view hides ${parts.length} parts (${parts.map((n) => `'${n}'`).join(', ')}); the tier promises at most ${req.hiddenAtMost}`, { hidden: parts, most: req.hiddenAtMost });
    }
  }
  for (const arrow of req.arrows ?? []) {
    if (hidden.has(arrow.body)) continue;
    checkArrow(arrow, byName.get(arrow.body), scale, fail);
  }
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
  for (const r of req.hiddenRulers ?? []) {
    for (const l of shown.filter((x) => x.ruler === r)) {
      fail('hidden-label-shown', labelName(l), `${labelName(l)} is shown, but the tier hides ruler ${r} on purpose`, { rect: l.rect });
    }
  }
  return { ok: failures.length === 0, failures };
}

/** Sums shape measures. */
function sumShapes(shapes: ShapeMeasure[]): ShapeMeasure {
  const total: ShapeMeasure = { alone: 0, shown: 0, underLabel: 0, underRuler: 0, underBody: 0, extent: 0 };
  for (const s of shapes) {
    total.alone += s.alone;
    total.shown += s.shown;
    total.underLabel += s.underLabel;
    total.underRuler += s.underRuler;
    total.underBody += s.underBody;
    total.extent = Math.max(total.extent, s.extent);
  }
  return total;
}

/** Where the pixels of a part of an arrow that the picture does not show went, for messages. */
function coveredBy(s: ShapeMeasure): string {
  const parts = [
    [s.underLabel, 'under ruler labels'],
    [s.underRuler, "behind a ruler's marks"],
    [s.underBody, 'behind other bodies'],
  ].filter(([n]) => (n as number) > 0);
  return parts.length ? ` (${parts.map(([n, what]) => `${n} ${what}`).join(', ')})` : '';
}

/** The arrow checks of {@link checkViewRule} for one arrow. */
function checkArrow(arrow: ArrowRequirement, b: BodyMeasure | undefined, scale: number, fail: (kind: ViewFailureKind, subject: string, message: string, details?: Record<string, unknown>) => void): void {
  const name = `arrow '${arrow.body}'${arrow.what ? ` (${arrow.what})` : ''}`;
  if (!b) {
    fail('body-unknown', arrow.body, `${name} is not in the scene`);
    return;
  }
  if (!b.drawn) {
    fail('body-not-drawn', arrow.body, `${name} is not drawn`);
    return;
  }
  if (!b.shapes) {
    fail('arrow-unmeasured', arrow.body, `${name} was not measured shape by shape (measure it with byShape)`);
    return;
  }
  const headAt = new Set(arrow.head ?? [b.shapes.length - 1]);
  const head = sumShapes(b.shapes.filter((_, i) => headAt.has(i)));
  const shaft = sumShapes(b.shapes.filter((_, i) => !headAt.has(i)));
  const linear = Math.sqrt(scale);
  const details = { head, shaft };
  if (headAt.size > 0) {
    const minHead = Math.ceil(MIN_ARROW_HEAD_PX * scale);
    if (head.alone < minHead) {
      fail('arrow-too-short', arrow.body, `${name}: its head is ${head.alone} pixels even drawn alone, fewer than ${minHead}: seen tip-on or too small, it shows no direction`, details);
    } else if (head.shown < MIN_ARROW_HEAD_SHOWN * head.alone) {
      fail('arrow-head-hidden', arrow.body, `${name} shows ${head.shown} of its head's ${head.alone} pixels${coveredBy(head)}; a head needs ${Math.round(MIN_ARROW_HEAD_SHOWN * 100)} % in sight`, details);
    }
  }
  const minShaft = MIN_ARROW_SHAFT_PX * linear;
  if (shaft.extent < minShaft) {
    fail('arrow-too-short', arrow.body, `${name}: its shaft spans ${Math.round(shaft.extent)} pixels drawn alone, fewer than ${Math.ceil(minShaft)}: seen along its length, it names no direction`, details);
  } else if (shaft.shown < MIN_ARROW_SHAFT_SHOWN * shaft.alone) {
    fail('arrow-shaft-hidden', arrow.body, `${name} shows ${shaft.shown} of its shaft's ${shaft.alone} pixels${coveredBy(shaft)}; a shaft needs ${Math.round(MIN_ARROW_SHAFT_SHOWN * 100)} % in sight`, details);
  }
}
