import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { referenceScript, ScriptedOpenAIServer, type Script } from './support/openai-server.ts';
import { RedisServer } from './support/redis-server.ts';
import { parseMode } from '../agents/modes.ts';
import { QueueWorker } from '../agents/queue/worker.ts';
import { runInstances } from '../agents/runner.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'bin', 'spaceact.mjs');
/** Distinctive, so that any trace of it in Redis or a file is found. */
const KEY = 'sk-Qv7T-fake-Jm2Wd9Lx4Pz6Nc';
/** Three fast families' instances; with `cap1` the reference takes 7, 15 and 1 turns. */
const IDS = ['P6-L1-s100', 'P6-L3-s100', 'V1-L3-s100'];
const VICTIM = 'P6-L3-s100';

interface Proc {
  child: ChildProcess;
  out: () => string;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>;
}

/** Runs the CLI; `withKey`: the model key is in its environment (workers), or not (coordinators). */
function spaceact(args: string[], withKey: boolean): Proc {
  const env: NodeJS.ProcessEnv = { ...process.env, OPENAI_API_KEY: '' };
  delete env.SPACEACT_TEST_KEY;
  if (withKey) env.SPACEACT_TEST_KEY = KEY;
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, out })),
  );
  return { child, out: () => out, done };
}

function stop(p: Proc | undefined): Promise<unknown> {
  if (!p || p.child.exitCode !== null || p.child.signalCode !== null) return Promise.resolve();
  p.child.kill('SIGKILL');
  return p.done;
}

function logLines(file: string): Array<Record<string, unknown>> {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.endsWith('}')).map((l) => JSON.parse(l) as Record<string, unknown>);
}

function turnsLogged(out: string, id: string): number {
  return logLines(join(out, 'episodes', id, 'log.jsonl')).filter((l) => l.type === 'turn').length;
}

function ended(out: string, id: string): boolean {
  return logLines(join(out, 'episodes', id, 'log.jsonl')).some((l) => l.type === 'end');
}

/** Each turn's state hash and calls, and the final state hash: what must match a serial run. */
function trajectory(out: string, id: string): unknown {
  const lines = logLines(join(out, 'episodes', id, 'log.jsonl'));
  const turns = lines.filter((l) => l.type === 'turn').map((t) => ({ turn: t.turn, stateHash: t.stateHash, actions: (t.reply as { actions: unknown }).actions, results: t.results }));
  const end = lines.find((l) => l.type === 'end') as { outcome: { finalStateHash: string } } | undefined;
  return { turns, final: end?.outcome.finalStateHash };
}

function summaryOf(out: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Record<string, unknown>;
}

/** Polls `test` every 50 ms until it holds; fails when `proc` ends first. */
function until(test: () => boolean, procs: Proc[], what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      if (test()) {
        clearInterval(poll);
        resolve();
      }
    }, 50);
    for (const p of procs) {
      void p.done.then((r) => {
        clearInterval(poll);
        reject(new Error(`${what}: a process ended first (${r.signal ?? r.code}):\n${r.out.slice(-3000)}`));
      });
    }
  });
}

/** Every value stored in Redis (strings, hashes, lists, sets, streams), as raw bytes. */
async function everythingIn(url: string): Promise<Buffer[]> {
  const redis = new Redis(url);
  const found: Buffer[] = [];
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scanBuffer(cursor, 'COUNT', 1000);
      cursor = next.toString();
      for (const key of keys) {
        found.push(key);
        const type = await redis.type(key);
        if (type === 'string') found.push((await redis.getBuffer(key))!);
        else if (type === 'hash') for (const [field, value] of Object.entries(await redis.hgetallBuffer(key))) found.push(Buffer.from(field), value);
        else if (type === 'list') found.push(...(await redis.lrangeBuffer(key, 0, -1)));
        else if (type === 'set') found.push(...(await redis.smembersBuffer(key)));
        else if (type === 'zset') found.push(...(await redis.zrangeBuffer(key, 0, -1)));
        else if (type === 'stream') for (const [, fields] of await redis.xrangeBuffer(key, '-', '+')) found.push(...fields);
      }
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return found;
}

describe('queue runs: a coordinator and workers over BullMQ on a real redis-server', function () {
  // Each test waits out at least one lock expiry and stalled check, longer on a busy machine.
  this.timeout(600_000);
  let redis: RedisServer;
  let server: ScriptedOpenAIServer;
  let tmp: string;
  const procs: Proc[] = [];

  before(async () => {
    redis = await RedisServer.start();
    // A short pause per answer keeps each episode in flight long enough to kill a worker in it.
    const reference = referenceScript(IDS);
    const slow: Script = async (req) => ({ ...(await reference(req)), delayMs: 120 }) as Awaited<ReturnType<Script>>;
    server = await ScriptedOpenAIServer.start(slow, { apiKey: KEY });
    tmp = mkdtempSync(join(tmpdir(), 'spaceact-queue-'));
    writeFileSync(join(tmp, 'prices.json'), JSON.stringify({ scripted: { input_per_mtok: 3, output_per_mtok: 15 } }));
  });
  // The queue is shared: no process of a test may live on into the next (even a failed one's).
  afterEach(async () => {
    await Promise.all(procs.splice(0).map(stop));
  });
  after(async () => {
    await Promise.all(procs.map(stop));
    await server?.close();
    await redis?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  const runArgs = (out: string, ids: string[], extra: string[] = []): string[] => [
    'run', '--agent', 'openai', '--base-url', server.url, '--model', 'scripted', '--api-key-env', 'SPACEACT_TEST_KEY',
    '--mode', 'cap1', '--instance', ids.join(','), '--prices', join(tmp, 'prices.json'), '--out', join(tmp, out), '--no-report', ...extra,
  ];
  /** A worker process (stopped by its test, or at the end; the queue is shared, so none outlives its test). */
  /** The agent flags a worker plays with: its own (a job names only the agent's kind). */
  const agentFlags = (): string[] => ['--model', 'scripted', '--base-url', server.url, '--api-key-env', 'SPACEACT_TEST_KEY', '--prices', join(tmp, 'prices.json')];
  const worker = (): Proc => {
    const p = spaceact(['worker', '--queue', redis.url, '--lock-seconds', '8', ...agentFlags()], true);
    procs.push(p);
    return p;
  };

  it('a worker killed with SIGKILL mid-episode: its episode is resumed by the other, and the run equals a serial one; no key in Redis', async () => {
    const serial = await spaceact(runArgs('serial', IDS, ['--render', 'never']), true).done;
    expect(serial.code, serial.out).to.equal(0);
    const serialRequests = server.requests.length;

    const a = worker();
    const b = worker();
    const n0 = server.requests.length;
    // The coordinator has no key in its environment: it names the agent without one.
    const coordinator = spaceact([...runArgs('queued', IDS, ['--render', 'never']), '--queue', redis.url], false);
    procs.push(coordinator);
    const out = join(tmp, 'queued');
    // Kill the worker playing the long episode once three of its turns are on the coordinator's disk.
    // (The worker holding it is the one that claimed it last.)
    const lastClaim = (w: Proc): string => w.out().split('\n').filter((l) => l.includes(`${VICTIM} (run`) && /playing from turn/.test(l)).pop()?.slice(0, 24) ?? '';
    let victim: Proc | null = null;
    await until(
      () => {
        victim = lastClaim(a) || lastClaim(b) ? (lastClaim(a) > lastClaim(b) ? a : b) : null;
        return victim !== null && turnsLogged(out, VICTIM) >= 3 && !ended(out, VICTIM);
      },
      [coordinator, a, b],
      'waiting for the long episode to be three turns in',
    );
    const killedAt = turnsLogged(out, VICTIM);
    const blobs = await everythingIn(redis.url);
    victim!.child.kill('SIGKILL');
    const killed = await victim!.done;
    expect(killed.signal).to.equal('SIGKILL');
    const survivor = victim === a ? b : a;

    const done = await coordinator.done;
    expect(done.code, done.out).to.equal(0);
    // Same results and the same state after every turn as the serial run.
    expect(summaryOf(out).episodes).to.deep.equal(summaryOf(join(tmp, 'serial')).episodes);
    for (const id of IDS) expect(trajectory(out, id), id).to.deep.equal(trajectory(join(tmp, 'serial'), id));
    // The survivor took the episode over from the logged turns (the turn in flight at the kill, if any, is played again).
    const survivorPid = survivor.child.pid!;
    const resumedFrom = [...done.out.matchAll(new RegExp(`${VICTIM}: continued on [^ ]+:${survivorPid} from turn (\\d+)`, 'g'))].map((m) => Number(m[1]) - 1);
    expect(resumedFrom.some((n) => n >= killedAt && n <= killedAt + 1), `${killedAt} turns logged at the kill; the survivor continued after ${resumedFrom.join(', ')}:\n${done.out}`).to.equal(true);
    expect(survivor.out()).to.match(new RegExp(`${VICTIM} \\(run [0-9a-f]+\\): replaying \\d+ logged turns`));
    // The model was asked what the serial run asked, plus at most the question in flight at each
    // takeover: the kill's, and any of a worker starved of CPU past its lock (at-least-once; the
    // coordinator keeps only the latest attempt's lines, so the logs above stay equal).
    const claims = [a, b].flatMap((w) => w.out().split('\n').filter((l) => /\(run [0-9a-f]+\): (replaying \d+ logged turns, )?playing from turn/.test(l)));
    const takeovers = claims.length - IDS.length;
    const extra = server.requests.length - n0 - serialRequests;
    const story = `${extra} extra requests, ${takeovers} takeovers:\n${claims.join('\n')}\n--- coordinator:\n${done.out}`;
    expect(takeovers, story).to.be.at.least(1);
    expect(extra, story).to.be.within(0, takeovers);
    // The key never went through the queue: not in any job, message or reply, during the run or after.
    blobs.push(...(await everythingIn(redis.url)));
    expect(blobs.length).to.be.greaterThan(10);
    expect(blobs.some((b) => b.includes('P6-L3-s100'))).to.equal(true);
    for (const piece of [KEY, KEY.slice(-12)]) expect(blobs.some((b) => b.includes(piece)), piece).to.equal(false);
    for (const p of [done, ...[a, b].map((w) => ({ out: w.out() }))]) expect(p.out.includes(KEY)).to.equal(false);
    await Promise.all([a, b].map(stop));
    process.stdout.write(`      (killed at ${killedAt} logged turns of ${VICTIM}; survivor continued after ${resumedFrom.join(', ')} turns; ${server.requests.length - n0} model requests vs ${serialRequests} serial, ${takeovers} takeover(s))\n`);
  });

  it('a coordinator killed with SIGKILL and restarted with the same --out picks the run up (images included)', async () => {
    const ids = ['P6-L1-s100', 'V1-L3-s100'];
    const serial = await spaceact(runArgs('serial-img', ids), true).done;
    expect(serial.code, serial.out).to.equal(0);
    const workers = [worker()];
    const out = join(tmp, 'restarted');
    const first = spaceact([...runArgs('restarted', ids), '--queue', redis.url], false);
    procs.push(first);
    await until(() => turnsLogged(out, 'P6-L1-s100') >= 2 && !ended(out, 'P6-L1-s100'), [first, ...workers], 'waiting for two turns');
    first.child.kill('SIGKILL');
    expect((await first.done).signal).to.equal('SIGKILL');
    // The workers go on meanwhile and wait for the coordinator with what they have played.
    await new Promise((r) => setTimeout(r, 1500));
    const second = spaceact([...runArgs('restarted', ids), '--queue', redis.url], false);
    procs.push(second);
    const done = await second.done;
    expect(done.code, done.out).to.equal(0);
    const { resumed, ...summary } = summaryOf(out);
    const { resumed: _none, ...serialSummary } = summaryOf(join(tmp, 'serial-img'));
    expect(summary).to.deep.equal(serialSummary);
    expect((resumed as { continued: number }).continued).to.be.at.least(1);
    for (const id of ids) {
      expect(trajectory(out, id), id).to.deep.equal(trajectory(join(tmp, 'serial-img'), id));
      // Every image the serial run wrote was streamed here, byte for byte.
      const serialDir = join(tmp, 'serial-img', 'episodes', id);
      const pngs = readdirSync(serialDir).filter((f) => f.endsWith('.png'));
      expect(pngs.length, id).to.be.greaterThan(1);
      for (const f of pngs) expect(readFileSync(join(out, 'episodes', id, f)).equals(readFileSync(join(serialDir, f))), `${id}/${f}`).to.equal(true);
    }
    await Promise.all(workers.map(stop));
  });

  it('the queue path keeps the circuit breaker, the retry of abandoned episodes and the per-turn progress', async () => {
    // In this process: a worker reading its key from this environment, and the runner as a library.
    process.env.SPACEACT_QUEUE_TEST_KEY = KEY;
    const w = await QueueWorker.start({ url: redis.url, lockSeconds: 8, agents: { openai: { baseUrl: server.url, model: 'scripted', apiKeyEnv: 'SPACEACT_QUEUE_TEST_KEY' } } });
    const saved = server.script;
    try {
      const ids = ['P6-L1-s100', 'V1-L3-s100', 'P6-L3-s100'];
      const agent = { name: 'openai', options: { baseUrl: server.url, model: 'scripted', apiKeyEnv: 'SPACEACT_QUEUE_TEST_KEY' } };
      const base = { instances: ids, agent, mode: parseMode('blind'), out: join(tmp, 'breaker'), queue: redis.url };
      server.script = () => ({ status: 400, message: 'this model does not accept images' });
      const first = await runInstances({ ...base, abandonLimit: 2 });
      expect(first.stopped?.reason).to.equal('abandonments');
      expect(first.episodes.map((e) => [e.instance, e.abandoned])).to.deep.equal([[ids[0], true], [ids[1], true]]);
      expect(first.unfinished).to.deep.equal([ids[2]]);

      server.script = saved;
      const turns: string[] = [];
      const started: string[] = [];
      const notices: string[] = [];
      const again = await runInstances({
        ...base,
        abandonLimit: 1,
        onTurn: (id, t) => turns.push(`${id}#${t.turn}`),
        onEpisodeStart: (id) => started.push(id),
        onNotice: (m) => notices.push(m),
      });
      expect(again.stopped).to.equal(undefined);
      expect(again.episodes.map((e) => [e.instance, e.solved, e.abandoned])).to.deep.equal(ids.map((id) => [id, true, false]));
      expect(notices.filter((m) => /retrying the abandoned episode from turn 1/.test(m))).to.have.length(2);
      // Every new turn was reported as it was logged, and every episode's start.
      expect(turns.length).to.equal(again.episodes.reduce((n, e) => n + e.turns, 0));
      expect(turns.filter((t) => t.startsWith(`${ids[2]}#`))).to.deep.equal(Array.from({ length: again.episodes[2].turns }, (_, i) => `${ids[2]}#${i + 1}`));
      expect([...started].sort()).to.deep.equal([...ids].sort());
    } finally {
      server.script = saved;
      await w.close();
      delete process.env.SPACEACT_QUEUE_TEST_KEY;
    }
  });

  it('Redis stopped mid-run is said once (no stack); back without its data, the coordinator says to rerun, and the rerun completes as a serial run', async () => {
    const ids = ['P6-L1-s100', 'P6-L3-s100'];
    const serial = await spaceact(runArgs('serial-lost', ids, ['--render', 'never']), true).done;
    expect(serial.code, serial.out).to.equal(0);
    // A server of this test's own, stopped and started again on the same port without its data.
    const own = await RedisServer.start({ own: true });
    let back: RedisServer | null = null;
    try {
      // Two worker processes under one parent (`--concurrency 2`), stopped with SIGTERM at the end.
      const w = spaceact(['worker', '--queue', own.url, '--lock-seconds', '8', '--concurrency', '2', ...agentFlags()], true);
      procs.push(w);
      const out = join(tmp, 'lost');
      const args = (url: string): string[] => [...runArgs('lost', ids, ['--render', 'never']), '--queue', url];
      const first = spaceact(args(own.url), false);
      procs.push(first);
      await until(() => ids.reduce((n, id) => n + turnsLogged(out, id), 0) >= 2, [first, w], 'waiting for two turns');
      await own.stop();
      await until(() => /lost Redis at/.test(first.out()), [first], 'waiting for the coordinator to notice');
      // The workers notice on their own reconnection attempts; Redis stays down until they have.
      await until(() => / lost Redis at /.test(w.out()), [w], 'waiting for the workers to notice');
      back = await RedisServer.start({ own: true, port: own.port });
      const r = await first.done;
      expect(r.code, r.out).to.equal(2);
      expect(r.out.match(/lost Redis at/g), r.out).to.have.length(1);
      // The first error of the outage names its cause in one line; which one comes first (a reset read,
      // a closed connection, a refused reconnect) depends on where the client was when Redis stopped, so only its shape is asserted.
      expect(r.out).to.match(/^spaceact: lost Redis at redis:\/\/127\.0\.0\.1:\d+ \([^()\n]+\); waiting for it to come back$/m);
      expect(r.out).to.match(/^spaceact: Redis at redis:\/\/127\.0\.0\.1:\d+ no longer holds this run .*rerun the same command with the same --out/m);
      expect(r.out, 'no stack trace').not.to.match(/^\s+at /m);
      expect(w.out()).to.match(/ lost Redis at /);
      expect(w.out()).to.match(/ Redis at \S+ is back/);
      const again = await spaceact(args(back.url), false).done;
      expect(again.code, again.out).to.equal(0);
      expect(summaryOf(out).episodes).to.deep.equal(summaryOf(join(tmp, 'serial-lost')).episodes);
      for (const id of ids) expect(trajectory(out, id), id).to.deep.equal(trajectory(join(tmp, 'serial-lost'), id));
      // A child that met the outage while reconnecting may have quit and been restarted after a
      // pause; with short episodes the rerun can end inside that pause, so wait for both children
      // to be up (each says it is waiting for jobs) before stopping them.
      const restarted = w.out().lastIndexOf('starting another in');
      if (restarted >= 0) await until(() => w.out().indexOf('waiting for episodes and verification jobs', restarted) >= 0, [w], 'waiting for the restarted worker');
      // SIGTERM ends the parent and both children (a forked child's channel had kept it alive).
      w.child.kill('SIGTERM');
      const ended = await w.done;
      expect(ended.code, ended.out).to.equal(0);
      expect(ended.out.match(/SIGTERM: the episode in flight stops/g), ended.out).to.have.length(2);
    } finally {
      await Promise.all(procs.splice(0).map(stop));
      await back?.stop();
      await own.stop();
    }
  });

  it('refuses an unreachable queue in one line, writing nothing', async () => {
    const r = await spaceact(['run', '--agent', 'reference', '--instance', 'P6-L1-s100', '--out', join(tmp, 'nowhere'), '--queue', 'redis://127.0.0.1:1'], false).done;
    expect(r.code).to.equal(2);
    expect(r.out.trim().split('\n')).to.have.length(1);
    expect(r.out).to.match(/^spaceact: cannot reach Redis at redis:\/\/127\.0\.0\.1:1: connect ECONNREFUSED/);
    expect(existsSync(join(tmp, 'nowhere'))).to.equal(false);
  });
});
