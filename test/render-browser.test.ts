import { existsSync } from 'node:fs';
import { expect } from 'chai';
import { SpaceActError } from '../core/errors.ts';
import type { SceneDescription } from '../sim/types.ts';
import type { CameraSpec } from '../render/camera-spec.ts';
import { resolveChromium } from '../render/browser-path.ts';
import { Renderer } from '../render/renderer.ts';

const SCENE: SceneDescription = {
  bodies: [
    { name: 'a', shapes: [{ type: 'box', half: [0.1, 0.1, 0.1] }], pose: { p: [0, 0.1, 0], q: [0, 0, 0, 1] }, color: '#c0392b', opacity: 1, visible: true },
    { name: 'b', shapes: [{ type: 'ball', radius: 0.08 }], pose: { p: [0.25, 0.08, 0.1], q: [0, 0, 0, 1] }, color: '#2e86de', opacity: 1, visible: true },
  ],
  rulers: [{ from: [-0.3, 0, 0.2], to: [0.3, 0, 0.2] }],
  ground: { y: 0 },
};
const CAMERA: CameraSpec = { azimuth: 30, elevation: 30, distance: 1.4, target: [0, 0.1, 0] };

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const waitFor = async (test: () => boolean, ms = 5000): Promise<boolean> => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (test()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return test();
};

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

describe('renderer browser lifecycle (headless Chromium)', function () {
  this.timeout(60000);
  let renderer: Renderer;
  before(() => {
    // A hang timeout short enough for the hang test, long enough for a relaunch on a busy machine
    // (tests run two files at once); a 96² render takes milliseconds.
    renderer = new Renderer({ width: 96, height: 96, timeoutMs: 10_000, frameCache: 0 });
  });
  after(async () => {
    await renderer.close();
  });

  it('launches lazily, makes no network request, and would count one if the page tried', async () => {
    expect(renderer.chromium.pid).to.equal(undefined);
    await renderer.render(SCENE, CAMERA);
    await renderer.render(SCENE, CAMERA, { view: 'depth' });
    await renderer.mask(SCENE, CAMERA);
    expect(renderer.chromium.pid).to.be.a('number');
    expect(renderer.chromium.counters().requests).to.equal(0);
    // The counter is live: a request made from the page is seen (and refused).
    const { page } = await renderer.chromium.ready();
    const outcome = await page.evaluate('fetch("http://example.com/x").then(() => "loaded", () => "refused")');
    expect(outcome).to.equal('refused');
    expect(renderer.chromium.counters().requests).to.equal(1);
  });

  it('survives SIGKILL of Chromium between two renders, with identical bytes after the relaunch', async () => {
    const before = await renderer.render(SCENE, CAMERA);
    const pid = renderer.chromium.pid!;
    const profile = renderer.chromium.profileDir!;
    const launches = renderer.chromium.counters().launches;
    process.kill(pid, 'SIGKILL');
    const after = await renderer.render(SCENE, CAMERA);
    expect(renderer.chromium.pid).to.not.equal(pid);
    expect(renderer.chromium.counters().launches).to.equal(launches + 1);
    expect(Buffer.compare(before, after)).to.equal(0);
    expect(existsSync(profile)).to.equal(false);
  });

  it('relaunches after a hung page (a render taking longer than timeoutMs) and succeeds', async () => {
    const before = await renderer.render(SCENE, CAMERA);
    const { page } = await renderer.chromium.ready();
    const pid = renderer.chromium.pid!;
    void page.evaluate('for (;;) {}').catch(() => undefined);
    const after = await renderer.render(SCENE, CAMERA);
    expect(renderer.chromium.pid).to.not.equal(pid);
    expect(Buffer.compare(before, after)).to.equal(0);
    expect(await waitFor(() => !alive(pid))).to.equal(true);
  });

  it('serves concurrent calls one at a time, each with its own result', async () => {
    const views = [0, 90, 180].map((azimuth) => ({ ...CAMERA, azimuth }));
    const sequential: Buffer[] = [];
    for (const v of views) sequential.push(await renderer.render(SCENE, v));
    const parallel = await Promise.all(views.map((v) => renderer.render(SCENE, v)));
    parallel.forEach((png, i) => expect(Buffer.compare(png, sequential[i])).to.equal(0));
  });

  it('reports a missing browser as a SpaceActError that says how to get one', async () => {
    expect(() => resolveChromium('/nonexistent/chromium')).to.throw(SpaceActError, /ensure-chromium\.sh/);
    const broken = new Renderer({ executablePath: '/nonexistent/chromium' });
    const err = await rejection(broken.render(SCENE, CAMERA));
    await broken.close();
    expect(err).to.be.instanceOf(SpaceActError);
    expect((err as SpaceActError).code).to.equal('browser');
  });

  it('closes cleanly: the process ends, the profile is removed, close() is idempotent, later calls fail', async () => {
    await renderer.render(SCENE, CAMERA);
    const pid = renderer.chromium.pid!;
    const profile = renderer.chromium.profileDir!;
    await renderer.close();
    await renderer.close();
    expect(await waitFor(() => !alive(pid))).to.equal(true);
    expect(existsSync(profile)).to.equal(false);
    const err = await rejection(renderer.render(SCENE, CAMERA));
    expect((err as SpaceActError).code).to.equal('invalid-state');
  });
});
