import R from '@dimforge/rapier3d-compat';
await R.init();
function prismPts(outer: number, hh: number, n: number) { const pts: number[] = []; for (const y of [-hh, hh]) for (let k = 0; k < n; k++) { const a = (k / n) * 2 * Math.PI; pts.push(outer * Math.cos(a), y, outer * Math.sin(a)); } return new Float32Array(pts); }
for (const [dt, freq, scale] of [[1/60, 30, 1], [1/240, 30, 1], [1/240, 120, 1], [1/240, 30, 10], [1/60, 30, 10]]) {
  const w = new R.World({ x: 0, y: -9.81, z: 0 });
  w.timestep = dt; (w.integrationParameters as any).contact_natural_frequency = freq;
  w.createCollider(R.ColliderDesc.cuboid(0.2*scale, 0.01*scale, 0.2*scale).setTranslation(0, -0.01*scale, 0));
  const bodies = [] as any[];
  for (let l = 0; l < 3; l++) {
    const b = w.createRigidBody(R.RigidBodyDesc.dynamic().setTranslation(0, 0.012 * (l + 0.5)*scale, 0));
    w.createCollider(R.ColliderDesc.convexHull(prismPts((0.028 - 0.006 * l)*scale, 0.006*scale, 16))!.setDensity(700).setFriction(0.6), b);
    bodies.push(b);
  }
  const p0 = bodies.map((b) => ({ ...b.translation() }));
  for (let i = 0; i < 0.5 / dt; i++) w.step();
  console.log(dt, freq, scale, bodies.map((b, i) => { const p = b.translation(); const r = b.rotation(); return `${(Math.hypot(p.x - p0[i].x, p.y - p0[i].y, p.z - p0[i].z)*1000/scale).toFixed(2)}mm ${(2*Math.acos(Math.min(1,Math.abs(r.w)))*180/Math.PI).toFixed(2)}°`; }).join(' | '));
}
