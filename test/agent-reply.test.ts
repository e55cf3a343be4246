import { expect } from 'chai';
import { backoffMs, classifyApiError, SecretScrubber, scrubSecret } from '../agents/api-faults.ts';
import { parseMode } from '../agents/modes.ts';
import { buildTurnMessages, HEADINGS, systemText } from '../agents/prompt.ts';
import { checkReply, clipProblem, jsonCandidates, MAX_NOTE_CHARS } from '../agents/reply-parser.ts';
import { enumerateSchema, sampleCall, sampleSchema } from '../agents/schema-sampler.ts';
import type { HistoryEntry, Observation } from '../agents/types.ts';
import { toolCallProblems } from '../tasks/instance-schema.ts';
import { familyAndInstanceFromId } from '../tasks/registry.ts';
import { Rng } from '../core/rng.ts';
import type { ToolSpec } from '../tasks/types.ts';

const { instance } = familyAndInstanceFromId('P6-L1-s100');
const ctx = { tools: instance.tools, actionCap: 5, noteRequired: true };
const move = { tool: 'move', args: { from: 'A', to: 'B' } };
const ok = (actions: unknown[] = [move]): string => JSON.stringify({ rationale: 'r', note: 'n', actions });

function problemsOf(text: string, c = ctx): string[] {
  const r = checkReply(text, c);
  expect(r.ok, `expected a refusal of ${String(text).slice(0, 80)}`).to.equal(false);
  return r.ok ? [] : r.problems;
}

/** A one-pixel PNG is enough to stand for an observation in prompt tests. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

function observation(over: Partial<Observation> = {}): Observation {
  return {
    turn: 3,
    turnsLeft: 98,
    actionCap: 5,
    instance,
    tools: instance.tools,
    images: [{ kind: 'view', png: PNG, caption: 'Current view.' }],
    history: [],
    note: 'disk 1 is red',
    worldTime: 1.5,
    mode: parseMode('default'),
    ...over,
  };
}

function userText(obs: Observation, k = 8): { text: string; images: number } {
  const msgs = buildTurnMessages(obs, { historyTurns: k });
  const parts = msgs[1].content as Array<{ type: string; text?: string }>;
  return { text: parts.filter((p) => p.type === 'text').map((p) => p.text).join('\n'), images: parts.filter((p) => p.type === 'image_url').length };
}

describe('agent replies: checking', () => {
  it('accepts a valid reply and returns exactly its calls', () => {
    const r = checkReply(ok([move, { tool: 'zoom', args: { factor: 2 } }]), ctx);
    expect(r).to.deep.equal({ ok: true, reply: { rationale: 'r', note: 'n', actions: [move, { tool: 'zoom', args: { factor: 2 } }] } });
  });

  it('tolerates a code fence, prose before and trailing text, without changing values', () => {
    for (const text of [
      `Here is my answer:\n\`\`\`json\n${ok()}\n\`\`\`\nThanks.`,
      `I will move the disk. ${ok()} That is all {not json}.`,
      `\`\`\`\n${ok()}\n\`\`\``,
    ]) {
      const r = checkReply(text, ctx);
      expect(r.ok, text).to.equal(true);
      if (r.ok) expect(r.reply.actions).to.deep.equal([move]);
    }
    // Braces inside strings do not confuse the scan.
    const tricky = `note: ${JSON.stringify({ rationale: 'a } and { b', note: '}{', actions: [move] })} end`;
    expect(checkReply(tricky, ctx).ok).to.equal(true);
  });

  it('refuses malformed JSON, NaN and Infinity with a message saying why', () => {
    expect(problemsOf('{"rationale": "r", "note": "n", "actions": [')[0]).to.match(/no valid JSON object/);
    expect(problemsOf('{"rationale":"r","note":"n","actions":[{"tool":"zoom","args":{"factor":NaN}}]}')[0]).to.match(/NaN and Infinity are not JSON/);
    expect(problemsOf('I would rather not answer.')[0]).to.match(/no JSON object/);
    expect(problemsOf('')[0]).to.match(/empty/);
    expect(problemsOf(null as unknown as string)[0]).to.match(/empty/);
  });

  it('never coerces types and never drops unknown fields', () => {
    const p = problemsOf(ok([{ tool: 'zoom', args: { factor: '2' } }]));
    expect(p.join('\n')).to.match(/actions\/0: zoom args \/factor: must be number/);
    expect(problemsOf(JSON.stringify({ rationale: 'r', note: 'n', actions: [move], mood: 'happy' })).join('\n')).to.match(/unexpected field "mood"/);
    expect(problemsOf(ok([{ tool: 'move', args: { from: 'A', to: 'B' }, why: 'x' }])).join('\n')).to.match(/unexpected field "why"/);
    expect(problemsOf(ok([{ tool: 'move', args: { from: 'A', to: 'B', speed: 1 } }])).join('\n')).to.match(/unexpected field "speed"/);
    expect(problemsOf(JSON.stringify({ rationale: 3, note: 'n', actions: [move] })).join('\n')).to.match(/rationale: must be string/);
  });

  it('refuses unknown tools, missing fields and wrong enum values, listing every problem', () => {
    const p = problemsOf(ok([{ tool: 'teleport', args: {} }, { tool: 'move', args: { from: 'D', to: 'B' } }, { tool: 'move' }]));
    const all = p.join('\n');
    expect(all).to.match(/actions\/0: unknown tool "teleport"/);
    expect(all).to.match(/actions\/1: move args \/from: must be one of \["A","B","C"\]/);
    expect(all).to.match(/actions\/2: must have required property 'args'/);
    expect(problemsOf(JSON.stringify({ rationale: 'r', actions: [move] })).join('\n')).to.match(/required property 'note'/);
  });

  it('holds the per-turn cap: six calls are refused, and cap1 refuses two', () => {
    expect(problemsOf(ok(Array(6).fill(move))).join('\n')).to.match(/at most 5 calls per turn/);
    expect(problemsOf(ok([move, move]), { ...ctx, actionCap: 1 }).join('\n')).to.match(/at most 1 call per turn/);
    expect(problemsOf(ok([])).join('\n')).to.match(/must NOT have fewer than 1 items/);
    expect(checkReply(ok(Array(5).fill(move)), ctx).ok).to.equal(true);
  });

  it('survives hostile replies: deep nesting, huge text, a long note', () => {
    const deep = `{"rationale":"r","note":"n","actions":[{"tool":"move","args":{"from":${'['.repeat(100000)}${']'.repeat(100000)}}}]}`;
    expect(problemsOf(deep).join('\n')).to.match(/nested deeper/);
    expect(problemsOf('x'.repeat(500_000))[0]).to.match(/characters long/);
    expect(problemsOf(JSON.stringify({ rationale: 'r', note: 'n'.repeat(MAX_NOTE_CHARS + 1), actions: [move] })).join('\n')).to.match(/note: must NOT have more than/);
    expect(jsonCandidates('{'.repeat(1000)).length).to.be.lessThan(20);
  });

  it('executes the last valid top-level object: a move discussed while thinking, or shown as an example, is not run', () => {
    const discussed = JSON.stringify({ rationale: 'maybe', note: 'n', actions: [{ tool: 'move', args: { from: 'A', to: 'C' } }] });
    const think = `<think>I could send ${discussed}, but B is better.</think>\nAnswer: ${ok()}`;
    const r1 = checkReply(think, ctx);
    expect(r1.ok && r1.reply.actions).to.deep.equal([move]);
    // Only a thinking block, nothing after it: no answer at all, never the discussed move.
    expect(problemsOf(`<think>${discussed}</think>`)[0]).to.match(/no JSON object found in the reply outside the thinking block/);
    // A thinking block opened by the template (only its end in the reply), and one never closed.
    const r2 = checkReply(`so ${discussed} is tempting</think>${ok()}`, ctx);
    expect(r2.ok && r2.reply.actions).to.deep.equal([move]);
    const r6 = checkReply(`${ok()}<thinking>or rather ${discussed}`, ctx);
    expect(r6.ok && r6.reply.actions).to.deep.equal([move]);
    // An example of the format before the real answer: the last valid object wins.
    const example = `The format is ${JSON.stringify({ rationale: 'example', note: '', actions: [{ tool: 'move', args: { from: 'A', to: 'C' } }] })}. Mine: ${ok()}`;
    const r3 = checkReply(example, ctx);
    expect(r3.ok && r3.reply.actions).to.deep.equal([move]);
    // A valid answer followed by a broken afterthought is still the answer; two broken ones report the last.
    const r4 = checkReply(`${ok()} and also {"actions": [}`, ctx);
    expect(r4.ok).to.equal(true);
    const two = problemsOf(`${ok([{ tool: 'teleport', args: {} }])} ${ok([{ tool: 'zoom', args: { factor: 'x' } }])}`);
    expect(two.join('\n')).to.match(/zoom args \/factor: must be number/);
    expect(two.join('\n')).to.match(/2 JSON objects were found and none is a valid reply/);
    expect(two.join('\n')).to.not.match(/teleport/);
    // An unbalanced brace in prose does not hide the object after it.
    const r5 = checkReply(`I think {the answer is this: ${ok()}`, ctx);
    expect(r5.ok).to.equal(true);
  });

  it('clips echoed names and long problems, saying how long they were', () => {
    const name = 'q'.repeat(5000);
    const p = problemsOf(JSON.stringify({ rationale: 'r', note: 'n', actions: [move], [name]: 1 }));
    expect(p.join('\n')).to.match(/unexpected field "q{60}…" \(5000 characters\)/);
    expect(p.join('\n').length).to.be.lessThan(400);
    expect(clipProblem(`a "short" name and ${'x'.repeat(1000)}`)).to.match(/^a "short" name and x+… \[1019 characters in all\]$/);
    // Quotes pair in order: prose between two short names is never taken for a name.
    const prose = `unknown tool "ab"; ${'words '.repeat(30)}"cd"`;
    expect(clipProblem(prose)).to.equal(prose);
  });

  it('lets the note be left out under nonote', () => {
    expect(checkReply(JSON.stringify({ rationale: 'r', actions: [move] }), { ...ctx, noteRequired: false }).ok).to.equal(true);
  });
});

describe('agent replies: prompt', () => {
  it('shows rules, tools with schemas, note, world time, turns left, cap and images with captions', () => {
    const { text, images } = userText(observation());
    expect(text).to.include(instance.rules);
    expect(text).to.include('- move [discrete]:');
    expect(text).to.include('args schema: {"type":"object","properties":{"from":{"enum":["A","B","C"]}');
    expect(text).to.include(`${HEADINGS.note}\ndisk 1 is red`);
    expect(text).to.include('World time: 1.50 s.');
    expect(text).to.include('Turn 3; 98 turns left');
    expect(text).to.include('Send 1 to 5 calls this turn.');
    expect(text).to.include('[Current view.]');
    expect(images).to.equal(1);
    expect(text).to.not.include(HEADINGS.plan);
  });

  it('honours the modes: blind, nonote, plan, state, cap1, no-camera, nosplit', () => {
    const blind = userText(observation({ mode: parseMode('blind'), images: [] }));
    expect(blind.images).to.equal(0);
    expect(blind.text).to.match(/no pictures in this episode/);
    const nonote = userText(observation({ mode: parseMode('nonote'), note: '' }));
    expect(nonote.text).to.not.include(HEADINGS.note);
    expect(systemText({ mode: parseMode('nonote'), actionCap: 5 })).to.not.include('"note"');
    const plan = userText(observation({ mode: parseMode('plan'), plan: 'Move A to C.' }));
    expect(plan.text).to.include(`${HEADINGS.plan}\nMove A to C.`);
    const state = userText(observation({ mode: parseMode('state'), plan: 'P', state: 'Peg A: disk 1' }));
    expect(state.text).to.include(`${HEADINGS.state}\nPeg A: disk 1`);
    const cap1 = userText(observation({ mode: parseMode('cap1'), actionCap: 1 }));
    expect(cap1.text).to.include('Send exactly 1 call this turn.');
    expect(systemText({ mode: parseMode('cap1'), actionCap: 1 })).to.include('exactly 1 call');
    const locked = userText(observation({ mode: parseMode('no-camera'), tools: instance.tools.filter((t) => t.kind !== 'perception') }));
    expect(locked.text).to.match(/camera is fixed/);
    expect(locked.text).to.not.include('- orbit [');
    expect(systemText({ mode: parseMode('nosplit'), actionCap: 5 })).to.not.match(/split picture/);
    expect(systemText({ mode: parseMode('default'), actionCap: 5 })).to.match(/split picture/);
  });

  it('shows the last k turns with results and violations, images only where the loop kept them', () => {
    const history: HistoryEntry[] = Array.from({ length: 10 }, (_, i) => ({
      turn: i + 1,
      rationale: `thought ${i + 1}`,
      results: [
        { call: move, status: 'ok', kind: 'discrete', message: 'moved', timeBefore: i, timeAfter: i + 0.5 },
        { call: move, status: 'violation', kind: 'discrete', message: 'disk on smaller disk', violation: { kind: 'rule', bodies: [], message: 'x' }, timeBefore: i + 0.5, timeAfter: i + 0.5 },
      ],
    }));
    history[9].images = [{ kind: 'rollback', png: PNG, caption: 'Left: violation.' }];
    history[8].refused = ['/actions/0: unknown tool "fly"'];
    const { text, images } = userText(observation({ history }), 3);
    expect(text).to.include('(7 older turns not shown.)');
    expect(text).to.not.include('thought 7');
    expect(text).to.include('Turn 8:');
    expect(text).to.include('"thought 8"');
    expect(text).to.include('FAILED, undone (rule): disk on smaller disk');
    expect(text).to.include('(world time 7.00 s → 7.50 s)');
    expect(text).to.match(/Turn 9:\n {2}No valid reply, so no calls ran[^\n]*\n {4}- \/actions\/0: unknown tool "fly"/);
    expect(text).to.include('[Left: violation.]');
    expect(images).to.equal(2);
  });

  it('is a pure function of the observation', () => {
    expect(JSON.stringify(buildTurnMessages(observation(), { historyTurns: 8 }))).to.equal(JSON.stringify(buildTurnMessages(observation(), { historyTurns: 8 })));
  });
});

describe('agent replies: schema sampling', () => {
  const tools: ToolSpec[] = [
    ...instance.tools,
    {
      name: 'place',
      kind: 'physical',
      description: 'test tool',
      parameters: {
        type: 'object',
        required: ['part', 'at', 'yaw_deg', 'count', 'flip', 'frame'],
        additionalProperties: false,
        properties: {
          part: { type: 'string', enum: ['a', 'b'] },
          at: { type: 'array', items: { type: 'number', minimum: -0.5, maximum: 0.5 }, minItems: 3, maxItems: 3 },
          yaw_deg: { type: 'number', minimum: -180, exclusiveMaximum: 180, multipleOf: 15 },
          count: { type: 'integer', minimum: 1, maximum: 4 },
          flip: { type: 'boolean' },
          frame: { type: 'object', required: ['name'], additionalProperties: false, properties: { name: { const: 'world' }, tilt: { type: 'number' } } },
          label: { type: 'string', minLength: 2 },
        },
      },
    },
  ];

  it('draws only schema-valid calls, for every tool, reproducibly', () => {
    const rng = new Rng('sampler-test');
    const drawn: unknown[] = [];
    for (let i = 0; i < 300; i++) {
      const tool = tools[i % tools.length];
      const call = sampleCall(tool, rng, tools);
      expect(call, tool.name).to.not.equal(null);
      expect(toolCallProblems(tools, call)).to.deep.equal([]);
      drawn.push(call);
    }
    const again = new Rng('sampler-test');
    expect(Array.from({ length: 300 }, (_, i) => sampleCall(tools[i % tools.length], again, tools))).to.deep.equal(drawn);
    // Optional fields and enum values are all reached.
    const place = drawn.filter((c) => (c as { tool: string }).tool === 'place') as Array<{ args: Record<string, unknown> }>;
    expect(new Set(place.map((c) => c.args.part))).to.deep.equal(new Set(['a', 'b']));
    expect(place.some((c) => 'label' in c.args) && place.some((c) => !('label' in c.args))).to.equal(true);
    expect(place.every((c) => (c.args.yaw_deg as number) < 180 && Number.isInteger((c.args.yaw_deg as number) / 15))).to.equal(true);
  });

  it('enumerates small discrete schemas and declines continuous ones', () => {
    expect(enumerateSchema(instance.tools[0].parameters)).to.have.length(9);
    expect(enumerateSchema({ type: 'object', required: ['n'], properties: { n: { type: 'integer', minimum: 0, maximum: 2 } } })).to.deep.equal([{ n: 0 }, { n: 1 }, { n: 2 }]);
    expect(enumerateSchema({ type: 'number', minimum: 0, maximum: 1 })).to.equal(null);
    expect(enumerateSchema(tools.at(-1)!.parameters)).to.equal(null);
    expect(sampleSchema({ type: 'integer', minimum: 3, maximum: 3 }, new Rng('x'))).to.equal(3);
  });
});

describe('agent replies: API fault handling', () => {
  it('backs off exponentially within the cap, with reproducible seeded jitter', () => {
    const policy = { attempts: 6, baseMs: 1000, capMs: 30000 };
    const a = [1, 2, 3, 4, 5, 6, 7].map((r) => backoffMs(policy, r, new Rng(`j/${r}`)));
    const b = [1, 2, 3, 4, 5, 6, 7].map((r) => backoffMs(policy, r, new Rng(`j/${r}`)));
    expect(a).to.deep.equal(b);
    a.forEach((ms, i) => {
      const exp = Math.min(30000, 1000 * 2 ** i);
      expect(ms).to.be.within(exp / 2, exp);
    });
    expect(backoffMs(policy, 1, new Rng('x'), 20)).to.equal(20000);
    expect(backoffMs(policy, 1, new Rng('x'), 999)).to.equal(30000);
  });

  it('finds a key quoted back in other encodings: base64 (any alignment), URL-encoded, hex, split up', () => {
    const key = 'sk-proj-Zq81+fake/4Hw9LmXv2T_k';
    const s = new SecretScrubber(key);
    const forms = [
      Buffer.from(key).toString('base64'),
      Buffer.from(`x${key}`).toString('base64'),
      Buffer.from(`Bearer ${key}`).toString('base64url'),
      encodeURIComponent(key),
      [...Buffer.from(key)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
      Buffer.from(key).toString('hex'),
      key.match(/.{1,3}/g)!.join(' '),
      key.split('').join('\n'),
      `"${key.slice(0, 12)}" + "${key.slice(12)}"`,
    ];
    for (const f of forms) {
      const out = s.scrubKey(`before ${f} after`);
      expect(out, f).to.match(/^before .*\[key\].* after$/);
      // Nothing left that decodes back to a piece of the key.
      const decoded = [out, Buffer.from(out.replace(/[^A-Za-z0-9+/=_-]/g, ''), 'base64').toString('latin1'), decodeURIComponent(out.replace(/%(?![0-9a-fA-F]{2})/g, '%25'))];
      for (const d of decoded) for (let i = 0; i + 8 <= key.length; i++) expect(d.includes(key.slice(i, i + 8)), `${f} → ${out}`).to.equal(false);
    }
    // Ordinary text is left alone by the key-only scrub (a model's reply passes through it).
    const prose = 'Move disk 2 from peg A to peg C; the key-frame shows sk- nothing; Bearer of news.';
    expect(s.scrubKey(prose)).to.equal(prose);
    // Reasons get the stronger scrub too.
    expect(scrubSecret('Authorization: Bearer abc.def api_key=zzz123', key)).to.equal('Authorization: Bearer [key] api_key=[key]');
  });

  it('classifies errors the client and the body reader throw', () => {
    const terminated = Object.assign(new TypeError('terminated'), { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
    expect(classifyApiError(terminated, undefined, { bodyStarted: true })).to.deep.include({ kind: 'reset', retry: true, stopRun: false });
    expect(classifyApiError(terminated, undefined, { bodyStarted: false }).kind).to.equal('connection');
    expect(classifyApiError(new SyntaxError('Unexpected end of JSON input'), undefined)).to.deep.include({ kind: 'malformed', retry: true });
    expect(classifyApiError(new Error('boom'), undefined, { deadlineHit: true, deadlineMs: 5000, bodyStarted: true }).reason).to.equal('the request deadline of 5 s passed while reading the response body');
    expect(classifyApiError(new RangeError('bug'), undefined)).to.deep.include({ kind: 'unknown', retry: false });
  });

  it('scrubs a key, pieces of it and masked echoes of it from text', () => {
    const key = 'sk-Zq81-fake-4Hw9LmXv2T';
    const text = `bad key ${key}; Incorrect API key provided: sk-Zq***********Xv2T. header Bearer ${key} tail 4Hw9LmXv`;
    const clean = scrubSecret(text, key);
    expect(clean).to.not.include(key);
    expect(clean).to.not.include('4Hw9LmXv');
    expect(clean).to.not.include('Xv2T');
    expect(clean).to.include('Incorrect API key provided');
  });
});
