import { V1_FILTERS } from '../../../tasks/perception/v1-block-counting/checks.ts';
import { v1BlockCounting } from '../../../tasks/perception/v1-block-counting/family.ts';
const f = V1_FILTERS.find((x) => x.name === process.argv[3])!;
const orig = f.check;
f.check = (i: any) => { const r = orig(i); if (r) console.log(r); return r; };
v1BlockCounting.generate(Number(process.argv[4] ?? 1000), process.argv[2] as any);
