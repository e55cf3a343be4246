/**
 * What a camera sees of a V4 scene, by ray casting (the part-sight kit's exact caster): the
 * faces of the boxes, and each ruler's light band cut into one-centimetre pieces. From that, the
 * two certificates: some view the camera tools reach shows both ends of the size and the ruler
 * piece needed to read it; and (where the tier hides one) the first view shows nothing of one
 * end.
 */
import type { CameraSpec } from '../../../render/camera-spec.ts';
import { qrotate } from '../../../sim/math.ts';
import type { RulerSpec, Vec3 } from '../../../sim/types.ts';
import { reachableViews, SurfaceSight, type Patch } from '../../kits/part-sight/surface.ts';
import type { Instance } from '../../types.ts';
import type { V4Box, V4Scene } from './scene.ts';

/**
 * A ruler's unit direction, length and unit tick direction. V4 always gives its rulers a tick
 * direction square to them (the renderer would square it up, and so must this).
 */
export function rulerFrame(r: RulerSpec): { dir: Vec3; length: number; tick: Vec3 } {
  const d = [r.to[0] - r.from[0], r.to[1] - r.from[1], r.to[2] - r.from[2]];
  const length = Math.hypot(d[0], d[1], d[2]);
  const dir = d.map((x) => x / length) as Vec3;
  const t = r.tickDir ?? [0, 1, 0];
  const tl = Math.hypot(t[0], t[1], t[2]);
  if (Math.abs(dir[0] * t[0] + dir[1] * t[1] + dir[2] * t[2]) > 1e-6 * tl) throw new RangeError('a V4 ruler needs a tick direction square to it');
  return { dir, length, tick: t.map((x) => x / tl) as Vec3 };
}

/** Face names of a box part in its own frame. */
export const FACES = ['+x', '-x', '+y', '-y', '+z', '-z'] as const;

/** Width of a ruler's light band as a fraction of its major spacing (render/page/rulers.ts draws it so). */
const BAND = 0.3;
/** Length of one ruler piece, metres. */
export const PIECE = 0.01;

/** The key of a box face: `name/part/face`. */
export const faceId = (box: string, part: number, face: (typeof FACES)[number]): string => `${box}/${part}/${face}`;

/** Patches of every box face and every ruler piece, with their keys. */
function patchesOf(scene: V4Scene, rulers: readonly RulerSpec[]): { patches: Patch[]; keys: string[] } {
  const patches: Patch[] = [];
  const keys: string[] = [];
  let owner = 0;
  const addBox = (b: V4Box): void => {
    const o = owner++;
    b.parts.forEach((part, pi) => {
      FACES.forEach((f, fi) => {
        const a = fi >> 1;
        const sign = fi % 2 === 0 ? 1 : -1;
        const off: Vec3 = [0, 0, 0];
        off[a] = sign * part.half[a];
        const u: Vec3 = [0, 0, 0];
        u[(a + 1) % 3] = part.half[(a + 1) % 3];
        const v: Vec3 = [0, 0, 0];
        v[(a + 2) % 3] = part.half[(a + 2) % 3];
        const n: Vec3 = [0, 0, 0];
        n[a] = sign;
        const c = qrotate(b.pose.q, [part.p[0] + off[0], part.p[1] + off[1], part.p[2] + off[2]]);
        patches.push({
          centre: [b.pose.p[0] + c[0], b.pose.p[1] + c[1], b.pose.p[2] + c[2]],
          u: qrotate(b.pose.q, u),
          v: qrotate(b.pose.q, v),
          normal: qrotate(b.pose.q, n),
          owner: o,
        });
        keys.push(faceId(b.name, pi, f));
      });
    });
  };
  for (const b of scene.boxes) addBox(b);
  rulers.forEach((r, ri) => {
    const { dir, length, tick } = rulerFrame(r);
    const band = BAND * (r.major ?? 0.1);
    const pieces = Math.floor(length / PIECE + 1e-9);
    // The band faces up for a ruler on the table and sideways for an upright one: its normal is
    // dir × tick or the opposite, whichever looks more upwards or towards +z… both sides are drawn,
    // so two patches back to back stand for it.
    const n: Vec3 = [dir[1] * tick[2] - dir[2] * tick[1], dir[2] * tick[0] - dir[0] * tick[2], dir[0] * tick[1] - dir[1] * tick[0]];
    for (let k = 0; k < pieces; k++) {
      const s = (k + 0.5) * PIECE;
      const centre: Vec3 = [0, 1, 2].map((a) => r.from[a] + dir[a] * s + tick[a] * (band / 2)) as Vec3;
      const u: Vec3 = dir.map((x) => (x * PIECE) / 2) as Vec3;
      const v: Vec3 = tick.map((x) => (x * band) / 2) as Vec3;
      const o = owner++;
      for (const sgn of [1, -1]) {
        patches.push({ centre, u, v, normal: n.map((x) => x * sgn) as Vec3, owner: o });
        keys.push(`ruler${ri}/${k}/${sgn > 0 ? 'front' : 'back'}`);
      }
    }
  });
  return { patches, keys };
}

/** Ray-cast sight of a V4 scene. */
export class RulerSight {
  private readonly sight: SurfaceSight;
  private readonly index = new Map<string, number>();
  readonly rulers: readonly RulerSpec[];

  constructor(scene: V4Scene, rulers: readonly RulerSpec[]) {
    const { patches, keys } = patchesOf(scene, rulers);
    this.sight = new SurfaceSight(patches);
    keys.forEach((k, i) => this.index.set(k, i));
    this.rulers = rulers;
  }

  /** Whether any fine-lattice sample of the face `key` shows. */
  glimpsed(camera: CameraSpec, key: string): boolean {
    return this.sight.glimpsed(camera, this.at(key));
  }

  /** Whether the face `key` is clearly seen. */
  clear(camera: CameraSpec, key: string): boolean {
    return this.sight.clear(camera, this.at(key));
  }

  /** Whether one-centimetre piece `k` of ruler `ri` is clearly seen (either side of its band). */
  pieceClear(camera: CameraSpec, ri: number, k: number): boolean {
    return this.clear(camera, `ruler${ri}/${k}/front`) || this.clear(camera, `ruler${ri}/${k}/back`);
  }

  /** Pixels of box `name` that show from `camera` in a 768-pixel picture (8 × 8 samples a face). */
  boxPixels(camera: CameraSpec, name: string): number {
    let px = 0;
    for (const [k, i] of this.index) if (k.startsWith(`${name}/`)) px += this.sight.sightPatch(camera, i, 8, false).seenPixels;
    return px;
  }

  private at(key: string): number {
    const i = this.index.get(key);
    if (i === undefined) throw new RangeError(`no patch ${key}`);
    return i;
  }
}

/** Where each end of the span falls along ruler `r`, metres from its start (projections). */
export function spanOnRuler(span: readonly [Vec3, Vec3], r: RulerSpec): [number, number] {
  const { dir } = rulerFrame(r);
  const at = (p: Vec3): number => (p[0] - r.from[0]) * dir[0] + (p[1] - r.from[1]) * dir[1] + (p[2] - r.from[2]) * dir[2];
  const a = at(span[0]);
  const b = at(span[1]);
  return [Math.min(a, b), Math.max(a, b)];
}

/** The span's length, metres. */
export function spanLength(span: readonly [Vec3, Vec3]): number {
  return Math.hypot(span[1][0] - span[0][0], span[1][1] - span[0][1], span[1][2] - span[0][2]);
}

/**
 * Ruler pieces that reading the size from `ruler` needs: for a ruler parallel to the span, the
 * pieces under the span and one centimetre beyond each end; for one at an angle, none in
 * particular — see {@link rulerReadable}.
 */
function neededPieces(span: readonly [Vec3, Vec3], r: RulerSpec): number[] | null {
  const { dir, length } = rulerFrame(r);
  const d = [span[1][0] - span[0][0], span[1][1] - span[0][1], span[1][2] - span[0][2]];
  const len = Math.hypot(d[0], d[1], d[2]);
  const cos = Math.abs(d[0] * dir[0] + d[1] * dir[1] + d[2] * dir[2]) / len;
  if (cos < 0.999) return null;
  const [a, b] = spanOnRuler(span, r);
  // The span must lie along the ruler (to 2 mm: an upright ruler's foot is at the table), or it
  // cannot be read there; the pieces a centimetre beyond each end are needed where the ruler has them.
  if (a < -0.002 || b > length + 0.002) return [];
  const first = Math.max(0, Math.floor((a - 0.01) / PIECE + 1e-9));
  const last = Math.min(Math.floor(length / PIECE + 1e-9) - 1, Math.floor((b + 0.01) / PIECE - 1e-9));
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

/**
 * Whether `camera` shows a ruler well enough to read the span against: a parallel ruler clear
 * along the span's extent (one centimetre beyond each end); a ruler at an angle clear along a
 * run of pieces at least two centimetres longer than the span that holds a labelled tick.
 */
export function rulerReadable(s: RulerSight, camera: CameraSpec, span: readonly [Vec3, Vec3]): boolean {
  return s.rulers.some((r, ri) => {
    const need = neededPieces(span, r);
    if (need) return need.length > 0 && need.every((k) => s.pieceClear(camera, ri, k));
    const { length } = rulerFrame(r);
    const major = r.major ?? 0.1;
    const want = Math.ceil((spanLength(span) + 0.02) / PIECE);
    const pieces = Math.floor(length / PIECE + 1e-9);
    let run = 0;
    let runStart = 0;
    for (let k = 0; k < pieces; k++) {
      if (!s.pieceClear(camera, ri, k)) {
        run = 0;
        runStart = k + 1;
        continue;
      }
      run++;
      if (run >= want) {
        // A labelled tick lies at a multiple of the major spacing inside the run.
        const lo = runStart * PIECE;
        const hi = (k + 1) * PIECE;
        if (Math.ceil(lo / major - 1e-9) * major <= hi + 1e-9) return true;
      }
    }
    return false;
  });
}

/** Whether `camera` shows an end clearly: one of its faces is clearly seen. */
export function endClear(s: RulerSight, camera: CameraSpec, end: readonly string[]): boolean {
  return end.some((k) => s.clear(camera, k));
}

/** Whether `camera` shows nothing at all of an end (no sample of any of its faces). */
export function endHidden(s: RulerSight, camera: CameraSpec, end: readonly string[]): boolean {
  return end.every((k) => !s.glimpsed(camera, k));
}

/**
 * Whether `camera` misses part of the ruler the size is read against: some piece a parallel
 * ruler needs (see {@link rulerReadable}) is not clearly seen. False when no ruler runs along the
 * span (at `+rot` the span is read against rulers at an angle).
 */
export function rulerPartlyHidden(s: RulerSight, camera: CameraSpec, span: readonly [Vec3, Vec3]): boolean {
  const parallel = s.rulers.flatMap((r, ri) => {
    const need = neededPieces(span, r);
    return need && need.length ? [{ ri, need }] : [];
  });
  return parallel.length > 0 && parallel.every(({ ri, need }) => need.some((k) => !s.pieceClear(camera, ri, k)));
}

/** Whether `camera` shows everything reading the size needs: both ends clearly, and a ruler. */
export function readableFrom(s: RulerSight, camera: CameraSpec, scene: V4Scene): boolean {
  return endClear(s, camera, scene.ends[0]) && endClear(s, camera, scene.ends[1]) && rulerReadable(s, camera, scene.span);
}

/** The views V4 checks: azimuth every 30° at 15°, 35°, 60° elevation, and the top view. */
export function checkedViews(instance: Pick<Instance<V4Scene>, 'camera'>): CameraSpec[] {
  return reachableViews(instance.camera.initial, instance.camera.elevationRange ?? [0, 90], [15, 35, 60]);
}
