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

/** Which view to draw. */
export type ViewMode = 'rgb' | 'depth' | 'mask';

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
}

/** An encoded picture (RGB or depth). */
export interface ImageResult {
  kind: 'png';
  /** base64 PNG */
  png: string;
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

/** The page's entry point, installed as `window.__spaceact`. */
export interface PageApi {
  frame(update: SceneUpdate, request: FrameRequest): ImageResult | MaskResult;
}
