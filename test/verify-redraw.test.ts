import { expect } from 'chai';
import { SpaceActError } from '../core/errors.ts';
import { Rng } from '../core/rng.ts';
import { familyAndInstanceFromId } from '../tasks/registry.ts';
import type { Instance } from '../tasks/types.ts';
import { generateFiltered, memoisedDraw, redrawRng } from '../solvers/redraw.ts';

/** A real instance with a drawn number in its scene: which attempt drew it, and the value. */
function drawer(seed: number, calls: number[]): (attempt: number) => Instance<Drawn> {
  const { instance } = familyAndInstanceFromId('P6-L1-s100');
  return (attempt) => {
    calls.push(attempt);
    const rng = redrawRng('X1', 'L1', seed, attempt);
    return { ...instance, scene: { value: rng.int(0, 99), attempt } };
  };
}

type Drawn = { value: number; attempt: number };
const small = { name: 'at-least-90', check: (i: Instance<Drawn>) => (i.scene.value >= 90 ? null : `value ${i.scene.value} is below 90`) };

describe('generateFiltered (deterministic re-draws)', () => {
  it('attempt 0 is the plain instance stream, so adopting re-draws keeps instances that already pass', () => {
    const a = redrawRng('P6', 'L3', 100, 0);
    const b = Rng.forInstance('P6', 'L3', 100);
    expect([a.nextUint32(), a.nextUint32()]).to.deep.equal([b.nextUint32(), b.nextUint32()]);
    const c = redrawRng('P6', 'L3', 100, 1);
    expect(c.nextUint32()).to.not.equal(Rng.forInstance('P6', 'L3', 100).nextUint32());
  });

  it('re-draws until every filter passes, in attempt order, and lands on the same instance every time', () => {
    const calls: number[] = [];
    const first = generateFiltered(drawer(7, calls), [small]);
    expect(first.scene.value).to.be.at.least(90);
    expect(calls).to.deep.equal([...Array(first.scene.attempt + 1).keys()]);
    const again = generateFiltered(drawer(7, []), [small]);
    expect(again).to.deep.equal(first);
    // A draw that already passes is taken at once.
    const none: number[] = [];
    expect(generateFiltered(drawer(7, none), []).scene.attempt).to.equal(0);
    expect(none).to.deep.equal([0]);
  });

  it('different seeds take different re-draw paths', () => {
    const values = [1, 2, 3, 4, 5].map((s) => generateFiltered(drawer(s, []), [small]).scene.value);
    expect(new Set(values).size).to.be.greaterThan(1);
  });

  it('gives up with an invalid-state error naming the filter when no draw passes', () => {
    const never = { name: 'never', check: () => 'always rejected' };
    try {
      generateFiltered(drawer(1, []), [never], { maxAttempts: 5 });
      expect.fail('no error');
    } catch (err) {
      expect(err).to.be.instanceOf(SpaceActError);
      expect((err as SpaceActError).code).to.equal('invalid-state');
      expect((err as Error).message).to.match(/5 attempts.*never: always rejected/);
    }
    expect(() => generateFiltered(drawer(1, []), [], { maxAttempts: 0 })).to.throw(SpaceActError);
  });
});

describe('memoisedDraw: a costly draw kept per (seed, tier, attempt)', () => {
  it('draws each key once, hands every caller its own copy, and draws afresh with memo: false', () => {
    const calls: string[] = [];
    const draw = memoisedDraw((seed, tier, attempt) => {
      calls.push(`${tier}/${seed}/${attempt}`);
      return { cells: [redrawRng('X1', tier, seed, attempt).int(0, 999)] };
    });
    const a = draw(3, 'L1');
    const b = draw(3, 'L1', 0);
    expect(b).to.deep.equal(a);
    expect(calls).to.deep.equal(['L1/3/0']);
    a.cells.push(-1);
    expect(draw(3, 'L1').cells).to.have.length(1);
    expect(draw(3, 'L1', 1)).to.not.deep.equal(undefined);
    expect(calls).to.deep.equal(['L1/3/0', 'L1/3/1']);
    expect(draw(3, 'L1', 0, { memo: false })).to.deep.equal(b);
    expect(calls).to.deep.equal(['L1/3/0', 'L1/3/1', 'L1/3/0']);
  });
});
