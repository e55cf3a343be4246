import { World } from '/work/main/sim/world.ts';
import { instanceFromId } from '/work/main/tasks/registry.ts';
const { family, instance } = instanceFromId('P6-L1-s100');
for (const lu of [1, 0.05]) {
const w = await World.create({ lengthUnit: lu });
await family.build(instance as any, w);
const before = Object.fromEntries(w.bodyNames().filter(n=>n.startsWith('disk')).map(n=>[n, w.getPose(n)]));
for (let k=0;k<5;k++){ w.advance(0.1); 
for (const n of Object.keys(before)) { const p=w.getPose(n); console.log(lu, k, n, p.p.map(x=>x.toFixed(5)).join(','), p.q.map(x=>x.toFixed(4)).join(',')); } }
w.free();
}
