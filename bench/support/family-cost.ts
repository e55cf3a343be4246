/**
 * One family's cost, measured in a process of its own (so peak memory is this family's):
 *
 *   npx tsx bench/support/family-cost.ts P6-L7-s100      # prints one JSON object
 *
 * 1. The reference episode of the instance through the real loop, rendering every turn as for
 *    a model (`render: 'always'`), its time split into physics (the actions: motion, sweeps,
 *    stepping), checks (topology, statics, load tests, the success test and progress measure),
 *    render (describing the scene, drawing, the family's own observation work), encode (PNG
 *    encoding, the trip to Node, composing strips and panels) and agent (the reference agent,
 *    its solver included); peak memory of the browser and of Node meanwhile.
 * 2. The first observation of the instance drawn cold (frame cache cleared) against plain
 *    three.js drawing the same pictures (bench/pages/bare-scene.ts) in the same browser,
 *    alternating (and alternating which goes first) so both see the same machine load; in
 *    wall time and in CPU time (the browser's processes and Node), with where the time went.
 *
 * bench/observe.ts runs it for every family's main instance. Kept outside `bench/*.ts` because
 * it is a process entry, not a benchmark module.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runEpisode } from '../../agents/loop.ts';
import { DEFAULT_MODE } from '../../agents/modes.ts';
import { ReferenceAgent } from '../../agents/reference.ts';
import type { SceneDescription } from '../../sim/types.ts';
import type { CameraSpec } from '../../render/camera-spec.ts';
import { cameraFrame, DEFAULT_FOV, orthoHeightOf } from '../../render/camera-frame.ts';
import { pageScript } from '../../render/page-bundle.ts';
import { Renderer, type RenderOptions } from '../../render/renderer.ts';
import { TaskEnv } from '../../tasks/env.ts';
import { familyAndInstanceFromId } from '../../tasks/registry.ts';
import type { BareCamera, BareFrame } from '../pages/bare-scene.ts';
import { browserPeak, nodePeakRssMB, processTree } from './memory.ts';

const pages = join(dirname(fileURLToPath(import.meta.url)), '..', 'pages');
/** Samples of the cold first observation (and of the bare frames), after one warm-up each. */
const SAMPLES = 5;

/**
 * CPU milliseconds used so far by these processes (all threads, /proc ticks) plus this Node
 * process: what a picture costs the machine, less disturbed by other jobs than wall time.
 */
function cpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // the process ended meanwhile
    }
  }
  const own = process.cpuUsage();
  return ticks * 10 + (own.user + own.system) / 1000;
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

/** The cost of `id`'s reference episode, by phase, and of its first observation against bare three.js. */
export async function familyCost(id: string): Promise<Record<string, unknown>> {
  const { family, instance } = familyAndInstanceFromId(id);
  const renderer = new Renderer();
  try {
    // --- 1. the reference episode, every turn rendered -------------------------------------
    const ms = { physics: 0, checks: 0, render: 0, encode: 0, agent: 0 };
    const timed = <A extends unknown[], R>(fn: (...a: A) => R, add: (dt: number) => void): ((...a: A) => R) => (...a: A) => {
      const t = performance.now();
      try {
        return fn(...a);
      } finally {
        add(performance.now() - t);
      }
    };
    const timedAsync = <A extends unknown[], R>(fn: (...a: A) => Promise<R>, add: (dt: number) => void): ((...a: A) => Promise<R>) => async (...a: A) => {
      const t = performance.now();
      try {
        return await fn(...a);
      } finally {
        add(performance.now() - t);
      }
    };
    const agent = new ReferenceAgent();
    agent.start = timedAsync(agent.start.bind(agent), (dt) => (ms.agent += dt));
    agent.act = timedAsync(agent.act.bind(agent), (dt) => (ms.agent += dt));
    let actionMs = 0;
    let checkMs = 0;
    let observeMs = 0;
    const encodeBefore = renderer.stats().encodeMs;
    const episode = await browserPeak(() => renderer.chromium.pid, async () => {
      const started = performance.now();
      const outcome = await runEpisode({
        family,
        instance,
        agent,
        mode: DEFAULT_MODE,
        renderer,
        render: 'always',
        onStart(env: TaskEnv) {
          const w = env.world;
          // Checks call each other (a settle checks the topology): only the outermost is timed.
          let depth = 0;
          const check = <A extends unknown[], R>(fn: (...a: A) => R): ((...a: A) => R) => (...a: A) => {
            const t = performance.now();
            depth++;
            try {
              return fn(...a);
            } finally {
              if (--depth === 0) checkMs += performance.now() - t;
            }
          };
          w.checkTopology = check(w.checkTopology.bind(w));
          w.settle = check(w.settle.bind(w));
          w.loadTest = check(w.loadTest.bind(w));
          env.execute = timed(env.execute.bind(env), (dt) => (actionMs += dt));
          env.solved = timed(env.solved.bind(env), (dt) => (ms.checks += dt));
          env.progress = timed(env.progress.bind(env), (dt) => (ms.checks += dt));
          // observation() calls observe(); the loop calls observe() alone for the final picture.
          let observing = 0;
          const observe = <A extends unknown[], R>(fn: (...a: A) => Promise<R>): ((...a: A) => Promise<R>) => async (...a: A) => {
            const t = performance.now();
            observing++;
            try {
              return await fn(...a);
            } finally {
              if (--observing === 0) observeMs += performance.now() - t;
            }
          };
          env.observation = observe(env.observation.bind(env));
          env.observe = observe(env.observe.bind(env));
        },
      });
      return { outcome, totalMs: performance.now() - started };
    });
    const stats = renderer.stats();
    ms.encode = stats.encodeMs - encodeBefore;
    ms.render = observeMs - ms.encode;
    // Checks inside an action (topology, statics, load tests) are not the action's physics.
    ms.checks += checkMs;
    ms.physics = actionMs - checkMs;
    const totalMs = episode.value.totalMs;
    const nodePeakMB = nodePeakRssMB();

    // --- 2. the first observation, cold, against bare three.js --------------------------------
    const env = await TaskEnv.create(family, instance);
    try {
      const draws: { scene: SceneDescription; camera: CameraSpec; opts: RenderOptions }[] = [];
      const render = renderer.render.bind(renderer);
      const strobe = renderer.strobe.bind(renderer);
      renderer.render = async (scene, camera, opts = {}) => {
        draws.push({ scene, camera, opts });
        return render(scene, camera, opts);
      };
      renderer.strobe = async (frames, camera, labels, opts = {}) => {
        for (const scene of frames) draws.push({ scene, camera, opts });
        return strobe(frames, camera, labels, opts);
      };
      const firstObservation = await env.observation({ renderer, images: true });
      const images = firstObservation.images.length;
      renderer.render = render;
      renderer.strobe = strobe;

      const browser = renderer.chromium.runningBrowser!;
      const bare = await browser.newPage();
      await bare.setContent('<!doctype html><html><body style="margin:0"></body></html>');
      await bare.addScriptTag({ content: await pageScript({ name: 'bench-bare-scene', entry: join(pages, 'bare-scene.ts'), sourceDir: pages }) });
      const bareSplit = { draw: 0, encode: 0, transfer: 0 };
      const bareFrames = async (): Promise<void> => {
        for (const d of draws) {
          const callStart = performance.now();
          const frame = cameraFrame(d.camera);
          const cam: BareCamera = {
            ...frame,
            fov: d.camera.fov ?? DEFAULT_FOV,
            orthographic: d.camera.projection === 'orthographic',
            orthoHeight: orthoHeightOf(d.camera),
          };
          const f = await bare.evaluate(
            (s: SceneDescription, w: number, h: number, c: BareCamera, depth: boolean) =>
              (window as unknown as { __bareScene: { frame(...a: unknown[]): BareFrame } }).__bareScene.frame(s, w, h, c, depth),
            d.scene,
            d.opts.width ?? renderer.width,
            d.opts.height ?? renderer.height,
            cam,
            d.opts.view === 'depth',
          );
          Buffer.from(f.png, 'base64');
          bareSplit.draw += f.drawMs;
          bareSplit.encode += f.encodeMs;
          bareSplit.transfer += performance.now() - callStart - f.drawMs - f.encodeMs;
        }
      };
      // Where the cold observation's time goes: the renderer's phases, Node's preparation, and
      // the family's own work (describing the scene, captions) as what is left.
      const oursSplit: Record<string, number> = {};
      const ours = async (): Promise<void> => {
        renderer.clearFrameCache();
        const before = renderer.stats();
        const t = performance.now();
        await env.observation({ renderer, images: true });
        const total = performance.now() - t;
        const after = renderer.stats();
        const parts: Record<string, number> = { prepare: after.prepareMs - before.prepareMs };
        for (const [k, v] of Object.entries(after.phases)) parts[k] = v - before.phases[k as keyof typeof before.phases];
        parts.family = total - Object.values(parts).reduce((a, b) => a + b, 0);
        for (const [k, v] of Object.entries(parts)) oursSplit[k] = (oursSplit[k] ?? 0) + v;
      };
      await bareFrames();
      for (const k of Object.keys(bareSplit) as (keyof typeof bareSplit)[]) bareSplit[k] = 0;
      let oursMs = 0;
      let bareMs = 0;
      let oursCpu = 0;
      let bareCpu = 0;
      const pids = processTree(renderer.chromium.pid!);
      // Fastest sample of each: the one least disturbed by other jobs.
      let oursBest = Infinity;
      let bareBest = Infinity;
      const timeOurs = async (): Promise<void> => {
        const c = cpuMs(pids);
        const t = performance.now();
        await ours();
        oursBest = Math.min(oursBest, performance.now() - t);
        oursMs += performance.now() - t;
        oursCpu += cpuMs(pids) - c;
      };
      const timeBare = async (): Promise<void> => {
        const c = cpuMs(pids);
        const t = performance.now();
        await bareFrames();
        bareBest = Math.min(bareBest, performance.now() - t);
        bareMs += performance.now() - t;
        bareCpu += cpuMs(pids) - c;
      };
      // Which goes first alternates, so a change in the machine's load falls on both alike.
      for (let k = 0; k < SAMPLES; k++) {
        if (k % 2 === 0) {
          await timeOurs();
          await timeBare();
        } else {
          await timeBare();
          await timeOurs();
        }
      }
      // Warm: the same observation again, every picture reused.
      const t = performance.now();
      await env.observation({ renderer, images: true });
      const warmMs = performance.now() - t;
      await bare.close();
      return {
        instance: id,
        episode: {
          solved: episode.value.outcome.solved,
          turns: episode.value.outcome.turns,
          framesDrawn: stats.frames,
          framesReused: stats.reused,
          totalMs: round1(totalMs),
          physicsMs: round1(ms.physics),
          checksMs: round1(ms.checks),
          renderMs: round1(ms.render),
          encodeMs: round1(ms.encode),
          agentMs: round1(ms.agent),
          otherMs: round1(totalMs - ms.physics - ms.checks - ms.render - ms.encode - ms.agent),
        },
        memory: {
          browserPeakRssMB: round1(episode.rssMB),
          browserPeakPssMB: round1(episode.pssMB),
          browserHwmSumMB: round1(episode.hwmSumMB),
          browserProcesses: episode.processes,
          nodePeakRssMB: round1(nodePeakMB),
        },
        observation: {
          images,
          pictures: draws.length,
          coldMs: round1(oursMs / SAMPLES),
          bareThreeMs: round1(bareMs / SAMPLES),
          ratioToBare: Math.round((oursMs / bareMs) * 100) / 100,
          bestRatioToBare: Math.round((oursBest / bareBest) * 100) / 100,
          coldCpuMs: round1(oursCpu / SAMPLES),
          bareThreeCpuMs: round1(bareCpu / SAMPLES),
          cpuRatioToBare: Math.round((oursCpu / bareCpu) * 100) / 100,
          warmMs: round1(warmMs),
          coldSplitMs: Object.fromEntries(Object.entries(oursSplit).map(([k, v]) => [k, round1(v / SAMPLES)])),
          bareSplitMs: Object.fromEntries(Object.entries(bareSplit).map(([k, v]) => [k, round1(v / SAMPLES)])),
        },
      };
    } finally {
      env.free();
    }
  } finally {
    await renderer.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const id = process.argv[2];
  if (!id) throw new Error('usage: family-cost.ts INSTANCE_ID');
  process.stdout.write(`${JSON.stringify(await familyCost(id))}\n`);
}
