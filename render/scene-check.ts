import { SpaceActError } from '../core/errors.ts';
import type { Highlight, KeyLight, Pose, Quat, RulerSpec, SceneBody, SceneDescription, ShapeSpec, Vec3 } from '../sim/types.ts';
import type { CameraSpec } from './camera-spec.ts';
import type { DimensionSpec } from './page/protocol.ts';
import { CSS_COLOR_NAMES } from './css-colors.ts';

/** Appearance used when a scene file leaves it out. */
export const DEFAULT_BODY_COLOR = '#9aa3ad';
/** Background when a scene gives none. */
export const DEFAULT_BACKGROUND = '#e6eaef';
/** Ground colour when a scene's ground gives none. */
export const DEFAULT_GROUND_COLOR = '#c9c3b8';
/** Most ticks a single ruler may have (a guard against `minor: 1e-9`). */
const MAX_TICKS = 20000;

function fail(path: string, problem: string, details: Record<string, unknown> = {}): never {
  throw new SpaceActError('invalid-argument', `${path}: ${problem}`, { path, ...details });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function num(v: unknown, path: string, test: (x: number) => boolean = () => true, want = 'a finite number'): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || !test(v)) fail(path, `must be ${want}, got ${JSON.stringify(v)}`);
  return v;
}

function positive(v: unknown, path: string): number {
  return num(v, path, (x) => x > 0, 'a positive number');
}

function vec3(v: unknown, path: string): Vec3 {
  if (!Array.isArray(v) || v.length !== 3) fail(path, `must be [x, y, z], got ${JSON.stringify(v)}`);
  return [num(v[0], `${path}[0]`), num(v[1], `${path}[1]`), num(v[2], `${path}[2]`)];
}

function quat(v: unknown, path: string): Quat {
  if (!Array.isArray(v) || v.length !== 4) fail(path, `must be a quaternion [x, y, z, w], got ${JSON.stringify(v)}`);
  const q: Quat = [num(v[0], `${path}[0]`), num(v[1], `${path}[1]`), num(v[2], `${path}[2]`), num(v[3], `${path}[3]`)];
  if (Math.hypot(...q) < 1e-6) fail(path, 'must not be the zero quaternion');
  return q;
}

function pose(v: unknown, path: string): Pose {
  if (!isObject(v)) fail(path, 'must be {p: [x, y, z], q: [x, y, z, w]}');
  return { p: vec3(v.p, `${path}.p`), q: quat(v.q, `${path}.q`) };
}

/** sRGB components 0..1 of a CSS hex colour or colour name, or null if it is neither. */
export function parseColor(v: string): [number, number, number] | null {
  const s = v.trim().toLowerCase();
  let hex: number | undefined;
  if (/^#[0-9a-f]{6}$/.test(s)) hex = parseInt(s.slice(1), 16);
  else if (/^#[0-9a-f]{3}$/.test(s)) hex = parseInt(s[1] + s[1] + s[2] + s[2] + s[3] + s[3], 16);
  else hex = CSS_COLOR_NAMES.get(s);
  if (hex === undefined) return null;
  return [((hex >> 16) & 255) / 255, ((hex >> 8) & 255) / 255, (hex & 255) / 255];
}

function color(v: unknown, path: string, fallback: string, isBody = false): string {
  if (v === undefined) return fallback;
  const rgb = typeof v === 'string' ? parseColor(v) : null;
  if (!rgb) fail(path, `must be a CSS colour like "#c0392b" or "red", got ${JSON.stringify(v)}`);
  // Rollback images mark offending bodies in magenta; a magenta body would look highlighted.
  if (isBody && rgb[0] > 0.7 && rgb[2] > 0.7 && rgb[1] < 0.35) {
    fail(path, `${JSON.stringify(v)} is too close to the highlight colour #ff00ff, which is reserved for rollback images`);
  }
  return v as string;
}

/** True when the points span a solid (not all on one plane). */
function spansVolume(points: Vec3[]): boolean {
  const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const p0 = points[0];
  const far = (f: (p: Vec3) => number): Vec3 => points.reduce((best, p) => (f(p) > f(best) ? p : best), p0);
  const p1 = far((p) => dot(sub(p, p0), sub(p, p0)));
  const scale = Math.sqrt(dot(sub(p1, p0), sub(p1, p0)));
  if (scale < 1e-9) return false;
  const line = sub(p1, p0);
  const p2 = far((p) => dot(cross(line, sub(p, p0)), cross(line, sub(p, p0))));
  const normal = cross(line, sub(p2, p0));
  if (Math.sqrt(dot(normal, normal)) < 1e-9 * scale * scale) return false;
  const p3 = far((p) => Math.abs(dot(normal, sub(p, p0))));
  return Math.abs(dot(normal, sub(p3, p0))) > 1e-9 * scale ** 3;
}

function shape(v: unknown, path: string): ShapeSpec {
  if (!isObject(v)) fail(path, 'must be a shape object');
  const withPose = <T extends ShapeSpec>(s: T): T => (v.pose === undefined ? s : { ...s, pose: pose(v.pose, `${path}.pose`) });
  switch (v.type) {
    case 'box': {
      const h = vec3(v.half, `${path}.half`);
      if (h.some((x) => x <= 0)) fail(`${path}.half`, 'half extents must all be positive');
      return withPose({ type: 'box', half: h });
    }
    case 'ball':
      return withPose({ type: 'ball', radius: positive(v.radius, `${path}.radius`) });
    case 'cylinder':
    case 'capsule':
      return withPose({
        type: v.type,
        radius: positive(v.radius, `${path}.radius`),
        halfHeight: positive(v.halfHeight, `${path}.halfHeight`),
      });
    case 'hull': {
      if (!Array.isArray(v.points) || v.points.length < 4) fail(`${path}.points`, 'a hull needs at least 4 points');
      const points = v.points.map((p, i) => vec3(p, `${path}.points[${i}]`));
      if (!spansVolume(points)) fail(`${path}.points`, 'the points are all on one plane (or line); a hull needs volume');
      return withPose({ type: 'hull', points });
    }
    case 'mesh': {
      if (!Array.isArray(v.vertices) || v.vertices.length < 3) fail(`${path}.vertices`, 'a mesh needs at least 3 vertices');
      const vertices = v.vertices.map((p, i) => vec3(p, `${path}.vertices[${i}]`));
      if (!Array.isArray(v.indices) || v.indices.length < 1) fail(`${path}.indices`, 'a mesh needs at least one triangle');
      const n = vertices.length;
      const indices = v.indices.map((t, i) => {
        const ok = Array.isArray(t) && t.length === 3 && t.every((k) => Number.isInteger(k) && k >= 0 && k < n);
        if (!ok) fail(`${path}.indices[${i}]`, `must be three vertex indices in 0..${n - 1}, got ${JSON.stringify(t)}`);
        return t as [number, number, number];
      });
      return withPose({ type: 'mesh', vertices, indices });
    }
    default:
      return fail(`${path}.type`, `unknown shape type ${JSON.stringify(v.type)} (box, ball, cylinder, hull, mesh)`);
  }
}

function body(v: unknown, path: string): SceneBody {
  if (!isObject(v)) fail(path, 'must be a body object');
  if (typeof v.name !== 'string' || v.name === '') fail(`${path}.name`, 'must be a non-empty string');
  if (!Array.isArray(v.shapes) || v.shapes.length === 0) fail(`${path}.shapes`, 'must be a non-empty array of shapes');
  const opacity = v.opacity === undefined ? 1 : num(v.opacity, `${path}.opacity`, (x) => x >= 0 && x <= 1, 'a number in 0..1');
  if (v.visible !== undefined && typeof v.visible !== 'boolean') fail(`${path}.visible`, 'must be true or false');
  if (v.visual !== undefined && !Array.isArray(v.visual)) fail(`${path}.visual`, 'must be an array of shapes');
  const out: SceneBody = {
    name: v.name,
    shapes: v.shapes.map((s, i) => shape(s, `${path}.shapes[${i}]`)),
    pose: pose(v.pose, `${path}.pose`),
    color: color(v.color, `${path}.color`, DEFAULT_BODY_COLOR, true),
    opacity,
    visible: v.visible === undefined ? true : v.visible,
  };
  const visual = ((v.visual ?? []) as unknown[]).map((s, i) => shape(s, `${path}.visual[${i}]`));
  if (visual.length) out.visual = visual;
  return out;
}

function ruler(v: unknown, path: string): RulerSpec {
  if (!isObject(v)) fail(path, 'must be a ruler object');
  const from = vec3(v.from, `${path}.from`);
  const to = vec3(v.to, `${path}.to`);
  const length = Math.hypot(to[0] - from[0], to[1] - from[1], to[2] - from[2]);
  if (length < 1e-6) fail(path, 'from and to must differ');
  const out: RulerSpec = { from, to };
  if (v.minor !== undefined) out.minor = positive(v.minor, `${path}.minor`);
  if (v.major !== undefined) out.major = positive(v.major, `${path}.major`);
  const minor = out.minor ?? 0.01;
  const major = out.major ?? 0.1;
  if (major < minor) fail(path, `major spacing (${major} m) must not be smaller than minor spacing (${minor} m)`);
  if (length / minor > MAX_TICKS) fail(path, `too many ticks (${Math.floor(length / minor)}); at most ${MAX_TICKS}`);
  if (v.tickDir !== undefined) {
    const t = vec3(v.tickDir, `${path}.tickDir`);
    const n = Math.hypot(...t);
    const along = Math.abs(t[0] * (to[0] - from[0]) + t[1] * (to[1] - from[1]) + t[2] * (to[2] - from[2])) / (n * length);
    if (n < 1e-9 || along > 0.999) fail(`${path}.tickDir`, 'must be a non-zero direction not along the ruler');
    out.tickDir = t;
  }
  if (v.color !== undefined) out.color = color(v.color, `${path}.color`, '');
  return out;
}

/**
 * Checks a scene description and returns a normalised copy (defaults filled in: colour, opacity
 * 1, visible). Throws a {@link SpaceActError} `invalid-argument` naming the first bad field.
 */
export function checkScene(v: unknown, path = 'scene'): SceneDescription {
  if (!isObject(v)) fail(path, 'must be an object {bodies, rulers}');
  if (!Array.isArray(v.bodies)) fail(`${path}.bodies`, 'must be an array');
  const bodies = v.bodies.map((b, i) => body(b, `${path}.bodies[${i}]`));
  const seen = new Set<string>();
  for (const [i, b] of bodies.entries()) {
    if (seen.has(b.name)) fail(`${path}.bodies[${i}].name`, `duplicate body name ${JSON.stringify(b.name)}`);
    seen.add(b.name);
  }
  if (v.rulers !== undefined && !Array.isArray(v.rulers)) fail(`${path}.rulers`, 'must be an array');
  const rulers = ((v.rulers ?? []) as unknown[]).map((r, i) => ruler(r, `${path}.rulers[${i}]`));
  const out: SceneDescription = { bodies, rulers };
  if (v.ground !== undefined) {
    const g = v.ground;
    if (!isObject(g)) fail(`${path}.ground`, 'must be {y, color?, size?}');
    out.ground = { y: num(g.y, `${path}.ground.y`), color: color(g.color, `${path}.ground.color`, DEFAULT_GROUND_COLOR, true) };
    if (g.size !== undefined) out.ground.size = positive(g.size, `${path}.ground.size`);
  }
  if (v.background !== undefined) out.background = color(v.background, `${path}.background`, DEFAULT_BACKGROUND);
  if (v.light !== undefined) out.light = keyLight(v.light, `${path}.light`);
  return out;
}

function keyLight(v: unknown, path: string): KeyLight {
  if (!isObject(v)) fail(path, 'must be {azimuth, elevation, intensity?, shadows?, shadowNormalBias?, shadowMapSize?} (degrees, metres, texels)');
  const out: KeyLight = {
    azimuth: num(v.azimuth, `${path}.azimuth`),
    elevation: num(v.elevation, `${path}.elevation`, (x) => x > 0 && x <= 90, 'degrees in (0, 90]'),
  };
  if (v.intensity !== undefined) out.intensity = num(v.intensity, `${path}.intensity`, (x) => x >= 0 && x <= 100, 'a number in 0..100');
  if (v.shadows !== undefined) {
    if (typeof v.shadows !== 'boolean') fail(`${path}.shadows`, 'must be true or false');
    out.shadows = v.shadows;
  }
  if (v.shadowNormalBias !== undefined) out.shadowNormalBias = num(v.shadowNormalBias, `${path}.shadowNormalBias`, (x) => x >= 0 && x <= 0.1, 'metres in 0..0.1');
  if (v.shadowMapSize !== undefined) {
    out.shadowMapSize = num(v.shadowMapSize, `${path}.shadowMapSize`, (x) => Number.isInteger(x) && x >= 512 && x <= 8192 && (x & (x - 1)) === 0, 'a power of two in 512..8192');
  }
  return out;
}

/** Checks a camera and returns a copy; the same error contract as {@link checkScene}. */
export function checkCamera(v: unknown, path = 'camera'): CameraSpec {
  if (!isObject(v)) fail(path, 'must be an object {azimuth, elevation, distance, target}');
  const out: CameraSpec = {
    azimuth: num(v.azimuth, `${path}.azimuth`),
    elevation: num(v.elevation, `${path}.elevation`, (x) => x >= -90 && x <= 90, 'degrees in -90..90'),
    distance: positive(v.distance, `${path}.distance`),
    target: vec3(v.target, `${path}.target`),
  };
  if (v.fov !== undefined) out.fov = num(v.fov, `${path}.fov`, (x) => x >= 1 && x <= 170, 'degrees in 1..170');
  if (v.projection !== undefined) {
    if (v.projection !== 'perspective' && v.projection !== 'orthographic') {
      fail(`${path}.projection`, `must be "perspective" or "orthographic", got ${JSON.stringify(v.projection)}`);
    }
    out.projection = v.projection;
  }
  if (v.orthoHeight !== undefined) out.orthoHeight = positive(v.orthoHeight, `${path}.orthoHeight`);
  return out;
}

/** Checks a highlight against the scene it marks: every name must be a body of that scene. */
export function checkHighlight(v: unknown, scene: SceneDescription, path = 'highlight'): Highlight {
  if (!isObject(v) || !Array.isArray(v.bodies)) fail(path, 'must be {bodies: string[], point?: [x, y, z]}');
  const names = new Set(scene.bodies.map((b) => b.name));
  const bodies = v.bodies.map((n, i) => bodyName(n, names, `${path}.bodies[${i}]`));
  const out: Highlight = { bodies };
  if (v.point !== undefined) out.point = vec3(v.point, `${path}.point`);
  if (v.others !== undefined) {
    if (!Array.isArray(v.others)) fail(`${path}.others`, 'must be a list of body names');
    out.others = v.others.map((n, i) => bodyName(n, names, `${path}.others[${i}]`)).filter((n) => !bodies.includes(n));
  }
  if (v.target !== undefined) {
    const t = v.target;
    if (!isObject(t)) fail(`${path}.target`, 'must be {body?: name, point?: [x, y, z]}');
    out.target = {};
    if (t.body !== undefined) out.target.body = bodyName(t.body, names, `${path}.target.body`);
    if (t.point !== undefined) out.target.point = vec3(t.point, `${path}.target.point`);
  }
  return out;
}

function bodyName(n: unknown, names: Set<string>, path: string): string {
  if (typeof n !== 'string') fail(path, 'must be a body name');
  if (!names.has(n)) throw new SpaceActError('unknown-body', `${path}: no body named ${JSON.stringify(n)} in the scene`, { name: n });
  return n;
}

/** Checks an image size in pixels (1..8192). */
export function checkSize(v: unknown, path: string): number {
  return num(v, path, (x) => Number.isInteger(x) && x >= 1 && x <= 8192, 'a whole number of pixels in 1..8192');
}

/** Most dimension lines one line drawing may carry. */
const MAX_DIMENSIONS = 100;

/** Checks the dimension lines of a line drawing; the same error contract as {@link checkScene}. */
export function checkDimensions(v: unknown, path = 'dimensions'): DimensionSpec[] {
  if (!Array.isArray(v)) fail(path, 'must be a list of {from, to, offset, text?}');
  if (v.length > MAX_DIMENSIONS) fail(path, `at most ${MAX_DIMENSIONS} dimension lines, got ${v.length}`);
  return v.map((d, i) => {
    const p = `${path}[${i}]`;
    if (!isObject(d)) fail(p, 'must be {from: [x, y, z], to: [x, y, z], offset: [x, y, z], text?}');
    const out: DimensionSpec = { from: vec3(d.from, `${p}.from`), to: vec3(d.to, `${p}.to`), offset: vec3(d.offset, `${p}.offset`) };
    if (d.text !== undefined) {
      if (typeof d.text !== 'string' || d.text.length > 40) fail(`${p}.text`, 'must be a string of at most 40 characters');
      out.text = d.text;
    }
    return out;
  });
}
