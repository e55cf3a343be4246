import { SpaceActError } from '../core/errors.ts';
import type { Highlight, SceneDescription } from '../sim/types.ts';
import type { CameraSpec } from './camera-spec.ts';
import { ChromiumHost } from './chromium.ts';
import { composeColumn, composeRow, withCaption } from './compose.ts';
import { DEFAULT_FOV, orthoHeightOf } from './camera-frame.ts';
import { FrameCache } from './frame-cache.ts';
import type { DimensionSpec, FrameRequest, ImageResult, MaskResult, MeasureResult, PageApi, SceneUpdate, ViewMode } from './page/protocol.ts';

export type { BodyMeasure, DimensionSpec, LabelMeasure, MeasureResult, ShapeMeasure } from './page/protocol.ts';
import { checkCamera, checkDimensions, checkHighlight, checkScene, checkSize } from './scene-check.ts';
import { SceneMirror } from './scene-mirror.ts';
import { maskPng, unpackBits } from './silhouette.ts';
import { strobeLabels } from './strobe.ts';

/** Highlight and caption of a violation's rollback image (rollback-text.ts). */
export { rollbackCaption, rollbackHighlight, rollbackTitle } from './rollback-text.ts';

/** Intersection over union of two silhouettes from {@link Renderer.mask} (lives in silhouette.ts). */
export { silhouetteIoU } from './silhouette.ts';

/** Default image size in pixels (square). */
export const DEFAULT_SIZE = 768;

/** Options of {@link Renderer.render}. */
export interface RenderOptions {
  width?: number;
  height?: number;
  /**
   * `rgb` (default): the lit picture. `depth`: linear depth of the visible bodies only, white at
   * the nearest surface to dark grey at the farthest, near/far fitted to the bodies, background
   * black. `mask`: the binary silhouette (see {@link Renderer.mask}) as a PNG. `lines`: a line
   * drawing under the orthographic form of the camera (black edges on white, optionally hidden
   * edges dashed, and dimension lines).
   */
  view?: 'rgb' | 'depth' | 'mask' | 'lines';
  /** Bodies to draw in the highlight colour (#ff00ff) and a contact point to mark. */
  highlight?: Highlight;
  /** `lines` view: also draw the edges hidden behind surfaces, dashed grey. Default false. */
  hiddenLines?: boolean;
  /** `lines` view: dimension lines with their values. */
  dimensions?: DimensionSpec[];
}

/** Options of {@link Renderer.mask}. */
export interface MaskOptions {
  width?: number;
  height?: number;
  /** Only these bodies make the silhouette; default every visible body. */
  only?: string[];
}

/** A binary silhouette. */
export interface MaskImage {
  width: number;
  height: number;
  /** One byte per pixel, 0 or 1, rows top to bottom. */
  bits: Uint8Array;
  /** White on black. */
  png: Buffer;
  /** Number of set pixels. */
  count: number;
}

/** Options of {@link Renderer.rollback} beyond its labels. */
export interface RollbackOptions {
  /** `false` (the `nosplit` mode): return only the rolled-back state, unlabelled. Default true. */
  split?: boolean;
  /** Text written under the split image (wrapped, at most four lines), e.g. {@link rollbackCaption}. */
  caption?: string;
  width?: number;
  height?: number;
}

/** Options of the {@link Renderer} constructor. */
export interface RendererOptions {
  width?: number;
  height?: number;
  executablePath?: string;
  timeoutMs?: number;
  /**
   * Pictures kept for reuse by content (default {@link DEFAULT_FRAME_CACHE}; 0: draw every
   * picture). A picture of the same scene, camera and options is served from memory, byte for
   * byte what the page would draw (see frame-cache.ts).
   */
  frameCache?: number;
}

/** Pictures a renderer keeps for reuse unless told otherwise (at 768², about 50–100 KB each). */
export const DEFAULT_FRAME_CACHE = 64;

/** What a renderer has done so far: counts and where the time went (milliseconds). */
export interface RenderStats {
  /** Pictures the page drew (RGB, depth, line drawings; masks and measurements not counted). */
  frames: number;
  /** Pictures (and composites) served from the frame cache instead. */
  reused: number;
  /** Drawing in the page, until the pixels were ready (scene update, shadows, id pass, draw). */
  drawMs: number;
  /**
   * Encoding: the page's PNG encoding, the trip to Node and decoding there, and composing
   * strips, split views and captions.
   */
  encodeMs: number;
  /** Node's side before drawing: checking the scene, diffing it against the page, hashing it. */
  prepareMs: number;
  /**
   * The same time finer, milliseconds: the page's phases (`apply`, `idPass`, `labels`, `draw`,
   * `pageEncode`), `transfer` (the rest of each page call: the trip through the DevTools
   * protocol), `decode` (base64 in Node) and `compose` (strips, split views, captions).
   */
  phases: { apply: number; idPass: number; labels: number; draw: number; pageEncode: number; transfer: number; decode: number; compose: number };
}

type LabelMeasure4 = [number, number, number, number];

class RenderTimeout extends Error {}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  // The losing promise must not turn into an unhandled rejection when the browser is killed.
  work.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RenderTimeout(`no answer from the page within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Errors that mean the browser or its page is gone, rather than a mistake in the page script. */
function lostBrowser(err: unknown): boolean {
  if (err instanceof RenderTimeout) return true;
  const e = err as { name?: string; message?: string };
  return (
    ['TargetCloseError', 'ConnectionClosedError'].includes(e.name ?? '') ||
    /closed|detached|destroyed|crash|disconnected|not opened|ECONNRESET|EPIPE/i.test(e.message ?? '')
  );
}

/**
 * Draws scene descriptions with three.js in one headless Chromium. The browser starts on first
 * use, is relaunched if it dies or hangs, and must be closed with {@link Renderer.close}.
 * Calls are served one at a time in call order. Same scene and camera give identical PNG bytes
 * on the same machine. The renderer never sees a world, so it cannot change world time.
 */
export class Renderer {
  /** Default image width in pixels. */
  readonly width: number;
  /** Default image height in pixels. */
  readonly height: number;
  /** Longest a single picture may take before the browser is considered hung. */
  readonly timeoutMs: number;
  private readonly host: ChromiumHost;
  private readonly mirror = new SceneMirror();
  private readonly cache: FrameCache;
  private readonly counters: RenderStats = {
    frames: 0,
    reused: 0,
    drawMs: 0,
    encodeMs: 0,
    prepareMs: 0,
    phases: { apply: 0, idPass: 0, labels: 0, draw: 0, pageEncode: 0, transfer: 0, decode: 0, compose: 0 },
  };
  private queue: Promise<unknown> = Promise.resolve();
  /** Milliseconds of the last successful call into the page (launching the browser not counted). */
  private lastPageCallMs = 0;
  /** Set by {@link close}: kept pictures are no longer served either. */
  private closed = false;

  constructor(opts: RendererOptions = {}) {
    this.width = checkSize(opts.width ?? DEFAULT_SIZE, 'width');
    this.height = checkSize(opts.height ?? DEFAULT_SIZE, 'height');
    this.timeoutMs = opts.timeoutMs ?? 30000;
    if (!(this.timeoutMs > 0)) throw new SpaceActError('invalid-argument', 'timeoutMs must be positive', { timeoutMs: opts.timeoutMs });
    const cached = opts.frameCache ?? DEFAULT_FRAME_CACHE;
    if (!Number.isInteger(cached) || cached < 0) throw new SpaceActError('invalid-argument', 'frameCache must be a whole number of pictures, 0 or more', { frameCache: opts.frameCache });
    this.cache = new FrameCache(cached);
    this.host = new ChromiumHost(opts.executablePath, Math.max(30000, this.timeoutMs));
  }

  /** A copy of the counters: pictures drawn and reused, and where the time went. */
  stats(): RenderStats {
    return { ...this.counters, phases: { ...this.counters.phases } };
  }

  /** Forgets every kept picture (benchmarks measuring a cold draw). */
  clearFrameCache(): void {
    this.cache.clear();
  }

  /** The browser this renderer drives (process id, counters); for diagnostics, tests and benchmarks. */
  get chromium(): ChromiumHost {
    return this.host;
  }

  /** Draws one picture; returns PNG bytes. */
  async render(scene: SceneDescription, camera: CameraSpec, opts: RenderOptions = {}): Promise<Buffer> {
    const view = opts.view ?? 'rgb';
    if (!['rgb', 'depth', 'mask', 'lines'].includes(view)) {
      throw new SpaceActError('invalid-argument', `view must be rgb, depth, mask or lines, got ${JSON.stringify(view)}`, { view });
    }
    if (view === 'mask') return (await this.mask(scene, camera, opts)).png;
    const started = performance.now();
    const s = checkScene(scene);
    const request = this.request(view, camera, opts.width, opts.height);
    if (opts.highlight) request.highlight = checkHighlight(opts.highlight, s);
    if (view === 'lines') request.lines = { hidden: opts.hiddenLines === true, dimensions: checkDimensions(opts.dimensions ?? []) };
    this.counters.prepareMs += performance.now() - started;
    return (await this.picture(s, request)).png;
  }

  /**
   * One picture as PNG bytes and its content address: from the frame cache when the same
   * scene and request were drawn before, else drawn by the page (and kept).
   */
  private async picture(scene: SceneDescription, request: FrameRequest): Promise<{ png: Buffer; key: string }> {
    const started = performance.now();
    if (this.closed) throw new SpaceActError('invalid-state', 'the renderer was closed; create a new Renderer');
    const key = FrameCache.key('picture', scene, request);
    this.counters.prepareMs += performance.now() - started;
    const kept = this.cache.get(key);
    if (kept) {
      this.counters.reused++;
      return { png: kept, key };
    }
    const result = (await this.draw(scene, request)) as ImageResult;
    const decodeStart = performance.now();
    const png = Buffer.from(result.png, 'base64');
    // All of the page call but the drawing is encoding: the PNG encoder, the trip to Node.
    const pageMs = this.lastPageCallMs;
    this.counters.frames++;
    this.counters.drawMs += Math.min(result.drawMs, pageMs);
    const decodeMs = performance.now() - decodeStart;
    this.counters.encodeMs += Math.max(0, pageMs - result.drawMs) + decodeMs;
    const p = this.counters.phases;
    p.apply += result.phases.apply;
    p.idPass += result.phases.idPass;
    p.labels += result.phases.labels;
    p.draw += result.phases.draw;
    p.pageEncode += result.phases.encode;
    p.transfer += Math.max(0, pageMs - result.drawMs - result.encodeMs);
    p.decode += decodeMs;
    this.cache.set(key, png);
    return { png, key };
  }

  /**
   * A composite of pictures (a strip, a split view) kept under the addresses of its parts and
   * how they are put together; `compose` runs only when it is not kept.
   */
  private async composite(parts: unknown[], compose: () => Promise<Buffer>): Promise<Buffer> {
    if (this.closed) throw new SpaceActError('invalid-state', 'the renderer was closed; create a new Renderer');
    const key = FrameCache.key('composite', ...parts);
    const kept = this.cache.get(key);
    if (kept) {
      this.counters.reused++;
      return kept;
    }
    const started = performance.now();
    const png = await compose();
    this.counters.encodeMs += performance.now() - started;
    this.counters.phases.compose += performance.now() - started;
    this.cache.set(key, png);
    return png;
  }

  /**
   * The binary silhouette of the visible bodies (or of `only` those) under the orthographic form
   * of `camera` (its `orthoHeight`, or the height its perspective sees at the target): white
   * unlit bodies on black, no antialiasing, linear colour. Computed in the page; only packed
   * bits travel to Node.
   */
  async mask(scene: SceneDescription, camera: CameraSpec, opts: MaskOptions = {}): Promise<MaskImage> {
    const s = checkScene(scene);
    const request = this.request('mask', camera, opts.width, opts.height);
    if (opts.only !== undefined) request.only = checkHighlight({ bodies: opts.only }, s, 'only').bodies;
    const r = (await this.draw(s, request)) as MaskResult;
    const bits = unpackBits(Buffer.from(r.bits, 'base64'), r.width, r.height);
    return { width: r.width, height: r.height, bits, count: r.count, png: await maskPng(bits, r.width, r.height) };
  }

  /**
   * Strobe frames: each scene (normally five, 0.25 s of world time apart, oldest first) drawn
   * from one camera, and a strip of them under labels (default "t − 1.00 s" … "t = now"): side
   * by side (`layout: 'row'`, the default) or stacked oldest at the top (`'column'`, for a wide
   * frame of a long track, so that positions line up from frame to frame).
   */
  async strobe(
    frames: SceneDescription[],
    camera: CameraSpec,
    labels?: string[],
    opts: { width?: number; height?: number; layout?: 'row' | 'column' } = {},
  ): Promise<{ frames: Buffer[]; strip: Buffer }> {
    const layout = opts.layout ?? 'row';
    if (layout !== 'row' && layout !== 'column') throw new SpaceActError('invalid-argument', `strobe layout must be "row" or "column", got ${JSON.stringify(layout)}`);
    if (!Array.isArray(frames) || frames.length === 0) {
      throw new SpaceActError('invalid-argument', 'strobe needs at least one scene');
    }
    const texts = labels ?? strobeLabels(frames.length);
    if (texts.length !== frames.length || texts.some((t) => typeof t !== 'string')) {
      throw new SpaceActError('invalid-argument', `strobe needs one label per frame (${frames.length}), got ${texts.length}`);
    }
    const started = performance.now();
    const scenes = frames.map((f, i) => checkScene(f, `frames[${i}]`));
    const request = this.request('rgb', camera, opts.width, opts.height);
    this.counters.prepareMs += performance.now() - started;
    const pictures: { png: Buffer; key: string }[] = [];
    // A world at rest gives the same frame five times: it is drawn once.
    for (const s of scenes) pictures.push(await this.picture(s, request));
    const images = pictures.map((p) => p.png);
    const compose = layout === 'row' ? composeRow : composeColumn;
    const strip = await this.composite(['strobe', layout, pictures.map((p) => p.key), texts], () => compose(images, { labels: texts, separator: 6 }));
    return { frames: images, strip };
  }

  /**
   * The split-screen rollback image: left the violating state with `highlight.bodies` in
   * magenta, `highlight.others` tinted cyan, the target tinted and ringed amber and the contact
   * point marked; right the state it was rolled back to; each under a label (default
   * "VIOLATION" / "ROLLED BACK"), and `opts.caption` written under both. With `split: false`
   * only the rolled-back state.
   */
  async rollback(
    violating: SceneDescription,
    restored: SceneDescription,
    camera: CameraSpec,
    highlight: Highlight,
    labels: { left?: string; right?: string } = {},
    opts: RollbackOptions = {},
  ): Promise<Buffer> {
    const started = performance.now();
    const left = checkScene(violating, 'violating');
    const right = checkScene(restored, 'restored');
    const mark = checkHighlight(highlight, left);
    const request = this.request('rgb', camera, opts.width, opts.height);
    this.counters.prepareMs += performance.now() - started;
    if (opts.split === false) return (await this.picture(right, request)).png;
    const a = await this.picture(left, { ...request, highlight: mark });
    // The rolled-back state is usually the view the agent saw before the call: drawn already.
    const b = await this.picture(right, request);
    const texts = [labels.left ?? 'VIOLATION', labels.right ?? 'ROLLED BACK'];
    return this.composite(['rollback', a.key, b.key, texts, opts.caption ?? null], async () => {
      const row = await composeRow([a.png, b.png], {
        labels: texts,
        labelStyles: [{ background: '#8f1d1d' }, { background: '#1e5b33' }],
        separator: 8,
      });
      return opts.caption ? withCaption(row, opts.caption) : row;
    });
  }

  /** Closes the browser. Safe to call more than once; the renderer cannot be used afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    this.cache.clear();
    await this.queue.catch(() => undefined);
    await this.host.close();
  }

  private request(mode: ViewMode, camera: CameraSpec, width?: number, height?: number): FrameRequest {
    const c = checkCamera(camera);
    return {
      mode,
      width: width === undefined ? this.width : checkSize(width, 'width'),
      height: height === undefined ? this.height : checkSize(height, 'height'),
      camera: {
        azimuth: c.azimuth,
        elevation: c.elevation,
        distance: c.distance,
        target: c.target,
        fov: c.fov ?? DEFAULT_FOV,
        projection: c.projection ?? 'perspective',
        orthoHeight: orthoHeightOf(c),
      },
    };
  }

  /**
   * The framing measurement of what {@link render} would draw for this scene and camera: per
   * body its visible pixel count (an id buffer with depth, so what stands in front counts) and
   * whether it is cut by the frame; per ruler label its rectangle and whether it is shown,
   * thinned, occluded, cut by the frame or overlapping, and for a shown one the bodies its plate
   * covers; with `alone`, those bodies' pixels with nothing else drawn; with `byShape`, those
   * bodies shape by shape (each shape drawn alone, and how much of it the picture shows, what
   * covers the rest). Check it with `checkViewRule` (view-rule.ts).
   */
  async measure(scene: SceneDescription, camera: CameraSpec, opts: { width?: number; height?: number; alone?: string[]; byShape?: string[] } = {}): Promise<MeasureResult> {
    const s = checkScene(scene);
    const request = this.request('measure', camera, opts.width, opts.height);
    if (opts.alone?.length) request.alone = [...opts.alone];
    if (opts.byShape?.length) request.byShape = [...opts.byShape];
    const result = (await this.draw(s, request)) as MeasureResult;
    // NaN does not survive the trip from the page (a label behind the camera has no rectangle).
    for (const l of result.labels) l.rect = l.rect.map((v) => (typeof v === 'number' ? v : NaN)) as LabelMeasure4;
    return result;
  }

  private draw(scene: SceneDescription, request: FrameRequest): Promise<ImageResult | MaskResult | MeasureResult> {
    const job = this.queue.then(() => this.drawNow(scene, request));
    this.queue = job.catch(() => undefined);
    return job;
  }

  private async drawNow(scene: SceneDescription, request: FrameRequest): Promise<ImageResult | MaskResult | MeasureResult> {
    for (let attempt = 1; ; attempt++) {
      const { page, generation } = await this.host.ready();
      const diffStart = performance.now();
      const { update, commit } = this.mirror.diff(scene, generation);
      this.counters.prepareMs += performance.now() - diffStart;
      const callStart = performance.now();
      try {
        const result = await withTimeout(
          page.evaluate(
            (u: SceneUpdate, r: FrameRequest) => (window as unknown as { __spaceact: PageApi }).__spaceact.frame(u, r),
            update,
            request,
          ),
          this.timeoutMs,
        );
        this.lastPageCallMs = performance.now() - callStart;
        commit();
        return result;
      } catch (err) {
        this.mirror.invalidate();
        const message = (err as Error).message;
        if (!lostBrowser(err) && this.host.healthy()) {
          throw new SpaceActError('browser', `the page failed to draw: ${message}`, { pageError: this.host.pageError() });
        }
        await this.host.kill();
        if (attempt >= 2) {
          throw new SpaceActError('browser', `Chromium failed twice in a row while drawing: ${message}`, { attempts: attempt });
        }
      }
    }
  }
}
