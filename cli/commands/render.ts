import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { SpaceActError } from '../../core/errors.ts';
import { numberOption } from '../../core/options.ts';
import type { SceneDescription, Vec3 } from '../../sim/types.ts';
import { NAMED_VIEWS, type CameraSpec } from '../../render/camera-spec.ts';
import { fitCamera } from '../../render/fit-camera.ts';
import { Renderer } from '../../render/renderer.ts';
import { checkCamera, checkScene } from '../../render/scene-check.ts';
import { TaskEnv } from '../../tasks/env.ts';
import { familyAndInstanceFromId } from '../../tasks/registry.ts';

/** Options of `spaceact render`, as commander hands them over (strings until checked). */
export interface RenderCommandOptions {
  scene?: string;
  instance?: string;
  out?: string;
  azimuth?: string;
  elevation?: string;
  distance?: string;
  target?: string;
  view?: string;
  fov?: string;
  ortho?: boolean;
  orthoHeight?: string;
  width?: string;
  height?: string;
  mode?: string;
}

function invalid(message: string, details: Record<string, unknown> = {}): never {
  throw new SpaceActError('invalid-argument', message, details);
}

function parseTarget(text: string | undefined): Vec3 | undefined {
  if (text === undefined) return undefined;
  const parts = text.split(',').map((s) => Number(s));
  if (parts.length !== 3 || text.split(',').some((s) => s.trim() === '') || parts.some((x) => !Number.isFinite(x))) {
    invalid(`--target must be three numbers x,y,z in metres, got ${JSON.stringify(text)}`, { flag: 'target' });
  }
  return parts as Vec3;
}

/**
 * Reads a scene file: JSON `{scene, camera?}` or a bare scene description. Errors name the
 * file and the first bad field.
 */
export async function readSceneFile(path: string): Promise<{ scene: SceneDescription; camera?: CameraSpec }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new SpaceActError('io', `cannot read scene file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, {
      file: path,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    invalid(`scene file ${path} is not valid JSON: ${(err as Error).message}`, { file: path });
  }
  const wrapped = typeof json === 'object' && json !== null && 'scene' in json;
  const root = json as { scene?: unknown; camera?: unknown };
  try {
    const scene = checkScene(wrapped ? root.scene : json, 'scene');
    const camera = wrapped && root.camera !== undefined ? checkCamera(root.camera, 'camera') : undefined;
    return camera ? { scene, camera } : { scene };
  } catch (err) {
    if (err instanceof SpaceActError) throw new SpaceActError(err.code, `${path}: ${err.message}`, { file: path, ...err.details });
    throw err;
  }
}

/** The scene and initial camera of a task instance. */
async function instanceScene(id: string): Promise<{ scene: SceneDescription; camera: CameraSpec }> {
  const { family, instance } = familyAndInstanceFromId(id);
  const env = await TaskEnv.create(family, instance);
  try {
    return { scene: env.scene(), camera: structuredClone(env.camera) };
  } finally {
    env.free();
  }
}

/**
 * Runs `spaceact render`: reads the scene, builds the camera (the file's, else one fitted to
 * the scene from `--view` or iso; flags override single fields), renders and writes the PNG.
 * Everything is checked before the browser starts; nothing is written on error.
 */
export async function renderCommand(opts: RenderCommandOptions): Promise<{ out: string; width: number; height: number; mode: string }> {
  if (!opts.out) invalid('--out PNG is required');
  if ((opts.scene === undefined) === (opts.instance === undefined)) invalid('give exactly one of --scene FILE or --instance ID');
  const mode = opts.mode ?? 'rgb';
  if (mode !== 'rgb' && mode !== 'depth' && mode !== 'mask' && mode !== 'lines') invalid(`--mode must be rgb, depth, mask or lines, got ${JSON.stringify(mode)}`);
  if (opts.view !== undefined && !NAMED_VIEWS[opts.view]) {
    invalid(`--view must be one of ${Object.keys(NAMED_VIEWS).join(', ')}, got ${JSON.stringify(opts.view)}`);
  }
  const values = opts as Record<string, unknown>;
  const width = numberOption(values, 'width', { min: 1, integer: true });
  const height = numberOption(values, 'height', { min: 1, integer: true });
  const overrides = {
    azimuth: numberOption(values, 'azimuth'),
    elevation: numberOption(values, 'elevation'),
    distance: numberOption(values, 'distance'),
    target: parseTarget(opts.target),
    fov: numberOption(values, 'fov'),
    orthoHeight: numberOption(values, 'orthoHeight'),
  };
  const loaded = opts.scene !== undefined ? await readSceneFile(opts.scene) : await instanceScene(opts.instance!);
  let camera: CameraSpec = loaded.camera ?? fitCamera(loaded.scene, opts.view ?? 'iso', overrides.fov);
  if (opts.view !== undefined) camera = { ...camera, ...NAMED_VIEWS[opts.view] };
  for (const [k, v] of Object.entries(overrides)) if (v !== undefined) (camera as unknown as Record<string, unknown>)[k] = v;
  if (opts.ortho) camera.projection = 'orthographic';
  camera = checkCamera(camera, 'camera');
  const renderer = new Renderer({ width, height });
  let png: Buffer;
  try {
    png = await renderer.render(loaded.scene, camera, { view: mode });
  } finally {
    await renderer.close();
  }
  const out = resolve(opts.out);
  try {
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, png);
  } catch (err) {
    throw new SpaceActError('io', `cannot write ${out}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { file: out });
  }
  return { out, width: renderer.width, height: renderer.height, mode };
}

/** `spaceact render`: one picture of a scene file or a task instance. */
export function register(program: Command): void {
  program
    .command('render')
    .description('render a scene file (JSON {scene, camera?} or a bare scene) or a task instance to a PNG')
    .option('--scene <file>', 'scene JSON file')
    .option('--instance <id>', 'task instance id, e.g. P6-L3-s100 (its initial view)')
    .option('--out <png>', 'output PNG file')
    .option('--view <name>', `named view: ${Object.keys(NAMED_VIEWS).join(', ')}`)
    .option('--azimuth <deg>', 'orbit azimuth in degrees (0 = from +Z, 90 = from +X)')
    .option('--elevation <deg>', 'orbit elevation in degrees (-90..90; 90 = top)')
    .option('--distance <m>', 'camera distance from the target in metres')
    .option('--target <x,y,z>', 'point the camera looks at, metres')
    .option('--fov <deg>', 'vertical field of view in degrees (perspective)')
    .option('--ortho', 'orthographic projection')
    .option('--ortho-height <m>', 'visible height in metres of the orthographic view')
    .option('--width <px>', 'image width in pixels (default 768)')
    .option('--height <px>', 'image height in pixels (default 768)')
    .option('--mode <mode>', 'rgb (default), depth, mask or lines (a line drawing)')
    .action(async (opts: RenderCommandOptions) => {
      const r = await renderCommand(opts);
      process.stdout.write(`wrote ${r.out} (${r.width}×${r.height}, ${r.mode})\n`);
    });
}
