import { redrawRng } from '../../../verify/redraw.ts';
import { partition, TIER_SPECS } from '../../../tasks/assembly/a1-occluded-packing/generator.ts';
import { certify, findPlan } from '../../../tasks/assembly/a1-occluded-packing/solver.ts';
import * as G from '../../../tasks/assembly/a1-occluded-packing/generator.ts';
const spec = TIER_SPECS.L5;
let ok = 0, fail = 0, t = 0;
for (let a = 0; a < 300; a++) {
  const rng = redrawRng('A1', 'L5', 7, a);
  const p = partition(rng, spec);
  if (!p) continue;
  const c = certify(p, spec.box);
  if (!c.unique) continue;
  for (let k = 0; k < 6; k++) {
    const sp = (G as any).drawSparesForTest(rng, p, spec);
    const t0 = performance.now();
    const u = certify([...p, ...sp], spec.box);
    t += performance.now() - t0;
    if (u.unique) ok++; else fail++;
    console.log(sp.map((x: any) => x.length).join(''), u.unique, u.fillingSubsets.length, u.classes);
  }
}
console.log({ ok, fail, t });
