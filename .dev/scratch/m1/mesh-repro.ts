// Repro: World.sweep reports a false collision for a box lowered through a snug hole in a static triangle mesh.
import { World } from '../../../sim/world.ts';
import { plateGeometry } from '../../../tasks/manipulation/m1-chiral-peg/plate-geometry.ts';
const c = 0.0008; // clearance per side
const hole: [number, number][] = [[-0.01 - c, -0.01 - c], [0.01 + c, -0.01 - c], [0.01 + c, 0.01 + c], [-0.01 - c, 0.01 + c]];
const geo = plateGeometry({ x0: -0.1, x1: 0.1, z0: -0.1, z1: 0.1 }, [hole], 0.08, 0.1);
for (const kind of ['mesh', 'hull pieces'] as const) {
  const w = await World.create();
  w.addBody({ name: 'plate', kind: 'static', pose: { p: [0, 0, 0], q: [0, 0, 0, 1] }, shapes: kind === 'mesh' ? [geo.mesh] : geo.pieces });
  w.addBody({ name: 'peg', kind: 'kinematic', pose: { p: [0, 0.15, 0], q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half: [0.01, 0.025, 0.01] }] });
  for (const yEnd of [0.11, 0.1, 0.09, 0.08, 0.07]) {
    w.setPose('peg', { p: [0, 0.15, 0], q: [0, 0, 0, 1] });
    const r = w.sweep('peg', { p: [0, yEnd, 0], q: [0, 0, 0, 1] });
    console.log(kind, 'lower box bottom to', (yEnd - 0.025).toFixed(3), 'hit', r.hit, r.toi.toFixed(3), r.violation?.message ?? '');
  }
  w.free();
}
