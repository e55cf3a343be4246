import { a1OccludedPacking as f } from '../../../tasks/assembly/a1-occluded-packing/family.ts';
import { runReference } from '../../../verify/verify.ts';
const tiers = (process.argv[2] ?? 'L1,L3,L5,L7').split(',') as any[];
const n = Number(process.argv[3] ?? 20);
let bad = 0;
for (const tier of tiers) {
  for (let seed = 200; seed < 200 + n; seed++) {
    const inst = f.generate(seed, tier);
    const run = await runReference(f as any, inst as any);
    if (run.problem) { bad++; console.log(inst.id, run.problem); }
  }
  console.log(tier, 'done');
}
console.log('bad', bad);
