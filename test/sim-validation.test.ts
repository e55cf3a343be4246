import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { BrickSystem, BRICK_WORLD_OPTIONS } from '../sim/bricks.ts';
import { SpaceActError } from '../core/errors.ts';
import type { BodySpec, Vec3 } from '../sim/types.ts';
import { World } from '../sim/world.ts';

/**
 * Walks every public entry point of the world and the brick system with bad input — NaN,
 * ±Infinity, 1e300 in every number, zero in every size, an unknown name in every reference —
 * and checks that each call throws a SpaceActError and leaves the state hash unchanged. The
 * table must name every public method, so a new one cannot be left out.
 */

const I = [0, 0, 0, 1];
type Case = {
  /** Valid arguments (built against the fixture world). */
  args: () => unknown[];
  /** JSON paths (e.g. "0.half.1") where a zero must be refused. */
  sizes?: string[];
  /** Paths of strings that name something that exists (an unknown name must be refused). */
  ids?: string[];
  /** Paths of numbers that are not checked (none by default). */
  free?: string[];
};

/** Paths of every number and string leaf of `value`. */
function leaves(value: unknown, path: string[] = []): Array<{ path: string[]; kind: 'number' | 'string' }> {
  if (typeof value === 'number') return [{ path, kind: 'number' }];
  if (typeof value === 'string') return [{ path, kind: 'string' }];
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, [...path, String(i)]));
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]));
  return [];
}

function replaced(args: unknown[], path: string[], to: unknown): unknown[] {
  const copy = structuredClone(args.map((a) => (typeof a === 'function' ? null : a))) as unknown[];
  args.forEach((a, i) => typeof a === 'function' && (copy[i] = a));
  let at: Record<string, unknown> = copy as unknown as Record<string, unknown>;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string, unknown>;
  at[path[path.length - 1]] = to;
  return copy;
}

/** Names of the `private` methods of a class in its source file. */
function privateNames(file: string): Set<string> {
  const src = readFileSync(new URL(`../sim/${file}`, import.meta.url), 'utf8');
  return new Set([...src.matchAll(/^\s+private (?:readonly )?(?:get )?(\w+)\(/gm)].map((m) => m[1]));
}

function publicMethods(proto: object, file: string): string[] {
  const priv = privateNames(file);
  return Object.getOwnPropertyNames(proto).filter((n) => n !== 'constructor' && !priv.has(n) && typeof Object.getOwnPropertyDescriptor(proto, n)!.value === 'function');
}

const box = (name: string, kind: 'static' | 'dynamic' | 'kinematic', p: number[], half: number[]): BodySpec => ({ name, kind, pose: { p: p as Vec3, q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half: half as Vec3 }] });

const WORLD_CASES: Record<string, Case> = {
  advance: { args: () => [0.1] },
  addBody: { args: () => [box('new', 'dynamic', [0, 1, 0], [0.1, 0.2, 0.3])], sizes: ['0.shapes.0.half.0', '0.shapes.0.half.1', '0.shapes.0.half.2'] },
  removeBody: { args: () => ['crate'], ids: ['0'] },
  bodySpec: { args: () => ['crate'], ids: ['0'] },
  bodyKind: { args: () => ['crate'], ids: ['0'] },
  getPose: { args: () => ['crate'], ids: ['0'] },
  setPose: { args: () => ['crate', { p: [0, 1, 0], q: [...I] }], ids: ['0'] },
  getVelocity: { args: () => ['crate'], ids: ['0'] },
  setVelocity: { args: () => ['crate', [1, 0, 0], [0, 1, 0]], ids: ['0'] },
  setKind: { args: () => ['crate', 'kinematic'], ids: ['0'] },
  setColor: { args: () => ['crate', '#ff0000'], ids: ['0'] },
  mass: { args: () => ['crate'], ids: ['0'] },
  centerOfMass: { args: () => ['crate'], ids: ['0'] },
  bodyAabb: { args: () => ['crate'], ids: ['0'] },
  material: { args: () => ['crate'], ids: ['0'] },
  applyImpulse: { args: () => ['crate', [0, 1, 0], [0, 0.1, 0]], ids: ['0'] },
  defineFrame: { args: () => ['f2', { p: [0, 1, 0], q: [...I] }, 'crate'], ids: ['2'] },
  removeFrame: { args: () => ['f1'], ids: ['0'] },
  framePose: { args: () => ['f1'], ids: ['0'] },
  toWorld: { args: () => ['f1', { p: [0, 1, 0], q: [...I] }], ids: ['0'] },
  fromWorld: { args: () => ['f1', { p: [0, 1, 0], q: [...I] }], ids: ['0'] },
  addJoint: { args: () => [{ name: 'j2', type: 'revolute', bodyA: 'table', bodyB: 'crate', anchor: [0, 0.1, 0], axis: [0, 0, 1] }], ids: ['0.bodyA', '0.bodyB'] },
  removeJoint: { args: () => ['j1'], ids: ['0'] },
  setJointMotor: { args: () => ['hinge', { velocity: 10, damping: 5, maxForce: 1 }], ids: ['0'], sizes: ['1.maxForce'] },
  jointPosition: { args: () => ['hinge'], ids: ['0'] },
  jointSpec: { args: () => ['j1'], ids: ['0'] },
  sweep: { args: () => ['crate', { p: [0.3, 0.5, 0], q: [...I] }, { exclude: ['table'], maxSegmentAngleDeg: 5 }], ids: ['0', '2.exclude.0'] },
  moveSwept: { args: () => ['crate', { p: [0.3, 0.5, 0], q: [...I] }, { exclude: ['table'], maxSegmentAngleDeg: 5 }], ids: ['0', '2.exclude.0'] },
  sweepGroup: { args: () => [['crate', 'lid'], { type: 'rotate', pivot: [0, 0, 0], axis: [0, 1, 0], angleDeg: 30 }, { exclude: ['table'] }], ids: ['0.0', '0.1', '2.exclude.0'] },
  moveGroupSwept: { args: () => [['crate', 'lid'], { type: 'path', frame: { p: [0, 0, 0], q: [...I] }, waypoints: [{ p: [0, 0.5, 0], q: [...I] }] }], ids: ['0.0', '0.1'] },
  contactsOf: { args: () => ['crate'], ids: ['0'] },
  distance: { args: () => ['crate', 'table', 1], ids: ['0', '1'] },
  removeTopologyPredicate: { args: () => ['p1'], ids: ['0'] },
  settle: { args: () => [{ seconds: 0.1, linearTol: 0.002, angularTolDeg: 1, settleTol: 0.02, settleAngleDeg: 5, bodies: ['crate'] }], ids: ['0.bodies.0'], sizes: ['0.linearTol', '0.settleTol', '0.angularTolDeg', '0.settleAngleDeg'] },
  loadTest: { args: () => [{ body: 'crate', point: [0, 0.1, 0], mass: 1, seconds: 0.1, watch: ['crate'], linearTol: 0.002 }], ids: ['0.body', '0.watch.0'], sizes: ['0.mass', '0.seconds', '0.linearTol'] },
  rampLoadTest: { args: () => [{ body: 'crate', point: [0.4, 0.2, 0.4], force: [1, 0, 0], seconds: 0.05, watch: ['crate'], linearTol: 0.001 }], ids: ['0.body', '0.watch.0'], sizes: ['0.seconds', '0.linearTol'] },
  validateLoadTest: { args: () => [{ body: 'crate', point: [0, 0.1, 0], force: [0, -1, 0], seconds: 0.1 }], ids: ['0.body'], sizes: ['0.seconds'] },
  unregisterParticipant: { args: () => ['bricks'], ids: ['0'] },
  addStepListener: { args: () => [() => undefined] },
  addTopologyPredicate: { args: () => ['p2', () => null] },
  attempt: { args: () => [() => 1] },
  registerParticipant: { args: () => ['ext2', { save: () => ({}), load: () => undefined }] },
  restore: { args: () => [{}] },
  hasBody: { args: () => ['crate'] },
  hasFrame: { args: () => ['f1'] },
  hasJoint: { args: () => ['j1'] },
};
/** World methods without input to corrupt. */
const WORLD_NO_INPUT = ['bodyNames', 'frameNames', 'jointNames', 'checkTopology', 'snapshot', 'stateHash', 'describe', 'free'];

const BRICK_CASES: Record<string, Case> = {
  defineGrid: { args: () => ['g2', [0, 0, 0.5], 90] },
  gridPoint: { args: () => ['grid', 1, 2, 3], ids: ['0'] },
  addBaseplate: { args: () => [{ name: 'base2', size: [4, 4], cell: [20, 20], top: 0, height: 1 }], sizes: ['0.size.0', '0.size.1', '0.height'] },
  addLooseBlock: { args: () => [{ name: 'loose2', half: [0.01, 0.01, 0.01], pose: { p: [0.3, 0.2, 0.3], q: [...I] }, density: 500, friction: 0.5 }], sizes: ['0.half.0', '0.half.1', '0.half.2', '0.density'] },
  place: { args: () => [{ name: 'b2', size: [2, 2], cell: [6, 6], rot: 0 }], sizes: ['0.size.0', '0.size.1'] },
  remove: { args: () => ['b1'], ids: ['0'] },
  partInfo: { args: () => ['b1'], ids: ['0'] },
  partAt: { args: () => [[2, 2], 'grid'], ids: ['1'] },
  studPoints: { args: () => ['b1'], ids: ['0'] },
  placementPose: { args: () => [{ size: [2, 2], cell: [6, 6], rot: 0, layer: 1 }], sizes: ['0.size.0', '0.size.1'] },
  analyze: { args: () => [[{ body: 'b1', point: [0, 0.01, 0], force: [0, -1, 0] }]], ids: ['0.0.body'] },
  loadTest: { args: () => [{ body: 'b1', point: [0, 0.01, 0], mass: 0.01, seconds: 0.1, watch: ['b1'], linearTol: 0.002 }], ids: ['0.body', '0.watch.0'], sizes: ['0.mass', '0.seconds', '0.linearTol'] },
};
const BRICK_NO_INPUT = ['gridNames', 'parts', 'connections'];

describe('sim: every public entry point refuses bad input and changes nothing', () => {
  let world: World;
  let bricks: BrickSystem;
  beforeEach(async () => {
    world = await World.create(BRICK_WORLD_OPTIONS);
    bricks = new BrickSystem(world);
    bricks.addBaseplate({ name: 'base', size: [16, 16], cell: [0, 0] });
    bricks.place({ name: 'b1', size: [2, 2], cell: [2, 2], rot: 0 });
    world.addBody(box('table', 'static', [0, -0.5, 0], [1, 0.05, 1]));
    world.addBody(box('crate', 'dynamic', [0.4, 0.2, 0.4], [0.02, 0.02, 0.02]));
    world.addBody(box('lid', 'kinematic', [0.4, 0.3, 0.4], [0.02, 0.005, 0.02]));
    world.defineFrame('f1', { p: [0, 1, 0], q: [0, 0, 0, 1] });
    world.addJoint({ name: 'j1', type: 'fixed', bodyA: 'table', bodyB: 'lid', anchor: [0.4, 0.3, 0.4] });
    world.addJoint({ name: 'hinge', type: 'revolute', bodyA: 'table', bodyB: 'crate', anchor: [0.4, 0.2, 0.4], axis: [0, 0, 1], limits: [-10, 10] });
    world.addTopologyPredicate('p1', () => null);
  });
  afterEach(() => world.free());

  it('the tables name every public method of World and BrickSystem', () => {
    expect(publicMethods(World.prototype, 'world.ts').sort()).to.deep.equal([...Object.keys(WORLD_CASES), ...WORLD_NO_INPUT].sort());
    expect(publicMethods(BrickSystem.prototype, 'bricks.ts').sort()).to.deep.equal([...Object.keys(BRICK_CASES), ...BRICK_NO_INPUT].sort());
  });

  for (const [target, cases] of [['World', WORLD_CASES], ['BrickSystem', BRICK_CASES]] as const) {
    for (const [method, c] of Object.entries(cases)) {
      it(`${target}.${method}`, () => {
        const self = (target === 'World' ? world : bricks) as unknown as Record<string, (...a: unknown[]) => unknown>;
        const call = (args: unknown[]): unknown => self[method](...args);
        const hash = world.stateHash();
        const bad: Array<{ label: string; args: unknown[] }> = [];
        for (const leaf of leaves(c.args())) {
          const key = leaf.path.join('.');
          if (leaf.kind === 'number' && !c.free?.includes(key)) {
            for (const v of [NaN, Infinity, -Infinity, 1e300]) bad.push({ label: `${key} = ${v}`, args: replaced(c.args(), leaf.path, v) });
            if (c.sizes?.includes(key)) bad.push({ label: `${key} = 0`, args: replaced(c.args(), leaf.path, 0) });
          }
          if (leaf.kind === 'string' && c.ids?.includes(key)) bad.push({ label: `${key} = 'ghost'`, args: replaced(c.args(), leaf.path, 'ghost') });
        }
        // Every argument position also refuses garbage of the wrong type (where it is not optional).
        c.args().forEach((a, i) => {
          if (typeof a !== 'number') bad.push({ label: `arg ${i} = 1e300`, args: c.args().map((x, j) => (j === i ? 1e300 : x)) });
        });
        for (const { label, args } of bad) {
          let caught: unknown;
          try {
            call(args);
          } catch (err) {
            caught = err;
          }
          if (method === 'hasBody' || method === 'hasFrame' || method === 'hasJoint') {
            // Predicates answer false for anything that is not a name; they never throw.
            expect(caught, label).to.equal(undefined);
          } else {
            expect(caught, `${method}(${label})`).to.be.instanceOf(SpaceActError);
          }
          expect(world.stateHash(), `${method}(${label}) changed the state`).to.equal(hash);
        }
        // The valid call works (so the refusals above were about the bad values).
        if (method !== 'restore' && method !== 'unregisterParticipant') {
          const snap = world.snapshot();
          expect(() => call(c.args()), `${method} with valid input`).to.not.throw();
          world.restore(snap);
        }
      });
    }
  }

  it('a BrickSystem whose grid is refused stays unregistered, so a valid one can follow', async () => {
    const w = await World.create(BRICK_WORLD_OPTIONS);
    try {
      const hash = w.stateHash();
      for (const grid of [{ name: 'world' }, { origin: [NaN, 0, 0] }, { origin: [1e300, 0, 0] }, { yawDeg: Infinity }]) {
        expect(() => new BrickSystem(w, { grid } as never), JSON.stringify(grid)).to.throw(SpaceActError);
        expect(w.stateHash()).to.equal(hash);
      }
      expect(() => new BrickSystem(w, { pitch: 0 })).to.throw(SpaceActError);
      expect(w.stateHash()).to.equal(hash);
      expect(() => new BrickSystem(w)).to.not.throw();
    } finally {
      w.free();
    }
  });

  it('BrickSystem.loadTest refuses a bad watch list or tolerance before letting any connection go', () => {
    bricks.place({ name: 'b2', size: [2, 2], cell: [2, 2], rot: 0 });
    const before = bricks.connections().length;
    const hash = world.stateHash();
    for (const bad of [{ watch: ['ghost'] }, { watch: 'b1' }, { linearTol: NaN }, { linearTol: 0 }, { linearTol: 1e300 }]) {
      expect(() => bricks.loadTest({ body: 'b2', point: world.getPose('b2').p, mass: 100, ...bad } as never), JSON.stringify(bad)).to.throw(SpaceActError);
      expect(bricks.connections().length).to.equal(before);
      expect(world.stateHash()).to.equal(hash);
    }
  });
});
