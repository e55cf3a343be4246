import { a1OccludedPacking as f } from '../../../tasks/assembly/a1-occluded-packing/family.ts';
for (const [tier, seed] of [['L7',107],['L5',100],['L5',104]] as const) {
  let t0 = Date.now();
  const inst = f.generate(seed, tier);
  const tg = Date.now() - t0; t0 = Date.now();
  f.reference(inst);
  console.log(tier, seed, 'gen', tg, 'ref', Date.now() - t0);
}
