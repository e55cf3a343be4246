import { writeFileSync } from 'node:fs';
import { a1OccludedPacking as f } from '../../../tasks/assembly/a1-occluded-packing/family.ts';
import { TaskEnv } from '../../../tasks/env.ts';
import { Renderer } from '../../../render/renderer.ts';
const inst = f.generate(100, 'L5');
const ref = f.reference(inst) as any;
const env = await TaskEnv.create(f as any, inst as any);
const r = new Renderer();
try {
  for (const c of ref.calls.slice(0, 2)) console.log(env.execute(c).status);
  writeFileSync('/tmp/a1-mid-first.png', await r.render(env.scene(), env.camera));
  writeFileSync('/tmp/a1-mid-high.png', await r.render(env.scene(), { azimuth: 20, elevation: 55, distance: 0.45, target: [0, 0.03, 0] }));
  const bad = env.execute(ref.calls[3]);
  console.log(bad.status, bad.message);
  if (env.lastRollback) {
    const rb = env.lastRollback;
    const png = await r.rollback(rb.violating, rb.restored, env.camera, { bodies: rb.violation.bodies, point: rb.violation.point }, { left: 'VIOLATION', right: 'rolled back' } as any);
    writeFileSync('/tmp/a1-rollback.png', png);
  }
  console.log(env.familyEnv.stateText());
  console.log(env.progress());
} finally { env.free(); await r.close(); }
