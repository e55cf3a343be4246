/**
 * A6 part-to-whole: the certificate (exactly one option forms the target) over a batch of
 * seeds of both forms, how distractors are made, balance of answers and target families, the
 * assembly tools (tray rule, outline rule, remove, progress, commit), and the question form
 * through the real loop and the real renderer (its three presentations, the five images being
 * the panels of the composite).
 */
import { expect } from 'chai';
import sharp from 'sharp';
import { Renderer } from '../render/renderer.ts';
import { TaskEnv } from '../tasks/env.ts';
import { a6PartToWhole as family } from '../tasks/assembly/a6-part-to-whole/family.ts';
import { physicalAnswer, TIER_SPECS } from '../tasks/assembly/a6-part-to-whole/physical.ts';
import type { A6Scene, PhysicalScene, QuestionScene } from '../tasks/assembly/a6-part-to-whole/scene.ts';
import { polycompInstances, questionSeed, SERIES_LENGTH, SERIES_MIX, seriesAnswer, seriesKind } from '../tasks/assembly/a6-part-to-whole/polycomp.ts';
import { drawProblem, fitsInside, isChiral, LETTERS, mirrored, recurrence, recurrenceTell } from '../tasks/assembly/a6-part-to-whole/problem.ts';
import { boundingDiagonal, COMPOSITE, visibleCubes } from '../tasks/assembly/a6-part-to-whole/question.ts';
import { CELL } from '../tasks/kits/polycube-pieces/pieces.ts';
import { TARGET_KINDS } from '../tasks/assembly/a6-part-to-whole/shapes.ts';
import { Rng } from '../core/rng.ts';
import type { Instance, Tier, ToolCall } from '../tasks/types.ts';
import { suiteInstances } from '../tasks/suites.ts';
import { canonical, countPackings, isConnected, shapeKey, type Cell } from '../solvers/polycube.ts';

/** The options of a scene as pairs of cell lists, and its target. */
function optionsOf(s: A6Scene): { target: Cell[]; options: Cell[][][] } {
  if (s.form === 'physical') return { target: s.target, options: s.trays.map((t) => t.pieces.map((p) => p.cells)) };
  return { target: s.target, options: s.options.map((o) => o.map((v) => v.cells)) };
}

const canon = (cells: Cell[]): string => shapeKey(canonical(cells));

function physical(seed: number, tier: Tier): Instance<PhysicalScene> {
  return family.generate(seed, tier) as Instance<PhysicalScene>;
}

async function envOf(inst: Instance<A6Scene>): Promise<TaskEnv> {
  return TaskEnv.create(family as never, inst as Instance);
}

describe('A6 part-to-whole', function () {
  this.timeout(120000);

  describe('certificate', () => {
    const batch: Array<{ seed: number; tier: Tier }> = [];
    for (const tier of ['L1', 'L3', 'L5', 'L7'] as Tier[]) for (let seed = 0; seed < 10; seed++) batch.push({ seed, tier });
    for (let p = 0; p < 16; p++) batch.push({ seed: questionSeed(p, 'composite'), tier: 'L5' });

    it(`for ${batch.length} instances of both forms, exactly one option forms the target (polycube exact cover), and it is the answer`, () => {
      for (const { seed, tier } of batch) {
        const inst = family.generate(seed, tier);
        const { target, options } = optionsOf(inst.scene);
        const counts = options.map((pieces) => countPackings(pieces, target, { limit: 1 }).count);
        const forming = counts.map((c, i) => (c > 0 ? i : -1)).filter((i) => i >= 0);
        expect(forming, inst.id).to.deep.equal([inst.scene.answer]);
        for (const pieces of options) {
          // Two connected pieces whose cubes add up to the target's.
          expect(pieces).to.have.length(2);
          expect(pieces[0].length + pieces[1].length, inst.id).to.equal(target.length);
          pieces.forEach((p) => expect(isConnected(p), inst.id).to.equal(true));
        }
        // No two options are the same pair of shapes.
        const pairs = options.map((pieces) => pieces.map(canon).sort().join('|'));
        expect(new Set(pairs).size, inst.id).to.equal(4);
        const ref = family.reference(inst as never) as { unique?: boolean };
        expect(ref.unique).to.equal(true);
        // No recurrence of pieces across options points at the answer.
        const opts = options.map((pieces) => ({ pieces: [pieces[0], pieces[1]] as [Cell[], Cell[]], made: '' }));
        expect(recurrenceTell(opts, inst.scene.answer), inst.id).to.equal(null);
        // Decoys: every piece fits in the target alone.
        if (tier !== 'L1') for (const pieces of options) for (const p of pieces) expect(fitsInside(p, target), inst.id).to.equal(true);
      }
    });

    it('distractors are a cut of the target with one cube moved or one part mirrored, and a mirrored part is chiral', () => {
      const made = new Set<string>();
      let mirrorsChecked = 0;
      for (let i = 0; i < 48; i++) {
        const kind = TARGET_KINDS[i % 4];
        const tier: Tier = i < 24 ? 'L1' : 'L5';
        const p = drawProblem(new Rng(`a6-test/${i}`), kind, TIER_SPECS[tier], i % 4);
        if (typeof p === 'string') continue;
        const correct = p.options[p.answer].pieces;
        expect(p.cut[0].length + p.cut[1].length).to.equal(p.target.length);
        p.options.forEach((o, j) => {
          if (j === p.answer) return;
          expect(o.made).to.match(/^(the correct cut|another cut of the target) with (one cube|part . replaced by its mirror image)/);
          if (/^the correct cut with part . replaced by its mirror image/.test(o.made)) {
            made.add('mirror');
            // One piece is kept, the other is the mirror image of the other correct piece, which is chiral.
            const keys = o.pieces.map(canon);
            const kept = correct.findIndex((c) => keys.includes(canon(c)));
            expect(kept).to.be.at.least(0);
            const changed = correct[1 - kept];
            expect(isChiral(changed)).to.equal(true);
            expect(keys).to.include(canon(mirrored(changed)));
            mirrorsChecked++;
          } else {
            made.add(/mirror/.test(o.made) ? 'mirror' : /from part/.test(o.made) ? 'between' : 'within');
          }
        });
      }
      expect([...made].sort()).to.deep.equal(['between', 'mirror', 'within']);
      expect(mirrorsChecked).to.be.greaterThan(0);
    });

    it('chirality: a chiral tetracube differs from its mirror image under every rotation, an L-tromino does not', () => {
      const chiral: Cell[] = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]];
      const flat: Cell[] = [[0, 0, 0], [1, 0, 0], [0, 1, 0]];
      expect(isChiral(chiral)).to.equal(true);
      expect(countPackings([mirrored(chiral)], chiral).count).to.equal(0);
      expect(isChiral(flat)).to.equal(false);
    });
  });

  describe('balance', () => {
    it('physical answers are spread over the four trays across seeds', () => {
      for (const tier of ['L3', 'L5'] as Tier[]) {
        const n = [0, 0, 0, 0];
        for (let seed = 0; seed < 400; seed++) n[physicalAnswer(tier, seed)]++;
        for (const c of n) expect(c).to.be.within(70, 130);
      }
    });

    it('the polycomp series: 120 problems in the seed\'s family mix, each letter the answer of exactly a quarter, three presentations of one problem', () => {
      const kinds: Record<string, number> = {};
      const answers = [0, 0, 0, 0];
      for (let p = 0; p < SERIES_LENGTH; p++) {
        kinds[seriesKind(p)] = (kinds[seriesKind(p)] ?? 0) + 1;
        answers[seriesAnswer(p)]++;
      }
      expect(kinds).to.deep.equal(SERIES_MIX);
      expect(answers).to.deep.equal([30, 30, 30, 30]);
      const ids = suiteInstances('polycomp');
      expect(ids).to.deep.equal(polycompInstances());
      expect(ids).to.have.length(360);
      expect(new Set(ids).size).to.equal(360);
      for (const p of [0, 7]) {
        const [a, b, c] = (['composite', 'neutral', 'descriptive'] as const).map((k) => family.generate(questionSeed(p, k), 'L5').scene as QuestionScene);
        expect(a.answer).to.equal(seriesAnswer(p));
        expect(a.kind).to.equal(seriesKind(p));
        for (const other of [b, c]) expect({ ...other, presentation: 'composite' }).to.deep.equal(a);
      }
    });
  });

  describe('blind guessing', () => {
    it('over 60 polycomp problems, no answer-blind rule (shared pieces, compactness, piece sizes) beats chance by much', () => {
      const score: Record<string, number> = { 'most shared pieces': 0, 'most compact pieces': 0, 'least compact pieces': 0, 'most common sizes': 0 };
      const best = (v: number[], answer: number): number => {
        const top = Math.max(...v);
        const ties = v.filter((x) => x === top).length;
        return v[answer] === top ? 1 / ties : 0;
      };
      const boxVolume = (cells: Cell[]): number => [0, 1, 2].reduce((n, a) => n * (Math.max(...cells.map((c) => c[a])) - Math.min(...cells.map((c) => c[a])) + 1), 1);
      const n = 60;
      for (let p = 0; p < n; p++) {
        const s = family.generate(questionSeed(p, 'composite'), 'L5').scene as QuestionScene;
        const opts = s.options.map((o) => ({ pieces: [o[0].cells, o[1].cells] as [Cell[], Cell[]], made: '' }));
        score['most shared pieces'] += best(recurrence(opts), s.answer);
        const compact = opts.map((o) => -(boxVolume(o.pieces[0]) + boxVolume(o.pieces[1])));
        score['most compact pieces'] += best(compact, s.answer);
        score['least compact pieces'] += best(compact.map((x) => -x), s.answer);
        const sizes = opts.map((o) => o.pieces.map((q) => q.length).sort().join(','));
        score['most common sizes'] += best(sizes.map((k) => sizes.filter((x) => x === k).length), s.answer);
      }
      for (const [rule, hits] of Object.entries(score)) expect(hits / n, rule).to.be.below(0.42);
    });
  });

  describe('the assembly tools', () => {
    const inst = physical(100, 'L5');
    const s = inst.scene;
    const calls = (family.reference(inst as never) as { calls: ToolCall[] }).calls;
    const answer = s.trays[s.answer].letter;

    it('the reference fills the outline with the right tray and ends the episode solved', async () => {
      const env = await envOf(inst);
      try {
        expect(env.execute(calls[0]).status).to.equal('ok');
        expect(env.solved()).to.equal(false);
        expect(env.progress()).to.be.greaterThan(0).and.lessThan(1);
        expect(env.execute(calls[1]).status).to.equal('ok');
        expect(env.solved()).to.equal(true);
        expect(env.endReason).to.equal('solved');
      } finally {
        env.free();
      }
    });

    it('pieces of two trays may not be combined, and no cube may end outside the outline: rule violations that change nothing', async () => {
      const env = await envOf(inst);
      try {
        expect(env.execute(calls[0]).status).to.equal('ok');
        const h = env.stateHash();
        const seen = new Set<string>();
        // Try the other trays' pieces and the answer's second piece at every cell of the grid.
        const tries = [...s.trays.filter((t) => t.letter !== answer).flatMap((t) => t.pieces.map((p) => p.name)), String(calls[1].args.piece)];
        for (const piece of tries) {
          for (let c = 0; c < s.board.cols; c++) {
            for (let r = 0; r < s.board.rows; r++) {
              for (let l = 0; l < s.board.layers; l++) {
                const res = env.execute({ tool: 'place', args: { piece, turns: [], cell: [c, r, l] } });
                if (res.status === 'ok') {
                  expect(env.execute({ tool: 'remove', args: { piece } }).status).to.equal('ok');
                  continue;
                }
                expect(res.status).to.equal('violation');
                if (/only the two pieces of one tray/.test(res.message)) seen.add('mixed');
                if (/would stick out of the outline/.test(res.message)) seen.add('outside');
                if (res.violation!.kind === 'rule') expect(res.violation!.bodies[0]).to.equal(piece);
                expect(env.stateHash()).to.equal(h);
              }
            }
          }
        }
        expect([...seen].sort()).to.deep.equal(['mixed', 'outside']);
        expect(env.solved()).to.equal(false);
      } finally {
        env.free();
      }
    });

    it('a wrong tray\'s piece on the board is no progress; remove puts it back; commit ends the episode unsolved', async () => {
      const env = await envOf(inst);
      try {
        // Find a placement of some wrong-tray piece that the outline accepts (any wrong tray:
        // which of them has a piece that fits depends on the instance).
        let placed: string | null = null;
        const wrongPieces = s.trays.filter((t) => t.letter !== answer).flatMap((t) => [`${t.letter}1`, `${t.letter}2`]);
        for (const piece of wrongPieces) {
          for (const t of [[], ['y+'], ['y-'], ['y+', 'y+'], ['x+'], ['x-'], ['z+'], ['z-'], ['x+', 'y+'], ['z+', 'y+'], ['x+', 'x+']]) {
            for (let c = 0; c < s.board.cols && !placed; c++) {
              for (let r = 0; r < s.board.rows && !placed; r++) {
                const res = env.execute({ tool: 'place', args: { piece, turns: t, cell: [c, r, 0] } });
                if (res.status === 'ok') placed = piece;
              }
            }
          }
        }
        expect(placed, 'some wrong-tray piece fits somewhere in the outline').to.not.equal(null);
        expect(env.progress()).to.equal(0);
        const start = s.trays.flatMap((t) => t.pieces).find((p) => p.name === placed)!.position;
        expect(env.execute({ tool: 'remove', args: { piece: placed } }).status).to.equal('ok');
        env.world.getPose(placed!).p.forEach((v, i) => expect(v).to.be.closeTo(start[i], 0.002));
        expect(env.execute({ tool: 'remove', args: { piece: placed } }).status).to.equal('invalid');
        expect(env.execute({ tool: 'commit', args: {} }).status).to.equal('ok');
        expect(env.endReason).to.equal('commit');
        expect(env.solved()).to.equal(false);
      } finally {
        env.free();
      }
    });

    it('at L7 the board is turned and the reference still solves it', async () => {
      const turned = physical(100, 'L7');
      expect(turned.scene.board.turns).to.be.within(1, 3);
      expect(turned.levers).to.deep.equal(['+rot']);
      const env = await envOf(turned);
      try {
        for (const c of (family.reference(turned as never) as { calls: ToolCall[] }).calls) expect(env.execute(c).status).to.equal('ok');
        expect(env.solved()).to.equal(true);
      } finally {
        env.free();
      }
    });
  });

  describe('the question form', () => {
    const renderer = new Renderer();
    after(async () => {
      await renderer.close();
    });
    const problem = 3;
    const gen = (k: 'composite' | 'neutral' | 'descriptive'): Instance<QuestionScene> => family.generate(questionSeed(problem, k), 'L5') as Instance<QuestionScene>;

    it('is one turn of one call without camera tools; the right answer solves it, a wrong one ends it unsolved', async () => {
      const inst = gen('composite');
      expect(inst.budgets).to.deep.equal({ turns: 1, actionsPerTurn: 1 });
      expect(inst.tools.map((t) => t.name)).to.deep.equal(['answer']);
      expect(inst.tools[0].kind).to.equal('final');
      const right = LETTERS[inst.scene.answer];
      const env = await envOf(inst);
      try {
        expect(env.execute({ tool: 'answer', args: { option: right } }).status).to.equal('ok');
        expect(env.solved()).to.equal(true);
      } finally {
        env.free();
      }
      const other = await envOf(inst);
      try {
        expect(other.execute({ tool: 'answer', args: { option: 'E' } }).status).to.equal('invalid');
        expect(other.execute({ tool: 'answer', args: { option: LETTERS[(inst.scene.answer + 1) % 4] } }).status).to.equal('ok');
        expect(other.terminated).to.equal(true);
        expect(other.solved()).to.equal(false);
      } finally {
        other.free();
      }
    });

    it('every cube of every solid shows a face in its views', () => {
      const s = gen('composite').scene;
      const seen = new Set(s.targetViews.flatMap((v) => [...visibleCubes(v.cells, v.azimuth, v.elevation)]));
      expect(seen.size).to.equal(s.target.length);
      for (const o of s.options) for (const v of o) expect(visibleCubes(v.cells, v.azimuth, v.elevation).size).to.equal(v.cells.length);
    });

    it('the one scale leaves room for every solid, a component larger than the target too (L1)', () => {
      // A6-L1-s1039: option B's first component, three cubes tall, is longer across than the
      // 2×2×2 target; it was cut by the top of its picture when the target alone set the scale.
      const s = family.generate(1039, 'L1').scene as QuestionScene;
      const solids = [s.target, ...s.options.flatMap((o) => o.map((v) => v.cells))];
      const largest = Math.max(...solids.map(boundingDiagonal));
      expect(largest).to.be.above(boundingDiagonal(s.target));
      for (const cells of solids) expect(boundingDiagonal(cells) * CELL, 'a solid longer across than its picture').to.be.below(s.orthoHeight);
      // At L5 every piece fits inside the target's outline, so the target sets the scale as before.
      const l5 = gen('composite').scene;
      expect(l5.orthoHeight).to.be.closeTo(boundingDiagonal(l5.target) * CELL * 1.08, 1e-9);
    });

    it('the three presentations: one composite, five neutral labels, five descriptive labels; the five images are the composite\'s panels', async () => {
      const shown: Record<string, Array<{ png: Buffer; caption: string }>> = {};
      for (const k of ['composite', 'neutral', 'descriptive'] as const) {
        const env = await envOf(gen(k));
        try {
          shown[k] = await env.observe(renderer);
        } finally {
          env.free();
        }
      }
      expect(shown.composite).to.have.length(1);
      expect(shown.neutral.map((i) => i.caption)).to.deep.equal(['Image 1', 'Image 2', 'Image 3', 'Image 4', 'Image 5']);
      expect(shown.descriptive.map((i) => i.caption)).to.deep.equal(['Target', 'Option A', 'Option B', 'Option C', 'Option D']);
      // The same five pictures in both multi-image presentations, byte for byte.
      shown.neutral.forEach((img, i) => expect(img.png.equals(shown.descriptive[i].png)).to.equal(true));
      // Each is a lossless crop of the composite, where the layout puts it.
      const composite = sharp(shown.composite[0].png);
      const { width } = await composite.metadata();
      const size = await sharp(shown.neutral[0].png).metadata();
      const w = size.width;
      const h = size.height;
      const rowH = COMPOSITE.label + h + COMPOSITE.rowGap;
      const places = [
        [Math.floor((width - w) / 2), COMPOSITE.label],
        [0, rowH + COMPOSITE.label],
        [w + COMPOSITE.optionGap, rowH + COMPOSITE.label],
        [0, 2 * rowH + COMPOSITE.label],
        [w + COMPOSITE.optionGap, 2 * rowH + COMPOSITE.label],
      ];
      expect(width).to.equal(2 * w + COMPOSITE.optionGap);
      for (const [i, [left, top]] of places.entries()) {
        const crop = await sharp(shown.composite[0].png).extract({ left, top, width: w, height: h }).removeAlpha().raw().toBuffer();
        const panel = await sharp(shown.neutral[i].png).removeAlpha().raw().toBuffer();
        expect(crop.equals(panel), `image ${i + 1}`).to.equal(true);
      }
    });
  });
});
