import { expect } from 'chai';
import { Rng } from '../core/rng.ts';
import { breadthFirst, goalDistances, type SearchProblem } from '../solvers/discrete-search/index.ts';
import { slidingProblem, type GridPiece, type SlideMove, type SlideState } from '../tasks/kits/sliding-search.ts';

/** A random tray of non-overlapping pieces (the target first), some on rails when `rails`. */
function randomTray(rng: Rng, cols: number, rows: number, pieces: number, rails: boolean): { cols: number; rows: number; blocks: GridPiece[]; goal: { col: number; row: number } } {
  const taken = new Set<number>();
  const blocks: GridPiece[] = [];
  for (let tries = 0; blocks.length < pieces && tries < 500; tries++) {
    const w = rng.int(1, 2);
    const h = rails ? (w === 1 ? rng.int(2, 3) : 1) : rng.int(1, 2);
    const col = rng.int(0, cols - w);
    const row = rng.int(0, rows - h);
    const cells: number[] = [];
    for (let r = 0; r < h; r++) for (let c = 0; c < w; c++) cells.push((row + r) * cols + col + c);
    if (cells.some((c) => taken.has(c))) continue;
    cells.forEach((c) => taken.add(c));
    const axis = rails ? (w > h ? 'ew' : 'ns') : undefined;
    blocks.push({ col, row, w, h, ...(axis ? { axis } : {}) });
  }
  return { cols, rows, blocks, goal: { col: cols - blocks[0].w, row: blocks[0].row } };
}

/** The same problem without its successor-key fast path: the searches' plain route. */
function plain(p: SearchProblem<SlideState, SlideMove>): SearchProblem<SlideState, SlideMove> {
  return { start: p.start, key: p.key, isGoal: p.isGoal, successors: p.successors };
}

/** The first `n` states reached breadth-first through `successors` (the plain route). */
function firstStates(p: SearchProblem<SlideState, SlideMove>, n: number): SlideState[] {
  const seen = new Set([p.key(p.start)]);
  const out = [p.start];
  for (let head = 0; head < out.length && out.length < n; head++) {
    for (const [, s] of p.successors(out[head])) {
      const k = p.key(s);
      if (!seen.has(k)) {
        seen.add(k);
        out.push(s);
      }
    }
  }
  return out.slice(0, n);
}

describe('sliding-search kit: the successor-key fast path', () => {
  const cases: Array<[string, number, number, number, boolean]> = [
    ['free pieces, number key by cell', 4, 4, 8, false],
    ['pieces on rails, number key by coordinate', 6, 6, 12, true],
    ['a tray too large for a number key (string key, no fast path)', 9, 9, 12, false],
  ];
  for (const [what, cols, rows, pieces, rails] of cases) {
    it(`lists the same keys, moves and states as successors(): ${what}`, () => {
      for (let seed = 0; seed < 6; seed++) {
        const tray = randomTray(new Rng(`sliding-fast/${what}/${seed}`), cols, rows, pieces, rails);
        const problem = slidingProblem(tray);
        if (cols * rows > 60) {
          expect(problem.successorKeys, 'no fast path on a string key').to.equal(undefined);
          continue;
        }
        expect(problem.successorKeys, 'a number key offers the fast path').to.be.a('function');
        // Over the first few thousand states of the component, every listed successor agrees.
        const keys: Array<string | number> = [];
        for (const s of firstStates(problem, 3000)) {
          const slow = [...problem.successors(s)];
          const n = problem.successorKeys!(s, keys);
          expect(n).to.equal(slow.length);
          for (let j = 0; j < n; j++) {
            expect(keys[j]).to.equal(problem.key(slow[j][1]));
            expect(problem.successorAt!(s, j)).to.deep.equal(slow[j]);
          }
        }
      }
    });
  }

  it('gives the searches the same results as the plain route (distances, optimal length, path count, first path)', () => {
    for (let seed = 0; seed < 8; seed++) {
      const tray = (seed % 2 === 1 ? randomTray(new Rng(`sliding-fast/search/${seed}`), 6, 6, 12, true) : randomTray(new Rng(`sliding-fast/search/${seed}`), 4, 4, 8, false));
      const fast = slidingProblem(tray);
      const slow = plain(fast);
      const a = goalDistances(fast, { maxStates: 200_000 });
      const b = goalDistances(slow, { maxStates: 200_000 });
      expect(a.states).to.deep.equal(b.states);
      expect(a.toGoal).to.deep.equal(b.toGoal);
      const ra = breadthFirst(fast, { maxStates: 200_000 });
      const rb = breadthFirst(slow, { maxStates: 200_000 });
      expect({ ...ra, method: '' }).to.deep.equal({ ...rb, method: '' });
    }
  });
});
