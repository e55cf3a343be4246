/**
 * V4 ruler reading: the size, the tolerance and the filters on the released instances and on
 * hand-broken copies (which the filters must refuse), the answer tool, and the ray-cast sight
 * against the real renderer: the end a screen hides draws (almost) nothing, and the ruler pieces
 * the reading view needs show the ruler's band.
 */
import { expect } from 'chai';
import type { CameraSpec } from '../render/camera-spec.ts';
import { cameraFrame } from '../render/camera-frame.ts';
import { decodePng } from '../render/pixels.ts';
import { Renderer } from '../render/renderer.ts';
import type { SceneDescription, Vec3 } from '../sim/types.ts';
import { TaskEnv } from '../tasks/env.ts';
import { v4RulerReading } from '../tasks/perception/v4-ruler-reading/family.ts';
import { SHORTCUT_FILTERS } from '../tasks/perception/v4-ruler-reading/filters.ts';
import { RANGES, ROUND_STEP_CM, type V4Scene } from '../tasks/perception/v4-ruler-reading/scene.ts';
import { endHidden, PIECE, readableFrom, RulerSight, rulerFrame, rulerPartlyHidden, spanLength, spanOnRuler } from '../tasks/perception/v4-ruler-reading/sight.ts';
import { screenHidesOnlyTheEnd } from '../tasks/perception/v4-ruler-reading/generate.ts';
import { readingView } from '../tasks/perception/v4-ruler-reading/solver.ts';
import type { Instance, Tier, ToolCall } from '../tasks/types.ts';

const gen = (tier: Tier, seed = 100): Instance<V4Scene> => v4RulerReading.generate(seed, tier);
const filter = (name: string) => SHORTCUT_FILTERS.find((f) => f.name === name)!;

async function play(instance: Instance<V4Scene>, calls: ToolCall[]) {
  const env = await TaskEnv.create(v4RulerReading, instance);
  try {
    const hash0 = env.stateHash();
    const results = calls.map((c) => env.execute(c));
    return { results, solved: env.solved(), ended: env.terminated, hashSame: env.stateHash() === hash0 };
  } finally {
    env.free();
  }
}

describe('V4 ruler reading', function () {
  this.timeout(300000);

  for (const tier of ['L1', 'L3', 'L5', 'L7'] as Tier[]) {
    it(`${tier}: every filter holds; the answer is the span's length, inside its range and away from round numbers`, () => {
      const inst = gen(tier);
      const s = inst.scene;
      for (const f of SHORTCUT_FILTERS) expect(f.check(inst), f.name).to.equal(null);
      expect(spanLength(s.span) * 100).to.be.closeTo(s.answerCm, 0.005);
      expect(s.answerCm).to.be.within(RANGES[s.kind][0] + 0.5, RANGES[s.kind][1] - 0.5);
      const offRound = Math.abs(s.answerCm - Math.round(s.answerCm / ROUND_STEP_CM) * ROUND_STEP_CM);
      expect(offRound).to.be.above(s.toleranceCm);
      expect(inst.rules).to.include(`within ${s.toleranceCm.toFixed(1)} cm`);
      expect(inst.rules).to.not.include(String(s.answerCm));
      expect(readingView(inst)).to.not.equal(null);
      if (tier === 'L5' || tier === 'L7') expect(endHidden(new RulerSight(s, inst.rulers), inst.camera.initial, s.ends[s.hiddenEnd])).to.equal(true);
      if (tier === 'L5') expect(rulerPartlyHidden(new RulerSight(s, inst.rulers), inst.camera.initial, s.span)).to.equal(true);
      if (tier === 'L7') expect(s.spanTurnDeg).to.be.within(25, 65);
    });
  }

  it('sizes spread over their range: 24 L3 seeds give at least 18 different sizes', () => {
    const sizes = Array.from({ length: 24 }, (_, i) => gen('L3', 400 + i).scene.answerCm);
    expect(new Set(sizes).size).to.be.at.least(18);
  });

  it('refuses a round size, a size that is not the span, a lost screen and a ruler too short to read (cases that must fail)', () => {
    const l5 = gen('L5');
    const broken = (inst: Instance<V4Scene>, change: (i: Instance<V4Scene>) => void): Instance<V4Scene> => {
      const c = structuredClone(inst);
      change(c);
      return c;
    };
    expect(filter('size-is-the-span').check(broken(l5, (i) => (i.scene.answerCm = 15)))).to.be.a('string');
    expect(filter('size-is-the-span').check(broken(l5, (i) => (i.scene.span[1] = [i.scene.span[1][0] + 0.01, i.scene.span[1][1], i.scene.span[1][2]])))).to.match(/span is/);
    expect(filter('first-view-hides-an-end').check(broken(l5, (i) => (i.scene.boxes = i.scene.boxes.filter((b) => b.role !== 'screen'))))).to.match(/shows in the first view/);
    const l3 = gen('L3');
    const shortRuler = broken(l3, (i) => {
      const r = i.rulers[0];
      const { dir } = rulerFrame(r);
      i.rulers = [{ ...r, to: [r.from[0] + dir[0] * 0.03, r.from[1] + dir[1] * 0.03, r.from[2] + dir[2] * 0.03] }];
    });
    expect(filter('readable').check(shortRuler)).to.be.a('string');
  });

  it('the first view must show the screen too: a block standing before it is refused (V4-L5-s63, version 4)', () => {
    const l5 = gen('L5');
    const screen = l5.scene.boxes.find((b) => b.role === 'screen')!;
    const camera = l5.camera.initial;
    // The screen alone, no rulers: in sight.
    const alone: V4Scene = { ...l5.scene, boxes: [screen], hiddenEnd: -1 };
    expect(screenHidesOnlyTheEnd(alone, [], camera)).to.equal(true);
    // A block a fifth of the way from the screen to the camera, wider and twice as tall.
    const eye = cameraFrame(camera).position;
    const at: Vec3 = [0, 2].reduce((p, k) => ((p[k] = screen.pose.p[k] + 0.2 * (eye[k] - screen.pose.p[k])), p), [0, 0, 0] as Vec3);
    const h = screen.parts[0].half;
    at[1] = 2 * h[1];
    const blocker = { ...structuredClone(screen), name: 'decoy-9', role: 'decoy' as const, parts: [{ half: [1.5 * h[0], 2 * h[1], 0.01] as Vec3, p: [0, 0, 0] as Vec3 }], pose: { p: at, q: screen.pose.q } };
    expect(screenHidesOnlyTheEnd({ ...alone, boxes: [screen, blocker] }, [], camera)).to.equal(false);
    // The seed that broke the view rule now draws a screen in sight.
    const s63 = gen('L5', 63);
    expect(screenHidesOnlyTheEnd(s63.scene, s63.rulers, s63.camera.initial)).to.equal(true);
  });

  it('an answer within the tolerance solves, one just outside does not, and a bad one is refused', async () => {
    const inst = gen('L3');
    const { answerCm, toleranceCm } = inst.scene;
    expect((await play(inst, [{ tool: 'answer', args: { size_cm: answerCm + toleranceCm - 0.01 } }])).solved).to.equal(true);
    expect((await play(inst, [{ tool: 'answer', args: { size_cm: answerCm - toleranceCm + 0.01 } }])).solved).to.equal(true);
    const over = await play(inst, [{ tool: 'answer', args: { size_cm: answerCm + toleranceCm + 0.05 } }]);
    expect(over.solved).to.equal(false);
    expect(over.ended).to.equal(true);
    const refused = await play(inst, [{ tool: 'answer', args: { size_cm: '12' } }, { tool: 'answer', args: { size_cm: -3 } }, { tool: 'orbit', args: { azimuth_deg: 40 } }]);
    expect(refused.results.map((r) => r.status)).to.deep.equal(['invalid', 'invalid', 'ok']);
    expect(refused.hashSame).to.equal(true);
    expect(refused.ended).to.equal(false);
  });

  describe('against the real renderer', function () {
    const SIZE = 512;
    const renderer = new Renderer({ width: SIZE, height: SIZE });
    after(async () => {
      await renderer.close();
    });

    const sceneOf = async (inst: Instance<V4Scene>): Promise<SceneDescription> => {
      const env = await TaskEnv.create(v4RulerReading, inst);
      try {
        return env.scene();
      } finally {
        env.free();
      }
    };

    it('L5: the hidden end\'s box shows about as many pixels as the ray cast says, in the first view and the reading view', async () => {
      const inst = gen('L5');
      const s = inst.scene;
      const endBox = s.ends[s.hiddenEnd][0].split('/')[0];
      const sight = new RulerSight(s, inst.rulers);
      const base = await sceneOf(inst);
      const red: SceneDescription = { ...base, rulers: [], background: '#000000', ground: undefined, bodies: base.bodies.map((b) => ({ ...b, color: b.name === endBox ? '#ff0000' : '#000000' })) };
      for (const cam of [inst.camera.initial, readingView(inst)!]) {
        const img = await decodePng(await renderer.render(red, cam));
        let shown = 0;
        for (let i = 0; i < SIZE * SIZE; i++) {
          const r = img.data[i * img.channels];
          if (r > 40 && r > 2 * img.data[i * img.channels + 1] + 20 && r > 2 * img.data[i * img.channels + 2] + 20) shown++;
        }
        const est = sight.boxPixels(cam, endBox) * (SIZE / 768) ** 2;
        expect(Math.abs(shown - est), `azimuth ${cam.azimuth}: rendered ${shown}, estimated ${est.toFixed(0)}`).to.be.at.most(0.15 * Math.max(shown, est) + 30);
      }
    });

    it('the reading view shows the ruler\'s band where the ray cast says the needed pieces are clear', async () => {
      for (const tier of ['L3', 'L5'] as Tier[]) {
        const inst = gen(tier);
        const s = inst.scene;
        const cam: CameraSpec = readingView(inst)!;
        const sight = new RulerSight(s, inst.rulers);
        expect(readableFrom(sight, cam, s)).to.equal(true);
        const img = await decodePng(await renderer.render(await sceneOf(inst), cam));
        const r = inst.rulers[0];
        const { dir, tick } = rulerFrame(r);
        const [a, b] = spanOnRuler(s.span, r);
        const f = cameraFrame(cam);
        const t = Math.tan((20 * Math.PI) / 180);
        let band = 0;
        let checked = 0;
        for (let k = Math.ceil(a / PIECE); k < Math.floor(b / PIECE); k++) {
          // A point in the band's outer half, where no tick line reaches.
          const p: Vec3 = [0, 1, 2].map((i) => r.from[i] + dir[i] * (k + 0.5) * PIECE + tick[i] * 0.026) as Vec3;
          const d = [0, 1, 2].map((i) => p[i] - f.position[i]);
          const depth = -(d[0] * f.back[0] + d[1] * f.back[1] + d[2] * f.back[2]);
          const x = Math.round(((d[0] * f.right[0] + d[1] * f.right[1] + d[2] * f.right[2]) / (depth * t) + 1) * 0.5 * SIZE);
          const y = Math.round((1 - (d[0] * f.up[0] + d[1] * f.up[1] + d[2] * f.up[2]) / (depth * t)) * 0.5 * SIZE);
          const i = (y * SIZE + x) * img.channels;
          checked++;
          // The band is a light cream (#f7f2dc, lit as drawn): bright and warm.
          if (img.data[i] > 200 && img.data[i + 1] > 190 && img.data[i + 2] > 150) band++;
        }
        expect(checked, tier).to.be.greaterThan(2);
        expect(band / checked, `${tier}: ${band} of ${checked} pieces show the band`).to.be.at.least(0.9);
      }
    });
  });
});
