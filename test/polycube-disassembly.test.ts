/**
 * The polycube-piece kit's disassembly search (`tasks/kits/polycube-pieces/disassembly.ts`) on
 * hand-built puzzles whose level can be worked out by hand: a cube in a closed frame whose roof
 * covers only part of it (level 2: slide sideways, then out), a key stick that slides straight
 * out (level 1), a cube sealed in (no disassembly), the table under a clamped frame (a cube
 * that could only leave downwards stays), and the search with group moves (as BurrTools and
 * Cutler count them) agreeing where single pieces suffice.
 */
import { expect } from 'chai';
import type { Cell } from '../solvers/polycube.ts';
import { burrLevel, disassemble, disjointAt, searchPhase, SLIDE_DIRECTIONS } from '../tasks/kits/polycube-pieces/disassembly.ts';

/** Every cell of the box [lo, hi] (inclusive). */
function box(lo: Cell, hi: Cell): Cell[] {
  const out: Cell[] = [];
  for (let x = lo[0]; x <= hi[0]; x++) for (let y = lo[1]; y <= hi[1]; y++) for (let z = lo[2]; z <= hi[2]; z++) out.push([x, y, z]);
  return out;
}

/**
 * A frame around the 2 × 1 × 1 room x ∈ {1, 2}, y = 1, z = 0: floor, walls left and right,
 * front and back plates, and a roof over x ≤ 1 only — the room is open above x = 2.
 */
function frame(): Cell[] {
  const cells: Cell[] = [
    ...box([0, 0, -1], [3, 0, 1]), // floor
    ...box([0, 1, -1], [0, 2, 1]), // left wall
    ...box([3, 1, -1], [3, 2, 1]), // right wall
    ...box([1, 1, -1], [2, 2, -1]), // back plate
    ...box([1, 1, 1], [2, 2, 1]), // front plate
    [1, 2, 0], // roof over x = 1 only
  ];
  return cells.filter((c, i) => cells.findIndex((d) => d[0] === c[0] && d[1] === c[1] && d[2] === c[2]) === i);
}

describe('polycube-piece kit: disassembly search', () => {
  it('a cube under the roof must first slide right, then up: level 2, in both the free and the clamped model', () => {
    const pieces = [frame(), [[1, 1, 0] as Cell]];
    expect(disjointAt(pieces, [[0, 0, 0], [0, 0, 0]])).to.equal(true);
    expect(burrLevel({ pieces })!.level).to.equal(2);
    const dis = disassemble({ pieces, fixed: [0] })!;
    expect(dis.level).to.equal(2);
    expect(dis.phases).to.have.length(1);
    const [phase] = dis.phases;
    expect(phase.moves).to.deep.equal([{ pieces: [1], dir: 0, steps: 1 }]); // right by one
    expect(SLIDE_DIRECTIONS[phase.removal.dir]).to.deep.equal([0, 1, 0]); // then up and out
    expect(dis.exitOffsets[1]).to.deep.equal([1, 0, 0]);
  });

  it('with the roof closed over the whole room the cube is sealed in: no disassembly', () => {
    const sealed = [...frame(), [2, 2, 0] as Cell];
    expect(burrLevel({ pieces: [sealed, [[1, 1, 0]]] })).to.equal(null);
    expect(disassemble({ pieces: [sealed, [[1, 1, 0]]], fixed: [0] })).to.equal(null);
  });

  it('a key stick through a ring slides straight out: level 1, and the last two come apart too', () => {
    const ring = [...box([0, 0, 0], [2, 0, 0]), ...box([0, 2, 0], [2, 2, 0]), [0, 1, 0] as Cell, [2, 1, 0] as Cell];
    const key = box([1, 1, -2], [1, 1, 2]);
    const block = [[5, 5, 5] as Cell];
    const pieces = [ring, key, block];
    expect(burrLevel({ pieces })!.level).to.equal(1);
    const dis = disassemble({ pieces })!;
    expect(dis.level).to.equal(1);
    // Without a clamped piece the search stops at one piece left.
    expect(dis.phases).to.have.length(2);
  });

  it('a clamped frame on a table: a cube whose only way out is down stays in; lifted by the table it cannot go below it', () => {
    // A cup open at the bottom only, standing on the table (floor y = 0): the cube inside can go nowhere.
    const cup = [...box([0, 0, -1], [2, 2, -1]), ...box([0, 0, 1], [2, 2, 1]), ...box([0, 0, 0], [0, 2, 0]), ...box([2, 0, 0], [2, 2, 0]), [1, 2, 0] as Cell];
    const cube = [[1, 1, 0] as Cell];
    expect(disassemble({ pieces: [cup, cube], fixed: [0], floorY: 0 })).to.equal(null);
    // Without the table it drops out of the bottom.
    const free = disassemble({ pieces: [cup, cube], fixed: [0] })!;
    expect(free.level).to.equal(1);
    expect(SLIDE_DIRECTIONS[free.phases[0].removal.dir]).to.deep.equal([0, -1, 0]);
  });

  it('searches group moves too (the BurrTools / Cutler convention) without changing a level that single pieces already reach', () => {
    // Two cubes side by side in a frame open above x = 3 only; the right one must leave first,
    // but in the free model the left cube and the frame can also move as one group.
    const cells = [
      ...box([0, 0, -1], [4, 0, 1]),
      ...box([0, 1, -1], [0, 2, 1]),
      ...box([4, 1, -1], [4, 2, 1]),
      ...box([1, 1, -1], [3, 2, -1]),
      ...box([1, 1, 1], [3, 2, 1]),
      [1, 2, 0] as Cell,
      [2, 2, 0] as Cell,
    ];
    const wall = cells.filter((c, i) => cells.findIndex((d) => d[0] === c[0] && d[1] === c[1] && d[2] === c[2]) === i);
    const pieces = [wall, [[1, 1, 0] as Cell], [[2, 1, 0] as Cell]];
    // Single pieces: the right cube slides right one, then up: level 2.
    expect(burrLevel({ pieces })!.level).to.equal(2);
    // With groups nothing is quicker here (the room is closed but for the opening).
    expect(burrLevel({ pieces, groups: true })!.level).to.equal(2);
    const phase = searchPhase({ pieces, groups: true }, [0, 1, 2], [[0, 0, 0], [0, 0, 0], [0, 0, 0]])!;
    expect(phase.removal.pieces).to.deep.equal([2]);
  });
});
