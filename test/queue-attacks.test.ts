/**
 * The queue as a trust boundary (issue 37): hostile jobs, hostile inbox entries, a worker of
 * another checkout, a dead run and a second run on one --out, each against a real redis-server
 * and real coordinator and worker processes. Every test ends with the promise it checks: nothing
 * leaves the worker but the episode's turns, nothing lands outside --out, one bad message costs
 * one line, a dead run does not block another, the final summary equals a serial run's.
 */
import { expect } from 'chai';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { RedisServer } from './support/redis-server.ts';
import { everythingIn, filesUnder, kill, logLines, ROOT, spaceact, summaryOf, trajectory, until, type Proc } from './support/queue-procs.ts';
import { QUEUE_NAME } from '../agents/queue/protocol.ts';
import { RUN_DEFAULTS } from '../agents/run-defaults.ts';
import { instanceDigest } from '../agents/episode-log.ts';
import { familyAndInstanceFromId } from '../tasks/registry.ts';

/** Two quick episodes of the reference agent (one turn each). */
const IDS = ['P6-L1-s100', 'V3-L3-s100'];
/** Distinctive secrets in a worker's environment: no trace of them may leave it. */
const KEY = 'sk-Hx3-attack-Qw9Zt5Lm2';
const OTHER = 'other-secret-Vb8Nc1Ky7';
/** A 1×1 PNG (what a hostile turn attaches). */
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');

describe('queue runs as a trust boundary (issue 37): hostile jobs, messages and processes', function () {
  this.timeout(900_000);
  let redis: RedisServer;
  let tmp: string;
  const procs: Proc[] = [];
  let serial: string;

  const track = (p: Proc): Proc => {
    procs.push(p);
    return p;
  };
  const runArgs = (out: string, ids = IDS): string[] => ['run', '--agent', 'reference', '--instance', ids.join(','), '--render', 'never', '--no-report', '--out', out];
  const worker = (extra: string[] = [], env: NodeJS.ProcessEnv = {}, cli?: string): Proc =>
    track(spaceact(['worker', '--queue', redis.url, '--lock-seconds', '8', ...extra], { SPACEACT_TEST_KEY: KEY, SPACEACT_OTHER_SECRET: OTHER, ...env }, cli));
  const ready = (w: Proc): Promise<void> => until(() => /waiting for episodes/.test(w.out()), [w], 'waiting for the worker to be ready');
  const runIdOf = (out: string): string => (JSON.parse(readFileSync(join(out, 'queue.json'), 'utf8')) as { run: string }).run;
  const expectSerial = (out: string, ids = IDS): void => {
    const { resumed: _r, ...got } = summaryOf(out);
    const { resumed: _s, ...want } = summaryOf(serial);
    expect((got.episodes as unknown[]).length).to.equal(ids.length);
    expect(got.episodes).to.deep.equal((want.episodes as Array<{ instance: string }>).filter((e) => ids.includes(e.instance)));
    for (const id of ids) expect(trajectory(out, id), id).to.deep.equal(trajectory(serial, id));
  };

  before(async () => {
    // A server of this file's own: tests here flush, fill and stop it.
    redis = await RedisServer.start({ own: true });
    tmp = mkdtempSync(join(tmpdir(), 'spaceact-queue-attacks-'));
    serial = join(tmp, 'serial');
    const r = await spaceact(runArgs(serial)).done;
    expect(r.code, r.out).to.equal(0);
  });
  afterEach(async () => {
    await Promise.all(procs.splice(0).map(kill));
    const r = new Redis(redis.url);
    await r.flushall();
    r.disconnect();
  });
  after(async () => {
    await Promise.all(procs.map(kill));
    await redis?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('a job names only what to play: jobs steering endpoint, key variable or cache, a 5 MB id, non-JSON data, an unknown instance, a foreign job id or a dead run are each given up at once with one short line; nothing leaves the worker', async () => {
    // A trap endpoint: a worker that obeyed a job would send its key here.
    const trapped: string[] = [];
    const trap: Server = createServer((req, res) => {
      trapped.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)}`);
      res.end('{}');
    });
    await new Promise<void>((r) => trap.listen(0, '127.0.0.1', r));
    const trapUrl = `http://127.0.0.1:${(trap.address() as AddressInfo).port}/v1`;
    const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
    const queue = new Queue(QUEUE_NAME, { connection });
    try {
      const base = { run: 'livefake', instance: 'P6-L1-s100', agent: 'reference', mode: 'default', render: 'never', historyImages: 1 };
      // A live run, so that only the job's own content decides.
      await connection.set('spaceact:run:livefake:alive', '1');
      const cache = join(tmp, 'job-cache');
      const jobs: Array<[string, unknown]> = [
        ['livefake.P6-L1-s100', { ...base, agent: 'openai', settings: { agent: { name: 'openai', options: { baseUrl: trapUrl, model: 'm', apiKeyEnv: 'SPACEACT_TEST_KEY', cache } } } }],
        ['livefake.V3-L3-s100', { ...base, instance: 'V3-L3-s100', agent: 'openai', baseUrl: trapUrl, apiKeyEnv: 'SPACEACT_OTHER_SECRET', cache }],
        ['huge', { ...base, instance: `P6-L1-s${'9'.repeat(5_000_000)}` }],
        ['livefake.X9-L1-s1', { ...base, instance: 'X9-L1-s1' }],
        ['not-the-episode-id', { ...base }],
        ['deadrun.P6-L1-s100', { ...base, run: 'deadrun' }],
        ['proto', JSON.parse(`{"run":"livefake","instance":"P6-L1-s100","agent":"reference","mode":"default","render":"never","historyImages":1,"__proto__":{"baseUrl":"${trapUrl}"}}`)],
        ['livefake.V1-L3-s100', { ...base, instance: 'V1-L3-s100' }],
      ];
      for (const [jobId, data] of jobs) await queue.add('episode', data, { jobId, removeOnFail: false, attempts: 1 });
      // Non-JSON data, written under BullMQ (which would otherwise leave the job active with an unnamed error).
      await connection.hset(queue.toKey('livefake.V1-L3-s100'), 'data', '{not json');

      const w = worker();
      await until(async () => (await queue.getJobCounts('failed')).failed >= jobs.length, [w], 'waiting for every hostile job to be given up');
      // (Read raw: BullMQ's own getters throw on the job whose data is not JSON.)
      const failedIds = await queue.getRanges(['failed'], 0, -1);
      expect([...failedIds].sort()).to.deep.equal(jobs.map(([id]) => id).sort());
      const failed = await Promise.all(failedIds.map(async (id) => ({ id, failedReason: (await connection.hget(queue.toKey(id), 'failedReason')) ?? '' })));
      const lines = w.out().trim().split('\n');
      const givenUp = lines.filter((l) => /given up/.test(l));
      // One line per job, each short: the 5 MB id is not echoed.
      expect(givenUp, w.out().slice(0, 4000)).to.have.length(jobs.length);
      for (const l of lines) expect(l.length, l.slice(0, 300)).to.be.below(500);
      expect(w.out()).to.match(/job huge: not an episode job: \/instance must match pattern/);
      expect(w.out()).to.match(/job livefake\.P6-L1-s100: not an episode job: \(top\) must NOT have additional properties 'settings'/);
      expect(w.out()).to.match(/job livefake\.V1-L3-s100: its data is not JSON/);
      expect(w.out()).to.match(/P6-L1-s100 \(run deadrun\): no live coordinator; given up/);
      expect(w.out()).to.match(/job not-the-episode-id: its id is not the episode id livefake\.P6-L1-s100/);
      expect(w.out()).to.match(/job livefake\.X9-L1-s1: instance X9-L1-s1: /);
      for (const j of failed) expect(j.failedReason.length, j.id).to.be.below(400);
      // The worker is still taking jobs, nothing was sent anywhere, nothing made on its disk.
      expect(w.child.exitCode).to.equal(null);
      expect(trapped).to.deep.equal([]);
      expect(existsSync(cache)).to.equal(false);
      for (const b of await everythingIn(redis.url)) for (const secret of [KEY, OTHER]) expect(b.includes(secret), secret).to.equal(false);
      expect(w.out()).not.to.include(KEY);
    } finally {
      await queue.close();
      connection.disconnect();
      await new Promise((r) => trap.close(r));
    }
  });

  it('hostile inbox entries cost one line each and change nothing: not JSON, forged failures, a path as image kind, 200,000-deep JSON, a foreign reply key, foreign claims; the run equals a serial one and nothing lands outside --out', async () => {
    const parent = join(tmp, 'inbox');
    mkdirSync(parent);
    const out = join(parent, 'out');
    const c = track(spaceact([...runArgs(out), '--queue', redis.url]));
    const probe = new Redis(redis.url);
    try {
      await until(async () => existsSync(join(out, 'queue.json')) && (await probe.exists(`spaceact:run:${runIdOf(out)}:alive`)) === 1, [c], 'waiting for the coordinator');
      const run = runIdOf(out);
      const inbox = `spaceact:run:${run}:inbox`;
      const reply = (attempt: string, seq = 0): string => `spaceact:run:${run}:reply:${attempt}:${seq}`;
      const header = (over: Record<string, unknown>): unknown => ({
        type: 'header', format: 1, package: { name: 'spaceact', version: '0' },
        instance: { id: 'P6-L1-s100', family: 'P6', familyVersion: 3, tier: 'L1', seed: 100, digest: instanceDigest(familyAndInstanceFromId('P6-L1-s100').instance) },
        agent: { name: 'reference', settings: {} }, mode: 'default', budgets: {}, historyImages: RUN_DEFAULTS.historyImages, startedAt: new Date().toISOString(), ...over,
      });
      const turn = { turn: 1, worldTimeBefore: 0, worldTimeAfter: 1, images: [{ kind: '../../ESCAPED', caption: '<b>x</b>' }], reply: { rationale: '', note: '', actions: [] }, results: [], stateHash: 'ab' };
      const entries: Array<[string, Array<string | Buffer>]> = [
        ['not JSON', ['m', '{not json', 'r', reply('x')]],
        ['failed without attempt', ['m', JSON.stringify({ type: 'failed', instance: 'P6-L1-s100', worker: 'evil', error: { message: 'stop the run' } }), 'r', reply('x')]],
        ['image kind with a path', ['m', JSON.stringify({ type: 'turn', instance: 'P6-L1-s100', attempt: 'evil-1', record: turn, images: turn.images }), 'r', reply('evil-1'), 'i0', PNG]],
        ['200,000-deep JSON', ['m', `${'['.repeat(200_000)}${']'.repeat(200_000)}`, 'r', reply('x')]],
        ['reply key elsewhere', ['m', JSON.stringify({ type: 'stopped', instance: 'P6-L1-s100', attempt: 'evil-2' }), 'r', 'victim-key']],
        ['5 MB instance id', ['m', JSON.stringify({ type: 'stopped', instance: `P${'6'.repeat(5_000_000)}`, attempt: 'evil-3' }), 'r', reply('evil-3')]],
        ['unknown type', ['m', JSON.stringify({ type: 'takeover', instance: 'P6-L1-s100', attempt: 'evil-4' }), 'r', reply('evil-4')]],
      ];
      const claims: Array<[string, Array<string | Buffer>]> = [
        ['foreign digest', ['m', JSON.stringify({ type: 'claim', instance: 'P6-L1-s100', attempt: 'evil-5', worker: 'evil-host:1', header: header({ instance: { id: 'P6-L1-s100', digest: '0123456789abcdef' } }) }), 'r', reply('evil-5')]],
        ['another agent', ['m', JSON.stringify({ type: 'claim', instance: 'P6-L1-s100', attempt: 'evil-6', worker: 'evil-host:2', header: header({ agent: { name: 'null', settings: {} } }) }), 'r', reply('evil-6')]],
      ];
      // A well-formed failure with an attempt that holds nothing: answered "superseded", no line, no stop.
      const forged: Array<string | Buffer> = ['m', JSON.stringify({ type: 'failed', instance: 'P6-L1-s100', attempt: 'evil-7', worker: 'evil', error: { message: 'stop the run' } }), 'r', reply('evil-7')];
      // `__proto__` keys are plain data: a well-formed message with one is read as itself (here: a stop of an attempt that holds nothing).
      const proto: Array<string | Buffer> = ['m', `{"type":"stopped","instance":"P6-L1-s100","attempt":"evil-8","__proto__":{"type":"failed","attempt":"evil-8"}}`, 'r', reply('evil-8')];
      for (const [, fields] of [...entries, ...claims, ['', forged], ['', proto]] as Array<[string, Array<string | Buffer>]>) await probe.xadd(inbox, '*', ...fields);
      await until(async () => (await probe.exists(reply('evil-8'))) === 1, [c], 'waiting for the last entry to be answered');
      for (const a of ['evil-7', 'evil-8']) expect(JSON.parse((await probe.lrange(reply(a), 0, -1))[0]), a).to.deep.equal({ type: 'superseded' });
      for (const a of ['evil-5', 'evil-6']) expect(JSON.parse((await probe.lrange(reply(a), 0, -1))[0]).type, a).to.equal('refused');

      // Now a real worker plays the run.
      const w = worker();
      const r = await c.done;
      expect(r.code, r.out).to.equal(0);
      expectSerial(out);
      const lines = r.out.split('\n');
      const skipped = lines.filter((l) => /skipped inbox entry/.test(l));
      expect(skipped, r.out.slice(0, 3000)).to.have.length(entries.length);
      expect(r.out).to.match(/skipped inbox entry \S+: not a turn message of the protocol: \/images\/0\/kind must be equal to one of the allowed values \(one of view, strobe, rollback\)/);
      expect(r.out).to.match(/skipped inbox entry \S+: not a stopped message of the protocol: \/instance must match pattern/);
      expect(r.out).to.match(/skipped inbox entry \S+: not a message of the protocol \(type "takeover"\)/);
      expect(lines.filter((l) => /refused the claim of worker evil-host:1: it generates P6-L1-s100 with digest 0123456789abcdef/.test(l))).to.have.length(1);
      expect(lines.filter((l) => /refused the claim of worker evil-host:2: it plays agent null/.test(l))).to.have.length(1);
      for (const l of lines) expect(l.length, l.slice(0, 200)).to.be.below(600);
      expect(r.out, 'no stack trace').not.to.match(/^\s+at /m);
      // Nothing outside --out, nothing but the run's own files inside it, no key written where a message asked.
      expect(readdirSync(parent)).to.deep.equal(['out']);
      expect(filesUnder(out).filter((f) => !/^episodes\/(P6-L1-s100|V3-L3-s100)\/(log\.jsonl|final-\d-(view|strobe|rollback)\.png)$/.test(f)).sort()).to.deep.equal(['queue.json', 'summary.json']);
      expect(await probe.exists('victim-key')).to.equal(0);
      await kill(w);
    } finally {
      probe.disconnect();
    }
  });

  it('a worker of another checkout (its P6 generator changed) is refused by name; the run finishes on a matching worker, equal to a serial run', async () => {
    // Another checkout: this tree copied, with P6's instances changed (its version bumped).
    const foreign = join(tmp, 'foreign');
    mkdirSync(foreign);
    execFileSync('sh', ['-c', `tar -C '${ROOT}' --exclude=./node_modules --exclude=./.git -cf - . | tar -C '${foreign}' -xf -`]);
    symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(foreign, 'node_modules'));
    const family = join(foreign, 'tasks', 'puzzles', 'p6-peg-transfer', 'family.ts');
    const text = readFileSync(family, 'utf8');
    // Bump whatever version P6 is at now, so the test does not go stale when P6 changes.
    const current = /\n {2}version: (\d+),/.exec(text);
    expect(current, 'P6 family.ts declares its version').to.not.equal(null);
    writeFileSync(family, text.replace(/\n {2}version: \d+,/, `\n  version: ${Number(current![1]) + 1},`));

    const out = join(tmp, 'foreign-run');
    const stranger = worker([], {}, join(foreign, 'bin', 'spaceact.mjs'));
    await ready(stranger);
    const c = track(spaceact([...runArgs(out), '--queue', redis.url]));
    await until(() => /refused the claim of worker \S+:(\d+): it generates P6-L1-s100 with digest/.test(c.out()), [c, stranger], 'waiting for the foreign claim to be refused');
    expect(c.out()).to.include(`:${stranger.child.pid}: it generates P6-L1-s100`);
    await until(() => /P6-L1-s100 \(run \w+\): the coordinator of run \w+ refused the claim: .*handed back to the queue/.test(stranger.out()), [c, stranger], 'waiting for the stranger to hand the job back');
    // Nothing of the stranger's P6 was written.
    expect(logLines(out, 'P6-L1-s100')).to.deep.equal([]);
    const w = worker();
    const r = await c.done;
    expect(r.code, r.out).to.equal(0);
    expectSerial(out);
    expect((logLines(out, 'P6-L1-s100')[0] as { instance: { digest: string } }).instance.digest).to.equal(instanceDigest(familyAndInstanceFromId('P6-L1-s100').instance));
    await Promise.all([kill(w), kill(stranger)]);
  });

  it('a dead run does not block another: its jobs are given up, `queue ls` shows it without a coordinator, `queue purge` drops it', async () => {
    const deadIds = ['V1-L3-s101', 'V1-L3-s102', 'V1-L3-s103'];
    const dead = track(spaceact([...runArgs(join(tmp, 'dead'), deadIds), '--queue', redis.url]));
    const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
    const queue = new Queue(QUEUE_NAME, { connection });
    try {
      await until(async () => (await queue.getJobCounts('waiting')).waiting >= deadIds.length, [dead], 'waiting for the first run to queue its jobs');
      dead.child.kill('SIGKILL');
      await dead.done;
      const deadRun = runIdOf(join(tmp, 'dead'));
      // Another run on the same Redis, with one worker that meets the dead run's jobs first.
      const out = join(tmp, 'alive');
      const w = worker();
      const c = track(spaceact([...runArgs(out, ['P6-L1-s100']), '--queue', redis.url]));
      const r = await c.done;
      expect(r.code, r.out).to.equal(0);
      expectSerial(out, ['P6-L1-s100']);
      // Queue commands: the dead run is seen, purged, and gone.
      await until(async () => (await connection.exists(`spaceact:run:${deadRun}:alive`)) === 0, [w], 'waiting for the dead coordinator\'s liveness to lapse');
      const ls = await spaceact(['queue', 'ls', '--queue', redis.url]).done;
      expect(ls.code, ls.out).to.equal(0);
      expect(ls.out).to.match(new RegExp(`^${deadRun} +none `, 'm'));
      const refused = await spaceact(['queue', 'drop', 'no such run!', '--queue', redis.url]).done;
      expect(refused.code).to.equal(2);
      expect(refused.out).to.match(/^spaceact: not a queue run id/);
      const purge = await spaceact(['queue', 'purge', '--queue', redis.url]).done;
      expect(purge.code, purge.out).to.equal(0);
      expect(purge.out).to.match(new RegExp(`^dropped run ${deadRun}: \\d+ jobs? removed`, 'm'));
      const after = await spaceact(['queue', 'ls', '--queue', redis.url]).done;
      expect(after.out, after.out).not.to.include(deadRun);
      const left = await queue.getJobs(['waiting', 'delayed', 'failed', 'active', 'prioritized']);
      expect(left.filter((j) => String(j.id).startsWith(`${deadRun}.`))).to.deep.equal([]);
      await kill(w);
    } finally {
      await queue.close();
      connection.disconnect();
    }
  });

  it('one run at a time on an --out: a second run or coordinator is refused naming the first; a lock left by a killed run is recognised as stale', async () => {
    const out = join(tmp, 'locked');
    // The first holder: a queue run's coordinator with no worker (it holds the folder until killed).
    const first = track(spaceact([...runArgs(out), '--queue', redis.url]));
    await until(() => existsSync(join(out, 'queue.json')), [first], 'waiting for the coordinator to lock its folder');
    expect(existsSync(join(out, '.spaceact-lock'))).to.equal(true);
    const second = await spaceact(runArgs(out)).done;
    expect(second.code, second.out).to.equal(2);
    expect(second.out.trim().split('\n')).to.have.length(1);
    expect(second.out).to.match(new RegExp(`^spaceact: ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is in use by another run \\(process ${first.child.pid} on `));
    expect(existsSync(join(out, 'summary.json'))).to.equal(false);
    first.child.kill('SIGKILL');
    await first.done;
    expect(existsSync(join(out, '.spaceact-lock'))).to.equal(true);
    const again = await spaceact(runArgs(out)).done;
    expect(again.code, again.out).to.equal(0);
    expect(again.out).to.match(new RegExp(`a stale lock of process ${first.child.pid}, which no longer runs, was taken over`));
    expectSerial(out);
    expect(existsSync(join(out, '.spaceact-lock'))).to.equal(false);
  });
});
