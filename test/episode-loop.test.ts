import { expect } from 'chai';
import { runEpisode } from '../agents/loop.ts';
import { DEFAULT_MODE, parseMode } from '../agents/modes.ts';
import { buildTurnMessages } from '../agents/prompt.ts';
import type { Agent, AgentReply, Observation, TurnRecord } from '../agents/types.ts';
import { Renderer } from '../render/renderer.ts';
import { TaskEnv } from '../tasks/env.ts';
import { familyAndInstanceFromId } from '../tasks/registry.ts';
import type { ToolCall } from '../tasks/types.ts';
import type { P6Scene } from '../tasks/puzzles/p6-peg-transfer/scene.ts';
import { applyMove, moveProblem } from '../tasks/puzzles/p6-peg-transfer/solver.ts';

/** An agent that sends fixed calls turn by turn (and then looks at the initial view). */
class FixedCallsAgent implements Agent {
  readonly name = 'fixed';
  readonly settings = {};
  readonly needsImages = true;
  readonly seen: Observation[] = [];
  constructor(private readonly turns: ToolCall[][]) {}
  start(): void {}
  async act(obs: Observation): Promise<AgentReply> {
    this.seen.push(obs);
    const actions = this.turns[obs.turn - 1] ?? [{ tool: 'view', args: { name: 'initial' } }];
    return { rationale: `turn ${obs.turn}`, note: `note ${obs.turn}`, actions };
  }
}

/**
 * After the move `first`, a move that puts a larger disk on a smaller one: found from the scene
 * (the peg of every disk, smallest first) by the family's own rule check.
 */
function illegalAfter(scene: P6Scene, first: ToolCall): ToolCall {
  const pegs = ['A', 'B', 'C'];
  const after = applyMove(scene.start, { from: pegs.indexOf(String(first.args.from)), to: pegs.indexOf(String(first.args.to)) });
  const rules = { pegs: 3, adjacentOnly: scene.adjacentOnly };
  const moves = [0, 1, 2].flatMap((from) => [0, 1, 2].map((to) => ({ from, to })));
  const bad = moves.find((m) => moveProblem(after, m, rules) === 'a disk may not rest on a smaller disk')!;
  return { tool: 'move', args: { from: pegs[bad.from], to: pegs[bad.to] } };
}

/** Runs one episode without pictures, keeping every turn's record. */
async function runBlind(family: Parameters<typeof runEpisode>[0]['family'], instance: Parameters<typeof runEpisode>[0]['instance'], agent: Agent): Promise<{ records: TurnRecord[]; outcome: Awaited<ReturnType<typeof runEpisode>> }> {
  const records: TurnRecord[] = [];
  const outcome = await runEpisode({ family, instance, agent, mode: DEFAULT_MODE, renderer: null, render: 'never', onTurn: (r) => void records.push(r) });
  return { records, outcome };
}

describe('episode loop (P6, real world and renderer)', () => {
  let renderer: Renderer;
  before(() => {
    renderer = new Renderer({ width: 256, height: 256 });
  });
  after(async () => {
    await renderer.close();
  });

  const p6 = () => familyAndInstanceFromId('P6-L1-s100');

  it('an illegal move is rolled back and reported, the rest of the turn is not run, and the next observation shows the rollback', async () => {
    const { family, instance } = p6();
    const ref = (await family.reference(instance)).calls;
    const illegal = illegalAfter(instance.scene as P6Scene, ref[0]);
    const agent = new FixedCallsAgent([[ref[0], illegal, ref[1], ref[2]]]);
    const records: TurnRecord[] = [];
    const outcome = await runEpisode({
      family,
      instance: { ...instance, budgets: { turns: 2, actionsPerTurn: 5 } },
      agent,
      mode: DEFAULT_MODE,
      renderer,
      onTurn: (r) => {
        records.push(r);
      },
    });
    const first = records[0].results;
    expect(first.map((r) => r.status)).to.deep.equal(['ok', 'violation', 'not-run', 'not-run']);
    expect(first[1].violation?.kind).to.equal('rule');
    expect(first[1].message).to.match(/smaller/);
    expect(first[2].message).to.match(/not run/);
    expect(outcome.violations).to.equal(1);
    expect(outcome.actions).to.equal(2);
    // The world after the turn is exactly the world after the first move alone.
    const env = await TaskEnv.create(family, instance);
    try {
      env.execute(ref[0]);
      expect(records[0].stateHash).to.equal(env.stateHash());
    } finally {
      env.free();
    }
    // The agent's next observation carries the split-screen rollback image before the view.
    expect(agent.seen[1].images.map((i) => i.kind)).to.deep.equal(['rollback', 'view']);
    expect(agent.seen[1].history[0].results[1].status).to.equal('violation');
    expect(outcome.truncated).to.equal(true);
    expect(outcome.endReason).to.equal('turn-budget');
  });

  it('an action budget counts rolled-back moves, leaves camera calls free, and ends the episode when spent', async () => {
    const { family, instance } = p6();
    const ref = (await family.reference(instance)).calls;
    const illegal = illegalAfter(instance.scene as P6Scene, ref[0]);
    const look: ToolCall = { tool: 'orbit', args: { azimuth_deg: 10 } };
    // Turn 1: a move, a look, an illegal move (rolled back: it still costs). Turn 2: two moves
    // asked for with one action left: the second is not run and the episode ends.
    const agent = new FixedCallsAgent([[ref[0], look, illegal], [ref[1], ref[2]]]);
    const { records, outcome } = await runBlind(family, { ...instance, budgets: { turns: 10, actionsPerTurn: 5, actions: 3 } }, agent);
    expect(agent.seen[0].actionsLeft).to.equal(3);
    expect(agent.seen[1].actionsLeft).to.equal(1);
    expect(records[0].results.map((r) => r.status)).to.deep.equal(['ok', 'ok', 'violation']);
    expect(records[1].results.map((r) => r.status)).to.deep.equal(['ok', 'not-run']);
    expect(records[1].results[1].message).to.match(/action budget/);
    expect(outcome).to.include({ actions: 3, perceptionActions: 1, violations: 1, turns: 2, endReason: 'action-budget', truncated: true, solved: false });
  });

  it('a refusal budget lets the stated number of calls be refused and ends the episode, failed, at the next', async () => {
    const { family, instance } = p6();
    const ref = (await family.reference(instance)).calls;
    const illegal = illegalAfter(instance.scene as P6Scene, ref[0]);
    // Turn 1: a move and an illegal one (the one refusal allowed). Turn 2: the same illegal
    // move again ends the episode; the call after it is not run.
    const agent = new FixedCallsAgent([[ref[0], illegal], [illegal, ref[1]], [ref[1]]]);
    const { records, outcome } = await runBlind(family, { ...instance, budgets: { turns: 10, actionsPerTurn: 5, refusals: 1 } }, agent);
    expect(agent.seen.map((o) => o.refusalsLeft)).to.deep.equal([1, 0]);
    expect(JSON.stringify(buildTurnMessages(agent.seen[1], { historyTurns: 4 }))).to.match(/refused or rolled back now ends the episode/);
    expect(records[0].results.map((r) => r.status)).to.deep.equal(['ok', 'violation']);
    expect(records[0].results[1].message).not.to.match(/episode has ended/);
    expect(records[1].results.map((r) => r.status)).to.deep.equal(['violation', 'not-run']);
    expect(records[1].results[0].message).to.match(/The episode has ended: it allows at most 1 refused call\./);
    expect(outcome).to.include({ violations: 2, turns: 2, endReason: 'failed', terminated: true, solved: false });
  });

  it('camera tools cost no world time and change no state; the clock is frozen between turns', async () => {
    const { family, instance } = p6();
    const agent = new FixedCallsAgent([
      [{ tool: 'orbit', args: { azimuth_deg: 40, elevation_deg: 20 } }, { tool: 'zoom', args: { factor: 2 } }, { tool: 'pan', args: { right_m: 0.05 } }],
    ]);
    const records: TurnRecord[] = [];
    await runEpisode({ family, instance: { ...instance, budgets: { turns: 2, actionsPerTurn: 5 } }, agent, mode: DEFAULT_MODE, renderer, onTurn: (r) => { records.push(r); } });
    expect(records[0].results.every((r) => r.status === 'ok' && r.timeAfter === r.timeBefore)).to.equal(true);
    expect(records[0].worldTimeAfter).to.equal(records[0].worldTimeBefore);
    expect(records[1].worldTimeBefore).to.equal(records[0].worldTimeAfter);
    expect(records[1].stateHash).to.equal(records[0].stateHash);
    expect(agent.seen[1].worldTime).to.equal(agent.seen[0].worldTime);
  });

  it('calls beyond the action cap are not run; cap1 allows one', async () => {
    const { family, instance } = p6();
    const ref = (await family.reference(instance)).calls;
    const six = [...ref.slice(0, 5), ref[5]];
    for (const [mode, ran] of [[DEFAULT_MODE, 5], [parseMode('cap1'), 1]] as const) {
      const agent = new FixedCallsAgent([six]);
      const records: TurnRecord[] = [];
      await runEpisode({ family, instance: { ...instance, budgets: { turns: 1, actionsPerTurn: 5 } }, agent, mode, renderer: null, render: 'never', onTurn: (r) => { records.push(r); } });
      const statuses = records[0].results.map((r) => r.status);
      expect(statuses.filter((s) => s === 'ok')).to.have.length(ran);
      expect(statuses.slice(ran).every((s) => s === 'not-run')).to.equal(true);
      expect(agent.seen[0].actionCap).to.equal(ran);
    }
  });

  it('no-camera removes the camera tools and blind sends no images', async () => {
    const { family, instance } = p6();
    const agent = new FixedCallsAgent([[{ tool: 'orbit', args: { azimuth_deg: 10 } }]]);
    const records: TurnRecord[] = [];
    await runEpisode({ family, instance: { ...instance, budgets: { turns: 1, actionsPerTurn: 5 } }, agent, mode: parseMode('no-camera+blind'), renderer: null, onTurn: (r) => { records.push(r); } });
    expect(agent.seen[0].tools.some((t) => t.kind === 'perception')).to.equal(false);
    expect(agent.seen[0].images).to.deep.equal([]);
    expect(records[0].results[0].status).to.equal('invalid');
    expect(records[0].results[0].message).to.match(/unknown tool "orbit"/);
  });
});
