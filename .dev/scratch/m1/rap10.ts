import RAPIER from '@dimforge/rapier3d-compat';
await RAPIER.init();
// Compares contactShape at metre scale against the same query scaled ×100 (which matched analytic values).
let seed = 12345;
const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
function quat() { const u1 = rnd(), u2 = rnd(), u3 = rnd(); return { x: Math.sqrt(1-u1)*Math.sin(2*Math.PI*u2), y: Math.sqrt(1-u1)*Math.cos(2*Math.PI*u2), z: Math.sqrt(u1)*Math.sin(2*Math.PI*u3), w: Math.sqrt(u1)*Math.cos(2*Math.PI*u3) }; }
const w = new RAPIER.World({ x: 0, y: 0, z: 0 });
for (const kind of ['cuboid', 'hull-prism', 'triangle']) {
  let bad = 0, missed = 0, n = 0, agreeBad = 0;
  for (let i = 0; i < 400; i++) {
    const mk = (k: number) => {
      if (kind === 'cuboid') return RAPIER.ColliderDesc.cuboid(0.03 * k, 0.01 * k, 0.02 * k);
      if (kind === 'triangle') return RAPIER.ColliderDesc.triangle({ x: 0, y: 0, z: 0 }, { x: 0.03 * k, y: 0, z: 0.01 * k }, { x: 0, y: 0.02 * k, z: 0.02 * k });
      const pts = [[-0.02,-0.01,-0.03],[0.02,-0.01,-0.03],[0.02,-0.01,0.0],[-0.02,-0.01,0.04],[-0.02,0.01,-0.03],[0.02,0.01,-0.03],[0.02,0.01,0.0],[-0.02,0.01,0.04]];
      return RAPIER.ColliderDesc.convexHull(new Float32Array(pts.flat().map((v) => v * k)))!;
    };
    const qa = quat(), qb = quat();
    const pb = { x: (rnd() - 0.5) * 0.09, y: (rnd() - 0.5) * 0.09, z: (rnd() - 0.5) * 0.09 };
    const c1 = w.createCollider(mk(1).setRotation(qa).setTranslation(0.1, 0.1, 0.1), w.createRigidBody(RAPIER.RigidBodyDesc.fixed()));
    const c100 = w.createCollider(mk(100).setRotation(qa).setTranslation(10, 10, 10), w.createRigidBody(RAPIER.RigidBodyDesc.fixed()));
    const c10 = w.createCollider(mk(10).setRotation(qa).setTranslation(1, 1, 1), w.createRigidBody(RAPIER.RigidBodyDesc.fixed()));
    const r10 = c10.contactShape(new RAPIER.Cuboid(0.1, 0.25, 0.1), { x: 1 + pb.x * 10, y: 1 + pb.y * 10, z: 1 + pb.z * 10 }, qb, 1);
    w.removeCollider(c10, false);
    const r1 = c1.contactShape(new RAPIER.Cuboid(0.01, 0.025, 0.01), { x: 0.1 + pb.x, y: 0.1 + pb.y, z: 0.1 + pb.z }, qb, 0.1);
    const r100 = c100.contactShape(new RAPIER.Cuboid(1, 2.5, 1), { x: 10 + pb.x * 100, y: 10 + pb.y * 100, z: 10 + pb.z * 100 }, qb, 10);
    w.removeCollider(c1, false); w.removeCollider(c100, false);
    if (r10 && r100 && Math.abs(r10.distance / 10 - r100.distance / 100) > 1e-5) agreeBad++;
    if (!r1 || !r100) continue;
    n++;
    const d1 = r1.distance, d100 = r100.distance / 100;
    if (Math.abs(d1 - d100) > 1e-4) { bad++; if (d1 > d100 + 1e-4 && d100 < 0.002) missed++; }
  }
  console.log(kind, 'compared', n, 'differ >0.1 mm', bad, 'of which metre scale says farther than truth (near contact)', missed, 'x10 vs x100 disagree', agreeBad);
}
