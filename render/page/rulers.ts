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

interface Label {
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

/** The rulers of a scene as drawables. */
export interface RulerSet {
  group: THREE.Group;
  /** Bounds of bands, ticks and label anchors (sprites face the camera, so their depth is the anchor's). */
  bounds: THREE.Box3;
  /** Sizes and places the labels for a camera and image; call before each RGB picture. */
  layout(camera: THREE.Camera, width: number, height: number): void;
  dispose(): void;
}

function labelTexture(text: string, color: string): { texture: THREE.CanvasTexture; aspect: number } {
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
function placeLabel(label: Label, camera: THREE.Camera, width: number, height: number): void {
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
      return;
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
    for (const t of rulerTicks(axes.length, minor, major)) {
      const len = (t.rank === 'major' ? MAJOR_LEN : t.rank === 'mid' ? MID_LEN : MINOR_LEN) * major;
      linePos.push(...at(t.at, 0).toArray(), ...at(t.at, len).toArray());
      if (t.label === undefined) continue;
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
      labels.push({ sprite, anchor, tick: tick.clone(), along: dir.clone(), aspect, height: LABEL_HEIGHT * major });
      bounds.expandByPoint(anchor);
    }
    const lineGeometry = new THREE.BufferGeometry();
    lineGeometry.setAttribute('position', new THREE.Float32BufferAttribute(linePos, 3));
    const lineMaterial = new THREE.LineBasicMaterial({ color });
    const lines = new THREE.LineSegments(lineGeometry, lineMaterial);
    lines.renderOrder = 1;
    group.add(lines);
    disposables.push(lineGeometry, lineMaterial);
  }
  return {
    group,
    bounds,
    layout(camera, width, height) {
      for (const label of labels) placeLabel(label, camera, width, height);
    },
    dispose() {
      for (const d of disposables) d.dispose();
    },
  };
}
