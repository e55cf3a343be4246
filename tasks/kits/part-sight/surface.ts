/**
 * What a camera sees of a scene made of flat rectangles ("patches"), by ray casting with
 * three-mesh-bvh in Node, no browser: the same orbit camera as the renderer
 * (render/page/camera.ts), a square picture, perspective only.
 *
 * A sample point on a patch counts as seen when it lies inside the field of view and the first
 * triangle the ray from the camera through it meets belongs to the same owner. Owners group
 * patches (a box's six faces, or one cube's exposed faces), so a ray that grazes the next face
 * of the same owner still counts.
 */
import * as THREE from 'three';
import { MeshBVH } from 'three-mesh-bvh';
import type { CameraSpec } from '../../../render/camera-spec.ts';
import { cameraFrame, DEFAULT_FOV, type CameraFrame } from '../../../render/page/camera.ts';
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

/** Samples per patch edge for "shows at all": a 12 × 12 lattice out to {@link GLIMPSE_INSET} from the edges. */
export const GLIMPSE_GRID = 12;

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

const ray = new THREE.Ray();
/** How far past a sample point a ray is followed, metres (float32 geometry). */
const FAR_SLACK = 1e-4;

/** Ray-cast visibility of a fixed set of patches. */
export class SurfaceSight {
  readonly patches: readonly Patch[];
  private readonly bvh: MeshBVH;

  constructor(patches: Patch[]) {
    this.patches = patches;
    const positions = new Float32Array(patches.length * 4 * 3);
    const index = new Uint32Array(patches.length * 6);
    patches.forEach((p, i) => {
      const corners = [
        [-1, -1],
        [1, -1],
        [1, 1],
        [-1, 1],
      ].map(([s, t]) => [0, 1, 2].map((k) => p.centre[k] + s * p.u[k] + t * p.v[k]));
      corners.forEach((c, k) => positions.set(c, (i * 4 + k) * 3));
      const v = i * 4;
      index.set([v, v + 1, v + 2, v, v + 2, v + 3], i * 6);
    });
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
    geometry.setIndex(new THREE.BufferAttribute(index, 1));
    this.bvh = new MeshBVH(geometry);
  }

  /**
   * Samples patch `i` from `camera`: `grid`² points, at cell centres or (with `edges`) evenly out
   * to {@link GLIMPSE_INSET} from the edges. `stopAtFirst` returns as soon as one sample shows.
   * A patch turned away from the camera has no visible samples.
   */
  sightPatch(camera: CameraSpec, i: number, grid: number, edges: boolean, stopAtFirst = false): PatchSighting {
    return this.sample(viewOf(camera), i, grid, edges, stopAtFirst);
  }

  /** Whether any sample of the glimpse lattice of patch `i` shows. */
  glimpsed(camera: CameraSpec, i: number): boolean {
    return this.sample(viewOf(camera), i, GLIMPSE_GRID, true, true).visible > 0;
  }

  /** Whether patch `i` is clearly seen ({@link isClearSighting}). */
  clear(camera: CameraSpec, i: number): boolean {
    return isClearSighting(this.sample(viewOf(camera), i, CLEAR_GRID, false, false));
  }

  private sample(view: View, i: number, grid: number, edges: boolean, stopAtFirst: boolean): PatchSighting {
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
    ray.origin.set(eye[0], eye[1], eye[2]);
    const at = (k: number, half: number): number => {
      if (!edges) return (2 * (k + 0.5)) / grid - 1;
      const reach = Math.max(0, half - GLIMPSE_INSET) / half;
      return -reach + (2 * reach * k) / (grid - 1);
    };
    for (let a = 0; a < grid; a++) {
      const s = at(a, ul);
      for (let b = 0; b < grid; b++) {
        const t = at(b, vl);
        const d: Vec3 = [0, 1, 2].map((k) => p.centre[k] + s * p.u[k] + t * p.v[k] - eye[k]) as Vec3;
        const depth = -vdot(d, frame.back);
        if (depth <= 0 || Math.abs(vdot(d, frame.right)) > tanHalf * depth || Math.abs(vdot(d, frame.up)) > tanHalf * depth) continue;
        const dist = Math.hypot(d[0], d[1], d[2]);
        ray.direction.set(d[0] / dist, d[1] / dist, d[2] / dist);
        const hit = this.bvh.raycastFirst(ray, THREE.DoubleSide, 0, dist + FAR_SLACK);
        // Vertices, unlike triangles (which the BVH reorders), keep their places: four per patch.
        if (!hit?.face || this.patches[Math.floor(hit.face.a / 4)].owner !== p.owner) continue;
        out.visible++;
        out.seenPixels += ((cellArea * -vdot(p.normal, d)) / (depth * depth * depth)) * px2;
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
