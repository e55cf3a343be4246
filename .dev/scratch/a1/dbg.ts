import { a1OccludedPacking as f } from '../../../tasks/assembly/a1-occluded-packing/family.ts';
import { TaskEnv } from '../../../tasks/env.ts';
const inst = f.generate(204, 'L5');
const ref = f.reference(inst) as any;
console.log(inst.reveal.plan);
const env = await TaskEnv.create(f as any, inst as any);
for (const c of ref.calls) {
  const r = env.execute(c);
  console.log(c.args.piece, r.status, r.message);
  for (const p of inst.scene.pieces) {
    const rec = (env.world.meta.placed as any)[p.name];
    if (rec) console.log('  ', p.name, env.world.bodyKind(p.name), env.world.getPose(p.name).p.map((v: number) => v.toFixed(5)).join(','), JSON.stringify(rec.cells));
  }
}
console.log(inst.scene.pieces.map((p) => p.name + ':' + JSON.stringify(p.cells)).join('\n'));
{
  const r = env.execute(ref.calls[3]);
  console.log(JSON.stringify(r.violation));
  const fam = (env as any).familyEnv;
}
