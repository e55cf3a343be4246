/**
 * M3 aperture threading: the slot fits the part end-on in its fitting orientation and in no
 * other (the mirror orientation, a quarter turn off, sideways — all refused by the world), decoy
 * slots admit it in no orientation, the tools and success test, and the straight-line filter. The
 * family's sightless strategies run in the shared shortcut battery (check-suite and `verify`).
 */
import { expect } from 'chai';
import { TIERS as ALL_TIERS } from '../core/catalog.ts';
import { qaxisAngle, qmul, qnormalize } from '../sim/math.ts';
import type { Pose, Quat } from '../sim/types.ts';
import { TaskEnv } from '../tasks/env.ts';
import { m3ApertureThreading } from '../tasks/manipulation/m3-aperture-threading/family.ts';
import { SHORTCUT_FILTERS } from '../tasks/manipulation/m3-aperture-threading/filters.ts';
import { fitQuat, matches, partRadius, straightLineGap } from '../tasks/manipulation/m3-aperture-threading/geometry.ts';
import { TIERS, type M3Scene } from '../tasks/manipulation/m3-aperture-threading/scene.ts';
import type { Instance } from '../tasks/types.ts';

const family = m3ApertureThreading;

/** Whether the part, held at the slot's centre in orientation `q`, passes straight through the wall (one swept translation). */
async function passes(instance: Instance<M3Scene>, wall: number, slotIndex: number, q: Quat): Promise<boolean> {
  const env = await TaskEnv.create(family, instance);
  try {
    const s = instance.scene;
    const slot = s.walls[wall].slots[slotIndex];
    const z = s.walls[wall].z;
    const off = s.depth / 2 + s.wallThickness / 2 + 0.02;
    const before: Pose = { p: [slot.x, slot.y, z + off], q };
    env.world.setPose('part', before);
    if (env.world.contactsOf('part').length) return false;
    return !env.world.sweep('part', { p: [slot.x, slot.y, z - off], q }).hit;
  } finally {
    env.free();
  }
}

describe('M3 aperture threading', function () {
  this.timeout(600_000);

  it('the matching slot passes the part end-on in the fitting orientation, and not mirrored, turned a quarter, or sideways', async () => {
    for (const tier of ['L3', 'L5'] as const) {
      const inst = family.generate(100, tier) as Instance<M3Scene>;
      const s = inst.scene;
      const w = 0;
      const mi = s.walls[w].slots.findIndex((x) => x.kind === 'match');
      const fit = fitQuat(s.walls[w].slots[mi]);
      expect(await passes(inst, w, mi, fit), `${inst.id} fitting`).to.equal(true);
      // End for end (a half turn about y): the slot sees the mirror image of the cross-section.
      expect(await passes(inst, w, mi, qnormalize(qmul(fit, qaxisAngle([0, 1, 0], Math.PI)))), `${inst.id} mirrored`).to.equal(false);
      expect(await passes(inst, w, mi, qnormalize(qmul(fit, qaxisAngle([0, 0, 1], Math.PI / 2)))), `${inst.id} quarter turn`).to.equal(false);
      expect(await passes(inst, w, mi, qnormalize(qmul(fit, qaxisAngle([1, 0, 0], Math.PI / 2)))), `${inst.id} sideways`).to.equal(false);
      // A few degrees off about a cross axis: the long part jams.
      expect(await passes(inst, w, mi, qnormalize(qmul(fit, qaxisAngle([1, 0, 0], (6 * Math.PI) / 180)))), `${inst.id} tilted 6°`).to.equal(false);
    }
  });

  it('decoy slots (one square moved) admit the part in none of the 8 end-on orientations', async () => {
    const inst = family.generate(100, 'L5') as Instance<M3Scene>;
    const s = inst.scene;
    for (const [wi, w] of s.walls.entries()) {
      for (const [si, slot] of w.slots.entries()) {
        if (slot.kind !== 'variant') continue;
        for (const flip of [0, Math.PI]) {
          for (let k = 0; k < 4; k++) {
            const q = qnormalize(qmul(qaxisAngle([0, 0, 1], (k * Math.PI) / 2), qaxisAngle([0, 1, 0], flip)));
            expect(await passes(inst, wi, si, q), `wall ${wi + 1} decoy, turn ${k}, flip ${flip}`).to.equal(false);
          }
        }
      }
    }
  });

  it('tools and success: a push into the wall is rolled back; the part fully beyond the last wall solves', async () => {
    const inst = family.generate(100, 'L3') as Instance<M3Scene>;
    const env = await TaskEnv.create(family, inst);
    const start = env.world.getPose('part');
    const r = env.execute({ tool: 'translate', args: { dz_m: -0.3 } });
    expect(r.status).to.equal('violation');
    expect(env.world.getPose('part')).to.deep.equal(start);
    expect(env.world.sweep('part', inst.scene.goal).hit, 'the straight move to the goal is blocked').to.equal(true);
    env.world.setPose('part', inst.scene.goal);
    expect(env.solved()).to.equal(true);
    const m = matches(inst.scene)[0];
    env.world.setPose('part', { p: [m.x, m.y, inst.scene.walls[0].z], q: fitQuat(m) });
    expect(env.world.contactsOf('part'), 'halfway through the slot it touches nothing').to.deep.equal([]);
    expect(env.solved(), 'halfway through is not solved').to.equal(false);
    expect(env.progress()).to.be.within(0.2, 0.95);
    env.free();
  });

  it('the straight-line filter refuses a start in line with the slot, and every generated instance passes the filters', () => {
    const inst = family.generate(100, 'L3') as Instance<M3Scene>;
    const m = matches(inst.scene)[0];
    const inLine: Pose = { p: [m.x, m.y, 0.15], q: inst.scene.start.q };
    const goal: Pose = { p: [m.x, m.y, -0.15], q: inst.scene.goal.q };
    expect(straightLineGap(inst.scene, inLine, goal)).to.match(/within the part's radius of a slot/);
    for (const tier of ALL_TIERS) {
      for (const seed of [1, 2, 3, 4, 5, 6]) {
        const x = family.generate(seed, tier) as Instance<M3Scene>;
        expect(x.scene.walls).to.have.length(TIERS[tier].walls);
        for (const f of SHORTCUT_FILTERS) expect(f.check(x), `${x.id} ${f.name}`).to.equal(null);
        expect(partRadius(x.scene)).to.be.below(0.08);
      }
    }
  });

});
