import sharp from 'sharp';
const [out, ...ims] = process.argv.slice(2);
const bufs = await Promise.all(ims.map((f) => sharp(f).resize(420, 420).toBuffer()));
await sharp({ create: { width: 420 * bufs.length, height: 420, channels: 3, background: '#fff' } }).composite(bufs.map((b, i) => ({ input: b, left: 420 * i, top: 0 }))).png().toFile(out);
