import { expect } from 'chai';
import type { KeyLight, SceneDescription } from '../sim/types.ts';
import type { CameraSpec } from '../render/camera-spec.ts';
import { decodePng, type Pixels } from '../render/pixels.ts';
import { Renderer } from '../render/renderer.ts';
import { SpaceActError } from '../core/errors.ts';

const SIZE = 768;
const ORTHO_HEIGHT = 0.8;
const PX_PER_M = SIZE / ORTHO_HEIGHT;
/** The box: 10 cm square, 20 cm tall, standing on the ground at the origin. */
const HALF = 0.05;
const HEIGHT = 0.2;

const boxScene = (light?: KeyLight): SceneDescription => ({
  bodies: [
    { name: 'box', shapes: [{ type: 'box', half: [HALF, HEIGHT / 2, HALF] }], pose: { p: [0, HEIGHT / 2, 0], q: [0, 0, 0, 1] }, color: '#3060d0', opacity: 1, visible: true },
  ],
  rulers: [],
  ground: { y: 0, size: 4 },
  ...(light ? { light } : {}),
});

/** Straight down, orthographic: image right is world +X, image up is world −Z. */
const top = (target: [number, number, number]): CameraSpec => ({ azimuth: 0, elevation: 90, distance: 2, target, projection: 'orthographic', orthoHeight: ORTHO_HEIGHT });

const lum = (img: Pixels, x: number, y: number): number => {
  const i = (y * img.width + x) * img.channels;
  return 0.299 * img.data[i] + 0.587 * img.data[i + 1] + 0.114 * img.data[i + 2];
};
/** How much bluer than red or green a pixel is: the box's top face is strongly blue, the ground is not. */
const blueness = (img: Pixels, x: number, y: number): number => {
  const i = (y * img.width + x) * img.channels;
  return img.data[i + 2] - Math.max(img.data[i], img.data[i + 1]);
};
const isBox = (img: Pixels, x: number, y: number): boolean => blueness(img, x, y) > 20;

/** Fractional step where `f` first crosses `threshold` on a walk from `from` on which f(from) is on the other side. */
function crossing(f: (j: number) => number, from: number, threshold: number): number {
  const above = f(from) > threshold;
  let j = from;
  while (f(j) > threshold === above) j++;
  const a = f(j - 1);
  const b = f(j);
  return j - 1 + (threshold - a) / (b - a);
}

/**
 * Length of the shadow in pixels, measured in the picture: walk from `start` (inside the box's
 * top face) along (dx, dy) to the box's edge (first pixel that is not the box's blue), then on
 * over the shadow to where the ground's brightness crosses halfway between the shadow's and
 * the lit ground's (interpolated between the two pixels either side).
 */
function shadowLengthPx(img: Pixels, start: [number, number], dx: number, dy: number): { edge: number; tip: number; length: number } {
  let k = 0;
  const at = (j: number): [number, number] => [start[0] + j * dx, start[1] + j * dy];
  while (isBox(img, ...at(k))) k++;
  // Both edges are found the same way, halfway between the values either side, so the
  // antialiased box edge and the shadow's edge are measured alike.
  const edge = crossing((j) => blueness(img, ...at(j)), 0, (blueness(img, ...at(0)) + blueness(img, ...at(k + 4))) / 2);
  const shadow = lum(img, ...at(k + 4));
  const lit = lum(img, ...at(Math.floor(0.95 * Math.min(
    dx > 0 ? img.width - 1 - start[0] : dx < 0 ? start[0] : Infinity,
    dy > 0 ? img.height - 1 - start[1] : dy < 0 ? start[1] : Infinity,
  ))));
  expect(lit - shadow, 'the shadow is darker than the lit ground').to.be.greaterThan(25);
  const tip = crossing((j) => lum(img, ...at(j)), k + 4, (shadow + lit) / 2);
  return { edge, tip, length: tip - edge };
}

describe('key light and shadows (headless Chromium)', function () {
  this.timeout(120000);
  let renderer: Renderer;
  before(() => {
    renderer = new Renderer({ width: SIZE, height: SIZE, frameCache: 0 });
  });
  after(async () => {
    await renderer.close();
  });

  const cases: { light: KeyLight; target: [number, number, number]; dir: [number, number] }[] = [
    // From +X at 30°: the shadow runs towards −X, i.e. left in the picture.
    { light: { azimuth: 90, elevation: 30 }, target: [-0.2, 0, 0], dir: [-1, 0] },
    // From +Z at 50°: the shadow runs towards −Z, i.e. up in the picture.
    { light: { azimuth: 0, elevation: 50 }, target: [0, 0, -0.12], dir: [0, -1] },
    // From −X at 65°: right in the picture.
    { light: { azimuth: -90, elevation: 65, intensity: 3 }, target: [0.1, 0, 0], dir: [1, 0] },
  ];
  for (const { light, target, dir } of cases) {
    it(`a box's shadow under a key light at azimuth ${light.azimuth}°, elevation ${light.elevation}° is h / tan(elevation) long (within 2 %)`, async () => {
      const camera = top(target);
      const png = await renderer.render(boxScene(light), camera);
      const img = await decodePng(png);
      // The box's centre in the picture: the world origin seen from the camera over `target`.
      const start: [number, number] = [Math.round(SIZE / 2 - target[0] * PX_PER_M), Math.round(SIZE / 2 - target[2] * PX_PER_M)];
      expect(isBox(img, ...start), 'the box is where the camera says').to.equal(true);
      const m = shadowLengthPx(img, start, dir[0], dir[1]);
      const measured = m.length / PX_PER_M;
      const expected = HEIGHT / Math.tan((light.elevation * Math.PI) / 180);
      const error = Math.abs(measured - expected) / expected;
      console.log(`      elevation ${light.elevation}°: shadow ${(measured * 100).toFixed(2)} cm measured, ${(expected * 100).toFixed(2)} cm expected (error ${(error * 100).toFixed(2)} %)`);
      expect(error).to.be.lessThan(0.02);
      // Same scene and camera, same bytes.
      expect((await renderer.render(boxScene(light), camera)).equals(png)).to.equal(true);
    });
  }

  it('no shadow when the scene turns shadows off; the default light still casts one', async () => {
    const camera = top([-0.2, 0, 0]);
    const start: [number, number] = [Math.round(SIZE / 2 + 0.2 * PX_PER_M), SIZE / 2];
    const off = await decodePng(await renderer.render(boxScene({ azimuth: 90, elevation: 30, shadows: false }), camera));
    // Just left of the box the ground is as bright as far away from it.
    const near = lum(off, start[0] - Math.round(0.08 * PX_PER_M), start[1]);
    const far = lum(off, 20, start[1]);
    expect(Math.abs(near - far)).to.be.lessThan(6);
    const on = await decodePng(await renderer.render(boxScene({ azimuth: 90, elevation: 30 }), camera));
    expect(far - lum(on, start[0] - Math.round(0.08 * PX_PER_M), start[1])).to.be.greaterThan(25);
  });

  it("a scene's shadow normal bias shortens the shadow by bias / tan(elevation); its map size takes effect and does not outlive the scene", async () => {
    const camera = top([-0.2, 0, 0]);
    const start: [number, number] = [Math.round(SIZE / 2 + 0.2 * PX_PER_M), SIZE / 2];
    const light: KeyLight = { azimuth: 90, elevation: 30 };
    const length = async (l: KeyLight): Promise<number> => shadowLengthPx(await decodePng(await renderer.render(boxScene(l), camera)), start, -1, 0).length / PX_PER_M;
    const tan = Math.tan((30 * Math.PI) / 180);
    const unbiased = await length({ ...light, shadowNormalBias: 0 });
    expect(Math.abs(unbiased - HEIGHT / tan) / (HEIGHT / tan)).to.be.lessThan(0.01);
    const bias = 0.01;
    const shortening = unbiased - (await length({ ...light, shadowNormalBias: bias }));
    console.log(`      unbiased shadow ${(unbiased * 100).toFixed(2)} cm; a ${bias * 1000} mm normal bias shortens it by ${(shortening * 1000).toFixed(1)} mm (${((bias / tan) * 1000).toFixed(1)} mm expected)`);
    expect(shortening).to.be.closeTo(bias / tan, 0.2 * (bias / tan));
    // A different map size draws different bytes; the next scene without one is drawn as before it.
    const plain = await renderer.render(boxScene(light), camera);
    expect((await renderer.render(boxScene({ ...light, shadowMapSize: 512 }), camera)).equals(plain)).to.equal(false);
    expect((await renderer.render(boxScene(light), camera)).equals(plain)).to.equal(true);
  });

  it('refuses a light below the horizon or with a bad field, naming the field', async () => {
    for (const light of [
      { azimuth: 0, elevation: 0 },
      { azimuth: 0, elevation: 95 },
      { azimuth: 'x', elevation: 30 },
      { azimuth: 0, elevation: 30, shadows: 'yes' },
      { azimuth: 0, elevation: 30, shadowNormalBias: -0.001 },
      { azimuth: 0, elevation: 30, shadowMapSize: 3000 },
    ]) {
      try {
        await renderer.render({ ...boxScene(), light } as unknown as SceneDescription, top([0, 0, 0]));
        expect.fail('should have been refused');
      } catch (err) {
        expect(err).to.be.instanceOf(SpaceActError);
        expect((err as SpaceActError).message).to.match(/scene\.light\./);
      }
    }
  });
});
