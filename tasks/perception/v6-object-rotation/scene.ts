import type { CameraSpec } from '../../../render/camera-spec.ts';
import { cameraFrame } from '../../../render/camera-frame.ts';
import type { Vec3 } from '../../../sim/types.ts';
import { buildObject, type TurntableObject } from './objects.ts';
import type { Question } from './questions.ts';
import { passesScreen, symmetryProfile, type Occluder, type ScreenCamera, type SymmetryProfile } from './symmetry.ts';
import { roundTo } from '../../../core/determinism.ts';

/** Camera elevation of every picture, degrees above the horizontal. */
export const ELEVATION_DEG = 20;
/** Vertical field of view of the pictures, degrees (the renderer's default). */
export const FOV_DEG = 40;
/** Side of each question picture, pixels. */
export const IMAGE_SIZE = 512;
/** Thickness of the turntable disk, metres; its top is the object's floor (y = 0). */
export const TURNTABLE_THICKNESS = 0.03;
/** Candidate objects in the pool (ids 0 … POOL_SIZE − 1); those that fail the symmetry screen are never used. */
export const POOL_SIZE = 100;
/** Share of the object's height the `+occ` screen hides at the turntable axis. */
export const SCREEN_HIDES = 0.3;

/** Colours of the turntable, the L7 screen and the floor. */
export const TURNTABLE_COLOR = '#b9bec4';
export const SCREEN_COLOR = '#7d858c';
export const FLOOR_COLOR = '#d6d2c8';

/** Everything a V6 world and its pictures are built from. */
export interface V6Scene {
  question: Question;
  object: TurntableObject;
  turntable: { radius: number; thickness: number };
  /** The `+occ` screen (a box that never turns), or null. */
  screen: { center: Vec3; half: Vec3 } | null;
  /** The object's symmetry screening: its least-changing tested turn and how much it changes. */
  screening: { angleDeg: number; change: number };
}

/** Turntable radius for an object: a little beyond its widest reach. */
export function turntableRadius(object: TurntableObject): number {
  return roundTo(object.radius * 1.05 + 0.05, 6);
}

/**
 * The `+occ` screen: a low wall in front of the turntable, across the camera's view, just tall
 * enough that the camera's sight line over it meets the turntable axis at
 * {@link SCREEN_HIDES} of the object's height: below that, the middle of the object is hidden.
 */
export function screenFor(object: TurntableObject): { center: Vec3; half: Vec3 } {
  const radius = turntableRadius(object);
  const z = radius + 0.06;
  const camera = questionCamera(object, true);
  const e = (ELEVATION_DEG * Math.PI) / 180;
  const eye: [number, number] = [camera.target[1] + camera.distance * Math.sin(e), camera.distance * Math.cos(e)];
  const hidden = SCREEN_HIDES * object.height;
  const top = hidden + ((eye[0] - hidden) * z) / eye[1];
  const bottom = -TURNTABLE_THICKNESS;
  return { center: [0, roundTo((top + bottom) / 2, 6), roundTo(z, 6)], half: [roundTo(radius + 0.1, 6), roundTo((top - bottom) / 2, 6), 0.01] };
}

/** The screening view of an object: orthographic, the question's elevation, framing the object alone. */
export function screeningCamera(object: TurntableObject): ScreenCamera {
  const e = (ELEVATION_DEG * Math.PI) / 180;
  const size = Math.max(2 * object.radius, object.height * Math.cos(e) + 2 * object.radius * Math.sin(e)) * 1.05;
  return { elevationDeg: ELEVATION_DEG, target: [0, object.height / 2, 0], size };
}

/**
 * The fixed camera of every picture: azimuth 0 (looking from +Z at the object's front when
 * it stands at stop 0), {@link ELEVATION_DEG} up, far enough that the turntable and the object
 * at any turn fit. Behind the `+occ` screen it frames only what the screen leaves visible
 * (see {@link occludedCamera}).
 */
export function questionCamera(object: TurntableObject, occluded = false): CameraSpec {
  if (occluded) return occludedCamera(object);
  const radius = turntableRadius(object);
  const low = -TURNTABLE_THICKNESS;
  const target: Vec3 = [0, roundTo(object.height * 0.45, 6), 0];
  const points: Vec3[] = [];
  for (let i = 0; i < 16; i++) {
    const a = (i * Math.PI) / 8;
    for (const y of [low, object.height]) points.push([radius * Math.sin(a), y, radius * Math.cos(a)]);
  }
  const reach = Math.max(...points.map((p) => Math.hypot(p[0] - target[0], p[1] - target[1], p[2] - target[2])));
  const distance = Math.ceil((reach / Math.sin((FOV_DEG / 2) * (Math.PI / 180))) * 100) / 100;
  return { azimuth: 0, elevation: ELEVATION_DEG, distance, target };
}

/** Where the `+occ` screen's top edge lies in the picture, as a share of its height from the top. */
export const SCREEN_EDGE_AT = 0.9;
/** Least gap between the object and the picture's top and sides behind the `+occ` screen, as a share of the picture. */
export const OCCLUDED_MARGIN = 0.06;

/**
 * The camera behind the `+occ` screen: as close as it can be while the object's highest reach
 * at any turn (a ring of its radius at its full height) and its widest reach (the same ring at
 * the height the screen hides up to) stay {@link OCCLUDED_MARGIN} inside the picture, with the
 * sight line over the screen's top (which meets the turntable axis at {@link SCREEN_HIDES} of
 * the object's height, `screenFor`) at {@link SCREEN_EDGE_AT} of the picture's height. So the
 * screen shows as a narrow band along the bottom, and the object above it fills the picture.
 */
export function occludedCamera(object: TurntableObject): CameraSpec {
  const h = object.height;
  const r = object.radius;
  const edge: Vec3 = [0, SCREEN_HIDES * h, 0];
  const ring: Vec3[] = [];
  for (let i = 0; i < 16; i++) {
    const a = (i * Math.PI) / 8;
    for (const y of [SCREEN_HIDES * h, h]) ring.push([r * Math.sin(a), y, r * Math.cos(a)]);
  }
  const camera = (targetY: number, distance: number): CameraSpec => ({ azimuth: 0, elevation: ELEVATION_DEG, distance, target: [0, targetY, 0] });
  // Image coordinates in [0, 1], y down, of a point seen by a camera.
  const project = (c: CameraSpec, p: Vec3): [number, number] => {
    const f = cameraFrame(c);
    const d = [p[0] - f.position[0], p[1] - f.position[1], p[2] - f.position[2]];
    const depth = -(d[0] * f.back[0] + d[1] * f.back[1] + d[2] * f.back[2]);
    const t = Math.tan(((FOV_DEG / 2) * Math.PI) / 180) * depth;
    return [0.5 + (d[0] * f.right[0] + d[1] * f.right[1] + d[2] * f.right[2]) / (2 * t), 0.5 - (d[0] * f.up[0] + d[1] * f.up[1] + d[2] * f.up[2]) / (2 * t)];
  };
  // For a distance, the target height that puts the screen's edge where it belongs (raising the
  // target lowers everything in the picture), found by bisection.
  const aimed = (distance: number): CameraSpec => {
    let lo = -h;
    let hi = 2 * h;
    for (let k = 0; k < 60; k++) {
      const mid = (lo + hi) / 2;
      if (project(camera(mid, distance), edge)[1] < SCREEN_EDGE_AT) lo = mid;
      else hi = mid;
    }
    return camera(roundTo((lo + hi) / 2, 4), distance);
  };
  const fits = (c: CameraSpec): boolean =>
    ring.every((p) => {
      const [x, y] = project(c, p);
      return x >= OCCLUDED_MARGIN && x <= 1 - OCCLUDED_MARGIN && y >= OCCLUDED_MARGIN;
    });
  for (let cm = 20; cm < 1000; cm++) {
    const c = aimed(cm / 100);
    if (fits(c)) return c;
  }
  return aimed(10);
}

const profiles = new Map<string, SymmetryProfile>();

/**
 * The symmetry screening of pool object `id`, alone or behind its `+occ` screen (memoised:
 * pure in the id). See `symmetry.ts` for how it is measured.
 */
export function screenObject(id: number, occluded: boolean): { object: TurntableObject; profile: SymmetryProfile; passed: boolean } {
  const object = buildObject(id);
  const key = `${id}/${occluded}`;
  let profile = profiles.get(key);
  if (!profile) {
    let occluder: Occluder | undefined;
    if (occluded) {
      const s = screenFor(object);
      occluder = { center: s.center, half: s.half };
    }
    profile = symmetryProfile(object, screeningCamera(object), occluder);
    profiles.set(key, profile);
  }
  return { object, profile, passed: passesScreen(profile) };
}
