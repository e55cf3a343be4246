import { a1OccludedPacking as f } from '../../../tasks/assembly/a1-occluded-packing/family.ts';
import { drawScene } from '../../../tasks/assembly/a1-occluded-packing/generator.ts';
for (const tier of (process.argv[2]?.split(',') ?? ['L1','L3','L5','L7']) as any) {
  for (const seed of [100,101,102,103,104,105,106,107]) {
    const t0 = Date.now();
    const d = drawScene(seed, tier);
    const r = f.reference(f.generate(seed, tier)) as any;
    console.log(tier, seed, 'attempt', d.attempt, 'ms', Date.now()-t0, 'pieces', d.scene.pieces.length, 'depth', d.plan.depth, 'pairs', d.plan.forcedPairs, 'calls', r.calls.length, r.calls.map((c:any)=>c.args.turns.length).join(''));
  }
}
