/**
 * B6 oblique shadow: the shadow geometry on hand-built cases (a column's shadow is its height
 * times the light's slope long; the outline of two overlapping squares is the union's
 * boundary), the generator's guarantees, and in the real world (episodes through `TaskEnv`,
 * Rapier and the brick statics): the released references pass, while structures whose shadow
 * is off — a column left out, one brick lower, or one stud off — fail. The rendered shadow is
 * compared with the geometric one on a released instance (the certificate).
 */
import { expect } from 'chai';
import { b6ObliqueShadow } from '../tasks/construction/b6-oblique-shadow/family.ts';
import { shadowCertificate } from '../tasks/construction/b6-oblique-shadow/certificate.ts';
import { nearMisses, sceneProblem } from '../tasks/construction/b6-oblique-shadow/filters.ts';
import { BASE_TOP, BOARD_TOP, BRICK_H, landOnBaseplate, partShadows, planIoU, prismShadow, unionOutline, type B6Scene, type P2 } from '../tasks/construction/b6-oblique-shadow/scene.ts';
import { placeCall, reference } from '../tasks/construction/b6-oblique-shadow/solver.ts';
import { TaskEnv } from '../tasks/env.ts';
import type { Placement } from '../tasks/kits/bricks/plan.ts';
import type { Instance, TaskFamily, Tier, ToolCall } from '../tasks/types.ts';
import { Renderer } from '../render/renderer.ts';

const family = b6ObliqueShadow as unknown as TaskFamily;
const RELEASED: Tier[] = ['L3', 'L5', 'L7'];
/** How far the IoU measured on the rendered shadow may be from the geometric one of the settled bodies (the two points; see README). */
const PIXEL_TOLERANCE = 0.02;
/** How far the geometric IoU of the settled bodies may be from the verdict's (the structure on the grid): bricks settle within a fraction of a millimetre. */
const SETTLE_TOLERANCE = 0.01;

async function play(instance: Instance<B6Scene>, calls: ToolCall[]): Promise<{ statuses: string[]; messages: string[]; solved: boolean }> {
  const env = await TaskEnv.create(family, instance as Instance);
  try {
    const results = calls.map((c) => env.execute(c));
    return { statuses: results.map((r) => r.status), messages: results.map((r) => r.message), solved: env.solved() };
  } finally {
    env.free();
  }
}

function buildCalls(s: B6Scene, plan: readonly Placement[]): ToolCall[] {
  return [...plan.map((p) => placeCall(s, p)), { tool: 'commit', args: {} }];
}

describe('B6 oblique shadow', function () {
  this.timeout(900000);

  it("throws a box's shadow its height times the light's slope beyond its footprint", () => {
    const sq: P2[] = [
      [0, 0],
      [0.01, 0],
      [0.01, 0.01],
      [0, 0.01],
    ];
    const h = 0.05;
    const poly = prismShadow(sq, BOARD_TOP, BOARD_TOP + h, [1.2, 0]);
    const xs = poly.map((p) => p[0]);
    expect(Math.max(...xs)).to.be.closeTo(0.01 + 1.2 * h, 1e-12);
    expect(Math.min(...xs)).to.be.closeTo(0, 1e-12);
  });

  it('draws the outline of a union of overlapping squares and nothing inside it', () => {
    const a: P2[] = [
      [0, 0],
      [2, 0],
      [2, 2],
      [0, 2],
    ];
    const b: P2[] = [
      [1, 1],
      [3, 1],
      [3, 3],
      [1, 3],
    ];
    const segs = unionOutline([a, b]);
    const length = segs.reduce((t, [p, q]) => t + Math.hypot(q[0] - p[0], q[1] - p[1]), 0);
    expect(length).to.be.closeTo(12, 1e-9); // the union's perimeter; the inner 1×1 corner edges are dropped
  });

  it('draws instances whose references clear the threshold while every near miss falls short', () => {
    for (const tier of ['L1', 'L3', 'L5', 'L7'] as Tier[]) {
      for (const seed of [1, 2, 3]) {
        const s = b6ObliqueShadow.generate(seed, tier).scene;
        expect(sceneProblem(s), `${tier} s${seed}`).to.equal(null);
        expect(planIoU(s, s.target)).to.be.at.least(s.threshold);
        for (const m of nearMisses(s, s.target)) expect(planIoU(s, m.plan), m.what).to.be.below(s.threshold);
        // Studs make the shadow slightly larger than the boxes' alone.
        const parts = landOnBaseplate(s, s.target)!;
        expect(partShadows(s, parts, true).length).to.be.greaterThan(partShadows(s, parts, false).length);
      }
    }
    expect(BASE_TOP).to.be.greaterThan(0);
    expect(BRICK_H).to.be.closeTo(0.0096, 1e-12);
  });

  for (const tier of RELEASED) {
    it(`${tier}: the reference passes in the real world, and structures whose shadow is off fail`, async () => {
      const inst = b6ObliqueShadow.generate(100, tier);
      const s = inst.scene;
      const ref = await play(inst, reference(inst).calls);
      expect(ref.statuses.every((x) => x === 'ok'), ref.messages.join(' | ')).to.equal(true);
      expect(ref.solved).to.equal(true);
      const misses = nearMisses(s, s.target);
      const kinds = ['left out', 'one piece lower', 'moved'];
      for (const kind of kinds) {
        const m = misses.find((x) => x.what.includes(kind))!;
        const out = await play(inst, buildCalls(s, m.plan));
        expect(out.statuses.slice(0, -1).every((x) => x === 'ok'), `${m.what}: ${out.messages.join(' | ')}`).to.equal(true);
        expect(out.solved, m.what).to.equal(false);
        expect(out.messages.at(-1)).to.match(/failed/);
        expect(out.messages.at(-1)).to.not.match(/[0-9]/);
      }
    });
  }

  describe('the certificate: rendered vs geometric shadow', () => {
    let renderer: Renderer;
    before(() => {
      renderer = new Renderer();
    });
    after(async () => {
      await renderer.close();
    });
    for (const tier of RELEASED) {
      it(`${tier}: the rendered shadow's IoU is within two points of the geometric one, for the reference and a near miss`, async () => {
        const inst = b6ObliqueShadow.generate(100, tier);
        const miss = nearMisses(inst.scene, inst.scene.target).find((m) => m.what.includes('moved'))!;
        for (const [what, plan] of [['reference', inst.scene.target], [miss.what, miss.plan]] as const) {
          const c = await shadowCertificate(family, inst, plan, renderer);
          console.log(`      ${what}: geometric IoU ${c.geometricIoU.toFixed(4)} (verdict ${c.verdictIoU.toFixed(4)}), rendered ${c.pixelIoU.toFixed(4)}`);
          if (plan === inst.scene.target) expect(c.geometricIoU, what).to.be.at.least(inst.scene.threshold);
          else expect(c.geometricIoU, what).to.be.below(inst.scene.threshold);
          expect(Math.abs(c.pixelIoU - c.geometricIoU), what).to.be.at.most(PIXEL_TOLERANCE);
          expect(Math.abs(c.verdictIoU - c.geometricIoU), `${what}: settled vs grid`).to.be.at.most(SETTLE_TOLERANCE);
        }
      });
    }
  });
});
