/**
 * V5 projection alignment: the 24 actions and their exact composition, the point-splat
 * projection, symmetry detection, the episode's stopping rules, the observation panel (against
 * the real renderer), the icon raster against sharp, and the rota suite's selection.
 */
import { expect } from 'chai';
import sharp from 'sharp';
import { Renderer } from '../render/renderer.ts';
import { TaskEnv } from '../tasks/env.ts';
import { iconStats } from '../tasks/perception/v5-projection-alignment/extrusion.ts';
import { v5ProjectionAlignment as family } from '../tasks/perception/v5-projection-alignment/family.ts';
import { foregroundMask, iconSvg, rasterizeIcon, type IconSpec } from '../tasks/perception/v5-projection-alignment/icon.ts';
import { modelOf } from '../tasks/perception/v5-projection-alignment/model.ts';
import type { V5Scene } from '../tasks/perception/v5-projection-alignment/scene.ts';
import { DEPTH_CAMERA, PANEL_HEIGHT, PANEL_WIDTH, SEPARATOR, SEPARATOR_LEVEL, VIEW_LEFT } from '../tasks/perception/v5-projection-alignment/panel.ts';
import { closeMask, maskIoU, silhouette, VIEW_SIZE } from '../tasks/perception/v5-projection-alignment/projection.ts';
import {
  ACTIONS,
  actionLabel,
  actionQuaternions,
  applyRotation,
  frameQuaternion,
  IDENTITY,
  inverseAction,
  qangleDeg,
  qnormalize,
  qrotate,
  rotationDistance,
  type Quaternion,
} from '../tasks/perception/v5-projection-alignment/rotation.ts';
import { hamiltonAllocation, rankKey, readRotaPool, ROTA_MIN_LENGTH, ROTA_SELECTION_SEED, rotaId, selectRota } from '../tasks/perception/v5-projection-alignment/rota-suite.ts';
import { findReference, replayPath, STAGNATION_LIMIT, STEP_CAP } from '../tasks/perception/v5-projection-alignment/search.ts';
import { detectSymmetry, poseErrorDeg } from '../tasks/perception/v5-projection-alignment/symmetry.ts';
import { Rng } from '../core/rng.ts';
import type { Instance } from '../tasks/types.ts';

function randomPose(rng: Rng): Quaternion {
  return qnormalize([rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1)]);
}

/** A regular star with `n` points, as an icon. */
function starIcon(n: number): IconSpec {
  const points: [number, number][] = Array.from({ length: 2 * n }, (_, k) => {
    const a = (Math.PI * k) / n + 0.3;
    const r = k % 2 === 0 ? 190 : 95;
    return [256 + r * Math.cos(a), 256 + r * Math.sin(a)];
  });
  return { kind: `star-${n}`, fill: '#1f77b4', shapes: [{ op: 'add', points }] };
}

/** The same star with a knob off its mirror lines (no symmetry left). */
function lopsidedIcon(): IconSpec {
  const star = starIcon(5);
  const knob: [number, number][] = Array.from({ length: 24 }, (_, k) => {
    const a = (2 * Math.PI * k) / 24;
    return [256 + 110 + 40 * Math.cos(a), 256 + 70 + 40 * Math.sin(a)];
  });
  return { ...star, kind: 'lopsided', shapes: [...star.shapes, { op: 'add', points: knob }] };
}

/** Naive splat: every sample stamps its own radius-2 disk, then one closing (the seed's wording, literally). */
function naiveSilhouette(scene: V5Scene, q: Quaternion): Uint8Array {
  const { solid } = modelOf(scene);
  const out = new Uint8Array(VIEW_SIZE * VIEW_SIZE);
  const m = [qrotate(q, [1, 0, 0]), qrotate(q, [0, 1, 0]), qrotate(q, [0, 0, 1])];
  for (let i = 0; i < solid.count; i++) {
    for (let j = 0; j < 31; j++) {
      const z = solid.depth[i * 31 + j] * solid.h[i];
      const wx = m[0][0] * solid.x[i] + m[1][0] * solid.y[i] + m[2][0] * z;
      const wy = m[0][1] * solid.x[i] + m[1][1] * solid.y[i] + m[2][1] * z;
      const u = Math.floor(160 + 5 * wx + 0.5);
      const v = Math.floor(160 - 5 * wy + 0.5);
      if (u < 0 || v < 0 || u >= VIEW_SIZE || v >= VIEW_SIZE) continue;
      for (let dv = -2; dv <= 2; dv++) {
        for (let du = -2; du <= 2; du++) {
          if (du * du + dv * dv > 4) continue;
          const uu = u + du;
          const vv = v + dv;
          if (uu >= 0 && vv >= 0 && uu < VIEW_SIZE && vv < VIEW_SIZE) out[vv * VIEW_SIZE + uu] = 1;
        }
      }
    }
  }
  closeMask(out);
  return out;
}

function rotate(env: TaskEnv, label: string) {
  const a = ACTIONS.find((x) => actionLabel(x) === label)!;
  return env.execute({ tool: 'rotate', args: { axis: a.axis, direction: a.direction, angle_deg: a.angle } });
}

describe('V5 projection alignment', function () {
  this.timeout(120_000);

  describe('the 24 actions', () => {
    it('are three axes × two directions × four angles, each turning by its angle', () => {
      expect(ACTIONS).to.have.length(24);
      expect(new Set(ACTIONS.map(actionLabel)).size).to.equal(24);
      for (const a of ACTIONS) expect(qangleDeg(actionQuaternions(null)[ACTIONS.indexOf(a)])).to.be.closeTo(a.angle, 1e-9);
    });

    it('each followed by its inverse returns any pose to within 1e-9, in the view frame and in a tilted frame', () => {
      const rng = new Rng('v5-test/inverse');
      for (const frame of [null, { yawDeg: 40, pitchDeg: -25 }]) {
        const q = actionQuaternions(frame);
        for (let trial = 0; trial < 20; trial++) {
          const pose = randomPose(rng);
          ACTIONS.forEach((a, i) => {
            const back = ACTIONS.findIndex((b) => actionLabel(b) === actionLabel(inverseAction(a)));
            const there = applyRotation(q[i], pose);
            expect(rotationDistance(there, pose)).to.be.greaterThan(1e-3);
            expect(rotationDistance(applyRotation(q[back], there), pose)).to.be.below(1e-9);
          });
        }
      }
    });

    it('compose in the world frame (R ← Q·R), with the stated turning directions', () => {
      const q = actionQuaternions(null);
      const label = (s: string): Quaternion => q[ACTIONS.findIndex((a) => actionLabel(a) === s)];
      // x+ carries the near side (+z) down, y+ carries it right, z+ turns +x toward +y.
      expect(qrotate(label('x+30'), [0, 0, 1])[1]).to.be.below(-0.49);
      expect(qrotate(label('y+30'), [0, 0, 1])[0]).to.be.above(0.49);
      expect(qrotate(label('z+30'), [1, 0, 0])[1]).to.be.above(0.49);
      // World frame: after x+30, a y+30 turns about the world's y, not the object's.
      const pose = applyRotation(label('y+30'), applyRotation(label('x+30'), IDENTITY));
      const v = [0.3, -0.2, 0.9];
      const expected = qrotate(label('y+30'), qrotate(label('x+30'), v));
      qrotate(pose, v).forEach((c, i) => expect(c).to.be.closeTo(expected[i], 1e-12));
      // Twelve 30° turns are a full turn.
      let p: Quaternion = IDENTITY;
      for (let k = 0; k < 12; k++) p = applyRotation(label('x+30'), p);
      expect(rotationDistance(p, IDENTITY)).to.be.below(1e-9);
    });

    it('in a tilted working frame turn about the tilted axes', () => {
      const frame = { yawDeg: 40, pitchDeg: 25 };
      const w = frameQuaternion(frame);
      const q = actionQuaternions(frame);
      ['x', 'y', 'z'].forEach((axis, k) => {
        const e = [0, 0, 0];
        e[k] = 1;
        const n = qrotate(w, e);
        const a = q[ACTIONS.findIndex((b) => b.axis === axis && b.direction === '+' && b.angle === 10)];
        qrotate(a, n).forEach((c, i) => expect(c).to.be.closeTo(n[i], 1e-12));
      });
      expect(qangleDeg(w)).to.be.greaterThan(40);
    });

    it('through the episode: a turn and its inverse restore the recorded pose and the IoU', async () => {
      const instance = family.generate(100, 'L3');
      const env = await TaskEnv.create(family, instance);
      try {
        const start = structuredClone((env.world.meta.v5 as { q: Quaternion }).q);
        for (const label of ['x+1', 'y-5', 'z+10', 'x-30']) {
          const a = ACTIONS.find((x) => actionLabel(x) === label)!;
          expect(rotate(env, label).status).to.equal('ok');
          const r = rotate(env, actionLabel(inverseAction(a)));
          expect(r.status).to.equal('ok');
        }
        const st = env.world.meta.v5 as { q: Quaternion; iou: number; rotations: number };
        expect(rotationDistance(st.q, start)).to.be.below(1e-9);
        expect(st.rotations).to.equal(8);
        const body = env.world.getPose('icon').q;
        expect(rotationDistance(body, st.q)).to.be.below(1e-6);
      } finally {
        env.free();
      }
    });
  });

  describe('projection and IoU', () => {
    const scene = family.generate(100, 'L5').scene;

    it('the fast splat equals the literal disk-per-sample rasteriser', () => {
      const rng = new Rng('v5-test/splat');
      for (const q of [IDENTITY, randomPose(rng), randomPose(rng)]) {
        expect(maskIoU(silhouette(modelOf(scene).solid, q), naiveSilhouette(scene, q))).to.equal(1);
      }
    });

    it('the target pose reproduces the icon, and the generated start is far from it', () => {
      const model = modelOf(scene);
      expect(model.iou(IDENTITY)).to.equal(1);
      expect(model.iou(model.initial)).to.be.below(0.8);
      expect(poseErrorDeg(model.initial, model.symmetry().quaternions)).to.be.greaterThan(25);
    });

    it('sharp draws the icon SVG like our own rasteriser', async () => {
      const rng = new Rng('v5-test/svg');
      for (let k = 0; k < 3; k++) {
        const icon = family.generate(200 + k, 'L5').scene.icon;
        const ours = foregroundMask(rasterizeIcon(icon));
        const theirs = await sharp(Buffer.from(iconSvg(icon))).ensureAlpha().raw().toBuffer();
        expect(maskIoU(ours, foregroundMask(new Uint8Array(theirs)))).to.be.greaterThan(0.98);
        expect(iconStats(ours).componentRatio).to.be.greaterThan(0.99);
        rng.next();
      }
    });
  });

  describe('symmetry and pose error', () => {
    const sceneOf = (icon: IconSpec): V5Scene => ({ icon, sampleSeed: 1, scramble: [], frame: null });

    it('finds the 7 rotations and 7 mirror lines of a regular seven-pointed star', () => {
      const g = modelOf(sceneOf(starIcon(7))).symmetry();
      expect(g.rotationOrder).to.equal(7);
      expect(g.mirrors).to.equal(7);
      expect(g.quaternions).to.have.length(14);
      // Turning by a seventh of a turn about the view axis is a zero pose error.
      const half = Math.PI / 7;
      expect(poseErrorDeg([0, 0, Math.sin(half), Math.cos(half)], g.quaternions)).to.be.below(1e-6);
      expect(poseErrorDeg([0, 0, Math.sin(half / 2), Math.cos(half / 2)], g.quaternions)).to.be.closeTo(180 / 7, 1e-6);
    });

    it('finds no symmetry in a lopsided icon, so a half turn is a 180° pose error', () => {
      const g = detectSymmetry(modelOf(sceneOf(lopsidedIcon())).solid);
      expect(g.planar).to.deep.equal([]);
      expect(poseErrorDeg([0, 0, 1, 0], g.quaternions)).to.be.closeTo(180, 1e-9);
    });
  });

  describe('episode rules', () => {
    it('ten rotations without a new best IoU end the episode (stagnation), logging the pose errors', async () => {
      const instance = family.generate(100, 'L5');
      const model = modelOf(instance.scene);
      // Always take the turn that lowers the IoU most: the best never rises again.
      const path: number[] = [];
      let q = model.initial;
      while (path.length < STAGNATION_LIMIT) {
        let worst = -1;
        let worstIoU = Infinity;
        ACTIONS.forEach((a, i) => {
          if (a.angle !== 30) return;
          const v = model.iou(applyRotation(model.actions[i], q));
          if (v < worstIoU) [worst, worstIoU] = [i, v];
        });
        path.push(worst);
        q = applyRotation(model.actions[worst], q);
      }
      const predicted = replayPath(model, path);
      expect(predicted.stagnatedAt).to.be.a('number');
      const env = await TaskEnv.create(family, instance);
      try {
        let last;
        for (const i of path) {
          if (env.terminated) break;
          last = rotate(env, actionLabel(ACTIONS[i]));
        }
        expect(env.endReason).to.equal('failed');
        expect(last!.message).to.match(/stagnation/);
        expect(last!.data!.stop_reason).to.equal('stagnation');
        expect((last!.data!.iou_per_step as number[]).length).to.equal(predicted.stagnatedAt);
        // Pose errors are logged for analysis but never shown to the agent: they would give the answer away.
        expect((last!.diagnostics!.pose_error_deg_per_step as number[]).length).to.equal(predicted.stagnatedAt);
        expect(last!.data).to.not.have.property('pose_error_deg_per_step');
        expect(env.solved()).to.equal(false);
        expect(rotate(env, 'x+1').status).to.equal('not-run');
      } finally {
        env.free();
      }
    });

    it('stop ends the episode unsolved', async () => {
      const instance = family.generate(101, 'L5');
      const env = await TaskEnv.create(family, instance);
      try {
        const r = rotate(env, 'z+1');
        expect(r.data!.iou).to.be.a('number');
        const s = env.execute({ tool: 'stop', args: {} });
        expect(s.status).to.equal('ok');
        expect(s.data!.stop_reason).to.equal('stop');
        expect(env.endReason).to.equal('commit');
        expect(env.solved()).to.equal(false);
      } finally {
        env.free();
      }
      expect(instance.rules).to.include(`after ${STEP_CAP} rotations`);
      expect(instance.budgets.turns).to.be.greaterThan(STEP_CAP);
    });

    it(`the ${STEP_CAP}th rotation ends an unsolved episode (step cap)`, async () => {
      const instance = family.generate(100, 'L5');
      const model = modelOf(instance.scene);
      // Greedy 1° ascent: the IoU keeps rising (no stagnation) but 48° of turning cannot reach 0.90.
      const path: number[] = [];
      let q = model.initial;
      while (path.length < STEP_CAP) {
        let best = -1;
        let bestIoU = -1;
        ACTIONS.forEach((a, i) => {
          if (a.angle !== 1) return;
          const v = model.iou(applyRotation(model.actions[i], q));
          if (v > bestIoU) [best, bestIoU] = [i, v];
        });
        path.push(best);
        q = applyRotation(model.actions[best], q);
      }
      const predicted = replayPath(model, path);
      expect(predicted.solvedAt).to.equal(null);
      expect(predicted.stagnatedAt).to.equal(null);
      const env = await TaskEnv.create(family, instance);
      try {
        const results = path.map((i) => rotate(env, actionLabel(ACTIONS[i])));
        expect(results.slice(0, -1).every((r) => r.status === 'ok' && !/failed/.test(r.message))).to.equal(true);
        const last = results[results.length - 1];
        expect(env.endReason).to.equal('failed');
        expect(last.message).to.match(/step cap/);
        expect(last.data!.stop_reason).to.equal('step-cap');
        expect(last.data!.iou_per_step).to.deep.equal(predicted.ious.map((v) => Math.round(v * 1e4) / 1e4));
        expect(env.progress()).to.be.greaterThan(0);
      } finally {
        env.free();
      }
    });

    it('the reference path reaches IoU ≥ 0.90 exactly at its last rotation', () => {
      const instance = family.generate(100, 'L7');
      const ref = findReference(instance.scene);
      const replay = replayPath(modelOf(instance.scene), ref.path);
      expect(replay.solvedAt).to.equal(ref.path.length);
      expect(ref.path.length).to.be.at.most(instance.scene.scramble.length);
    });
  });

  describe('observation panel', () => {
    const renderer = new Renderer();
    after(async () => {
      await renderer.close();
    });

    it('is 972 × 320: target | depth | current, with two 6-pixel strips of intensity 12, the silhouettes being the IoU masks', async () => {
      const instance: Instance<V5Scene> = family.generate(100, 'L5');
      const env = await TaskEnv.create(family, instance);
      try {
        rotate(env, 'y+10');
        const [image] = await env.observe(renderer);
        const { data, info } = await sharp(image.png).greyscale().raw().toBuffer({ resolveWithObject: true });
        expect([info.width, info.height]).to.deep.equal([PANEL_WIDTH, PANEL_HEIGHT]);
        expect(PANEL_WIDTH).to.equal(972);
        const model = modelOf(instance.scene);
        const current = silhouette(model.solid, (env.world.meta.v5 as { q: Quaternion }).q);
        let mismatches = 0;
        let depthLit = 0;
        for (let v = 0; v < VIEW_SIZE; v++) {
          for (let u = 0; u < VIEW_SIZE; u++) {
            const p = v * VIEW_SIZE + u;
            if (data[v * PANEL_WIDTH + VIEW_LEFT[0] + u] !== model.target[p] * 255) mismatches++;
            if (data[v * PANEL_WIDTH + VIEW_LEFT[2] + u] !== current[p] * 255) mismatches++;
            if (data[v * PANEL_WIDTH + VIEW_LEFT[1] + u] > 30) depthLit++;
          }
          for (const left of [VIEW_SIZE, 2 * VIEW_SIZE + SEPARATOR]) {
            for (let k = 0; k < SEPARATOR; k++) expect(data[v * PANEL_WIDTH + left + k]).to.equal(SEPARATOR_LEVEL);
          }
        }
        expect(mismatches).to.equal(0);
        expect(depthLit).to.be.greaterThan(10_000);
      } finally {
        env.free();
      }
    });

    it("the world body's rendered silhouette agrees with the point-splat silhouette", async () => {
      const instance = family.generate(100, 'L5');
      const env = await TaskEnv.create(family, instance);
      try {
        const model = modelOf(instance.scene);
        for (const label of ['x+30', 'y-10']) {
          rotate(env, label);
          const rendered = await renderer.mask(env.scene(), { ...DEPTH_CAMERA, orthoHeight: VIEW_SIZE / 5 * 0.005 }, { width: VIEW_SIZE, height: VIEW_SIZE });
          // The splat widens the outline by its disk radius: widen the rendered one the same way.
          const widened = new Uint8Array(rendered.bits.length);
          for (let v = 0; v < VIEW_SIZE; v++) {
            for (let u = 0; u < VIEW_SIZE; u++) {
              if (!rendered.bits[v * VIEW_SIZE + u]) continue;
              for (let dv = -2; dv <= 2; dv++) {
                for (let du = -2; du <= 2; du++) {
                  const uu = u + du;
                  const vv = v + dv;
                  if (du * du + dv * dv <= 4 && uu >= 0 && vv >= 0 && uu < VIEW_SIZE && vv < VIEW_SIZE) widened[vv * VIEW_SIZE + uu] = 1;
                }
              }
            }
          }
          const splat = silhouette(model.solid, (env.world.meta.v5 as { q: Quaternion }).q);
          expect(maskIoU(splat, widened)).to.be.greaterThan(0.95);
        }
      } finally {
        env.free();
      }
    });
  });

  describe('rota suite', () => {
    it("Hamilton's method gives floors first, then the largest remainders", () => {
      const out = hamiltonAllocation(new Map([[4, 10], [5, 20], [6, 7]]), 10);
      expect(Object.fromEntries(out)).to.deep.equal({ 4: 3, 5: 5, 6: 2 });
      const even = hamiltonAllocation(new Map([[4, 5], [5, 5]]), 3);
      expect(Object.fromEntries(even)).to.deep.equal({ 4: 2, 5: 1 });
    });

    it('selects 100 eligible pool tasks, proportionally per reference length, the lowest hashes of each group', () => {
      const pool = readRotaPool(family.version);
      const ids = family.suites!.rota.instances();
      expect(ids).to.have.length(100);
      expect(new Set(ids).size).to.equal(100);
      const byId = new Map(pool.entries.map((e) => [rotaId(e.seed), e]));
      const eligible = pool.entries.filter((e) => e.length >= ROTA_MIN_LENGTH);
      const sizes = new Map<number, number>();
      for (const e of eligible) sizes.set(e.length, (sizes.get(e.length) ?? 0) + 1);
      const quota = hamiltonAllocation(sizes, 100);
      for (const [length, n] of quota) {
        const chosen = ids.filter((id) => byId.get(id)!.length === length);
        expect(chosen, `length ${length}`).to.have.length(n);
        const ranked = eligible
          .filter((e) => e.length === length)
          .map((e) => rankKey(ROTA_SELECTION_SEED, rotaId(e.seed)))
          .sort();
        const cut = ranked[n - 1];
        for (const id of chosen) expect(rankKey(ROTA_SELECTION_SEED, id) <= cut).to.equal(true);
      }
      expect(selectRota(pool.entries)).to.deep.equal(ids);
    });

    it('the checked-in pool lengths are what the reference search finds', () => {
      const pool = readRotaPool(family.version);
      const rng = new Rng('v5-test/pool');
      for (let k = 0; k < 2; k++) {
        const entry = rng.pick(pool.entries);
        const ref = findReference(family.generate(entry.seed, 'L5').scene);
        expect(ref.path.length, `seed ${entry.seed}`).to.equal(entry.length);
      }
    });
  });
});
