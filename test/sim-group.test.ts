import { expect } from 'chai';
import { SpaceActError } from '../core/errors.ts';
import { ViolationError } from '../sim/violation.ts';
import { qangle, qaxisAngle, qmul, qrotate, transformPoint } from '../sim/math.ts';
import type { Pose, ShapeSpec, Vec3 } from '../sim/types.ts';
import { World } from '../sim/world.ts';

const I: Pose['q'] = [0, 0, 0, 1];
const TOL = 1e-4;
const cube = (half: number): ShapeSpec[] => [{ type: 'box', half: [half, half, half] }];

/** Where a pose ends after turning by `rad` about the axis through `pivot`. */
function turned(pose: Pose, pivot: Vec3, axis: Vec3, rad: number): Pose {
  const q = qaxisAngle(axis, rad);
  const r = qrotate(q, [pose.p[0] - pivot[0], pose.p[1] - pivot[1], pose.p[2] - pivot[2]]);
  return { p: [pivot[0] + r[0], pivot[1] + r[1], pivot[2] + r[2]], q: qmul(q, pose.q) };
}

describe('sim: group motion', () => {
  let world: World;
  beforeEach(async () => {
    world = await World.create({ gravity: [0, 0, 0] });
  });
  afterEach(() => world.free());

  /** Four touching 0.1 m cubes filling x, y ∈ [0, 0.2], z ∈ [−0.05, 0.05]. */
  function fourCubes(kind: 'kinematic' | 'dynamic' = 'kinematic'): string[] {
    const names: string[] = [];
    for (const [i, x] of [0.05, 0.15].entries()) {
      for (const [j, y] of [0.05, 0.15].entries()) {
        const name = `c${i}${j}`;
        world.addBody({ name, kind, pose: { p: [x, y, 0], q: I }, shapes: cube(0.05) });
        names.push(name);
      }
    }
    return names;
  }

  it('a turn of four touching cubes about an external axis stops at the hand-computed first contact', () => {
    const group = fourCubes();
    // A fifth body whose face x = −0.1 spans y ∈ [0.1, 0.5]. Turning about +z through the pivot
    // (−0.05, −0.05) outside every cube, the corner (0, 0.2) — at r = √(0.05² + 0.25²) from the
    // pivot, at the angle atan2(0.25, 0.05) — is the first to reach x = −0.1:
    //   −0.05 + r cos(α₀ + φ) = −0.1  ⇒  φ* = acos(−0.05 / r) − α₀ ≈ 22.62°.
    // (The corner (0.2, 0.2) would need 53°; the face sees no other vertex first.)
    world.addBody({ name: 'fifth', kind: 'static', pose: { p: [-0.2, 0.3, 0], q: I }, shapes: [{ type: 'box', half: [0.1, 0.2, 0.1] }] });
    const pivot: Vec3 = [-0.05, -0.05, 0];
    const r = Math.hypot(0.05, 0.25);
    const phi = Math.acos(-0.05 / r) - Math.atan2(0.25, 0.05);
    expect((phi * 180) / Math.PI).to.be.closeTo(22.62, 0.01);
    const hash = world.stateHash();
    const res = world.sweepGroup(group, { type: 'rotate', pivot, axis: [0, 0, 1], angleDeg: 90 });
    expect(world.stateHash()).to.equal(hash);
    expect(res.hit).to.equal(true);
    expect(res.bodies).to.deep.equal(['fifth']);
    expect(res.movers).to.deep.equal(['c01']);
    // The travelled turn is toi × 90°; its arc at the corner matches φ* within the tolerance.
    expect(Math.abs(res.toi * (Math.PI / 2) - phi) * r).to.be.at.most(TOL);
    expect(res.point![0]).to.be.closeTo(-0.1, 1e-3);
    expect(res.point![1]).to.be.closeTo(-0.05 + r * Math.sin(Math.acos(-0.05 / r)), 1e-3);
    expect(res.violation?.kind).to.equal('collision');
    expect(res.violation?.bodies).to.deep.equal(['c01', 'fifth']);
    // Every member is at the same turn of the group, free of the fifth body and within the tolerance.
    const turn = res.toi * (Math.PI / 2);
    for (const name of group) {
      const expected = turned(world.getPose(name), pivot, [0, 0, 1], turn);
      const got = res.lastFreePoses[name];
      expect(Math.hypot(got.p[0] - expected.p[0], got.p[1] - expected.p[1])).to.be.at.most(2 * TOL);
      expect(qangle(got.q, expected.q)).to.be.at.most((2 * TOL) / r);
    }
    expect(() => world.moveGroupSwept(group, { type: 'rotate', pivot, axis: [0, 0, 1], angleDeg: 90 })).to.throw(ViolationError);
    const d = world.distance('c01', 'fifth');
    expect(d).to.be.greaterThan(0);
    expect(d).to.be.at.most(TOL);
    // The members did not move relative to each other.
    expect(world.distance('c00', 'c01')).to.be.closeTo(0, 1e-6);
  });

  it('turning the other way, or by a smaller angle, is free and ends every member at its turned pose', () => {
    const group = fourCubes('dynamic');
    world.addBody({ name: 'fifth', kind: 'static', pose: { p: [-0.2, 0.3, 0], q: I }, shapes: [{ type: 'box', half: [0.1, 0.2, 0.1] }] });
    const pivot: Vec3 = [-0.05, -0.05, 0];
    const before = new Map(group.map((n) => [n, world.getPose(n)]));
    const res = world.moveGroupSwept(group, { type: 'rotate', pivot, axis: [0, 0, 1], angleDeg: -180 });
    expect(res.hit).to.equal(false);
    for (const name of group) {
      const expected = turned(before.get(name)!, pivot, [0, 0, 1], -Math.PI);
      const got = world.getPose(name);
      for (let i = 0; i < 3; i++) expect(got.p[i]).to.be.closeTo(expected.p[i], 1e-6);
      expect(qangle(got.q, expected.q)).to.be.below(1e-6);
      expect(world.getVelocity(name).linear).to.deep.equal([0, 0, 0]);
    }
    expect(world.sweepGroup(group, { type: 'rotate', pivot, axis: [0, 0, 1], angleDeg: 20 }).hit).to.equal(false);
  });

  it('a pocket-cube layer slides along the other layer; a pin sticking into its path stops it', () => {
    // 2 × 2 × 2 cubes of 0.1 m around the origin; the top layer turns about +y.
    const top: string[] = [];
    for (const x of [-0.05, 0.05]) {
      for (const y of [-0.05, 0.05]) {
        for (const z of [-0.05, 0.05]) {
          const name = `q${x > 0 ? 1 : 0}${y > 0 ? 1 : 0}${z > 0 ? 1 : 0}`;
          world.addBody({ name, kind: 'dynamic', pose: { p: [x, y, z], q: I }, shapes: cube(0.05) });
          if (y > 0) top.push(name);
        }
      }
    }
    const turn = { type: 'rotate' as const, pivot: [0, 0, 0] as Vec3, axis: [0, 1, 0] as Vec3, angleDeg: 90 };
    // The layers touch: with the default (lenient) start contacts the top layer slides along the
    // bottom one; a strict sweep counts that contact and stops at once.
    expect(world.sweepGroup(top, turn).hit).to.equal(false);
    expect(world.sweepGroup(top, turn, { strictInitialContacts: true }).toi).to.equal(0);
    // A vertical pin of radius 5 mm, its axis 0.145 m from the turn axis at −75° (atan2(z, x)).
    // The layer's corner (0.1, −0.1) — at R = 0.1√2, angle −45°, moving to −45° − φ — is the
    // only part that reaches past 0.14 m; it touches the pin's surface when its distance to the
    // pin's axis is 5 mm: R² + 0.145² − 2·R·0.145·cos Δ = 0.005², at φ* = 30° − Δ.
    const a = (-75 * Math.PI) / 180;
    world.addBody({ name: 'pin', kind: 'static', pose: { p: [0.145 * Math.cos(a), 0.05, 0.145 * Math.sin(a)], q: I }, shapes: [{ type: 'cylinder', radius: 0.005, halfHeight: 0.02 }] });
    const R = 0.1 * Math.SQRT2;
    const delta = Math.acos((R * R + 0.145 ** 2 - 0.005 ** 2) / (2 * R * 0.145));
    const phi = Math.PI / 6 - delta;
    const res = world.sweepGroup(top, turn);
    expect(res.hit).to.equal(true);
    expect(res.bodies).to.deep.equal(['pin']);
    expect(res.movers).to.deep.equal(['q110']);
    expect(Math.abs(res.toi * (Math.PI / 2) - phi) * R).to.be.at.most(TOL);
  });

  it('a maze cube turned with its loose ball carries the ball; leaving the ball out makes it an obstacle', () => {
    // A hollow cube: inner half 0.05 m, walls 0.01 m, centred at the origin; a loose ball rests
    // on the floor near the front wall.
    const t = 0.005;
    const walls: ShapeSpec[] = [
      { type: 'box', half: [0.06, t, 0.06], pose: { p: [0, -0.055, 0], q: I } },
      { type: 'box', half: [0.06, t, 0.06], pose: { p: [0, 0.055, 0], q: I } },
      { type: 'box', half: [t, 0.05, 0.06], pose: { p: [-0.055, 0, 0], q: I } },
      { type: 'box', half: [t, 0.05, 0.06], pose: { p: [0.055, 0, 0], q: I } },
      { type: 'box', half: [0.05, 0.05, t], pose: { p: [0, 0, -0.055], q: I } },
      { type: 'box', half: [0.05, 0.05, t], pose: { p: [0, 0, 0.055], q: I } },
    ];
    world.addBody({ name: 'maze', kind: 'kinematic', pose: { p: [0, 0, 0], q: I }, shapes: walls });
    const c: Vec3 = [0, -0.03, 0.025];
    world.addBody({ name: 'ball', kind: 'dynamic', pose: { p: c, q: I }, shapes: [{ type: 'ball', radius: 0.02 }] });
    const turn = { type: 'rotate' as const, pivot: [0, 0, 0] as Vec3, axis: [1, 0, 0] as Vec3, angleDeg: 90 };
    // Left out, the ball is in the way of the front wall (z = 0.05) turning down to the floor:
    // its face, normal n(φ) = (0, −sin φ, cos φ), reaches the ball when n·c + 0.02 = 0.05.
    const alone = world.sweepGroup(['maze'], turn);
    expect(alone.hit).to.equal(true);
    expect(alone.bodies).to.deep.equal(['ball']);
    const f = (x: number): number => -Math.sin(x) * c[1] + Math.cos(x) * c[2] + 0.02 - 0.05;
    let lo = 0;
    let hi = Math.PI / 2;
    for (let i = 0; i < 100; i++) [lo, hi] = f((lo + hi) / 2) < 0 ? [(lo + hi) / 2, hi] : [lo, (lo + hi) / 2];
    expect(Math.abs(alone.toi * (Math.PI / 2) - lo) * 0.05).to.be.at.most(TOL);
    // Carried, it turns with the maze and ends at rest where the turn takes it.
    const res = world.moveGroupSwept(['maze', 'ball'], turn);
    expect(res.hit).to.equal(false);
    const p = world.getPose('ball').p;
    const expected = transformPoint({ p: [0, 0, 0], q: qaxisAngle([1, 0, 0], Math.PI / 2) }, c);
    for (let i = 0; i < 3; i++) expect(p[i]).to.be.closeTo(expected[i], 1e-9);
    expect(world.contactsOf('ball')).to.deep.equal(['maze']);
  });

  it('a path motion translates then turns; each waypoint segment counts for an equal share of toi', () => {
    const group = fourCubes();
    world.addBody({ name: 'wall', kind: 'static', pose: { p: [1.3, 0, 0], q: I }, shapes: [{ type: 'box', half: [0.05, 1, 1] }] });
    const frame: Pose = { p: [0.1, 0.1, 0], q: I };
    // First segment: 0.5 m along +x (free). Second: another 1 m; the front face x = 0.2 + 0.5 + s
    // reaches the wall's face x = 1.25 at s = 0.55.
    const res = world.sweepGroup(group, { type: 'path', frame, waypoints: [{ p: [0.6, 0.1, 0], q: I }, { p: [1.6, 0.1, 0], q: I }] });
    expect(res.hit).to.equal(true);
    expect(res.bodies).to.deep.equal(['wall']);
    expect(res.movers).to.deep.equal(['c10', 'c11']);
    expect((res.toi - 0.5) * 2).to.be.closeTo(0.55, TOL);
  });

  it('the workspace and topology predicates apply to every member', async () => {
    const w = await World.create({ gravity: [0, 0, 0], workspace: { min: [-1, -1, -1], max: [1, 1, 1] } });
    try {
      w.addBody({ name: 'a', kind: 'kinematic', pose: { p: [0.5, 0, 0], q: I }, shapes: cube(0.05) });
      w.addBody({ name: 'b', kind: 'kinematic', pose: { p: [0.7, 0, 0], q: I }, shapes: cube(0.05) });
      // Turning 90° about +z through the origin takes b (0.75 m out at its far corner) …
      expect(w.sweepGroup(['a', 'b'], { type: 'rotate', pivot: [0, 0, 0], axis: [0, 0, 1], angleDeg: 90 }).hit).to.equal(false);
      // … but a path that carries it past x = 1 leaves the workspace.
      const out = w.sweepGroup(['a', 'b'], { type: 'path', frame: { p: [0, 0, 0], q: I }, waypoints: [{ p: [0.5, 0, 0], q: I }] });
      expect(out.violation?.kind).to.equal('workspace');
      expect(out.toi * 0.5).to.be.closeTo(0.25, TOL);
      w.addTopologyPredicate('a stays below y = 0.3', (ww) => (ww.getPose('a').p[1] > 0.3 ? { kind: 'topology', bodies: ['a'], message: 'a rose' } : null));
      const up = w.sweepGroup(['a', 'b'], { type: 'rotate', pivot: [0, 0, 0], axis: [0, 0, 1], angleDeg: 90 });
      expect(up.violation?.kind).to.equal('topology');
      // a at 0.5 m from the pivot rises past 0.3 m after asin(0.6) of turn (sampled every 5°).
      expect(up.toi * 90).to.be.within((Math.asin(0.6) * 180) / Math.PI, (Math.asin(0.6) * 180) / Math.PI + 5.01);
    } finally {
      w.free();
    }
  });

  it('rejects bad group input without changing anything', () => {
    const group = fourCubes();
    const hash = world.stateHash();
    const ok = { type: 'rotate', pivot: [0, 0, 0], axis: [0, 0, 1], angleDeg: 90 };
    const bad: Array<[unknown, unknown, unknown]> = [
      [[], ok, {}],
      [['c00', 'c00'], ok, {}],
      [['nope'], ok, {}],
      [[NaN], ok, {}],
      [group, { ...ok, angleDeg: NaN }, {}],
      [group, { ...ok, angleDeg: Infinity }, {}],
      [group, { ...ok, angleDeg: 1e300 }, {}],
      [group, { ...ok, axis: [0, 0, 0] }, {}],
      [group, { ...ok, pivot: [1e300, 0, 0] }, {}],
      [group, { ...ok, type: 'spin' }, {}],
      [group, { type: 'path', frame: { p: [0, 0, 0], q: I }, waypoints: [] }, {}],
      [group, { type: 'path', frame: { p: [0, 0, 0], q: [0, 0, 0, 0] }, waypoints: [{ p: [0, 0, 0], q: I }] }, {}],
      [group, { type: 'path', frame: { p: [0, 0, 0], q: I }, waypoints: [{ p: [-Infinity, 0, 0], q: I }] }, {}],
      [group, ok, { exclude: ['ghost'] }],
      [group, ok, { maxSegmentAngleDeg: 0 }],
      [group, null, {}],
    ];
    for (const [b, m, o] of bad) {
      expect(() => world.moveGroupSwept(b as string[], m as never, o as never), JSON.stringify([b, m, o])).to.throw(SpaceActError);
      expect(world.stateHash()).to.equal(hash);
    }
  });
});
