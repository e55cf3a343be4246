/**
 * V3 rotated copy: the exact certificate and the tier's turn on the released instances and on
 * hand-broken copies (which the filters must refuse), the near misses, the episode's answer tool,
 * and the L7 first view: every candidate could be its own mirror image as far as it shows.
 */
import { expect } from 'chai';
import { closeNearMiss, handednessOf, mirrorCells, smallestTurn } from '../solvers/polycube-chirality.ts';
import { TaskEnv } from '../tasks/env.ts';
import { consistentPlacement } from '../tasks/kits/part-sight/alternatives.ts';
import { sceneSight } from '../tasks/kits/part-sight/table-scene.ts';
import { v3RotatedCopy } from '../tasks/perception/v3-rotated-copy/family.ts';
import { SHORTCUT_FILTERS } from '../tasks/perception/v3-rotated-copy/filters.ts';
import type { V3Scene } from '../tasks/perception/v3-rotated-copy/scene.ts';
import type { Instance, Tier, ToolCall } from '../tasks/types.ts';

const gen = (tier: Tier, seed = 100): Instance<V3Scene> => v3RotatedCopy.generate(seed, tier);
const filter = (name: string) => SHORTCUT_FILTERS.find((f) => f.name === name)!;

async function play(instance: Instance<V3Scene>, calls: ToolCall[]) {
  const env = await TaskEnv.create(v3RotatedCopy, instance);
  try {
    const hash0 = env.stateHash();
    const results = calls.map((c) => env.execute(c));
    return { results, solved: env.solved(), ended: env.terminated, hashSame: env.stateHash() === hash0 };
  } finally {
    env.free();
  }
}

describe('V3 rotated copy', function () {
  this.timeout(300000);

  for (const tier of ['L1', 'L3', 'L5', 'L7'] as Tier[]) {
    it(`${tier}: every filter holds; one copy, one mirror image, the rest one-cube moves; the turn fits the tier`, () => {
      const inst = gen(tier);
      for (const f of SHORTCUT_FILTERS) expect(f.check(inst), f.name).to.equal(null);
      const [ref, ...cands] = inst.scene.parts;
      expect(ref.letter).to.equal('R');
      const rel = cands.map((c) => handednessOf(ref.cells, c.cells));
      expect(rel.filter((r) => r === 'copy')).to.have.length(1);
      expect(rel.filter((r) => r === 'mirror')).to.have.length(1);
      expect(cands.length).to.equal(tier === 'L1' ? 3 : 4);
      expect(inst.scene.made).to.deep.equal(rel.map((r) => (r === 'other' ? 'moved' : r)));
      const copy = cands.find((c) => c.letter === inst.scene.answer)!;
      const t = smallestTurn(ref, copy)!;
      expect(t.angleDeg).to.be.closeTo(inst.scene.turn.angleDeg, 1e-6);
      if (tier === 'L1') expect(t.axisTiltDeg).to.be.closeTo(0, 1e-6);
      else expect(t.axisTiltDeg).to.be.above(1);
      if (tier === 'L5' || tier === 'L7') {
        expect(t.angleDeg).to.be.at.least(120 - 1e-6);
        cands.forEach((c, i) => inst.scene.made[i] === 'moved' && expect(closeNearMiss(ref.cells, c.cells), c.letter).to.equal(true));
      }
    });
  }

  it('refuses two copies, no copy, a misnamed answer, and a copy turned less than the tier asks (cases that must fail)', () => {
    const inst = gen('L5');
    const s = inst.scene;
    const copyAt = s.parts.findIndex((p) => p.letter === s.answer);
    const mirrorAt = 1 + s.made.indexOf('mirror');
    const broken = (change: (sc: V3Scene) => void): Instance<V3Scene> => {
      const c = structuredClone(inst);
      change(c.scene);
      return c;
    };
    expect(filter('certificate').check(broken((sc) => (sc.parts[mirrorAt].cells = sc.parts[copyAt].cells)))).to.match(/2 candidates/);
    expect(filter('certificate').check(broken((sc) => (sc.parts[copyAt].cells = mirrorCells(sc.parts[0].cells))))).to.match(/0 candidates/);
    expect(filter('certificate').check(broken((sc) => (sc.answer = sc.parts[mirrorAt].letter)))).to.match(/the copy is/);
    // The copy standing exactly as the reference does: no turn at all.
    expect(filter('tier-turn').check(broken((sc) => Object.assign(sc.parts[copyAt], { cells: sc.parts[0].cells, yawDeg: sc.parts[0].yawDeg })))).to.match(/not what L5 asks/);
  });

  it('L7: every candidate could be its own mirror image as far as the first view shows; without walls it could not', () => {
    const inst = gen('L7');
    const sight = sceneSight(inst.scene);
    inst.scene.parts.slice(1).forEach((c, i) => expect(consistentPlacement(sight, inst.camera.initial, i + 1, mirrorCells(c.cells)), c.letter).to.not.equal(null));
    expect(inst.scene.firstView!.answers.length).to.be.at.least(2);
    const open = structuredClone(inst);
    open.scene.walls = [];
    expect(filter('first-view-open').check(open)).to.be.a('string');
  });

  it('only the copy\'s letter solves; others and unknown letters do not; camera moves change nothing', async () => {
    const inst = gen('L3');
    const s = inst.scene;
    const wrong = s.parts.slice(1).find((p) => p.letter !== s.answer)!.letter;
    expect((await play(inst, [{ tool: 'answer', args: { option: s.answer } }])).solved).to.equal(true);
    const bad = await play(inst, [{ tool: 'answer', args: { option: wrong } }]);
    expect(bad.solved).to.equal(false);
    expect(bad.ended).to.equal(true);
    const looked = await play(inst, [{ tool: 'orbit', args: { azimuth_deg: -90, elevation_deg: 20 } }, { tool: 'answer', args: { option: 'R' } }]);
    expect(looked.results.map((r) => r.status)).to.deep.equal(['ok', 'invalid']);
    expect(looked.hashSame).to.equal(true);
    expect(looked.ended).to.equal(false);
  });
});
