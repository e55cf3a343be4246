import { World } from '/work/main/sim/world.ts';
import type { ShapeSpec, Vec3 } from '/work/main/sim/types.ts';
function annulus(inner: number, outer: number, hh: number, sectors: number): ShapeSpec[] {
  const shapes: ShapeSpec[] = [];
  for (let k = 0; k < sectors; k++) {
    const angles = [k, k + 0.5, k + 1].map((a) => (a / sectors) * 2 * Math.PI);
    const pts: Vec3[] = [];
    for (const y of [-hh, hh]) {
      for (const a of angles) pts.push([outer * Math.cos(a), y, outer * Math.sin(a)]);
      for (const a of [angles[0], angles[2]]) pts.push([inner * Math.cos(a), y, inner * Math.sin(a)]);
    }
    shapes.push({ type: 'hull', points: pts });
  }
  return shapes;
}
async function trial(label: string, shapeOf: (i: number) => ShapeSpec[], opts: any) {
  const w = await World.create(opts);
  w.addBody({ name: 'board', kind: 'static', pose: { p: [0, -0.01, 0], q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half: [0.2, 0.01, 0.07] }], material: { density: 700, friction: 0.6, restitution: 0 } });
  for (let l = 0; l < 3; l++) w.addBody({ name: `d${l}`, kind: 'dynamic', pose: { p: [0, 0.012 * (l + 0.5), 0], q: [0, 0, 0, 1] }, shapes: shapeOf(2 - l), material: { density: 700, friction: 0.6, restitution: 0 } });
  const v = w.settle({ seconds: 0.5 });
  console.log(label, v ? v.message : 'stable');
  w.free();
}
const r = (i: number) => 0.016 + 0.006 * i;
await trial('cyl', (i) => [{ type: 'cylinder', radius: r(i), halfHeight: 0.006 }], {});
await trial('ann16', (i) => annulus(0.008, r(i), 0.006, 16), {});
await trial('ann8', (i) => annulus(0.008, r(i), 0.006, 8), {});
await trial('ann16 it8', (i) => annulus(0.008, r(i), 0.006, 16), { solverIterations: 8 });
await trial('ann16 lu.02', (i) => annulus(0.008, r(i), 0.006, 16), { lengthUnit: 0.02 });
await trial('ann16 f30', (i) => annulus(0.008, r(i), 0.006, 16), { contactNaturalFrequency: 30 });
await trial('ann12 ', (i) => annulus(0.008, r(i), 0.006, 12), {});
function prism(outer: number, hh: number, n: number): ShapeSpec[] {
  const pts: Vec3[] = [];
  for (const y of [-hh, hh]) for (let k = 0; k < n; k++) { const a = (k / n) * 2 * Math.PI; pts.push([outer * Math.cos(a), y, outer * Math.sin(a)]); }
  return [{ type: 'hull', points: pts }];
}
await trial('box', (i) => [{ type: 'box', half: [r(i), 0.006, r(i)] }], {});
await trial('prism16', (i) => prism(r(i), 0.006, 16), {});
await trial('ann16 dt480', (i) => annulus(0.008, r(i), 0.006, 16), { timestep: 1/480 });
await trial('ann16 f60', (i) => annulus(0.008, r(i), 0.006, 16), { contactNaturalFrequency: 60 });
await trial('box f30', (i) => [{ type: 'box', half: [r(i), 0.006, r(i)] }], {contactNaturalFrequency: 30});
function boxRing(inner: number, outer: number, hh: number, n: number): ShapeSpec[] {
  const shapes: ShapeSpec[] = [];
  const mid = (inner + outer) / 2, hw = (outer - inner) / 2, hl = outer * Math.tan(Math.PI / n);
  for (let k = 0; k < n; k++) { const a = (k / n) * 2 * Math.PI; shapes.push({ type: 'box', half: [hw, hh, hl], pose: { p: [mid * Math.cos(a), 0, mid * Math.sin(a)], q: [0, Math.sin(-a / 2), 0, Math.cos(-a / 2)] } }); }
  return shapes;
}
await trial('ring8', (i) => boxRing(0.008, r(i), 0.006, 8), {});
await trial('ring12', (i) => boxRing(0.008, r(i), 0.006, 12), {});
await trial('ring16', (i) => boxRing(0.008, r(i), 0.006, 16), {});
