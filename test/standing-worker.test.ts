/**
 * `StandingWorker` (agents/process-pool.ts): the one process a queue worker keeps for its
 * verification pieces. Real child processes through the tsx loader, as the CLI forks them.
 */
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { StandingWorker } from '../agents/process-pool.ts';
import { SpaceActError } from '../core/errors.ts';

const ENTRY = fileURLToPath(new URL('./support/pid-worker.ts', import.meta.url));

async function rejection(p: Promise<unknown>): Promise<SpaceActError> {
  try {
    await p;
  } catch (err) {
    expect(err).to.be.instanceOf(SpaceActError);
    return err as SpaceActError;
  }
  throw new Error('expected a rejection');
}

/** Resolves once process `pid` is gone (a killed process is reaped a moment after the signal). */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

describe('a standing worker process', function () {
  this.timeout(120_000);

  it('runs job after job in one process, survives a failed job, and starts anew after an abort', async () => {
    const w = new StandingWorker<string, number, { pid: number; init: string }>({ entry: ENTRY, init: 'settings-A' });
    try {
      const first = await w.run(1);
      const second = await w.run(2);
      expect(first.init).to.equal('settings-A');
      expect(second.pid).to.equal(first.pid);
      // A failed job rejects with the worker's message; the process goes on serving.
      const failed = await rejection(w.run(-1));
      expect(failed.message).to.contain('job -1 fails on purpose');
      expect((await w.run(3)).pid).to.equal(first.pid);
      // An abort kills the process at once; the next job gets a new one.
      const abort = new AbortController();
      const hung = w.run(-2, { signal: abort.signal, describe: 'the hung job' });
      setTimeout(() => abort.abort(), 200);
      expect((await rejection(hung)).message).to.contain('stopped');
      expect(await gone(first.pid)).to.equal(true);
      const fresh = await w.run(4);
      expect(fresh.pid).to.not.equal(first.pid);
      expect(fresh.init).to.equal('settings-A');
    } finally {
      await w.close();
    }
  });

  it('says which job a process that died was running, and close() ends the process', async () => {
    const w = new StandingWorker<string, number, { pid: number; init: string }>({ entry: ENTRY, init: 'B' });
    const { pid } = await w.run(1);
    const hung = w.run(-2, { describe: 'piece 7' });
    setTimeout(() => process.kill(pid, 'SIGKILL'), 200);
    const err = await rejection(hung);
    expect(err.code).to.equal('io');
    expect(err.message).to.contain('piece 7');
    const again = await w.run(5);
    expect(again.pid).to.not.equal(pid);
    // A process that dies while idle is replaced by the next job, which does not hang.
    process.kill(again.pid, 'SIGKILL');
    expect(await gone(again.pid)).to.equal(true);
    const third = await w.run(6);
    expect(third.pid).to.not.equal(again.pid);
    await w.close();
    // Gone once close() resolves.
    expect(await gone(third.pid)).to.equal(true);
  });
});
