import { drawInstance } from '../../../tasks/perception/v1-block-counting/family.ts';
import { V1_FILTERS } from '../../../tasks/perception/v1-block-counting/checks.ts';
const tier = process.argv[2] as any; const n = Number(process.argv[3] ?? 300);
const tot: Record<number, number> = {}, ok: Record<number, number> = {};
for (let a = 0; a < n; a++) {
  const i = drawInstance(5000 + a, tier, 0);
  const c = i.scene.cubeCount;
  tot[c] = (tot[c] ?? 0) + 1;
  if (V1_FILTERS.every((f) => f.check(i) === null)) ok[c] = (ok[c] ?? 0) + 1;
}
console.log(tier, Object.keys(tot).map((c) => `${c}:${((ok[+c] ?? 0) / tot[+c]).toFixed(2)}`).join(' '));
