/**
 * V6 object rotation: the angle definition, the seed → question mapping and its balance, the
 * symmetry screen (against hand-built symmetric objects and against the real renderer's
 * masks), the answer tool's strict parsing, the question pictures, and the per-type
 * statistics (on a hand-made summary, through the CLI, and on a real reference run).
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_MODE } from '../agents/modes.ts';
import { ReferenceAgent } from '../agents/reference.ts';
import { runInstances, type SummaryEntry } from '../agents/runner.ts';
import { decodePng } from '../render/pixels.ts';
import { Renderer } from '../render/renderer.ts';
import { qmul, qrotate, yawQuat } from '../sim/math.ts';
import { TaskEnv } from '../tasks/env.ts';
import { answerFromViews, SHORTCUT_FILTERS as V6_FILTERS } from '../tasks/perception/v6-object-rotation/filters.ts';
import { v6ObjectRotation } from '../tasks/perception/v6-object-rotation/family.ts';
import { buildObject, OBJECT_KINDS, type ObjectPart, type TurntableObject } from '../tasks/perception/v6-object-rotation/objects.ts';
import {
  QUESTION_TYPES,
  questionSlot,
  REFERENCE_ANGLES,
  rotationBetween,
  scheduled,
  seedOf,
  TIER_PLANS,
} from '../tasks/perception/v6-object-rotation/questions.ts';
import { POOL_SIZE, screeningCamera, screenObject, type V6Scene } from '../tasks/perception/v6-object-rotation/scene.ts';
import { formatRotationStats, rotationRunOf, rotationStats } from '../tasks/perception/v6-object-rotation/stats.ts';
import { runEpisodes, runStatistics } from '../report/run-stats.ts';
import { parseCsv } from '../report/tables.ts';
import { labelView, passesScreen, solidsOf, symmetryProfile } from '../tasks/perception/v6-object-rotation/symmetry.ts';
import { suiteInstances } from '../tasks/suites.ts';
import type { Instance, Tier } from '../tasks/types.ts';

const gen = (seed: number, tier: Tier = 'L1'): Instance<V6Scene> => v6ObjectRotation.generate(seed, tier);
const box = (x: number, y: number, z: number, hx: number, hy: number, hz: number, color = '#8b5a2b'): ObjectPart => ({
  type: 'box',
  half: [hx, hy, hz],
  pose: { p: [x, y, z], q: [0, 0, 0, 1] },
  color,
});
const objectOf = (parts: ObjectPart[]): TurntableObject => ({ id: -1, kind: 'table', parts, height: 0.75, radius: 0.65 });

/** A bare rectangular table: four legs and a top, the same after half a turn. */
const bareTable = objectOf([box(0, 0.73, 0, 0.6, 0.02, 0.35), ...[-1, 1].flatMap((sx) => [-1, 1].map((sz) => box(sx * 0.55, 0.355, sz * 0.3, 0.025, 0.355, 0.025)))]);

/** Every call result of one answer on a fresh episode of `instance`. */
function answerOnce(instance: Instance<V6Scene>, args: Record<string, unknown>) {
  return TaskEnv.create(v6ObjectRotation, instance).then((env) => {
    try {
      const r = env.execute({ tool: 'answer', args });
      return { status: r.status, solved: env.solved(), ended: env.terminated, answer: env.world.meta.answer, progress: env.progress() };
    } finally {
      env.free();
    }
  });
}

function entry(instance: string, solved: boolean, extra: Partial<SummaryEntry> = {}): SummaryEntry {
  return {
    instance,
    family: instance.split('-')[0],
    tier: instance.split('-')[1],
    agent: 'hand',
    mode: 'default',
    solved,
    score: solved ? 100 : 0,
    graded: true,
    turns: 1,
    actions: 1,
    violations: 0,
    invalidReplies: 0,
    abandoned: false,
    endReason: 'commit',
    progress: solved ? 1 : 0,
    referenceActions: 1,
    inputTokens: 0,
    outputTokens: 0,
    ...extra,
  };
}

describe('V6 object rotation', function () {
  this.timeout(120_000);
  const renderer = new Renderer();
  after(async () => {
    await renderer.close();
  });

  describe('angles and the question schedule', () => {
    it('θ = 5°·min(k, 72 − k) for stops k apart, unsigned and at most 180°', () => {
      expect(rotationBetween(0, 36)).to.equal(180);
      expect(rotationBetween(70, 2)).to.equal(20);
      expect(rotationBetween(2, 70)).to.equal(20);
      expect(rotationBetween(5, 5)).to.equal(0);
      expect(rotationBetween(0, 37)).to.equal(175);
      for (let i = 0; i < 72; i += 7) for (let j = 0; j < 72; j += 5) expect(rotationBetween(i, j)).to.be.within(0, 180);
    });

    it('seeds 8j … 8j+7 ask one question of each type, and seedOf inverts questionSlot on every tier', () => {
      for (const tier of ['L1', 'L3', 'L5', 'L7'] as Tier[]) {
        for (let j = 0; j < 5; j++) {
          const types = Array.from({ length: 8 }, (_, i) => questionSlot(8 * j + i, tier));
          expect(new Set(types.map((t) => t.type)).size).to.equal(8);
          expect(types.every((t) => t.index === j)).to.equal(true);
          for (const type of QUESTION_TYPES) expect(questionSlot(seedOf(type, j, tier), tier)).to.deep.equal({ type, index: j });
        }
      }
      // The release seed asks a different type at each tier.
      expect(new Set((['L1', 'L3', 'L5', 'L7'] as Tier[]).map((t) => questionSlot(100, t).type)).size).to.equal(4);
    });

    it('a schedule uses every value equally in each cycle and stays within one in any prefix', () => {
      for (const count of [2, 3, 4, 9, 12]) {
        const seen = new Array(count).fill(0);
        for (let i = 0; i < 5 * count + 3; i++) {
          seen[scheduled('L1', 'coarse', 'position', i, count)]++;
          expect(Math.max(...seen) - Math.min(...seen)).to.be.at.most(1);
        }
      }
    });

    it('the L1 questions balance classes and answer positions per type; exact angles cover the nine reference angles', () => {
      const byType = new Map<string, { cls: Map<string, number>; pos: Map<string, number> }>();
      for (let seed = 0; seed < 72; seed++) {
        const q = gen(seed).scene.question;
        const b = byType.get(q.type) ?? { cls: new Map(), pos: new Map() };
        b.cls.set(q.answerClass, (b.cls.get(q.answerClass) ?? 0) + 1);
        if ('choice' in q.answer) b.pos.set(q.answer.choice, (b.pos.get(q.answer.choice) ?? 0) + 1);
        byType.set(q.type, b);
      }
      expect([...byType.keys()].sort()).to.deep.equal([...QUESTION_TYPES].sort());
      const spread = (m: Map<string, number>): number => Math.max(...m.values()) - Math.min(...m.values());
      for (const [type, b] of byType) {
        if (type !== 'exact_open') expect(spread(b.pos), `${type} positions ${JSON.stringify([...b.pos])}`).to.be.at.most(1);
        // Nine questions a type: two classes split 5/4, three classes and nine angles evenly.
        if (['detection', 'coarse', 'threshold', 'comparison', 'exact_mcq', 'exact_open'].includes(type)) {
          expect(spread(b.cls), `${type} classes ${JSON.stringify([...b.cls])}`).to.equal(type === 'detection' ? 1 : 0);
        }
      }
      expect([...byType.get('exact_mcq')!.cls.keys()].map((c) => Number.parseInt(c)).sort((a, b) => a - b)).to.deep.equal(REFERENCE_ANGLES);
    });

    it('coarse and both exact-angle questions of the same index share their pictures', () => {
      for (const tier of ['L1', 'L5'] as Tier[]) {
        const frames = (['coarse', 'exact_mcq', 'exact_open'] as const).map((t) => gen(seedOf(t, 3, tier), tier).scene.question.views.map((v) => v.frame));
        expect(frames[1]).to.deep.equal(frames[0]);
        expect(frames[2]).to.deep.equal(frames[0]);
      }
    });

    it('the rotation suite is 8 types × 18 questions at L1', () => {
      const ids = suiteInstances('rotation');
      expect(ids).to.have.length(144);
      const counts = new Map<string, number>();
      for (const id of ids) {
        const { type } = questionSlot(Number(id.split('-s')[1]), 'L1');
        counts.set(type, (counts.get(type) ?? 0) + 1);
      }
      expect([...counts.values()]).to.deep.equal(new Array(8).fill(18));
      expect(suiteInstances('rotation-fine').every((id) => id.startsWith('V6-L5-'))).to.equal(true);
    });
  });

  describe('symmetry screening', () => {
    it('rejects a bare table (the same after 180°) and a round stool (the same after every turn); a table with a cabinet and a lamp at one end passes', () => {
      const table = symmetryProfile(bareTable, screeningCamera(bareTable));
      expect(table.worst.angleDeg).to.equal(180);
      expect(table.worst.change).to.be.below(0.02);
      expect(passesScreen(table)).to.equal(false);
      const stool = objectOf([{ type: 'cylinder', radius: 0.2, halfHeight: 0.02, pose: { p: [0, 0.6, 0], q: [0, 0, 0, 1] }, color: '#a0522d' }]);
      const round = symmetryProfile({ ...stool, height: 0.62, radius: 0.2 }, screeningCamera({ ...stool, height: 0.62, radius: 0.2 }));
      expect(Math.max(...round.change.slice(6, 67))).to.be.below(0.05);
      expect(passesScreen(round)).to.equal(false);
      // The same table with a drawer unit and a lamp at one end is no longer symmetric.
      const desk = objectOf([...bareTable.parts, box(0.4, 0.45, 0, 0.15, 0.25, 0.3, '#2e86ab'), box(-0.45, 0.9, -0.2, 0.06, 0.15, 0.06, '#f1c40f')]);
      expect(passesScreen(symmetryProfile(desk, screeningCamera(desk)))).to.equal(true);
    });

    it('a part hidden under the table top does not count: a drawer under it leaves the table ambiguous', () => {
      const hidden = objectOf([...bareTable.parts, box(0.3, 0.66, 0, 0.15, 0.05, 0.2, '#2e86ab')]);
      expect(passesScreen(symmetryProfile(hidden, screeningCamera(hidden)))).to.equal(false);
    });

    it('the ray-cast screening views match the real renderer\'s silhouettes (IoU ≥ 0.95)', async () => {
      {
        for (const id of [0, 7]) {
          const object = buildObject(id);
          const cam = screeningCamera(object);
          for (const frame of [0, 13, 40]) {
            const q = yawQuat(frame * 5);
            const bodies = object.parts.map((p, i) => {
              const { color, pose, ...shape } = p;
              return { name: `p${i}`, shapes: [shape], pose: { p: qrotate(q, pose.p), q: qmul(q, pose.q) }, color, opacity: 1, visible: true };
            });
            const n = 64;
            const mask = await renderer.mask(
              { bodies, rulers: [] },
              { azimuth: 0, elevation: cam.elevationDeg, distance: 10, target: cam.target, projection: 'orthographic', orthoHeight: cam.size },
              { width: n, height: n },
            );
            const view = labelView(solidsOf(object), cam, frame, n);
            let both = 0;
            let either = 0;
            for (let i = 0; i < n * n; i++) {
              const a = view[i] >= 0;
              const b = mask.bits[i] === 1;
              if (a && b) both++;
              if (a || b) either++;
            }
            expect(both / either, `object ${id} at stop ${frame}`).to.be.at.least(0.95);
          }
        }
      }
    });

    it('the pool keeps most candidates and every kind but the stool, and every question uses a kept object', () => {
      const kept = Array.from({ length: POOL_SIZE }, (_, id) => screenObject(id, false)).filter((s) => s.passed);
      expect(kept.length).to.be.within(0.45 * POOL_SIZE, 0.9 * POOL_SIZE);
      const kinds = new Set(kept.map((s) => s.object.kind));
      for (const k of OBJECT_KINDS.filter((x) => x !== 'stool')) expect(kinds.has(k), k).to.equal(true);
      for (const tier of ['L1', 'L7'] as Tier[]) {
        for (let seed = 0; seed < 16; seed++) {
          const s = gen(seed, tier).scene;
          expect(screenObject(s.object.id, tier === 'L7').passed).to.equal(true);
          expect(s.screening.change).to.be.at.least(0.25);
        }
      }
    });
  });

  describe('questions and answers', () => {
    it('every question\'s answer can be worked out again from the pictures\' stops, and the filters pass', () => {
      for (const tier of ['L1', 'L3', 'L5', 'L7'] as Tier[]) {
        for (let seed = 0; seed < 24; seed++) {
          const inst = gen(seed, tier);
          const d = answerFromViews(inst.scene.question, tier);
          expect(d, `${inst.id}`).to.deep.equal({ answer: inst.scene.question.answer });
        }
      }
      const inst = gen(100, 'L5');
      for (const f of V6_FILTERS) expect(f.check(inst), f.name).to.equal(null);
    });

    it('the one-right-answer filter catches a wrong label', () => {
      const inst = gen(2);
      const q = inst.scene.question;
      expect('choice' in q.answer).to.equal(true);
      const other = q.options!.find((o) => 'choice' in q.answer && o.letter !== q.answer.choice)!.letter;
      const tampered = structuredClone(inst);
      tampered.scene.question.answer = { choice: other };
      expect(V6_FILTERS.find((f) => f.name === 'one-right-answer')!.check(tampered)).to.match(/the stops give/);
    });

    it('the post-rotation distractors are turns the same way, apart from the answer and never its mirror', () => {
      for (const tier of ['L1', 'L5'] as Tier[]) {
        for (let j = 0; j < 8; j++) {
          const q = gen(seedOf('post_rotation', j, tier), tier).scene.question;
          const { turnDeg, direction } = q.given;
          const ref = q.views[0].frame;
          const turns = q.views.slice(1).map((v) => (((direction! * (v.frame - ref) * 5) % 360) + 360) % 360);
          expect(turns.filter((t) => t === turnDeg)).to.have.length(1);
          if (turnDeg !== 180) expect(turns).to.not.include(360 - turnDeg!);
          for (const t of turns) expect(TIER_PLANS[tier].fullTurn).to.include(t);
        }
      }
    });

    it('strict parsing: a right answer solves; a wrong one ends unsolved; a malformed one is refused and leaves no answer', async () => {
      const choice = gen(2);
      const right = (choice.scene.question.answer as { choice: string }).choice;
      const wrong = choice.scene.question.options!.find((o) => o.letter !== right)!.letter;
      expect(await answerOnce(choice, { choice: right })).to.include({ status: 'ok', solved: true, ended: true });
      expect(await answerOnce(choice, { choice: wrong })).to.include({ status: 'ok', solved: false, ended: true, progress: 0 });
      for (const bad of [{ choice: 'Z' }, { choice: right.toLowerCase() }, { choice: `${right}.` }, {}, { choice: right, why: 'x' }, { angle_deg: 90 }]) {
        expect(await answerOnce(choice, bad), JSON.stringify(bad)).to.include({ status: 'invalid', solved: false, ended: false, answer: null });
      }
      const open = gen(seedOf('exact_open', 1, 'L1'));
      const theta = (open.scene.question.answer as { angle_deg: number }).angle_deg;
      expect(await answerOnce(open, { angle_deg: theta })).to.include({ status: 'ok', solved: true });
      expect(await answerOnce(open, { angle_deg: theta + 0.5 })).to.include({ status: 'ok', solved: false });
      for (const bad of [{ angle_deg: `${theta}` }, { angle_deg: 181 }, { angle_deg: -5 }, { choice: 'A' }]) {
        expect(await answerOnce(open, bad), JSON.stringify(bad)).to.include({ status: 'invalid', solved: false, answer: null });
      }
    });

    it('the pictures: one labelled image per view, same stop gives the same picture, another stop a different one', async () => {
      {
        const pictures = async (inst: Instance<V6Scene>) => {
          const env = await TaskEnv.create(v6ObjectRotation, inst);
          try {
            return await env.observe(renderer);
          } finally {
            env.free();
          }
        };
        let same: Instance<V6Scene> | null = null;
        let turned: Instance<V6Scene> | null = null;
        for (let j = 0; j < 8 && !(same && turned); j++) {
          const inst = gen(seedOf('detection', j, 'L1'));
          if (inst.scene.question.answerClass === 'same') same ??= inst;
          else turned ??= inst;
        }
        const a = await pictures(same!);
        expect(a.map((i) => i.caption)).to.deep.equal(['Image 1', 'Image 2']);
        const [p1, p2] = await Promise.all(a.map((i) => decodePng(i.png)));
        expect(p1.width).to.equal(512);
        // Same stop: identical pixels below the label bars (the bars differ only in their text).
        const bar = p1.height - 512;
        expect(Buffer.from(p1.data.subarray(bar * p1.width * p1.channels)).equals(Buffer.from(p2.data.subarray(bar * p2.width * p2.channels)))).to.equal(true);
        const b = await pictures(turned!);
        const [q1, q2] = await Promise.all(b.map((i) => decodePng(i.png)));
        expect(Buffer.from(q1.data.subarray(bar * q1.width * q1.channels)).equals(Buffer.from(q2.data.subarray(bar * q2.width * q2.channels)))).to.equal(false);
        const post = await pictures(gen(seedOf('post_rotation', 0, 'L1')));
        expect(post.map((i) => i.caption)).to.deep.equal(['Reference', 'Candidate A', 'Candidate B', 'Candidate C', 'Candidate D']);
        // Deterministic bytes.
        const again = await pictures(same!);
        expect(again[0].png.equals(a[0].png)).to.equal(true);
      }
    });
  });

  describe('statistics', () => {
    const seeds = (type: (typeof QUESTION_TYPES)[number], n: number, tier: Tier = 'L1'): string[] => Array.from({ length: n }, (_, j) => `V6-${tier}-s${seedOf(type, j, tier)}`);

    it('per-type accuracy, Macro-8 (mean of types) and Micro-8 (all questions) on a hand-made summary', () => {
      // Detection: 4 questions, all right; coarse: 2 questions, none right; the rest: 1 of 2 right.
      const episodes: SummaryEntry[] = [
        ...seeds('detection', 4).map((id) => entry(id, true)),
        ...seeds('coarse', 2).map((id) => entry(id, false)),
        ...QUESTION_TYPES.filter((t) => t !== 'detection' && t !== 'coarse').flatMap((t) => seeds(t, 2).map((id, i) => entry(id, i === 0))),
        entry('P6-L3-s100', true),
        entry(seeds('threshold', 3)[2], true, { abandoned: true, solved: false }),
      ];
      const s = rotationStats({ episodes, unanswered: new Set([seeds('coarse', 2)[1]]) });
      expect(s.ignored).to.equal(1);
      expect(s.tiers).to.have.length(1);
      const t = s.tiers[0];
      const acc = Object.fromEntries(t.types.map((x) => [x.type, x.accuracy]));
      expect(acc.detection).to.equal(1);
      expect(acc.coarse).to.equal(0);
      expect(acc.threshold).to.be.closeTo(1 / 3, 1e-12);
      expect(acc.post_rotation).to.equal(0.5);
      expect(t.types.find((x) => x.type === 'coarse')!.unanswered).to.equal(1);
      expect(t.types.find((x) => x.type === 'threshold')!.unanswered).to.equal(1);
      expect(t.complete).to.equal(true);
      expect(t.macro8).to.be.closeTo((1 + 0 + 1 / 3 + 0.5 * 5) / 8, 1e-12);
      expect(t.n).to.equal(4 + 2 + 3 + 5 * 2);
      expect(t.micro8).to.be.closeTo((4 + 0 + 1 + 5) / 19, 1e-12);
      expect(t.types.find((x) => x.type === 'exact_mcq')!.chance).to.be.closeTo(1 / 9, 1e-12);
    });

    it('spaceact stats (and its rotation-stats alias) reads a hand-made run folder through the family hook, separates tiers and marks missing types', () => {
      const dir = mkdtempSync(join(tmpdir(), 'v6-stats-'));
      try {
        const episodes = [...seeds('detection', 2).map((id) => entry(id, true)), ...seeds('comparison', 2, 'L5').map((id, i) => entry(id, i === 1))];
        writeFileSync(join(dir, 'summary.json'), JSON.stringify({ agent: { name: 'hand', settings: {} }, mode: 'default', episodes, unfinished: [] }));
        const report = JSON.parse(execFileSync('node', ['bin/spaceact.mjs', 'stats', dir, '--json'], { encoding: 'utf8' }));
        expect(report.families.map((f: { family: string }) => f.family)).to.deep.equal(['V6']);
        const out = report.families[0].result;
        expect(out.tiers.map((t: { tier: string }) => t.tier)).to.deep.equal(['L1', 'L5']);
        expect(out.tiers[0].micro8).to.equal(1);
        expect(out.tiers[0].complete).to.equal(false);
        expect(out.tiers[1].micro8).to.equal(0.5);
        const alias = JSON.parse(execFileSync('node', ['bin/spaceact.mjs', 'rotation-stats', dir, '--json'], { encoding: 'utf8' }));
        expect(alias).to.deep.equal(report);
        const text = formatRotationStats(rotationStats(rotationRunOf(runEpisodes(dir, 'V6') as Array<import('../tasks/types.ts').RunEpisode<V6Scene>>)));
        expect(text).to.match(/Macro-8\s+100\.0%.*missing: Coarse angle/);
        expect(() => runStatistics(dir, { families: ['P6'] })).to.throw(/P6 offers no run statistics/);
        // The same figures as tables for a paper: CSV parsed back equals the JSON tables.
        const csv = execFileSync('node', ['bin/spaceact.mjs', 'stats', dir, '--format', 'csv'], { encoding: 'utf8' });
        const tables = JSON.parse(execFileSync('node', ['bin/spaceact.mjs', 'stats', dir, '--format', 'json'], { encoding: 'utf8' })) as Array<{ name: string; columns: string[]; rows: Array<Record<string, unknown>> }>;
        const tiers = tables.find((t) => t.name === 'v6-tiers')!;
        expect(tiers.rows.map((r) => [r.tier, r.micro8, r.all_eight_types])).to.deep.equal([['L1', 1, 'no'], ['L5', 0.5, 'no']]);
        // Several tables in one CSV: each after a line '# name'.
        const rows = parseCsv(csv.split(/# v6-tiers\r?\n/)[1].trim());
        expect(rows.slice(1).map((r) => [r[0], Number(r[5])])).to.deep.equal([['L1', 1], ['L5', 0.5]]);
        const tex = execFileSync('node', ['bin/spaceact.mjs', 'stats', dir, '--format', 'tex'], { encoding: 'utf8' });
        expect(tex).to.include('\\begin{tabular}').and.to.include('Macro-8');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('a real reference run over one question of each type scores 100 % everywhere', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'v6-run-'));
      try {
        const ids = Array.from({ length: 8 }, (_, s) => `V6-L3-s${s}`);
        const summary = await runInstances({ instances: ids, makeAgent: () => new ReferenceAgent(), mode: DEFAULT_MODE, out: dir, render: 'never' });
        const out = runStatistics(dir).families[0].result as ReturnType<typeof rotationStats>;
        expect(summary.totals.solved).to.equal(8);
        expect(out.tiers[0].macro8).to.equal(1);
        expect(out.tiers[0].micro8).to.equal(1);
        expect(out.tiers[0].types.every((t) => t.n === 1 && t.unanswered === 0)).to.equal(true);
        expect(out.tiers[0].exactAnswers).to.equal(2);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
