import type { CameraSpec } from '../../../render/camera-spec.ts';
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
 * (the object above {@link SCREEN_HIDES} of its height); the screen itself runs off the
 * bottom of the picture.
 */
export function questionCamera(object: TurntableObject, occluded = false): CameraSpec {
  const radius = turntableRadius(object);
  const low = occluded ? SCREEN_HIDES * object.height : -TURNTABLE_THICKNESS;
  const target: Vec3 = [0, roundTo(occluded ? (low + object.height) / 2 : object.height * 0.45, 6), 0];
  const points: Vec3[] = [];
  for (let i = 0; i < 16; i++) {
    const a = (i * Math.PI) / 8;
    for (const y of [low, object.height]) points.push([radius * Math.sin(a), y, radius * Math.cos(a)]);
  }
  const reach = Math.max(...points.map((p) => Math.hypot(p[0] - target[0], p[1] - target[1], p[2] - target[2])));
  const distance = Math.ceil((reach / Math.sin((FOV_DEG / 2) * (Math.PI / 180))) * 100) / 100;
  return { azimuth: 0, elevation: ELEVATION_DEG, distance, target };
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
