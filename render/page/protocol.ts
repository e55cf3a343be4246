/**
 * Messages between the Node renderer and the page. Node keeps a mirror of what the page holds
 * and sends only differences: a body's geometry travels once (keyed by name and a hash of its
 * shapes and appearance), afterwards only its pose when it moves.
 */
import type { Highlight, KeyLight, RulerSpec, ShapeSpec, Vec3 } from '../../sim/types.ts';
import type { CameraSpec } from '../camera-spec.ts';

/** A body the page does not hold yet, or holds with different geometry or appearance. */
export interface BodyGeometry {
  name: string;
  /** Hash of shapes, visual shapes, colour and opacity; a new key replaces the page's object. */
  key: string;
  shapes: ShapeSpec[];
  /** Drawn-only shapes (`SceneBody.visual`), drawn like `shapes`; absent when there are none. */
  visual?: ShapeSpec[];
  color: string;
  opacity: number;
}

/** A pose in one flat tuple: name, position, quaternion. */
export type PoseRow = [name: string, px: number, py: number, pz: number, qx: number, qy: number, qz: number, qw: number];

/** Ground, background and key light. */
export interface Environment {
  background: string;
  ground: { y: number; color: string; size?: number } | null;
  /** null: the default key light. */
  light: KeyLight | null;
}

/** What changed since the previous frame. */
export interface SceneUpdate {
  /** Drop everything the page holds first (after a failure or a relaunch). */
  reset?: boolean;
  add?: BodyGeometry[];
  remove?: string[];
  poses?: PoseRow[];
  visible?: [name: string, visible: boolean][];
  /** The scene's body order, sent when it changes; draw order ties are broken by it. */
  order?: string[];
  rulers?: RulerSpec[];
  environment?: Environment;
}

/** Which view to draw; `measure` draws nothing visible and returns a {@link MeasureResult}. */
export type ViewMode = 'rgb' | 'depth' | 'mask' | 'lines' | 'measure';

/**
 * A dimension line of a line drawing: the distance between `from` and `to`, drawn set off from
 * them by `offset` (metres, world), with extension lines, arrowheads and its value (default
 * the distance, e.g. "12 cm").
 */
export interface DimensionSpec {
  from: Vec3;
  to: Vec3;
  offset: Vec3;
  text?: string;
}

/** One picture to draw after the update. */
export interface FrameRequest {
  mode: ViewMode;
  width: number;
  height: number;
  /** Fully specified (defaults filled in by Node). */
  camera: Required<Pick<CameraSpec, 'azimuth' | 'elevation' | 'distance' | 'target' | 'fov' | 'projection'>> & { orthoHeight: number };
  highlight?: Highlight;
  /** Mask only: restrict the silhouette to these bodies. */
  only?: string[];
  /** Line drawings only: draw hidden edges dashed, and these dimension lines. */
  lines?: { hidden: boolean; dimensions: DimensionSpec[] };
  /**
   * Measure only: bodies whose pixels are also counted with every other body left out
   * ({@link BodyMeasure.alonePixels}), so how much of a letter the rest of the scene hides can be told.
   */
  alone?: string[];
  /**
   * Measure only: bodies measured shape by shape ({@link BodyMeasure.shapes}): how much of each
   * of their shapes (an arrow's shaft and head) the picture shows, so an annotation lying over
   * an arrowhead can be told.
   */
  byShape?: string[];
}

/** An encoded picture (RGB or depth). */
export interface ImageResult {
  kind: 'png';
  /** base64 PNG */
  png: string;
  /** Milliseconds the page spent applying the update and drawing, until the pixels were ready. */
  drawMs: number;
  /** Milliseconds the page spent encoding the PNG. */
  encodeMs: number;
  /**
   * Where the page's time went, milliseconds: `apply` (the scene update), `idPass` (the id
   * buffer for ruler-label occlusion, drawn and read back), `labels` (label layout), `draw`
   * (lights, shadow map and the picture, until its pixels were ready), `encode` (PNG).
   */
  phases: PagePhases;
}

/** Milliseconds per phase of one page call (see {@link ImageResult.phases}). */
export interface PagePhases {
  apply: number;
  idPass: number;
  labels: number;
  draw: number;
  encode: number;
}

/** A silhouette: one bit per pixel, rows top to bottom, most significant bit first. */
export interface MaskResult {
  kind: 'mask';
  width: number;
  height: number;
  /** base64 of the packed bits */
  bits: string;
  count: number;
}

/** One body as a camera sees it (see `Renderer.measure`). */
export interface BodyMeasure {
  name: string;
  /** False when the body is not drawn (`visible: false`). */
  drawn: boolean;
  /** Pixels of the picture where this body is the nearest surface. */
  pixels: number;
  /** Some part of the body projects outside the image (or behind the camera). */
  cut: boolean;
  /** Bounding box of the projected body in pixels, `[x0, y0, x1, y1]`, y down (occlusion ignored). */
  bounds: [number, number, number, number];
  /** Pixels the body would show with every other body left out; only for bodies the request names in `alone`. */
  alonePixels?: number;
  /** Per shape of the body (in its `shapes` order), for bodies the request names in `byShape`. */
  shapes?: ShapeMeasure[];
}

/**
 * One shape of a body as the picture shows it: its pixels with the body drawn alone (the body's
 * other shapes still hide it where they stand in front), and where each of those pixels went in
 * the full picture.
 */
export interface ShapeMeasure {
  /** Pixels of the shape with every other body left out. */
  alone: number;
  /** Of those, pixels the picture shows: the body is the nearest surface there and nothing is drawn over it. */
  shown: number;
  /** Of those, pixels under a shown ruler label's plate (drawn over everything). */
  underLabel: number;
  /** Of those, pixels behind a ruler's band, line or ticks. */
  underRuler: number;
  /** Of those, pixels behind another body. */
  underBody: number;
  /** Length in pixels of the diagonal of the box round the shape's alone pixels: how long it looks (0 when unseen). */
  extent: number;
}

/** One ruler label as a camera sees it: its rectangle in pixels (y down) and whether it is shown. */
export interface LabelMeasure {
  /** Index of the ruler in the scene's `rulers`. */
  ruler: number;
  text: string;
  state: 'shown' | 'thinned' | 'occluded' | 'cut' | 'overlap';
  rect: [number, number, number, number];
  /**
   * Shown labels only: the bodies whose visible pixels lie under the label's plate (which is
   * drawn over everything), body name → pixels covered.
   */
  covers?: Record<string, number>;
}

/** The framing measurement of one scene and camera. */
export interface MeasureResult {
  kind: 'measure';
  width: number;
  height: number;
  bodies: BodyMeasure[];
  labels: LabelMeasure[];
}

/** The page's entry point, installed as `window.__spaceact`. */
export interface PageApi {
  frame(update: SceneUpdate, request: FrameRequest): ImageResult | MaskResult | MeasureResult;
}
