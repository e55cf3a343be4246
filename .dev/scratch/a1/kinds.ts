import { a1OccludedPacking as f } from '../../../tasks/assembly/a1-occluded-packing/family.ts';
import { TaskEnv } from '../../../tasks/env.ts';
const inst = f.generate(100, 'L3');
const env = await TaskEnv.create(f as any, inst as any);
const { layers } = inst.scene.box;
const tall = inst.scene.pieces.find((p) => p.cells.some((c) => c[1] === 1));
const flat = inst.scene.pieces.find((p) => p.cells.every((c) => c[1] === 0))!;
console.log(tall?.name, flat.name);
if (tall) { const r = env.execute({ tool: 'place', args: { piece: tall.name, cell: [0, 0, layers - 1] } }); console.log(r.status, r.violation?.kind, r.message); }
const r2 = env.execute({ tool: 'place', args: { piece: flat.name, cell: [0, 0, layers - 1] } }); console.log(r2.status, r2.violation?.kind, r2.message);
const ref = f.reference(inst) as any;
const rev = [...ref.calls].reverse();
for (const c of rev) { const r = env.execute(c); console.log(c.args.piece, r.status, r.violation?.kind, r.message); }
env.free();
