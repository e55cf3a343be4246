/**
 * A5 blueprint build: the reading model against brute force and against the real renderer's
 * line drawings, the uniqueness certificate on hand-built ambiguous views and on generated
 * blueprints, and the physical tools — the reference builds and commits, a floating cube is
 * refused by the world, and wrong readings (a missing hidden cube, a structure with the right
 * front silhouette but another shape) are built and committed without success.
 */
import { expect } from 'chai';
import { decodePng } from '../render/pixels.ts';
import { Renderer } from '../render/renderer.ts';
import { a5BlueprintBuild as family } from '../tasks/assembly/a5-blueprint-build/family.ts';
import { structureScene, viewCamera } from '../tasks/kits/polycube-pieces/blueprint.ts';
import { buildProgress, PLACE_REFUSED, REMOVE_REFUSED } from '../tasks/assembly/a5-blueprint-build/episode.ts';
import { cellsOf, heightMap, readings, sameDrawing, viewImage, type HeightMap } from '../tasks/assembly/a5-blueprint-build/readings.ts';
import { PLATE_GRID, TIERS, type A5Scene, type ViewName } from '../tasks/assembly/a5-blueprint-build/scene.ts';
import { buildOrder, plateOffset } from '../tasks/assembly/a5-blueprint-build/solver.ts';
import { structureKey } from '../tasks/assembly/a5-blueprint-build/structure.ts';
import { toAgentCell } from '../tasks/kits/polycube-pieces/cells.ts';
import { TaskEnv } from '../tasks/env.ts';
import type { Cell } from '../solvers/polycube.ts';
import type { Instance, Tier, ToolCall } from '../tasks/types.ts';

const TIERS_ALL: Tier[] = ['L1', 'L3', 'L5', 'L7'];

async function envOf(inst: Instance<A5Scene>): Promise<TaskEnv> {
  return TaskEnv.create(family as never, inst as Instance);
}

/** Calls that build `cells` bottom-up with the target's offset on the plate, then commit. */
function buildCalls(inst: Instance<A5Scene>, cells: readonly Cell[]): ToolCall[] {
  const off = plateOffset(inst.scene);
  return [
    ...buildOrder(cells)!.map((c) => ({ tool: 'place', args: { cell: toAgentCell([c[0] + off[0], c[1], c[2] + off[2]], PLATE_GRID) } })),
    { tool: 'commit', args: {} },
  ];
}

/** Every height map filling exactly the block `cols × rows × layers`. */
function allMaps(cols: number, rows: number, layers: number): HeightMap[] {
  const out: HeightMap[] = [];
  const n = cols * rows;
  for (let code = 0; code < (layers + 1) ** n; code++) {
    let c = code;
    const h = Array.from({ length: cols }, () => new Array<number>(rows).fill(0));
    for (let i = 0; i < cols; i++) for (let k = 0; k < rows; k++) {
      h[i][k] = c % (layers + 1);
      c = Math.floor(c / (layers + 1));
    }
    const hasCol = (i: number): boolean => h[i].some((v) => v > 0);
    const hasRow = (k: number): boolean => h.some((col) => col[k] > 0);
    if (hasCol(0) && hasCol(cols - 1) && hasRow(0) && hasRow(rows - 1) && Math.max(...h.flat()) === layers) out.push(h);
  }
  return out;
}

describe('A5 blueprint build', function () {
  this.timeout(120000);

  describe('the reading model and the certificate', () => {
    it('the enumeration finds exactly the structures brute force finds, for every view set, on a 3 × 2 × 2 block', () => {
      const maps = allMaps(3, 2, 2);
      const ext = { cols: 3, rows: 2, layers: 2 };
      const sets: ViewName[][] = [['front', 'top', 'right'], ['front', 'top'], ['front', 'right'], ['top', 'right']];
      let ambiguous = 0;
      for (const views of sets) {
        for (const h of maps) {
          const want = views.map((v) => viewImage(h, v, 2));
          const brute = maps.filter((g) => views.every((v, x) => sameDrawing(want[x], viewImage(g, v, 2)))).length;
          const r = readings(cellsOf(h), ext, views, 1000);
          expect(r.complete).to.equal(true);
          expect(r.found.length, `${views.join('+')} ${JSON.stringify(h)}`).to.equal(brute);
          if (brute > 1) ambiguous++;
        }
      }
      // The model is not trivially unique: some view sets leave several readings.
      expect(ambiguous).to.be.greaterThan(0);
    });

    it('a hand-built ambiguous view set has two or more readings: front and right of a 2 × 2 slab cannot see its back-left cube', () => {
      const slab: Cell[] = [[0, 0, 0], [1, 0, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1]];
      const ext = { cols: 2, rows: 2, layers: 2 };
      const two = readings(slab, ext, ['front', 'right'], 10);
      expect(two.complete).to.equal(true);
      expect(two.found.length).to.be.at.least(2);
      expect(two.found.map(structureKey)).to.include(structureKey(slab.filter((c) => !(c[0] === 0 && c[2] === 0))));
      // The top view shows the missing corner: with it the reading is unique.
      const three = readings(slab, ext, ['front', 'top', 'right'], 10);
      expect(three.complete).to.equal(true);
      expect(three.found.map(structureKey)).to.deep.equal([structureKey(slab)]);
    });

    for (const tier of TIERS_ALL) {
      it(`${tier}: the generated blueprints (seeds 100–104) have exactly one buildable reading${TIERS[tier].everyViewNeeded ? ', and none of their views can be left out' : ''}`, () => {
        for (let seed = 100; seed < 105; seed++) {
          const s = family.generate(seed, tier).scene;
          expect(s.target).to.have.length(TIERS[tier].cubes);
          expect(s.views).to.deep.equal(TIERS[tier].views);
          const r = readings(s.target, s.extent, s.views, 5);
          expect(r.complete).to.equal(true);
          expect(r.found.map(structureKey)).to.deep.equal([structureKey(s.target)]);
          if (TIERS[tier].everyViewNeeded) {
            for (const v of s.views) expect(readings(s.target, s.extent, s.views.filter((x) => x !== v), 2).found.length).to.equal(2);
          }
        }
      });
    }

    it('the reading model is the renderer\'s: structures the model calls alike draw byte-identical line pictures, and ones it tells apart do not', async () => {
      const renderer = new Renderer({ width: 200, height: 200 });
      try {
        // On a 2 × 2 × 2 block, per view: a pair the view cannot tell apart, and a pair with the
        // same silhouette that it can (told apart only by where the lines fall).
        const maps = allMaps(2, 2, 2);
        const ext = { cols: 2, rows: 2, layers: 2 };
        for (const view of ['front', 'top', 'right'] as ViewName[]) {
          let alike: [HeightMap, HeightMap] | null = null;
          let apart: [HeightMap, HeightMap] | null = null;
          for (const a of maps) {
            for (const b of maps) {
              if (a === b) continue;
              const [va, vb] = [viewImage(a, view, 2), viewImage(b, view, 2)];
              const same = sameDrawing(va, vb);
              if (same && !alike) alike = [a, b];
              const silhouette = va.depth.every((d, i) => (d < 0) === (vb.depth[i] < 0));
              if (!same && silhouette && !apart) apart = [a, b];
            }
          }
          expect(alike, view).to.not.equal(null);
          expect(apart, view).to.not.equal(null);
          const draw = async (h: HeightMap): Promise<Buffer> =>
            (await decodePng(await renderer.render(structureScene(cellsOf(h)), viewCamera({ extent: ext }, view), { view: 'lines', width: 200, height: 200 }))).data;
          expect((await draw(alike![0])).equals(await draw(alike![1])), `${view}: alike pair`).to.equal(true);
          expect((await draw(apart![0])).equals(await draw(apart![1])), `${view}: apart pair`).to.equal(false);
        }
      } finally {
        await renderer.close();
      }
    });
  });

  describe('the physical tools', () => {
    it('the reference builds the structure and its commit solves the episode; the same build without commit is not yet solved', async () => {
      const inst = family.generate(100, 'L5');
      const calls = (family.reference(inst) as { calls: ToolCall[]; unique?: boolean }).calls;
      const env = await envOf(inst);
      try {
        for (const c of calls.slice(0, -1)) expect(env.execute(c).status, JSON.stringify(c)).to.equal('ok');
        expect(env.solved()).to.equal(false);
        expect(env.progress()).to.equal(1);
        expect(env.execute(calls[calls.length - 1]).status).to.equal('ok');
        expect(env.solved()).to.equal(true);
      } finally {
        env.free();
      }
    });

    it('a cube with nothing under it is refused by the world with the one refusal text and changes nothing; so is a cube lowered into a full cell', async () => {
      const inst = family.generate(100, 'L3');
      const env = await envOf(inst);
      try {
        const h0 = env.stateHash();
        const floating = env.execute({ tool: 'place', args: { cell: [2, 2, 1] } });
        expect(floating.status).to.equal('violation');
        expect(floating.message).to.equal(PLACE_REFUSED);
        expect(env.stateHash()).to.equal(h0);
        expect(env.execute({ tool: 'place', args: { cell: [2, 2, 0] } }).status).to.equal('ok');
        const h1 = env.stateHash();
        const occupied = env.execute({ tool: 'place', args: { cell: [2, 2, 0] } });
        expect(occupied.status).to.equal('violation');
        expect(occupied.message).to.equal(PLACE_REFUSED);
        expect(occupied.violation!.kind).to.equal('rule');
        expect(env.stateHash()).to.equal(h1);
        // Stacked on the first, it stands; the lower one can then not be lifted out from under it.
        expect(env.execute({ tool: 'place', args: { cell: [2, 2, 1] } }).status).to.equal('ok');
        expect(env.execute({ tool: 'remove', args: { cell: [2, 2, 0] } }).message).to.equal(REMOVE_REFUSED);
        expect(env.execute({ tool: 'remove', args: { cell: [0, 0, 0] } }).message).to.equal(REMOVE_REFUSED);
        expect(env.execute({ tool: 'remove', args: { cell: [2, 2, 1] } }).status).to.equal('ok');
        expect(env.execute({ tool: 'remove', args: { cell: [2, 2, 0] } }).status).to.equal('ok');
      } finally {
        env.free();
      }
    });

    it('wrong readings built in the real world and committed are not success: a missing hidden cube, and a structure with the front view\'s silhouette but another shape', async () => {
      // Seeds where a cube of the target is hidden in the front view (another cube in front of it).
      const inst = [100, 101, 102, 103, 104, 105].map((seed) => family.generate(seed, 'L5')).find((i) =>
        i.scene.target.some((c) => c[1] === Math.max(...i.scene.target.filter((d) => d[0] === c[0] && d[2] === c[2]).map((d) => d[1])) && i.scene.target.some((d) => d[0] === c[0] && d[1] === c[1] && d[2] > c[2])),
      )!;
      const s = inst.scene;
      const isHidden = (c: Cell): boolean => s.target.some((d) => d[0] === c[0] && d[1] === c[1] && d[2] > c[2]);
      const top = (c: Cell): boolean => !s.target.some((d) => d[0] === c[0] && d[2] === c[2] && d[1] > c[1]);
      const hidden = s.target.find((c) => isHidden(c) && top(c))!;
      const missing = s.target.filter((c) => c !== hidden);
      expect(sameDrawing(viewImage(heightMap(missing, s.extent), 'front', s.extent.layers), viewImage(heightMap(s.target, s.extent), 'front', s.extent.layers))).to.equal(true);
      // Same silhouette from the front, every column pushed to the front row: another shape.
      const h = heightMap(s.target, s.extent);
      const flat: Cell[] = [];
      for (let i = 0; i < s.extent.cols; i++) {
        const high = Math.max(...h[i]);
        for (let j = 0; j < high; j++) flat.push([i, j, s.extent.rows - 1]);
      }
      const frontTarget = viewImage(h, 'front', s.extent.layers);
      const frontFlat = viewImage(heightMap(flat, s.extent), 'front', s.extent.layers);
      expect(frontFlat.depth.map((d) => d >= 0)).to.deep.equal(frontTarget.depth.map((d) => d >= 0));
      for (const wrong of [missing, flat]) {
        const env = await envOf(inst);
        try {
          const calls = buildCalls(inst, wrong);
          for (const c of calls) expect(env.execute(c).status, JSON.stringify(c)).to.equal('ok');
          expect(env.endReason).to.equal('commit');
          expect(env.solved()).to.equal(false);
          expect(env.progress()).to.be.below(1);
        } finally {
          env.free();
        }
      }
      // The right reading, built elsewhere on the plate, is success (position is free).
      const env = await envOf(inst);
      try {
        const calls = buildCalls(inst, s.target).map((c) =>
          c.tool === 'place' ? { tool: 'place', args: { cell: [(c.args.cell as number[])[0] - plateOffset(s)[0], (c.args.cell as number[])[1], (c.args.cell as number[])[2]] } } : c,
        );
        for (const c of calls) expect(env.execute(c).status, JSON.stringify(c)).to.equal('ok');
        expect(env.solved()).to.equal(true);
      } finally {
        env.free();
      }
    });

    it('what a call returns does not depend on the target: the same probing calls on instances with different structures read the same, word for word', async () => {
      const a = family.generate(100, 'L5');
      const b = family.generate(101, 'L5');
      expect(structureKey(a.scene.target)).to.not.equal(structureKey(b.scene.target));
      // A prober's sweep: every front-row cell, a tower, floating and occupied cells, removes of
      // full, empty and covered cells; everything but commit.
      const calls: ToolCall[] = [];
      for (let col = 0; col < 5; col++) calls.push({ tool: 'place', args: { cell: [col, 0, 0] } });
      calls.push({ tool: 'place', args: { cell: [2, 0, 1] } }, { tool: 'place', args: { cell: [2, 0, 3] } }, { tool: 'place', args: { cell: [2, 0, 0] } });
      calls.push({ tool: 'remove', args: { cell: [2, 0, 0] } }, { tool: 'remove', args: { cell: [4, 4, 0] } }, { tool: 'remove', args: { cell: [2, 0, 1] } });
      for (let row = 1; row < 5; row++) calls.push({ tool: 'place', args: { cell: [0, row, 0] } });
      const read = async (inst: Instance<A5Scene>): Promise<string[]> => {
        const env = await envOf(inst);
        try {
          return calls.map((c) => {
            const r = env.execute(c);
            return `${r.status}|${r.message}`;
          });
        } finally {
          env.free();
        }
      };
      const [ra, rb] = [await read(a), await read(b)];
      expect(ra).to.deep.equal(rb);
      expect(ra.some((r) => r.startsWith('violation'))).to.equal(true);
      expect(ra.some((r) => r.startsWith('ok'))).to.equal(true);
    });

    it('progress counts cubes where a shifted target has them, less the cubes elsewhere', () => {
      const target: Cell[] = [[0, 0, 0], [1, 0, 0], [1, 1, 0]];
      const ext = { cols: 2, rows: 1, layers: 2 };
      expect(buildProgress([], target, ext)).to.equal(0);
      expect(buildProgress([[2, 0, 3], [3, 0, 3]], target, ext)).to.be.closeTo(2 / 3, 1e-12);
      expect(buildProgress([[2, 0, 3], [3, 0, 3], [0, 0, 0]], target, ext)).to.be.closeTo(1 / 3, 1e-12);
      expect(buildProgress([[2, 0, 3], [3, 0, 3], [3, 1, 3]], target, ext)).to.equal(1);
    });
  });
});
