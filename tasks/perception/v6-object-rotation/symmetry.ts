import { qconj, qrotate } from '../../../sim/math.ts';
import type { Quat, Vec3 } from '../../../sim/types.ts';
import type { ObjectPart, TurntableObject } from './objects.ts';
import { roundTo } from '../../../core/determinism.ts';

/** Turntable stops in a full turn (5° apart). */
export const FRAMES = 72;
/** Degrees between neighbouring turntable stops. */
export const FRAME_STEP_DEG = 5;
/** Pixels along each side of a screening view. */
export const SCREEN_RESOLUTION = 32;

/**
 * Turns under this angle are not tested: every object looks much like itself turned by 5–25°,
 * which is continuity, not symmetry.
 */
export const SCREEN_MIN_ANGLE_DEG = 30;
/**
 * Share of starting views a turn is judged on: a turn counts as ambiguous when, for at least
 * this share of the 72 starting views, the turned view differs from the start in too few pixels.
 */
export const SCREEN_QUANTILE = 0.25;
/**
 * An object is screened out when some tested turn changes less than this fraction of the pixels
 * the object covers (in either view) for {@link SCREEN_QUANTILE} of the starting views.
 */
export const SYMMETRY_THRESHOLD = 0.25;

/** Pixel label of the background (object parts are labelled by colour index ≥ 0). */
export const BACKGROUND = -1;
/** Pixel label of the `+occ` screen. */
export const OCCLUDER = -2;

/** A box in front of the turntable that never turns (the `+occ` screen), object frame. */
export interface Occluder {
  /** Centre, metres. */
  center: Vec3;
  half: Vec3;
}

/** The fixed camera as the screening sees it. */
export interface ScreenCamera {
  /** Degrees above the horizontal. */
  elevationDeg: number;
  /** Point the view is centred on, object frame. */
  target: Vec3;
  /** Side of the square view, metres (orthographic). */
  size: number;
}

/** A part ready for ray casting: its pose inverted once, and a bounding sphere. */
export interface Solid {
  /** The part's colour index, or {@link OCCLUDER} for the screen. */
  label: number;
  kind: 'box' | 'cylinder';
  /** Half extents (box) or [radius, halfHeight, radius] (cylinder). */
  half: Vec3;
  center: Vec3;
  /** Conjugate of the part's orientation: object frame → part frame. */
  inv: Quat;
  /** Radius of a sphere about `center` that holds the part. */
  bound: number;
}

function solidOf(part: ObjectPart, label: number): Solid {
  const half: Vec3 = part.type === 'box' ? part.half : [part.radius, part.halfHeight, part.radius];
  return {
    label,
    kind: part.type,
    half,
    center: part.pose.p,
    inv: qconj(part.pose.q),
    bound: Math.hypot(half[0], half[1], half[2]),
  };
}

/** Distance along a ray (origin `o`, unit direction `d`, both in the solid's own frame) to its surface, or Infinity. */
function hitLocal(kind: Solid['kind'], half: Vec3, o: Vec3, d: Vec3): number {
  if (kind === 'box') {
    let t0 = -Infinity;
    let t1 = Infinity;
    for (let a = 0; a < 3; a++) {
      if (Math.abs(d[a]) < 1e-12) {
        if (Math.abs(o[a]) > half[a]) return Infinity;
        continue;
      }
      let ta = (-half[a] - o[a]) / d[a];
      let tb = (half[a] - o[a]) / d[a];
      if (ta > tb) [ta, tb] = [tb, ta];
      if (ta > t0) t0 = ta;
      if (tb < t1) t1 = tb;
      if (t0 > t1) return Infinity;
    }
    return t0 > 0 ? t0 : Infinity;
  }
  const [r, hh] = half;
  let best = Infinity;
  const a = d[0] * d[0] + d[2] * d[2];
  if (a > 1e-12) {
    const b = o[0] * d[0] + o[2] * d[2];
    const c = o[0] * o[0] + o[2] * o[2] - r * r;
    const disc = b * b - a * c;
    if (disc >= 0) {
      const t = (-b - Math.sqrt(disc)) / a;
      if (t > 0 && Math.abs(o[1] + t * d[1]) <= hh) best = t;
    }
  }
  if (Math.abs(d[1]) > 1e-12) {
    for (const cap of [-hh, hh]) {
      const t = (cap - o[1]) / d[1];
      if (t > 0 && t < best) {
        const x = o[0] + t * d[0];
        const z = o[2] + t * d[2];
        if (x * x + z * z <= r * r) best = t;
      }
    }
  }
  return best;
}

/**
 * A small label image of the object turned to `frame` (its turn k·5° counter-clockwise seen
 * from above), as the fixed camera sees it with an orthographic projection: per pixel the
 * colour index of the nearest part, {@link OCCLUDER} for the screen, or {@link BACKGROUND}.
 * Rows run top to bottom, like the renderer's masks.
 */
export function labelView(solids: Solid[], camera: ScreenCamera, frame: number, resolution = SCREEN_RESOLUTION): Int8Array {
  // Turning the object by +ψ with the camera fixed at azimuth 0 is the camera at azimuth −ψ
  // around the still object.
  const az = (-frame * FRAME_STEP_DEG * Math.PI) / 180;
  const el = (camera.elevationDeg * Math.PI) / 180;
  const back: Vec3 = [Math.cos(el) * Math.sin(az), Math.sin(el), Math.cos(el) * Math.cos(az)];
  const dir: Vec3 = [-back[0], -back[1], -back[2]];
  const right: Vec3 = [Math.cos(az), 0, -Math.sin(az)];
  const up: Vec3 = [right[1] * dir[2] - right[2] * dir[1], right[2] * dir[0] - right[0] * dir[2], right[0] * dir[1] - right[1] * dir[0]];
  const standOff = 4 * camera.size;
  const origin: Vec3 = [0, 1, 2].map((i) => camera.target[i] + standOff * back[i]) as Vec3;
  // Rays are parallel, so per solid the ray in its own frame is o0 + u·ru + v·rv along d:
  // everything but the pixel offsets (u, v) is worked out once per view.
  const prepared = solids.map((s) => {
    const rel: Vec3 = [origin[0] - s.center[0], origin[1] - s.center[1], origin[2] - s.center[2]];
    const c: Vec3 = [s.center[0] - camera.target[0], s.center[1] - camera.target[1], s.center[2] - camera.target[2]];
    return {
      s,
      uc: c[0] * right[0] + c[1] * right[1] + c[2] * right[2],
      vc: c[0] * up[0] + c[1] * up[1] + c[2] * up[2],
      o0: qrotate(s.inv, rel),
      ru: qrotate(s.inv, right),
      rv: qrotate(s.inv, up),
      d: qrotate(s.inv, dir),
    };
  });
  const out = new Int8Array(resolution * resolution);
  const o: Vec3 = [0, 0, 0];
  for (let row = 0; row < resolution; row++) {
    const v = (0.5 - (row + 0.5) / resolution) * camera.size;
    for (let col = 0; col < resolution; col++) {
      const u = ((col + 0.5) / resolution - 0.5) * camera.size;
      let best = Infinity;
      let label = BACKGROUND;
      for (const p of prepared) {
        // Bounding-sphere rejection in the image plane: most rays miss most parts.
        const du = u - p.uc;
        const dv = v - p.vc;
        if (du * du + dv * dv > p.s.bound * p.s.bound) continue;
        o[0] = p.o0[0] + u * p.ru[0] + v * p.rv[0];
        o[1] = p.o0[1] + u * p.ru[1] + v * p.rv[1];
        o[2] = p.o0[2] + u * p.ru[2] + v * p.rv[2];
        const t = hitLocal(p.s.kind, p.s.half, o, p.d);
        if (t < best) {
          best = t;
          label = p.s.label;
        }
      }
      out[row * resolution + col] = label;
    }
  }
  return out;
}

/** The solids of an object (labelled by colour) and of an optional screen, for {@link labelView}. */
export function solidsOf(object: TurntableObject, occluder?: Occluder): Solid[] {
  const colors = [...new Set(object.parts.map((p) => p.color))];
  const solids = object.parts.map((p) => solidOf(p, colors.indexOf(p.color)));
  if (occluder) {
    solids.push(solidOf({ type: 'box', half: occluder.half, pose: { p: occluder.center, q: [0, 0, 0, 1] }, color: '' }, OCCLUDER));
  }
  return solids;
}

/**
 * The fraction of pixels whose label differs between two views, over the pixels where the
 * object shows in either; 0 when it shows in neither.
 */
export function viewMismatch(a: Int8Array, b: Int8Array): number {
  let differ = 0;
  let object = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] < 0 && b[i] < 0) continue;
    object++;
    if (a[i] !== b[i]) differ++;
  }
  return object ? differ / object : 0;
}

/** How much the object's view changes after each turn of the turntable. */
export interface SymmetryProfile {
  /**
   * `change[k]`: over the 72 starting views, the {@link SCREEN_QUANTILE} quantile of the
   * pixel mismatch between a view and the view after a further k·5° turn (`change[0]` = 0).
   */
  change: number[];
  /** The smallest change over the tested turns (30°–330°), and the turn (degrees) it occurs at. */
  worst: { angleDeg: number; change: number };
}

/**
 * Screens an object for rotational ambiguity the way a viewer meets it: it ray-casts small
 * label images (colour of the nearest part per pixel) of the object at all 72 turntable stops
 * from the fixed camera, then for every turn k compares each view with the view k stops later.
 * A symmetric object (a bare rectangular table at 180°, a round stool at every turn) gives
 * near-identical views; so does one whose only distinguishing part is hidden from the camera.
 * Pure geometry in Node: no browser, deterministic.
 */
export function symmetryProfile(object: TurntableObject, camera: ScreenCamera, occluder?: Occluder): SymmetryProfile {
  const solids = solidsOf(object, occluder);
  const views = Array.from({ length: FRAMES }, (_, f) => labelView(solids, camera, f));
  const change = [0];
  const rank = Math.floor(SCREEN_QUANTILE * (FRAMES - 1));
  for (let k = 1; k < FRAMES; k++) {
    const m = views.map((v, f) => viewMismatch(v, views[(f + k) % FRAMES])).sort((x, y) => x - y);
    change.push(roundTo(m[rank], 6));
  }
  const kMin = SCREEN_MIN_ANGLE_DEG / FRAME_STEP_DEG;
  let worst = { angleDeg: kMin * FRAME_STEP_DEG, change: Infinity };
  for (let k = kMin; k <= FRAMES - kMin; k++) {
    if (change[k] < worst.change) worst = { angleDeg: k * FRAME_STEP_DEG, change: change[k] };
  }
  return { change, worst };
}

/** True when no tested turn leaves the object looking nearly the same (see {@link SYMMETRY_THRESHOLD}). */
export function passesScreen(profile: SymmetryProfile): boolean {
  return profile.worst.change >= SYMMETRY_THRESHOLD;
}
