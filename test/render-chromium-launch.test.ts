import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveChromium } from '../render/browser-path.ts';
import type { CameraSpec } from '../render/camera-spec.ts';
import { browserEnvironment, LAUNCH_ATTEMPTS } from '../render/chromium.ts';
import { Renderer } from '../render/renderer.ts';
import { SpaceActError } from '../core/errors.ts';
import type { SceneDescription } from '../sim/types.ts';

const SCENE: SceneDescription = {
  bodies: [{ name: 'a', shapes: [{ type: 'box', half: [0.1, 0.1, 0.1] }], pose: { p: [0, 0.1, 0], q: [0, 0, 0, 1] }, color: '#c0392b', opacity: 1, visible: true }],
  rulers: [],
  ground: { y: 0 },
};
const CAMERA: CameraSpec = { azimuth: 30, elevation: 30, distance: 1.4, target: [0, 0.1, 0] };
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Environment variables of a process, from /proc. */
function environOf(pid: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0')) {
    const at = entry.indexOf('=');
    if (at > 0) out[entry.slice(0, at)] = entry.slice(at + 1);
  }
  return out;
}

/** The process and all its descendants, from /proc. */
function processTree(root: number): number[] {
  const parent = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'latin1');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) for (const [pid, ppid] of parent) if (ppid === tree[i]) tree.push(pid);
  return tree;
}

describe('Chromium launch: retried like a relaunch, started with a minimal environment', function () {
  this.timeout(180000);
  let tmp: string;

  before(() => {
    tmp = mkdtempSync(join(tmpdir(), 'spaceact-launch-'));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  /** A launcher that dies (exit 1, before Chromium starts) the first `failures` times, then runs the real Chromium. */
  function flakyLauncher(failures: number): string {
    const count = join(tmp, `count-${failures}`);
    const file = join(tmp, `chromium-fails-${failures}.sh`);
    writeFileSync(
      file,
      `#!/bin/sh\nn=$(cat '${count}' 2>/dev/null || echo 0)\necho $((n + 1)) > '${count}'\nif [ "$n" -lt ${failures} ]; then exit 1; fi\nexec '${resolveChromium()}' "$@"\n`,
      { mode: 0o755 },
    );
    return file;
  }

  it('a Chromium that dies while launching is launched again, and the picture is drawn', async () => {
    const renderer = new Renderer({ width: 64, height: 64, executablePath: flakyLauncher(LAUNCH_ATTEMPTS - 1) });
    try {
      const png = await renderer.render(SCENE, CAMERA);
      expect(png.subarray(0, 8).equals(PNG)).to.equal(true);
      expect(renderer.chromium.counters()).to.deep.include({ launches: 1, launchFailures: LAUNCH_ATTEMPTS - 1 });
    } finally {
      await renderer.close();
    }
  });

  it('one that dies at every launch fails with one clear error after the attempts, and nothing is left running', async () => {
    const renderer = new Renderer({ width: 64, height: 64, executablePath: flakyLauncher(1000) });
    try {
      const err = await renderer.render(SCENE, CAMERA).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(SpaceActError);
      expect((err as Error).message).to.match(new RegExp(`could not start Chromium .* in ${LAUNCH_ATTEMPTS} attempts; last: `));
      expect(renderer.chromium.counters()).to.deep.include({ launches: 0, launchFailures: LAUNCH_ATTEMPTS });
      expect(renderer.chromium.pid).to.equal(undefined);
    } finally {
      await renderer.close();
    }
  });

  it('the browser runs as one process after drawing, so its summed resident memory is its real use (issue 23)', async () => {
    const renderer = new Renderer({ width: 64, height: 64 });
    try {
      const png = await renderer.render(SCENE, CAMERA);
      expect(png.subarray(0, 8).equals(PNG)).to.equal(true);
      // Helper processes (GPU, renderer, network, storage, zygotes) each map the same binary;
      // five of them counted its pages five times.
      expect(processTree(renderer.chromium.pid!)).to.deep.equal([renderer.chromium.pid]);
    } finally {
      await renderer.close();
    }
  });

  it('Chromium never sees the API key or any other variable outside its allow-list', async () => {
    const saved = { ...process.env };
    process.env.OPENAI_API_KEY = 'sk-Env5-fake-Yt6Ur8Ie1Wo3';
    process.env.SPACEACT_SECRET_TOKEN = 'secret-Qa9Zs8Xd7';
    const renderer = new Renderer({ width: 64, height: 64 });
    try {
      expect(browserEnvironment()).to.not.have.any.keys('OPENAI_API_KEY', 'SPACEACT_SECRET_TOKEN');
      expect(browserEnvironment()).to.include({ PATH: process.env.PATH });
      await renderer.render(SCENE, CAMERA);
      // One process since issue 23 (--single-process); any helper it still starts is checked too.
      const pids = processTree(renderer.chromium.pid!);
      expect(pids.length).to.be.at.least(1);
      for (const pid of pids) {
        let env: Record<string, string>;
        try {
          env = environOf(pid);
        } catch {
          continue; // a helper that ended meanwhile
        }
        expect(env, `process ${pid}`).to.not.have.any.keys('OPENAI_API_KEY', 'SPACEACT_SECRET_TOKEN');
        expect(Object.values(env).join('\n')).to.not.include('Yt6Ur8Ie1Wo3');
      }
    } finally {
      await renderer.close();
      for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
      Object.assign(process.env, saved);
    }
  });
});
