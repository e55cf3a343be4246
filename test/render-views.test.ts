import { expect } from 'chai';
import RAPIER from '@dimforge/rapier3d-compat';
import { SpaceActError } from '../core/errors.ts';
import type { Quat, SceneBody, SceneDescription, ShapeSpec, Vec3 } from '../sim/types.ts';
import type { CameraSpec } from '../render/camera-spec.ts';
import { decodePng, findPixels, isHighlightPixel } from '../render/pixels.ts';
import { Renderer, silhouetteIoU } from '../render/renderer.ts';

const body = (name: string, shapes: ShapeSpec[], p: Vec3, color = '#d03030', q: Quat = [0, 0, 0, 1]): SceneBody => ({
  name,
  shapes,
  pose: { p, q },
  color,
  opacity: 1,
  visible: true,
});
const cube = (name: string, half: number, p: Vec3, color?: string): SceneBody =>
  body(name, [{ type: 'box', half: [half, half, half] }], p, color);
const scene = (bodies: SceneBody[], extra: Partial<SceneDescription> = {}): SceneDescription => ({ bodies, rulers: [], ...extra });
const ortho = (azimuth: number, elevation: number, orthoHeight: number, target: Vec3 = [0, 0, 0]): CameraSpec => ({
  azimuth,
  elevation,
  distance: 3,
  target,
  projection: 'orthographic',
  orthoHeight,
});
const isRed = (r: number, g: number, b: number): boolean => r > 120 && g < 90 && b < 90;
const SIZE = 128;

/** The error a promise rejects with (fails the test if it resolves). */
async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

describe('renderer views (headless Chromium)', function () {
  this.timeout(60000);
  let renderer: Renderer;
  before(() => {
    renderer = new Renderer({ width: SIZE, height: SIZE });
  });
  after(async () => {
    await renderer.close();
  });

  it('a red cube at the centre of a top view lands at the centre of the mask, at its true size', async () => {
    const s = scene([cube('cube', 0.1, [0, 0, 0])]);
    const m = await renderer.mask(s, ortho(0, 90, 1));
    expect(m.width).to.equal(SIZE);
    expect(m.bits.length).to.equal(SIZE * SIZE);
    let sx = 0;
    let sy = 0;
    for (let i = 0; i < m.bits.length; i++) {
      if (m.bits[i]) {
        sx += i % SIZE;
        sy += Math.floor(i / SIZE);
      }
    }
    expect(m.count).to.equal(m.bits.reduce((a, b) => a + b, 0));
    expect(sx / m.count).to.be.closeTo((SIZE - 1) / 2, 1);
    expect(sy / m.count).to.be.closeTo((SIZE - 1) / 2, 1);
    // 0.2 m of a 1 m wide view: 25.6 px square.
    expect(m.count).to.be.closeTo(25.6 * 25.6, 60);
    const png = await decodePng(m.png);
    expect(findPixels(png, (r) => r === 255).count).to.equal(m.count);
    expect(findPixels(png, (r) => r !== 0 && r !== 255).count).to.equal(0);
    const rgb = await decodePng(await renderer.render(s, ortho(0, 90, 1)));
    const red = findPixels(rgb, isRed);
    expect(red.cx).to.be.closeTo((SIZE - 1) / 2, 1.5);
    expect(red.cy).to.be.closeTo((SIZE - 1) / 2, 1.5);
  });

  it('follows the camera convention: azimuth 0 front, 90 right, elevation ±90 top and bottom', async () => {
    // A marker cube at +X and one at -Z; `only` picks one silhouette at a time.
    const s = scene([cube('px', 0.05, [0.4, 0, 0]), cube('nz', 0.05, [0, 0, -0.4])]);
    const centroid = async (camera: CameraSpec, only: string): Promise<[number, number]> => {
      const m = await renderer.mask(s, camera, { only: [only] });
      let sx = 0;
      let sy = 0;
      m.bits.forEach((v, i) => {
        if (v) {
          sx += i % SIZE;
          sy += Math.floor(i / SIZE);
        }
      });
      expect(m.count, `${only} visible`).to.be.greaterThan(50);
      return [(sx / m.count - (SIZE - 1) / 2) / SIZE, (sy / m.count - (SIZE - 1) / 2) / SIZE];
    };
    // front: +X to the right
    expect((await centroid(ortho(0, 0, 1), 'px'))[0]).to.be.closeTo(0.4, 0.02);
    // right (camera on +X looking at -X): -Z to the right
    expect((await centroid(ortho(90, 0, 1), 'nz'))[0]).to.be.closeTo(0.4, 0.02);
    // top: +X right, -Z up
    expect(await centroid(ortho(0, 90, 1), 'px')).to.satisfy(([x, y]: number[]) => Math.abs(x - 0.4) < 0.02 && Math.abs(y) < 0.02);
    expect((await centroid(ortho(0, 90, 1), 'nz'))[1]).to.be.closeTo(-0.4, 0.02);
    // bottom: +X right, -Z down
    expect((await centroid(ortho(0, -90, 1), 'nz'))[1]).to.be.closeTo(0.4, 0.02);
    // top view turned by azimuth 90: -Z to the right
    expect((await centroid(ortho(90, 90, 1), 'nz'))[0]).to.be.closeTo(0.4, 0.02);
  });

  it('silhouette IoU is 1 for a shape with itself and clearly below 1 for a 90°-turned L', async () => {
    const l: ShapeSpec[] = [
      { type: 'box', half: [0.3, 0.08, 0.08], pose: { p: [0, -0.2, 0], q: [0, 0, 0, 1] } },
      { type: 'box', half: [0.08, 0.25, 0.08], pose: { p: [-0.22, 0.13, 0], q: [0, 0, 0, 1] } },
    ];
    const camera = ortho(0, 0, 1.2);
    const a = await renderer.mask(scene([body('L', l, [0, 0, 0])]), camera);
    const again = await renderer.mask(scene([body('L', l, [0, 0, 0])]), camera);
    const s45 = Math.SQRT1_2;
    const turned = await renderer.mask(scene([body('L', l, [0, 0, 0], '#d03030', [0, 0, s45, s45])]), camera);
    expect(a.count).to.be.greaterThan(1000);
    expect(silhouetteIoU(a.bits, again.bits)).to.equal(1);
    const iou = silhouetteIoU(a.bits, turned.bits);
    expect(iou).to.be.lessThan(0.7);
    expect(iou).to.be.greaterThan(0.05);
    expect(() => silhouetteIoU(a.bits, a.bits.subarray(1))).to.throw(SpaceActError);
  });

  it('leaves invisible bodies out, draws translucent ones, and masks only the chosen bodies', async () => {
    const hidden = { ...cube('hidden', 0.1, [0.3, 0, 0]), visible: false };
    const glass = { ...cube('glass', 0.1, [-0.3, 0, 0], '#3060d0'), opacity: 0.4 };
    const s = scene([cube('solid', 0.1, [0, 0, 0]), hidden, glass]);
    const all = await renderer.mask(s, ortho(0, 0, 1));
    const solidOnly = await renderer.mask(s, ortho(0, 0, 1), { only: ['solid'] });
    expect(all.count).to.be.closeTo(2 * solidOnly.count, 40);
    const rgb = await decodePng(await renderer.render(s, ortho(0, 0, 1)));
    const bluish = findPixels(rgb, (r, g, b) => b > r + 20, [0, 0, SIZE / 3, SIZE]);
    expect(bluish.count).to.be.greaterThan(200);
    expect(findPixels(rgb, isRed, [(2 * SIZE) / 3, 0, SIZE, SIZE]).count).to.equal(0);
  });

  it('shades depth linearly from light (near) to dark (far) on a black background', async () => {
    const s = scene([cube('near', 0.1, [-0.25, 0, 0.3]), cube('far', 0.1, [0.25, 0, -0.3])]);
    const img = await decodePng(await renderer.render(s, ortho(0, 0, 1), { view: 'depth' }));
    const at = (x: number, y: number): number => img.data[(y * img.width + x) * img.channels];
    const c = SIZE / 2;
    const nearGrey = at(Math.round(c - 0.25 * SIZE), c);
    const farGrey = at(Math.round(c + 0.25 * SIZE), c);
    expect(at(2, 2)).to.equal(0);
    // front faces: the near one is the nearest surface (white), the far one the farthest front face
    expect(nearGrey).to.be.greaterThan(245);
    expect(farGrey).to.be.lessThan(nearGrey - 60);
    expect(farGrey).to.be.greaterThan(20);
  });

  it('draws rulers with one tick per minor step and labels, and nothing elsewhere', async () => {
    const ruler = { from: [-0.5, 0, 0] as Vec3, to: [0.5, 0, 0] as Vec3, minor: 0.05, major: 0.25 };
    const img = await decodePng(await renderer.render(scene([], { rulers: [ruler] }), ortho(0, 0, 1.2), { width: 256, height: 256 }));
    // The band is near white; a 1 px tick falling between two pixel columns greys both to ~140.
    const dark = (r: number, g: number, b: number): boolean => r < 190 && g < 190 && b < 190;
    const px = 256 / 1.2;
    const baseline = 128;
    // Along a row 2 px above the ruler line, every tick is one run of dark pixels: 21 ticks.
    const row = baseline - 3;
    let runs = 0;
    let inRun = false;
    for (let x = Math.round(128 - 0.52 * px); x < Math.round(128 + 0.52 * px); x++) {
      const i = (row * 256 + x) * img.channels;
      const d = dark(img.data[i], img.data[i + 1], img.data[i + 2]);
      if (d && !inRun) runs++;
      inRun = d;
    }
    expect(runs).to.equal(21);
    // labels ("0", "25 cm", …) sit above the band; nothing dark below the ruler
    const above = findPixels(img, dark, [0, Math.round(baseline - 0.2 * px), 256, Math.round(baseline - 0.08 * px)]);
    expect(above.count).to.be.greaterThan(100);
    expect(findPixels(img, dark, [0, baseline + 4, 256, 256]).count).to.equal(0);
  });

  it('strobe of a falling ball (Rapier, 0.25 s apart) shows it lower in each frame', async () => {
    await RAPIER.init();
    const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
    const frames: SceneDescription[] = [];
    try {
      world.timestep = 1 / 60;
      const ball = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(0, 5.5, 0));
      world.createCollider(RAPIER.ColliderDesc.ball(0.2), ball);
      world.createCollider(RAPIER.ColliderDesc.cuboid(3, 0.1, 3).setTranslation(0, -0.1, 0));
      for (let step = 0; step <= 60; step++) {
        if (step % 15 === 0) {
          const t = ball.translation();
          const q = ball.rotation();
          frames.push(
            scene([body('ball', [{ type: 'ball', radius: 0.2 }], [t.x, t.y, t.z], '#d03030', [q.x, q.y, q.z, q.w])], {
              ground: { y: 0 },
            }),
          );
        }
        world.step();
      }
    } finally {
      world.free();
    }
    expect(frames).to.have.length(5);
    const camera = ortho(0, 0, 6.4, [0, 3, 0]);
    const { frames: pngs, strip } = await renderer.strobe(frames, camera);
    const ys: number[] = [];
    for (const png of pngs) {
      const red = findPixels(await decodePng(png), isRed);
      expect(red.count).to.be.greaterThan(30);
      ys.push(red.cy);
    }
    for (let i = 1; i < ys.length; i++) expect(ys[i], `frame ${i} below frame ${i - 1}`).to.be.greaterThan(ys[i - 1] + 3);
    const s = await decodePng(strip);
    expect(s.width).to.equal(5 * SIZE + 4 * 6);
    expect(s.height).to.be.greaterThan(SIZE);
    expect(await rejection(renderer.strobe(frames, camera, ['only one']))).to.be.instanceOf(SpaceActError);
  });

  it('rollback image: highlight colour on the left only, contact point marked, and a nosplit form', async () => {
    const violating = scene([cube('mover', 0.12, [-0.05, 0, 0], '#3070c0'), cube('wall', 0.12, [0.18, 0, 0], '#808080')], {
      ground: { y: -0.12 },
    });
    const restored = scene([cube('mover', 0.12, [-0.35, 0, 0], '#3070c0'), cube('wall', 0.12, [0.18, 0, 0], '#808080')], {
      ground: { y: -0.12 },
    });
    const camera: CameraSpec = { azimuth: 30, elevation: 25, distance: 2.2, target: [0, 0, 0] };
    const png = await renderer.rollback(violating, restored, camera, { bodies: ['mover'], point: [0.06, 0, 0] }, {
      left: 'VIOLATION: collision',
    });
    const img = await decodePng(png);
    expect(img.width).to.equal(2 * SIZE + 8);
    const left = findPixels(img, isHighlightPixel, [0, 0, SIZE, img.height]);
    const right = findPixels(img, isHighlightPixel, [SIZE, 0, img.width, img.height]);
    expect(left.count).to.be.greaterThan(300);
    expect(right.count).to.equal(0);
    // the marker is drawn over everything, at the contact point (right of the mover's centre)
    const plain = await decodePng(
      await renderer.render(violating, camera, { highlight: { bodies: [], point: [0.06, 0, 0] }, width: 256, height: 256 }),
    );
    const marker = findPixels(plain, isHighlightPixel);
    expect(marker.count).to.be.greaterThan(20);
    // the contact point is right of the view's centre (the camera looks at the origin)
    expect(marker.cx).to.be.greaterThan(128);
    const nosplit = await renderer.rollback(violating, restored, camera, { bodies: ['mover'] }, {}, { split: false });
    expect(Buffer.compare(nosplit, await renderer.render(restored, camera))).to.equal(0);
    expect(findPixels(await decodePng(nosplit), isHighlightPixel).count).to.equal(0);
  });

  it('same scene and camera give identical PNG bytes, whatever was drawn in between', async () => {
    const a = scene([cube('a', 0.1, [0, 0, 0]), cube('b', 0.05, [0.2, 0.1, 0], '#20a040')], {
      rulers: [{ from: [-0.3, -0.1, 0.1], to: [0.3, -0.1, 0.1] }],
      ground: { y: -0.1 },
    });
    const moved = scene([cube('b', 0.05, [0.1, 0.3, 0], '#20a040'), cube('c', 0.07, [-0.2, 0, 0], '#2040a0')]);
    const camera: CameraSpec = { azimuth: 35, elevation: 30, distance: 1.5, target: [0, 0, 0] };
    const first = await renderer.render(a, camera);
    await renderer.render(moved, camera);
    await renderer.render(a, camera, { view: 'depth' });
    const second = await renderer.render(a, camera);
    expect(Buffer.compare(first, second)).to.equal(0);
    const other = await renderer.render(a, { ...camera, azimuth: 36 });
    expect(Buffer.compare(first, other)).to.not.equal(0);
  });

  it('rejects bad scenes and cameras with a SpaceActError and keeps working', async () => {
    const good = scene([cube('a', 0.1, [0, 0, 0])]);
    const camera = ortho(0, 0, 1);
    const before = await renderer.render(good, camera);
    const bad: [unknown, unknown, RegExp][] = [
      [scene([cube('a', -0.1, [0, 0, 0])]), camera, /half extents/],
      [scene([cube('a', 0.1, [0, 0, 0]), cube('a', 0.1, [1, 0, 0])]), camera, /duplicate body name/],
      [scene([cube('a', 0.1, [0, 0, 0], '#ff00ff')]), camera, /highlight colour/],
      [scene([cube('a', 0.1, [0, 0, 0], 'not-a-colour')]), camera, /CSS colour/],
      [scene([body('h', [{ type: 'hull', points: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]] }], [0, 0, 0])]), camera, /one plane/],
      [good, { ...camera, elevation: 91 }, /elevation/],
      [good, { ...camera, distance: 0 }, /distance/],
      [{ bodies: 'nope' }, camera, /bodies/],
    ];
    for (const [s, c, message] of bad) {
      let caught: unknown;
      try {
        await renderer.render(s as SceneDescription, c as CameraSpec);
      } catch (err) {
        caught = err;
      }
      expect(caught, String(message)).to.be.instanceOf(SpaceActError);
      expect((caught as SpaceActError).message).to.match(message);
    }
    const unknown = await rejection(renderer.render(good, camera, { highlight: { bodies: ['ghost'] } }));
    expect((unknown as SpaceActError).code).to.equal('unknown-body');
    expect(Buffer.compare(before, await renderer.render(good, camera))).to.equal(0);
  });
});
