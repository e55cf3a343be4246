import type { CameraSpec } from '../render/camera-spec.ts';
import { NAMED_VIEWS } from '../render/camera-spec.ts';
import { SpaceActError } from '../core/errors.ts';
import type { Vec3 } from '../sim/types.ts';
import type { CameraConfig, ToolSpec } from './types.ts';
import { round9 } from '../core/determinism.ts';

/**
 * The perception tools every family shares. They move only the camera: world time, the
 * world's state and the action count are untouched.
 */
export const CAMERA_TOOLS: ToolSpec[] = [
  {
    name: 'orbit',
    kind: 'perception',
    description:
      'Turn the camera around its look-at point. Positive azimuth_deg turns it counter-clockwise as seen from above; positive elevation_deg raises it. Costs no world time.',
    parameters: {
      type: 'object',
      properties: {
        azimuth_deg: { type: 'number', minimum: -360, maximum: 360 },
        elevation_deg: { type: 'number', minimum: -180, maximum: 180 },
      },
      additionalProperties: false,
    },
  },
  {
    name: 'zoom',
    kind: 'perception',
    description: 'Move the camera closer (factor > 1) or farther (factor < 1) from its look-at point. Costs no world time.',
    parameters: {
      type: 'object',
      properties: { factor: { type: 'number', minimum: 0.25, maximum: 4 } },
      required: ['factor'],
      additionalProperties: false,
    },
  },
  {
    name: 'pan',
    kind: 'perception',
    description:
      'Slide the look-at point in the image plane: right_m to the right, up_m upwards, in metres. Costs no world time.',
    parameters: {
      type: 'object',
      properties: {
        right_m: { type: 'number', minimum: -5, maximum: 5 },
        up_m: { type: 'number', minimum: -5, maximum: 5 },
      },
      additionalProperties: false,
    },
  },
  {
    name: 'view',
    kind: 'perception',
    description:
      'Jump to a named viewpoint: front, back, left, right, top, iso, or initial (the first view, also resetting zoom and pan). Costs no world time.',
    parameters: {
      type: 'object',
      properties: { name: { type: 'string', enum: [...Object.keys(NAMED_VIEWS), 'initial'] } },
      required: ['name'],
      additionalProperties: false,
    },
  },
];

/** Names of the shared camera tools. */
export const CAMERA_TOOL_NAMES: ReadonlySet<string> = new Set(CAMERA_TOOLS.map((t) => t.name));

const DEG = Math.PI / 180;

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}

/** Wraps degrees into (-180, 180]. */
function wrapDeg(a: number): number {
  let r = a % 360;
  if (r > 180) r -= 360;
  if (r <= -180) r += 360;
  return r;
}

/**
 * Applies one camera tool to a camera, within the instance's limits. Returns the new camera
 * and a message saying what happened (including any clamping, so the agent learns limits).
 */
export function applyCameraTool(
  camera: CameraSpec,
  config: CameraConfig,
  tool: string,
  args: Record<string, unknown>,
): { camera: CameraSpec; message: string } {
  const [elMin, elMax] = config.elevationRange ?? [-10, 90];
  const d0 = config.initial.distance;
  const [dMin, dMax] = config.distanceRange ?? [d0 * 0.25, d0 * 4];
  const panRadius = config.panRadius ?? d0;
  const next: CameraSpec = { ...camera, target: [...camera.target] as Vec3 };
  const notes: string[] = [];
  switch (tool) {
    case 'orbit': {
      const da = Number(args.azimuth_deg ?? 0);
      const de = Number(args.elevation_deg ?? 0);
      next.azimuth = round9(wrapDeg(camera.azimuth + da));
      const el = camera.elevation + de;
      next.elevation = round9(clamp(el, elMin, elMax));
      if (next.elevation !== round9(el)) notes.push(`elevation limited to ${elMin}..${elMax} degrees`);
      break;
    }
    case 'zoom': {
      const f = Number(args.factor);
      const d = camera.distance / f;
      next.distance = round9(clamp(d, dMin, dMax));
      if (next.distance !== round9(d)) notes.push('zoom limit reached');
      break;
    }
    case 'pan': {
      const right = Number(args.right_m ?? 0);
      const up = Number(args.up_m ?? 0);
      const az = camera.azimuth * DEG;
      const el = camera.elevation * DEG;
      // Camera basis: right is horizontal; up is perpendicular to the view direction.
      const r: Vec3 = [Math.cos(az), 0, -Math.sin(az)];
      const u: Vec3 = [-Math.sin(el) * Math.sin(az), Math.cos(el), -Math.sin(el) * Math.cos(az)];
      const t: Vec3 = [0, 1, 2].map((i) => camera.target[i] + right * r[i] + up * u[i]) as Vec3;
      const off = t.map((v, i) => v - config.initial.target[i]);
      const len = Math.hypot(off[0], off[1], off[2]);
      const s = len > panRadius ? panRadius / len : 1;
      if (s < 1) notes.push('pan limit reached');
      next.target = off.map((v, i) => round9(config.initial.target[i] + v * s)) as Vec3;
      break;
    }
    case 'view': {
      const name = String(args.name);
      if (name === 'initial') return { camera: structuredClone(config.initial), message: 'camera reset to the initial view' };
      const v = NAMED_VIEWS[name];
      if (!v) throw new SpaceActError('invalid-argument', `unknown view "${name}"`, { tool, field: 'name' });
      next.azimuth = v.azimuth;
      next.elevation = clamp(v.elevation, elMin, elMax);
      if (next.elevation !== v.elevation) notes.push(`elevation limited to ${elMin}..${elMax} degrees`);
      break;
    }
    default:
      throw new SpaceActError('unknown-tool', `"${tool}" is not a camera tool`, { tool });
  }
  // No angles: the camera's absolute azimuth would tell a text-only agent how the first view
  // is turned (a `+rot` tier's secret, issue 36); the agent sees where it looks in the picture.
  const base = { orbit: 'camera orbited', zoom: 'camera zoomed', pan: 'camera panned', view: `camera moved to the ${String(args.name)} view` }[tool as 'orbit' | 'zoom' | 'pan' | 'view'];
  return { camera: next, message: notes.length ? `${base} (${notes.join('; ')})` : base };
}
