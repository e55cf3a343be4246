import * as THREE from 'three';
import type { RulerSpec } from '../../sim/types.ts';
import { DEFAULT_MAJOR, DEFAULT_MINOR, rulerAxes, rulerTicks } from './ruler-marks.ts';

/** Tick lengths and band width as fractions of the major spacing. */
const MAJOR_LEN = 0.25;
const MID_LEN = 0.17;
const MINOR_LEN = 0.1;
const BAND = 0.3;
/** Preferred label height as a fraction of the major spacing (clamped on screen, see `layout`). */
const LABEL_HEIGHT = 0.2;
const LABEL_PX = 64;
/**
 * Ticks closer than this on screen (pixels, at the ruler's most crowded visible part) are not
 * drawn: minor ticks first, then the mid ticks; major ticks always are.
 */
export const MIN_TICK_SPACING_PX = 4;
/** Labels keep at least this many pixels between each other. */
const LABEL_GAP_PX = 2;
/** Label steps tried, in major spacings: 10 → 20 → 50 → 100 cm for 10 cm majors. */
const LABEL_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];

interface Label {
  /** Index of its ruler in the scene and of its major tick on that ruler. */
  ruler: number;
  k: number;
  text: string;
  /** The tick's foot on the ruler line. */
  foot: THREE.Vector3;
  sprite: THREE.Sprite;
  /** World point the label hangs from: just beyond the band, at its tick. */
  anchor: THREE.Vector3;
  /** Unit tick direction of its ruler. */
  tick: THREE.Vector3;
  /** Unit direction of its ruler. */
  along: THREE.Vector3;
  /** Width over height of the label texture. */
  aspect: number;
  /** Preferred height in metres. */
  height: number;
}

/**
 * What became of a ruler label for one camera: `shown`; `thinned` (the label step was widened
 * so that shown labels do not overlap); `occluded` (its tick and its anchor are both behind a
 * body, or behind the camera); `cut` (it would cross the image border); `overlap` (it would
 * overlap a shown label of another ruler). Only `shown` labels are drawn.
 */
export type LabelState = 'shown' | 'thinned' | 'occluded' | 'cut' | 'overlap';

/** One label's layout: where it would be on screen (pixels, y down, `[x0, y0, x1, y1]`) and its state. */
export interface LabelLayout {
  ruler: number;
  text: string;
  state: LabelState;
  rect: [number, number, number, number];
}

/** Tells whether a world point is hidden behind a body for the current camera. */
export type OcclusionTest = (point: THREE.Vector3) => boolean;

/** The rulers of a scene as drawables. */
export interface RulerSet {
  group: THREE.Group;
  /** Bounds of bands, ticks and label anchors (sprites face the camera, so their depth is the anchor's). */
  bounds: THREE.Box3;
  /** True when some ruler has labels (the page then needs an occlusion test before drawing). */
  hasLabels: boolean;
  /** Every point {@link layout} may ask the occlusion test about (each label's foot and anchor). */
  probes: THREE.Vector3[];
  /**
   * Sizes and places the labels for a camera and image and decides which show (see
   * {@link LabelState}); thins ticks closer than {@link MIN_TICK_SPACING_PX}. Call before each
   * RGB picture.
   */
  layout(camera: THREE.Camera, width: number, height: number, occluded: OcclusionTest): LabelLayout[];
  dispose(): void;
}

/** A label texture: `text` in bold on a rounded white plate; also used by dimension lines. */
export function labelTexture(text: string, color: string): { texture: THREE.CanvasTexture; aspect: number } {
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d')!;
  const font = `bold ${Math.round(LABEL_PX * 0.7)}px "DejaVu Sans", "Liberation Sans", sans-serif`;
  ctx.font = font;
  const pad = LABEL_PX * 0.22;
  canvas.width = Math.ceil(ctx.measureText(text).width + 2 * pad);
  canvas.height = LABEL_PX;
  ctx.font = font;
  ctx.fillStyle = 'rgba(255, 255, 255, 0.88)';
  ctx.beginPath();
  ctx.roundRect(0, 0, canvas.width, canvas.height, LABEL_PX * 0.2);
  ctx.fill();
  ctx.fillStyle = color;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, canvas.width / 2, canvas.height / 2 + 1);
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  texture.anisotropy = 4;
  return { texture, aspect: canvas.width / canvas.height };
}

const ndcA = new THREE.Vector3();
const ndcB = new THREE.Vector3();

/** Unit screen direction (pixels, y up) of world direction `dir` at `point`, or [0, 0] if it points at the camera. */
function screenDirection(point: THREE.Vector3, dir: THREE.Vector3, camera: THREE.Camera, width: number, height: number): [number, number] {
  ndcA.copy(point).project(camera);
  ndcB.copy(point).addScaledVector(dir, 1e-3).project(camera);
  const dx = ((ndcB.x - ndcA.x) * width) / 2;
  const dy = ((ndcB.y - ndcA.y) * height) / 2;
  const n = Math.hypot(dx, dy);
  // Less than a hundredth of a pixel per millimetre: the direction points (almost) at the camera.
  return n < 1e-2 || !Number.isFinite(n) ? [0, 0] : [dx / n, dy / n];
}
const toAnchor = new THREE.Vector3();
const forward = new THREE.Vector3();

/**
 * Places one label: its on-screen height kept legible (between about 2.4 % and 3.4 % of the image
 * height, whatever the zoom) and the label set beside the ruler on screen, on the side its
 * ticks point to, so it never covers the ticks it names.
 */
function placeLabel(label: Label, camera: THREE.Camera, width: number, height: number): [number, number, number, number] | null {
  const cam = camera as THREE.PerspectiveCamera | THREE.OrthographicCamera;
  let pxPerMetre: number;
  if ((cam as THREE.OrthographicCamera).isOrthographicCamera) {
    const o = cam as THREE.OrthographicCamera;
    pxPerMetre = height / (o.top - o.bottom);
  } else {
    const p = cam as THREE.PerspectiveCamera;
    camera.getWorldDirection(forward);
    const depth = toAnchor.copy(label.anchor).sub(camera.position).dot(forward);
    if (depth <= 1e-6) {
      label.sprite.visible = false;
      return null;
    }
    pxPerMetre = height / (2 * depth * Math.tan((p.fov * Math.PI) / 360));
  }
  label.sprite.visible = true;
  const minPx = Math.min(20, Math.max(11, 0.024 * height));
  const maxPx = Math.min(30, Math.max(14, 0.034 * height));
  const px = Math.min(maxPx, Math.max(minPx, label.height * pxPerMetre));
  const h = px / pxPerMetre;
  label.sprite.scale.set(h * label.aspect, h, 1);
  // On screen, the label goes beside the ruler, on the side its ticks point to.
  const [tx, ty] = screenDirection(label.anchor, label.tick, camera, width, height);
  const [rx, ry] = screenDirection(label.anchor, label.along, camera, width, height);
  let dx = tx;
  let dy = ty;
  if (Math.hypot(rx, ry) > 0.5) {
    const side = -ry * tx + rx * ty;
    const s = Math.abs(side) > 0.05 ? Math.sign(side) : rx >= 0 ? 1 : -1;
    dx = -ry * s;
    dy = rx * s;
  }
  if (Math.hypot(dx, dy) < 0.5) {
    dx = 0;
    dy = 1;
  }
  // Move the label's centre from the anchor along (dx, dy) until its edge touches the anchor.
  const w = px * label.aspect;
  const t = Math.min(Math.abs(dx) > 1e-9 ? w / 2 / Math.abs(dx) : Infinity, Math.abs(dy) > 1e-9 ? px / 2 / Math.abs(dy) : Infinity);
  label.sprite.center.set(0.5 - (t * dx) / w, 0.5 - (t * dy) / px);
  // The label's rectangle on screen, pixels with y down.
  ndcA.copy(label.anchor).project(camera);
  const cx = ((ndcA.x + 1) / 2) * width + t * dx;
  const cy = ((1 - ndcA.y) / 2) * height - t * dy;
  return [cx - w / 2, cy - px / 2, cx + w / 2, cy + px / 2];
}

const overlaps = (a: number[], b: number[]): boolean =>
  a[0] < b[2] + LABEL_GAP_PX && b[0] < a[2] + LABEL_GAP_PX && a[1] < b[3] + LABEL_GAP_PX && b[1] < a[3] + LABEL_GAP_PX;

/** Smallest on-screen distance in pixels between points `step` metres apart along a ruler (sampled at its ends and middle, in front of the camera). */
function screenSpacing(from: THREE.Vector3, dir: THREE.Vector3, length: number, step: number, camera: THREE.Camera, width: number, height: number): number {
  let least = Infinity;
  for (const f of [0, 0.5, 1]) {
    const s = Math.min(f * length, Math.max(0, length - step));
    ndcA.copy(from).addScaledVector(dir, s).project(camera);
    ndcB.copy(from).addScaledVector(dir, s + step).project(camera);
    if (Math.abs(ndcA.z) > 1 || Math.abs(ndcB.z) > 1) continue;
    least = Math.min(least, Math.hypot(((ndcB.x - ndcA.x) * width) / 2, ((ndcB.y - ndcA.y) * height) / 2));
  }
  return least;
}

/**
 * Builds measuring rulers: a light band (so ticks read on any background), a line along the
 * ruler, ticks every minor step and labelled longer ticks every major step. Labels are
 * camera-facing sprites that show distances from the ruler's own start.
 */
export function buildRulers(specs: RulerSpec[]): RulerSet {
  const group = new THREE.Group();
  const bounds = new THREE.Box3();
  const disposables: { dispose(): void }[] = [];
  const labels: Label[] = [];
  /** Per ruler: its minor and mid tick lines (thinned on screen) and what spacing they have. */
  const tickSets: { minorLines: THREE.LineSegments; midLines: THREE.LineSegments; from: THREE.Vector3; dir: THREE.Vector3; length: number; minor: number; major: number }[] = [];
  const from = new THREE.Vector3();
  const dir = new THREE.Vector3();
  const tick = new THREE.Vector3();
  const p = new THREE.Vector3();
  for (const spec of specs) {
    const minor = spec.minor ?? DEFAULT_MINOR;
    const major = spec.major ?? DEFAULT_MAJOR;
    const color = spec.color ?? '#1a1a1a';
    const axes = rulerAxes(spec);
    from.fromArray(spec.from);
    dir.fromArray(axes.dir);
    tick.fromArray(axes.tick);
    const at = (s: number, t: number): THREE.Vector3 =>
      p.copy(from).addScaledVector(dir, s).addScaledVector(tick, t);

    const band = BAND * major;
    const margin = 0.03 * major;
    const bandPos: number[] = [];
    for (const [s, t] of [[-margin, 0], [axes.length + margin, 0], [axes.length + margin, band], [-margin, band]]) {
      bandPos.push(...at(s, t).toArray());
      bounds.expandByPoint(p);
    }
    const bandGeometry = new THREE.BufferGeometry();
    bandGeometry.setAttribute('position', new THREE.Float32BufferAttribute(bandPos, 3));
    bandGeometry.setIndex([0, 1, 2, 0, 2, 3]);
    const bandMaterial = new THREE.MeshBasicMaterial({
      color: '#f7f2dc',
      side: THREE.DoubleSide,
      polygonOffset: true,
      polygonOffsetFactor: 2,
      polygonOffsetUnits: 2,
    });
    group.add(new THREE.Mesh(bandGeometry, bandMaterial));
    disposables.push(bandGeometry, bandMaterial);

    const linePos: number[] = [...at(0, 0).toArray(), ...at(axes.length, 0).toArray()];
    const minorPos: number[] = [];
    const midPos: number[] = [];
    let k = 0;
    for (const t of rulerTicks(axes.length, minor, major)) {
      const len = (t.rank === 'major' ? MAJOR_LEN : t.rank === 'mid' ? MID_LEN : MINOR_LEN) * major;
      (t.rank === 'major' ? linePos : t.rank === 'mid' ? midPos : minorPos).push(...at(t.at, 0).toArray(), ...at(t.at, len).toArray());
      if (t.label === undefined) continue;
      const foot = at(t.at, 0).clone();
      const { texture, aspect } = labelTexture(t.label, color);
      // Labels ignore depth and draw last: a ruler lying on a table seen from low elevation
      // would otherwise have its labels buried in the table top in front of them.
      const material = new THREE.SpriteMaterial({ map: texture, transparent: true, depthWrite: false, depthTest: false });
      const sprite = new THREE.Sprite(material);
      const anchor = at(t.at, band + margin).clone();
      sprite.position.copy(anchor);
      sprite.renderOrder = 10;
      group.add(sprite);
      disposables.push(texture, material);
      labels.push({ ruler: tickSets.length, k: k++, text: t.label, foot, sprite, anchor, tick: tick.clone(), along: dir.clone(), aspect, height: LABEL_HEIGHT * major });
      bounds.expandByPoint(anchor);
    }
    const lineMaterial = new THREE.LineBasicMaterial({ color });
    disposables.push(lineMaterial);
    const segments = (positions: number[]): THREE.LineSegments => {
      const geometry = new THREE.BufferGeometry();
      geometry.setAttribute('position', new THREE.Float32BufferAttribute(positions, 3));
      const lines = new THREE.LineSegments(geometry, lineMaterial);
      lines.renderOrder = 1;
      group.add(lines);
      disposables.push(geometry);
      return lines;
    };
    segments(linePos);
    tickSets.push({ minorLines: segments(minorPos), midLines: segments(midPos), from: from.clone(), dir: dir.clone(), length: axes.length, minor, major });
  }
  return {
    group,
    bounds,
    hasLabels: labels.length > 0,
    probes: labels.flatMap((label) => [label.foot, label.anchor]),
    layout(camera, width, height, occluded) {
      for (const t of tickSets) {
        t.minorLines.visible = screenSpacing(t.from, t.dir, t.length, t.minor, camera, width, height) >= MIN_TICK_SPACING_PX;
        t.midLines.visible = screenSpacing(t.from, t.dir, t.length, t.major / 2, camera, width, height) >= MIN_TICK_SPACING_PX;
      }
      const out: LabelLayout[] = [];
      const rects: ([number, number, number, number] | null)[] = labels.map((label) => placeLabel(label, camera, width, height));
      const states: LabelState[] = labels.map((label, i) => (rects[i] === null || (occluded(label.foot) && occluded(label.anchor)) ? 'occluded' : 'shown'));
      // Per ruler, the smallest label step at which its visible labels keep apart.
      for (let r = 0; r < tickSets.length; r++) {
        const mine = labels.flatMap((label, i) => (label.ruler === r && states[i] === 'shown' ? [i] : []));
        let step = LABEL_STEPS[LABEL_STEPS.length - 1];
        for (const m of LABEL_STEPS) {
          const kept = mine.filter((i) => labels[i].k % m === 0);
          if (kept.every((i, j) => j === 0 || !overlaps(rects[kept[j - 1]]!, rects[i]!))) {
            step = m;
            break;
          }
        }
        for (const i of mine) if (labels[i].k % step !== 0) states[i] = 'thinned';
      }
      // A label that would cross the image border is left out rather than shown cut; one that
      // would overlap a label of an earlier ruler gives way to it.
      const shown: number[] = [];
      labels.forEach((_, i) => {
        if (states[i] !== 'shown') return;
        const [x0, y0, x1, y1] = rects[i]!;
        if (x0 < 0 || y0 < 0 || x1 > width || y1 > height) states[i] = 'cut';
        else if (shown.some((j) => overlaps(rects[j]!, rects[i]!))) states[i] = 'overlap';
        else shown.push(i);
      });
      labels.forEach((label, i) => {
        label.sprite.visible = states[i] === 'shown';
        const rect = rects[i] ?? [NaN, NaN, NaN, NaN];
        out.push({ ruler: label.ruler, text: label.text, state: states[i], rect: [rect[0], rect[1], rect[2], rect[3]] });
      });
      return out;
    },
    dispose() {
      for (const d of disposables) d.dispose();
    },
  };
}
