import { V1_FILTERS, sightOf, viewsOf } from '../../../tasks/perception/v1-block-counting/checks.ts';
import { v1BlockCounting } from '../../../tasks/perception/v1-block-counting/family.ts';
import { isClear } from '../../../tasks/perception/v1-block-counting/visibility.ts';
const f = V1_FILTERS.find((x) => x.name === 'every-block-clear')!;
const orig = f.check;
let shown = 0;
f.check = (i: any) => {
  const r = orig(i);
  if (r && shown++ < 3) {
    console.log(r, 'wall', JSON.stringify(i.scene.walls.map((w: any) => w.pose.p)));
    const views = viewsOf(i);
    for (const b of i.scene.blocks) {
      if (views.some((v) => isClear(sightOf(i, v, b.name)))) continue;
      const best = views.map((v) => ({ v, s: sightOf(i, v, b.name) })).sort((a, c) => c.s.visible - a.s.visible).slice(0, 3);
      console.log(' ', b.name, b.kind, 'cells', JSON.stringify(b.cells), 'base', b.base, best.map((x) => `az${x.v.azimuth}/el${x.v.elevation}: ${x.s.visible}/${x.s.facing} faces ${x.s.faces.map((f: any) => `${f.axis}${f.sign > 0 ? '+' : '-'}:${f.visible}/${(f.seenPixels / f.headOnPixels).toFixed(2)}`).join(',')}`).join(' ; '));
    }
    // neighbours
    const grid: Record<string, string[]> = {};
    for (const b of i.scene.blocks) for (const c of b.cells) (grid[c.join(',')] ??= []).push(`${b.kind[0]}${b.base}`);
    console.log('  columns', JSON.stringify(grid));
  }
  return r;
};
v1BlockCounting.generate(Number(process.argv[3] ?? 1001), (process.argv[2] ?? 'L7') as any);
