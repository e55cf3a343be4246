/**
 * A first-camera search by sight lines, for families whose first view must keep what the view
 * rule reads (ruler labels, frame arrows, pieces) out from behind what the seed places in front
 * of it (a held part drawn anywhere, a turned board's pegs). The family names the points that
 * must be seen and the boxes that may hide them; {@link firstClearCamera} keeps the first of its
 * candidate cameras from which every point is inside the picture (with a margin) and no sight
 * line to a point passes through a box. Pure geometry on the renderer's own orbit camera
 * (render/camera-frame.ts), so generation stays a pure function of (family, tier, seed) and
 * needs no browser; the view rule (tasks/view-rule.ts) still judges the rendered picture.
 *
 * Why the ruler's label points: the renderer calls a label occluded when both its foot (the
 * tick on the ruler) and its anchor (just beyond the band, where the plate hangs) are behind a
 * body (render/page/rulers.ts), so keeping either in sight keeps the label shown (a group).
 */
import { cameraFrame, DEFAULT_FOV } from '../../render/camera-frame.ts';
import type { CameraSpec } from '../../render/camera-spec.ts';
import { rulerAxes, rulerTicks } from '../../render/ruler-geometry.ts';
import { qconj, qrotate } from '../../sim/math.ts';
import type { Quat, RulerSpec, Vec3 } from '../../sim/types.ts';

/** A box that may hide what lies behind it: centre, half extents and turn. */
export interface SightBox {
  center: Vec3;
  half: Vec3;
  /** Default: not turned. */
  q?: Quat;
}

/** A point the first view must show, named for messages. */
export interface SightPoint {
  point: Vec3;
  what: string;
  /** Boxes (indexes into the occluder list) that are the point's own body and never hide it. */
  own?: number[];
  /**
   * Points of one group stand for one thing that shows while any of them is seen (a ruler
   * label: its foot or its anchor); without a group a point stands alone.
   */
  group?: string;
}

/** Band width and label gap of a drawn ruler, in units of its major step (render/page/rulers.ts BAND and margin). */
const RULER_BAND = 0.3;
const RULER_MARGIN = 0.03;

/**
 * The points of every labelled tick of the rulers that must stay in sight for its label to
 * show: the tick's foot on the ruler and the label's anchor beyond the band.
 */
export function rulerLabelPoints(rulers: readonly RulerSpec[], only?: readonly number[]): SightPoint[] {
  const out: SightPoint[] = [];
  rulers.forEach((spec, r) => {
    if (only && !only.includes(r)) return;
    const major = spec.major ?? 0.1;
    const minor = spec.minor ?? 0.01;
    const { dir, length, tick } = rulerAxes(spec);
    for (const t of rulerTicks(length, minor, major)) {
      if (t.label === undefined) continue;
      const at = (s: number, u: number): Vec3 => [0, 1, 2].map((k) => spec.from[k] + dir[k] * s + tick[k] * u) as Vec3;
      const group = `ruler ${r} label ${t.label}`;
      out.push({ point: at(t.at, 0), what: `${group} (foot)`, group });
      out.push({ point: at(t.at, (RULER_BAND + RULER_MARGIN) * major), what: `${group} (anchor)`, group });
    }
  });
  return out;
}

/** Where a sight line from `from` to `to` first enters a box, as a fraction of the line (Infinity when it misses). */
function entersBox(from: Vec3, to: Vec3, box: SightBox): number {
  const inv = box.q ? qconj(box.q) : undefined;
  const rel = (p: Vec3): Vec3 => {
    const d: Vec3 = [p[0] - box.center[0], p[1] - box.center[1], p[2] - box.center[2]];
    return inv ? qrotate(inv, d) : d;
  };
  const a = rel(from);
  const b = rel(to);
  let t0 = 0;
  let t1 = 1;
  for (let k = 0; k < 3; k++) {
    const d = b[k] - a[k];
    if (Math.abs(d) < 1e-12) {
      if (Math.abs(a[k]) > box.half[k]) return Infinity;
      continue;
    }
    let lo = (-box.half[k] - a[k]) / d;
    let hi = (box.half[k] - a[k]) / d;
    if (lo > hi) [lo, hi] = [hi, lo];
    t0 = Math.max(t0, lo);
    t1 = Math.min(t1, hi);
    if (t0 > t1) return Infinity;
  }
  return t0;
}

/**
 * Whether a point is inside the picture of a perspective camera, `margin` (a share of the
 * picture's half height) in from every edge.
 */
export function inPicture(camera: CameraSpec, point: Vec3, aspect = 1, margin = 0.05): boolean {
  const f = cameraFrame(camera);
  const d: Vec3 = [point[0] - f.position[0], point[1] - f.position[1], point[2] - f.position[2]];
  const depth = -(d[0] * f.back[0] + d[1] * f.back[1] + d[2] * f.back[2]);
  if (depth <= 0) return false;
  const half = Math.tan((((camera.fov ?? DEFAULT_FOV) * Math.PI) / 180) / 2) * depth;
  const x = (d[0] * f.right[0] + d[1] * f.right[1] + d[2] * f.right[2]) / half;
  const y = (d[0] * f.up[0] + d[1] * f.up[1] + d[2] * f.up[2]) / half;
  return Math.abs(y) <= 1 - margin && Math.abs(x) <= aspect * (1 - margin);
}

/** A point's place in a perspective camera's picture: right and up from the centre, in picture heights; null behind the camera. */
export function screenPoint(camera: CameraSpec, point: Vec3): [number, number] | null {
  const f = cameraFrame(camera);
  const d: Vec3 = [point[0] - f.position[0], point[1] - f.position[1], point[2] - f.position[2]];
  const depth = -(d[0] * f.back[0] + d[1] * f.back[1] + d[2] * f.back[2]);
  if (depth <= 0) return null;
  const height = 2 * Math.tan((((camera.fov ?? DEFAULT_FOV) * Math.PI) / 180) / 2) * depth;
  return [(d[0] * f.right[0] + d[1] * f.right[1] + d[2] * f.right[2]) / height, (d[0] * f.up[0] + d[1] * f.up[1] + d[2] * f.up[2]) / height];
}

/**
 * Largest on-screen height of a ruler label, as a share of the picture's height (the renderer
 * keeps plates between about 2.4 % and 3.4 %: render/page/rulers.ts `placeLabel`).
 */
const LABEL_SCREEN_HEIGHT = 0.034;
/** Smallest on-screen height of a ruler label, as a share of the picture's height. */
const LABEL_SCREEN_MIN_HEIGHT = 0.024;
/** A label plate's height in the world, in units of its ruler's major step (render/page/rulers.ts LABEL_HEIGHT). */
const LABEL_WORLD_HEIGHT = 0.2;

/** A ruler label's plate as estimated on screen: centre (picture heights from the middle, y up), width and height. */
export interface LabelPlate {
  centre: [number, number];
  w: number;
  h: number;
  what: string;
  ruler: number;
  /** The label's place along its ruler (0 for its first). */
  k: number;
}

/**
 * Where the rulers' label plates fall on screen, each at its largest height (`size` 'largest', the
 * safe side for overlaps) or as drawn ('as-drawn'), each width from its text, set beside its
 * anchor on the side its ruler's ticks point to (as render/page/rulers.ts `placeLabel` sets them).
 */
export function labelPlates(camera: CameraSpec, rulers: readonly RulerSpec[], only?: readonly number[], size: 'largest' | 'as-drawn' = 'largest'): LabelPlate[] {
  const plates: LabelPlate[] = [];
  const tanHalf = Math.tan((((camera.fov ?? DEFAULT_FOV) * Math.PI) / 180) / 2);
  rulers.forEach((spec, r) => {
    if (only && !only.includes(r)) return;
    const major = spec.major ?? 0.1;
    const { dir, length, tick } = rulerAxes(spec);
    let k = 0;
    for (const t of rulerTicks(length, spec.minor ?? 0.01, major)) {
      if (t.label === undefined) continue;
      const anchor = [0, 1, 2].map((j) => spec.from[j] + dir[j] * t.at + tick[j] * (RULER_BAND + RULER_MARGIN) * major) as Vec3;
      const beyond = [0, 1, 2].map((j) => anchor[j] + tick[j] * 0.01) as Vec3;
      const a = screenPoint(camera, anchor);
      const b = screenPoint(camera, beyond);
      if (!a || !b) continue;
      const n = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
      const [tx, ty] = [(b[0] - a[0]) / n, (b[1] - a[1]) / n];
      // As drawn: the plate's world height (a fifth of the major step) at the anchor's depth,
      // kept between the renderer's smallest and largest on-screen heights.
      const f = cameraFrame(camera);
      const depth = -[0, 1, 2].reduce((n, j) => n + (anchor[j] - f.position[j]) * f.back[j], 0);
      const h = size === 'largest' ? LABEL_SCREEN_HEIGHT : Math.min(LABEL_SCREEN_HEIGHT, Math.max(LABEL_SCREEN_MIN_HEIGHT, (LABEL_WORLD_HEIGHT * major) / (2 * tanHalf * depth)));
      const w = h * (0.4 * t.label.length + 0.7);
      const reach = Math.abs(tx) * (w / 2) + Math.abs(ty) * (h / 2);
      plates.push({ centre: [a[0] + tx * reach, a[1] + ty * reach], w, h, what: `ruler ${r} label ${t.label}`, ruler: r, k: k++ });
    }
  });
  return plates;
}

/**
 * The pairs of ruler labels that would overlap on screen (so the renderer thins a ruler's labels
 * — a short ruler then shows one label, which reads no scale — or drops one ruler's label for
 * another's): one entry per crowded pair.
 */
export function crowdedRulers(camera: CameraSpec, rulers: readonly RulerSpec[], only?: readonly number[]): SightPoint[] {
  const plates = labelPlates(camera, rulers, only);
  const out: SightPoint[] = [];
  for (let i = 0; i < plates.length; i++) {
    for (let j = i + 1; j < plates.length; j++) {
      const [p, q] = [plates[i], plates[j]];
      // Labels of one ruler two or more steps apart keep apart if their neighbours do.
      if (p.ruler === q.ruler && Math.abs(p.k - q.k) > 1) continue;
      const apart = Math.abs(p.centre[0] - q.centre[0]) >= (p.w + q.w) / 2 + 0.005 || Math.abs(p.centre[1] - q.centre[1]) >= p.h + 0.005;
      if (!apart) out.push({ point: [0, 0, 0], what: `${p.what} and ${q.what} overlap on screen` });
    }
  }
  return out;
}

/**
 * The pairs of labels of two different rulers that would overlap on screen: the renderer drops
 * the later ruler's label (`overlap`), which can leave a short ruler one label, and no scale.
 * Labels of one ruler are left to {@link unreadableRulers} (the renderer thins those).
 */
export function rulersOverlapping(camera: CameraSpec, rulers: readonly RulerSpec[], only?: readonly number[]): SightPoint[] {
  const plates = labelPlates(camera, rulers, only);
  const out: SightPoint[] = [];
  for (let i = 0; i < plates.length; i++) {
    for (let j = i + 1; j < plates.length; j++) {
      const [p, q] = [plates[i], plates[j]];
      if (p.ruler === q.ruler) continue;
      const apart = Math.abs(p.centre[0] - q.centre[0]) >= (p.w + q.w) / 2 + 0.005 || Math.abs(p.centre[1] - q.centre[1]) >= (p.h + q.h) / 2 + 0.005;
      if (!apart) out.push({ point: [0, 0, 0], what: `${p.what} and ${q.what} overlap on screen` });
    }
  }
  return out;
}

/**
 * The points that fall under a ruler label's plate on screen (labels draw over everything, so an
 * arrowhead there is covered), with `pad` (picture heights) around each plate.
 */
export function pointsUnderLabels(camera: CameraSpec, rulers: readonly RulerSpec[], points: readonly SightPoint[], pad = 0.01): SightPoint[] {
  const plates = labelPlates(camera, rulers);
  return points.filter((p) => {
    const at = screenPoint(camera, p.point);
    return at !== null && plates.some((l) => Math.abs(at[0] - l.centre[0]) < l.w / 2 + pad && Math.abs(at[1] - l.centre[1]) < l.h / 2 + pad);
  });
}

/**
 * The points a camera fails to show: outside the picture, or behind one of the boxes; a grouped
 * point counts only when no point of its group is seen.
 */
export function unseenPoints(camera: CameraSpec, points: readonly SightPoint[], boxes: readonly SightBox[], aspect = 1): SightPoint[] {
  const eye = cameraFrame(camera).position;
  const unseen = points.filter((p) => {
    if (!inPicture(camera, p.point, aspect)) return true;
    // Stop just short of the point, so a point on a box's face is not hidden by that box.
    return boxes.some((b, i) => !(p.own ?? []).includes(i) && entersBox(eye, p.point, b) < 0.999);
  });
  const seenGroups = new Set(points.filter((p) => p.group !== undefined && !unseen.includes(p)).map((p) => p.group));
  return unseen.filter((p) => p.group === undefined || !seenGroups.has(p.group));
}

/**
 * The first candidate camera that shows every point (none outside the picture, none behind a
 * box); when none does, the candidate that leaves the fewest unseen (the first of those).
 */
export function firstClearCamera(
  candidates: readonly CameraSpec[],
  points: readonly SightPoint[],
  boxes: readonly SightBox[],
  aspect = 1,
  /** Further checks of a candidate (e.g. {@link crowdedRulers}), each problem counted as one unseen point. */
  more?: (camera: CameraSpec) => SightPoint[],
): { camera: CameraSpec; unseen: SightPoint[] } {
  let best: { camera: CameraSpec; unseen: SightPoint[] } | undefined;
  for (const camera of candidates) {
    const unseen = [...unseenPoints(camera, points, boxes, aspect), ...(more ? more(camera) : [])];
    if (unseen.length === 0) return { camera, unseen };
    if (!best || unseen.length < best.unseen.length) best = { camera, unseen };
  }
  if (!best) throw new Error('firstClearCamera: no candidate cameras');
  return best;
}

/**
 * Candidate orbits around a first camera: the camera itself, then its azimuth and elevation
 * stepped outward, nearest first (azimuth steps before elevation steps at each distance).
 */
export function orbitCandidates(base: CameraSpec, azimuthSteps: readonly number[], elevationSteps: readonly number[], elevationRange: [number, number] = [-10, 89]): CameraSpec[] {
  const out: CameraSpec[] = [];
  for (const de of [0, ...elevationSteps]) {
    for (const da of [0, ...azimuthSteps]) {
      const elevation = base.elevation + de;
      if (elevation < elevationRange[0] || elevation > elevationRange[1]) continue;
      out.push({ ...base, azimuth: base.azimuth + da, elevation });
    }
  }
  return out;
}

/**
 * The points of a working frame's three axis arrows (`frameArrowBodies` in held-part/markers.ts:
 * shafts `length` long from `origin`, heads to 1.27 × length) that must stay in sight for each
 * arrow to show its head and shaft: the middle of the shaft, the head's base and its tip.
 */
export function frameArrowPoints(origin: Vec3, frame: Quat, length: number): SightPoint[] {
  const axes: Record<'x' | 'y' | 'z', Vec3> = { x: qrotate(frame, [1, 0, 0]), y: qrotate(frame, [0, 1, 0]), z: qrotate(frame, [0, 0, 1]) };
  return (['x', 'y', 'z'] as const).flatMap((a) =>
    [
      [0.5, 'shaft'],
      [1, 'head base'],
      [1.2, 'head tip'],
    ].map(([k, what]) => ({ point: [0, 1, 2].map((j) => origin[j] + axes[a][j] * length * (k as number)) as Vec3, what: `+${a} arrow ${what}` })),
  );
}

/**
 * A working frame's three axis arrows as boxes that hide what lies behind them (held-part
 * markers.ts `arrowShapes`: a shaft 8 % of `length` thick, a head 20 % wide reaching to 1.27 ×
 * `length`), each the box around shaft and head: for checking what the arrows cover, such as
 * a ruler label's tick.
 */
export function frameArrowBoxes(origin: Vec3, frame: Quat, length: number): SightBox[] {
  const reach = length * 1.27;
  const thick = length * 0.1;
  return ([0, 1, 2] as const).map((k) => {
    const local: Vec3 = [0, 0, 0];
    local[k] = reach / 2;
    const along = qrotate(frame, local);
    const half: Vec3 = [thick, thick, thick];
    half[k] = reach / 2;
    return { center: [origin[0] + along[0], origin[1] + along[1], origin[2] + along[2]], half, q: frame };
  });
}

/**
 * The axis arrows of a working frame whose shaft looks too short on screen (seen along its
 * length from a steep camera): shorter than `minShare` of the picture's height from the origin
 * to the head's base. The view rule wants 12 pixels of 768 (`MIN_ARROW_SHAFT_PX`); the default
 * asks twice that, since a drawn shaft is measured to its visible ends.
 */
export function shortArrows(camera: CameraSpec, origin: Vec3, frame: Quat, length: number, minShare = 0.03): SightPoint[] {
  const o = screenPoint(camera, origin);
  return (['x', 'y', 'z'] as const).flatMap((a) => {
    const axis = qrotate(frame, a === 'x' ? [1, 0, 0] : a === 'y' ? [0, 1, 0] : [0, 0, 1]);
    const end = [0, 1, 2].map((j) => origin[j] + axis[j] * length) as Vec3;
    const e = screenPoint(camera, end);
    const long = o && e ? Math.hypot(e[0] - o[0], e[1] - o[1]) : 0;
    return long >= minShare ? [] : [{ point: end, what: `+${a} arrow looks too short` }];
  });
}

/**
 * The area a box covers on screen, in square picture heights (multiply by the picture's height
 * squared for pixels): the convex hull of its eight corners' projections. What other bodies
 * hide is not subtracted.
 */
export function boxScreenArea(camera: CameraSpec, box: SightBox): number {
  const pts: [number, number][] = [];
  for (let k = 0; k < 8; k++) {
    const l: Vec3 = [0, 1, 2].map((j) => (k & (1 << j) ? 1 : -1) * box.half[j]) as Vec3;
    const w = box.q ? qrotate(box.q, l) : l;
    const at = screenPoint(camera, [box.center[0] + w[0], box.center[1] + w[1], box.center[2] + w[2]]);
    if (!at) return 0;
    pts.push(at);
  }
  pts.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o: [number, number], a: [number, number], b: [number, number]): number => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const half = (list: [number, number][]): [number, number][] => {
    const h: [number, number][] = [];
    for (const p of list) {
      while (h.length >= 2 && cross(h[h.length - 2], h[h.length - 1], p) <= 0) h.pop();
      h.push(p);
    }
    h.pop();
    return h;
  };
  const hull = [...half(pts), ...half([...pts].reverse())];
  let area = 0;
  for (let i = 0; i < hull.length; i++) {
    const [a, b] = [hull[i], hull[(i + 1) % hull.length]];
    area += a[0] * b[1] - b[0] * a[1];
  }
  return Math.abs(area) / 2;
}

/**
 * The rulers that would show fewer than two labels: the renderer widens a crowded ruler's label
 * step until its shown labels keep apart, so a ruler reads while its first and last plates keep
 * apart on screen (estimated by {@link labelPlates}); one entry per such ruler.
 */
export function unreadableRulers(
  camera: CameraSpec,
  rulers: readonly RulerSpec[],
  only?: readonly number[],
  /** Gap the estimate keeps between the two plates, in picture heights (a family whose short ruler sat within the estimate's error passes more). */
  gap = 0.005,
): SightPoint[] {
  const plates = labelPlates(camera, rulers, only, 'as-drawn');
  const out: SightPoint[] = [];
  rulers.forEach((_, r) => {
    if (only && !only.includes(r)) return;
    const mine = plates.filter((p) => p.ruler === r);
    const [p, q] = [mine[0], mine[mine.length - 1]];
    const apart = mine.length >= 2 && (Math.abs(p.centre[0] - q.centre[0]) >= (p.w + q.w) / 2 + gap || Math.abs(p.centre[1] - q.centre[1]) >= p.h + gap);
    if (!apart) out.push({ point: [0, 0, 0], what: `ruler ${r} would show fewer than two labels` });
  });
  return out;
}

/** A cylinder (a rod, a peg) for {@link cylinderSeenPixels}: centre, unit axis, length and radius. */
export interface SightCylinder {
  center: Vec3;
  /** Unit vector along the cylinder. */
  axis: Vec3;
  length: number;
  radius: number;
}

/** Places along a cylinder, as shares of its length from the centre, where its silhouette is sampled. */
const CYLINDER_ALONG = [-0.45, -0.3, -0.15, 0, 0.15, 0.3, 0.45];
/** Places across a cylinder's silhouette, as shares of its half width (evenly spaced on screen). */
const CYLINDER_ACROSS = [-0.85, -0.5, -0.15, 0.15, 0.5, 0.85];

/**
 * About how many pixels of a cylinder a picture `pictureHeight` pixels high shows past the
 * `boxes` (walls): its silhouette's length times its width on screen, times the share of a
 * lattice on its camera-facing side, spaced evenly across the silhouette, that no box hides.
 * Sampling across the silhouette matters: a rod lying behind a low wall shows only its upper
 * strip, which a lattice along its top line alone takes for the whole rod (M2-L5-s18: 378
 * pixels drawn where a box-and-top-line estimate said over 1,000).
 */
export function cylinderSeenPixels(camera: CameraSpec, cylinder: SightCylinder, boxes: readonly SightBox[], pictureHeight = 768): number {
  const { center, axis, length, radius } = cylinder;
  const eye = cameraFrame(camera).position;
  const toEye: Vec3 = [eye[0] - center[0], eye[1] - center[1], eye[2] - center[2]];
  const along = toEye[0] * axis[0] + toEye[1] * axis[1] + toEye[2] * axis[2];
  const n: Vec3 = [toEye[0] - along * axis[0], toEye[1] - along * axis[1], toEye[2] - along * axis[2]];
  const nLen = Math.hypot(n[0], n[1], n[2]);
  // Seen end-on, a cylinder shows only its end disc: call that nothing, as the view rule would
  // call so small a part too small.
  if (nLen < 1e-9) return 0;
  const nHat: Vec3 = [n[0] / nLen, n[1] / nLen, n[2] / nLen];
  const side: Vec3 = [axis[1] * nHat[2] - axis[2] * nHat[1], axis[2] * nHat[0] - axis[0] * nHat[2], axis[0] * nHat[1] - axis[1] * nHat[0]];
  const lattice: SightPoint[] = [];
  for (const k of CYLINDER_ALONG) {
    for (const s of CYLINDER_ACROSS) {
      const c = Math.sqrt(1 - s * s);
      lattice.push({
        point: [0, 1, 2].map((j) => center[j] + axis[j] * k * length + radius * (c * nHat[j] + s * side[j])) as Vec3,
        what: 'cylinder',
      });
    }
  }
  const seen = lattice.length - unseenPoints(camera, lattice, boxes).length;
  const a = screenPoint(camera, [0, 1, 2].map((j) => center[j] - axis[j] * (length / 2)) as Vec3);
  const b = screenPoint(camera, [0, 1, 2].map((j) => center[j] + axis[j] * (length / 2)) as Vec3);
  const w0 = screenPoint(camera, [0, 1, 2].map((j) => center[j] - side[j] * radius) as Vec3);
  const w1 = screenPoint(camera, [0, 1, 2].map((j) => center[j] + side[j] * radius) as Vec3);
  if (!a || !b || !w0 || !w1) return 0;
  const lengthPx = Math.hypot(b[0] - a[0], b[1] - a[1]) * pictureHeight;
  const widthPx = Math.hypot(w1[0] - w0[0], w1[1] - w0[1]) * pictureHeight;
  return lengthPx * widthPx * (seen / lattice.length);
}
