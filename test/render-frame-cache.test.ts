/**
 * Frame reuse: a picture of an unchanged scene and camera is served from the renderer's frame
 * cache, byte for byte what a renderer without the cache draws; any change of pose, camera or
 * view draws afresh; a caller changing a returned buffer changes nothing kept; a closed
 * renderer serves nothing.
 */
import { expect } from 'chai';
import { SpaceActError } from '../core/errors.ts';
import type { SceneDescription } from '../sim/types.ts';
import type { CameraSpec } from '../render/camera-spec.ts';
import { FrameCache } from '../render/frame-cache.ts';
import { Renderer } from '../render/renderer.ts';

const SCENE: SceneDescription = {
  bodies: [
    { name: 'a', shapes: [{ type: 'box', half: [0.1, 0.1, 0.1] }], pose: { p: [0, 0.1, 0], q: [0, 0, 0, 1] }, color: '#c0392b', opacity: 1, visible: true },
    { name: 'b', shapes: [{ type: 'ball', radius: 0.08 }], pose: { p: [0.25, 0.08, 0.1], q: [0, 0, 0, 1] }, color: '#2e86de', opacity: 1, visible: true },
  ],
  rulers: [],
  ground: { y: 0 },
};
const CAMERA: CameraSpec = { azimuth: 30, elevation: 30, distance: 1.4, target: [0, 0.1, 0] };

describe('renderer frame cache', function () {
  this.timeout(120000);
  let cached: Renderer;
  let uncached: Renderer;
  before(() => {
    cached = new Renderer({ width: 96, height: 96 });
    uncached = new Renderer({ width: 96, height: 96, frameCache: 0 });
  });
  after(async () => {
    await cached.close();
    await uncached.close();
  });

  it('serves an unchanged scene and camera without drawing, with the bytes a renderer without the cache draws', async () => {
    const first = await cached.render(SCENE, CAMERA);
    const drawn = cached.stats().frames;
    first.fill(0); // the caller's copy: what is kept must not change
    const again = await cached.render(structuredClone(SCENE), { ...CAMERA });
    expect(cached.stats().frames).to.equal(drawn);
    expect(cached.stats().reused).to.be.greaterThan(0);
    const fresh = await uncached.render(SCENE, CAMERA);
    expect(Buffer.compare(again, fresh)).to.equal(0);
    const freshAgain = await uncached.render(SCENE, CAMERA);
    expect(uncached.stats().frames).to.equal(2);
    expect(uncached.stats().reused).to.equal(0);
    expect(Buffer.compare(freshAgain, fresh)).to.equal(0);
  });

  it('draws afresh when a pose, the camera or the view changes', async () => {
    await cached.render(SCENE, CAMERA);
    const before = cached.stats().frames;
    const moved = structuredClone(SCENE);
    moved.bodies[1].pose.p = [0.25, 0.08, 0.12];
    const a = await cached.render(moved, CAMERA);
    const b = await cached.render(SCENE, { ...CAMERA, azimuth: 31 });
    const c = await cached.render(SCENE, CAMERA, { view: 'depth' });
    expect(cached.stats().frames).to.equal(before + 3);
    expect(Buffer.compare(a, await uncached.render(moved, CAMERA))).to.equal(0);
    expect(Buffer.compare(b, await uncached.render(SCENE, { ...CAMERA, azimuth: 31 }))).to.equal(0);
    expect(Buffer.compare(c, await uncached.render(SCENE, CAMERA, { view: 'depth' }))).to.equal(0);
  });

  it('keeps a strobe strip of a world at rest as one drawn frame', async () => {
    const local = new Renderer({ width: 64, height: 64 });
    try {
      const out = await local.strobe([SCENE, SCENE, SCENE], CAMERA, ['t0', 't1', 't2']);
      expect(local.stats().frames).to.equal(1);
      expect(out.frames).to.have.length(3);
      out.frames.forEach((f) => expect(Buffer.compare(f, out.frames[0])).to.equal(0));
    } finally {
      await local.close();
    }
  });

  it('bounds what it keeps by entries and bytes, least recently used first', () => {
    const cache = new FrameCache(2, 10);
    cache.set('a', Buffer.alloc(4));
    cache.set('b', Buffer.alloc(4));
    cache.get('a');
    cache.set('c', Buffer.alloc(4));
    expect(cache.get('b')).to.equal(undefined);
    expect(cache.get('a')).to.not.equal(undefined);
    cache.set('d', Buffer.alloc(8));
    expect(cache.size).to.equal(1);
    cache.set('huge', Buffer.alloc(11));
    expect(cache.get('huge')).to.equal(undefined);
  });

  it('refuses bad sizes and serves nothing once closed', async () => {
    expect(() => new Renderer({ frameCache: -1 })).to.throw(SpaceActError);
    const local = new Renderer({ width: 64, height: 64 });
    await local.render(SCENE, CAMERA);
    await local.close();
    let err: unknown;
    try {
      await local.render(SCENE, CAMERA);
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(SpaceActError);
    expect((err as SpaceActError).code).to.equal('invalid-state');
  });
});
