import { expect } from 'chai';
import { BRICK_DEFAULTS, BRICK_WORLD_OPTIONS, BrickSystem } from '../sim/bricks.ts';
import { SpaceActError } from '../core/errors.ts';
import { transformPoint } from '../sim/math.ts';
import { World } from '../sim/world.ts';

const PITCH = 0.008;
const PLATE = 0.0032;

describe('sim: bricks', () => {
  let world: World;
  let bricks: BrickSystem;
  beforeEach(async () => {
    world = await World.create(BRICK_WORLD_OPTIONS);
    bricks = new BrickSystem(world);
    bricks.addBaseplate({ name: 'base', size: [16, 16], cell: [0, 0] });
  });
  afterEach(() => world.free());

  it('places bricks on the stud grid and connects them through shared studs', () => {
    const a = bricks.place({ name: 'a', size: [2, 4], cell: [2, 3], rot: 0 });
    expect(a.layer).to.equal(0);
    const pa = world.getPose('a').p;
    expect(pa[0]).to.be.closeTo(3 * PITCH, 1e-6);
    expect(pa[1]).to.be.closeTo(1.5 * PLATE, 1e-6);
    expect(pa[2]).to.be.closeTo(5 * PITCH, 1e-6);
    // Dropped without a layer, a rotated 1x2 lands on top of 'a' (3 plates up).
    const b = bricks.place({ name: 'b', size: [1, 2], cell: [3, 6], rot: 90 });
    expect(b.layer).to.equal(3);
    expect(b.footprint).to.deep.equal([2, 1]);
    const conns = bricks.connections();
    expect(conns.map((c) => [c.lower, c.upper, c.studs.length])).to.deep.equal([
      ['a', 'b', 1],
      ['base', 'a', 8],
    ]);
    // A plate dropped half over 'a' and half over open air lands on 'a' and shares two studs.
    const c = bricks.place({ name: 'c', size: [2, 2], cell: [1, 3], rot: 0, plate: true });
    expect(c.layer).to.equal(3);
    expect(bricks.connections().find((x) => x.upper === 'c')!.studs).to.deep.equal([
      [2, 3],
      [2, 4],
    ]);
    expect(bricks.partAt([2, 6])).to.equal('a');
    expect(bricks.partAt([3, 6])).to.equal('b');
    expect(bricks.partAt([15, 15])).to.equal('base');
    expect(bricks.partAt([20, 20])).to.equal(null);
    // The structure is jointed: a second of settling moves nothing.
    expect(world.settle({ seconds: 1 })).to.equal(null);
  });

  it('a drop blocked on the way down is a collision; a brick over nothing is not attached', () => {
    bricks.place({ name: 'roof', size: [2, 2], cell: [4, 4], rot: 0, layer: 0 });
    const hash = world.stateHash();
    const blocked = world.attempt(() => bricks.place({ name: 'under', size: [1, 1], cell: [5, 5], rot: 0, layer: 0 }));
    expect(blocked.ok).to.equal(false);
    if (!blocked.ok) {
      expect(blocked.violation.kind).to.equal('collision');
      expect(blocked.violation.bodies).to.deep.equal(['under', 'roof']);
      expect(blocked.violatingScene!.some((b) => b.name === 'under')).to.equal(true);
    }
    expect(world.stateHash()).to.equal(hash);
    expect(world.hasBody('under')).to.equal(false);
    const floating = world.attempt(() => bricks.place({ name: 'float', size: [2, 2], cell: [10, 10], rot: 0, layer: 6 }));
    expect(floating.ok).to.equal(false);
    if (!floating.ok) expect(floating.violation.kind).to.equal('statics');
    expect(world.stateHash()).to.equal(hash);
  });

  it('a load test pulls a weakly connected cantilever apart while a well-connected one holds', () => {
    const build = (name: string, wide: boolean): void => {
      bricks.place({ name: `${name}-pier`, size: [2, 2], cell: [4, wide ? 4 : 10], rot: 0 });
      // Plate sticking out along +X: the narrow one shares 1 stud with the pier, the wide one 4.
      bricks.place({ name: `${name}-arm`, size: [wide ? 2 : 1, 6], cell: [wide ? 4 : 5, wide ? 4 : 10], rot: 90, plate: true });
    };
    build('weak', false);
    build('strong', true);
    expect(bricks.connections().find((c) => c.upper === 'weak-arm')!.studs).to.have.length(1);
    expect(bricks.connections().find((c) => c.upper === 'strong-arm')!.studs).to.have.length(4);
    // The arm's tip, at its top face (pier 3 plates + arm 1 plate).
    const tip = (z: number): [number, number, number] => bricks.gridPoint('grid', 10, z, 4);
    const snap = world.snapshot();
    const weak = bricks.loadTest({ body: 'weak-arm', point: tip(10.5), mass: 0.03, seconds: 1 });
    expect(weak.analysis.stable).to.equal(false);
    expect(weak.broken.map((c) => c.id)).to.deep.equal(['weak-pier|weak-arm']);
    expect(weak.held).to.equal(false);
    expect(weak.physical.moved).to.include('weak-arm');
    world.restore(snap);
    const strong = bricks.loadTest({ body: 'strong-arm', point: tip(5), mass: 0.03, seconds: 1 });
    expect(strong.analysis.stable).to.equal(true);
    expect(strong.broken).to.deep.equal([]);
    expect(strong.held).to.equal(true);
    // Four times the load is too much even for four studs.
    world.restore(snap);
    const heavy = bricks.loadTest({ body: 'strong-arm', point: tip(5), mass: 0.12, seconds: 1 });
    expect(heavy.held).to.equal(false);
  });

  it('pulling a brick off: one stud lets go under 2.5 N, four studs hold', () => {
    bricks.place({ name: 'a', size: [2, 2], cell: [4, 4], rot: 0 });
    bricks.place({ name: 'one', size: [1, 2], cell: [5, 5], rot: 90 });
    bricks.place({ name: 'b', size: [2, 2], cell: [9, 4], rot: 0 });
    bricks.place({ name: 'four', size: [2, 2], cell: [9, 4], rot: 0 });
    const snap = world.snapshot();
    const up = (n: string): [number, number, number] => world.centerOfMass(n);
    const weak = bricks.loadTest({ body: 'one', point: up('one'), force: [0, 2.5, 0], watch: ['one', 'a'] });
    expect(weak.held).to.equal(false);
    expect(weak.broken.map((c) => c.id)).to.deep.equal(['a|one']);
    world.restore(snap);
    const strong = bricks.loadTest({ body: 'four', point: up('four'), force: [0, 2.5, 0], watch: ['four', 'b'] });
    expect(strong.held).to.equal(true);
  });

  it('a deck across two studded piers connects to both and carries a mid-span load', () => {
    bricks.addBaseplate({ name: 'pier-w', size: [2, 2], cell: [0, 4], top: 9, height: 9 });
    bricks.addBaseplate({ name: 'pier-e', size: [2, 2], cell: [8, 4], top: 9, height: 9 });
    const deck = bricks.place({ name: 'deck', size: [2, 10], cell: [0, 4], rot: 90, plate: true });
    expect(deck.layer).to.equal(9);
    expect(bricks.connections().map((c) => [c.lower, c.studs.length])).to.deep.equal([
      ['pier-e', 4],
      ['pier-w', 4],
    ]);
    const mid = bricks.gridPoint('grid', 5, 5, 10);
    const r = bricks.loadTest({ body: 'deck', point: mid, mass: 0.2, seconds: 1 });
    expect(r.analysis.stable).to.equal(true);
    expect(r.held).to.equal(true);
    // Lifting one end tears the deck off that pier first, then the lever peels it off the other.
    const lift = bricks.loadTest({ body: 'deck', point: bricks.gridPoint('grid', 9.5, 5, 10), force: [0, 8, 0], seconds: 0.5 });
    expect(lift.broken.map((c) => c.lower)).to.deep.equal(['pier-e', 'pier-w']);
    expect(lift.held).to.equal(false);
  });

  it('a placement the studs cannot hold is a statics violation', () => {
    bricks.place({ name: 'post', size: [1, 1], cell: [4, 4], rot: 0 });
    bricks.place({ name: 'post2', size: [1, 1], cell: [4, 4], rot: 0 });
    // A long heavy beam balanced on one stud: its weight acts far from the single stud.
    const r = world.attempt(() => bricks.place({ name: 'beam', size: [2, 16], cell: [4, 4], rot: 90 }));
    expect(r.ok).to.equal(false);
    if (!r.ok) {
      expect(r.violation.kind).to.equal('statics');
      expect(r.violation.bodies).to.include('beam');
    }
    expect(world.hasBody('beam')).to.equal(false);
  });

  it('removal lifts a brick off; a brick with bricks on top cannot be lifted', () => {
    bricks.place({ name: 'low', size: [2, 4], cell: [2, 2], rot: 0 });
    bricks.place({ name: 'high', size: [2, 2], cell: [2, 2], rot: 0 });
    const r = world.attempt(() => bricks.remove('low'));
    expect(r.ok).to.equal(false);
    if (!r.ok) expect(r.violation.kind).to.equal('rule');
    bricks.remove('high');
    expect(world.hasBody('high')).to.equal(false);
    expect(bricks.connections().map((c) => c.id)).to.deep.equal(['base|low']);
    expect(() => bricks.remove('base')).to.throw(SpaceActError, /baseplate/);
  });

  it('a turned grid places bricks in its own frame', () => {
    bricks.defineGrid('turned', [0.5, 0, 0.5], 90);
    bricks.addBaseplate({ name: 'plate2', size: [8, 8], cell: [0, 0], grid: 'turned' });
    bricks.place({ name: 't', size: [2, 4], cell: [0, 0], rot: 0, grid: 'turned' });
    const p = world.getPose('t').p;
    // Grid X maps to world −Z and grid Z to world +X after a 90° yaw.
    expect(p[0]).to.be.closeTo(0.5 + 2 * PITCH, 1e-6);
    expect(p[2]).to.be.closeTo(0.5 - 1 * PITCH, 1e-6);
    expect(bricks.connections().find((c) => c.upper === 't')!.lower).to.equal('plate2');
  });

  it('bad brick input is rejected before anything changes', () => {
    bricks.place({ name: 'a', size: [2, 2], cell: [0, 0], rot: 0 });
    const hash = world.stateHash();
    const bad: Array<[() => unknown, RegExp]> = [
      [() => bricks.place({ name: 'x', size: [2, 0], cell: [0, 0], rot: 0 }), /spec\.size\[1\]/],
      [() => bricks.place({ name: 'x', size: [2, 2], cell: [0.5, 0], rot: 0 }), /spec\.cell\[0\]: expected an integer/],
      [() => bricks.place({ name: 'x', size: [2, 2], cell: [0, 0], rot: 45 as 0 }), /spec\.rot/],
      [() => bricks.place({ name: 'x', size: [2, 2], cell: [0, 0], rot: 0, grid: 'nope' }), /no grid named "nope"/],
      [() => bricks.place({ name: 'a', size: [2, 2], cell: [0, 0], rot: 0 }), /already exists/],
      [() => bricks.place({ name: 'x', size: [2, 2], cell: [0, 0], rot: 0, layer: NaN }), /spec\.layer/],
      [() => bricks.remove('ghost'), /no brick or baseplate named "ghost"/],
      [() => bricks.loadTest({ body: 'a', point: [0, 0, 0], mass: -1 }), /opts\.mass/],
    ];
    for (const [fn, message] of bad) {
      expect(fn).to.throw(SpaceActError, message);
      expect(world.stateHash()).to.equal(hash);
    }
  });

  it('building the same structure in two fresh worlds gives the same hash', async () => {
    const build = async (): Promise<string> => {
      const w = await World.create(BRICK_WORLD_OPTIONS);
      try {
        const b = new BrickSystem(w);
        b.addBaseplate({ name: 'base', size: [16, 16], cell: [0, 0] });
        for (let i = 0; i < 6; i++) b.place({ name: `b${i}`, size: [2, 4], cell: [2 + (i % 2), 2 + 2 * (i % 3)], rot: i % 2 ? 90 : 0 });
        w.attempt(() => b.place({ name: 'bad', size: [2, 2], cell: [2, 2], rot: 0, layer: 0 }));
        b.loadTest({ body: 'b5', point: w.centerOfMass('b5'), force: [0, 3, 0], seconds: 0.5 });
        w.advance(0.5);
        return w.stateHash();
      } finally {
        w.free();
      }
    };
    expect(await build()).to.equal(await build());
  });

  it('loose blocks have no studs and are not connected', () => {
    bricks.addLooseBlock({ name: 'loose', half: [0.016, 0.0048, 0.008], pose: { p: [0.05, 0.0048, 0.05], q: [0, 0, 0, 1] } });
    world.advance(0.2);
    expect(bricks.connections()).to.deep.equal([]);
    expect(world.contactsOf('loose')).to.deep.equal(['base']);
    expect(world.bodySpec('loose').tags).to.deep.equal(['loose']);
  });

  it('every brick, plate and baseplate carries drawn studs on its cells; loose blocks none; defaults are exported', () => {
    expect([bricks.pitch, bricks.plateHeight, bricks.play, bricks.studRadius, bricks.studHeight, bricks.density, bricks.friction, bricks.gripPerStud, bricks.shearPerStud]).to.deep.equal([
      BRICK_DEFAULTS.pitch,
      BRICK_DEFAULTS.plateHeight,
      BRICK_DEFAULTS.play,
      BRICK_DEFAULTS.studRadius,
      BRICK_DEFAULTS.studHeight,
      BRICK_DEFAULTS.density,
      BRICK_DEFAULTS.friction,
      BRICK_DEFAULTS.gripPerStud,
      BRICK_DEFAULTS.shearPerStud,
    ]);
    // Real studs: 4.8 mm across and 1.7 mm tall.
    expect([2 * BRICK_DEFAULTS.studRadius, BRICK_DEFAULTS.studHeight]).to.deep.equal([0.0048, 0.0017]);
    bricks.defineGrid('turned', [0.3, 0.02, -0.1], 30);
    bricks.addBaseplate({ name: 'pier', size: [6, 5], cell: [0, 0], grid: 'turned', height: 4 });
    bricks.place({ name: 'brick', size: [2, 4], cell: [1, 0], rot: 90, grid: 'turned' });
    bricks.place({ name: 'plate', size: [1, 3], cell: [0, 3], rot: 0, plate: true, grid: 'turned' });
    bricks.addLooseBlock({ name: 'loose', half: [0.008, 0.0048, 0.004], pose: { p: [0.1, 0.1, 0.1], q: [0, 0, 0, 1] } });
    for (const name of ['base', 'pier', 'brick', 'plate']) {
      const info = bricks.partInfo(name);
      const studs = world.bodySpec(name).visual ?? [];
      expect(studs.length, name).to.equal(info.size[0] * info.size[1]);
      const pose = world.getPose(name);
      const cells = new Set<string>();
      for (const s of studs) {
        if (s.type !== 'cylinder') throw new Error(`${name}: a stud is a ${s.type}`);
        expect(s.radius).to.equal(BRICK_DEFAULTS.studRadius);
        expect(2 * s.halfHeight).to.be.closeTo(BRICK_DEFAULTS.studHeight, 1e-12);
        // The stud's foot is on the part's top face, at the centre of one of its cells.
        const foot = world.fromWorld(info.grid, { p: transformPoint(pose, [s.pose!.p[0], s.pose!.p[1] - s.halfHeight, s.pose!.p[2]]), q: [0, 0, 0, 1] }).p;
        expect(foot[1] / PLATE).to.be.closeTo(info.layer + info.height, 1e-4);
        const i = foot[0] / PITCH - 0.5;
        const j = foot[2] / PITCH - 0.5;
        expect(i).to.be.closeTo(Math.round(i), 1e-4);
        expect(j).to.be.closeTo(Math.round(j), 1e-4);
        expect(Math.round(i)).to.be.within(info.cell[0], info.cell[0] + info.footprint[0] - 1);
        expect(Math.round(j)).to.be.within(info.cell[1], info.cell[1] + info.footprint[1] - 1);
        cells.add(`${Math.round(i)},${Math.round(j)}`);
      }
      expect(cells.size, name).to.equal(studs.length);
    }
    expect(world.bodySpec('loose').visual).to.equal(undefined);
    // Studs are drawn only: a brick weighs what its box does, and the stack stays still.
    const box = world.bodySpec('brick').shapes[0];
    if (box.type !== 'box') throw new Error('expected a box');
    expect(world.mass('brick')).to.be.closeTo(BRICK_DEFAULTS.density * 8 * box.half[0] * box.half[1] * box.half[2], 1e-9);
    expect(world.settle({ seconds: 0.5, bodies: ['brick', 'plate'] })).to.equal(null);
  });
});
