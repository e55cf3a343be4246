import { v1BlockCounting } from '../../../tasks/perception/v1-block-counting/family.ts';
import { V1_FILTERS } from '../../../tasks/perception/v1-block-counting/checks.ts';
import { redrawRng } from '../../../verify/redraw.ts';
const tiers = (process.argv[2] ?? 'L1,L3,L5,L7').split(',') as any[];
const n = Number(process.argv[3] ?? 20);
for (const tier of tiers) {
  const t0 = performance.now();
  const counts: number[] = [];
  const hidden: number[] = [];
  for (let seed = 0; seed < n; seed++) {
    const i = v1BlockCounting.generate(seed, tier);
    counts.push(i.scene.cubeCount);
    hidden.push(i.scene.cubeCount - i.scene.firstViewCount);
  }
  const dt = (performance.now() - t0) / n;
  const hist: Record<number, number> = {};
  for (const c of counts) hist[c] = (hist[c] ?? 0) + 1;
  console.log(tier, `ms/gen ${dt.toFixed(0)}`, 'counts', JSON.stringify(hist), 'hidden', hidden.join(','));
}
