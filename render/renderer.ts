import { SpaceActError } from '../core/errors.ts';
import type { Highlight, SceneDescription } from '../sim/types.ts';
import type { CameraSpec } from './camera-spec.ts';
import { ChromiumHost } from './chromium.ts';
import { composeRow, withCaption } from './compose.ts';
import { DEFAULT_FOV, orthoHeightOf } from './camera-frame.ts';
import type { DimensionSpec, FrameRequest, ImageResult, MaskResult, MeasureResult, PageApi, SceneUpdate, ViewMode } from './page/protocol.ts';

export type { BodyMeasure, DimensionSpec, LabelMeasure, MeasureResult } from './page/protocol.ts';
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
  private queue: Promise<unknown> = Promise.resolve();

  constructor(opts: { width?: number; height?: number; executablePath?: string; timeoutMs?: number } = {}) {
    this.width = checkSize(opts.width ?? DEFAULT_SIZE, 'width');
    this.height = checkSize(opts.height ?? DEFAULT_SIZE, 'height');
    this.timeoutMs = opts.timeoutMs ?? 30000;
    if (!(this.timeoutMs > 0)) throw new SpaceActError('invalid-argument', 'timeoutMs must be positive', { timeoutMs: opts.timeoutMs });
    this.host = new ChromiumHost(opts.executablePath, Math.max(30000, this.timeoutMs));
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
    const s = checkScene(scene);
    const request = this.request(view, camera, opts.width, opts.height);
    if (opts.highlight) request.highlight = checkHighlight(opts.highlight, s);
    if (view === 'lines') request.lines = { hidden: opts.hiddenLines === true, dimensions: checkDimensions(opts.dimensions ?? []) };
    const result = (await this.draw(s, request)) as ImageResult;
    return Buffer.from(result.png, 'base64');
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
   * from one camera, and a strip of them side by side under labels (default "t − 1.00 s" …
   * "t = now").
   */
  async strobe(
    frames: SceneDescription[],
    camera: CameraSpec,
    labels?: string[],
    opts: { width?: number; height?: number } = {},
  ): Promise<{ frames: Buffer[]; strip: Buffer }> {
    if (!Array.isArray(frames) || frames.length === 0) {
      throw new SpaceActError('invalid-argument', 'strobe needs at least one scene');
    }
    const texts = labels ?? strobeLabels(frames.length);
    if (texts.length !== frames.length || texts.some((t) => typeof t !== 'string')) {
      throw new SpaceActError('invalid-argument', `strobe needs one label per frame (${frames.length}), got ${texts.length}`);
    }
    const scenes = frames.map((f, i) => checkScene(f, `frames[${i}]`));
    const request = this.request('rgb', camera, opts.width, opts.height);
    const images: Buffer[] = [];
    for (const s of scenes) images.push(Buffer.from(((await this.draw(s, request)) as ImageResult).png, 'base64'));
    return { frames: images, strip: await composeRow(images, { labels: texts, separator: 6 }) };
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
    const left = checkScene(violating, 'violating');
    const right = checkScene(restored, 'restored');
    const mark = checkHighlight(highlight, left);
    const request = this.request('rgb', camera, opts.width, opts.height);
    if (opts.split === false) return Buffer.from(((await this.draw(right, request)) as ImageResult).png, 'base64');
    const a = Buffer.from(((await this.draw(left, { ...request, highlight: mark })) as ImageResult).png, 'base64');
    const b = Buffer.from(((await this.draw(right, request)) as ImageResult).png, 'base64');
    const row = await composeRow([a, b], {
      labels: [labels.left ?? 'VIOLATION', labels.right ?? 'ROLLED BACK'],
      labelStyles: [{ background: '#8f1d1d' }, { background: '#1e5b33' }],
      separator: 8,
    });
    return opts.caption ? withCaption(row, opts.caption) : row;
  }

  /** Closes the browser. Safe to call more than once; the renderer cannot be used afterwards. */
  async close(): Promise<void> {
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
   * thinned, occluded, cut by the frame or overlapping. Check it with `checkViewRule`
   * (view-rule.ts).
   */
  async measure(scene: SceneDescription, camera: CameraSpec, opts: { width?: number; height?: number } = {}): Promise<MeasureResult> {
    const s = checkScene(scene);
    const result = (await this.draw(s, this.request('measure', camera, opts.width, opts.height))) as MeasureResult;
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
      const { update, commit } = this.mirror.diff(scene, generation);
      try {
        const result = await withTimeout(
          page.evaluate(
            (u: SceneUpdate, r: FrameRequest) => (window as unknown as { __spaceact: PageApi }).__spaceact.frame(u, r),
            update,
            request,
          ),
          this.timeoutMs,
        );
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
