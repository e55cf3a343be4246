/**
 * The check-suite's issue-36 checks (verify/family-checks.ts) fail hand-built families, each
 * with one flaw a real author could ship: a metric number in the rules, a seed-varying number
 * in a tool result, a padded "optimal" reference, an undeclared body outside the frame, and a
 * one-bit Math.random in a generator. Each is made from a registered family with one change.
 */
import { expect } from 'chai';
import { Renderer } from '../render/renderer.ts';
import { TaskEnv } from '../tasks/env.ts';
import { getFamily } from '../tasks/registry.ts';
import type { FamilyEnv, Instance, TaskFamily, TextVariation, ToolOutput } from '../tasks/types.ts';
import { checkFirstView } from '../tasks/view-rule.ts';
import type { P6Scene } from '../tasks/puzzles/p6-peg-transfer/scene.ts';
import { solvePegTransfer } from '../tasks/puzzles/p6-peg-transfer/solver.ts';
import { firstPoseDifference, purityProblems, recordPoses, type CallPoses } from '../verify/determinism.ts';
import { claimProblems, textLeakProblems, TierInstances } from '../verify/family-checks.ts';
import { seedVaryingNumbers, staticTextLeaks, textFindings } from '../verify/text-leak.ts';
import { runReference } from '../verify/verify.ts';
import { viewSampleRecord } from '../verify/view-sample.ts';

const P6 = getFamily('P6') as TaskFamily;
/** An allow-list of the action budget, for a family whose budget varies with the seed. */
const BUDGET: TextVariation = { what: 'action budget', reason: 'the reference length times a fixed factor; says nothing the picture should show', values: (i) => [String(i.budgets.actions)], budget: true };
const cleanP6: TaskFamily = { ...P6, textVaries: [BUDGET] };

/** A family whose every tool result ends with `leak(instance)`. */
function leakingResults(base: TaskFamily, leak: (i: Instance) => string): TaskFamily {
  return {
    ...base,
    async build(instance, world) {
      const env: FamilyEnv = await base.build(instance, world);
      env.tools = Object.fromEntries(
        Object.entries(env.tools).map(([name, handler]) => [
          name,
          (args: Record<string, unknown>): ToolOutput | string => {
            const out = handler(args);
            return typeof out === 'string' ? `${out} ${leak(instance)}` : { ...out, message: `${out.message} ${leak(instance)}` };
          },
        ]),
      );
      return env;
    },
  };
}

describe('check-suite checks fail hand-built families (issue 36)', function () {
  this.timeout(600_000);

  it('(a) a metric number in the rules: the text-leak check names the family, the tier, two seeds and the first differing words', () => {
    expect(staticTextLeaks(cleanP6, 'L7', Array.from({ length: 30 }, (_, s) => s)).problems, 'P6 reads alike').to.deep.equal([]);
    const metric: TaskFamily = { ...cleanP6, generate: (seed, tier) => { const i = P6.generate(seed, tier); return { ...i, rules: `${i.rules} The board is turned ${Math.abs((i.scene as P6Scene).yawDeg)}°.` }; } };
    const r = staticTextLeaks(metric, 'L7', Array.from({ length: 30 }, (_, s) => s));
    expect(r.passed).to.equal(false);
    expect(r.problems).to.have.length(1);
    expect(r.problems[0]).to.match(/^P6 L7: the rules of seeds 0 and \d+ differ \(word \d+: "…board is turned \d+°\." vs "…board is turned \d+°\."\)/);
    // P6 version 4's budget (each seed's shortest plan plus a quarter) is caught the same way
    // unless allow-listed.
    const perSeedBudget: TaskFamily = {
      ...P6,
      generate: (seed, tier) => {
        const i = P6.generate(seed, tier) as Instance<P6Scene>;
        const plan = solvePegTransfer(i.scene.start, i.scene.target, { pegs: 3, adjacentOnly: i.scene.adjacentOnly }).optimalLength;
        const budget = plan + Math.max(2, Math.ceil(plan / 4));
        return { ...i, rules: i.rules.replace(/at most \d+ moves/, `at most ${budget} moves`), budgets: { ...i.budgets, actions: budget } };
      },
    };
    expect(staticTextLeaks(perSeedBudget, 'L1', Array.from({ length: 30 }, (_, s) => s)).problems.join('\n')).to.match(/Budget: at most \d+ moves/);
    expect(staticTextLeaks({ ...perSeedBudget, textVaries: [BUDGET] }, 'L1', Array.from({ length: 30 }, (_, s) => s)).problems).to.deep.equal([]);
    // The same budget given only as the episode's number (the prompt states it every turn, the
    // rules do not: P1 before version 6) is text too, and the allow-list must say so.
    const quietBudget: TaskFamily = { ...perSeedBudget, generate: (seed, tier) => ({ ...perSeedBudget.generate(seed, tier), rules: P6.generate(seed, tier).rules }) };
    const quiet = staticTextLeaks(quietBudget, 'L1', Array.from({ length: 30 }, (_, s) => s)).problems;
    expect(quiet).to.have.length(1);
    expect(quiet[0]).to.match(/^P6 L1: the budgets of seeds 0 and \d+ differ \(.*actions in all: \d+/);
    const unflagged = staticTextLeaks({ ...quietBudget, textVaries: [{ ...BUDGET, budget: false }] }, 'L1', Array.from({ length: 30 }, (_, s) => s)).problems;
    expect(unflagged.filter((p) => p.includes('the budgets of seeds'))).to.have.length(1);
  });

  it('(b) a seed-varying number in a tool result: the episode scan names the call and what it equals', async () => {
    const M2 = getFamily('M2') as TaskFamily;
    const leak = (i: Instance): string => `(reading ${Math.round((i.scene as { corridor: { width: number } }).corridor.width * 1000)})`;
    const leaky = leakingResults(M2, leak);
    const instance = leaky.generate(100, 'L1');
    const run = await runReference(leaky, instance);
    const problems = await textLeakProblems(new TierInstances(leaky, 'L1'), instance, run, { seeds: [100, 101, 102], randomTurns: 1 });
    const found = problems.filter((p) => p.includes(leak(instance)));
    expect(found.length, problems.join('\n')).to.be.greaterThan(0);
    expect(found[0]).to.match(/^M2-L1-s100 reference episode, turn 1 call 1 \(\w+\) message: .*"\d+", which equals scene\.corridor\.width = /);
    // The same family without the leak has no such line.
    const plain = await textLeakProblems(new TierInstances(M2, 'L1'), instance, await runReference(M2, instance), { seeds: [100, 101, 102], randomTurns: 1 });
    expect(plain.filter((p) => /reading \d+/.test(p))).to.deep.equal([]);
  });

  it('(c) a padded reference that claims optimal fails the claims check', async () => {
    const instance = P6.generate(103, 'L1');
    const ref = await P6.reference(instance);
    const back = { tool: 'move', args: { from: ref.calls[0].args.to, to: ref.calls[0].args.from } };
    const run = await runReference(P6, instance, { solution: { ...ref, calls: [ref.calls[0], back, ...ref.calls], optimal: true }, probe: true });
    expect(run.problem).to.equal(null);
    const problems = claimProblems(P6, instance, run);
    expect(problems.join('\n')).to.match(/^P6-L1-s103: the reference claims optimal, but it is not \(the family's search: shortest 7 actions, the reference 9; minimality probe: calls 1–2 \(move, move\) dropped/);
    expect(claimProblems(P6, instance, await runReference(P6, instance, { probe: true }))).to.deep.equal([]);
  });

  it('(d) an undeclared body outside the frame fails the view rule', async () => {
    const renderer = new Renderer({ frameCache: 0 });
    const goalAway: TaskFamily = {
      ...P6,
      async build(instance, world) {
        const env = await P6.build(instance, world);
        world.addBody({ name: 'far-goal', kind: 'static', pose: { p: [4, 0.05, 0], q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half: [0.05, 0.05, 0.05] }], color: '#22aa44' });
        return env;
      },
    };
    try {
      for (const [family, expected] of [[P6, []], [goalAway, ["'far-goal' is drawn (outside the frame) but not declared"]]] as const) {
        const env = await TaskEnv.create(family, family.generate(103, 'L1'));
        try {
          const v = await checkFirstView(env, renderer);
          expect(v.problems.map((p) => p.replace(/^P6-L1-s103 first view: /, '').replace(/: name it in.*$/, '').replace(/ \[body-undeclared\]$/, ''))).to.deep.equal(expected);
        } finally {
          env.free();
        }
      }
    } finally {
      await renderer.close();
    }
  });

  it("(d2) verify's view sample finds a body out of frame on some seeds only, naming each instance", async () => {
    const renderer = new Renderer({ frameCache: 0 });
    // The goal lands outside the frame on odd seeds: the released seed (100) would pass.
    const oddAway: TaskFamily = {
      ...P6,
      async build(instance, world) {
        const env = await P6.build(instance, world);
        if (instance.seed % 2 === 1) world.addBody({ name: 'far-goal', kind: 'static', pose: { p: [4, 0.05, 0], q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half: [0.05, 0.05, 0.05] }], color: '#22aa44' });
        return env;
      },
    };
    try {
      const r = await viewSampleRecord(oddAway, 'L1', 4, renderer);
      expect(r.seeds).to.equal(4);
      expect(r.passed).to.equal(false);
      expect(r.failures.map((f) => f.instance)).to.deep.equal(['P6-L1-s1', 'P6-L1-s3']);
      expect(r.failures[0].problems.join(' ')).to.match(/'far-goal' is drawn \(outside the frame\) but not declared/);
      const clean = await viewSampleRecord(P6, 'L1', 2, renderer);
      expect(clean).to.deep.equal({ family: 'P6', tier: 'L1', seeds: 2, passed: true, failures: [] });
    } finally {
      await renderer.close();
    }
  });

  it('(e) a one-bit Math.random in a generator fails purity over several seeds, each generated three times', () => {
    const coin: TaskFamily = { ...P6, generate: (seed, tier) => { const i = P6.generate(seed, tier); return Math.random() < 0.5 ? i : { ...i, reveal: { plan: `${i.reveal.plan} ` } }; } };
    expect(purityProblems(P6, 'L1', [0, 1, 2, 3])).to.deep.equal([]);
    // Each seed passes three generations with probability 1/4: eight seeds miss it once in 65,536 runs.
    const problems = purityProblems(coin, 'L1', [0, 1, 2, 3, 4, 5, 6, 7]);
    expect(problems.length).to.be.greaterThan(0);
    expect(problems[0], problems[0]).to.match(/^P6 L1 seed \d: generation [23] differs from generation 1 at reveal\.plan: first ".*, generation [23] ".* \(generate must be a pure function/);
  });

  it('(f) the answer\'s option letter in what the family tells the agent fails the episode scan; the letter the agent named, said back, does not', async () => {
    const V2 = getFamily('V2') as TaskFamily;
    const answerOf = async (i: Instance): Promise<string> => String((await V2.reference(i)).calls.at(-1)?.args.option);
    const hinting: TaskFamily = {
      ...V2,
      async build(instance, world) {
        const env: FamilyEnv = await V2.build(instance, world);
        const letter = await answerOf(instance);
        return { ...env, observationText: () => `Option ${letter} looks different.` };
      },
    };
    const instance = hinting.generate(100, 'L1');
    const letter = await answerOf(instance);
    const problems = await textLeakProblems(new TierInstances(hinting, 'L1'), instance, await runReference(hinting, instance), { seeds: [100, 101, 102], randomTurns: 1 });
    expect(problems.join('\n')).to.match(new RegExp(`^V2-L1-s100 reference episode, observation text start: the answer's option letter "${letter}", which the agent did not name`, 'm'));
    const varying = seedVaryingNumbers(instance, [101, 102].map((s) => V2.generate(s, 'L1')), await V2.reference(instance));
    expect(varying.answerLetters).to.deep.equal([letter]);
    expect(textFindings(`option ${letter} is not a choice here`, varying, { echoWords: [letter] })).to.deep.equal([]);
    expect(textFindings('A move was refused', { numbers: [], answerWords: [], answerLetters: ['A'] })).to.deep.equal([]);
    expect(textFindings('the odd one is A.', { numbers: [], answerWords: [], answerLetters: ['A'] })).to.have.length(1);
    const plain = await textLeakProblems(new TierInstances(V2, 'L1'), instance, await runReference(V2, instance), { seeds: [100, 101, 102], randomTurns: 1 });
    expect(plain.filter((p) => p.includes('option letter'))).to.deep.equal([]);
  });

  it('(g) a nondeterministic step: two replays of the same calls part at the first call and body whose pose differs, said in millimetres and degrees', async () => {
    const family = getFamily('P6');
    const instance = family.generate(100, 'L3');
    const calls = (await family.reference(instance)).calls.slice(0, 3);
    /** Replays the calls, two per turn; `nudge` moves one disk 2 mm after the second call (a one-off nondeterminism). */
    const replay = async (nudge: boolean): Promise<CallPoses[]> => {
      const env = await TaskEnv.create(family, instance);
      try {
        const trace = recordPoses(env);
        calls.forEach((c, i) => {
          env.execute(c);
          if (nudge && i === 1) {
            const disk = env.world.bodyNames().find((n) => n.startsWith('disk'))!;
            const p = env.world.getPose(disk);
            env.world.setPose(disk, { p: [p.p[0] + 0.002, p.p[1], p.p[2]], q: p.q });
          }
          if (i % 2 === 1) trace.endTurn();
        });
        return trace.calls;
      } finally {
        env.free();
      }
    };
    const a = await replay(false);
    expect(firstPoseDifference(a, await replay(false))).to.equal(null);
    const said = firstPoseDifference(a, await replay(true));
    // The nudge comes after call 2's poses were recorded: the replays part at the next call.
    expect(said).to.match(/^turn 2, call 1 \(episode call 3, move\): body 'disk[^']*' differs by 2\.00 mm and 0\.00°$/);
  });

  it('the episode scan finds percentages, distances, angles and seed-varying numbers, and spares masked values and small counts', () => {
    const instance = P6.generate(100, 'L7');
    const others = [0, 1, 2, 3].map((s) => P6.generate(s, 'L7'));
    const varying = seedVaryingNumbers(instance, others, null);
    const yaw = (instance.scene as P6Scene).yawDeg;
    expect(varying.numbers.map((n) => n.source)).to.include('scene.yawDeg');
    expect(textFindings("'rod' would touch 'walls' after 12% of the move", varying)).to.deep.equal(['a percentage "12%"']);
    expect(textFindings('moved 159.2 mm and turned 10.5°; 3 cm left, 0.2 m up, 0.1 rad', varying)).to.deep.equal(['a length "159.2 mm"', 'a angle "10.5°"', 'a length "3 cm"', 'a length "0.2 m"', 'a angle "0.1 rad"']);
    expect(textFindings(`the board sits at ${yaw}`, varying)).to.deep.equal([`"${yaw}", which equals scene.yawDeg = ${yaw}`]);
    expect(textFindings('moved the disk from A to C (move 3 of 9)', varying)).to.deep.equal([]);
    // A time is compared as written, never as degrees: T1's clock "8.463 s" read as 8.463° once
    // matched a ball's speed of 0.148 (m/s); the same number bare, or with "°", is still caught.
    const speed = { numbers: [{ value: 0.148, source: 'scene.decoy.speed', answer: false }], answerWords: [] };
    expect(textFindings('Waited 7.463 s; world time is now 8.463 s.', speed)).to.deep.equal([]);
    expect(textFindings('now 8.463', speed)).to.deep.equal(['"8.463", which equals scene.decoy.speed = 0.148']);
    expect(textFindings('after 0.148 s', speed)).to.deep.equal(['"0.148 s", which equals scene.decoy.speed = 0.148']);
  });
});
