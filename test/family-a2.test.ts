/**
 * A2 cube assembly: the packing certificate reproduces the Soma cube's counts; the order search
 * and the kit's side-entry cell model on a hand-built box; and in the real world (Rapier swept
 * checks through the episode loop) that an infeasible order is refused — a piece placed before
 * the piece it rests on (it would float) and a piece slid in through another — while a feasible
 * order of the same pieces builds the box.
 */
import { expect } from 'chai';
import { countPackingsUpToSymmetry, type Cell } from '../solvers/polycube.ts';
import { a2CubeAssembly as family } from '../tasks/assembly/a2-cube-assembly/family.ts';
import { placeRefused } from '../tasks/assembly/a2-cube-assembly/episode.ts';
import { boxCells, SLOTS, type A2Piece, type A2Scene } from '../tasks/assembly/a2-cube-assembly/scene.ts';
import { canEnter, certify, countOrders, findOrder, findPlan } from '../tasks/assembly/a2-cube-assembly/solver.ts';
import { cellKey } from '../tasks/kits/polycube-pieces/cells.ts';
import { entryPathClear } from '../tasks/kits/polycube-pieces/entry.ts';
import { restingOriginHeight } from '../tasks/kits/polycube-pieces/pieces.ts';
import { TaskEnv } from '../tasks/env.ts';
import type { Instance, JsonSchema, ToolCall } from '../tasks/types.ts';

/** The seven Soma pieces (27 cells in all). */
const SOMA: Cell[][] = [
  [[0, 0, 0], [1, 0, 0], [0, 1, 0]],
  [[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0]],
  [[0, 0, 0], [1, 0, 0], [2, 0, 0], [1, 1, 0]],
  [[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 1, 0]],
  [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]],
  [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 0, 1]],
  [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 1, 1]],
];

const CUBE: A2Scene['box'] = { cols: 3, rows: 3, layers: 3 };

/**
 * A hand-built 2 × 2 × 2 box from three pieces: `crimson`, the bottom layer (a flat 2 × 2 square),
 * and two bars of two cubes for the top layer, `green` along the front row and `navy` along the
 * back row. Plate cells: the box is i ∈ {0, 1}, k ∈ {2, 3} (k = 3 the front row), j ∈ {0, 1}.
 */
const HAND: { pieces: Array<{ name: string; cells: Cell[] }>; packing: Cell[][] } = {
  pieces: [
    { name: 'crimson', cells: [[0, 0, 0], [1, 0, 0], [0, 0, 1], [1, 0, 1]] },
    { name: 'green', cells: [[0, 0, 0], [1, 0, 0]] },
    { name: 'navy', cells: [[0, 0, 0], [1, 0, 0]] },
  ],
  packing: [
    [[0, 0, 2], [1, 0, 2], [0, 0, 3], [1, 0, 3]],
    [[0, 1, 3], [1, 1, 3]],
    [[0, 1, 2], [1, 1, 2]],
  ],
};

/** An L1 instance with its scene replaced by the hand-built box (the tools' piece lists follow). */
function handInstance(): Instance<A2Scene> {
  const inst = structuredClone(family.generate(1, 'L1'));
  const colors = ['#d1392b', '#2e9e4f', '#2d6cd3'];
  const pieces: A2Piece[] = HAND.pieces.map((p, i) => ({
    name: p.name,
    color: colors[i],
    cells: p.cells,
    position: [SLOTS[i][0], restingOriginHeight(p.cells), SLOTS[i][1]],
    decoy: false,
  }));
  inst.scene = { box: { cols: 2, rows: 2, layers: 2 }, pieces, decoys: false, blueprint: false };
  for (const t of inst.tools) {
    const props = (t.parameters as JsonSchema & { properties?: Record<string, { enum?: string[] }> }).properties;
    if (props?.piece?.enum) props.piece.enum = pieces.map((p) => p.name);
  }
  return inst;
}

const place = (piece: string, cell: number[], from = 'above'): ToolCall => ({ tool: 'place', args: { piece, turns: [], cell, from } });

describe('A2 cube assembly', function () {
  this.timeout(120000);

  describe('packing certificate', () => {
    it('reproduces the Soma cube: 11 520 packings of the seven pieces, 480 up to rotation, 240 up to rotation and reflection', () => {
      const target = boxCells(CUBE);
      const cert = certify(SOMA, target, { classes: true });
      expect(cert.fillingSubsets).to.deep.equal([[0, 1, 2, 3, 4, 5, 6]]);
      expect(cert.total).to.equal(11520);
      expect(cert.symmetries).to.equal(24);
      expect(cert.classes).to.equal(480);
      expect(countPackingsUpToSymmetry(SOMA, target, { mirror: true }).count).to.equal(240);
    });

    it('finds a gravity order for a Soma packing, and every step of it rests and has a clear path', () => {
      const cert = certify(SOMA, boxCells(CUBE), { limit: 50 });
      const plan = findPlan(SOMA, cert);
      expect(plan).to.not.equal(null);
      const occ = new Set<string>();
      for (const st of plan!.steps) {
        expect(canEnter(st.cells, st.from, occ), JSON.stringify(st)).to.equal(true);
        for (const c of st.cells) occ.add(cellKey(c));
      }
      expect(occ.size).to.equal(27);
    });

    it('a pentacube added to the Soma pieces fits in no filling: the certificate finds the seven Soma pieces the only filling subset', () => {
      const pentacube: Cell[] = [[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0], [0, 2, 0]];
      const cert = certify([...SOMA, pentacube], boxCells(CUBE), { limit: 1 });
      expect(cert.fillingSubsets).to.deep.equal([[0, 1, 2, 3, 4, 5, 6]]);
    });
  });

  describe('order model on a hand-built box', () => {
    const [red, green, blue] = HAND.packing;
    const occ = (...pieces: Cell[][]): Set<string> => new Set(pieces.flat().map(cellKey));

    it('a piece with nothing under it cannot go in; on its support it can, from above or a free side', () => {
      expect(canEnter(blue, 'above', occ())).to.equal(false);
      expect(canEnter(red, 'above', occ())).to.equal(true);
      expect(canEnter(blue, 'above', occ(red))).to.equal(true);
      expect(canEnter(blue, 'back', occ(red))).to.equal(true);
    });

    it('a piece cannot slide in through another: the front bar from the back is blocked by the back bar, from the front it is not', () => {
      expect(entryPathClear(green, 'back', occ(red, blue), { cols: 4, rows: 4, layers: 4 })).to.equal(false);
      expect(canEnter(green, 'back', occ(red, blue))).to.equal(false);
      expect(canEnter(green, 'front', occ(red, blue))).to.equal(true);
      // From above nothing is over it.
      expect(canEnter(green, 'above', occ(red, blue))).to.equal(true);
    });

    it('the search proves the bottom first: every order starts with it, and there are two orders', () => {
      const order = findOrder(HAND.packing);
      expect(order![0].piece).to.equal(0);
      expect(countOrders(HAND.packing)).to.deep.equal({ orders: 2, fromAboveOnly: 2 });
      // Without the bottom piece no order exists at all.
      expect(findOrder([green, blue])).to.equal(null);
    });
  });

  describe('the real world refuses an infeasible order', () => {
    it('a piece that would float is refused and nothing moves; a piece that would pass through another is refused; the feasible order builds the box', async () => {
      const env = await TaskEnv.create(family as never, handInstance() as Instance);
      try {
        const h0 = env.stateHash();
        // The top bar before the bottom layer: nothing under it.
        const floating = env.execute(place('navy', [0, 1, 1]));
        expect(floating.status).to.equal('violation');
        expect(floating.message).to.include(placeRefused('navy'));
        expect(floating.message).to.not.match(/\d/);
        expect(env.stateHash()).to.equal(h0);
        expect(env.progress()).to.equal(0);
        // The bottom layer, then the back bar from above.
        expect(env.execute(place('crimson', [0, 0, 0])).status).to.equal('ok');
        expect(env.execute(place('navy', [0, 1, 1])).status).to.equal('ok');
        const h1 = env.stateHash();
        // The front bar slid in from the back would pass through the back bar: a collision, undone.
        const through = env.execute(place('green', [0, 0, 1], 'back'));
        expect(through.status).to.equal('violation');
        expect(through.message).to.include(placeRefused('green'));
        expect(env.stateHash()).to.equal(h1);
        expect(env.solved()).to.equal(false);
        // From the front its lane is free: it slides in and the box is complete.
        expect(env.execute(place('green', [0, 0, 1], 'front')).status).to.equal('ok');
        expect(env.solved()).to.equal(true);
      } finally {
        env.free();
      }
    });

    it('a piece placed outside the box keeps the episode unsolved, and remove takes it back', async () => {
      const env = await TaskEnv.create(family as never, handInstance() as Instance);
      try {
        expect(env.execute(place('crimson', [2, 2, 0])).status).to.equal('ok');
        expect(env.progress()).to.equal(0);
        expect(env.execute({ tool: 'remove', args: { piece: 'crimson' } }).status).to.equal('ok');
        expect(env.execute(place('crimson', [0, 0, 0], 'left')).status).to.equal('ok');
        expect(env.progress()).to.be.greaterThan(0);
      } finally {
        env.free();
      }
    });
  });

  describe('released tiers', () => {
    for (const tier of ['L3', 'L5', 'L7'] as const) {
      it(`${tier} seed 100: exactly one subset fills the box (decoys fit nowhere) and the reference builds it through the real world`, async () => {
        const inst = family.generate(100, tier);
        const cert = certify(inst.scene.pieces.map((p) => p.cells), boxCells(inst.scene.box), { limit: 200 });
        expect(cert.fillingSubsets).to.have.length(1);
        const used = new Set(cert.fillingSubsets[0]);
        inst.scene.pieces.forEach((p, i) => expect(p.decoy).to.equal(!used.has(i)));
        const ref = family.reference(inst) as { calls: ToolCall[] };
        const env = await TaskEnv.create(family as never, inst as Instance);
        try {
          for (const c of ref.calls) expect(env.execute(c).status, JSON.stringify(c)).to.equal('ok');
          expect(env.solved()).to.equal(true);
        } finally {
          env.free();
        }
      });
    }
  });
});
