/**
 * B6 certificate: the geometric shadow the verdict computes, checked against the shadow the
 * renderer draws. A structure is built through the real episode (`TaskEnv`: the stud kit,
 * Rapier, the brick statics), and the board is pictured from straight above with an
 * orthographic camera twice — once lit as the agent sees it, once with the key light's shadows
 * off. A board pixel is in the rendered shadow where the ratio of the first picture's brightness to
 * the second's is past the middle between 1 (lit) and the board's full shadow (the penumbra's
 * middle). The same pixel centres are tested against the geometric shadow of the bodies as
 * they settled ({@link bodyShadows}: each built brick's box and drawn studs at its pose, the
 * shapes the picture draws) and against the target. The certificate holds when the IoU with the
 * target measured on the rendered shadow is within two points of the geometric one. The
 * verdict's own IoU (from the stud grid, `partShadows`) is reported beside it: the two differ
 * only by how far the bodies settled from their grid places.
 */
import sharp from 'sharp';
import { SpaceActError } from '../../../core/errors.ts';
import type { CameraSpec } from '../../../render/camera-spec.ts';
import type { Renderer } from '../../../render/renderer.ts';
import { TaskEnv } from '../../env.ts';
import { qnormalize, transformPoint } from '../../../sim/math.ts';
import type { SceneBody, ShapeSpec, Vec3 } from '../../../sim/types.ts';
import type { Instance, TaskFamily } from '../../types.ts';
import type { Placement } from '../../kits/bricks/plan.ts';
import { OUTLINE_BODY } from './episode.ts';
import { placeCall } from './solver.ts';
import { BOARD_TOP, convexHull, insideConvex, landOnBaseplate, partShadows, targetPolygons, type B6Scene, type P2 } from './scene.ts';

/** The board has a shadow on it at all when its darkest pixels are below this fraction of their brightness without shadows. */
export const SHADOW_RATIO = 0.85;
/** Pixels per metre of the top view of the board (0.25 mm a pixel). */
const PX_PER_M = 4000;
/** Pixels this far inside the board's edge are compared, m (the edge's own antialiasing left out). */
const EDGE = 0.001;

/** Linear light (0–1) of each 8-bit sRGB value (the sRGB transfer function inverted). */
const LINEAR = Float64Array.from({ length: 256 }, (_, v) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

/** Sides of the polygon a drawn cylinder (a stud) is taken as: the renderer's segments for detail shapes (`render/page/bodies.ts`). */
const CYLINDER_SIDES = 16;

/** A shape's corner points in its body's frame: a box's eight corners, a cylinder's two rims; other shapes are not built by B6 (none). */
function shapeCorners(shape: ShapeSpec): Vec3[] {
  const local: Vec3[] = [];
  if (shape.type === 'box') {
    const [hx, hy, hz] = shape.half;
    for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) local.push([sx * hx, sy * hy, sz * hz]);
  } else if (shape.type === 'cylinder') {
    for (const y of [-shape.halfHeight, shape.halfHeight]) {
      for (let k = 0; k < CYLINDER_SIDES; k++) {
        const a = (2 * Math.PI * k) / CYLINDER_SIDES;
        local.push([shape.radius * Math.sin(a), y, shape.radius * Math.cos(a)]);
      }
    }
  } else {
    throw new SpaceActError('invalid-argument', `bodyShadows: a ${shape.type} shape has no shadow polygon here (boxes and cylinders only)`);
  }
  return shape.pose ? local.map((v) => transformPoint(shape.pose!, v)) : local;
}

/**
 * The shadows on the board's plane of `bodies` at their poses, as convex polygons: each box and
 * each drawn cylinder (`visual`, the studs) projected along the light — a point at height `y`
 * lands at `(x, z) + shadow · (y − BOARD_TOP)` — and hulled. This is the shadow of what the
 * picture draws, so a brick that leaned or rose in the settle throws it where the renderer does.
 */
export function bodyShadows(bodies: readonly SceneBody[], shadow: P2): P2[][] {
  const out: P2[][] = [];
  for (const b of bodies) {
    const pose = { p: b.pose.p, q: qnormalize(b.pose.q) };
    for (const shape of [...b.shapes, ...(b.visual ?? [])]) {
      const pts = shapeCorners(shape).map((v): P2 => {
        const [x, y, z] = transformPoint(pose, v);
        const h = y - BOARD_TOP;
        return [x + shadow[0] * h, z + shadow[1] * h];
      });
      out.push(convexHull(pts));
    }
  }
  return out;
}

/** What {@link shadowCertificate} measured. */
export interface ShadowCertificate {
  /** IoU with the target of the geometric shadow of the settled bodies ({@link bodyShadows}), sampled at the compared pixels. */
  geometricIoU: number;
  /** IoU with the target of the verdict's shadow (the structure on the stud grid, `partShadows`), sampled at the compared pixels. */
  verdictIoU: number;
  /** IoU with the target of the rendered shadow. */
  pixelIoU: number;
  /** IoU of the rendered shadow with the geometric shadow of the settled bodies. */
  agreement: number;
  /** Pixels compared. */
  pixels: number;
  /** Compared pixels in the rendered shadow only, and in the geometric shadow only. */
  renderedOnly: number;
  geometricOnly: number;
}

async function rawRgb(png: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

function iou(a: Uint8Array, b: Uint8Array, use: Uint8Array): number {
  let inter = 0;
  let union = 0;
  for (let k = 0; k < a.length; k++) {
    if (!use[k]) continue;
    if (a[k] && b[k]) inter++;
    if (a[k] || b[k]) union++;
  }
  return union === 0 ? 1 : inter / union;
}

/**
 * Builds `plan` (placements bottom first, as `place` calls) in the real episode of `instance`,
 * pictures the board from above with and without shadows, and compares the rendered shadow with
 * the geometric one.
 */
export async function shadowCertificate(family: TaskFamily, instance: Instance<B6Scene>, plan: readonly Placement[], renderer: Renderer, debugPng?: string): Promise<ShadowCertificate> {
  const s = instance.scene;
  const env = await TaskEnv.create(family, instance as Instance);
  try {
    const before = new Set(env.scene().bodies.map((b) => b.name));
    for (const c of plan.map((p) => placeCall(s, p))) {
      const r = env.execute(c);
      if (r.status !== 'ok') throw new SpaceActError('invalid-state', `${instance.id}: ${c.tool} was refused while building the certificate's structure: ${r.message}`);
    }
    const scene = env.scene();
    const light = scene.light ?? instance.light;
    if (!light) throw new SpaceActError('invalid-state', `${instance.id}: the instance has no key light`);
    const [bx0, bx1, bz0, bz1] = s.board;
    const width = Math.round((bx1 - bx0) * PX_PER_M);
    const height = Math.round((bz1 - bz0) * PX_PER_M);
    const camera: CameraSpec = { azimuth: 0, elevation: 90, distance: 0.3, target: [(bx0 + bx1) / 2, BOARD_TOP, (bz0 + bz1) / 2], projection: 'orthographic', orthoHeight: bz1 - bz0 };
    // The red outline is hidden in both pictures: it lies exactly on the reference's shadow edge, and its saturated red
    // does not darken in shadow in proportion to the white board, so its pixels would read as lit.
    const board = { ...scene, bodies: scene.bodies.map((b) => (b.name === OUTLINE_BODY ? { ...b, visible: false } : b)) };
    const lit = await rawRgb(await renderer.render(board, camera, { width, height }));
    const flat = await rawRgb(await renderer.render({ ...board, light: { ...light, shadows: false } }, camera, { width, height }));
    // The same structure as a plan on the grid (each call was accepted, so each brick sits on the cells the plan gives).
    const structure = landOnBaseplate(s, plan);
    if (!structure) throw new SpaceActError('invalid-state', `${instance.id}: the plan does not land on the baseplate`);
    const gridPolys = partShadows(s, structure, true);
    // The bodies the plan added: the bricks as they settled.
    const built = scene.bodies.filter((b) => !before.has(b.name));
    if (built.length !== plan.length) throw new SpaceActError('invalid-state', `${instance.id}: the plan placed ${plan.length} bricks but ${built.length} bodies were added`);
    const shadowPolys = bodyShadows(built, s.shadow);
    const targetPolys = targetPolygons(s);
    const n = width * height;
    const rendered = new Uint8Array(n);
    const geometric = new Uint8Array(n);
    const verdict = new Uint8Array(n);
    const target = new Uint8Array(n);
    const use = new Uint8Array(n);
    const ratio = new Float64Array(n).fill(1);
    // Luminance in linear light: the picture is sRGB-encoded, and the middle of the penumbra is the middle of the light
    // that reaches the board, not of its encoded values (whose middle lies on the lit side and shrank every shadow's rim).
    const lum = (d: Buffer, k: number): number => 0.2126 * LINEAR[d[3 * k]] + 0.7152 * LINEAR[d[3 * k + 1]] + 0.0722 * LINEAR[d[3 * k + 2]];
    for (let j = 0; j < height; j++) {
      // Row 0 is the board's back edge (−z): the top view's up is −z.
      const z = bz0 + ((j + 0.5) / height) * (bz1 - bz0);
      for (let i = 0; i < width; i++) {
        const x = bx0 + ((i + 0.5) / width) * (bx1 - bx0);
        const k = j * width + i;
        if (x < bx0 + EDGE || x > bx1 - EDGE || z < bz0 + EDGE || z > bz1 - EDGE) continue;
        use[k] = 1;
        const p: P2 = [x, z];
        ratio[k] = lum(lit.data, k) / Math.max(1e-6, lum(flat.data, k));
        geometric[k] = shadowPolys.some((q) => insideConvex(q, p)) ? 1 : 0;
        verdict[k] = gridPolys.some((q) => insideConvex(q, p)) ? 1 : 0;
        target[k] = targetPolys.some((q) => insideConvex(q, p)) ? 1 : 0;
      }
    }
    // Full shadow: the darkest ratio on the board (its 2nd percentile, so a stray pixel does not set it); a pixel is in
    // shadow where it is darkened more than half as much, i.e. past the middle of the penumbra.
    const ratios = Array.from(ratio).filter((_, k) => use[k]).sort((a, b) => a - b);
    const full = ratios[Math.floor(0.02 * ratios.length)] ?? 1;
    const cut = full < SHADOW_RATIO ? (1 + full) / 2 : 0;
    for (let k = 0; k < n; k++) rendered[k] = use[k] && ratio[k] < cut ? 1 : 0;
    let pixels = 0;
    let renderedOnly = 0;
    let geometricOnly = 0;
    for (let k = 0; k < n; k++) {
      if (!use[k]) continue;
      pixels++;
      if (rendered[k] && !geometric[k]) renderedOnly++;
      if (geometric[k] && !rendered[k]) geometricOnly++;
    }
    if (debugPng) await sharp(Buffer.from(rendered.map((v, k) => (v ? 255 : geometric[k] ? 120 : 0))), { raw: { width, height, channels: 1 } }).png().toFile(debugPng);
    return { geometricIoU: iou(geometric, target, use), verdictIoU: iou(verdict, target, use), pixelIoU: iou(rendered, target, use), agreement: iou(rendered, geometric, use), pixels, renderedOnly, geometricOnly };
  } finally {
    env.free();
  }
}
