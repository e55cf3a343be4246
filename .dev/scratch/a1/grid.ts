import { readFileSync, writeFileSync } from 'node:fs';
import sharp from 'sharp';
const tiers = ['L1', 'L3', 'L5', 'L7'];
const tiles: sharp.OverlayOptions[] = [];
tiers.forEach((t, i) => {
  tiles.push({ input: readFileSync(`/tmp/a1-first-${t}.png`), left: i * 768, top: 0 });
  tiles.push({ input: readFileSync(`/tmp/a1-back-${t}.png`), left: i * 768, top: 768 });
});
const img = await sharp({ create: { width: 768 * 4, height: 768 * 2, channels: 3, background: '#fff' } }).composite(tiles).png().toBuffer();
writeFileSync('/tmp/a1-grid.png', await sharp(img).resize(1600).png().toBuffer());
