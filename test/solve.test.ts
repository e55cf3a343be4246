import { expect } from 'chai';
import { SpaceActError } from '../core/errors.ts';
import { shapeMismatch, solve } from '../tasks/solve.ts';

/**
 * Solving a layout of one's own (issue 33): the classic 4 × 5 sliding-block puzzle ("L'Âne
 * rouge", Klotski) through P1's solver, and hand-written scenes with something wrong refused in
 * one line before any search.
 */
const CLASSIC = {
  cols: 4,
  rows: 5,
  cell: 0.05,
  blocks: [
    { id: 'A', col: 1, row: 0, w: 2, h: 2 },
    { id: 'B', col: 0, row: 0, w: 1, h: 2 },
    { id: 'C', col: 3, row: 0, w: 1, h: 2 },
    { id: 'D', col: 0, row: 2, w: 1, h: 2 },
    { id: 'E', col: 3, row: 2, w: 1, h: 2 },
    { id: 'F', col: 1, row: 2, w: 2, h: 1 },
    { id: 'G', col: 1, row: 3, w: 1, h: 1 },
    { id: 'H', col: 2, row: 3, w: 1, h: 1 },
    { id: 'I', col: 0, row: 4, w: 1, h: 1 },
    { id: 'J', col: 3, row: 4, w: 1, h: 1 },
  ],
  target: 'A',
  goal: { col: 1, row: 3 },
  exitSide: 'south',
  yawDeg: 0,
};

async function refusal(p: Promise<unknown>): Promise<SpaceActError> {
  try {
    await p;
  } catch (err) {
    expect(err).to.be.instanceOf(SpaceActError);
    return err as SpaceActError;
  }
  throw new Error('expected a refusal');
}

describe('solve(familyId, scene): a layout of one\'s own', function () {
  this.timeout(600_000);

  it('solves the classic 4 × 5 puzzle in 90 straight slides (81 moves when a block\'s turn around a corner counts as one), proven shortest', async () => {
    const sol = await solve('P1', CLASSIC);
    expect(sol.calls.filter((c) => c.tool !== 'camera')).to.have.length(90);
    expect(sol.optimal).to.equal(true);
  });

  it('refuses a scene with overlapping blocks, naming them, before any search', async () => {
    const bad = structuredClone(CLASSIC);
    bad.blocks[6] = { id: 'G', col: 1, row: 2, w: 1, h: 1 };
    const err = await refusal(solve('P1', bad));
    expect(err.code).to.equal('invalid-instance');
    expect(err.message).to.equal('not a valid P1 scene: blocks F and G overlap at column 1, row 2');
  });

  it('refuses a scene of the wrong shape in one line: a missing field, a wrong kind, an unknown field, a target that is not a block', async () => {
    const { goal: _goal, ...noGoal } = CLASSIC;
    expect((await refusal(solve('P1', noGoal))).message).to.equal('not a P1 scene: scene.goal is missing');
    expect((await refusal(solve('P1', { ...CLASSIC, cols: '4' }))).message).to.equal('not a P1 scene: scene.cols should be a number, not a string');
    expect((await refusal(solve('P1', { ...CLASSIC, colour: 'red' }))).message).to.equal("not a P1 scene: scene.colour is not a field of this family's scenes");
    expect((await refusal(solve('P1', { ...CLASSIC, target: 'Z' }))).message).to.equal('not a valid P1 scene: the target "Z" is not one of the blocks');
    for (const m of ['not a P1 scene', 'not a valid P1 scene']) expect(m).to.not.include('\n');
  });

  it('compares shapes item by item and refuses non-finite numbers', () => {
    expect(shapeMismatch({ a: [{ x: 1 }] }, { a: [{ x: 2 }, { x: 'no' }] })).to.equal('scene.a[1].x should be a number, not a string');
    expect(shapeMismatch({ a: 1 }, { a: Number.NaN })).to.equal('scene.a should be a finite number');
    expect(shapeMismatch({ a: 1 }, { a: 2 })).to.equal(null);
  });
});
