import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NullAgent, defaultArgs } from '../agents/null.ts';
import { applyMove, moveProblem } from '../tasks/puzzles/p6-peg-transfer/solver.ts';
import type { P6Scene, PegState } from '../tasks/puzzles/p6-peg-transfer/scene.ts';
import { familyAndInstanceFromId } from '../tasks/registry.ts';
import type { Instance, ReferenceSolution, TaskFamily, ToolCall } from '../tasks/types.ts';
import { runRandomBaseline, verifyInstance } from '../verify/verify.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const PEGS = ['A', 'B', 'C'];
// Seven moves (P6 L1 draws 4–7): the tampered scripts below cut and extend a two-turn plan.
const ID = 'P6-L1-s103';

function p6(id = ID): { family: TaskFamily; instance: Instance<P6Scene> } {
  const { family, instance } = familyAndInstanceFromId(id);
  return { family, instance: instance as Instance<P6Scene> };
}

/** The reference with call `at` (0-based) replaced by a move the rules forbid in that state. */
async function tampered(family: TaskFamily, instance: Instance<P6Scene>, at: number): Promise<{ solution: ReferenceSolution; call: ToolCall }> {
  const ref = await family.reference(instance);
  const rules = { pegs: 3, adjacentOnly: instance.scene.adjacentOnly };
  let state: PegState = instance.scene.start.slice();
  for (const c of ref.calls.slice(0, at)) state = applyMove(state, { from: PEGS.indexOf(String(c.args.from)), to: PEGS.indexOf(String(c.args.to)) });
  let bad: ToolCall | null = null;
  for (let from = 0; from < 3 && !bad; from++) {
    for (let to = 0; to < 3 && !bad; to++) {
      if (from !== to && moveProblem(state, { from, to }, rules)) bad = { tool: 'move', args: { from: PEGS[from], to: PEGS[to] } };
    }
  }
  const calls = ref.calls.slice();
  calls[at] = bad!;
  return { solution: { ...ref, calls }, call: bad! };
}

describe('verify: a broken reference fails, naming the instance and the first violation', () => {
  it('the untouched reference verifies (optimal, no violation, null and random baselines fail)', async () => {
    const { family, instance } = p6();
    const r = await verifyInstance(family, instance, { randomSeeds: 2, randomTurns: 5 });
    expect(r.failures ?? [], (r.failures ?? []).join('\n')).to.deep.equal([]);
    expect(r).to.include({ instance: ID, family: 'P6', tier: 'L1', verified: true, referenceActions: 7, optimal: true, unique: true });
    expect(r.shortcuts!.null).to.deep.equal({ passed: true, solved: false, endReason: 'turn-budget' });
    expect(r.shortcuts!.random).to.include({ seeds: 2, turns: 5, successes: 0, passed: true });
  });

  it('one forbidden move in the script: turn, call, tool, kind and message of the first violation', async () => {
    const { family, instance } = p6();
    // Call 6 of the script is the first call of turn 2 (five calls per turn).
    const { solution, call } = await tampered(family, instance, 5);
    const r = await verifyInstance(family, instance, { randomSeeds: 0, reference: () => solution });
    expect(r.verified).to.equal(false);
    expect(r.firstViolation).to.deep.include({ turn: 2, call: 1, scriptCall: 6, tool: 'move', status: 'violation', kind: 'rule' });
    expect(r.failure).to.match(new RegExp(`^${ID}: reference episode: turn 2, call 1 \\(script call 6 of 7, move\\): rule — move ${call.args.from}→${call.args.to} refused`));
  });

  it('a script one call short is not solved; one call too long has a call it does not need', async () => {
    const { family, instance } = p6();
    const ref = await family.reference(instance);
    const short = await verifyInstance(family, instance, { randomSeeds: 0, reference: () => ({ ...ref, calls: ref.calls.slice(0, -1) }) });
    expect(short.verified).to.equal(false);
    expect(short.failure).to.match(/^P6-L1-s103: reference episode: all 6 calls ran but the task is not solved \(progress 0\.86\)$/);
    const long = await verifyInstance(family, instance, { randomSeeds: 0, reference: () => ({ ...ref, calls: [...ref.calls, ref.calls[0]] }) });
    expect(long.failure).to.match(/^P6-L1-s103: reference episode: solved after 7 of the script's 8 actions/);
  });

  it('requirements the family declares are enforced: uniqueness, and its own shortcut filters', async () => {
    const { family, instance } = p6();
    const strict: TaskFamily = {
      ...family,
      certify: { optimal: true, unique: true },
      shortcutFilters: [{ name: 'too-few-disks', check: (i) => ((i.scene as P6Scene).start.length < 5 ? 'fewer than 5 disks' : null) }],
    };
    const ref = await family.reference(instance);
    const r = await verifyInstance(strict, instance, { randomSeeds: 0, reference: () => ({ ...ref, unique: false }) });
    expect(r.verified).to.equal(false);
    expect(r.failures).to.include.members([
      'P6-L1-s103: P6 requires a unique solution, but uniqueness is not certified (' + ref.method + ')',
      'P6-L1-s103: shortcut filter "too-few-disks": fewer than 5 disks',
    ]);
    expect(r.shortcuts!.filters).to.deep.equal({ 'too-few-disks': { passed: false, message: 'fewer than 5 disks' } });
  });

  it('an instance its own start state solves is caught by the null policy', async () => {
    const { family, instance } = p6();
    const s = instance.scene;
    const solvedAtStart: Instance<P6Scene> = { ...instance, scene: { ...s, start: s.start.map(() => s.target) } };
    const r = await verifyInstance(family, solvedAtStart, { randomSeeds: 0 });
    expect(r.verified).to.equal(false);
    expect(r.shortcuts!.null.solved).to.equal(true);
    expect(r.failures).to.include('P6-L1-s103: shortcut: the null policy (do nothing) solves it');
  });

  it('the random baseline counts its successes against the bound', async () => {
    const { family, instance } = p6();
    const s = instance.scene;
    // One move from the goal: the smallest disk is off the goal peg, everything else on it; and
    // refused moves allowed, so a random agent's first illegal move does not end its episode.
    const { refusals: _unlimited, ...budgets } = instance.budgets;
    const oneMove: Instance<P6Scene> = { ...instance, budgets, scene: { ...s, start: s.start.map((_, i) => (i === 0 ? (s.target + 1) % 3 : s.target)) } };
    const report = await runRandomBaseline(family, oneMove, { seeds: 6, turns: 10 });
    expect(report.seeds).to.equal(6);
    expect(report.rate).to.equal(report.successes / 6);
    expect(report.passed).to.equal(report.rate <= 0.1);
    expect(report.successes, 'a random agent should stumble on a one-move goal at least once in 6 × 10 turns').to.be.greaterThan(0);
  });

  it('the null agent commits with default arguments when there is a final tool, and never picks a listed choice', async () => {
    const agent = new NullAgent();
    const final = { name: 'answer', kind: 'final' as const, description: 'd', parameters: { type: 'object', properties: { count: { type: 'integer', minimum: 1 }, unit: { enum: ['m', 'cm'] }, scale: { type: 'number', default: 2 } }, required: ['count', 'unit', 'scale'] } };
    // Picking 'm' would be a guess (right 1 time in 2 on a balanced question): the choice is left out.
    expect(defaultArgs(final.parameters)).to.deep.equal({ count: 1, scale: 2 });
    agent.start({ tools: [final], instance: {} as Instance, mode: {} as never, preview: () => ({}) as never });
    const reply = await agent.act({ turn: 1, history: [], note: '' } as never);
    expect(reply.actions).to.deep.equal([{ tool: 'answer', args: { count: 1, scale: 2 } }]);
  });

  it('spaceact verify --json exits 0 with one record per instance (and no battery for an --instance selection); a malformed id exits 2', () => {
    const run = (args: string[]) => spawnSync(process.execPath, [join(ROOT, 'bin', 'spaceact.mjs'), 'verify', ...args], { cwd: ROOT, encoding: 'utf8' });
    // The text-leak check (a record per family × tier) is left out here: this is the instance's record.
    const ok = run(['--instance', ID, '--json', '--random-seeds', '1', '--random-turns', '3', '--text-seeds', '0', '--view-seeds', '0']);
    expect(ok.status, ok.stderr + ok.stdout).to.equal(0);
    const parsed = JSON.parse(ok.stdout) as { instances: Array<Record<string, unknown>>; textLeaks: unknown[]; views: unknown[]; battery: unknown[] };
    // An --instance selection runs no battery unless --battery-seeds asks for one.
    expect(parsed.battery).to.deep.equal([]);
    expect(parsed.textLeaks).to.deep.equal([]);
    expect(parsed.views).to.deep.equal([]);
    const [rec] = parsed.instances;
    expect(Object.keys(rec)).to.include.members(['instance', 'family', 'tier', 'verified', 'referenceActions', 'optimal', 'unique', 'claims', 'shortestSolutions', 'shortestLength', 'textLeaks', 'viewRule', 'shortcuts', 'seconds']);
    expect(rec).to.include({ instance: ID, verified: true, referenceActions: 7, shortestSolutions: 1, shortestLength: 7 });
    expect(rec.viewRule).to.deep.equal({ passed: true, problems: [] });
    const typo = run(['--instance', 'P6-L2-s1']);
    expect(typo.status).to.equal(2);
    expect(typo.stderr).to.match(/P6 has no tier L2; tiers: L1, L3, L5, L7/);
    // A battery agent that does not exist is refused before any episode, naming the known ones.
    const agent = run(['--family', 'P6', '--battery-seeds', '2', '--agents', 'reconstruct-then-plna', '--random-seeds', '0', '--text-seeds', '0']);
    expect(agent.status).to.equal(2);
    expect(agent.stderr).to.match(/--agents: no battery agent named 'reconstruct-then-plna' in P6; known: .*reconstruct-then-plan/);
  });
});
