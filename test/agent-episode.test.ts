import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EpisodeLog, type LogTurn } from '../agents/episode-log.ts';
import { parseMode } from '../agents/modes.ts';
import { runInstances, type RunOptions, type RunSummary } from '../agents/runner.ts';
import { RandomAgent } from '../agents/random-agent.ts';
import type { Observation } from '../agents/types.ts';
import { familyAndInstanceFromId } from '../tasks/registry.ts';
import { HEADINGS } from '../agents/prompt.ts';
import { promptSection, referenceScript, replyText, ScriptedOpenAIServer, type Script } from './support/openai-server.ts';

const KEY = 'sk-Epis0-fake-Vb6Nm2Qw9Er4';

function readTurns(out: string, id: string): LogTurn[] {
  return new EpisodeLog(out, id).read().turns;
}

/** A log turn without the fields that are wall-clock measurements. */
function stable(t: LogTurn): unknown {
  return JSON.parse(JSON.stringify(t), (k, v) => (k === 'ms' ? undefined : v));
}

describe('model agent and baselines through the episode loop', function () {
  let server: ScriptedOpenAIServer;
  let tmp: string;
  // P6-L1-s103 takes seven moves (two turns of five calls); P6 L1 draws 4–7 moves.
  const ids = ['P6-L1-s103', 'P6-L3-s100'];
  const savedKey = process.env.OPENAI_API_KEY;

  before(async () => {
    server = await ScriptedOpenAIServer.start(referenceScript(ids), { apiKey: KEY });
    tmp = mkdtempSync(join(tmpdir(), 'spaceact-episode-'));
    process.env.OPENAI_API_KEY = KEY;
  });
  after(async () => {
    await server.close();
    rmSync(tmp, { recursive: true, force: true });
    if (savedKey === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = savedKey;
  });

  function run(out: string, over: Partial<RunOptions> & { options?: Record<string, unknown>; agentName?: string } = {}): Promise<RunSummary> {
    const { options, agentName, ...rest } = over;
    return runInstances({
      instances: ['P6-L1-s103'],
      agent: { name: agentName ?? 'openai', options: agentName && agentName !== 'openai' ? (options ?? {}) : { baseUrl: server.url, model: 'scripted', backoffBase: 0.001, backoffCap: 0.01, ...options } },
      mode: parseMode('default'),
      out: join(tmp, out),
      ...rest,
    });
  }

  it('solves P6-L1 with a model playing the reference, logging images, requests and tokens', async () => {
    server.script = referenceScript(ids);
    const n0 = server.requests.length;
    const summary = await run('ref');
    const e = summary.episodes[0];
    expect(e.solved).to.equal(true);
    expect(e.actions).to.equal(7);
    expect(e.turns).to.equal(2);
    expect(e.inputTokens).to.be.greaterThan(0);
    expect(e.outputTokens).to.be.greaterThan(0);
    expect(summary.totals.inputTokens).to.equal(e.inputTokens);
    expect(summary.agent.name).to.equal('openai:scripted');
    expect(server.requests.length - n0).to.equal(2);
    // Turn 1 shows the current view; turn 2 also the view kept from turn 1 (history images, m = 1).
    expect(server.requests.slice(n0).map((r) => r.images.length)).to.deep.equal([1, 2]);
    expect(server.imageProblems).to.deep.equal([]);
    const turns = readTurns(join(tmp, 'ref'), 'P6-L1-s103');
    expect(turns).to.have.length(2);
    const t1 = turns[0];
    expect(t1.reply.requests![0].usage!.inputTokens).to.be.greaterThan(0);
    expect(t1.reply.raw).to.be.a('string');
    expect(t1.reply.requestDigest).to.match(/^[0-9a-f]{16}$/);
    expect(existsSync(join(tmp, 'ref', 'episodes', 'P6-L1-s103', t1.images[0].file))).to.equal(true);
    const header = new EpisodeLog(join(tmp, 'ref'), 'P6-L1-s103').read().header!;
    expect(header.agent.settings).to.include({ model: 'scripted', baseURL: server.url, apiKeyEnv: 'OPENAI_API_KEY' });
    expect(JSON.stringify(header)).to.not.include(KEY);
    // The second request carried the note the model wrote on turn 1.
    expect(promptSection(server.requests[n0 + 1].text, HEADINGS.note)).to.match(/^ref-step 5/);
  });

  it('a turn with no valid reply runs no calls, and the model sees why on the next turn', async () => {
    const ref = referenceScript(ids);
    const script: Script = (req) => (req.text.includes('Turn 1;') ? { content: replyText([{ tool: 'move', args: { from: 'A', to: 'Z' } }]) } : ref(req));
    server.script = script;
    const n0 = server.requests.length;
    const summary = await run('refused');
    const e = summary.episodes[0];
    expect(e.solved).to.equal(true);
    expect(e.invalidReplies).to.equal(3);
    expect(e.turns).to.equal(3);
    const turns = readTurns(join(tmp, 'refused'), 'P6-L1-s103');
    expect(turns[0].results).to.deep.equal([]);
    expect(turns[0].reply.refused!.join()).to.match(/\/actions\/0: move args \/to: must be one of/);
    expect(turns[0].reply.requests).to.have.length(3);
    const next = server.requests.slice(n0).find((r) => r.text.includes('Turn 2;'))!;
    expect(next.text).to.match(/Turn 1:\n {2}No valid reply, so no calls ran/);
  });

  it('blind mode sends no images; an abandoned episode scores 0 and is marked', async () => {
    server.script = referenceScript(ids);
    const n0 = server.requests.length;
    const blind = await run('blind', { mode: parseMode('blind') });
    expect(blind.episodes[0].solved).to.equal(true);
    expect(server.requests.slice(n0).every((r) => r.images.length === 0 && /no pictures in this episode/.test(r.text))).to.equal(true);
    server.script = () => ({ status: 503, message: 'down' });
    const down = await run('down', { options: { apiAttempts: 2 } });
    expect(down.episodes[0]).to.include({ abandoned: true, score: 0, endReason: 'abandoned', solved: false });
    expect(down.episodes[0].abandonReason).to.match(/gave up after 2 attempts/);
    expect(down.totals.abandoned).to.equal(1);
  });

  it('a cost limit stops after the turn in flight, leaves the episode resumable, and says so', async () => {
    server.script = referenceScript(ids);
    const prices = join(tmp, 'prices.json');
    writeFileSync(prices, JSON.stringify({ scripted: { input_per_mtok: 1000, output_per_mtok: 1000 } }));
    // Images play no part in cost accounting: no renderer, to keep the test quick.
    const full = await run('cost-full', { instances: ids, options: { prices }, render: 'never' });
    const perTurn = readTurns(join(tmp, 'cost-full'), 'P6-L1-s103')[0].reply.usage!.cost!;
    expect(perTurn).to.be.greaterThan(0);
    const limited = await run('cost', { instances: ids, options: { prices }, costLimit: perTurn / 2, render: 'never' });
    expect(limited.stopped?.reason).to.equal('cost-limit');
    expect(limited.episodes).to.have.length(0);
    expect(limited.unfinished).to.deep.equal(ids);
    expect(readTurns(join(tmp, 'cost'), 'P6-L1-s103')).to.have.length(1);
    const again = await run('cost', { instances: ids, options: { prices }, costLimit: perTurn / 2, render: 'never' });
    expect(again.stopped?.reason).to.equal('cost-limit');
    expect(readTurns(join(tmp, 'cost'), 'P6-L1-s103')).to.have.length(1);
    const resumed = await run('cost', { instances: ids, options: { prices }, costLimit: 1e9, render: 'never' });
    expect(resumed.stopped).to.equal(undefined);
    expect(resumed.episodes).to.deep.equal(full.episodes);
    expect(resumed.totals).to.deep.equal(full.totals);
  });

  it('random and greedy baselines: reproducible per seed and instance; greedy takes the shortest path on P6', async () => {
    // The random agent is a pure function of (seed, instance, turn): check that directly...
    const { instance } = familyAndInstanceFromId('P6-L1-s103');
    const other = familyAndInstanceFromId('P6-L3-s100').instance;
    const obs = (inst: typeof instance, turn: number): Observation => ({
      turn, turnsLeft: 100 - turn + 1, actionCap: 5, instance: inst, tools: inst.tools, images: [], history: [], note: '', worldTime: 0, mode: parseMode('default'),
    });
    const draw = async (seed: number, inst: typeof instance): Promise<unknown[]> => {
      const a = RandomAgent.fromOptions({ seed: String(seed) });
      a.start({ instance: inst, tools: inst.tools, mode: parseMode('default'), preview: () => { throw new Error('unused'); } });
      const out: unknown[] = [];
      for (let t = 1; t <= 20; t++) out.push((await a.act(obs(inst, t))).actions);
      return out;
    };
    const first = await draw(0, instance);
    expect(await draw(0, instance)).to.deep.equal(first);
    expect(await draw(7, instance)).to.not.deep.equal(first);
    expect(await draw(0, other)).to.not.deep.equal(first);
    const tools = new Set((first as Array<Array<{ tool: string }>>).flat().map((c) => c.tool));
    expect([...tools].sort()).to.deep.equal(instance.tools.map((t) => t.name).sort());
    // ...and once through the loop, where a rerun repeats the episode exactly.
    const a = await run('rand-a', { agentName: 'random', render: 'never' });
    const b = await run('rand-b', { agentName: 'random', render: 'never' });
    expect(a.episodes).to.deep.equal(b.episodes);
    expect(readTurns(join(tmp, 'rand-a'), 'P6-L1-s103').map((t) => t.stateHash)).to.deep.equal(readTurns(join(tmp, 'rand-b'), 'P6-L1-s103').map((t) => t.stateHash));
    const g = await run('greedy', { agentName: 'greedy', render: 'never' });
    const ge = g.episodes[0];
    expect(ge.solved).to.equal(true);
    expect(ge.actions).to.equal(ge.referenceActions);
    const gTurns = readTurns(join(tmp, 'greedy'), 'P6-L1-s103');
    expect(gTurns.every((t) => t.reply.actions.length === 1 && t.reply.actions[0].tool === 'move')).to.equal(true);
    expect(gTurns.every((t) => t.results[0].status === 'ok')).to.equal(true);
  });

  it('--concurrency 2 writes the same logs and summary as a serial run', async () => {
    server.script = referenceScript(ids);
    const serial = await run('serial', { instances: ids });
    const parallel = await run('parallel', { instances: ids, concurrency: 2 });
    expect(parallel).to.deep.equal(serial);
    expect(JSON.parse(readFileSync(join(tmp, 'parallel', 'summary.json'), 'utf8'))).to.deep.equal(serial);
    for (const id of ids) {
      expect(readTurns(join(tmp, 'parallel'), id).map(stable)).to.deep.equal(readTurns(join(tmp, 'serial'), id).map(stable));
    }
  });
});
