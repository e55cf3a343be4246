import { Renderer } from '../../../render/renderer.ts';
import { composeRow } from '../../../render/compose.ts';
import { TaskEnv } from '../../../tasks/env.ts';
import { instanceFromId } from '../../../tasks/registry.ts';
import { writeFileSync } from 'node:fs';
import sharp from 'sharp';
const r = new Renderer({ width: 512, height: 512 });
for (const id of process.argv.slice(2)) {
  const { family, instance } = instanceFromId(id);
  const env = await TaskEnv.create(family, instance);
  const ref = await family.reference(instance);
  const imgs: Buffer[] = [await r.render(env.scene(), env.camera)];
  const labels = ['first'];
  for (const c of ref.calls) {
    if (c.tool === 'answer') break;
    const res = env.execute(c);
    imgs.push(await r.render(env.scene(), env.camera));
    labels.push(`az ${env.camera.azimuth} el ${env.camera.elevation}`);
  }
  const row1 = await composeRow(imgs.slice(0, 3), { labels: labels.slice(0, 3) });
  const row2 = imgs.length > 3 ? await composeRow(imgs.slice(3), { labels: labels.slice(3) }) : null;
  const out = `/tmp/v1-views-${id}.png`;
  if (row2) {
    const m1 = await sharp(row1).metadata(); const m2 = await sharp(row2).metadata();
    const w = Math.max(m1.width!, m2.width!);
    const img = await sharp({ create: { width: w, height: m1.height! + m2.height!, channels: 3, background: '#ffffff' } }).composite([{ input: row1, top: 0, left: 0 }, { input: row2, top: m1.height!, left: 0 }]).png().toBuffer();
    writeFileSync(out, img);
  } else writeFileSync(out, row1);
  console.log(out, instance.scene.cubeCount, labels.join(' | '));
  env.free();
}
await r.close();
