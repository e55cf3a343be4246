import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { RedisServer } from './support/redis-server.ts';
import { checkVerifyQueueJob, checkVerifyQueueResult, checkoutDigest, VERIFY_QUEUE_NAME } from '../verify/queue.ts';
import { verifyAll, type VerifyAllOptions, type VerifyAllResult } from '../verify/verify-all.ts';
import { SMALL_VERIFICATION } from './support/verify-selection.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'bin', 'spaceact.mjs');

interface Proc {
  child: ChildProcess;
  out: () => string;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>;
}

function spaceact(args: string[]): Proc {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, out })));
  return { child, out: () => out, done };
}

function kill(p: Proc | undefined): Promise<unknown> {
  if (!p || p.child.exitCode !== null || p.child.signalCode !== null) return Promise.resolve();
  p.child.kill('SIGKILL');
  return p.done;
}

function until(test: () => boolean, what: string, procs: Proc[] = []): Promise<void> {
  return new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      if (test()) {
        clearInterval(poll);
        resolve();
      }
    }, 50);
    for (const p of procs) void p.done.then((r) => (clearInterval(poll), reject(new Error(`${what}: a worker ended first (${r.signal ?? r.code}):\n${r.out.slice(-2000)}`))));
  });
}

/** The records without what depends on the machine's speed. */
function records(r: VerifyAllResult): unknown {
  return JSON.parse(JSON.stringify(r, (k, v: unknown) => (/^seconds$|Seconds$/.test(k) ? undefined : v)));
}

const SELECTION = SMALL_VERIFICATION;

describe('verify --queue: pieces of a verification on queue workers (issue 35)', function () {
  this.timeout(900_000);
  let redis: RedisServer;
  const workers: Proc[] = [];

  before(async () => {
    redis = await RedisServer.start();
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map(kill));
  });
  after(async () => {
    await redis?.stop();
  });

  it('two workers, one killed mid-job, give the records of a local run, in the same order', async () => {
    const local = await verifyAll(SELECTION);
    const a = spaceact(['worker', '--queue', redis.url, '--lock-seconds', '3']);
    const b = spaceact(['worker', '--queue', redis.url, '--lock-seconds', '3']);
    workers.push(a, b);
    await until(() => /waiting for episodes and verification jobs/.test(a.out()) && /waiting for episodes and verification jobs/.test(b.out()), 'workers ready', [a, b]);
    const notices: string[] = [];
    const queued = verifyAll({ ...SELECTION, queue: redis.url, onNotice: (l) => notices.push(l) });
    // Killed in the middle of its first piece: the piece goes to the other worker once the lock expires.
    await until(() => /: checking/.test(a.out()), 'worker a takes a piece', [a]);
    const taken = /^\S+ \S+ (.+?) \(verification \w+\): checking$/m.exec(a.out())![1];
    await kill(a);
    const remote = await queued;
    expect(b.out()).to.include(`${taken} (verification`);
    expect(records(remote)).to.deep.equal(records(local));
    expect(remote.instances.map((r) => r.instance)).to.deep.equal(SELECTION.instances);
    expect(remote.battery.map((r) => r.tier)).to.deep.equal(['L1', 'L3', 'L5', 'L7']);
    expect(notices.filter((l) => !/Redis/.test(l))).to.deep.equal([]);
    // Nothing of the verification is left in Redis.
    const conn = new Redis(redis.url);
    try {
      expect(await conn.keys('spaceact:verify:*')).to.deep.equal([]);
      expect(await conn.zcard(`bull:${VERIFY_QUEUE_NAME}:completed`)).to.equal(0);
    } finally {
      conn.disconnect();
    }
  });

  it("a tier drawn from another's worlds (P2's L7 from L5) travels in that tier's piece and gives a local run's records", async () => {
    const selection: VerifyAllOptions = { instances: [], textSeeds: 1, batterySeeds: 1, batteryTraining: 1, batterySkipAdaptive: true, batteryFamilies: ['P2'], viewRule: false };
    const local = await verifyAll(selection);
    const w = spaceact(['worker', '--queue', redis.url, '--lock-seconds', '3']);
    workers.push(w);
    await until(() => /waiting for episodes and verification jobs/.test(w.out()), 'worker ready', [w]);
    const remote = await verifyAll({ ...selection, queue: redis.url });
    expect(w.out()).to.include('the P2-L5/L7 battery (verification');
    expect(records(remote)).to.deep.equal(records(local));
    expect(remote.battery.map((r) => r.tier)).to.deep.equal(['L1', 'L3', 'L5', 'L7']);
    expect(remote.textLeaks.map((r) => r.tier)).to.deep.equal(['L1', 'L3', 'L5', 'L7']);
  });

  it('a worker gives up a job it must not run (out-of-limit settings, an unknown family) and goes on working', async () => {
    const w = spaceact(['worker', '--queue', redis.url, '--lock-seconds', '3']);
    workers.push(w);
    await until(() => /waiting for episodes and verification jobs/.test(w.out()), 'worker ready', [w]);
    const conn = new Redis(redis.url, { maxRetriesPerRequest: null });
    const queue = new Queue(VERIFY_QUEUE_NAME, { connection: conn });
    try {
      const base = { verify: 'vhostile', index: 0, checkout: checkoutDigest(), settings: {}, job: { kind: 'battery', family: 'B1', tier: 'L1' } };
      await queue.add('battery', { ...base, settings: { batterySeeds: 1_000_000_000 } }, { jobId: 'vhostile.0' });
      await queue.add('battery', { ...base, index: 1, job: { kind: 'battery', family: 'Z9', tier: 'L1' } }, { jobId: 'vhostile.1' });
      await queue.add('battery', { ...base, index: 2, settings: { randomSeeds: 1, extra: '/etc/passwd' } }, { jobId: 'vhostile.2' });
      await until(() => (w.out().match(/given up/g) ?? []).length >= 3, 'three jobs given up', [w]);
      expect(w.out()).to.match(/vhostile\.0: not a verification job: \/settings\/batterySeeds must be <= 100000; given up/);
      expect(w.out()).to.match(/vhostile\.1: not a verification job: no family Z9 in this checkout; given up/);
      expect(w.out()).to.match(/vhostile\.2: not a verification job: \/settings must NOT have additional properties 'extra'; given up/);
      const states = await Promise.all(['vhostile.0', 'vhostile.1', 'vhostile.2'].map((id) => queue.getJobState(id)));
      expect(states).to.deep.equal(['failed', 'failed', 'failed']);
      expect(w.child.exitCode).to.equal(null);
    } finally {
      await queue.obliterate({ force: true }).catch(() => {});
      await queue.close();
      conn.disconnect();
    }
  });

  it('a job is checked before a worker runs it, and a result before the coordinator uses it', () => {
    const ok = { verify: 'v1', index: 3, checkout: 'a'.repeat(64), settings: { batterySeeds: 10 }, job: { kind: 'instances', ids: ['P6-L3-s100'] } };
    expect(checkVerifyQueueJob(ok)).to.deep.equal(ok);
    expect(() => checkVerifyQueueJob({ ...ok, job: { kind: 'instances', ids: ['P6-L9-s100'] } })).to.throw(/not a verification job: .*L9/);
    expect(() => checkVerifyQueueJob({ ...ok, job: { kind: 'battery', family: 'P6', tier: 'L9' } })).to.throw('not a verification job: P6 has no tier L9');
    expect(() => checkVerifyQueueJob({ ...ok, verify: '../../x' })).to.throw(/not a verification job: \/verify must match pattern/);
    const job = { kind: 'instances' as const, ids: ['P6-L3-s100', 'P6-L5-s100'] };
    const verdict = (instance: string): object => ({ instance, verified: true });
    expect(() => checkVerifyQueueResult(job, { kind: 'instances', results: [verdict('P6-L3-s100'), verdict('P6-L7-s100')], cpuSeconds: [1, 1] })).to.throw("a worker's result does not fit its job: verdict 2 is not P6-L5-s100's");
    expect(() => checkVerifyQueueResult(job, { kind: 'battery', report: {} })).to.throw('not the result of an instances job');
    expect(() => checkVerifyQueueResult({ kind: 'battery', family: 'P6', tier: 'L3' }, { kind: 'battery', report: { family: 'P6', tier: 'L5', passed: true }, cpuSeconds: [1] })).to.throw('not the P6-L3 battery record');
    expect(checkVerifyQueueResult(job, { kind: 'instances', results: [verdict('P6-L3-s100'), verdict('P6-L5-s100')], cpuSeconds: [1, 2] })).to.have.property('kind', 'instances');
    // A battery piece that also runs its tier's text-leak check and view sample.
    const tierJob = { kind: 'battery' as const, family: 'P6', tier: 'L3' as const, withText: true };
    expect(checkVerifyQueueJob({ ...ok, job: tierJob })).to.deep.equal({ ...ok, job: tierJob });
    expect(() => checkVerifyQueueJob({ ...ok, job: { kind: 'text', family: 'P6', tier: 'L3', withText: true } })).to.throw('withText belongs to a battery piece');
    const battery = { family: 'P6', tier: 'L3', passed: true };
    const text = { report: { family: 'P6', tier: 'L3', passed: true }, views: { family: 'P6', tier: 'L3', passed: true, failures: [] } };
    expect(checkVerifyQueueResult(tierJob, { kind: 'battery', report: battery, text, cpuSeconds: [1, 2] })).to.have.property('kind', 'battery');
    expect(() => checkVerifyQueueResult(tierJob, { kind: 'battery', report: battery, cpuSeconds: [1, 2] })).to.throw('no P6-L3 text records');
    expect(() => checkVerifyQueueResult(tierJob, { kind: 'battery', report: battery, text: { ...text, views: { ...text.views, tier: 'L5' } }, cpuSeconds: [1, 2] })).to.throw('not the P6-L3 view sample');
    expect(() => checkVerifyQueueResult(tierJob, { kind: 'battery', report: battery, text, cpuSeconds: [1] })).to.throw('no CPU seconds for the text records and the battery');
    expect(() => checkVerifyQueueResult({ kind: 'battery', family: 'P6', tier: 'L3' }, { kind: 'battery', report: battery, text, cpuSeconds: [1] })).to.throw('text records from a battery job that was not asked for them');
  });

  it('a battery piece playing a later tier after the first (drawn from its worlds) is checked tier by tier', () => {
    const ok = { verify: 'v1', index: 3, checkout: 'a'.repeat(64), settings: { batterySeeds: 10 }, job: { kind: 'battery', family: 'P2', tier: 'L5', withText: true, then: ['L7'] } };
    expect(checkVerifyQueueJob(ok)).to.deep.equal(ok);
    expect(() => checkVerifyQueueJob({ ...ok, job: { ...ok.job, then: ['L9'] } })).to.throw(/not a verification job: .*then\/0 must match pattern|P2 has no tier L9/);
    expect(() => checkVerifyQueueJob({ ...ok, job: { ...ok.job, then: ['L5'] } })).to.throw('a battery piece plays each tier once (L5, L5)');
    expect(() => checkVerifyQueueJob({ ...ok, job: { kind: 'text', family: 'P2', tier: 'L5', then: ['L7'] } })).to.throw('then belongs to a battery piece');
    const job = { kind: 'battery' as const, family: 'P2', tier: 'L5' as const, withText: true, then: ['L7' as const] };
    const part = (tier: string): object => ({
      kind: 'battery',
      report: { family: 'P2', tier, passed: true },
      text: { report: { family: 'P2', tier, passed: true }, views: { family: 'P2', tier, passed: true, failures: [] } },
      cpuSeconds: [1, 2],
    });
    expect(checkVerifyQueueResult(job, { ...part('L5'), then: [part('L7')] })).to.have.property('kind', 'battery');
    expect(() => checkVerifyQueueResult(job, part('L5'))).to.throw('1 later tier result(s) expected (L7)');
    expect(() => checkVerifyQueueResult(job, { ...part('L5'), then: [part('L5')] })).to.throw('not the P2-L7 battery record');
    expect(() => checkVerifyQueueResult(job, { ...part('L5'), then: [{ ...part('L7'), then: [] }] })).to.throw('a later tier result carries tiers of its own');
    expect(() => checkVerifyQueueResult({ kind: 'battery', family: 'P2', tier: 'L5', withText: true }, { ...part('L5'), then: [part('L7')] })).to.throw('later tier results from a battery job that played one tier');
  });
});
