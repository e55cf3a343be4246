import { expect } from 'chai';
import { TaskEnv } from '../tasks/env.ts';
import { p1SlidingBlocks } from '../tasks/puzzles/p1-sliding-blocks/family.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from '../tasks/puzzles/p1-sliding-blocks/filters.ts';
import { drawScene, layoutProblem } from '../tasks/puzzles/p1-sliding-blocks/generate.ts';
import type { P1Scene } from '../tasks/puzzles/p1-sliding-blocks/scene.ts';
import { slidingProblem, solveSliding } from '../tasks/puzzles/p1-sliding-blocks/solver.ts';
import type { Instance, Tier } from '../tasks/types.ts';
import { breadthFirst } from '../solvers/discrete-search/index.ts';
import { playSightless } from './support/sightless-episode.ts';

/** A hand-built 3 × 3 tray: A (2 × 2) in the north-west, C (1 × 1) in the north-east, goal one cell east. */
function handScene(extra: Partial<P1Scene> = {}): P1Scene {
  return {
    cols: 3,
    rows: 3,
    cell: 0.05,
    blocks: [
      { id: 'A', col: 0, row: 0, w: 2, h: 2 },
      { id: 'C', col: 2, row: 0, w: 1, h: 1 },
    ],
    target: 'A',
    goal: { col: 1, row: 0 },
    exitSide: 'east',
    yawDeg: 0,
    ...extra,
  };
}

function handInstance(scene: P1Scene): Instance<P1Scene> {
  const base = p1SlidingBlocks.generate(100, 'L1');
  return { ...base, id: 'P1-hand', scene };
}

describe('P1 sliding blocks', () => {
  describe('solver', () => {
    it('finds the one shortest plan of a hand-built tray: C south 2, then A east 1', () => {
      const r = solveSliding(handScene());
      expect(r.length).to.equal(2);
      expect(r.optimalCount).to.equal(1);
      expect(r.moves).to.deep.equal([
        { block: 1, dir: 'south', cells: 2 },
        { block: 0, dir: 'east', cells: 1 },
      ]);
    });

    it('counts slides, not cells: a block crossing the tray is one move', () => {
      const r = solveSliding({ ...handScene(), cols: 4, blocks: [{ id: 'A', col: 0, row: 0, w: 2, h: 2 }], goal: { col: 2, row: 0 } });
      expect(r.length).to.equal(1);
      expect(r.moves[0]).to.deep.equal({ block: 0, dir: 'east', cells: 2 });
    });

    it('proves a boxed-in layout unsolvable, and the filter names it', () => {
      // 3 × 2 tray: C can only drop into the one free cell beside it, so A never gets both cells it needs.
      const scene = handScene({ rows: 2 });
      const r = solveSliding(scene);
      expect(r.solvable).to.equal(false);
      expect(r.statesSearched).to.equal(2);
      const inst = handInstance(scene);
      expect(SHORTCUT_FILTERS[0].check(inst)).to.match(/never reach/);
    });

    it('layout checks catch overlapping blocks and blocks outside the tray', () => {
      expect(layoutProblem(handScene())).to.equal(null);
      expect(layoutProblem({ ...handScene(), blocks: [...handScene().blocks, { id: 'D', col: 1, row: 1, w: 1, h: 1 }] })).to.match(/overlaps/);
      expect(layoutProblem({ ...handScene(), blocks: [...handScene().blocks, { id: 'D', col: 2, row: 2, w: 1, h: 2 }] })).to.match(/outside/);
    });

    it('the generator is deterministic, lands in the tier band, and its start is proved by a fresh search', () => {
      for (const tier of ['L1', 'L3', 'L5'] as Tier[]) {
        const a = drawScene(103, tier, { memo: false });
        const b = drawScene(103, tier, { memo: false });
        expect(a).to.deep.equal(b);
        expect(layoutProblem(a.scene)).to.equal(null);
        const again = breadthFirst(slidingProblem(a.scene));
        expect(again.length).to.equal(a.length);
        expect(again.optimalCount).to.equal(a.count);
      }
    });
  });

  describe('physics', () => {
    it('a slide into a block is a collision, rolled back; the shortest plan then solves it', async () => {
      const inst = handInstance(handScene());
      const env = await TaskEnv.create(p1SlidingBlocks, inst);
      try {
        const before = env.stateHash();
        const blocked = env.execute({ tool: 'slide', args: { block: 'A', direction: 'east', cells: 1 } });
        expect(blocked.status).to.equal('violation');
        expect(blocked.violation?.kind).to.equal('collision');
        expect(blocked.violation?.bodies).to.include('block-C');
        expect(env.stateHash()).to.equal(before);
        const wall = env.execute({ tool: 'slide', args: { block: 'C', direction: 'north', cells: 1 } });
        expect(wall.violation?.kind).to.equal('collision');
        expect(wall.violation?.bodies).to.include('tray-walls');
        expect(env.execute({ tool: 'slide', args: { block: 'C', direction: 'south', cells: 2 } }).status).to.equal('ok');
        expect(env.solved()).to.equal(false);
        expect(env.progress()).to.be.closeTo(0.5, 1e-9);
        expect(env.execute({ tool: 'slide', args: { block: 'A', direction: 'east', cells: 1 } }).status).to.equal('ok');
        expect(env.solved()).to.equal(true);
      } finally {
        env.free();
      }
    });

    it('in a turned tray (+rot), "east" is the tray\'s east, not the picture\'s right', async () => {
      const inst = handInstance(handScene({ yawDeg: 90 }));
      const env = await TaskEnv.create(p1SlidingBlocks, inst);
      try {
        const p0 = env.world.getPose('block-C').p;
        expect(env.execute({ tool: 'slide', args: { block: 'C', direction: 'south', cells: 2 } }).status).to.equal('ok');
        const p1 = env.world.getPose('block-C').p;
        // Turned 90° about +Y, the tray's south (+z) points to the world's +x.
        expect(p1[0] - p0[0]).to.be.closeTo(0.1, 1e-6);
        expect(p1[2] - p0[2]).to.be.closeTo(0, 1e-6);
        expect(env.execute({ tool: 'slide', args: { block: 'A', direction: 'east', cells: 1 } }).status).to.equal('ok');
        expect(env.solved()).to.equal(true);
      } finally {
        env.free();
      }
    });
  });

  describe('sightless strategies fail over many seeds', () => {
    for (const strategy of SIGHTLESS) {
      it(`${strategy.name} stays within its bound (${strategy.bound})`, async function () {
        this.timeout(600_000);
        let solved = 0;
        let played = 0;
        for (const tier of ['L1', 'L3', 'L5', 'L7'] as Tier[]) {
          for (let seed = 200; seed < 206; seed++) {
            const inst = p1SlidingBlocks.generate(seed, tier);
            if (await playSightless(p1SlidingBlocks, inst, strategy, seed, { turns: 60 })) solved++;
            played++;
          }
        }
        expect(solved / played).to.be.at.most(strategy.bound);
      });
    }
  });
});
