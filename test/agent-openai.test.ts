import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { parseMode } from '../agents/modes.ts';
import { OpenAIAgent } from '../agents/openai-agent.ts';
import type { AgentReply, Observation } from '../agents/types.ts';
import { SpaceActError } from '../core/errors.ts';
import { familyAndInstanceFromId } from '../tasks/registry.ts';
import { replyText, ScriptedOpenAIServer, type Script, type ScriptedResponse } from './support/openai-server.ts';

const KEY = 'sk-Unit7-fake-Qm4Rt8Wx2Zp6';
const { instance } = familyAndInstanceFromId('P6-L1-s100');
const move = { tool: 'move', args: { from: 'A', to: 'C' } };
const good = replyText([move], 'note after', 'moving');

let png: Buffer;

function observation(over: Partial<Observation> = {}): Observation {
  return {
    turn: 1,
    turnsLeft: 100,
    actionCap: 5,
    instance,
    tools: instance.tools,
    images: [{ kind: 'view', png, caption: 'Current view.' }],
    history: [],
    note: 'old note',
    worldTime: 0,
    mode: parseMode('default'),
    ...over,
  };
}

/** Answers in order from a list, repeating the last answer when the list runs out. */
function sequence(...answers: ScriptedResponse[]): Script {
  let i = 0;
  return () => answers[Math.min(i++, answers.length - 1)];
}

describe('model agent against an OpenAI-compatible server', function () {
  let server: ScriptedOpenAIServer;
  let tmp: string;

  before(async () => {
    png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } }).png().toBuffer();
    server = await ScriptedOpenAIServer.start(() => ({ content: good }), { apiKey: KEY });
    tmp = mkdtempSync(join(tmpdir(), 'spaceact-agent-'));
  });
  after(async () => {
    await server.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  function agent(opts: Record<string, unknown> = {}, env: Record<string, string> = { OPENAI_API_KEY: KEY }): OpenAIAgent {
    const a = OpenAIAgent.fromOptions({ baseUrl: server.url, model: 'test-model', backoffBase: 0.001, backoffCap: 0.005, ...opts }, env);
    a.start({ instance, tools: instance.tools, mode: parseMode('default'), preview: () => { throw new Error('models never preview'); } });
    return a;
  }

  async function act(script: Script, opts: Record<string, unknown> = {}, obs = observation()): Promise<{ reply: AgentReply; requests: number }> {
    server.script = script;
    const before = server.requests.length;
    const reply = await agent(opts).act(obs);
    return { reply, requests: server.requests.length - before };
  }

  it('sends the turn with PNG data URLs and the key, and returns the checked reply with usage', async () => {
    const { reply, requests } = await act(() => ({ content: good, usage: { prompt_tokens: 1200, completion_tokens: 40 } }));
    expect(requests).to.equal(1);
    expect(reply.actions).to.deep.equal([move]);
    expect(reply.note).to.equal('note after');
    expect(reply.usage).to.deep.equal({ inputTokens: 1200, outputTokens: 40 });
    expect(reply.raw).to.equal(good);
    expect(reply.requests).to.have.length(1);
    expect(reply.invalidReplies ?? 0).to.equal(0);
    const req = server.requests.at(-1)!;
    expect(req.images).to.have.length(1);
    expect(req.images[0].startsWith('data:image/png;base64,')).to.equal(true);
    expect(server.imageProblems).to.deep.equal([]);
    expect(req.body.model).to.equal('test-model');
    expect(req.text).to.include(instance.rules);
    expect(req.text).to.include('old note');
  });

  it('sends temperature, output-token limit and reasoning effort only when set', async () => {
    await act(() => ({ content: good }));
    const plain = server.requests.at(-1)!.body;
    expect(plain).to.not.have.any.keys('temperature', 'max_completion_tokens', 'max_tokens', 'reasoning_effort');
    await act(() => ({ content: good }), { temperature: '0.2', maxOutputTokens: '900', reasoningEffort: 'low' });
    const set = server.requests.at(-1)!.body;
    expect(set).to.include({ temperature: 0.2, max_completion_tokens: 900, reasoning_effort: 'low' });
    await act(() => ({ content: good }), { maxOutputTokens: 700, maxTokensField: 'max_tokens' });
    expect(server.requests.at(-1)!.body).to.include({ max_tokens: 700 });
  });

  it('re-asks after malformed JSON with the problems listed, and counts the refusal', async () => {
    const { reply, requests } = await act(sequence({ content: '{"rationale": "r", "note": "n", "actions": [' }, { content: good }));
    expect(requests).to.equal(2);
    expect(reply.actions).to.deep.equal([move]);
    expect(reply.invalidReplies).to.equal(1);
    const reask = server.requests.at(-1)!;
    expect(reask.lastUserText).to.match(/Your reply was refused[\s\S]*no valid JSON object/);
    expect(reask.body.messages!.at(-2)).to.deep.include({ role: 'assistant', content: '{"rationale": "r", "note": "n", "actions": [' });
    expect(reply.requests![0].problems![0]).to.match(/no valid JSON/);
    expect(reply.requests![0].raw).to.equal('{"rationale": "r", "note": "n", "actions": [');
  });

  it('after three invalid replies (wrong types, NaN, unknown tool) the turn runs no calls and keeps the note', async () => {
    const { reply, requests } = await act(
      sequence(
        { content: replyText([{ tool: 'zoom', args: { factor: '2' } }]) },
        { content: '{"rationale":"r","note":"n","actions":[{"tool":"zoom","args":{"factor":NaN}}]}' },
        { content: replyText([{ tool: 'teleport', args: {} }]) },
      ),
    );
    expect(requests).to.equal(3);
    expect(reply.actions).to.deep.equal([]);
    expect(reply.invalidReplies).to.equal(3);
    expect(reply.note).to.equal('old note');
    expect(reply.refused!.join('\n')).to.match(/unknown tool "teleport"/);
    expect(reply.requests!.map((r) => r.problems![0])).to.satisfy((p: string[]) => /must be number/.test(p[0]) && /NaN/.test(p[1]));
    expect(reply.abandoned).to.equal(undefined);
  });

  it('refuses six calls under the default cap and two under cap1', async () => {
    const six = await act(sequence({ content: replyText(Array(6).fill(move)) }, { content: good }));
    expect(six.reply.invalidReplies).to.equal(1);
    expect(six.reply.requests![0].problems!.join()).to.match(/at most 5 calls/);
    const two = await act(sequence({ content: replyText([move, move]) }, { content: good }), {}, observation({ actionCap: 1, mode: parseMode('cap1') }));
    expect(two.reply.requests![0].problems!.join()).to.match(/at most 1 call/);
    expect(server.requests.at(-1)!.text).to.include('Send exactly 1 call this turn.');
  });

  it('retries 429 and 5xx with backoff, then succeeds', async () => {
    const { reply, requests } = await act(sequence({ status: 429, message: 'slow down' }, { status: 503, message: 'busy' }, { content: good }));
    expect(requests).to.equal(3);
    expect(reply.actions).to.deep.equal([move]);
    expect(reply.apiRetries).to.equal(2);
    expect(reply.abandoned).to.equal(undefined);
  });

  it('abandons after the retry bound when the server fails forever', async () => {
    const { reply, requests } = await act(() => ({ status: 500, message: 'internal error' }), { apiAttempts: 4 });
    expect(requests).to.equal(4);
    expect(reply.abandoned?.reason).to.match(/gave up after 4 attempts; last: HTTP 500/);
    expect(reply.actions).to.deep.equal([]);
  });

  it('times out a slow reply, retries it, and abandons past the bound', async () => {
    const { reply, requests } = await act(() => ({ content: good, delayMs: 3000 }), { timeout: 0.2, apiAttempts: 2 });
    expect(requests).to.equal(2);
    expect(reply.abandoned?.reason).to.match(/gave up after 2 attempts; last: the request deadline of 0.2 s passed/);
    expect(reply.requests![0].faults).to.deep.equal([{ kind: 'timeout', reason: 'the request deadline of 0.2 s passed while waiting for the response headers' }]);
  });

  it('abandons at once on 400; stops the run on 401, with a message free of the key', async () => {
    const bad = await act(() => ({ status: 400, message: 'image too large' }));
    expect(bad.requests).to.equal(1);
    expect(bad.reply.abandoned?.reason).to.match(/HTTP 400.*image too large/);
    server.script = () => ({ content: good });
    const before = server.requests.length;
    let thrown: unknown;
    try {
      await agent({}, { OPENAI_API_KEY: 'sk-Wrong-fake-Hh3Jk5Ll7Nn9' }).act(observation());
    } catch (err) {
      thrown = err;
    }
    expect(server.requests.length - before).to.equal(0); // refused before the script ran
    expect(server.unauthorized).to.be.greaterThan(0);
    expect(thrown).to.be.instanceOf(SpaceActError);
    const message = (thrown as Error).message;
    expect(message).to.match(/refused the API key from OPENAI_API_KEY \(HTTP 401.*Incorrect API key.*the run stopped/);
    expect(message).to.not.match(/Hh3Jk5Ll7Nn9|Ll7Nn9|Wrong-fake|Nn9/);
  });

  it('abandons, never crashes, on a body that is not a chat completion', async () => {
    const { reply } = await act(() => ({ rawBody: 'this is not json' }));
    expect(reply.abandoned?.reason ?? '').to.not.equal('');
  });

  it('computes cost from a price table and answers repeats from the cache without the endpoint', async () => {
    const prices = join(tmp, 'prices.json');
    writeFileSync(prices, JSON.stringify({ 'test-model': { input_per_mtok: 2, output_per_mtok: 8 } }));
    const cache = join(tmp, 'cache');
    const opts = { prices, cache };
    const first = await act(() => ({ content: good, usage: { prompt_tokens: 1_000_000, completion_tokens: 500_000 } }), opts);
    expect(first.requests).to.equal(1);
    expect(first.reply.usage).to.deep.equal({ inputTokens: 1_000_000, outputTokens: 500_000, cost: 6 });
    const second = await act(() => ({ status: 500, message: 'must not be asked' }), opts);
    expect(second.requests).to.equal(0);
    expect(second.reply.actions).to.deep.equal([move]);
    expect(second.reply.requests![0].cached).to.equal(true);
    expect(second.reply.usage!.cost).to.equal(0);
    // A different observation is a different request.
    const third = await act(() => ({ content: good }), opts, observation({ note: 'changed' }));
    expect(third.requests).to.equal(1);
    const files = readdirSync(cache, { recursive: true }).map(String).filter((f) => f.endsWith('.json'));
    expect(files).to.have.length(2);
    for (const f of files) expect(readFileSync(join(cache, f), 'utf8')).to.not.include(KEY);
    expect(statSync(cache).isDirectory()).to.equal(true);
  });

  it('blind: no images are sent and the prompt says so', async () => {
    await act(() => ({ content: good }), {}, observation({ mode: parseMode('blind'), images: [] }));
    const req = server.requests.at(-1)!;
    expect(req.images).to.have.length(0);
    expect(req.text).to.match(/no pictures in this episode/);
  });

  it('refuses bad options and a missing key, naming the variable but never a value', () => {
    expect(() => OpenAIAgent.fromOptions({ model: 'm' }, {})).to.throw(SpaceActError, /OPENAI_API_KEY/);
    expect(() => OpenAIAgent.fromOptions({ model: 'm', apiKeyEnv: 'MY_KEY' }, { OPENAI_API_KEY: KEY })).to.throw(/MY_KEY/);
    expect(() => OpenAIAgent.fromOptions({ baseUrl: server.url }, { OPENAI_API_KEY: KEY })).to.throw(/--model/);
    expect(() => OpenAIAgent.fromOptions({ model: 'm', temperature: '0.5x' }, { OPENAI_API_KEY: KEY })).to.throw(/--temperature must be a number/);
    expect(() => OpenAIAgent.fromOptions({ model: 'm', reasoningEffort: 'max' }, { OPENAI_API_KEY: KEY })).to.throw(/--reasoning-effort/);
    expect(() => OpenAIAgent.fromOptions({ model: 'm', baseUrl: 'http://user:pw@host/v1' }, { OPENAI_API_KEY: KEY })).to.throw(/without credentials/);
    const a = OpenAIAgent.fromOptions({ model: 'm', apiKeyEnv: 'MY_KEY' }, { MY_KEY: KEY });
    expect(JSON.stringify(a.settings)).to.not.include(KEY);
    expect(a.settings.apiKeyEnv).to.equal('MY_KEY');
    expect(a.name).to.equal('openai:m');
  });
});
