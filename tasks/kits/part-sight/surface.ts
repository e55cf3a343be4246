/**
 * What a camera sees of a scene made of flat rectangles ("patches"), by ray casting in Node, no
 * browser: the same orbit camera as the renderer (render/camera-frame.ts), a square picture,
 * perspective only. Rays are tested exactly against the rectangles, with the rectangles sorted
 * into screen buckets per camera (a scene here is a few hundred rectangles looked at from a few
 * dozen cameras, where this is about ten times faster than a triangle BVH).
 *
 * A sample point on a patch counts as seen when it lies inside the field of view and the first
 * triangle the ray from the camera through it meets belongs to the same owner. Owners group
 * patches (a box's six faces, or one cube's exposed faces), so a ray that grazes the next face
 * of the same owner still counts.
 */
import type { CameraSpec } from '../../../render/camera-spec.ts';
import { cameraFrame, DEFAULT_FOV, type CameraFrame } from '../../../render/camera-frame.ts';
import { qrotate, vcross, vdot } from '../../../sim/math.ts';
import type { Pose, Vec3 } from '../../../sim/types.ts';

/** A flat rectangle: centre, half-edge vectors `u` and `v`, outward unit normal, owner id. */
export interface Patch {
  centre: Vec3;
  u: Vec3;
  v: Vec3;
  normal: Vec3;
  owner: number;
}

/** Height in pixels of the picture pixel estimates refer to: the observation size. */
export const PICTURE_SIZE = 768;

/** Samples per patch edge for "clearly seen" (cell centres of a 4 × 4 lattice, as V1 uses). */
export const CLEAR_GRID = 4;

/**
 * Samples per patch edge for "shows at all": a 9 × 9 lattice out to {@link GLIMPSE_INSET} from
 * the edges, 3.6 mm apart on a 3 cm cube face (V1 uses 3.5 mm on its 4 cm cubes).
 */
export const GLIMPSE_GRID = 9;

/** How far inside a patch's edges the glimpse lattice starts, metres. */
export const GLIMPSE_INSET = 0.0005;

/** A patch is clearly seen when this fraction of its clear-lattice samples is unoccluded… */
export const CLEAR_SAMPLES = 0.75;

/** …and it shows this fraction of the pixels it would cover head-on (not seen at a grazing angle). */
export const CLEAR_PIXELS = 0.4;

/** How much of one patch a camera sees. */
export interface PatchSighting {
  samples: number;
  visible: number;
  /** Pixels of the patch that show in a {@link PICTURE_SIZE}-pixel picture. */
  seenPixels: number;
  /** Pixels the patch would cover seen head-on from the same distance. */
  headOnPixels: number;
}

/** Whether a sighting on the clear lattice counts as clearly seen. */
export function isClearSighting(s: PatchSighting): boolean {
  return s.visible >= CLEAR_SAMPLES * s.samples && s.seenPixels >= CLEAR_PIXELS * s.headOnPixels;
}

/** The six faces of a box as patches, all with one owner. */
export function boxPatches(half: Vec3, pose: Pose, owner: number): Patch[] {
  const out: Patch[] = [];
  for (let a = 0; a < 3; a++) {
    const b = (a + 1) % 3;
    const c = (a + 2) % 3;
    for (const sign of [-1, 1]) {
      const n: Vec3 = [0, 0, 0];
      n[a] = sign;
      const off: Vec3 = [0, 0, 0];
      off[a] = sign * half[a];
      const u: Vec3 = [0, 0, 0];
      u[b] = half[b];
      const v: Vec3 = [0, 0, 0];
      v[c] = half[c];
      const w = qrotate(pose.q, off);
      out.push({
        centre: [pose.p[0] + w[0], pose.p[1] + w[1], pose.p[2] + w[2]],
        u: qrotate(pose.q, u),
        v: qrotate(pose.q, v),
        normal: qrotate(pose.q, n),
        owner,
      });
    }
  }
  return out;
}

interface View {
  eye: Vec3;
  frame: CameraFrame;
  tanHalf: number;
}

function viewOf(camera: CameraSpec): View {
  const frame = cameraFrame(camera);
  return { eye: frame.position, frame, tanHalf: Math.tan(((camera.fov ?? DEFAULT_FOV) * Math.PI) / 360) };
}

/** How far past a sample point a ray is followed, as a fraction of its length. */
const FAR_SLACK = 1e-7;
/** Screen buckets per side of the picture for the per-camera occluder index. */
const BUCKETS = 32;

/**
 * Patches bucketed by where they fall in the picture of one camera: a ray to a point in the
 * picture can only meet patches whose projection covers that point, so each ray tests the few
 * patches of its bucket instead of all of them. Patches reaching behind the camera go in every
 * bucket.
 */
interface ScreenIndex {
  buckets: Int32Array[];
}

/** Ray-cast visibility of a fixed set of patches (exact ray–rectangle tests, per-camera screen buckets). */
export class SurfaceSight {
  readonly patches: readonly Patch[];
  /** Per patch: centre, u/|u|², v/|v|², normal (flat, for the inner loop). */
  private readonly geo: Float64Array;
  private readonly indexes = new Map<string, ScreenIndex>();

  constructor(patches: Patch[]) {
    this.patches = patches;
    this.geo = new Float64Array(patches.length * 12);
    patches.forEach((p, i) => {
      const uu = p.u[0] ** 2 + p.u[1] ** 2 + p.u[2] ** 2;
      const vv = p.v[0] ** 2 + p.v[1] ** 2 + p.v[2] ** 2;
      this.geo.set([...p.centre, p.u[0] / uu, p.u[1] / uu, p.u[2] / uu, p.v[0] / vv, p.v[1] / vv, p.v[2] / vv, ...p.normal], i * 12);
    });
  }

  private index(camera: CameraSpec, view: View): ScreenIndex {
    const key = JSON.stringify(camera);
    let idx = this.indexes.get(key);
    if (idx) return idx;
    const lists: number[][] = Array.from({ length: BUCKETS * BUCKETS }, () => []);
    const { eye, frame, tanHalf } = view;
    this.patches.forEach((p, i) => {
      let x0 = Infinity;
      let x1 = -Infinity;
      let y0 = Infinity;
      let y1 = -Infinity;
      let behind = false;
      for (const [a, b] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) {
        const d = [0, 1, 2].map((k) => p.centre[k] + a * p.u[k] + b * p.v[k] - eye[k]);
        const depth = -(d[0] * frame.back[0] + d[1] * frame.back[1] + d[2] * frame.back[2]);
        if (depth <= 1e-6) {
          behind = true;
          break;
        }
        const x = (d[0] * frame.right[0] + d[1] * frame.right[1] + d[2] * frame.right[2]) / (depth * tanHalf);
        const y = (d[0] * frame.up[0] + d[1] * frame.up[1] + d[2] * frame.up[2]) / (depth * tanHalf);
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
        y0 = Math.min(y0, y);
        y1 = Math.max(y1, y);
      }
      const cell = (v: number): number => Math.min(BUCKETS - 1, Math.max(0, Math.floor(((v + 1) / 2) * BUCKETS)));
      const [i0, i1, j0, j1] = behind ? [0, BUCKETS - 1, 0, BUCKETS - 1] : [cell(x0), cell(x1), cell(y0), cell(y1)];
      if (!behind && (x1 < -1 || x0 > 1 || y1 < -1 || y0 > 1)) return;
      for (let bi = i0; bi <= i1; bi++) for (let bj = j0; bj <= j1; bj++) lists[bj * BUCKETS + bi].push(i);
    });
    idx = { buckets: lists.map((l) => Int32Array.from(l)) };
    this.indexes.set(key, idx);
    return idx;
  }

  /**
   * The owner of the first patch the segment from `eye` along `d` (t in (0, 1 + slack]) meets,
   * among the patches of screen bucket `bucket`, or −1.
   */
  private firstOwner(bucket: Int32Array, ex: number, ey: number, ez: number, dx: number, dy: number, dz: number): number {
    const g = this.geo;
    let best = 1 + FAR_SLACK;
    let owner = -1;
    for (let k = 0; k < bucket.length; k++) {
      const o = bucket[k] * 12;
      const nx = g[o + 9];
      const ny = g[o + 10];
      const nz = g[o + 11];
      const den = nx * dx + ny * dy + nz * dz;
      if (den > -1e-15 && den < 1e-15) continue;
      const t = (nx * (g[o] - ex) + ny * (g[o + 1] - ey) + nz * (g[o + 2] - ez)) / den;
      if (t <= 1e-9 || t >= best) continue;
      const rx = ex + t * dx - g[o];
      const ry = ey + t * dy - g[o + 1];
      const rz = ez + t * dz - g[o + 2];
      const s = rx * g[o + 3] + ry * g[o + 4] + rz * g[o + 5];
      if (s < -1 - 1e-9 || s > 1 + 1e-9) continue;
      const w = rx * g[o + 6] + ry * g[o + 7] + rz * g[o + 8];
      if (w < -1 - 1e-9 || w > 1 + 1e-9) continue;
      best = t;
      owner = this.patches[bucket[k]].owner;
    }
    return owner;
  }

  /**
   * Samples patch `i` from `camera`: `grid`² points, at cell centres or (with `edges`) evenly out
   * to {@link GLIMPSE_INSET} from the edges. `stopAtFirst` returns as soon as one sample shows.
   * A patch turned away from the camera has no visible samples.
   */
  sightPatch(camera: CameraSpec, i: number, grid: number, edges: boolean, stopAtFirst = false): PatchSighting {
    return this.sample(camera, i, grid, edges, stopAtFirst);
  }

  /** Whether any sample of the glimpse lattice of patch `i` shows. */
  glimpsed(camera: CameraSpec, i: number): boolean {
    return this.sample(camera, i, GLIMPSE_GRID, true, true).visible > 0;
  }

  /** Whether patch `i` is clearly seen ({@link isClearSighting}). */
  clear(camera: CameraSpec, i: number): boolean {
    return isClearSighting(this.sample(camera, i, CLEAR_GRID, false, false));
  }

  private sample(camera: CameraSpec, i: number, grid: number, edges: boolean, stopAtFirst: boolean): PatchSighting {
    const view = viewOf(camera);
    const p = this.patches[i];
    const { eye, frame, tanHalf } = view;
    const pxPerUnit = PICTURE_SIZE / (2 * tanHalf);
    const px2 = pxPerUnit * pxPerUnit;
    const toEye: Vec3 = [eye[0] - p.centre[0], eye[1] - p.centre[1], eye[2] - p.centre[2]];
    const ul = Math.hypot(...p.u);
    const vl = Math.hypot(...p.v);
    const area = 4 * ul * vl;
    const out: PatchSighting = { samples: grid * grid, visible: 0, seenPixels: 0, headOnPixels: (area / vdot(toEye, toEye)) * px2 };
    if (vdot(p.normal, toEye) <= 1e-9) return out;
    const cellArea = area / (grid * grid);
    const { buckets } = this.index(camera, view);
    const at = (k: number, half: number): number => {
      if (!edges) return (2 * (k + 0.5)) / grid - 1;
      const reach = Math.max(0, half - GLIMPSE_INSET) / half;
      return -reach + (2 * reach * k) / (grid - 1);
    };
    const [cx, cy, cz] = p.centre;
    const [ux, uy, uz] = p.u;
    const [vx, vy, vz] = p.v;
    const [ex, ey, ez] = eye;
    const [bx, by, bz] = frame.back;
    const [rx, ry, rz] = frame.right;
    const [upx, upy, upz] = frame.up;
    const [nx, ny, nz] = p.normal;
    for (let a = 0; a < grid; a++) {
      const s = at(a, ul);
      for (let b = 0; b < grid; b++) {
        const t = at(b, vl);
        const dx = cx + s * ux + t * vx - ex;
        const dy = cy + s * uy + t * vy - ey;
        const dz = cz + s * uz + t * vz - ez;
        const depth = -(dx * bx + dy * by + dz * bz);
        if (depth <= 0) continue;
        const lim = tanHalf * depth;
        if (Math.abs(dx * rx + dy * ry + dz * rz) > lim || Math.abs(dx * upx + dy * upy + dz * upz) > lim) continue;
        const bx0 = Math.min(BUCKETS - 1, Math.max(0, Math.floor(((dx * rx + dy * ry + dz * rz) / lim + 1) * 0.5 * BUCKETS)));
        const by0 = Math.min(BUCKETS - 1, Math.max(0, Math.floor(((dx * upx + dy * upy + dz * upz) / lim + 1) * 0.5 * BUCKETS)));
        if (this.firstOwner(buckets[by0 * BUCKETS + bx0], ex, ey, ez, dx, dy, dz) !== p.owner) continue;
        out.visible++;
        out.seenPixels += ((cellArea * -(nx * dx + ny * dy + nz * dz)) / (depth * depth * depth)) * px2;
        if (stopAtFirst) return out;
      }
    }
    return out;
  }
}

/** The unit normal of the plane spanned by `u` and `v` (for building patches by hand). */
export function patchNormal(u: Vec3, v: Vec3): Vec3 {
  const n = vcross(u, v);
  const l = Math.hypot(...n);
  return [n[0] / l, n[1] / l, n[2] / l];
}

/**
 * Reachable viewpoints for visibility checks: azimuth every `azimuthStep` degrees at each of
 * `elevations` inside `elevationRange`, plus the top view when 90° is allowed; same distance and
 * look-at point as `initial`.
 */
export function reachableViews(initial: CameraSpec, elevationRange: [number, number], elevations: readonly number[] = [0, 30, 60], azimuthStep = 30): CameraSpec[] {
  const views: CameraSpec[] = [];
  for (const el of elevations) {
    if (el < elevationRange[0] || el > elevationRange[1]) continue;
    for (let az = -180 + azimuthStep; az <= 180; az += azimuthStep) views.push({ ...initial, azimuth: az, elevation: el });
  }
  if (elevationRange[1] >= 90) views.push({ ...initial, azimuth: initial.azimuth, elevation: 90 });
  return views;
}
