import { expect } from 'chai';
import {
  aStar,
  applyTurn,
  breadthFirst,
  cubeFromIndex,
  cubeIndex,
  idaStar,
  pocketCubeDistance,
  pocketCubeDistanceCounts,
  pocketCubeTables,
  reachableStates,
  solvePocketCube,
  solvedCube,
  turnsOf,
  type SearchProblem,
} from '../solvers/discrete-search/index.ts';

// ---- 8-puzzle: tiles 1..8 and a blank (0) on 3×3, goal 123456780 ----
function eightPuzzle(start: string): SearchProblem<string, string> {
  const goal = '123456780';
  return {
    start,
    key: (s) => s,
    isGoal: (s) => s === goal,
    *successors(s) {
      const b = s.indexOf('0');
      const r = Math.floor(b / 3);
      const c = b % 3;
      const steps: Array<[string, number, boolean]> = [
        ['up', b - 3, r > 0],
        ['down', b + 3, r < 2],
        ['left', b - 1, c > 0],
        ['right', b + 1, c < 2],
      ];
      for (const [name, t, ok] of steps) {
        if (!ok) continue;
        const a = s.split('');
        [a[b], a[t]] = [a[t], a[b]];
        yield [name, a.join('')] as const;
      }
    },
    heuristic(s) {
      let h = 0;
      for (let i = 0; i < 9; i++) {
        const v = Number(s[i]);
        if (v) h += Math.abs(Math.floor(i / 3) - Math.floor((v - 1) / 3)) + Math.abs((i % 3) - ((v - 1) % 3));
      }
      return h;
    },
  };
}

// ---- Rush Hour in Fogleman's 36-character notation: 'o' empty, 'x' wall, 'A' the red car ----
function rushHour(board: string): SearchProblem<string, string> {
  const isPiece = (ch: string) => ch !== 'o' && ch !== 'x';
  return {
    start: board,
    key: (s) => s,
    // Solved when the red car's front reaches the right edge of its row (cells 16 and 17).
    isGoal: (s) => s[16] === 'A' && s[17] === 'A',
    *successors(s) {
      const seen = new Set<string>();
      for (let i = 0; i < 36; i++) {
        const id = s[i];
        if (!isPiece(id) || seen.has(id)) continue;
        seen.add(id);
        const cells = [...s].map((ch, k) => (ch === id ? k : -1)).filter((k) => k >= 0);
        const horizontal = cells[1] - cells[0] === 1;
        const stride = horizontal ? 1 : 6;
        for (const dir of [-1, 1]) {
          for (let n = 1; ; n++) {
            const head = dir < 0 ? cells[0] - n * stride : cells[cells.length - 1] + n * stride;
            const inside = horizontal ? Math.floor(head / 6) === Math.floor(cells[0] / 6) && head >= 0 : head >= 0 && head < 36;
            if (!inside || s[head] !== 'o') break;
            const a = s.split('').map((ch) => (ch === id ? 'o' : ch));
            for (const k of cells) a[k + dir * n * stride] = id;
            yield [`${id}${dir > 0 ? '+' : '-'}${n}`, a.join('')] as const;
          }
        }
      }
    },
  };
}

// ---- Klotski: pieces slide on a 4×5 tray; a move takes one piece anywhere it can reach ----
interface Block {
  w: number;
  h: number;
  x: number;
  y: number;
}
function klotski(rows: string[], target: string, goal: { x: number; y: number }): SearchProblem<Block[], string> {
  const W = rows[0].length;
  const H = rows.length;
  const ids: string[] = [];
  for (const r of rows) for (const ch of r) if (ch !== '.' && !ids.includes(ch)) ids.push(ch);
  const start = ids.map((id) => {
    const cells: Array<[number, number]> = [];
    rows.forEach((r, y) => [...r].forEach((ch, x) => ch === id && cells.push([x, y])));
    const xs = cells.map((c) => c[0]);
    const ys = cells.map((c) => c[1]);
    const x = Math.min(...xs);
    const y = Math.min(...ys);
    return { w: Math.max(...xs) - x + 1, h: Math.max(...ys) - y + 1, x, y };
  });
  const t = ids.indexOf(target);
  const occupied = (bs: Block[], skip: number): boolean[] => {
    const g = new Array(W * H).fill(false);
    bs.forEach((b, i) => {
      if (i === skip) return;
      for (let dy = 0; dy < b.h; dy++) for (let dx = 0; dx < b.w; dx++) g[(b.y + dy) * W + b.x + dx] = true;
    });
    return g;
  };
  const fits = (g: boolean[], b: Block, x: number, y: number): boolean => {
    if (x < 0 || y < 0 || x + b.w > W || y + b.h > H) return false;
    for (let dy = 0; dy < b.h; dy++) for (let dx = 0; dx < b.w; dx++) if (g[(y + dy) * W + x + dx]) return false;
    return true;
  };
  return {
    start,
    // Same-shaped pieces are interchangeable, except the target.
    key: (bs) => bs.map((b, i) => `${i === t ? 'T' : `${b.w}${b.h}`}@${b.x},${b.y}`).sort().join(' '),
    isGoal: (bs) => bs[t].x === goal.x && bs[t].y === goal.y,
    *successors(bs) {
      for (let i = 0; i < bs.length; i++) {
        const g = occupied(bs, i);
        const b = bs[i];
        const seen = new Set([`${b.x},${b.y}`]);
        const queue: Array<[number, number]> = [[b.x, b.y]];
        for (let q = 0; q < queue.length; q++) {
          const [x, y] = queue[q];
          for (const [nx, ny] of [[x + 1, y], [x - 1, y], [x, y + 1], [x, y - 1]]) {
            if (seen.has(`${nx},${ny}`) || !fits(g, b, nx, ny)) continue;
            seen.add(`${nx},${ny}`);
            queue.push([nx, ny]);
            const next = bs.slice();
            next[i] = { ...b, x: nx, y: ny };
            yield [`${ids[i]}→${nx},${ny}`, next] as const;
          }
        }
      }
    },
  };
}

describe('discrete-search kit', () => {
  describe('8-puzzle', () => {
    // Two positions published as the hardest of the 8-puzzle: 31 moves.
    for (const start of ['867254301', '647850321']) {
      it(`${start}: breadth-first, A* and IDA* agree on 31 moves and on the number of optimal solutions`, () => {
        const p = eightPuzzle(start);
        const bfs = breadthFirst(p);
        const a = aStar(p);
        const ida = idaStar(p);
        expect(bfs.length).to.equal(31);
        expect(a.length).to.equal(31);
        expect(ida.length).to.equal(31);
        expect(bfs.optimalCount).to.be.greaterThan(1);
        expect(a.optimalCount).to.equal(bfs.optimalCount);
        expect(ida.optimalCount).to.equal(bfs.optimalCount);
        // A* with Manhattan distance stores fewer states than breadth-first search.
        expect(a.statesSearched).to.be.lessThan(bfs.statesSearched);
        // Each returned solution replays to the goal.
        for (const r of [bfs, a, ida]) {
          let s = p.start;
          for (const m of r.moves) s = [...p.successors(s)].find(([name]) => name === m)![1];
          expect(p.isGoal(s)).to.equal(true);
          expect(r.states[r.states.length - 1]).to.equal(s);
        }
      });
    }

    it('an odd permutation is proven unsolvable after all 181,440 reachable states', () => {
      const r = breadthFirst(eightPuzzle('213456780'));
      expect(r.solvable).to.equal(false);
      expect(r.length).to.equal(-1);
      expect(r.statesSearched).to.equal(181440);
      expect(aStar(eightPuzzle('213456780')).solvable).to.equal(false);
    });

    it('counts optimal solutions: C(m+n, m) shortest walks across an open m×n grid', () => {
      for (const [m, n] of [[3, 3], [4, 2], [5, 4]]) {
        const walk: SearchProblem<string, string> = {
          start: '0,0',
          key: (s) => s,
          isGoal: (s) => s === `${m},${n}`,
          *successors(s) {
            const [x, y] = s.split(',').map(Number);
            for (const [dx, dy, name] of [[1, 0, 'E'], [-1, 0, 'W'], [0, 1, 'N'], [0, -1, 'S']] as const) {
              if (x + dx >= 0 && x + dx <= m && y + dy >= 0 && y + dy <= n) yield [name, `${x + dx},${y + dy}`] as const;
            }
          },
          heuristic: (s) => {
            const [x, y] = s.split(',').map(Number);
            return m - x + (n - y);
          },
        };
        let binom = 1;
        for (let k = 1; k <= m; k++) binom = (binom * (n + k)) / k;
        expect(breadthFirst(walk).optimalCount).to.equal(binom);
        expect(aStar(walk).optimalCount).to.equal(binom);
        expect(idaStar(walk).optimalCount).to.equal(binom);
        expect(breadthFirst(walk).length).to.equal(m + n);
      }
    });

    it('refuses an inconsistent heuristic instead of claiming a false optimum', () => {
      const p = { ...eightPuzzle('867254301'), heuristic: (s: string) => (s === '867254301' ? 12 : 0) };
      expect(() => aStar(p)).to.throw(/not consistent/);
      expect(() => idaStar(p)).to.throw(/not consistent/);
    });

    it('stops with a clear error past its state bound', () => {
      expect(() => breadthFirst(eightPuzzle('867254301'), { maxStates: 1000 })).to.throw(/more than 1000 states/);
    });
  });

  it('Rush Hour: the hardest position of the published database takes 60 moves in a component of 2,332 states', () => {
    const board = 'IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM';
    const p = rushHour(board);
    const r = breadthFirst(p);
    expect(r.length).to.equal(60);
    expect(r.optimalCount).to.be.greaterThan(0);
    expect(reachableStates(p).states.length).to.equal(2332);
  });

  it('Klotski "Forget-me-not": 81 moves when a move takes one piece anywhere it can slide', () => {
    const p = klotski(['ABBC', 'ABBC', 'DEEF', 'DGHF', 'I..J'], 'B', { x: 1, y: 3 });
    const r = breadthFirst(p);
    expect(r.length).to.equal(81);
    expect(r.optimalCount).to.be.greaterThan(0);
  });

  describe('pocket cube distance table', () => {
    it('has the published number of positions at each distance (God\'s number 11 HTM, 14 QTM)', () => {
      const c = pocketCubeDistanceCounts();
      expect(c.positions).to.equal(3674160);
      expect(c.htm).to.deep.equal([1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644]);
      expect(c.qtm).to.deep.equal([1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536, 90280, 276]);
      expect(c.godsNumber).to.deep.equal({ htm: 11, qtm: 14 });
    });

    it('indexes positions one to one and reads back solutions that reach solved', () => {
      for (const i of [0, 1, 728, 729, 1234567, 3674159]) expect(cubeIndex(cubeFromIndex(i))).to.equal(i);
      let s = solvedCube();
      for (const t of [{ face: 'R', quarters: 1 }, { face: 'U', quarters: 2 }, { face: 'F', quarters: 3 }, { face: 'R', quarters: 2 }] as const) s = applyTurn(s, t);
      const htm = solvePocketCube(s, 'htm');
      const qtm = solvePocketCube(s, 'qtm');
      expect(htm.length).to.equal(pocketCubeDistance(s, 'htm'));
      expect(htm.length).to.be.at.most(4);
      expect(qtm.length).to.equal(pocketCubeDistance(s, 'qtm'));
      for (const sol of [htm, qtm]) {
        let cur = s;
        for (const t of sol.turns) cur = applyTurn(cur, t);
        expect(cubeIndex(cur)).to.equal(cubeIndex(solvedCube()));
        expect(sol.optimalCount).to.be.greaterThan(0);
      }
      // A single quarter turn has exactly one shortest solution in either metric.
      const one = applyTurn(solvedCube(), { face: 'U', quarters: 1 });
      expect(solvePocketCube(one, 'htm').optimalCount).to.equal(1);
      expect(turnsOf('htm')).to.have.length(9);
      expect(turnsOf('qtm')).to.have.length(6);
    });

    it('the table read back from its cache equals a fresh computation', () => {
      const cached = pocketCubeTables();
      const fresh = pocketCubeTables({ fresh: true, cache: false });
      expect(fresh.source).to.equal('computed');
      expect(Buffer.from(fresh.htm).equals(Buffer.from(cached.htm))).to.equal(true);
      expect(Buffer.from(fresh.qtm).equals(Buffer.from(cached.qtm))).to.equal(true);
    });
  });
});
