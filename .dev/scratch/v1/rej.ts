import { V1_FILTERS } from '../../../tasks/perception/v1-block-counting/checks.ts';
import { v1BlockCounting } from '../../../tasks/perception/v1-block-counting/family.ts';
import { generateFiltered } from '../../../verify/redraw.ts';
// access draw through generateFiltered wrapper: replicate by monkeypatching filters
const tiers = (process.argv[2] ?? 'L1').split(',') as any[];
const n = Number(process.argv[3] ?? 10);
for (const tier of tiers) {
  const fails: Record<string, number> = {};
  const times: Record<string, number> = {};
  let draws = 0;
  const wrapped = V1_FILTERS.map((f) => ({ name: f.name, check(i: any) { const t = performance.now(); const r = f.check(i); times[f.name] = (times[f.name] ?? 0) + performance.now() - t; if (r) fails[f.name] = (fails[f.name] ?? 0) + 1; return r; } }));
  (V1_FILTERS as any).splice(0, 4, ...wrapped);
  const origs = [...wrapped];
  let accepted: number[] = [];
  const t0 = performance.now();
  for (let seed = 1000; seed < 1000 + n; seed++) { const i = v1BlockCounting.generate(seed, tier); accepted.push(i.scene.cubeCount); }
  console.log(tier, 'fails', JSON.stringify(fails), 'times', JSON.stringify(Object.fromEntries(Object.entries(times).map(([k, v]) => [k, Math.round(v)]))), 'total', Math.round(performance.now() - t0), accepted.join(','));
  (V1_FILTERS as any).splice(0, 4, ...origs);
}
