import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { renderCommand } from '../cli/commands/render.ts';
import { decodePng } from '../render/pixels.ts';
import { SpaceActError } from '../core/errors.ts';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');
const example = join(root, 'fixtures', 'scenes', 'example.json');

async function rejection(p: Promise<unknown>): Promise<SpaceActError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof SpaceActError) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

describe('spaceact render (CLI)', function () {
  this.timeout(60000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'spaceact-render-cli-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('renders the example scene file to a PNG of the asked size, through the real command line', async () => {
    const out = join(dir, 'sub', 'top.png');
    const { stdout } = await run(process.execPath, [
      join(root, 'bin', 'spaceact.mjs'), 'render', '--scene', example, '--out', out,
      '--view', 'top', '--ortho', '--width', '96', '--height', '80', '--mode', 'mask',
    ]);
    expect(stdout).to.match(/wrote .*top\.png \(96×80, mask\)/);
    const img = await decodePng(readFileSync(out));
    expect([img.width, img.height]).to.deep.equal([96, 80]);
    const values = new Set(img.data);
    expect([...values].sort((a, b) => a - b)).to.deep.equal([0, 255]);
  });

  it('takes a bare scene file too, fits a camera when there is none, and applies flags', async () => {
    const bare = join(dir, 'bare.json');
    writeFileSync(
      bare,
      JSON.stringify({ bodies: [{ name: 'a', shapes: [{ type: 'ball', radius: 0.1 }], pose: { p: [1, 2, 3], q: [0, 0, 0, 1] }, color: 'teal' }], rulers: [] }),
    );
    const out = join(dir, 'bare.png');
    const r = await renderCommand({ scene: bare, out, width: '64', height: '64', azimuth: '10', target: '1,2,3', mode: 'mask' });
    expect(r.out).to.equal(out);
    const img = await decodePng(readFileSync(out));
    // the ball fills a good part of the fitted view and sits at its centre
    let n = 0;
    let sx = 0;
    for (let i = 0; i < 64 * 64; i++) {
      if (img.data[i * img.channels] > 127) {
        n++;
        sx += i % 64;
      }
    }
    expect(n).to.be.greaterThan(400);
    expect(sx / n).to.be.closeTo(31.5, 1);
  });

  it('explains broken input and writes nothing', async () => {
    const out = join(dir, 'never.png');
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"scene": {"bodies": [');
    expect((await rejection(renderCommand({ scene: broken, out }))).message).to.match(/not valid JSON/);
    const noPose = join(dir, 'nopose.json');
    writeFileSync(noPose, JSON.stringify({ scene: { bodies: [{ name: 'a', shapes: [{ type: 'ball', radius: 1 }] }], rulers: [] } }));
    expect((await rejection(renderCommand({ scene: noPose, out }))).message).to.match(/nopose\.json: scene\.bodies\[0\]\.pose/);
    const badCamera = join(dir, 'badcam.json');
    writeFileSync(badCamera, JSON.stringify({ scene: { bodies: [], rulers: [] }, camera: { azimuth: 0, elevation: 0, distance: -1, target: [0, 0, 0] } }));
    expect((await rejection(renderCommand({ scene: badCamera, out }))).message).to.match(/camera\.distance/);
    expect((await rejection(renderCommand({ scene: join(dir, 'missing.json'), out }))).code).to.equal('io');
    expect((await rejection(renderCommand({ scene: example, out, target: '1,2' }))).message).to.match(/--target/);
    expect((await rejection(renderCommand({ scene: example, out, view: 'sideways' }))).message).to.match(/--view/);
    expect((await rejection(renderCommand({ scene: example, out, mode: 'xray' }))).message).to.match(/--mode/);
    expect((await rejection(renderCommand({ scene: example, out, width: 'wide' }))).message).to.match(/--width/);
    expect((await rejection(renderCommand({ scene: example, instance: 'P6-L1-s1', out }))).message).to.match(/exactly one/);
    expect((await rejection(renderCommand({ scene: example }))).message).to.match(/--out/);
    expect(existsSync(out)).to.equal(false);
  });

  it('--instance goes through the task layer and reports unknown instances as SpaceActError', async () => {
    const err = await rejection(renderCommand({ instance: 'Z9-L1-s1', out: join(dir, 'never.png') }));
    expect(['unknown-family', 'unknown-instance']).to.include(err.code);
  });

  it('show prints many instances in one process: a JSON list for a list of ids, and refuses --png for more than one', async () => {
    const { stdout } = await run(process.execPath, [join(root, 'bin', 'spaceact.mjs'), 'show', '--instance', 'P6-L3-s100,P1-L1-s100', '--json']);
    const list = JSON.parse(stdout) as Array<{ id: string; rules: string }>;
    expect(list.map((i) => i.id)).to.deep.equal(['P6-L3-s100', 'P1-L1-s100']);
    const err = await run(process.execPath, [join(root, 'bin', 'spaceact.mjs'), 'show', '--family', 'P6', '--png', join(dir, 'x.png')]).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(err?.code).to.equal(2);
    expect(err?.stderr).to.include('--png and --calls take one instance');
    expect(existsSync(join(dir, 'x.png'))).to.equal(false);
  });
});
