/**
 * The shortcut battery on hand-built families: one whose answer is always the same letter, one
 * solved by a fixed firing schedule, and a sound one whose answer and timing move with the seed.
 * The battery must fail the first two by name and pass the third.
 */
import { expect } from 'chai';
import { GreedyAgent } from '../agents/greedy-agent.ts';
import { SightlessAgent } from '../agents/sightless/agent.ts';
import { answerOptions, blindProbe, constantAnswer, firstOption, memorisedPlan, straightLine } from '../agents/sightless/shared.ts';
import { runEpisode } from '../agents/loop.ts';
import { DEFAULT_MODE } from '../agents/modes.ts';
import { SpaceActError } from '../core/errors.ts';
import { makeInstance } from '../tasks/instance.ts';
import { Rng } from '../core/rng.ts';
import { sightlessView, type SightlessStrategy } from '../tasks/sightless.ts';
import type { FamilyEnv, Instance, TaskFamily, Tier, ToolSpec } from '../tasks/types.ts';
import { batteryVerdict, binomialTail, QUICK_BATTERY, quickBatteryProblems, rateInterval, runBattery } from '../verify/battery.ts';

const LETTERS = ['A', 'B', 'C', 'D'];

const ANSWER: ToolSpec = {
  name: 'answer',
  kind: 'final',
  description: 'Commit the letter of the right option.',
  parameters: { type: 'object', properties: { choice: { enum: LETTERS } }, required: ['choice'], additionalProperties: false },
};

interface QuizScene {
  answer: string;
}

/** A one-question family; `answerOf(seed)` decides which letter is right. */
function quizFamily(id: string, answerOf: (seed: number, tier: Tier) => string): TaskFamily<QuizScene> {
  const family: TaskFamily<QuizScene> = {
    id,
    version: 1,
    category: 'V',
    title: 'Quiz',
    summary: 'A hand-built question for the battery tests.',
    tiers: { L1: { levers: [], description: 'one question' } },
    generate(seed, tier) {
      return makeInstance(family, tier, seed, {
        title: 'Quiz',
        rules: 'Pick the right option: A, B, C or D.',
        tools: [ANSWER],
        noCameraTools: true,
        budgets: { turns: 1, actionsPerTurn: 1 },
        camera: { initial: { azimuth: 0, elevation: 30, distance: 1, target: [0, 0, 0] } },
        rulers: [],
        dynamic: false,
        scoring: 'graded',
        scene: { answer: answerOf(seed, tier) },
        reveal: { plan: 'answer' },
      });
    },
    build(instance, world): FamilyEnv {
      return {
        tools: {
          answer(args) {
            world.meta.choice = String(args.choice);
            return `You answered ${String(args.choice)}.`;
          },
        },
        solved: () => world.meta.choice === instance.scene.answer,
        progress: () => 0,
        stateText: () => '',
      };
    },
    reference: (instance) => ({ calls: [{ tool: 'answer', args: { choice: instance.scene.answer } }], method: 'the generator knows' }),
    randomSuccessBound: 0.35,
  };
  return family;
}

interface TimerScene {
  /** Firing window, world seconds. */
  lo: number;
  hi: number;
}

const WAIT: ToolSpec = {
  name: 'wait',
  kind: 'timed',
  description: 'Let time run.',
  parameters: { type: 'object', properties: { seconds: { type: 'number', minimum: 0.05, maximum: 10 } }, required: ['seconds'], additionalProperties: false },
};
const FIRE: ToolSpec = { name: 'fire', kind: 'discrete', description: 'Fire, once.', parameters: { type: 'object', properties: {}, additionalProperties: false } };

/** Fire inside a window; the window's start is `startOf(seed)`, 0.3 s wide. */
function timerFamily(id: string, startOf: (seed: number) => number): TaskFamily<TimerScene> {
  const family: TaskFamily<TimerScene> = {
    id,
    version: 1,
    category: 'T',
    title: 'Timer',
    summary: 'A hand-built timing task for the battery tests.',
    tiers: { L1: { levers: [], description: 'one window' } },
    generate(seed, tier) {
      const lo = startOf(seed);
      return makeInstance(family, tier, seed, {
        title: 'Timer',
        rules: 'Fire once while the lamp is lit, then wait a second.',
        tools: [WAIT, FIRE],
        noCameraTools: true,
        budgets: { turns: 6, actionsPerTurn: 5 },
        camera: { initial: { azimuth: 0, elevation: 30, distance: 1, target: [0, 0, 0] } },
        rulers: [],
        dynamic: false,
        scoring: 'graded',
        scene: { lo, hi: Math.round((lo + 0.3) * 1000) / 1000 },
        reveal: { plan: 'fire in the window' },
      });
    },
    build(instance, world): FamilyEnv {
      const s = instance.scene;
      return {
        tools: {
          wait(args) {
            world.advance(Number(args.seconds));
            return `Now ${world.time.toFixed(2)} s.`;
          },
          fire() {
            if (world.meta.firedAt !== undefined) throw new SpaceActError('invalid-argument', 'already fired');
            world.meta.firedAt = world.time;
            return 'Fired.';
          },
        },
        solved() {
          const t = world.meta.firedAt as number | undefined;
          return t !== undefined && t >= s.lo && t <= s.hi && world.time >= s.hi + 1;
        },
        progress: () => 0,
        stateText: () => '',
        staticsAfter: () => false,
      };
    },
    reference(instance) {
      const s = instance.scene;
      const mid = Math.round(((s.lo + s.hi) / 2) * 240) / 240;
      return { calls: [{ tool: 'wait', args: { seconds: mid } }, { tool: 'fire', args: {} }, { tool: 'wait', args: { seconds: Math.round((s.hi + 1.1 - mid) * 1000) / 1000 } }], method: 'the middle of the window' };
    },
  };
  return family;
}

/** Balanced letters: within every block of four seeds each letter is right once, in an order the seed stream picks. */
function balancedLetter(seed: number): string {
  const perm = new Rng(`battery-test/${Math.floor(seed / 4)}`).shuffle(LETTERS);
  return perm[seed % 4];
}

describe('shortcut battery', function () {
  this.timeout(300_000);

  it('the binomial tail is exact on small cases', () => {
    expect(binomialTail(0, 4, 0.1)).to.equal(1);
    expect(binomialTail(4, 4, 0.25)).to.be.closeTo(0.25 ** 4, 1e-12);
    expect(binomialTail(1, 2, 0.5)).to.be.closeTo(0.75, 1e-12);
  });

  it('the verdict: pass at or under the bound, fail only when significantly over it, inconclusive between; the interval agrees', () => {
    expect(batteryVerdict(0, 10, 0.1)).to.equal('pass');
    expect(batteryVerdict(1, 10, 0.1)).to.equal('pass');
    // Two of ten against 10 %: that many happens 26 % of the time at the bound.
    expect(batteryVerdict(2, 10, 0.1)).to.equal('inconclusive');
    // Always right at six seeds against 35 %: 0.35^6 ≈ 0.2 %.
    expect(batteryVerdict(6, 6, 0.35)).to.equal('fail');
    expect(batteryVerdict(20, 100, 0.1)).to.equal('fail');
    expect(batteryVerdict(13, 100, 0.1)).to.equal('inconclusive');
    // Clopper–Pearson ends, 1 % each side: 0 of 10 reaches 1 − 0.01^(1/10); 10 of 10 starts at 0.01^(1/10).
    expect(rateInterval(0, 10)).to.deep.equal([0, Math.round((1 - 0.01 ** 0.1) * 1e4) / 1e4]);
    expect(rateInterval(10, 10)).to.deep.equal([Math.round(0.01 ** 0.1 * 1e4) / 1e4, 1]);
    // Fail exactly when the interval lies above the bound.
    for (const n of [6, 10, 30, 100]) {
      for (let k = 0; k <= n; k += Math.max(1, Math.floor(n / 10))) {
        for (const bound of [0.05, 0.1, 0.35]) {
          const [lo, hi] = rateInterval(k, n);
          expect(lo).to.be.at.most(k / n);
          expect(hi).to.be.at.least(k / n);
          if (Math.abs(lo - bound) > 1e-3) expect(batteryVerdict(k, n, bound) === 'fail', `${k}/${n} at ${bound}`).to.equal(lo > bound);
        }
      }
    }
  });

  it('agents sitting near their bounds are inconclusive at 10 seeds, not failures; 100 seeds settle it', async () => {
    // A on four seeds in ten, C on the rest: "always A" is right 40 % and "always C" 60 % of the time against a 35 % bound.
    const family = quizFamily('X95', (seed) => (seed % 10 < 4 ? 'A' : 'C'));
    const [few] = await runBattery(family, { seeds: 10, training: 10, strategies: [constantAnswer, firstOption], skip: ['null', 'random'] });
    const verdicts = Object.fromEntries(few.agents.map((a) => [a.name, `${a.successes}/${a.episodes} ${a.verdict}`]));
    expect(verdicts).to.deep.equal({ 'constant-answer': '6/10 inconclusive', 'first-option': '4/10 inconclusive' });
    expect(few.passed).to.equal(true);
    const [many] = await runBattery(family, { seeds: 100, training: 10, strategies: [constantAnswer, firstOption], skip: ['null', 'random'] });
    const byName = Object.fromEntries(many.agents.map((a) => [a.name, a]));
    expect(byName['constant-answer']).to.include({ successes: 60, verdict: 'fail' });
    expect(byName['constant-answer'].interval[0]).to.be.above(0.35);
    expect(many.passed).to.equal(false);
  });

  it('fails a family whose answer is always the same letter, naming the constant-answer agent', async () => {
    const problems = await quickBatteryProblems(quizFamily('X90', () => 'B'));
    expect(problems.join('\n')).to.match(/"constant-answer".*solved 6 of 6/);
    // "Always A" is wrong every time here: only the learned constant gives it away.
    expect(problems.join('\n')).not.to.match(/first-option/);
  });

  it('fails a family solved by a fixed firing schedule, naming the memorised plan', async () => {
    const problems = await quickBatteryProblems(timerFamily('X91', (seed) => 2 + (seed % 3) * 0.02));
    expect(problems.join('\n')).to.match(/"memorised-plan".*solved 6 of 6/);
  });

  it('passes a family whose answer letter and window move with the seed', async () => {
    expect(await quickBatteryProblems(quizFamily('X92', (seed) => balancedLetter(seed)))).to.deep.equal([]);
    expect(await quickBatteryProblems(timerFamily('X93', (seed) => Math.round(new Rng(`w/${seed}`).range(1, 9) * 100) / 100))).to.deep.equal([]);
  });

  it('a full battery reports each agent with its rate, bound and solved seeds, and is deterministic', async () => {
    const family = quizFamily('X94', (seed) => balancedLetter(seed));
    const opts = { seeds: 12, training: 4, strategies: [constantAnswer, firstOption, memorisedPlan, blindProbe, straightLine] };
    const [a] = await runBattery(family, opts);
    const [b] = await runBattery(family, opts);
    // Times are measured, not computed: everything else must be equal.
    const strip = (r: typeof a) => ({ ...r, seconds: 0, referenceSeconds: 0, agents: r.agents.map((x) => ({ ...x, cpuSeconds: 0 })) });
    expect(strip(a)).to.deep.equal(strip(b));
    expect(a.agents.filter((x) => !x.passed).map((x) => `${x.name} ${x.successes}/${x.episodes}`)).to.deep.equal([]);
    const byName = Object.fromEntries(a.agents.map((x) => [x.name, x]));
    expect(Object.keys(byName)).to.have.members(['null', 'random', 'constant-answer', 'first-option', 'memorised-plan']);
    expect(a.notApplicable).to.have.members(['blind-probe', 'straight-line']);
    // Balanced over blocks of four: any constant letter is right exactly 3 times in 12.
    expect(byName['first-option']).to.include({ successes: 3, episodes: 12 });
    expect(byName['constant-answer'].successes).to.equal(3);
    expect(byName['constant-answer'].bound).to.be.closeTo(0.35, 1e-9);
    expect(byName.null.successes).to.equal(0);
    expect(a.passed).to.equal(true);
  });

  it('reads listed options from an enum or from a oneOf of consts (so a guess is held to chance plus margin)', () => {
    const tool = (choice: Record<string, unknown>): ToolSpec => ({ name: 'answer', kind: 'final', description: 'commit', parameters: { type: 'object', properties: { choice }, required: ['choice'] } });
    expect(answerOptions(tool({ type: 'string', enum: ['A', 'B'] }))).to.deep.equal({ arg: 'choice', options: ['A', 'B'] });
    expect(answerOptions(tool({ type: 'string', oneOf: [{ const: 'A', description: 'a' }, { const: 'B' }, { const: 'C' }] }))).to.deep.equal({ arg: 'choice', options: ['A', 'B', 'C'] });
    expect(answerOptions(tool({ oneOf: [{ type: 'number', minimum: 0, maximum: 180 }] }))).to.equal(null);
  });

  it('lends a strategy the training seeds it asks for, a prefix of the shared ones; the quick battery keeps to its own count', async () => {
    const family = timerFamily('X96', (seed) => Math.round(new Rng(`w/${seed}`).range(1, 9) * 100) / 100);
    const seen: Record<string, number[]> = {};
    const counting = (name: string, training?: number): SightlessStrategy => ({
      name,
      description: 'records the seeds it was fitted on',
      bound: 1,
      ...(training !== undefined ? { training } : {}),
      fit(examples) {
        seen[name] = examples.map((e) => e.instance.seed);
        return undefined;
      },
      next: () => null,
    });
    const strategies = [counting('asks-for-more', 11), counting('default')];
    const [full] = await runBattery(family, { seeds: 2, training: 3, strategies, skip: ['null', 'random'] });
    expect(seen['asks-for-more']).to.have.length(11);
    expect(seen.default).to.deep.equal(seen['asks-for-more'].slice(0, 3));
    expect(full.agents.map((a) => [a.name, a.training])).to.deep.equal([['asks-for-more', 11], ['default', 3]]);
    await runBattery(family, { ...QUICK_BATTERY, seeds: 2, strategies });
    expect(seen['asks-for-more']).to.have.length(QUICK_BATTERY.training);
  });

  it('the quick battery leaves strategies marked adaptive to the full battery, which plays them', async () => {
    const family = quizFamily('X97', (seed) => balancedLetter(seed));
    const played: string[] = [];
    const strategy = (name: string, adaptive: boolean): SightlessStrategy => ({
      name,
      description: name,
      bound: 1,
      ...(adaptive ? { adaptive: true } : {}),
      next: () => {
        played.push(name);
        return null;
      },
    });
    const strategies = [strategy('simulates', true), strategy('plain', false)];
    const [quick] = await runBattery(family, { ...QUICK_BATTERY, seeds: 2, strategies });
    expect(quick.agents.map((a) => a.name)).to.deep.equal(['plain']);
    expect([...new Set(played)]).to.deep.equal(['plain']);
    const [full] = await runBattery(family, { seeds: 2, training: 2, strategies, skip: ['null', 'random'] });
    expect(full.agents.map((a) => a.name)).to.deep.equal(['simulates', 'plain']);
  });

  it('a sightless agent is told only the text: no scene, no answer', async () => {
    const family = quizFamily('X95', () => 'C');
    const instance = family.generate(7, 'L1');
    const view = sightlessView(instance);
    expect(view).not.to.have.property('scene');
    expect(view).not.to.have.property('reveal');
    expect(JSON.stringify(view)).not.to.contain('"answer":"C"');
    const seen: unknown[] = [];
    const spy = { ...firstOption, next: (ctx: Parameters<typeof firstOption.next>[0]) => (seen.push(ctx), firstOption.next(ctx, undefined)) };
    const agent = new SightlessAgent(spy, undefined, 0);
    const out = await runEpisode({ family: family as TaskFamily, instance: instance as Instance, agent, mode: DEFAULT_MODE, renderer: null, render: 'never' });
    expect(out.solved).to.equal(false);
    expect(JSON.stringify(seen)).not.to.match(/scene|reveal/);
  });
});

describe('greedy baseline is myopic, not an oracle', function () {
  this.timeout(120_000);

  it('never previews an answer or a commit, and previews at most its sample budget per turn', async () => {
    const family = quizFamily('X96', (seed) => balancedLetter(seed)) as TaskFamily;
    const timer = timerFamily('X97', () => 2) as TaskFamily;
    for (const fam of [family, timer]) {
      const instance = fam.generate(5, 'L1');
      const agent = new GreedyAgent(0, 6);
      const previewed: string[][] = [];
      let turnCalls: string[] = [];
      const realStart = agent.start.bind(agent);
      agent.start = (ctx) =>
        realStart({
          ...ctx,
          preview: (call) => {
            turnCalls.push(call.tool);
            return ctx.preview(call);
          },
        });
      const realAct = agent.act.bind(agent);
      agent.act = async (obs) => {
        turnCalls = [];
        const reply = await realAct(obs);
        previewed.push(turnCalls);
        return reply;
      };
      const out = await runEpisode({ family: fam, instance, agent, mode: DEFAULT_MODE, renderer: null, render: 'never' });
      expect(previewed.flat()).not.to.include('answer');
      for (const t of previewed) expect(t.length).to.be.at.most(6);
      if (fam === family) expect(out.solved, 'greedy answered a question it cannot see').to.equal(false);
    }
  });
});
