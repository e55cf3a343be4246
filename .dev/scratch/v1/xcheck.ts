import { Renderer } from '../../../render/renderer.ts';
import { decodePng } from '../../../render/pixels.ts';
import { TaskEnv } from '../../../tasks/env.ts';
import { instanceFromId } from '../../../tasks/registry.ts';
import { sightOf, viewsOf } from '../../../tasks/perception/v1-block-counting/checks.ts';
import type { SceneDescription } from '../../../sim/types.ts';
const SIZE = Number(process.argv[3] ?? 384);
const r = new Renderer({ width: SIZE, height: SIZE });
const { family, instance } = instanceFromId(process.argv[2] ?? 'V1-L3-s100');
const env = await TaskEnv.create(family, instance);
const bodies = env.world.describe();
const cams = [instance.camera.initial, viewsOf(instance as any)[14]];
function redCount(p: { data: Uint8Array | Buffer; width: number; height: number; channels: number }): number {
  let n = 0;
  for (let i = 0; i < p.width * p.height; i++) {
    const R = p.data[i * p.channels], G = p.data[i * p.channels + 1], B = p.data[i * p.channels + 2];
    if (R > 40 && R > 2 * G + 20 && R > 2 * B + 20) n++;
  }
  return n;
}
for (const cam of cams) {
  console.log('camera', JSON.stringify(cam));
  for (const b of instance.scene.blocks as any[]) {
    const alone: SceneDescription = { bodies: bodies.filter((x) => x.name === b.name).map((x) => ({ ...x, color: '#ff0000' })), rulers: [], background: '#000000' };
    const all: SceneDescription = { bodies: bodies.map((x) => ({ ...x, color: x.name === b.name ? '#ff0000' : '#000000' })), rulers: [], background: '#000000' };
    const pa = redCount(await decodePng(await r.render(alone, cam)));
    const pv = redCount(await decodePng(await r.render(all, cam)));
    const s = sightOf(instance as any, cam, b.name);
    const f = SIZE / 2 / Math.tan((20 * Math.PI) / 180);
    console.log(b.name, b.kind.padEnd(5), 'px', String(pv).padStart(5), '/', String(pa).padStart(5), ' est', (s.seenPixels * (SIZE / 768) ** 2).toFixed(0).padStart(5), ' samples', s.visible, '/', s.facing);
  }
}
env.free();
await r.close();
