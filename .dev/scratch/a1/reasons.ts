import { redrawRng } from '../../../verify/redraw.ts';
import { partition, TIER_SPECS } from '../../../tasks/assembly/a1-occluded-packing/generator.ts';
import { certify, findPlan } from '../../../tasks/assembly/a1-occluded-packing/solver.ts';
const spec = TIER_SPECS.L5;
const hist: Record<string, number> = {};
const sizes: Record<string, number> = {};
for (let a = 0; a < 400; a++) {
  const rng = redrawRng('A1', 'L5', 100, a);
  const p = partition(rng, spec);
  if (!p) { hist.part = (hist.part ?? 0) + 1; continue; }
  const k = p.map(x=>x.length).sort().join('');
  const c = certify(p, spec.box);
  if (!c.unique) { hist['nu' + p.length] = (hist['nu'+p.length] ?? 0) + 1; continue; }
  sizes[k] = (sizes[k] ?? 0) + 1;
  const plan = findPlan(p, spec.box, c.fillingSubsets);
  if (!plan) { hist.noplan = (hist.noplan ?? 0) + 1; continue; }
  hist['depth' + plan.depth] = (hist['depth' + plan.depth] ?? 0) + 1;
}
console.log(hist, sizes);
