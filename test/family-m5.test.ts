/**
 * M5 heart slot: the heart is the union of its two convex halves and its opening that outline
 * grown; the block passes the matching opening face-on in its orientation family (as is, and
 * turned over about the symmetry axis) and not turned in its plane, edge-on or through a decoy;
 * the `+tool` lever turns about the block's own axes (drawn on it); the filters. Its sightless
 * strategies run in the shared shortcut battery (check-suite and `verify`).
 */
import { expect } from 'chai';
import { TIERS as ALL_TIERS } from '../core/catalog.ts';
import { qangle, qaxisAngle, qmul, qnormalize } from '../sim/math.ts';
import type { Pose, Quat } from '../sim/types.ts';
import { Renderer } from '../render/renderer.ts';
import { TaskEnv } from '../tasks/env.ts';
import { m5HeartSlot } from '../tasks/manipulation/m5-heart-slot/family.ts';
import { SHORTCUT_FILTERS } from '../tasks/manipulation/m5-heart-slot/filters.ts';
import { fitQuat, flippedFit, match, straightLineGap } from '../tasks/manipulation/m5-heart-slot/geometry.ts';
import { grownHeart, heart, inside } from '../tasks/manipulation/m5-heart-slot/heart.ts';
import type { M5Scene } from '../tasks/manipulation/m5-heart-slot/scene.ts';
import type { Instance } from '../tasks/types.ts';

const family = m5HeartSlot;

/** Whether the block, at the opening's centre offset by (dx, dy) in orientation q, passes straight through the wall. */
async function passes(instance: Instance<M5Scene>, openingIndex: number, q: Quat, dx = 0, dy = 0): Promise<boolean> {
  const env = await TaskEnv.create(family, instance);
  try {
    const s = instance.scene;
    const o = s.wall.openings[openingIndex];
    const off = 0.1;
    env.world.setPose('heart', { p: [o.x + dx, o.y + dy, s.wall.z + off], q });
    if (env.world.contactsOf('heart').length) return false;
    return !env.world.sweep('heart', { p: [o.x + dx, o.y + dy, s.wall.z - off], q }).hit;
  } finally {
    env.free();
  }
}

describe('M5 heart slot', function () {
  this.timeout(600_000);

  it('the heart is symmetric and the opening is the union of its two convex halves grown by the clearance (the notch fills in)', () => {
    const h = heart(0.096, 0.087);
    for (const [x, y] of h.outline) expect(h.outline.some(([u, v]) => Math.abs(u + x) < 1e-9 && Math.abs(v - y) < 1e-9), 'mirror point').to.equal(true);
    const c = 0.002;
    const grown = grownHeart(h, c);
    // Exactly two points on the axis: the bottom and the filled-in notch.
    expect(grown.filter((p) => p[0] === 0)).to.have.length(2);
    // Every point of the block's outline (both halves' edges, sampled) is inside, at least c from the opening's edge.
    const edgeDistance = (x: number, y: number): number => {
      let best = Infinity;
      for (let i = 0; i < grown.length; i++) {
        const [ax, ay] = grown[i];
        const [bx, by] = grown[(i + 1) % grown.length];
        const t = Math.max(0, Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)));
        best = Math.min(best, Math.hypot(x - ax - t * (bx - ax), y - ay - t * (by - ay)));
      }
      return best;
    };
    for (const half of [h.right, h.right.map(([x, y]): [number, number] => [-x, y])]) {
      for (let i = 0; i < half.length; i++) {
        const [ax, ay] = half[i];
        const [bx, by] = half[(i + 1) % half.length];
        for (let k = 0; k < 10; k++) {
          const x = ax + ((bx - ax) * k) / 10;
          const y = ay + ((by - ay) * k) / 10;
          expect(inside(grown, x, y)).to.equal(true);
          expect(edgeDistance(x, y)).to.be.greaterThan(c - 1e-6);
        }
      }
    }
  });

  it('face-on in its orientation family the block passes; turned in its plane, tilted or edge-on it does not', async () => {
    const inst = family.generate(100, 'L3') as Instance<M5Scene>;
    const s = inst.scene;
    const mi = s.wall.openings.findIndex((o) => o.kind === 'match');
    const fit = fitQuat(match(s));
    expect(await passes(inst, mi, fit), 'as is').to.equal(true);
    expect(await passes(inst, mi, flippedFit(match(s))), 'turned over about the symmetry axis').to.equal(true);
    expect(await passes(inst, mi, qnormalize(qmul(qaxisAngle([0, 0, 1], (8 * Math.PI) / 180), fit))), 'turned 8° in its plane').to.equal(false);
    expect(await passes(inst, mi, qnormalize(qmul(qaxisAngle([0, 0, 1], Math.PI), fit))), 'upside down').to.equal(false);
    expect(await passes(inst, mi, qnormalize(qmul(qaxisAngle([1, 0, 0], (10 * Math.PI) / 180), fit))), 'tilted 10°').to.equal(false);
    // Edge-on: the block's plane along the way through, at in-plane turns every 30°, a few offsets.
    for (let roll = 0; roll < 180; roll += 30) {
      const edgeOn = qnormalize(qmul(qaxisAngle([0, 0, 1], (roll * Math.PI) / 180), qaxisAngle([0, 1, 0], Math.PI / 2)));
      for (const [dx, dy] of [[0, 0], [0, 0.015], [0, -0.015], [0.015, 0], [-0.015, 0]]) {
        expect(await passes(inst, mi, edgeOn, dx, dy), `edge-on, turned ${roll}°, offset ${dx}, ${dy}`).to.equal(false);
      }
    }
  });

  it('decoy openings (smaller, narrower) do not pass the block face-on in any turn', async () => {
    const inst = family.generate(100, 'L5') as Instance<M5Scene>;
    const s = inst.scene;
    for (const [i, o] of s.wall.openings.entries()) {
      if (o.kind === 'match') continue;
      for (let deg = -30; deg <= 30; deg += 10) {
        const q = qnormalize(qaxisAngle([0, 0, 1], ((o.turnDeg + deg) * Math.PI) / 180));
        expect(await passes(inst, i, q), `${o.kind} decoy turned ${o.turnDeg + deg}°`).to.equal(false);
      }
    }
  });

  it("+tool: rotate turns about the block's own axes, and the drawn axes move with it", async () => {
    const inst = family.generate(100, 'L7') as Instance<M5Scene>;
    expect(inst.scene.toolFrame).to.equal(true);
    const env = await TaskEnv.create(family, inst);
    const before = env.world.getPose('heart');
    const r = env.execute({ tool: 'rotate', args: { axis: 'x', angle_deg: 10 } });
    expect(r.status).to.equal('ok');
    const after = env.world.getPose('heart');
    // Own frame: q · R_x(10°), not R_x(10°) · q.
    // Float poses leave a few 1e-4 rad of noise in the angle read-out.
    expect(qangle(after.q, qmul(before.q, qaxisAngle([1, 0, 0], (10 * Math.PI) / 180)))).to.be.below(2e-3);
    expect(qangle(after.q, qmul(qaxisAngle([1, 0, 0], (10 * Math.PI) / 180), before.q))).to.be.above(1e-2);
    const arrow = env.world.getPose('heart-axis-x');
    expect(qangle(arrow.q, after.q)).to.be.below(2e-3);
    env.free();
  });

  it('tools and success: a push into the wall is rolled back; the block beyond the wall solves', async () => {
    const inst = family.generate(100, 'L5') as Instance<M5Scene>;
    const env = await TaskEnv.create(family, inst);
    const start: Pose = env.world.getPose('heart');
    expect(env.execute({ tool: 'translate', args: { dz_m: -0.3 } }).status).to.equal('violation');
    expect(env.world.getPose('heart')).to.deep.equal(start);
    // The wall's collider is not drawn; its drawn twin stands in for it in the rollback picture.
    const renderer = new Renderer({ width: 320, height: 240 });
    try {
      const [rollback] = await env.observe(renderer);
      expect(rollback.kind).to.equal('rollback');
      expect(rollback.caption).to.match(/cyan tint: what it hit/);
      expect(rollback.caption).to.not.match(/not drawn/);
    } finally {
      await renderer.close();
    }
    expect(env.world.sweep('heart', inst.scene.goal).hit, 'the straight move to the goal is blocked').to.equal(true);
    env.world.setPose('heart', inst.scene.goal);
    expect(env.solved()).to.equal(true);
    env.free();
  });

  it('the straight-line filter refuses a start in line with the opening; generated instances pass every filter', () => {
    const inst = family.generate(100, 'L3') as Instance<M5Scene>;
    const m = match(inst.scene);
    expect(straightLineGap(inst.scene, { p: [m.x, m.y, 0.2], q: inst.scene.start.q }, { p: [m.x, m.y, -0.2], q: inst.scene.goal.q })).to.match(/through an opening/);
    for (const tier of ALL_TIERS) {
      for (const seed of [1, 2, 3, 4, 5]) {
        const x = family.generate(seed, tier) as Instance<M5Scene>;
        for (const f of SHORTCUT_FILTERS) expect(f.check(x), `${x.id} ${f.name}`).to.equal(null);
      }
    }
  });

});
