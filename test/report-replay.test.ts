import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { EpisodeLog } from '../agents/episode-log.ts';
import { parseMode } from '../agents/modes.ts';
import { ReferenceAgent } from '../agents/reference.ts';
import { runInstances } from '../agents/runner.ts';
import type { Agent, AgentReply, EpisodeStart, Observation, PrivilegedChannel } from '../agents/types.ts';
import { SpaceActError } from '../core/errors.ts';
import { decodePng } from '../render/pixels.ts';
import { writeReport } from '../report/html.ts';
import { replayBar, replayFrames, writeReplay } from '../report/replay.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'bin', 'spaceact.mjs');
const ID = 'M2-L1-s100';

/**
 * Tries a move that collides first (on M2-L1-s100 lowering the rod 5 cm drives it into the floor
 * and walls, so it is rolled back), then plays the verified reference: an episode that is solved
 * with one rollback image in its log. (P6 no longer suits: its first refused move ends the
 * episode.)
 */
class RollbackFirstAgent implements Agent {
  readonly name = 'rollback-first';
  readonly settings = {};
  readonly needsImages = false;
  readonly privileged = true;
  private readonly reference = new ReferenceAgent();
  private turns = 0;
  start(ctx: EpisodeStart, privileged?: PrivilegedChannel): Promise<void> {
    return this.reference.start(ctx, privileged);
  }
  async act(obs: Observation): Promise<AgentReply> {
    if (this.turns++ === 0) return { rationale: 'A colliding move, to see the rollback.', note: '', actions: [{ tool: 'translate', args: { dx_m: 0, dy_m: -0.05, dz_m: 0 } }] };
    return this.reference.act(obs);
  }
}

/** Runs the command line; resolves with its exit code and output. */
function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** Dark text pixels in a region of a decoded picture (the bar's background is light). */
async function darkPixels(png: Buffer, top: number): Promise<number> {
  const img = await decodePng(png);
  let n = 0;
  for (let y = top; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const i = (y * img.width + x) * img.channels;
      if (img.data[i] < 90 && img.data[i + 1] < 90 && img.data[i + 2] < 140) n++;
    }
  }
  return n;
}

describe('spaceact replay: an animated episode from its log alone', function () {
  this.timeout(900_000);
  let tmp: string;
  let run: string;

  before(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'spaceact-replay-'));
    run = join(tmp, 'run');
    const summary = await runInstances({ instances: [ID], makeAgent: () => new RollbackFirstAgent(), mode: parseMode('default'), out: run });
    expect(summary.episodes[0].solved).to.equal(true);
    expect(summary.episodes[0].violations).to.equal(1);
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('has one frame per observation picture in the log (the rollback included) plus the final ones, in WebP and GIF', async () => {
    const { turns, end } = new EpisodeLog(run, ID).read();
    const observed = turns.flatMap((t) => t.images);
    expect(observed.filter((i) => i.kind === 'rollback'), 'the illegal move left a rollback image').to.have.length(1);
    const finals = end!.finalImages ?? [];
    expect(finals.length).to.be.greaterThan(0);
    const expected = observed.length + finals.length;
    expect(replayFrames(run, ID).frames.map((f) => f.file)).to.deep.equal([...observed, ...finals].map((i) => i.file));
    for (const ext of ['webp', 'gif']) {
      const out = join(tmp, `replay.${ext}`);
      const w = await writeReplay({ dir: run, instance: ID, out, secondsPerFrame: 0.5 });
      expect(w.frames).to.equal(expected);
      const meta = await sharp(out, { animated: true }).metadata();
      expect(meta.format).to.equal(ext);
      expect(meta.pages, `${ext} frames`).to.equal(expected);
      expect(meta.pageHeight).to.equal(w.height);
      expect(meta.delay).to.deep.equal(Array(expected).fill(500));
    }
    // The rollback frame, extracted as a picture (looked at while writing this test): the split
    // image on top, the bar under it with dark text in it.
    const rollbackIndex = observed.findIndex((i) => i.kind === 'rollback');
    const frame = await sharp(join(tmp, 'replay.webp'), { page: rollbackIndex }).png().toBuffer();
    writeFileSync(join(tmp, 'rollback-frame.png'), frame);
    // Pictures sit at the top of an area as tall as the tallest one; the bar is under that area.
    const heights = await Promise.all([...observed, ...finals].map(async (i) => (await sharp(join(run, 'episodes', ID, i.file)).metadata()).height!));
    expect(await darkPixels(frame, Math.max(...heights))).to.be.greaterThan(500);
  });

  it('report --replays writes each episode\'s replay under DIR/replays/ and shows it in the episode, linked full size', async () => {
    const plain = readFileSync(await writeReport(run, { out: join(tmp, 'plain.html') }), 'utf8');
    expect(plain).to.not.include('Animated replay');
    const page = readFileSync(await writeReport(run, { out: join(run, 'with-replays.html'), replays: true }), 'utf8');
    const file = join(run, 'replays', `${ID}.webp`);
    const meta = await sharp(file, { animated: true }).metadata();
    expect(meta.format).to.equal('webp');
    expect(meta.pages).to.equal(replayFrames(run, ID).frames.length);
    expect(page).to.include(`<a href="replays/${ID}.webp" target="_blank" rel="noopener"><img loading="lazy" decoding="async" src="replays/${ID}.webp"`);
    expect(page).to.include(`Animated replay</b> ${meta.pages} frames`);
    // Embedded: the replay travels inside the page as a data URI.
    const embedded = readFileSync(await writeReport(run, { out: join(tmp, 'embedded.html'), replays: true, embed: true }), 'utf8');
    expect(embedded).to.match(/src="data:image\/webp;base64,[A-Za-z0-9+/]{1000,}/);
  });

  it('draws captions from the log as text: markup and ampersands render as characters, not SVG', async () => {
    const hostile = 'Caption <script>alert("x")</script> & <tspan fill="red">more</tspan> \' " \u0001 &amp; ]]>';
    const plain = await replayBar({ title: 'Turn 1 of 1 · view', caption: 'Caption', calls: '' }, 800);
    const bar = await replayBar({ title: 'Turn 1 of 1 · view', caption: hostile, calls: 'Calls: move(from: <A>, to: &B) → ok' }, 800);
    const [a, b] = await Promise.all([sharp(plain).metadata(), sharp(bar).metadata()]);
    expect(b.width).to.equal(800);
    expect(b.height).to.equal(a.height);
    // More characters drawn, so more ink: the text did not vanish (a broken SVG would throw or draw nothing).
    expect(await darkPixels(bar, 0)).to.be.greaterThan((await darkPixels(plain, 0)) * 2);

    // The same caption written into a real log: the replay still has every frame.
    const copy = join(tmp, 'hostile');
    const log = new EpisodeLog(run, ID);
    const lines = readFileSync(log.file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    for (const l of lines) if (l.type === 'turn') for (const img of l.images) img.caption = hostile;
    cpSync(run, copy, { recursive: true });
    writeFileSync(new EpisodeLog(copy, ID).file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    const w = await writeReplay({ dir: copy, instance: ID, out: join(tmp, 'hostile.gif') });
    expect(w.frames).to.equal(replayFrames(run, ID).frames.length);
  });

  it('refuses a bad extension, a missing folder, an unlogged instance and an unwritable output in one line each, writing nothing', async () => {
    const thrown = async (fn: () => Promise<unknown>): Promise<SpaceActError> => {
      try {
        await fn();
      } catch (err) {
        expect(err).to.be.instanceOf(SpaceActError);
        return err as SpaceActError;
      }
      throw new Error('expected an error');
    };
    const mp4 = join(tmp, 'r.mp4');
    expect((await thrown(() => writeReplay({ dir: run, instance: ID, out: mp4 }))).message).to.match(/\.webp or \.gif .*not \.mp4/);
    expect(existsSync(mp4)).to.equal(false);
    expect((await thrown(() => writeReplay({ dir: join(tmp, 'nope'), instance: ID, out: join(tmp, 'a.gif') }))).message).to.match(/is not a folder/);
    const unknown = await thrown(() => writeReplay({ dir: run, instance: 'P6-L1-s100', out: join(tmp, 'a.gif') }));
    expect(unknown.message).to.match(/P6-L1-s100 was not logged in .*: it holds M2-L1-s100$/);
    expect((await thrown(() => writeReplay({ dir: run, instance: ID, out: join(tmp, 'no', 'such', 'a.gif') }))).message).to.match(/the folder .* does not exist/);
    expect((await thrown(() => writeReplay({ dir: run, instance: ID, out: join(tmp, 'a.gif'), secondsPerFrame: 0 }))).message).to.match(/--seconds-per-frame/);
    expect(existsSync(join(tmp, 'a.gif'))).to.equal(false);

    const bad = await cli(['replay', run, '--instance', ID, '--out', join(tmp, 'r.png')]);
    expect(bad.code).to.equal(2);
    expect(bad.stderr.trim().split('\n')).to.have.length(1);
    expect(bad.stderr).to.match(/^spaceact: --out .*r\.png": a replay is written as \.webp or \.gif/);
    const good = await cli(['replay', run, '--instance', ID, '--out', join(tmp, 'cli.gif'), '--seconds-per-frame', '2']);
    expect(good.stderr).to.equal('');
    expect(good.code).to.equal(0);
    expect(good.stdout).to.match(/^wrote .*cli\.gif \(gif, \d+ frames of \d+×\d+, 2 s each\)\n$/);
    expect((await sharp(join(tmp, 'cli.gif'), { animated: true }).metadata()).delay![0]).to.equal(2000);
  });
});
