import { expect } from 'chai';
import { SpaceActError } from '../core/errors.ts';
import { solveExactCover } from '../solvers/exact-cover.ts';
import {
  canonical,
  countPackings,
  countPackingsUpToSymmetry,
  enumeratePolycubes,
  isConnected,
  isometries48,
  normalize,
  orientations,
  rotate,
  rotations24,
  targetSymmetries,
  type Cell,
} from '../verify/index.ts';

/** The seven Soma pieces (27 cells in all); the last two are a mirror pair. */
const SOMA: Cell[][] = [
  [[0, 0, 0], [1, 0, 0], [0, 1, 0]],
  [[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0]],
  [[0, 0, 0], [1, 0, 0], [2, 0, 0], [1, 1, 0]],
  [[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 1, 0]],
  [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]],
  [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 0, 1]],
  [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 1, 1]],
];

function box(nx: number, ny: number, nz: number): Cell[] {
  const out: Cell[] = [];
  for (let x = 0; x < nx; x++) for (let y = 0; y < ny; y++) for (let z = 0; z < nz; z++) out.push([x, y, z]);
  return out;
}

const key = (cells: Cell[]): string => normalize(cells).map((c) => c.join(',')).join(';');

describe('polycube toolkit', () => {
  it('rotations24 are 24 distinct proper rotations closed under composition; isometries48 add the reflections', () => {
    const rots = rotations24();
    expect(rots).to.have.length(24);
    const probe: Cell[] = [[1, 2, 3]];
    const images = new Set(rots.map((m) => rotate(probe, m)[0].join(',')));
    expect(images.size).to.equal(24);
    const asKey = (m: readonly number[]): string => m.join(',');
    const set = new Set(rots.map(asKey));
    for (const a of rots) {
      for (const b of rots) {
        const c = [0, 1, 2].flatMap((i) => [0, 1, 2].map((j) => a[i * 3] * b[j] + a[i * 3 + 1] * b[3 + j] + a[i * 3 + 2] * b[6 + j]));
        expect(set.has(asKey(c))).to.equal(true);
      }
    }
    expect(rots[0]).to.deep.equal([1, 0, 0, 0, 1, 0, 0, 0, 1]);
    expect(isometries48()).to.have.length(48);
    expect(new Set(isometries48().map(asKey)).size).to.equal(48);
  });

  it('normalize moves a shape to the origin and sorts its cells', () => {
    expect(normalize([[5, 7, 2], [4, 7, 2], [4, 8, 3]])).to.deep.equal([[0, 0, 0], [0, 1, 1], [1, 0, 0]]);
  });

  it('canonical forms agree exactly for congruent shapes, and tell a chiral piece from its mirror', () => {
    const screw = SOMA[5];
    for (const m of rotations24()) {
      const moved = rotate(screw, m).map(([x, y, z]) => [x + 4, y - 3, z + 9] as Cell);
      expect(canonical(moved)).to.deep.equal(canonical(screw));
    }
    const mirrored = screw.map(([x, y, z]) => [-x, y, z] as Cell);
    expect(canonical(mirrored)).to.not.deep.equal(canonical(screw));
    expect(canonical(mirrored, { mirror: true })).to.deep.equal(canonical(screw, { mirror: true }));
    // The two Soma screws are each other's mirror image.
    expect(canonical(SOMA[5])).to.not.deep.equal(canonical(SOMA[6]));
    expect(canonical(SOMA[5], { mirror: true })).to.deep.equal(canonical(SOMA[6], { mirror: true }));
  });

  it('orientations: a straight tricube has 3, the L tetracube 24, a cube 1', () => {
    expect(orientations([[0, 0, 0], [1, 0, 0], [2, 0, 0]])).to.have.length(3);
    expect(orientations(SOMA[1])).to.have.length(24);
    expect(orientations(box(2, 2, 2))).to.have.length(1);
  });

  // OEIS A000162 (rotations only, mirror images distinct) and A038119 (mirror images identified).
  const ONE_SIDED = [1, 1, 2, 8, 29, 166];
  const FREE = [1, 1, 2, 7, 23, 112];
  for (let n = 1; n <= 6; n++) {
    it(`enumerates ${ONE_SIDED[n - 1]} polycubes of ${n} cells up to rotation and ${FREE[n - 1]} up to rotation and reflection`, () => {
      const oneSided = enumeratePolycubes(n);
      const free = enumeratePolycubes(n, { mirror: true });
      expect(oneSided).to.have.length(ONE_SIDED[n - 1]);
      expect(free).to.have.length(FREE[n - 1]);
      for (const p of oneSided) {
        expect(p).to.have.length(n);
        expect(isConnected(p)).to.equal(true);
        expect(p).to.deep.equal(canonical(p));
      }
      expect(new Set(oneSided.map(key)).size).to.equal(oneSided.length);
    });
  }

  it('the seven Soma pieces are exactly the 3- and 4-cell polycubes that are not boxes', () => {
    const isBox = (p: Cell[]): boolean => {
      const ext = [0, 1, 2].map((a) => Math.max(...p.map((c) => c[a])) + 1);
      return ext[0] * ext[1] * ext[2] === p.length;
    };
    const notBoxes = [...enumeratePolycubes(3), ...enumeratePolycubes(4)].filter((p) => !isBox(p)).map(key).sort();
    expect(notBoxes).to.deep.equal(SOMA.map((p) => key(canonical(p))).sort());
  });

  it('Soma cube: 11 520 packings of the 3×3×3 cube, 480 up to rotation, 240 up to rotation and reflection', () => {
    const cube = box(3, 3, 3);
    const all = countPackings(SOMA, cube);
    expect(all.count).to.equal(11520);
    expect(all.complete).to.equal(true);
    const rot = countPackingsUpToSymmetry(SOMA, cube);
    expect(rot.symmetries).to.equal(24);
    expect(rot.total).to.equal(11520);
    expect(rot.count).to.equal(480);
    const free = countPackingsUpToSymmetry(SOMA, cube, { mirror: true });
    expect(free.symmetries).to.equal(48);
    expect(free.count).to.equal(240);
  });

  it('every returned packing fills the target exactly with congruent copies of the pieces', () => {
    const cube = box(3, 3, 3);
    const res = countPackings(SOMA, cube, { limit: 25, collect: true });
    expect(res.count).to.equal(25);
    expect(res.complete).to.equal(false);
    for (const packing of res.packings!) {
      const used = packing.flat().map((c) => c.join(','));
      expect(new Set(used).size).to.equal(27);
      for (const c of cube) expect(used).to.include(c.join(','));
      packing.forEach((cells, i) => expect(key(canonical(cells))).to.equal(key(canonical(SOMA[i]))));
    }
  });

  it('pieces are rotated but never mirrored: a chiral piece cannot fill its mirror image', () => {
    const screw = SOMA[5];
    const mirror = screw.map(([x, y, z]) => [-x, y, z] as Cell);
    expect(countPackings([screw], screw).count).to.equal(1);
    expect(countPackings([screw], mirror).count).to.equal(0);
  });

  it('identical pieces are interchangeable, and symmetric copies of a packing collapse up to symmetry', () => {
    // Two 2×1×1 bars fill a 2×2×1 slab in 2 ways (both along x, or both along y).
    const bar: Cell[] = [[0, 0, 0], [1, 0, 0]];
    const slab = box(2, 2, 1);
    expect(countPackings([bar, bar], slab).count).to.equal(2);
    const up = countPackingsUpToSymmetry([bar, bar], slab);
    expect(up.count).to.equal(1);
    // Four unit cubes fill a 2×2×1 slab in exactly one way.
    expect(countPackings([[[0, 0, 0]], [[0, 0, 0]], [[0, 0, 0]], [[0, 0, 0]]], slab).count).to.equal(1);
    // A size mismatch has no packing.
    expect(countPackings([bar], slab).count).to.equal(0);
  });

  it('a target’s symmetries: 24 for a cube, 8 for a 2×2×3 box, 2 for a screw (a half-turn, no reflection), 1 for an asymmetric shape', () => {
    expect(targetSymmetries(box(3, 3, 3))).to.have.length(24);
    expect(targetSymmetries(box(3, 3, 3), { mirror: true })).to.have.length(48);
    expect(targetSymmetries(box(2, 2, 3))).to.have.length(8);
    expect(targetSymmetries(SOMA[5])).to.have.length(2);
    expect(targetSymmetries(SOMA[5], { mirror: true })).to.have.length(2);
    const lopsided: Cell[] = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1], [2, 1, 1], [0, 0, 1]];
    expect(targetSymmetries(lopsided)).to.deep.equal([[0, 1, 2, 3, 4, 5]]);
    // Each symmetry is a permutation of the target's cells.
    for (const perm of targetSymmetries(box(2, 2, 3))) expect([...perm].sort((a, b) => a - b)).to.deep.equal([...Array(12).keys()]);
  });

  it('bad input is refused with a SpaceActError', () => {
    expect(() => enumeratePolycubes(0)).to.throw(SpaceActError);
    expect(() => countPackings([[[0, 0, 0.5]] as unknown as Cell[]], [[0, 0, 0]])).to.throw(SpaceActError, /integer/);
    expect(() => countPackings([[[0, 0, 0], [0, 0, 0]]], [[0, 0, 0]])).to.throw(SpaceActError, /repeats/);
    expect(() => countPackings([], [[0, 0, 0]])).to.throw(SpaceActError);
  });
});

describe('exact cover (Algorithm X, dancing links)', () => {
  it("solves Knuth's example: the one cover of 7 columns by rows {1,4}, {3,5,6} and {2,7}", () => {
    const rows = [[2, 4, 5], [0, 3, 6], [1, 2, 5], [0, 3], [1, 6], [3, 4, 6]];
    const found: number[][] = [];
    const res = solveExactCover({ primary: 7, rows }, { onSolution: (r) => void found.push([...r].sort()) });
    expect(res.count).to.equal(1);
    expect(found).to.deep.equal([[0, 3, 4]]);
  });

  it('counts the 5 domino tilings of a 2×4 board, and stops at a limit', () => {
    // Domino tilings of a 2×n board are Fibonacci numbers: 2×4 has 5.
    const rows: number[][] = [];
    const cell = (r: number, c: number): number => r * 4 + c;
    for (let r = 0; r < 2; r++) for (let c = 0; c < 3; c++) rows.push([cell(r, c), cell(r, c + 1)]);
    for (let c = 0; c < 4; c++) rows.push([cell(0, c), cell(1, c)]);
    expect(solveExactCover({ primary: 8, rows }).count).to.equal(5);
    expect(solveExactCover({ primary: 8, rows }, { limit: 2 })).to.include({ count: 2, complete: false });
  });

  it('secondary columns may stay uncovered but are never covered twice', () => {
    // Two rows both cover primary 0; a third pair shares secondary column 2.
    const rows = [[0, 2], [1, 2], [0], [1]];
    // Covers of {0,1}: {r0,r3}, {r2,r1}, {r2,r3}; {r0,r1} collides on secondary 2.
    expect(solveExactCover({ primary: 2, secondary: 1, rows }).count).to.equal(3);
  });

  it('rejects rows naming a column outside the matrix', () => {
    expect(() => solveExactCover({ primary: 2, rows: [[0, 2]] })).to.throw(SpaceActError, /outside/);
  });
});
