import { expect } from 'chai';
import { familyAndInstanceFromId } from '../tasks/registry.ts';
import type { ReferenceSolution, TaskFamily } from '../tasks/types.ts';
import { minimalityProbe } from '../verify/claims.ts';
import { verifyInstance } from '../verify/verify.ts';

// Seven moves, one shortest plan (P6 L1 draws 4–7 moves).
const ID = 'P6-L1-s103';

/** The reference with a move and its undoing put in front: it still solves, at its last action. */
async function padded(family: TaskFamily, instance: ReturnType<typeof familyAndInstanceFromId>['instance']): Promise<ReferenceSolution> {
  const ref = await family.reference(instance);
  const first = ref.calls[0];
  const back = { tool: first.tool, args: { from: first.args.to, to: first.args.from } };
  return { ...ref, calls: [first, back, ...ref.calls], optimal: true, unique: true };
}

describe('verify: claims are checked, not copied (optimal, unique, shortest solutions)', () => {
  it('the true reference: claimed and checked optimal and unique, one shortest solution in --json fields', async () => {
    const { family, instance } = familyAndInstanceFromId(ID);
    const r = await verifyInstance(family, instance, { randomSeeds: 0 });
    expect(r.failures ?? [], (r.failures ?? []).join('\n')).to.deep.equal([]);
    expect(r.shortestSolutions).to.equal(1);
    expect(r.shortestLength).to.equal(7);
    expect(r.claims!.optimal).to.include({ claimed: true, checked: true });
    expect(r.claims!.unique).to.include({ claimed: true, checked: true });
    expect(r.claims!.minimal).to.equal(true);
  });

  it('a padded reference that claims optimal fails by the family search and by the minimality probe', async () => {
    const { family, instance } = familyAndInstanceFromId(ID);
    const solution = await padded(family, instance);
    const r = await verifyInstance(family, instance, { randomSeeds: 0, reference: () => solution });
    expect(r.verified).to.equal(false);
    expect(r.optimal, 'the claim is reported as claimed').to.equal(true);
    expect(r.claims!.optimal).to.include({ claimed: true, checked: false });
    expect(r.claims!.minimal).to.equal(false);
    expect(r.claims!.shorter).to.match(/^calls 1–2 \(move, move\) dropped: solved after 7 of the script's 9 actions$/);
    expect(r.failures!.join('\n')).to.match(/claims optimal, but it is not/);
  });

  it('a hand-built family with no search of its own: the minimality probe alone refutes a padded "optimal" reference', async () => {
    const { family, instance } = familyAndInstanceFromId(ID);
    const { shortestSolutions: _search, ...rest } = family;
    const noSearch: TaskFamily = { ...rest };
    const solution = await padded(family, instance);
    const r = await verifyInstance(noSearch, instance, { randomSeeds: 0, reference: () => solution });
    expect(r.verified).to.equal(false);
    expect(r.shortestSolutions).to.equal(null);
    expect(r.claims!.optimal).to.include({ claimed: true, checked: false });
    expect(r.failures!.join('\n')).to.match(/claims optimal, but it is not \(minimality probe: calls 1–2/);
    // The probe on its own (a fresh world) finds the same shorter script.
    const alone = await minimalityProbe(family, instance, solution.calls);
    expect(alone.minimal).to.equal(false);
    expect(alone.shorter).to.equal(r.claims!.shorter);
  });

  it('a claim of uniqueness where the search counts several shortest solutions fails', async () => {
    // P2 L7 seed 100: 55 shortest solutions (its reference makes no uniqueness claim).
    const { family, instance } = familyAndInstanceFromId('P2-L7-s100');
    const ref = await family.reference(instance);
    const r = await verifyInstance(family, instance, { randomSeeds: 0, reference: () => ({ ...ref, unique: true }) });
    expect(r.shortestSolutions).to.be.greaterThan(1);
    expect(r.claims!.unique).to.include({ claimed: true, checked: false });
    expect(r.failures!.join('\n')).to.match(/claims a unique solution, but it is not \(the family's search: \d+ shortest solutions\)/);
  });
});
