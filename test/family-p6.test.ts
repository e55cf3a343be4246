import { expect } from 'chai';
import type { PegState } from '../tasks/puzzles/p6-peg-transfer/scene.ts';
import { applyMove, moveProblem, solvePegTransfer } from '../tasks/puzzles/p6-peg-transfer/solver.ts';

describe('P6 solver (exhaustive search)', () => {
  for (const n of [1, 2, 3, 4, 5, 6]) {
    it(`finds 2^n − 1 = ${2 ** n - 1} moves for ${n} disks under the classic rule`, () => {
      const sol = solvePegTransfer(new Array(n).fill(0), 2, { pegs: 3, adjacentOnly: false });
      expect(sol.optimalLength).to.equal(2 ** n - 1);
      expect(sol.moves).to.have.length(2 ** n - 1);
      expect(sol.shortestPlans).to.equal(1);
    });
  }

  for (const n of [1, 2, 3, 4, 5]) {
    it(`finds 3^n − 1 = ${3 ** n - 1} moves end to end with neighbouring pegs only (${n} disks)`, () => {
      const sol = solvePegTransfer(new Array(n).fill(0), 2, { pegs: 3, adjacentOnly: true });
      expect(sol.optimalLength).to.equal(3 ** n - 1);
    });
  }

  it('every move of a found plan is legal and the plan ends at the goal', () => {
    const rules = { pegs: 3, adjacentOnly: true };
    let s: PegState = [2, 0, 1, 0, 2];
    const sol = solvePegTransfer(s, 1, rules);
    for (const m of sol.moves) {
      expect(moveProblem(s, m, rules)).to.equal(null);
      s = applyMove(s, m);
    }
    expect(s).to.deep.equal([1, 1, 1, 1, 1]);
  });

  it('refuses a larger disk on a smaller one, an empty source, and a skipped peg under the variant', () => {
    expect(moveProblem([0, 1], { from: 1, to: 0 }, { pegs: 3, adjacentOnly: false })).to.match(/smaller/);
    expect(moveProblem([0, 0], { from: 2, to: 0 }, { pegs: 3, adjacentOnly: false })).to.match(/no disk/);
    expect(moveProblem([0, 0], { from: 0, to: 2 }, { pegs: 3, adjacentOnly: true })).to.match(/neighbouring/);
  });
});
