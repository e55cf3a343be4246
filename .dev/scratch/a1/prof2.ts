import { redrawRng } from '../../../verify/redraw.ts';
import { partition, TIER_SPECS } from '../../../tasks/assembly/a1-occluded-packing/generator.ts';
import { certify, findPlan } from '../../../tasks/assembly/a1-occluded-packing/solver.ts';
const spec = TIER_SPECS.L7;
let tp = 0, tc = 0, n = 0;
for (let a = 0; a < 100; a++) {
  const rng = redrawRng('A1', 'L7', 107, a);
  let t = performance.now();
  const p = partition(rng, spec);
  tp += performance.now() - t;
  if (!p) continue;
  t = performance.now();
  const c = certify(p, spec.box);
  if (c.unique) findPlan(p, spec.box, c.fillingSubsets);
  tc += performance.now() - t; n++;
}
console.log({ tp, tc, n });
