// Plays the M1 reference for seeds 0..n-1 of every tier through the episode loop; prints failures.
import { runReference } from '../../../verify/verify.ts';
import { m1ChiralPeg } from '../../../tasks/manipulation/m1-chiral-peg/family.ts';
const n = Number(process.argv[2] ?? 50);
const counts: Record<string, number> = {};
for (const tier of ['L1', 'L3', 'L5', 'L7'] as const) {
  let bad = 0;
  for (let seed = 0; seed < n; seed++) {
    const run = await runReference(m1ChiralPeg, m1ChiralPeg.generate(seed, tier));
    counts[`${tier}:${run.referenceActions} actions`] = (counts[`${tier}:${run.referenceActions} actions`] ?? 0) + 1;
    if (run.problem) { bad++; console.log(`${tier} s${seed}: ${run.problem}`); }
  }
  console.log(tier, 'failures', bad, 'of', n);
}
console.log(counts);
