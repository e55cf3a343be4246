import RAPIER from '@dimforge/rapier3d-compat';
await RAPIER.init();
const w = new RAPIER.World({ x: 0, y: 0, z: 0 });
const rot = { x: 0, y: 0, z: 0, w: 1 };
const tri = [[-0.111,0.08,0.026],[-0.111,0.1,0.046],[-0.111,0.1,0.026]];
for (const k of [1, 2, 5, 10, 20, 100]) {
  const t = tri.map((v) => v.map((x) => x * k));
  const col = w.createCollider(RAPIER.ColliderDesc.triangle({x:t[0][0],y:t[0][1],z:t[0][2]},{x:t[1][0],y:t[1][1],z:t[1][2]},{x:t[2][0],y:t[2][1],z:t[2][2]}), w.createRigidBody(RAPIER.RigidBodyDesc.fixed()));
  const c = col.contactShape(new RAPIER.Cuboid(0.01 * k, 0.025 * k, 0.01 * k), { x: -0.125 * k, y: 0.115 * k, z: 0.06 * k }, rot, 0.02 * k);
  const d = col.castShape({x:0,y:0,z:0}, new RAPIER.Cuboid(0.01 * k, 0.025 * k, 0.01 * k), { x: -0.125 * k, y: 0.115 * k, z: 0.06 * k }, rot, {x: 0.02*k, y: 0, z: -0.02*k}, 0, 1, true);
  console.log('scale', k, 'contact/k', c ? (c.distance / k).toFixed(6) : null, 'real 0.005657', 'cast toi', d?.time_of_impact);
}
console.log(RAPIER.version());
