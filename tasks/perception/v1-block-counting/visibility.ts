import * as THREE from 'three';
import { MeshBVH } from 'three-mesh-bvh';
import type { CameraSpec } from '../../../render/camera-spec.ts';
import { cameraFrame, DEFAULT_FOV, type CameraFrame } from '../../../render/camera-frame.ts';
import { qrotate, vdot } from '../../../sim/math.ts';
import type { Pose, Vec3 } from '../../../sim/types.ts';

/** A box that can hide things and (if it is a target) be seen. */
export interface SolidBox {
  name: string;
  half: Vec3;
  pose: Pose;
}

/** How much of one face of a box a camera sees (only faces turned towards the camera are listed). */
export interface FaceSighting {
  /** Outward normal in the box's own frame: axis 0/1/2 (x/y/z) and sign. */
  axis: number;
  sign: 1 | -1;
  /** Whether the face is a square (its two edges equal): every cube face, a bar's end, a tile's top. */
  square: boolean;
  /** Sample points on the face ({@link SAMPLE_GRID}²). */
  samples: number;
  /** Samples inside the picture with a clear line of sight. */
  visible: number;
  /** Pixels of the face that show, in a {@link PICTURE_SIZE}-pixel picture. */
  seenPixels: number;
  /** Pixels the whole face would cover seen head-on from the same distance. */
  headOnPixels: number;
}

/** How much of one box a camera sees. */
export interface BoxSighting {
  /** Sample points on the camera-facing faces with a clear line of sight, inside the picture. */
  visible: number;
  /** Sample points on the camera-facing faces, inside the picture or not. */
  facing: number;
  /**
   * Pixels of the box that show in a {@link PICTURE_SIZE}-pixel picture: each seen sample
   * stands for its share of its face, projected onto the picture (foreshortening and distance
   * included), so a face seen nearly edge-on has samples but almost no pixels.
   */
  seenPixels: number;
  /** The faces turned towards the camera, one entry each. */
  faces: FaceSighting[];
}

/**
 * Sample points per face edge: every face a camera looks at carries a GRID × GRID lattice of
 * points at the centres of equal cells (so none lies on an edge), 16 per face. On a 4 cm cube
 * face each point stands for 1 cm².
 */
export const SAMPLE_GRID = 4;

/**
 * Sample points per face edge for telling whether a box shows at all
 * ({@link VisibilityTester.glimpsed}): a 12 × 12 lattice that runs out to
 * {@link GLIMPSE_INSET} from the face's edges (≈ 3.5 mm apart on a cube face), because what
 * peeks past an occluder is usually a thin strip along an edge.
 */
export const GLIMPSE_GRID = 12;

/** How far inside a face's edges the glimpse lattice starts, metres (about a pixel at 0.5 m). */
export const GLIMPSE_INSET = 0.0005;

/**
 * Unoccluded samples a block needs to count as visible: 4 (a quarter of one face's lattice,
 * ≈ 4 cm² of a cube face). A block showing less — a corner, a sliver through a gap — counts as
 * not visible.
 */
export const VISIBLE_MIN_SAMPLES = 4;

/** Height in pixels of the picture pixel estimates refer to: the observation size. */
export const PICTURE_SIZE = 768;

/**
 * Pixels a block must also show to count as visible: about a 12 × 12-pixel patch, 2–3 % of a
 * cube face at the first camera's distance, so faces seen nearly edge-on do not count.
 */
export const VISIBLE_MIN_PIXELS = 150;

/**
 * A face is clearly seen when at least this fraction of its samples is unoccluded and in the
 * picture…
 */
export const CLEAR_FACE_SAMPLES = 0.75;

/**
 * …and it shows at least this fraction of the pixels it would cover head-on (so it is not seen
 * at a grazing angle: with 75 % unoccluded, within about 58° of head-on).
 */
export const CLEAR_FACE_PIXELS = 0.4;

const FACE_AXES: Array<[number, number, number]> = [
  // [normal axis, u axis, v axis]
  [0, 1, 2],
  [1, 2, 0],
  [2, 0, 1],
];

const ray = new THREE.Ray();
/** How far past a sample point a ray is followed, metres (float32 geometry). */
const FAR_SLACK = 1e-4;

/**
 * Which boxes of a scene a camera sees, by ray casting against the scene's triangles with
 * three-mesh-bvh (no browser). A sample point on a box face counts as seen when the first
 * triangle hit by the ray from the camera position through that point belongs to the same box
 * and the point lies inside the camera's field of view (square picture, `fov` vertical, the
 * renderer's orbit camera of render/camera-frame.ts). Perspective cameras only.
 */
export class VisibilityTester {
  private readonly boxes: SolidBox[];
  private readonly owner: Int32Array;
  private readonly bvh: MeshBVH;

  /** @param boxes every solid in the scene (blocks, walls, floor); all of them occlude. */
  constructor(boxes: SolidBox[]) {
    this.boxes = boxes;
    const positions = new Float32Array(boxes.length * 8 * 3);
    const index = new Uint32Array(boxes.length * 12 * 3);
    this.owner = new Int32Array(boxes.length * 8);
    // Corner k has sign bits (x: bit 0, y: bit 1, z: bit 2).
    const quads = [
      [0, 2, 6, 4], // -x
      [1, 5, 7, 3], // +x
      [0, 4, 5, 1], // -y
      [2, 3, 7, 6], // +y
      [0, 1, 3, 2], // -z
      [4, 6, 7, 5], // +z
    ];
    boxes.forEach((b, bi) => {
      for (let k = 0; k < 8; k++) {
        const local: Vec3 = [k & 1 ? b.half[0] : -b.half[0], k & 2 ? b.half[1] : -b.half[1], k & 4 ? b.half[2] : -b.half[2]];
        const w = qrotate(b.pose.q, local);
        positions.set([b.pose.p[0] + w[0], b.pose.p[1] + w[1], b.pose.p[2] + w[2]], (bi * 8 + k) * 3);
        this.owner[bi * 8 + k] = bi;
      }
      quads.forEach((q, f) => {
        const v = q.map((k) => bi * 8 + k);
        index.set([v[0], v[1], v[2], v[0], v[2], v[3]], (bi * 12 + f * 2) * 3);
      });
    });
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
    geometry.setIndex(new THREE.BufferAttribute(index, 1));
    this.bvh = new MeshBVH(geometry);
  }

  /**
   * How much of each named box (default: all) the camera sees, keyed by name.
   * @param grid sample points per face edge (default {@link SAMPLE_GRID}).
   * @param edges lattice from edge to edge ({@link GLIMPSE_INSET} inside) instead of cell centres.
   */
  look(camera: CameraSpec, names?: readonly string[], grid = SAMPLE_GRID, edges = false): Map<string, BoxSighting> {
    const view = viewOf(camera);
    const out = new Map<string, BoxSighting>();
    const wanted = names ? new Set(names) : null;
    this.boxes.forEach((b, bi) => {
      if (!wanted || wanted.has(b.name)) out.set(b.name, this.sightBox(view, bi, grid, edges));
    });
    return out;
  }

  /** How much of one box the camera sees (`grid`, `edges`: as for {@link look}). */
  sight(camera: CameraSpec, name: string, grid = SAMPLE_GRID, edges = false): BoxSighting {
    const bi = this.boxes.findIndex((b) => b.name === name);
    if (bi < 0) throw new RangeError(`no box named ${name}`);
    return this.sightBox(viewOf(camera), bi, grid, edges);
  }

  /**
   * Whether the camera sees the named box clearly ({@link isClear}), computed with early exits:
   * the same answer as `isClear(sight(camera, name), telling)`, several times faster.
   */
  clear(camera: CameraSpec, name: string, telling = false): boolean {
    const bi = this.boxes.findIndex((b) => b.name === name);
    if (bi < 0) throw new RangeError(`no box named ${name}`);
    const view = viewOf(camera);
    for (const [n, u, v] of FACE_AXES) {
      for (const sign of [-1, 1] as const) {
        const face = this.sightFace(view, bi, n, u, v, sign, SAMPLE_GRID, false, true, telling);
        if (face && isClearFace(face)) return true;
      }
    }
    return false;
  }

  /**
   * Whether the camera sees the named box at all ({@link isVisible}), stopping as soon as it is
   * sure: the same answer as `isVisible(sight(camera, name))`.
   */
  visible(camera: CameraSpec, name: string): boolean {
    return this.reaches(camera, name, SAMPLE_GRID, false, { visible: 0, seenPixels: 0, needVisible: VISIBLE_MIN_SAMPLES, needPixels: VISIBLE_MIN_PIXELS });
  }

  /**
   * Whether any part of the named box shows at all: one unoccluded sample on a fine lattice
   * reaching to the face edges ({@link GLIMPSE_GRID}, {@link GLIMPSE_INSET}). A box that fails
   * this is wholly hidden, short of specks smaller than the lattice spacing.
   */
  glimpsed(camera: CameraSpec, name: string): boolean {
    return this.reaches(camera, name, GLIMPSE_GRID, true, { visible: 0, seenPixels: 0, needVisible: 1, needPixels: 0 });
  }

  private reaches(camera: CameraSpec, name: string, grid: number, edges: boolean, total: RunningTotal): boolean {
    const bi = this.boxes.findIndex((b) => b.name === name);
    if (bi < 0) throw new RangeError(`no box named ${name}`);
    const view = viewOf(camera);
    for (const [n, u, v] of FACE_AXES) {
      for (const sign of [-1, 1] as const) {
        this.sightFace(view, bi, n, u, v, sign, grid, edges, false, false, total);
        if (total.visible >= total.needVisible && total.seenPixels >= total.needPixels) return true;
      }
    }
    return false;
  }

  private sightBox(view: View, bi: number, grid: number, edges: boolean): BoxSighting {
    const faces: FaceSighting[] = [];
    let visible = 0;
    let facing = 0;
    let seenPixels = 0;
    for (const [n, u, v] of FACE_AXES) {
      for (const sign of [-1, 1] as const) {
        const face = this.sightFace(view, bi, n, u, v, sign, grid, edges, false, false);
        if (!face) continue;
        visible += face.visible;
        facing += face.samples;
        seenPixels += face.seenPixels;
        faces.push(face);
      }
    }
    return { visible, facing, seenPixels, faces };
  }

  /**
   * Samples one face of box `bi`; null when it faces away from the camera. With `clearOnly`,
   * gives up (returning what it has, which is then not a clear face) as soon as the face can no
   * longer be clear, and skips faces that cannot be (too oblique, or square when `telling`).
   */
  private sightFace(
    view: View,
    bi: number,
    n: number,
    u: number,
    v: number,
    sign: 1 | -1,
    grid: number,
    /** Lattice reaching out to the face edges ({@link GLIMPSE_INSET}) instead of cell centres. */
    edges: boolean,
    clearOnly: boolean,
    telling: boolean,
    /** Running totals over faces: sampling stops once they reach their thresholds. */
    total?: RunningTotal,
  ): FaceSighting | null {
    const b = this.boxes[bi];
    const { eye, frame, tanHalf } = view;
    const pxPerUnit = PICTURE_SIZE / (2 * tanHalf);
    const px2 = pxPerUnit * pxPerUnit;
    const nl: Vec3 = [0, 0, 0];
    nl[n] = sign;
    const normal = qrotate(b.pose.q, nl);
    const cl: Vec3 = [0, 0, 0];
    cl[n] = sign * b.half[n];
    const cw = qrotate(b.pose.q, cl);
    const toEye: Vec3 = [eye[0] - b.pose.p[0] - cw[0], eye[1] - b.pose.p[1] - cw[1], eye[2] - b.pose.p[2] - cw[2]];
    const towards = vdot(normal, toEye);
    if (towards <= 1e-9) return null;
    const faceArea = 4 * b.half[u] * b.half[v];
    const cellArea = faceArea / (grid * grid);
    const face: FaceSighting = {
      axis: n,
      sign,
      square: Math.abs(b.half[u] - b.half[v]) < 1e-9,
      samples: grid * grid,
      visible: 0,
      seenPixels: 0,
      headOnPixels: (faceArea / vdot(toEye, toEye)) * px2,
    };
    if (clearOnly) {
      if (telling && face.square) return face;
      // A face seen more obliquely than this cannot show CLEAR_FACE_PIXELS of its head-on size
      // (a loose bound: perspective varies the angle across the face by a few degrees only).
      if (towards / Math.sqrt(vdot(toEye, toEye)) < CLEAR_FACE_PIXELS * 0.8) return face;
    }
    const maxMisses = face.samples - Math.ceil(CLEAR_FACE_SAMPLES * face.samples);
    ray.origin.set(eye[0], eye[1], eye[2]);
    let misses = 0;
    for (let i = 0; i < grid; i++) {
      for (let j = 0; j < grid; j++) {
        const pl: Vec3 = [cl[0], cl[1], cl[2]];
        pl[u] = lattice(i, grid, b.half[u], edges);
        pl[v] = lattice(j, grid, b.half[v], edges);
        const pw = qrotate(b.pose.q, pl);
        const d: Vec3 = [b.pose.p[0] + pw[0] - eye[0], b.pose.p[1] + pw[1] - eye[1], b.pose.p[2] + pw[2] - eye[2]];
        const depth = -vdot(d, frame.back);
        let seen = false;
        if (depth > 0 && Math.abs(vdot(d, frame.right)) <= tanHalf * depth && Math.abs(vdot(d, frame.up)) <= tanHalf * depth) {
          const dist = Math.hypot(d[0], d[1], d[2]);
          ray.direction.set(d[0] / dist, d[1] / dist, d[2] / dist);
          // Either winding: the nearest surface along the ray is what the camera sees. Nothing
          // beyond the sample point matters, which lets the search skip most of the tree.
          const hit = this.bvh.raycastFirst(ray, THREE.DoubleSide, 0, dist + FAR_SLACK);
          seen = !!hit && !!hit.face && this.owner[hit.face.a] === bi;
          if (seen) {
            face.visible++;
            // The sample's cell projected onto the picture: foreshortened, and shrinking with
            // depth (an image plane at unit distance, scaled to pixels).
            const px = ((cellArea * -vdot(normal, d)) / (depth * depth * depth)) * px2;
            face.seenPixels += px;
            if (total) {
              total.visible++;
              total.seenPixels += px;
              if (total.visible >= total.needVisible && total.seenPixels >= total.needPixels) return face;
            }
          }
        }
        if (!seen && clearOnly && ++misses > maxMisses) return face;
      }
    }
    return face;
  }
}

/**
 * Coordinate of lattice point `i` of `grid` across a face of half-width `half`: cell centres,
 * or (with `edges`) evenly from one edge to the other, {@link GLIMPSE_INSET} inside them.
 */
function lattice(i: number, grid: number, half: number, edges: boolean): number {
  if (!edges) return ((2 * (i + 0.5)) / grid - 1) * half;
  const reach = half - GLIMPSE_INSET;
  return -reach + (2 * reach * i) / (grid - 1);
}

interface RunningTotal {
  visible: number;
  seenPixels: number;
  needVisible: number;
  needPixels: number;
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

/** Whether a sighting counts as visible: {@link VISIBLE_MIN_SAMPLES} samples and {@link VISIBLE_MIN_PIXELS} pixels. */
export function isVisible(s: BoxSighting): boolean {
  return s.visible >= VISIBLE_MIN_SAMPLES && s.seenPixels >= VISIBLE_MIN_PIXELS;
}

/** Whether a face is clearly seen ({@link CLEAR_FACE_SAMPLES}, {@link CLEAR_FACE_PIXELS}). */
export function isClearFace(f: FaceSighting): boolean {
  return f.visible >= CLEAR_FACE_SAMPLES * f.samples && f.seenPixels >= CLEAR_FACE_PIXELS * f.headOnPixels;
}

/**
 * Whether a view shows a box clearly enough to tell it is there and what it is: one of its
 * faces is clearly seen. With `telling` only a non-square face counts — the face that tells a
 * tile or a bar from a cube (a bar's square end, or a tile's square top, looks like a cube face).
 */
export function isClear(s: BoxSighting, telling = false): boolean {
  return s.faces.some((f) => (!telling || !f.square) && isClearFace(f));
}

/**
 * A set of viewpoints the agent's camera tools can reach from `initial`: azimuth every
 * `azimuthStep` degrees at each elevation of `elevations` inside `elevationRange`, plus one top
 * view when 90° is allowed; same distance and look-at point as the first view.
 */
export function reachableViews(
  initial: CameraSpec,
  elevationRange: [number, number],
  elevations: readonly number[] = [0, 30, 60],
  azimuthStep = 30,
): CameraSpec[] {
  const views: CameraSpec[] = [];
  for (const el of elevations) {
    if (el < elevationRange[0] || el > elevationRange[1]) continue;
    for (let az = -180 + azimuthStep; az <= 180; az += azimuthStep) views.push({ ...initial, azimuth: az, elevation: el });
  }
  if (elevationRange[1] >= 90) views.push({ ...initial, azimuth: initial.azimuth, elevation: 90 });
  return views;
}
