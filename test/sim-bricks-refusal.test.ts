import { expect } from 'chai';
import { BRICK_WORLD_OPTIONS, BrickSystem, type BrickSystemOptions } from '../sim/bricks.ts';
import { SpaceActError } from '../core/errors.ts';
import { World } from '../sim/world.ts';

/**
 * Validate before mutate (issue 37): every way `new BrickSystem(world, opts)` can refuse leaves
 * the world exactly as it was — same state hash, same frames, no participant left registered
 * (a valid system can still be attached afterwards).
 */
describe('sim: a refused BrickSystem leaves the world unchanged', () => {
  /** Every option path, each with a value the constructor must refuse. */
  const refused: Array<[string, unknown]> = [
    ['opts not an object', 'grid'],
    ['opts an array', []],
    ['opts null', null],
    ['scale zero', { scale: 0 }],
    ['scale not a number', { scale: '1' }],
    ['scale too large', { scale: 1e6 }],
    ['pitch negative', { pitch: -0.008 }],
    ['plateHeight NaN', { plateHeight: Number.NaN }],
    ['play too large', { play: 20 }],
    ['play half the pitch', { play: 0.004 }],
    ['studRadius half the pitch', { studRadius: 0.004 }],
    ['studHeight infinite', { studHeight: Number.POSITIVE_INFINITY }],
    ['density zero', { density: 0 }],
    ['friction negative', { friction: -0.1 }],
    ['gripPerStud too large', { gripPerStud: 1e9 }],
    ['shearPerStud not a number', { shearPerStud: 'strong' }],
    ['grid not an object', { grid: 'grid' }],
    ['grid name empty', { grid: { name: '' } }],
    ['grid name too long', { grid: { name: 'g'.repeat(101) } }],
    ['grid name reserved', { grid: { name: 'world' } }],
    ['grid origin not a vector', { grid: { origin: [0, 0] } }],
    ['grid origin NaN', { grid: { origin: [0, Number.NaN, 0] } }],
    ['grid yaw infinite', { grid: { yawDeg: Number.POSITIVE_INFINITY } }],
    ['grid yaw not a number', { grid: { yawDeg: '90' } }],
  ];

  /** A world with state worth changing: a body, a frame, a step taken. */
  async function busyWorld(): Promise<World> {
    const world = await World.create(BRICK_WORLD_OPTIONS);
    world.addBody({ name: 'box', kind: 'dynamic', shapes: [{ type: 'box', half: [0.01, 0.01, 0.01] }], pose: { p: [0, 0.05, 0], q: [0, 0, 0, 1] } } as Parameters<World['addBody']>[0]);
    world.defineFrame('mark', { p: [0.1, 0, 0], q: [0, 0, 0, 1] });
    world.advance(0.05);
    return world;
  }

  for (const [what, opts] of refused) {
    it(`${what}: refused with a SpaceActError, state hash and frames unchanged`, async () => {
      const world = await busyWorld();
      try {
        const hash = world.stateHash();
        const frames = world.frameNames();
        expect(() => new BrickSystem(world, opts as BrickSystemOptions)).to.throw(SpaceActError);
        expect(world.stateHash()).to.equal(hash);
        expect(world.frameNames()).to.deep.equal(frames);
        // Nothing was left registered: a valid system attaches (and that one does change the world).
        const ok = new BrickSystem(world);
        expect(ok.gridNames()).to.deep.equal(['grid']);
        expect(world.stateHash()).not.to.equal(hash);
      } finally {
        world.free();
      }
    });
  }

  it('a second system on the same world: refused, state hash and frames unchanged', async () => {
    const world = await busyWorld();
    try {
      new BrickSystem(world, { grid: { name: 'first' } });
      const hash = world.stateHash();
      const frames = world.frameNames();
      expect(() => new BrickSystem(world, { grid: { name: 'second', origin: [1, 0, 0] } })).to.throw(SpaceActError);
      expect(world.stateHash()).to.equal(hash);
      expect(world.frameNames()).to.deep.equal(frames);
    } finally {
      world.free();
    }
  });
});
