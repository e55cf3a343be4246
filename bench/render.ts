import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Quat, SceneBody, SceneDescription, ShapeSpec, Vec3 } from '../sim/types.ts';
import type { CameraSpec } from '../render/camera-spec.ts';
import { cameraFrame } from '../render/camera-frame.ts';
import { pageScript } from '../render/page-bundle.ts';
import { Renderer } from '../render/renderer.ts';
import { Rng } from '../core/rng.ts';
import { processTree, procBytes } from './support/memory.ts';

const here = dirname(fileURLToPath(import.meta.url));
const SIZE = 768;
const PARTS = 50;
const WARMUP = 5;
const FRAMES = 40;
const COLORS = ['#c0392b', '#2e86de', '#27ae60', '#f1c40f', '#8e44ad', '#e67e22', '#16a085', '#7f8c8d'];

/** 50 parts (boxes, hulls, cylinders) on a ground, poses moving with the frame index. */
function benchScene(frame: number): SceneDescription {
  const rng = new Rng('bench/render');
  const rand = (): number => rng.next();
  const bodies: SceneBody[] = [];
  for (let i = 0; i < PARTS; i++) {
    const kind = i % 7 === 0 ? 'cylinder' : i % 6 === 0 ? 'hull' : 'box';
    const s = 0.03 + 0.05 * rand();
    const shape: ShapeSpec =
      kind === 'box'
        ? { type: 'box', half: [s, 0.6 * s + 0.02 * rand(), 0.8 * s] }
        : kind === 'cylinder'
          ? { type: 'cylinder', radius: 0.6 * s, halfHeight: s }
          : { type: 'hull', points: [[-s, 0, -s], [s, 0, -s], [0, 0, s], [0, 1.5 * s, 0], [0.3 * s, 0.5 * s, 0.8 * s]] };
    const x = -0.8 + 1.6 * rand();
    const z = -0.8 + 1.6 * rand();
    const a = rand() * Math.PI + 0.02 * frame * (i % 3);
    const q: Quat = [0, Math.sin(a / 2), 0, Math.cos(a / 2)];
    const p: Vec3 = [x + 0.002 * frame * ((i % 5) - 2), 0.1 + 0.2 * rand() + 0.001 * frame * (i % 4), z];
    bodies.push({ name: `part-${i}`, shapes: [shape], pose: { p, q }, color: COLORS[i % COLORS.length], opacity: 1, visible: true });
  }
  return { bodies, rulers: [], ground: { y: 0 } };
}

/** Stud pitch, plate height and drawn stud size of the wall (real bricks). */
const WALL = { pitch: 0.008, plate: 0.0032, studRadius: 0.0024, studHeight: 0.0017, frames: 12 };

/**
 * A wall of 50 2×4 bricks (10 long, 5 courses, running bond) with 400 studs, nudged a little
 * every frame. `studs`: `visual` (drawn-only shapes, merged per body by the page), `shapes`
 * (one collider-like shape per stud, drawn one by one: what companion stud bodies cost) or
 * `none`.
 */
function wallScene(frame: number, studs: 'visual' | 'shapes' | 'none'): SceneDescription {
  const { pitch, plate, studRadius, studHeight } = WALL;
  const h = 1.5 * plate;
  const studShapes: ShapeSpec[] = [];
  for (let i = 0; i < 4; i++) {
    for (let j = 0; j < 2; j++) {
      studShapes.push({ type: 'cylinder', radius: studRadius, halfHeight: studHeight / 2, pose: { p: [(i - 1.5) * pitch, h + studHeight / 2, (j - 0.5) * pitch], q: [0, 0, 0, 1] } });
    }
  }
  const bodies: SceneBody[] = [];
  for (let course = 0; course < 5; course++) {
    for (let k = 0; k < 10; k++) {
      const x = (k * 4 + (course % 2 ? 2 : 0) - 20) * pitch + 0.00002 * frame * ((k + course) % 3);
      const box: ShapeSpec = { type: 'box', half: [2 * pitch - 0.0001, h, pitch - 0.0001] };
      bodies.push({
        name: `brick-${course}-${k}`,
        shapes: studs === 'shapes' ? [box, ...studShapes] : [box],
        ...(studs === 'visual' ? { visual: studShapes } : {}),
        pose: { p: [x, (course * 3 + 1.5) * plate, 0], q: [0, 0, 0, 1] },
        color: COLORS[(course * 10 + k) % COLORS.length],
        opacity: 1,
        visible: true,
      });
    }
  }
  return { bodies, rulers: [], ground: { y: 0 } };
}

/** Frames per second of the studded wall drawn each way, frames interleaved so all see the same load. */
async function benchWall(renderer: Renderer): Promise<Record<string, number>> {
  const camera: CameraSpec = { azimuth: 25, elevation: 30, distance: 0.55, target: [0, 0.024, 0] };
  const kinds = ['visual', 'shapes', 'none'] as const;
  const ms = { visual: 0, shapes: 0, none: 0 };
  for (let i = 0; i < 2 + WALL.frames; i++) {
    for (const kind of kinds) {
      const t = performance.now();
      await renderer.render(wallScene(i, kind), camera);
      if (i >= 2) ms[kind] += performance.now() - t;
    }
  }
  const fps = (kind: (typeof kinds)[number]): number => round2((WALL.frames * 1000) / ms[kind]);
  return {
    studs: 400,
    visualMergedFps: fps('visual'),
    separateShapesFps: fps('shapes'),
    noStudsFps: fps('none'),
    visualVsNoStuds: round2(ms.none / ms.visual),
    visualVsSeparate: round2(ms.shapes / ms.visual),
  };
}

/**
 * What shadows and the framing measurement cost, as ratios of frame times on the 50-part scene
 * with a labelled 1.6 m ruler (whose labels' occlusion test draws an id pass in every RGB
 * picture), frames interleaved so all see the same load: shadows on vs off; `measure` vs
 * `render`.
 */
async function benchLightsAndFraming(renderer: Renderer, camera: CameraSpec): Promise<Record<string, number>> {
  const ruler = { from: [-0.8, 0.001, 0.9] as Vec3, to: [0.8, 0.001, 0.9] as Vec3 };
  const kinds = {
    shadows: (i: number) => renderer.render({ ...benchScene(i), rulers: [ruler] }, camera),
    noShadows: (i: number) => renderer.render({ ...benchScene(i), rulers: [ruler], light: { azimuth: 32, elevation: 56, shadows: false } }, camera),
    measure: (i: number) => renderer.measure({ ...benchScene(i), rulers: [ruler] }, camera),
  };
  const ms: Record<keyof typeof kinds, number> = { shadows: 0, noShadows: 0, measure: 0 };
  const frames = 12;
  for (let i = 0; i < 2 + frames; i++) {
    for (const kind of Object.keys(kinds) as (keyof typeof kinds)[]) {
      const t = performance.now();
      await kinds[kind](i);
      if (i >= 2) ms[kind] += performance.now() - t;
    }
  }
  return {
    shadowsVsNoShadows: round2(ms.shadows / ms.noShadows),
    measureVsRender: round2(ms.measure / ms.shadows),
    measureMs: round2(ms.measure / frames),
  };
}

/** Peak resident memory (VmHWM) summed over a process and its descendants, MB (Linux). */
function treePeakRssMb(rootPid: number): number {
  return processTree(rootPid).reduce((t, pid) => t + procBytes(pid, 'status', 'VmHWM'), 0) / (1024 * 1024);
}

/**
 * Renderer throughput at 768² for a 50-part scene, full path (scene check, diff, sync, draw,
 * PNG into a Node Buffer), against plain three.js drawing the same scene in a second page of the
 * same browser and captured the same way; plus launch time and peak memory, and a 50-brick wall
 * with its 400 studs drawn as merged `visual` shapes, as separate shapes, and left out.
 */
export async function benchRender(): Promise<Record<string, unknown>> {
  const camera: CameraSpec = { azimuth: 35, elevation: 35, distance: 2.6, target: [0, 0.1, 0] };
  const scenes = Array.from({ length: WARMUP + FRAMES }, (_, i) => benchScene(i));
  const renderer = new Renderer({ width: SIZE, height: SIZE });
  try {
    const t0 = performance.now();
    await renderer.render({ bodies: [], rulers: [] }, camera, { width: 64, height: 64 });
    const firstRenderMs = performance.now() - t0;
    const launchMs = renderer.chromium.counters().launchMs[0];

    const barePage = await renderer.chromium.runningBrowser!.newPage();
    await barePage.setContent('<!doctype html><html><body style="margin:0"></body></html>');
    await barePage.addScriptTag({
      content: await pageScript({ name: 'bench-bare', entry: join(here, 'pages', 'bare-three.ts'), sourceDir: join(here, 'pages') }),
    });
    await barePage.evaluate(
      (s: SceneDescription, w: number) => (window as unknown as { __bare: { init(s: SceneDescription, w: number, h: number): void } }).__bare.init(s, w, w),
      scenes[0],
      SIZE,
    );
    const frame = cameraFrame(camera);
    const bareCamera = { position: frame.position, target: camera.target, fov: 40 };
    const bareFrame = async (i: number): Promise<Buffer> => {
      const poses = scenes[i].bodies.flatMap((b) => [...b.pose.p, ...b.pose.q]);
      const b64 = await barePage.evaluate(
        (p: number[], c: typeof bareCamera) =>
          (window as unknown as { __bare: { frame(p: number[], c: typeof bareCamera): string } }).__bare.frame(p, c),
        poses,
        bareCamera,
      );
      return Buffer.from(b64, 'base64');
    };
    const rendererFrame = (i: number): Promise<Buffer> => renderer.render(scenes[i], camera);

    // Frames alternate between the two (renderer, bare, renderer, …) so both see the same
    // machine load; a busy machine slows both alike and the ratio stays meaningful.
    for (let i = 0; i < WARMUP; i++) {
      await rendererFrame(i);
      await bareFrame(i);
    }
    let oursMs = 0;
    let bareMs = 0;
    let pngBytes = 0;
    for (let i = WARMUP; i < WARMUP + FRAMES; i++) {
      let t = performance.now();
      pngBytes += (await rendererFrame(i)).length;
      oursMs += performance.now() - t;
      t = performance.now();
      await bareFrame(i);
      bareMs += performance.now() - t;
    }
    pngBytes /= FRAMES;
    const maskStart = performance.now();
    for (let i = 0; i < 10; i++) await renderer.mask(scenes[i], camera);
    const maskFps = 10000 / (performance.now() - maskStart);
    await barePage.close();
    const studdedWall = await benchWall(renderer);
    const lightsAndFraming = await benchLightsAndFraming(renderer, camera);

    const rendererFps = (FRAMES * 1000) / oursMs;
    const bareFps = (FRAMES * 1000) / bareMs;
    return {
      size: `${SIZE}x${SIZE}`,
      parts: PARTS,
      frames: FRAMES,
      rendererFps: round2(rendererFps),
      bareThreeFps: round2(bareFps),
      ratio: round2(rendererFps / bareFps),
      ratioTarget: 0.8,
      maskFps: round2(maskFps),
      pngKB: round2(pngBytes / 1024),
      browserLaunchMs: round2(launchMs),
      firstRenderMs: round2(firstRenderMs),
      nodeMaxRssMB: round2(process.resourceUsage().maxRSS / 1024),
      browserPeakRssMB: round2(treePeakRssMb(renderer.chromium.pid!)),
      studdedWall,
      lightsAndFraming,
    };
  } finally {
    await renderer.close();
  }
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await benchRender(), null, 2));
}
