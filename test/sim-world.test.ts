import { expect } from 'chai';
import { SpaceActError } from '../core/errors.ts';
import { ViolationError } from '../sim/violation.ts';
import { combinedFriction, FRICTION_COMBINE_RULE } from '../sim/materials.ts';
import { qaxisAngle, qrotate, vscale } from '../sim/math.ts';
import type { BodySpec, Pose, Vec3 } from '../sim/types.ts';
import { World } from '../sim/world.ts';

const I: Pose['q'] = [0, 0, 0, 1];

function box(name: string, kind: BodySpec['kind'], p: Vec3, half: Vec3, extra: Partial<BodySpec> = {}): BodySpec {
  return { name, kind, pose: { p, q: I }, shapes: [{ type: 'box', half }], ...extra };
}

/** A small scene with every kind of body, a joint, a frame and some motion. */
function populate(world: World): void {
  world.addBody(box('floor', 'static', [0, -0.05, 0], [2, 0.05, 2]));
  world.addBody(box('crate', 'dynamic', [0, 0.1, 0], [0.1, 0.1, 0.1], { material: { friction: 0.6 } }));
  world.addBody({ name: 'ball', kind: 'dynamic', pose: { p: [0.5, 0.3, 0], q: I }, shapes: [{ type: 'ball', radius: 0.05 }] });
  world.addBody({
    name: 'tee',
    kind: 'kinematic',
    pose: { p: [-0.6, 0.4, 0], q: I },
    shapes: [
      { type: 'box', half: [0.15, 0.02, 0.02] },
      { type: 'cylinder', radius: 0.02, halfHeight: 0.1, pose: { p: [0, -0.1, 0], q: I } },
    ],
  });
  world.addBody({
    name: 'wedge',
    kind: 'dynamic',
    pose: { p: [0, 0.5, 0.6], q: I },
    shapes: [{ type: 'hull', points: [[0, 0, 0], [0.1, 0, 0], [0, 0.1, 0], [0, 0, 0.1], [0.1, 0, 0.1]] }],
  });
  world.addBody({
    name: 'ramp',
    kind: 'static',
    pose: { p: [1, 0, 1], q: I },
    shapes: [{ type: 'mesh', vertices: [[0, 0, 0], [0.4, 0, 0], [0.4, 0.2, 0.4], [0, 0.2, 0.4]], indices: [[0, 2, 1], [0, 3, 2]] }],
  });
  world.addBody(box('pendulum', 'dynamic', [-1, 0.7, -1], [0.02, 0.2, 0.02]));
  world.addBody(box('hook', 'static', [-1, 0.95, -1], [0.02, 0.02, 0.02]));
  world.addJoint({ name: 'hinge', type: 'revolute', bodyA: 'hook', bodyB: 'pendulum', anchor: [-1, 0.9, -1], axis: [0, 0, 1] });
  world.defineFrame('tool', { p: [0, 0, 0.1], q: I }, 'tee');
  world.applyImpulse('pendulum', [0.01, 0, 0], [-1, 0.5, -1]);
}

describe('sim: world', () => {
  let world: World;
  beforeEach(async () => {
    world = await World.create();
  });
  afterEach(() => world.free());

  it('the clock is frozen between actions: reads, queries and snapshots take no time', async () => {
    populate(world);
    world.advance(0.25);
    expect(world.steps).to.equal(60);
    expect(world.time).to.be.closeTo(0.25, 1e-12);
    const hash = world.stateHash();
    world.getPose('crate');
    world.getVelocity('ball');
    world.describe();
    world.contactsOf('crate');
    world.sweep('tee', { p: [0.6, 0.4, 0], q: I });
    world.framePose('tool');
    world.checkTopology();
    world.snapshot();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(world.steps).to.equal(60);
    expect(world.time).to.be.closeTo(0.25, 1e-12);
    expect(world.stateHash()).to.equal(hash);
    world.advance(0.5);
    expect(world.steps).to.equal(180);
  });

  it('stepping leaves the process clock real (Rapier runs on a stopped clock only inside a step)', () => {
    populate(world);
    const before = performance.now();
    let inListener = 0;
    const off = world.addStepListener(() => (inListener = performance.now()));
    world.advance(0.1);
    off();
    // A listener runs between steps, on the real clock; so does everything after advance().
    expect(inListener).to.be.at.least(before);
    expect(performance.now()).to.be.at.least(inListener);
    expect(Object.getPrototypeOf(performance).now.call(performance)).to.be.greaterThan(0);
  });

  it('the same calls in two fresh worlds give the same state hash', async () => {
    const run = async (): Promise<string> => {
      const w = await World.create();
      try {
        populate(w);
        w.advance(0.3);
        w.moveSwept('tee', { p: [-0.6, 0.6, 0.3], q: qaxisAngle([0, 1, 0], 0.7) });
        w.attempt(() => w.moveSwept('tee', { p: [0.5, 0.3, 0], q: I }));
        w.setKind('ball', 'kinematic');
        w.meta.moves = ['a', { b: 2 }];
        w.advance(0.4);
        return w.stateHash();
      } finally {
        w.free();
      }
    };
    const a = await run();
    const b = await run();
    expect(a).to.match(/^[0-9a-f]{64}$/);
    expect(a).to.equal(b);
  });

  it('attempt() rolls a violating action back exactly and keeps the violating scene', () => {
    populate(world);
    world.advance(0.2);
    world.meta.counter = 3;
    world.setColor('crate', '#123456');
    const hash = world.stateHash();
    const [time, steps] = [world.time, world.steps];
    const before = world.getPose('tee');
    const result = world.attempt(() => {
      world.meta.counter = 4;
      world.setColor('crate', '#ffffff');
      world.advance(0.1);
      world.defineFrame('scratch', { p: [1, 1, 1], q: I });
      world.addBody(box('intruder', 'dynamic', [1, 1, -1], [0.05, 0.05, 0.05]));
      world.removeJoint('hinge');
      world.setKind('wedge', 'static');
      world.moveSwept('tee', { p: [0.5, 0.1, 0], q: I });
      return 'unreachable';
    });
    expect(result.ok).to.equal(false);
    if (result.ok) return;
    expect(result.violation.kind).to.equal('collision');
    expect(result.violation.bodies[0]).to.equal('tee');
    const violating = result.violatingScene!.find((b) => b.name === 'tee')!;
    expect(violating.pose.p[0]).to.be.greaterThan(before.p[0] + 0.1);
    expect(result.violatingScene!.some((b) => b.name === 'intruder')).to.equal(true);
    expect(world.stateHash()).to.equal(hash);
    expect([world.time, world.steps]).to.deep.equal([time, steps]);
    expect(world.meta.counter).to.equal(3);
    expect(world.hasBody('intruder')).to.equal(false);
    expect(world.hasFrame('scratch')).to.equal(false);
    expect(world.hasJoint('hinge')).to.equal(true);
    expect(world.bodyKind('wedge')).to.equal('dynamic');
    expect(world.describe().find((b) => b.name === 'crate')!.color).to.equal('#123456');
    // The restored world keeps simulating like one that never tried the action.
    const twin = world.snapshot();
    world.advance(0.2);
    const after = world.stateHash();
    world.restore(twin);
    world.advance(0.2);
    expect(world.stateHash()).to.equal(after);
  });

  it('attempt() restores and rethrows on errors that are not violations', () => {
    populate(world);
    const hash = world.stateHash();
    expect(() =>
      world.attempt(() => {
        world.advance(0.1);
        world.setPose('crate', { p: [0, Infinity, 0], q: I });
      }),
    ).to.throw(SpaceActError);
    expect(world.stateHash()).to.equal(hash);
  });

  it('bad input throws a SpaceActError saying what was wrong and changes nothing', () => {
    populate(world);
    world.advance(0.1);
    const hash = world.stateHash();
    const cases: Array<[string, () => unknown, RegExp]> = [
      ['NaN position', () => world.setPose('crate', { p: [NaN, 0, 0], q: I }), /pose\.p\[0\]: expected a finite number, got NaN/],
      ['infinite position', () => world.setPose('crate', { p: [0, Infinity, 0], q: I }), /pose\.p\[1\]/],
      ['absurd position', () => world.setPose('crate', { p: [0, 0, 5e3], q: I }), /pose\.p\[2\]: must be at most 1000/],
      ['zero quaternion', () => world.setPose('crate', { p: [0, 0, 0], q: [0, 0, 0, 0] }), /pose\.q: the zero quaternion/],
      ['non-unit quaternion', () => world.setPose('crate', { p: [0, 0, 0], q: [0, 0, 0, 2] }), /pose\.q: quaternion must have unit length/],
      ['short quaternion', () => world.setPose('crate', { p: [0, 0, 0], q: [0, 0, 1] as unknown as Pose['q'] }), /pose\.q: expected a quaternion/],
      ['unknown body', () => world.getPose('nothing'), /no body named "nothing"/],
      ['unknown body in setPose', () => world.setPose('nothing', { p: [0, 0, 0], q: I }), /no body named/],
      ['unknown frame', () => world.framePose('nowhere'), /no frame named "nowhere"/],
      ['unknown frame in toWorld', () => world.toWorld('nowhere', { p: [0, 0, 0], q: I }), /no frame named/],
      ['frame on unknown body', () => world.defineFrame('f', { p: [0, 0, 0], q: I }, 'ghost'), /parentBody/],
      ['absurd angular velocity', () => world.setVelocity('crate', [0, 0, 0], [0, 2e4, 0]), /angular\[1\]/],
      ['infinite impulse', () => world.applyImpulse('crate', [0, Infinity, 0]), /impulse\[1\]/],
      ['impulse on a static body', () => world.applyImpulse('floor', [0, 1, 0]), /only move dynamic bodies/],
      ['NaN advance', () => world.advance(NaN), /seconds/],
      ['negative advance', () => world.advance(-1), /seconds: must be at least 0/],
      ['absurd advance', () => world.advance(1e7), /seconds: must be at most/],
      ['duplicate body', () => world.addBody(box('crate', 'dynamic', [0, 1, 0], [0.1, 0.1, 0.1])), /already exists/],
      ['negative size', () => world.addBody(box('neg', 'dynamic', [0, 1, 0], [0.1, -0.1, 0.1])), /spec\.shapes\[0\]\.half\[1\]/],
      ['mesh on a dynamic body', () => world.addBody({ name: 'm', kind: 'dynamic', pose: { p: [0, 1, 0], q: I }, shapes: [{ type: 'mesh', vertices: [[0, 0, 0], [1, 0, 0], [0, 0, 1]], indices: [[0, 1, 2]] }] }), /only allowed on static bodies/],
      ['flat hull', () => world.addBody({ name: 'h', kind: 'dynamic', pose: { p: [0, 1, 0], q: I }, shapes: [{ type: 'hull', points: [[0, 0, 0], [1, 0, 0], [0, 0, 1], [1, 0, 1]] }] }), /degenerate/],
      ['mesh index out of range', () => world.addBody({ name: 'm2', kind: 'static', pose: { p: [0, 1, 0], q: I }, shapes: [{ type: 'mesh', vertices: [[0, 0, 0], [1, 0, 0], [0, 0, 1]], indices: [[0, 1, 3]] }] }), /indices\[0\]\[2\]/],
      ['bad kind', () => world.setKind('crate', 'floating' as never), /kind: expected one of/],
      ['bad friction', () => world.addBody(box('f', 'dynamic', [0, 1, 0], [0.1, 0.1, 0.1], { material: { friction: -1 } })), /spec\.material\.friction/],
      ['bad colour', () => world.setColor('crate', 'not a colour!'), /color/],
      ['joint to unknown body', () => world.addJoint({ name: 'j', type: 'fixed', bodyA: 'crate', bodyB: 'ghost', anchor: [0, 0, 0] }), /joint\.bodyB/],
      ['revolute without axis', () => world.addJoint({ name: 'j', type: 'revolute', bodyA: 'crate', bodyB: 'ball', anchor: [0, 0, 0] }), /joint\.axis/],
      ['settle watching an unknown body', () => world.settle({ bodies: ['ghost'] }), /opts\.bodies\[0\]/],
      ['load test with mass and force', () => world.loadTest({ body: 'crate', point: [0, 0, 0], mass: 1, force: [0, 1, 0], seconds: 1 }), /exactly one of mass and force/],
      ['meta that is not JSON', () => ((world.meta.bad = NaN), world.stateHash()), /meta\.bad/],
    ];
    for (const [label, fn, message] of cases) {
      let caught: unknown;
      try {
        fn();
      } catch (err) {
        caught = err;
      }
      expect(caught, label).to.be.instanceOf(SpaceActError);
      expect((caught as Error).message, label).to.match(message);
      delete world.meta.bad;
      expect(world.stateHash(), label).to.equal(hash);
    }
  });

  it('friction combines by the Min rule (a grippy block slides on a slippery ramp and vice versa)', async () => {
    expect(FRICTION_COMBINE_RULE).to.equal('min');
    expect(combinedFriction(0.9, 0.1)).to.equal(0.1);
    // At 20°, tan θ = 0.364: μ = min(0.9, 0.1) = 0.1 slides; the mean (0.5) or max (0.9) would hold.
    const slide = async (blockMu: number, rampMu: number): Promise<number> => {
      const w = await World.create();
      try {
        const q = qaxisAngle([0, 0, 1], (20 * Math.PI) / 180);
        const up = qrotate(q, [0, 1, 0]);
        w.addBody({ name: 'ramp', kind: 'static', pose: { p: [0, 0, 0], q }, shapes: [{ type: 'box', half: [2, 0.05, 0.5] }], material: { friction: rampMu } });
        const start = vscale(up, 0.075);
        w.addBody({ name: 'block', kind: 'dynamic', pose: { p: start, q }, shapes: [{ type: 'box', half: [0.05, 0.025, 0.05] }], material: { friction: blockMu } });
        w.advance(0.5);
        const p = w.getPose('block').p;
        return Math.hypot(p[0] - start[0], p[1] - start[1], p[2] - start[2]);
      } finally {
        w.free();
      }
    };
    const th = (20 * Math.PI) / 180;
    const expected = (9.81 * (Math.sin(th) - 0.1 * Math.cos(th)) * 0.25) / 2;
    expect(await slide(0.9, 0.1)).to.be.closeTo(expected, expected * 0.03);
    expect(await slide(0.1, 0.9)).to.be.closeTo(expected, expected * 0.03);
    expect(await slide(0.9, 0.9)).to.be.lessThan(0.001);
  });

  it('settle() reports a statics violation naming exactly the bodies that moved', () => {
    world.addBody(box('table', 'static', [0, -0.05, 0], [0.5, 0.05, 0.5]));
    world.addBody(box('steady', 'dynamic', [0, 0.05, 0], [0.05, 0.05, 0.05]));
    // Centre of mass 3 cm beyond the table edge at x = 0.5.
    world.addBody(box('tipping', 'dynamic', [0.53, 0.05, 0.2], [0.05, 0.05, 0.05]));
    const v = world.settle({ seconds: 0.5 });
    expect(v).to.not.equal(null);
    expect(v!.kind).to.equal('statics');
    expect(v!.bodies).to.deep.equal(['tipping']);
    expect(v!.message).to.match(/'tipping' (kept moving|shifted before coming to rest)/);
    expect(v!.message, 'no distance or angle in the text (issue 36)').to.not.match(/[0-9]/);
    expect(world.time).to.be.closeTo(0.5, 1e-12);
    world.removeBody('tipping');
    expect(world.settle()).to.equal(null);
  });

  it('loadTest() holds for a well-supported block and fails for a cantilevered one', () => {
    world.addBody(box('table', 'static', [0, -0.05, 0], [0.5, 0.05, 0.5]));
    world.addBody(box('slab', 'dynamic', [0.45, 0.01, 0], [0.2, 0.01, 0.05]));
    const ok = world.loadTest({ body: 'slab', point: [0.35, 0.02, 0], mass: 0.5, seconds: 0.5 });
    expect(ok.held).to.equal(true);
    expect(ok.maxDisplacement).to.be.lessThan(0.002);
    const fail = world.loadTest({ body: 'slab', point: [0.64, 0.02, 0], mass: 0.5, seconds: 0.5 });
    expect(fail.held).to.equal(false);
    expect(fail.moved).to.deep.equal(['slab']);
  });

  it('topology predicates are checked along swept moves and roll back with attempt()', () => {
    // A square ring threaded on a wire that runs along X from x = 0 to x = 1.
    world.addBody({ name: 'wire', kind: 'static', pose: { p: [0.5, 0.5, 0], q: qaxisAngle([0, 0, 1], Math.PI / 2) }, shapes: [{ type: 'cylinder', radius: 0.003, halfHeight: 0.5 }] });
    const bar = (p: Vec3, half: Vec3) => ({ type: 'box' as const, half, pose: { p, q: I } });
    world.addBody({
      name: 'ring',
      kind: 'kinematic',
      pose: { p: [0.5, 0.5, 0], q: I },
      shapes: [bar([0, 0.02, 0], [0.005, 0.004, 0.024]), bar([0, -0.02, 0], [0.005, 0.004, 0.024]), bar([0, 0, 0.02], [0.005, 0.016, 0.004]), bar([0, 0, -0.02], [0.005, 0.016, 0.004])],
    });
    world.addTopologyPredicate('ring on wire', (w) => {
      const p = w.getPose('ring').p;
      const on = p[0] >= 0 && p[0] <= 1 && Math.hypot(p[1] - 0.5, p[2]) < 0.02;
      return on ? null : { kind: 'topology', bodies: ['ring', 'wire'], message: 'The ring came off the wire.' };
    });
    expect(world.checkTopology()).to.equal(null);
    const along = world.sweep('ring', { p: [0.9, 0.5, 0], q: I });
    expect(along.hit).to.equal(false);
    const off = world.sweep('ring', { p: [1.5, 0.5, 0], q: I });
    expect(off.violation?.kind).to.equal('topology');
    expect(off.toi).to.be.closeTo(0.5, 0.01);
    expect(off.lastFreePose.p[0]).to.be.at.most(1);
    const hash = world.stateHash();
    const r = world.attempt(() => world.moveSwept('ring', { p: [1.5, 0.5, 0], q: I }));
    expect(r.ok).to.equal(false);
    if (!r.ok) expect(r.violation.message).to.equal('The ring came off the wire.');
    expect(world.stateHash()).to.equal(hash);
    // Predicates are also checked after every attempted action, however the state changed.
    const teleport = world.attempt(() => world.setPose('ring', { p: [2, 0.5, 0], q: I }));
    expect(teleport.ok).to.equal(false);
    if (!teleport.ok) expect(teleport.violation.kind).to.equal('topology');
    expect(world.stateHash()).to.equal(hash);
    // Lifting the ring off sideways fails at the first sample whose pose leaves the wire.
    const lift = world.sweep('ring', { p: [0.5, 0.6, 0], q: I }, { exclude: ['wire'] });
    expect(lift.violation?.kind).to.equal('topology');
    expect(lift.toi).to.be.at.most(0.25);
  });

  it('frames follow their parent body and convert poses both ways', () => {
    populate(world);
    const f = world.framePose('tool');
    expect(f.p[2]).to.be.closeTo(0.1, 1e-6);
    world.moveSwept('tee', { p: [-0.6, 0.8, 0], q: qaxisAngle([0, 1, 0], Math.PI / 2) });
    const g = world.framePose('tool');
    expect(g.p[0]).to.be.closeTo(-0.5, 1e-6);
    expect(g.p[1]).to.be.closeTo(0.8, 1e-6);
    const local: Pose = { p: [0.1, 0.2, 0.3], q: qaxisAngle([1, 0, 0], 0.4) };
    const back = world.fromWorld('tool', world.toWorld('tool', local));
    back.p.forEach((v, i) => expect(v).to.be.closeTo(local.p[i], 1e-9));
    expect(world.framePose('world')).to.deep.equal({ p: [0, 0, 0], q: [0, 0, 0, 1] });
  });

  it('describe() gives the renderer plain JSON of every body', () => {
    populate(world);
    const scene = world.describe();
    expect(scene.map((b) => b.name)).to.deep.equal(world.bodyNames());
    const tee = scene.find((b) => b.name === 'tee')!;
    expect(tee.shapes).to.have.length(2);
    expect(JSON.parse(JSON.stringify(scene))).to.deep.equal(scene);
  });

  it('a moveSwept violation outside attempt() is a ViolationError carrying the record', () => {
    populate(world);
    try {
      world.moveSwept('tee', { p: [0.5, 0.1, 0], q: I });
      expect.fail('should have thrown');
    } catch (err) {
      expect(err).to.be.instanceOf(ViolationError);
      expect((err as ViolationError).violation.toi).to.be.within(0, 1);
    }
  });

  // A dynamic 2×1 block on a tray floor slid one 5 cm cell (swept, or teleported) to sit 6 mm
  // beside a block that had been its diagonal neighbour. Rapier recycled the pair's old contact
  // points (anchored in each body's frame) across the jump and the solver read them as a deep
  // overlap: the neighbour was shoved 16 mm and the moved block 7 mm while nothing touched.
  for (const how of ['moveSwept', 'setPose'] as const) {
    it(`a body moved by ${how} is not pushed by contacts from before the move`, () => {
      const cell = 0.05;
      const gap = 0.003;
      const half = 0.015;
      world.addBody(box('floor', 'static', [0, -0.005, 0], [0.3, 0.005, 0.3]));
      const block = (name: string, col: number, row: number, w: number, h: number): void =>
        world.addBody(box(name, 'dynamic', [(col + w / 2) * cell, half, (row + h / 2) * cell], [(w * cell) / 2 - gap, half, (h * cell) / 2 - gap], { material: { density: 600, friction: 0.5, restitution: 0 } }));
      block('mover', 2, 0, 2, 1);
      block('neighbour', 1, 1, 1, 1);
      world.advance(0.3);
      const from = world.getPose('mover');
      const to: Pose = { p: [from.p[0], from.p[1], from.p[2] + cell], q: from.q };
      if (how === 'moveSwept') expect(world.moveSwept('mover', to, { exclude: ['floor'] }).hit).to.equal(false);
      else world.setPose('mover', to);
      expect(world.distance('mover', 'neighbour')).to.be.closeTo(2 * gap, 1e-4);
      const placed = new Map(['mover', 'neighbour'].map((n) => [n, world.getPose(n).p]));
      world.advance(0.3);
      for (const [n, p] of placed) {
        const now = world.getPose(n).p;
        // Resting blocks that do not touch stay where they are (Rapier's own creep is ~µm).
        expect(Math.hypot(now[0] - p[0], now[2] - p[2]), `${n} moved`).to.be.below(1e-4);
      }
    });
  }

  it("messages say a body's spoken name, each once: numbered wall blocks read 'wall'", async () => {
    const w = await World.create({ gravity: [0, 0, 0] });
    try {
      for (const [i, z] of [[1, -0.03], [2, 0.03]] as const) {
        w.addBody({ name: `wall-${i}`, spokenName: 'wall', kind: 'static', pose: { p: [0.2, 0.05, z], q: I }, shapes: [{ type: 'box', half: [0.01, 0.05, 0.03] }] });
      }
      w.addBody({ name: 'slider', kind: 'kinematic', pose: { p: [0, 0.05, 0], q: I }, shapes: [{ type: 'box', half: [0.02, 0.02, 0.05] }] });
      const r = w.sweep('slider', { p: [0.4, 0.05, 0], q: I });
      expect(r.violation?.message).to.equal("'slider' would touch 'wall'; the move was undone.");
      expect(r.violation?.bodies).to.have.members(['slider', 'wall-1', 'wall-2']);
      expect(() => w.addBody({ name: 'x', spokenName: '', kind: 'static', pose: { p: [1, 1, 1], q: I }, shapes: [{ type: 'ball', radius: 0.01 }] })).to.throw(/spokenName/);
    } finally {
      w.free();
    }
  });
});
