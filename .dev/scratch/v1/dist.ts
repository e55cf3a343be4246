import { v1BlockCounting } from '../../../tasks/perception/v1-block-counting/family.ts';
const tier = process.argv[2] as any; const n = Number(process.argv[3] ?? 100); const from = Number(process.argv[4] ?? 1000);
const hist: Record<number, number> = {};
for (let s = from; s < from + n; s++) { const c = v1BlockCounting.generate(s, tier).scene.cubeCount; hist[c] = (hist[c] ?? 0) + 1; }
const max = Math.max(...Object.values(hist));
console.log(tier, n, JSON.stringify(hist), 'mode share', (max / n).toFixed(3));
