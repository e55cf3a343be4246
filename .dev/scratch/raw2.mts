import R from '@dimforge/rapier3d-compat';
await R.init();
function prismPts(outer: number, hh: number, n: number) { const pts: number[] = []; for (const y of [-hh, hh]) for (let k = 0; k < n; k++) { const a = (k / n) * 2 * Math.PI; pts.push(outer * Math.cos(a), y, outer * Math.sin(a)); } return new Float32Array(pts); }
for (const n of [4, 6, 8, 16]) for (const kind of ['hull', 'cyl', 'box']) {
  const w = new R.World({ x: 0, y: -9.81, z: 0 });
  w.timestep = 1/240;
  w.createCollider(R.ColliderDesc.cuboid(0.2, 0.01, 0.2).setTranslation(0, -0.01, 0));
  const b = w.createRigidBody(R.RigidBodyDesc.dynamic().setTranslation(0, 0.006, 0));
  const d = kind === 'hull' ? R.ColliderDesc.convexHull(prismPts(0.028, 0.006, n))! : kind === 'cyl' ? R.ColliderDesc.cylinder(0.006, 0.028) : R.ColliderDesc.cuboid(0.02, 0.006, 0.02);
  w.createCollider(d.setDensity(700).setFriction(0.6), b);
  for (let i = 0; i < 120; i++) w.step();
  const p = b.translation(); const r = b.rotation();
  console.log(n, kind, [p.x, p.y, p.z].map((x) => (x * 1000).toFixed(3)).join(','), r.x.toFixed(4), r.y.toFixed(4), r.z.toFixed(4));
}
