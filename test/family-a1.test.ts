/**
 * A1 occluded packing: the turn and rotation conventions, the uniqueness certificate and the
 * lowering order, the physical tools (order matters, rule and argument errors, remove), the
 * progress measure, and — with the real renderer — that hidden pieces are out of sight from
 * the first view and in sight from behind the wall.
 */
import { expect } from 'chai';
import { decodePng, findPixels, isHighlightPixel } from '../render/pixels.ts';
import { Renderer } from '../render/renderer.ts';
import { qrotate } from '../sim/math.ts';
import { a1OccludedPacking as family } from '../tasks/assembly/a1-occluded-packing/family.ts';
import { TIER_SPECS } from '../tasks/assembly/a1-occluded-packing/generate.ts';
import { boxCells, type A1Scene } from '../tasks/assembly/a1-occluded-packing/scene.ts';
import { matApply, matToQuat, ROTATIONS, rotationIndex, SHORTEST_TURNS, turnsMatrix } from '../tasks/kits/polycube-pieces/rotations.ts';
import { standsOnTable } from '../tasks/kits/polycube-pieces/statics.ts';
import { certify, findPlan } from '../tasks/assembly/a1-occluded-packing/solver.ts';
import { TaskEnv } from '../tasks/env.ts';
import type { Instance, Tier, ToolCall } from '../tasks/types.ts';
import { countPackings } from '../solvers/polycube.ts';
import { predictedOutcome, PROBE_AND_PACK } from '../tasks/assembly/a1-occluded-packing/prober.ts';
import { runBattery } from '../verify/battery.ts';

const RELEASED: Tier[] = ['L3', 'L5', 'L7'];

const generated = new Map<Tier, Instance<A1Scene>>();

/** The tier's instance at seed 100, generated once per run. */
function instance(tier: Tier): Instance<A1Scene> {
  if (!generated.has(tier)) generated.set(tier, family.generate(100, tier));
  return generated.get(tier)!;
}

async function envOf(inst: Instance<A1Scene>): Promise<TaskEnv> {
  return TaskEnv.create(family as never, inst as Instance);
}

function placeCalls(inst: Instance<A1Scene>): ToolCall[] {
  return (family.reference(inst) as { calls: ToolCall[] }).calls;
}

describe('A1 occluded packing', function () {
  this.timeout(60000);

  describe('turns and rotations', () => {
    it('quarter turns follow the rules text: y+ counter-clockwise from above, x+ tips the top to the front, z+ rolls the top to the left', () => {
      expect(matApply(turnsMatrix(['y+']), [1, 0, 0])).to.deep.equal([0, 0, -1]); // right side swings to the back
      expect(matApply(turnsMatrix(['x+']), [0, 1, 0])).to.deep.equal([0, 0, 1]); // top towards the first view (+z)
      expect(matApply(turnsMatrix(['z+']), [0, 1, 0])).to.deep.equal([-1, 0, 0]); // top to the left
      // Turns apply in order about fixed axes: x+ then y+ is not y+ then x+.
      expect(rotationIndex(turnsMatrix(['x+', 'y+']))).to.not.equal(rotationIndex(turnsMatrix(['y+', 'x+'])));
    });

    it('every cube rotation has a shortest turn list of at most 3 that makes it, and its quaternion rotates like its matrix', () => {
      ROTATIONS.forEach((m, i) => {
        expect(SHORTEST_TURNS[i].length).to.be.at.most(3);
        expect(rotationIndex(turnsMatrix(SHORTEST_TURNS[i]))).to.equal(i);
        const q = matToQuat(m);
        for (const v of [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 2, 3]] as [number, number, number][]) {
          const a = qrotate(q, v);
          const b = matApply(m, v);
          a.forEach((x, k) => expect(x).to.be.closeTo(b[k], 1e-12));
        }
      });
    });

    it('a piece only lies on the table in an orientation it stands in', () => {
      expect(standsOnTable([[0, 0, 0], [1, 0, 0], [0, 0, 1]])).to.equal(true);
      // One cube on the table carrying three above it, off to one side: it would tip.
      expect(standsOnTable([[1, 0, 0], [1, 1, 0], [0, 1, 1], [1, 1, 1]])).to.equal(false);
    });
  });

  describe('certificate and order', () => {
    for (const tier of RELEASED) {
      it(`${tier}: exactly one subset of the pieces fills the box, in one way up to symmetry, buildable in an order of the tier's depth`, () => {
        const inst = instance(tier);
        const shapes = inst.scene.pieces.map((p) => p.cells);
        const cert = certify(shapes, inst.scene.box);
        expect(cert.unique).to.equal(true);
        expect(cert.fillingSubsets).to.have.length(1);
        expect(cert.classes).to.equal(1);
        const plan = findPlan(shapes, inst.scene.box, cert.fillingSubsets)!;
        expect(plan.depth).to.be.at.least(TIER_SPECS[tier].minDepth);
        expect(plan.spares).to.have.length(TIER_SPECS[tier].spares);
        expect(inst.scene.pieces.filter((p) => p.hidden)).to.have.length(TIER_SPECS[tier].hidden);
        // Every spare really is one: no filling uses it (the certificate's subset excludes it) …
        for (const s of plan.spares) expect(cert.fillingSubsets[0]).to.not.include(s);
        // … and counting cubes alone does not give it away: some needed piece has its size.
        const neededSizes = cert.fillingSubsets[0].map((i) => shapes[i].length);
        for (const s of plan.spares) expect(neededSizes).to.include(shapes[s].length);
        const ref = family.reference(inst) as { unique?: boolean; optimal?: boolean; calls: ToolCall[] };
        expect(ref.unique).to.equal(true);
        expect(ref.calls).to.have.length(cert.fillingSubsets[0].length);
      });
    }

    it('a box whose pieces fill it in two inequivalent ways is not certified unique', () => {
      // Two I-trominoes and two L-trominoes in a 3×2×2 box fill it in several inequivalent ways.
      const pieces = [
        [[0, 0, 0], [1, 0, 0], [2, 0, 0]],
        [[0, 0, 0], [1, 0, 0], [2, 0, 0]],
        [[0, 0, 0], [1, 0, 0], [0, 1, 0]],
        [[0, 0, 0], [1, 0, 0], [0, 1, 0]],
      ] as [number, number, number][][];
      const box = { cols: 3, rows: 2, layers: 2 };
      const cert = certify(pieces, box);
      expect(countPackings(pieces, boxCells(box)).count).to.be.greaterThan(0);
      expect(cert.fillingSubsets).to.have.length(1);
      expect(cert.unique).to.equal(false);
      expect(cert.classes).to.be.at.least(2);
    });
  });

  describe('the physical tools', () => {
    it('the reference plan solves L5 and leaves every cube in its cell; played in reverse it hits a violation', async () => {
      const inst = instance('L5');
      const calls = placeCalls(inst);
      const env = await envOf(inst);
      try {
        for (const c of calls) expect(env.execute(c).status, JSON.stringify(c)).to.equal('ok');
        expect(env.solved()).to.equal(true);
        expect(env.endReason).to.equal('solved');
      } finally {
        env.free();
      }
      const rev = await envOf(inst);
      try {
        const results = [...calls].reverse().map((c) => rev.execute(c));
        const firstBad = results.find((r) => r.status === 'violation');
        expect(firstBad, 'lowering pieces in reverse order should be stopped').to.not.equal(undefined);
        // One text and kind for every cause (issue 36): the picture shows what went wrong.
        expect(firstBad!.violation!.kind).to.equal('rule');
        expect(firstBad!.message).to.equal(`'${firstBad!.call.args.piece}' does not fit there; nothing moved.`);
        expect(rev.solved()).to.equal(false);
      } finally {
        rev.free();
      }
    });

    it('a piece put in early blocks the cells under its overhang: the piece that belongs there then collides on the way down', async () => {
      for (const tier of ['L3', 'L5'] as Tier[]) {
        const inst = instance(tier);
        const calls = placeCalls(inst);
        let shown = false;
        for (let j = 1; j < calls.length && !shown; j++) {
          for (let i = 0; i < j && !shown; i++) {
            const env = await envOf(inst);
            try {
              // Everything before i as planned, then j out of turn, then i.
              const before = calls.slice(0, i).map((c) => env.execute(c).status);
              expect(before.every((st) => st === 'ok')).to.equal(true);
              if (env.execute(calls[j]).status !== 'ok') continue;
              const late = env.execute(calls[i]);
              if (late.status === 'violation') {
                expect(late.violation!.bodies).to.deep.equal([calls[i].args.piece]);
                shown = true;
              }
            } finally {
              env.free();
            }
          }
        }
        expect(shown, `${tier}: some out-of-order placement should block a later one`).to.equal(true);
      }
    });

    it('place refuses a piece already in the box and remove one on the table, changing nothing; remove puts a piece back where it lay', async () => {
      const inst = instance('L3');
      const [first] = placeCalls(inst);
      const env = await envOf(inst);
      try {
        const name = String(first.args.piece);
        const start = env.world.getPose(name);
        const other = inst.scene.pieces.find((p) => p.name !== name)!.name;
        const h0 = env.stateHash();
        expect(env.execute({ tool: 'remove', args: { piece: other } }).status).to.equal('invalid');
        expect(env.stateHash()).to.equal(h0);
        expect(env.execute(first).status).to.equal('ok');
        expect(env.progress()).to.be.greaterThan(0);
        const h1 = env.stateHash();
        expect(env.execute(first).status).to.equal('invalid');
        expect(env.stateHash()).to.equal(h1);
        expect(env.execute({ tool: 'remove', args: { piece: name } }).status).to.equal('ok');
        const back = env.world.getPose(name);
        back.p.forEach((v, i) => expect(v).to.be.closeTo(start.p[i], 0.002));
        expect(env.progress()).to.equal(0);
        // Out-of-range cells are refused by the schema.
        expect(env.execute({ tool: 'place', args: { piece: name, cell: [0, 0, 9] } }).status).to.equal('invalid');
      } finally {
        env.free();
      }
    });

    it('a piece that would stick out of the box, one that would fall and one lowered into a wall are refused with one text, counted, changing nothing', async () => {
      const inst = instance('L3');
      const env = await envOf(inst);
      try {
        const { layers, rows } = inst.scene.box;
        // A piece two cubes high on the table, put with its lowest cube in the top layer: it sticks out.
        const tall = inst.scene.pieces.find((p) => p.cells.some((c) => c[1] === 1));
        const flat = inst.scene.pieces.find((p) => p.cells.every((c) => c[1] === 0))!;
        expect(tall, 'the L3 instance has a piece two cubes high on the table').to.not.equal(undefined);
        const h0 = env.stateHash();
        const out = env.execute({ tool: 'place', args: { piece: tall!.name, cell: [0, 0, layers - 1] } });
        // A flat piece put in the top layer of the empty box has nothing under it: it would fall.
        const falls = env.execute({ tool: 'place', args: { piece: flat.name, cell: [0, 0, layers - 1] } });
        // A row past the back of the box (the schema allows it at every tier): into the back wall.
        const wall = env.execute({ tool: 'place', args: { piece: flat.name, cell: [0, rows, 0] } });
        for (const [r, name] of [[out, tall!.name], [falls, flat.name], [wall, flat.name]] as const) {
          expect(r.status).to.equal('violation');
          expect(r.violation!.kind).to.equal('rule');
          expect(r.violation!.bodies).to.deep.equal([name]);
          expect(r.message).to.equal(`'${name}' does not fit there; nothing moved.`);
          expect(r.violation!.point).to.equal(undefined);
        }
        expect(env.stateHash()).to.equal(h0);
        expect(env.progress()).to.equal(0);
      } finally {
        env.free();
      }
    });

    it('a piece under another cannot be lifted out: one text, naming only the piece, changing nothing', async () => {
      const inst = instance('L5');
      const calls = placeCalls(inst);
      const env = await envOf(inst);
      try {
        for (const c of calls.slice(0, -1)) expect(env.execute(c).status).to.equal('ok');
        let refused = 0;
        for (const c of calls.slice(0, -2)) {
          const h = env.stateHash();
          const r = env.execute({ tool: 'remove', args: { piece: c.args.piece } });
          if (r.status === 'ok') {
            expect(env.execute(c).status).to.equal('ok');
            continue;
          }
          refused++;
          expect(r.status).to.equal('violation');
          expect(r.violation!.kind).to.equal('rule');
          expect(r.violation!.bodies).to.deep.equal([c.args.piece]);
          expect(r.message).to.equal(`'${c.args.piece}' cannot be lifted out now; nothing moved.`);
          expect(env.stateHash()).to.equal(h);
        }
        expect(refused, 'some piece early in the order has another on it').to.be.greaterThan(0);
      } finally {
        env.free();
      }
    });

    it('progress counts filled cells, halved when the pieces placed can no longer be part of a filling', async () => {
      const inst = instance('L5');
      const calls = placeCalls(inst);
      const env = await envOf(inst);
      try {
        const total = inst.scene.box.cols * inst.scene.box.rows * inst.scene.box.layers;
        expect(env.execute(calls[0]).status).to.equal('ok');
        const n0 = inst.scene.pieces.find((p) => p.name === calls[0].args.piece)!.cells.length;
        expect(env.progress()).to.be.closeTo(n0 / total, 1e-12);
      } finally {
        env.free();
      }
      // A spare in the box (wherever it fits) cannot be part of any filling.
      const shapes = inst.scene.pieces.map((p) => p.cells);
      const plan = findPlan(shapes, inst.scene.box)!;
      const spare = inst.scene.pieces[plan.spares[0]];
      const env2 = await envOf(inst);
      try {
        let placed = false;
        for (let r = 0; r < 24 && !placed; r++) {
          for (const cell of [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]]) {
            const res = env2.execute({ tool: 'place', args: { piece: spare.name, turns: SHORTEST_TURNS[r], cell } });
            if (res.status === 'ok') {
              placed = true;
              break;
            }
          }
        }
        expect(placed, 'the spare fits somewhere on the floor').to.equal(true);
        const total = inst.scene.box.cols * inst.scene.box.rows * inst.scene.box.layers;
        expect(env2.progress()).to.be.closeTo(spare.cells.length / total / 2, 1e-12);
      } finally {
        env2.free();
      }
    });
  });

  describe('what the text says, and the budget (issue 36)', () => {
    /** Rules, title and tools with the allow-listed piece names masked. */
    const masked = (inst: Instance<A1Scene>): string => {
      let t = JSON.stringify({ title: inst.title, rules: inst.rules, tools: inst.tools });
      for (const v of family.textVaries ?? []) for (const x of v.values(inst)) t = t.split(`"${x}"`).join('"#"');
      return t.replace(/("#",)+"#"/g, '"#"');
    };

    it('rules, title and tools read alike for every seed of a tier once piece names are masked; a cube count in the rules would not', () => {
      for (const tier of ['L1', 'L3', 'L5', 'L7'] as Tier[]) {
        const texts = new Set<string>();
        for (let seed = 100; seed < 108; seed++) texts.add(masked(family.generate(seed, tier)));
        expect(texts.size, tier).to.equal(1);
      }
      // The must-fail case: a rules line that counts a piece's cubes varies with the seed.
      const counted = new Set<string>();
      for (let seed = 100; seed < 108; seed++) {
        const inst = family.generate(seed, 'L1');
        counted.add(masked({ ...inst, rules: `${inst.rules} The first piece has ${inst.scene.pieces[0].cells.length} cubes.` }));
      }
      expect(counted.size).to.be.greaterThan(1);
    });

    it('the action budget is three actions per piece the reference places, stated in the rules', () => {
      for (const tier of ['L1', 'L7'] as Tier[]) {
        const inst = instance(tier === 'L1' ? 'L3' : tier);
        expect(inst.budgets.actions).to.equal(placeCalls(inst).length * 3);
        expect(inst.rules).to.include(`You have ${inst.budgets.actions} actions in all`);
      }
    });

    it('probe-and-pack runs out of actions: through the real loop it solves none of 3 seeds at L1 and L7', async function () {
      this.timeout(600_000);
      const reports = await runBattery(family as never, { seeds: 3, tiers: ['L1', 'L7'], strategies: [], skip: ['null', 'random'] });
      for (const r of reports) {
        expect(r.error, r.tier).to.equal(undefined);
        const a = r.agents.find((x) => x.name === PROBE_AND_PACK.name)!;
        expect(a.episodes).to.equal(3);
        expect(a.successes, r.tier).to.equal(0);
      }
    });

    it('probe-and-pack reads the shapes the old texts told apart: its model of the outcomes matches the real tool on the empty box', async () => {
      const inst = instance('L3');
      const piece = inst.scene.pieces[0];
      let accepted = 0;
      for (let rotation = 0; rotation < 24; rotation += 5) {
        for (const cell of [[0, 0, 0], [1, 1, 0], [2, 0, 1], [0, 2, 0]] as Array<[number, number, number]>) {
          const env = await envOf(inst);
          try {
            const r = env.execute({ tool: 'place', args: { piece: piece.name, turns: SHORTEST_TURNS[rotation], cell } });
            const predicted = predictedOutcome(piece.cells, rotation, cell, inst.scene.box);
            expect(r.status === 'ok', `${rotation} ${cell}`).to.equal(predicted === 'ok');
            if (r.status === 'ok') accepted++;
          } finally {
            env.free();
          }
        }
      }
      expect(accepted).to.be.greaterThan(0);
    });
  });

  describe('occlusion (rendered)', () => {
    const renderer = new Renderer({ width: 384, height: 384 });
    after(async () => {
      await renderer.close();
    });

    for (const tier of RELEASED) {
      it(`${tier}: hidden pieces are out of sight from the first view and in sight from behind the wall; the others are in sight`, async () => {
        const inst = instance(tier);
        const env = await envOf(inst);
        try {
          const scene = env.scene();
          const behind = { azimuth: 180, elevation: 30, distance: 1.0, target: [0, 0.02, -0.05] as [number, number, number] };
          for (const p of inst.scene.pieces) {
            const first = await decodePng(await renderer.render(scene, env.camera, { highlight: { bodies: [p.name] } }));
            const seen = findPixels(first, isHighlightPixel).count;
            if (p.hidden) {
              expect(seen, `${p.name} should be hidden from the first view`).to.equal(0);
              const back = await decodePng(await renderer.render(scene, behind, { highlight: { bodies: [p.name] } }));
              expect(findPixels(back, isHighlightPixel).count, `${p.name} should be in sight from behind the wall`).to.be.greaterThan(100);
            } else {
              expect(seen, `${p.name} should be in sight from the first view`).to.be.greaterThan(100);
            }
          }
        } finally {
          env.free();
        }
      });
    }
  });
});
