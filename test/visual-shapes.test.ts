/**
 * Drawn-only shapes (`BodySpec.visual`): the renderer draws them, the physics never sees them
 * (no contacts, no mass, no sweeps, no bounding box, no state hash), and BrickSystem parts carry
 * their studs as such shapes.
 */
import { expect } from 'chai';
import { BRICK_DEFAULTS, BRICK_WORLD_OPTIONS, BrickSystem } from '../sim/bricks.ts';
import { SpaceActError } from '../core/errors.ts';
import type { BodySpec, Pose, SceneDescription, ShapeSpec, Vec3 } from '../sim/types.ts';
import { World } from '../sim/world.ts';
import type { CameraSpec } from '../render/camera-spec.ts';
import { decodePng, findPixels } from '../render/pixels.ts';
import { Renderer } from '../render/renderer.ts';
import { checkScene } from '../render/scene-check.ts';
import { bodyKey, SceneMirror } from '../render/scene-mirror.ts';

const I: Pose['q'] = [0, 0, 0, 1];
const at = (p: Vec3): Pose => ({ p, q: I });
const box = (half: Vec3, p?: Vec3): ShapeSpec => (p ? { type: 'box', half, pose: at(p) } : { type: 'box', half });

/** A table: a thin slab collider at y ∈ [−0.1, 0] and, when asked, a tall drawn-only block on it (y ∈ [0, 0.3]). */
function table(visual: boolean, extra: Partial<BodySpec> = {}): BodySpec {
  return {
    name: 'table',
    kind: 'static',
    pose: at([0, -0.05, 0]),
    shapes: [box([0.5, 0.05, 0.5])],
    ...(visual ? { visual: [box([0.2, 0.15, 0.2], [0, 0.2, 0])] } : {}),
    color: '#2060d0',
    ...extra,
  };
}

describe('drawn-only body shapes (BodySpec.visual)', function () {
  this.timeout(60000);

  describe('physics ignores them', () => {
    let world: World;
    beforeEach(async () => {
      world = await World.create();
    });
    afterEach(() => world.free());

    it('a dropped box falls through the drawn block and lands on the collider', () => {
      world.addBody(table(true));
      world.addBody({ name: 'crate', kind: 'dynamic', pose: at([0, 0.6, 0]), shapes: [box([0.05, 0.05, 0.05])] });
      world.advance(1.5);
      // Resting on the slab (top at y = 0), 25 cm below the drawn block's top.
      expect(world.getPose('crate').p[1]).to.be.closeTo(0.05, 0.002);
      expect(world.contactsOf('crate')).to.deep.equal(['table']);
    });

    it('the same block as a collider stops the box (the control)', () => {
      world.addBody({ ...table(false), shapes: [box([0.5, 0.05, 0.5]), box([0.2, 0.15, 0.2], [0, 0.2, 0])] });
      world.addBody({ name: 'crate', kind: 'dynamic', pose: at([0, 0.6, 0]), shapes: [box([0.05, 0.05, 0.05])] });
      world.advance(1.5);
      expect(world.getPose('crate').p[1]).to.be.closeTo(0.35, 0.002);
    });

    it('a sweep passes through drawn shapes of static and dynamic bodies, but not through their colliders', () => {
      world.addBody(table(true));
      // A dynamic body whose drawn part hangs right across the path (its collider is off to the side).
      world.addBody({ name: 'lamp', kind: 'dynamic', pose: at([0.4, 0.05, 0.4]), shapes: [box([0.05, 0.05, 0.05])], visual: [box([0.02, 0.02, 0.3], [-0.4, 0.1, -0.4])] });
      world.addBody({ name: 'probe', kind: 'kinematic', pose: at([-0.45, 0.1, 0]), shapes: [box([0.03, 0.03, 0.03])] });
      const through = world.sweep('probe', at([0.45, 0.1, 0]));
      expect(through.hit).to.equal(false);
      expect(through.toi).to.equal(1);
      world.moveSwept('probe', at([0.45, 0.1, 0]));
      expect(world.getPose('probe').p[0]).to.be.closeTo(0.45, 1e-6);
      // Lowered onto the table through the drawn block: stopped by the slab only.
      const down = world.sweep('probe', at([0, -0.2, 0]));
      expect(down.hit).to.equal(true);
      expect(down.bodies).to.deep.equal(['table']);
      expect(down.reached.p[1]).to.be.closeTo(0.03, 1e-3);
      // Across the lamp's collider it does stop.
      world.setPose('probe', at([0.4, 0.05, -0.2]));
      const lamp = world.sweep('probe', at([0.4, 0.05, 0.45]));
      expect(lamp.hit).to.equal(true);
      expect(lamp.bodies).to.deep.equal(['lamp']);
    });

    it('a dynamic body rests on its collider while its drawn part sinks into the floor', () => {
      world.addBody({ name: 'floor', kind: 'static', pose: at([0, -0.05, 0]), shapes: [box([1, 0.05, 1])] });
      world.addBody({ name: 'stool', kind: 'dynamic', pose: at([0, 0.2, 0]), shapes: [box([0.1, 0.05, 0.1])], visual: [box([0.02, 0.1, 0.02], [0, -0.1, 0])] });
      world.advance(1.5);
      expect(world.getPose('stool').p[1]).to.be.closeTo(0.05, 0.002);
      expect(world.settle()).to.equal(null);
    });

    it('adds no mass and no bounding box, keeps the state hash, and survives snapshots', async () => {
      const plain = await World.create();
      try {
        const crate: BodySpec = { name: 'crate', kind: 'dynamic', pose: at([0, 0.3, 0]), shapes: [box([0.05, 0.05, 0.05])], material: { density: 500 } };
        plain.addBody(table(false));
        plain.addBody(crate);
        world.addBody(table(true));
        world.addBody({ ...crate, visual: [{ type: 'ball', radius: 0.2, pose: at([0, 0.3, 0]) }] });
        expect(world.mass('crate')).to.equal(plain.mass('crate'));
        expect(world.mass('crate')).to.be.closeTo(500 * 0.001, 1e-9);
        expect(world.centerOfMass('crate')).to.deep.equal(plain.centerOfMass('crate'));
        expect(world.bodyAabb('table')).to.deep.equal(plain.bodyAabb('table'));
        expect(world.bodyAabb('crate')).to.deep.equal(plain.bodyAabb('crate'));
        // Specs are not hashed; the same motion gives the same hash with or without drawn shapes.
        world.advance(0.5);
        plain.advance(0.5);
        expect(world.stateHash()).to.equal(plain.stateHash());
        const snap = world.snapshot();
        world.removeBody('crate');
        world.restore(snap);
        expect(world.bodySpec('crate').visual).to.deep.equal([{ type: 'ball', radius: 0.2, pose: at([0, 0.3, 0]) }]);
        const drawn = world.describe();
        expect(drawn.find((b) => b.name === 'table')!.visual).to.deep.equal([box([0.2, 0.15, 0.2], [0, 0.2, 0])]);
        expect(plain.describe().every((b) => b.visual === undefined)).to.equal(true);
        // describe() hands out copies.
        drawn.find((b) => b.name === 'table')!.visual![0] = { type: 'ball', radius: 1 };
        expect(world.describe().find((b) => b.name === 'table')!.visual![0].type).to.equal('box');
      } finally {
        plain.free();
      }
    });

    it('bad drawn shapes are refused like colliders and nothing is added; meshes are allowed on any body', () => {
      const bad: Array<[unknown, string]> = [
        [{ type: 'box', half: [0.1, -0.1, 0.1] }, 'spec.visual[0].half[1]'],
        [{ type: 'cone', radius: 0.1 }, 'spec.visual[0].type'],
        [{ type: 'hull', points: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]] }, 'spec.visual[0].points'],
        [{ type: 'ball', radius: 0.1, pose: { p: [0, Number.NaN, 0], q: I } }, 'spec.visual[0].pose.p[1]'],
      ];
      for (const [shape, path] of bad) {
        const err = catchError(() => world.addBody({ ...table(false), visual: [shape as ShapeSpec] }));
        expect(err, path).to.be.instanceOf(SpaceActError);
        expect((err as SpaceActError).message).to.include(path);
        expect(world.hasBody('table')).to.equal(false);
      }
      expect(catchError(() => world.addBody({ ...table(false), visual: 'studs' as unknown as ShapeSpec[] }))).to.be.instanceOf(SpaceActError);
      expect(world.bodyNames()).to.deep.equal([]);
      const tri: ShapeSpec = { type: 'mesh', vertices: [[0, 0, 0], [0.1, 0, 0], [0, 0.1, 0]], indices: [[0, 1, 2]] };
      world.addBody({ name: 'flag', kind: 'dynamic', pose: at([0, 1, 0]), shapes: [box([0.01, 0.01, 0.01])], visual: [tri] });
      expect(world.bodySpec('flag').visual).to.deep.equal([tri]);
      // An empty list is no drawn shapes at all.
      world.addBody({ ...table(false), visual: [] });
      expect(world.describe().find((b) => b.name === 'table')!.visual).to.equal(undefined);
    });
  });

  describe('the renderer draws them', () => {
    let renderer: Renderer;
    before(() => {
      renderer = new Renderer({ width: 128, height: 128 });
    });
    after(async () => {
      await renderer.close();
    });

    const top: CameraSpec = { azimuth: 0, elevation: 90, distance: 3, target: [0, 0, 0], projection: 'orthographic', orthoHeight: 1.2 };
    const isBlue = (r: number, g: number, b: number): boolean => b > 120 && r < 90 && b > g + 40;
    /** A small collider box at the left and, optionally, a drawn-only box at the right. */
    const scene = (visual: boolean): SceneDescription =>
      checkScene({
        bodies: [
          {
            name: 'thing',
            shapes: [box([0.1, 0.1, 0.1])],
            ...(visual ? { visual: [box([0.1, 0.1, 0.1], [0.35, 0, 0])] } : {}),
            pose: at([-0.2, 0, 0]),
            color: '#2060d0',
          },
        ],
      });

    it('in the picture, the mask and the depth view, like the body they belong to', async () => {
      const right: [number, number, number, number] = [64, 0, 128, 128];
      const rgbWith = await decodePng(await renderer.render(scene(true), top));
      const rgbWithout = await decodePng(await renderer.render(scene(false), top));
      expect(findPixels(rgbWithout, isBlue, right).count).to.equal(0);
      const drawn = findPixels(rgbWith, isBlue, right);
      // 0.2 m of a 1.2 m view is ≈ 21 px across, centred at x = 0.15 m → pixel ≈ 80.
      expect(drawn.count).to.be.greaterThan(300);
      expect(drawn.cx).to.be.closeTo(63.5 + (0.15 / 1.2) * 128, 2);
      const maskWith = await renderer.mask(scene(true), top);
      const maskWithout = await renderer.mask(scene(false), top);
      expect(maskWith.count).to.be.closeTo(2 * maskWithout.count, 0.1 * maskWithout.count);
      const depth = await decodePng(await renderer.render(scene(true), top, { view: 'depth' }));
      expect(findPixels(depth, (r) => r > 0, right).count).to.be.greaterThan(300);
      // Highlighting the body colours its drawn shapes too.
      const split = await decodePng(await renderer.rollback(scene(true), scene(true), top, { bodies: ['thing'] }, {}, { split: false }));
      expect(findPixels(split, isBlue, right).count).to.be.greaterThan(300);
      const marked = await decodePng(
        (await renderer.rollback(scene(true), scene(false), top, { bodies: ['thing'] }, { left: 'A', right: 'B' })),
      );
      expect(findPixels(marked, (r, g, b) => r > 150 && b > 150 && g < 90).count).to.be.greaterThan(600);
    });

    it('the scene check validates them, and new drawn shapes resend the body', () => {
      const err = catchError(() => checkScene({ bodies: [{ name: 'a', shapes: [box([1, 1, 1])], visual: [{ type: 'ball', radius: -1 }], pose: at([0, 0, 0]) }] }));
      expect(err).to.be.instanceOf(SpaceActError);
      expect((err as SpaceActError).message).to.include('scene.bodies[0].visual[0].radius');
      expect(catchError(() => checkScene({ bodies: [{ name: 'a', shapes: [box([1, 1, 1])], visual: {}, pose: at([0, 0, 0]) }] }))).to.be.instanceOf(SpaceActError);
      expect(bodyKey([box([1, 1, 1])], '#fff', 1)).to.not.equal(bodyKey([box([1, 1, 1])], '#fff', 1, [box([1, 1, 1])]));
      const mirror = new SceneMirror();
      mirror.diff(scene(false), 1).commit();
      const next = mirror.diff(scene(true), 1).update;
      expect(next.add?.map((g) => [g.name, g.visual?.length])).to.deep.equal([['thing', 1]]);
    });

    it('every shape type can be drawn-only, and the merged shapes keep their own poses', async () => {
      const shapes: ShapeSpec[] = [
        box([0.05, 0.05, 0.05], [-0.3, 0, -0.3]),
        { type: 'ball', radius: 0.05, pose: at([0.3, 0, -0.3]) },
        { type: 'cylinder', radius: 0.05, halfHeight: 0.05, pose: at([-0.3, 0, 0.3]) },
        { type: 'hull', points: [[0.25, -0.05, 0.25], [0.35, -0.05, 0.25], [0.3, -0.05, 0.35], [0.3, 0.05, 0.3]] },
        { type: 'mesh', vertices: [[-0.05, 0, -0.05], [0.05, 0, -0.05], [0, 0, 0.05]], indices: [[0, 2, 1]] },
      ];
      const s = checkScene({ bodies: [{ name: 'carrier', shapes: [box([0.01, 0.01, 0.01], [0, -0.5, 0])], visual: shapes, pose: at([0, 0, 0]) }] });
      const m = await renderer.mask(s, top);
      // One blob in each quadrant and the triangle in the middle.
      for (const [x0, y0] of [[0, 0], [64, 0], [0, 64], [64, 64]]) {
        let n = 0;
        for (let y = y0; y < y0 + 64; y++) for (let x = x0; x < x0 + 64; x++) n += m.bits[y * 128 + x];
        expect(n, `quadrant ${x0},${y0}`).to.be.greaterThan(40);
      }
      expect(m.bits[64 * 128 + 64]).to.equal(1);
    });

    it('BrickSystem parts stand above their top face by their studs, seen from the side', async () => {
      const world = await World.create(BRICK_WORLD_OPTIONS);
      try {
        const bricks = new BrickSystem(world);
        bricks.addBaseplate({ name: 'base', size: [4, 4], cell: [0, 0], color: '#2060d0' });
        bricks.place({ name: 'brick', size: [2, 4], cell: [0, 0], rot: 90, color: '#2060d0' });
        const bodies = world.describe();
        const flat = bodies.map(({ visual: _, ...b }) => b);
        const side: CameraSpec = { azimuth: 0, elevation: 0, distance: 1, target: [0.016, 0.004, 0.016], projection: 'orthographic', orthoHeight: 0.04 };
        // Pixel rows above the brick's top face (9.6 mm above the baseplate top at y = 0).
        const topRow = Math.round(64 - ((0.0096 - 0.004) / 0.04) * 128);
        const above: [number, number, number, number] = [0, 0, 128, topRow - 1];
        const studded = await renderer.mask({ bodies, rulers: [] }, side);
        const bare = await renderer.mask({ bodies: flat, rulers: [] }, side);
        const count = (bits: Uint8Array): number => {
          let n = 0;
          for (let y = above[1]; y < above[3]; y++) for (let x = 0; x < 128; x++) n += bits[y * 128 + x];
          return n;
        };
        expect(count(bare.bits)).to.equal(0);
        // Four studs across the view, 4.8 mm wide and 1.7 mm tall: ≈ 4 × 15 × 5 px.
        const n = count(studded.bits);
        const studPx = ((2 * BRICK_DEFAULTS.studRadius) / 0.04) * 128 * ((BRICK_DEFAULTS.studHeight / 0.04) * 128 - 1);
        expect(n).to.be.within(0.6 * 4 * studPx, 1.3 * 4 * studPx);
      } finally {
        world.free();
      }
    });
  });
});

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  return null;
}
