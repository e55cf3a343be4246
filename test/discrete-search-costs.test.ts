import { expect } from 'chai';
import { SpaceActError } from '../core/errors.ts';
import { breadthFirst, cheapestFirst, lexicographicCost, lexicographicCounts, type SearchProblem, type WeightedSearchProblem } from '../solvers/discrete-search/index.ts';

/** Monotone lattice paths on an (m+1) × (n+1) grid of points, every step costing one. */
function lattice(m: number, n: number): SearchProblem<[number, number], string> {
  return {
    start: [0, 0],
    key: ([x, y]) => x * 1000 + y,
    isGoal: ([x, y]) => x === m && y === n,
    *successors([x, y]) {
      if (x < m) yield ['right', [x + 1, y]] as const;
      if (y < n) yield ['up', [x, y + 1]] as const;
    },
  };
}

function binomial(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

describe('discrete-search kit: cheapest-first search over weighted moves', () => {
  it('with unit costs it agrees with breadth-first search (length and path count)', () => {
    const p = lattice(4, 3);
    const w: WeightedSearchProblem<[number, number], string> = { ...p, *successors(s) {
      for (const [m, t] of p.successors(s)) yield [m, t, 1] as const;
    } };
    const a = cheapestFirst(w);
    const b = breadthFirst(p);
    expect(a.length).to.equal(b.length);
    expect(a.optimalCount).to.equal(b.optimalCount);
    expect(a.optimalCount).to.equal(binomial(7, 3));
  });

  it('prefers the cheaper route over the shorter one and counts only the cheapest', () => {
    // s → g directly costs 10; s → a → g costs 3 + 3; s → b → g costs 2 + 4 (also 6).
    const edges: Record<string, Array<[string, number]>> = { s: [['g', 10], ['a', 3], ['b', 2]], a: [['g', 3]], b: [['g', 4]], g: [] };
    const r = cheapestFirst<string, string>({ start: 's', key: (x) => x, isGoal: (x) => x === 'g', *successors(x) {
      for (const [y, c] of edges[x]) yield [`${x}${y}`, y, c] as const;
    } });
    expect(r.length).to.equal(6);
    expect(r.optimalCount).to.equal(2);
    expect(r.moves).to.have.length(2);
  });

  it('multiplies a macro move\'s ways into the count, and ranks pushes before steps when costs are folded', () => {
    // Two macro moves reach the goal: one push after a 3-step walk with 2 shortest routes, or
    // two pushes with no walk. Fewest pushes first: the single push wins despite more steps.
    const base = 1000;
    const r = cheapestFirst<string, string>({ start: 's', key: (x) => x, isGoal: (x) => x === 'g', *successors(x) {
      if (x === 's') {
        yield ['walk 3, push', 'g', lexicographicCost([1, 4], base), 2] as const;
        yield ['push', 'm', lexicographicCost([1, 1], base), 1] as const;
      }
      if (x === 'm') yield ['push', 'g', lexicographicCost([1, 1], base), 1] as const;
    } });
    expect(lexicographicCounts(r.length, base, 2)).to.deep.equal([1, 4]);
    expect(r.optimalCount).to.equal(2);
  });

  it('an admissible, consistent heuristic (A*) finds the same cost and count; an inconsistent one is refused', () => {
    const p = lattice(5, 5);
    const weighted: WeightedSearchProblem<[number, number], string> = { ...p, *successors(s) {
      for (const [m, t] of p.successors(s)) yield [m, t, m === 'right' ? 2 : 1] as const;
    } };
    const plain = cheapestFirst(weighted);
    const guided = cheapestFirst({ ...weighted, heuristic: ([x, y]) => 2 * (5 - x) + (5 - y) });
    expect(guided.length).to.equal(plain.length).and.to.equal(15);
    expect(guided.optimalCount).to.equal(plain.optimalCount).and.to.equal(binomial(10, 5));
    expect(guided.statesSearched).to.be.at.most(plain.statesSearched);
    expect(() => cheapestFirst({ ...weighted, heuristic: ([x, y]) => 5 * (5 - x) + (5 - y) })).to.throw(SpaceActError, /not consistent/);
  });

  it('proves an unreachable goal unsolvable, and refuses a zero or fractional cost', () => {
    const none = cheapestFirst<number, string>({ start: 0, key: (x) => x, isGoal: (x) => x === 9, *successors(x) {
      if (x < 3) yield ['+1', x + 1, 1] as const;
    } });
    expect(none.solvable).to.equal(false);
    expect(none.statesSearched).to.equal(4);
    expect(() => cheapestFirst<number, string>({ start: 0, key: (x) => x, isGoal: () => false, *successors(x) {
      if (x < 1) yield ['free', x + 1, 0] as const;
    } })).to.throw(SpaceActError, /positive integer/);
    expect(() => lexicographicCost([1, 1000], 1000)).to.throw(SpaceActError);
  });
});
