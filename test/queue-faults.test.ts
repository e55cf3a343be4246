/**
 * Faults around a queue run (issue 37): Redis refusing commands (maxmemory with noeviction),
 * a worker asked to stop while Redis is gone, a read-only --out and a full disk. Real
 * redis-server, real processes, real mounts (tmpfs; the tests need root, as the project's
 * test machine runs them).
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { RedisServer } from './support/redis-server.ts';
import { kill, spaceact, summaryOf, trajectory, until, type Proc } from './support/queue-procs.ts';

const IDS = ['P6-L1-s100', 'V3-L3-s100'];

describe('queue runs under faults (issue 37): Redis refusing writes, Redis gone, read-only and full disks', function () {
  this.timeout(900_000);
  let tmp: string;
  let serial: string;
  const procs: Proc[] = [];
  const mounts: string[] = [];
  const track = (p: Proc): Proc => {
    procs.push(p);
    return p;
  };
  const runArgs = (out: string, ids = IDS): string[] => ['run', '--agent', 'reference', '--instance', ids.join(','), '--render', 'never', '--no-report', '--out', out];
  /** A tmpfs of `size` at a fresh folder (unmounted after the tests). */
  const mount = (name: string, size: string): string => {
    const dir = join(tmp, name);
    mkdirSync(dir);
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
    mounts.push(dir);
    return dir;
  };

  before(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'spaceact-queue-faults-'));
    serial = join(tmp, 'serial');
    const r = await spaceact(runArgs(serial)).done;
    expect(r.code, r.out).to.equal(0);
  });
  afterEach(async () => {
    await Promise.all(procs.splice(0).map(kill));
  });
  after(() => {
    for (const m of mounts) {
      try {
        execFileSync('umount', [m]);
      } catch {
        // Already unmounted.
      }
    }
    rmSync(tmp, { recursive: true, force: true });
  });

  it('Redis at maxmemory (noeviction): the coordinator waits it out with one line, no stack; the run then equals a serial one', async () => {
    const redis = await RedisServer.start({ own: true });
    const admin = new Redis(redis.url);
    try {
      const w = track(spaceact(['worker', '--queue', redis.url, '--lock-seconds', '8']));
      await until(() => /waiting for episodes/.test(w.out()), [w], 'waiting for the worker');
      await admin.config('SET', 'maxmemory-policy', 'noeviction');
      await admin.config('SET', 'maxmemory', '1');
      const out = join(tmp, 'oom');
      const c = track(spaceact([...runArgs(out), '--queue', redis.url]));
      await until(() => /Redis refused .* \(OOM /.test(c.out()), [c], 'waiting for the coordinator to meet the refusal');
      await admin.config('SET', 'maxmemory', '0');
      const r = await c.done;
      expect(r.code, r.out).to.equal(0);
      expect(r.out.match(/Redis refused/g), r.out).to.have.length(1);
      expect(r.out).to.match(/Redis takes commands again/);
      expect(r.out, 'no stack trace').not.to.match(/^\s+at /m);
      expect(r.out).not.to.match(/EXECABORT.*\n\s+at /);
      expect(summaryOf(out).episodes).to.deep.equal(summaryOf(serial).episodes);
      for (const id of IDS) expect(trajectory(out, id), id).to.deep.equal(trajectory(serial, id));
      // The worker said at most a line or two about it, not one per lock renewal.
      expect((w.out().match(/OOM|could not renew lock/g) ?? []).length, w.out()).to.be.below(4);
    } finally {
      admin.disconnect();
      await Promise.all(procs.splice(0).map(kill));
      await redis.stop();
    }
  });

  it('a worker whose Redis has gone away stops on SIGTERM (and on SIGINT) by itself, saying so', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const redis = await RedisServer.start({ own: true });
      try {
        const w = track(spaceact(['worker', '--queue', redis.url]));
        await until(() => /waiting for episodes/.test(w.out()), [w], 'waiting for the worker');
        await redis.stop();
        await until(() => /lost Redis at/.test(w.out()), [w], 'waiting for the worker to notice');
        w.child.kill(signal);
        // No SIGKILL: the process must end on its own (the test's timeout is the only bound).
        const r = await w.done;
        expect(r.signal, r.out).to.equal(null);
        expect(r.code, r.out).to.equal(0);
        expect(r.out).to.include(`${signal}: the episode in flight stops`);
      } finally {
        await redis.stop();
      }
    }
  });

  it('a read-only mount: a fresh --out says read-only (EROFS) in one line and writes nothing', async () => {
    const ro = mount('ro', '1m');
    execFileSync('mount', ['-o', 'remount,ro', ro]);
    for (const out of [join(ro, 'fresh'), join(ro, 'fresh', 'deeper')]) {
      const r = await spaceact(runArgs(out)).done;
      expect(r.code, r.out).to.equal(2);
      expect(r.out.trim().split('\n'), r.out).to.have.length(1);
      expect(r.out).to.match(/^spaceact: cannot create the folder .*fresh.*: the file system is read-only \(EROFS\)$/m);
      expect(existsSync(join(ro, 'fresh'))).to.equal(false);
    }
  });

  it('a full disk: the error line names the file that could not be written (ENOSPC)', async () => {
    const full = mount('full', '256k');
    // Fill it, leaving room for the folders and the lock but not for the episode logs.
    let n = 0;
    try {
      for (;;) writeFileSync(join(full, `filler-${n++}`), Buffer.alloc(16 * 1024));
    } catch (err) {
      expect((err as NodeJS.ErrnoException).code).to.equal('ENOSPC');
    }
    rmSync(join(full, 'filler-0'));
    const out = join(full, 'run');
    const r = await spaceact(runArgs(out)).done;
    expect(r.code, r.out).to.equal(2);
    expect(r.out, 'no stack trace').not.to.match(/^\s+at /m);
    expect(r.out).to.match(new RegExp(`^spaceact: cannot (write|open|create the folder|rename) ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/\\S+: no space left on the device \\(ENOSPC\\)$`, 'm'));
  });
});
