import { expect } from 'chai';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FaultKind } from '../agents/api-faults.ts';
import { EpisodeLog, type LogTurn } from '../agents/episode-log.ts';
import { parseMode } from '../agents/modes.ts';
import { OpenAIAgent } from '../agents/openai-agent.ts';
import { runInstances, type RunOptions, type RunSummary, type SummaryEntry } from '../agents/runner.ts';
import { SpaceActError } from '../core/errors.ts';
import { HEADINGS } from '../agents/prompt.ts';
import { promptSection, referenceScript, ScriptedOpenAIServer, type Script, type ScriptedResponse } from './support/openai-server.ts';

/** Distinctive, so that any trace of it is found. */
const KEY = 'sk-Fq4W-fake-Zx8Cv2Bn6Mm3Lk0';
// Seven moves: two turns of five calls (P6 L1 draws 4–7 moves).
const ID = 'P6-L1-s103';
/**
 * Four instances whose rules differ, so the scripted model can tell them apart: one per family
 * and tier, since a tier's text no longer varies with the seed (issue 36).
 */
const FOUR = ['P6-L1-s103', 'V1-L1-s100', 'P6-L3-s100', 'V1-L3-s100'];
/** Fault handling does not depend on pictures: blind runs need no browser and stay fast. */
const BLIND = parseMode('blind');

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name));
}

function turnsOf(out: string, id = ID): LogTurn[] {
  return new EpisodeLog(out, id).read().turns;
}

describe('model runs over a misbehaving endpoint: faults are retried, never charged to the model, never cached', function () {
  this.timeout(300_000);
  let server: ScriptedOpenAIServer;
  let tmp: string;
  let runs = 0;
  const reference = referenceScript(FOUR);
  /** The clean run's summary entry and request count, to compare every faulty run with. */
  let clean: { entry: SummaryEntry; requests: number };

  before(async () => {
    server = await ScriptedOpenAIServer.start(reference, { apiKey: KEY });
    tmp = mkdtempSync(join(tmpdir(), 'spaceact-faults-'));
    const n0 = server.requests.length;
    const s = await run([ID]);
    clean = { entry: s.episodes[0], requests: server.requests.length - n0 };
  });
  after(async () => {
    await server.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  const freshDir = (): string => join(tmp, `run-${++runs}`);

  function run(ids: string[], opts: Partial<Omit<RunOptions, 'agent'>> & { agentOpts?: Record<string, unknown> } = {}): Promise<RunSummary> {
    const { agentOpts, ...rest } = opts;
    return runInstances({
      instances: ids,
      makeAgent: () => OpenAIAgent.fromOptions({ baseUrl: server.url, model: 'scripted', backoffBase: 0.001, backoffCap: 0.005, ...agentOpts }, { OPENAI_API_KEY: KEY }),
      mode: BLIND,
      out: freshDir(),
      ...rest,
    });
  }

  /** Answers every distinct request first with `fault`, then, asked again, as the model would. */
  function faultFirst(fault: ScriptedResponse): Script {
    const seen = new Set<string>();
    return (req) => {
      if (seen.has(req.digest)) return reference(req);
      seen.add(req.digest);
      return fault;
    };
  }

  const KINDS: Array<{ name: string; fault: ScriptedResponse; kind: FaultKind; reason: RegExp; timeout?: number }> = [
    { name: 'a 200 whose JSON is cut in half', fault: { fault: 'truncated' }, kind: 'malformed', reason: /HTTP 200 .*with a body that is not JSON or was cut short/ },
    { name: 'a 200 labelled JSON with a text body', fault: { fault: 'not-json' }, kind: 'malformed', reason: /HTTP 200 \(content-type application\/json.*not JSON/ },
    { name: 'a 200 HTML page from a proxy', fault: { fault: 'html' }, kind: 'malformed', reason: /HTTP 200 \(content-type text\/html.*an HTML or XML page/ },
    { name: 'a 200 carrying an error object', fault: { fault: 'error-object' }, kind: 'malformed', reason: /carrying an error instead of a completion: upstream model overloaded/ },
    { name: 'a body past the size cap', fault: { fault: 'oversized', bytes: 33 * 1024 * 1024 }, kind: 'malformed', reason: /larger than 33554432 bytes/ },
    { name: 'a connection reset before the headers', fault: { fault: 'reset-before-headers' }, kind: 'connection', reason: /connection failed/ },
    { name: 'a connection reset in the middle of the body', fault: { fault: 'reset-mid-body' }, kind: 'reset', reason: /dropped while reading the response body/ },
    { name: 'no headers before the deadline', fault: { fault: 'stall' }, kind: 'timeout', timeout: 2, reason: /deadline of 2 s passed while waiting for the response headers/ },
    { name: 'a body trickled past the deadline', fault: { fault: 'trickle', intervalMs: 200 }, kind: 'timeout', timeout: 2, reason: /deadline of 2 s passed while reading the response body/ },
    { name: 'HTTP 503', fault: { status: 503, message: 'upstream busy' }, kind: 'http', reason: /HTTP 503/ },
    { name: 'HTTP 429 with Retry-After', fault: { status: 429, message: 'slow down', headers: { 'retry-after': '0' } }, kind: 'http', reason: /HTTP 429/ },
  ];

  for (const k of KINDS) {
    it(`${k.name} (${k.kind}): retried; the episode ends as the clean run's did, nothing charged, nothing cached`, async () => {
      server.script = faultFirst(k.fault);
      const cache = join(tmp, `cache-${runs + 1}`);
      const n0 = server.requests.length;
      const summary = await run([ID], { agentOpts: { cache, ...(k.timeout ? { timeout: k.timeout } : {}) } });
      const out = join(tmp, `run-${runs}`);
      // The run completes, the episode is not abandoned, and it is the clean run's episode:
      // same score, turns, actions, no invalid reply, the same tokens (faults bill nothing).
      expect(summary.stopped).to.equal(undefined);
      expect(summary.episodes[0]).to.deep.equal(clean.entry);
      expect(summary.episodes[0].invalidReplies).to.equal(0);
      // Every request met the fault once and was asked again.
      expect(server.requests.length - n0).to.equal(2 * clean.requests);
      // The log records each fault as the endpoint's, never as a reply of the model.
      const turns = turnsOf(out);
      expect(turns).to.have.length(clean.entry.turns);
      for (const t of turns) {
        expect(t.reply.invalidReplies ?? 0).to.equal(0);
        expect(t.reply.refused).to.equal(undefined);
        for (const r of t.reply.requests!) {
          expect(r.apiRetries).to.equal(1);
          expect(r.problems).to.equal(undefined);
          expect(r.raw).to.equal(undefined);
          expect(r.faults).to.have.length(1);
          expect(r.faults![0].kind).to.equal(k.kind);
          expect(r.faults![0].reason).to.match(k.reason);
        }
      }
      // The cache holds only the good answers: one per request, each a reply with calls.
      const cached = filesUnder(cache).filter((f) => f.endsWith('.json'));
      expect(cached).to.have.length(clean.requests);
      for (const f of cached) expect(JSON.parse(JSON.parse(readFileSync(f, 'utf8')).text).actions.length).to.be.greaterThan(0);
    });
  }

  it('a healthy rerun with the cache is answered from it alone: no fault was stored as an answer', async () => {
    server.script = faultFirst({ fault: 'html' });
    const cache = join(tmp, 'cache-html');
    await run([ID], { agentOpts: { cache } });
    server.script = () => ({ status: 500, message: 'must not be asked' });
    const n0 = server.requests.length;
    const again = await run([ID], { agentOpts: { cache } });
    expect(server.requests.length - n0).to.equal(0);
    expect(again.episodes[0]).to.deep.include({ solved: true, abandoned: false, invalidReplies: 0, score: clean.entry.score });
  });

  it('a fault past the retry bound abandons the episode with the reason; the rerun continues it from the failed turn', async () => {
    // Turn 2 (its note says where the reference plan is) fails for good: past 3 attempts.
    server.script = (req) => (/ref-step [1-9]/.test(promptSection(req.text, HEADINGS.note) ?? '') ? { fault: 'reset-mid-body' } : reference(req));
    const first = await run([ID], { agentOpts: { apiAttempts: 3 } });
    const out = join(tmp, `run-${runs}`);
    const e = first.episodes[0];
    expect(e.abandoned).to.equal(true);
    expect(e.score).to.equal(0);
    expect(e.abandonReason).to.match(/gave up after 3 attempts; last: the connection was dropped while reading the response body/);
    expect(turnsOf(out)).to.have.length(2);

    // --keep-abandoned reuses it as it is.
    server.script = reference;
    let n0 = server.requests.length;
    const kept = await runInstances({ instances: [ID], makeAgent: () => OpenAIAgent.fromOptions({ baseUrl: server.url, model: 'scripted' }, { OPENAI_API_KEY: KEY }), mode: BLIND, out, keepAbandoned: true });
    expect(server.requests.length - n0).to.equal(0);
    expect(kept.episodes[0].abandoned).to.equal(true);

    // By default it is retried from the turn that failed; turn 1 is replayed, not asked again.
    const notices: string[] = [];
    n0 = server.requests.length;
    const retried = await runInstances({ instances: [ID], makeAgent: () => OpenAIAgent.fromOptions({ baseUrl: server.url, model: 'scripted' }, { OPENAI_API_KEY: KEY }), mode: BLIND, out, onNotice: (m) => notices.push(m) });
    expect(server.requests.length - n0).to.equal(1);
    expect(retried.episodes[0]).to.deep.equal(clean.entry);
    expect(notices.join('\n')).to.match(/retrying the abandoned episode from turn 2/);
    expect(existsSync(join(out, 'episodes', ID, 'log.abandoned-1.jsonl'))).to.equal(true);
  });

  for (const status of [401, 403]) {
    it(`HTTP ${status} stops the run at once with a clear message free of the key; the rerun with a good key continues`, async () => {
      server.script = () => ({ status, message: `key ${KEY} (${Buffer.from(KEY).toString('base64')}) is not allowed here` });
      const out = freshDir();
      const n0 = server.requests.length;
      let thrown: unknown;
      try {
        await runInstances({ instances: FOUR.slice(0, 2), makeAgent: () => OpenAIAgent.fromOptions({ baseUrl: server.url, model: 'scripted' }, { OPENAI_API_KEY: KEY }), mode: BLIND, out });
      } catch (err) {
        thrown = err;
      }
      expect(thrown).to.be.instanceOf(SpaceActError);
      const message = (thrown as Error).message;
      expect(message).to.match(new RegExp(`refused the API key from OPENAI_API_KEY \\(HTTP ${status} .*the run stopped`));
      expect(message).to.not.include(KEY.slice(-8));
      expect(message).to.not.include(Buffer.from(KEY).toString('base64').slice(8, 24));
      // One request: not retried, and the second episode never started.
      expect(server.requests.length - n0).to.equal(1);
      const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as RunSummary;
      expect(summary.episodes).to.deep.equal([]);
      expect(summary.unfinished).to.deep.equal(FOUR.slice(0, 2));
      expect(summary.stopped!.reason).to.equal('error');
      expect(turnsOf(out, FOUR[0])).to.have.length(0);

      server.script = reference;
      const again = await runInstances({ instances: FOUR.slice(0, 2), makeAgent: () => OpenAIAgent.fromOptions({ baseUrl: server.url, model: 'scripted' }, { OPENAI_API_KEY: KEY }), mode: BLIND, out });
      expect(again.episodes.map((x) => x.solved)).to.deep.equal([true, true]);
    });
  }

  it('the circuit breaker stops a run after N episodes in a row are abandoned; abandoned ones are retried on rerun unless kept', async () => {
    server.script = () => ({ status: 400, message: 'this model does not accept images' });
    const out = freshDir();
    const opts = { instances: FOUR, mode: BLIND, out, makeAgent: () => OpenAIAgent.fromOptions({ baseUrl: server.url, model: 'scripted' }, { OPENAI_API_KEY: KEY }) };
    let n0 = server.requests.length;
    const first = await runInstances({ ...opts, abandonLimit: 2 });
    expect(server.requests.length - n0).to.equal(2);
    expect(first.stopped!.reason).to.equal('abandonments');
    expect(first.stopped!.message).to.match(/stopped after 2 episodes in a row were abandoned \(last: HTTP 400 .*does not accept images\)/);
    expect(first.episodes.map((e) => [e.instance, e.abandoned])).to.deep.equal([[FOUR[0], true], [FOUR[1], true]]);
    expect(first.unfinished).to.deep.equal(FOUR.slice(2));

    // Healthy again, keeping the abandoned ones: only the unfinished two are asked for.
    server.script = reference;
    n0 = server.requests.length;
    const kept = await runInstances({ ...opts, keepAbandoned: true });
    const askedKept = new Set(server.requests.slice(n0).map((r) => promptSection(r.text, HEADINGS.task)));
    expect(kept.stopped).to.equal(undefined);
    expect(kept.episodes.map((e) => [e.instance, e.abandoned, e.solved])).to.deep.equal([
      [FOUR[0], true, false], [FOUR[1], true, false], [FOUR[2], false, true], [FOUR[3], false, true],
    ]);
    expect(askedKept.size).to.equal(2);

    // Without --keep-abandoned they are retried, and the breaker counts only this run's episodes.
    n0 = server.requests.length;
    const retried = await runInstances({ ...opts, abandonLimit: 1 });
    expect(retried.episodes.every((e) => e.solved && !e.abandoned)).to.equal(true);
    // The two abandoned episodes had no good turn before the failure: each is asked for whole
    // (P6-L1-s103 in the clean run's requests, V1-L1-s100's answer in one).
    expect(server.requests.length - n0).to.equal(clean.requests + 1);
  });

  it('a 20 MiB refused reply is stored clipped with its length, and the report stays small', async () => {
    const huge = 'x'.repeat(20 * 1024 * 1024);
    let refusals = 0;
    server.script = (req) => (refusals++ < 3 ? { content: huge } : reference(req));
    const summary = await run([ID]);
    const out = join(tmp, `run-${runs}`);
    expect(summary.episodes[0].invalidReplies).to.equal(3);
    const t1 = turnsOf(out)[0];
    expect(t1.reply.requests!.map((r) => r.rawChars)).to.deep.equal([huge.length, huge.length, huge.length]);
    for (const r of t1.reply.requests!) expect(r.raw!.length).to.be.lessThan(17_000);
    const logBytes = readFileSync(join(out, 'episodes', ID, 'log.jsonl')).length;
    expect(logBytes).to.be.lessThan(256 * 1024);
    const { writeReport } = await import('../report/html.ts');
    const report = await writeReport(out);
    expect(readFileSync(report).length).to.be.lessThan(1024 * 1024);
  });

  it('a 300,000-character field name is echoed clipped, with its length, and does not grow later prompts', async () => {
    const name = 'f'.repeat(300_000);
    let bad = 0;
    server.script = (req) => (bad++ < 3 ? { content: JSON.stringify({ rationale: 'r', note: 'n', actions: [{ tool: 'move', args: { from: 'A', to: 'B' } }], [name]: 1 }) } : reference(req));
    const n0 = server.requests.length;
    await run([ID]);
    const asked = server.requests.slice(n0);
    const out = join(tmp, `run-${runs}`);
    const problems = turnsOf(out)[0].reply.refused!.join('\n');
    expect(problems).to.match(/"f{60}…" \(300000 characters\)/);
    expect(problems.length).to.be.lessThan(1000);
    // The re-asks quote the problem clipped (the echoed reply itself is cut at 20,000 characters).
    expect(asked[1].lastUserText.length).to.be.lessThan(1000);
    // Turn 2 repeats the refusal in its history: clipped, so its prompt is barely longer than turn 1's.
    expect(asked[3].text.length - asked[0].text.length).to.be.lessThan(2000);
  });

  it('a key reflected by the endpoint in any encoding is in no file and no reason; the replies still run', async () => {
    const b64 = Buffer.from(`Bearer ${KEY}`).toString('base64');
    const url = [...Buffer.from(KEY)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
    const split = KEY.match(/.{1,4}/g)!.join(' ');
    const hex = Buffer.from(KEY).toString('hex');
    let n = 0;
    server.script = async (req) => {
      n += 1;
      if (n === 1) return { status: 500, message: `upstream saw authorization ${b64} and ${split}` };
      const good = (await reference(req)) as { content: string };
      const reply = JSON.parse(good.content) as { rationale: string; note: string };
      reply.rationale = `your key is ${req.bearer}, or ${b64}, or ${url}, or ${split}`;
      reply.note = `${reply.note} ${hex}`;
      return { content: JSON.stringify(reply) };
    };
    const cache = join(tmp, 'cache-secrets');
    const out = freshDir();
    const mk = (): OpenAIAgent => OpenAIAgent.fromOptions({ baseUrl: server.url, model: 'scripted', backoffBase: 0.001, backoffCap: 0.005, cache }, { OPENAI_API_KEY: KEY });
    const solved = await runInstances({ instances: [ID], makeAgent: mk, mode: BLIND, out: out });
    expect(solved.episodes[0].solved, JSON.stringify(solved.episodes[0])).to.equal(true);
    // A rejection quoting the key URL-encoded and split abandons the next episode: its reason is clean.
    server.script = () => ({ status: 400, message: `bad request for key ${url} / ${split}` });
    const abandoned = await runInstances({ instances: [FOUR[1]], makeAgent: mk, mode: BLIND, out, abandonLimit: 0 });
    const reason = abandoned.episodes.find((e) => e.instance === FOUR[1])!.abandonReason!;
    expect(reason).to.match(/HTTP 400 .*bad request for key \[key\]/);

    // Every form of the key, and every 8-character piece of each, is absent from every file.
    const forms = [KEY, hex, url, url.toLowerCase(), ...[0, 1, 2].map((pad) => Buffer.concat([Buffer.alloc(pad), Buffer.from(KEY)]).toString('base64').slice(4, -4))];
    const pieces = forms.flatMap((f) => Array.from({ length: f.length - 7 }, (_, i) => f.slice(i, i + 8)));
    const alnum = KEY.replace(/[^A-Za-z0-9]/g, '');
    for (const f of [...filesUnder(out), ...filesUnder(cache)]) {
      const text = readFileSync(f, 'latin1');
      for (const p of pieces) expect(text.includes(p), `${f} holds ${p}`).to.equal(false);
      const letters = text.replace(/[^A-Za-z0-9]/g, '');
      for (let i = 0; i + 10 <= alnum.length; i++) expect(letters.includes(alnum.slice(i, i + 10)), `${f} holds the key split up`).to.equal(false);
    }
  });
});
