import { expect } from 'chai';
import { expectTextAlikeOverSeeds } from './support/text-alike.ts';
import { applyTurn, cubeIndex, pocketCubeDistance, solvedCube } from '../solvers/discrete-search/index.ts';
import { TaskEnv } from '../tasks/env.ts';
import { readCube } from '../tasks/puzzles/p5-pocket-cube/episode.ts';
import { p5PocketCube } from '../tasks/puzzles/p5-pocket-cube/family.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from '../tasks/puzzles/p5-pocket-cube/filters.ts';
import { actionBudget, drawScramble, TIER_DISTANCE } from '../tasks/puzzles/p5-pocket-cube/generate.ts';
import type { P5Scene } from '../tasks/puzzles/p5-pocket-cube/scene.ts';
import { reference, startState } from '../tasks/puzzles/p5-pocket-cube/solver.ts';
import type { Instance, Tier } from '../tasks/types.ts';
import { playSightless } from './support/sightless-episode.ts';
import { TIERS } from '../core/catalog.ts';

function withScramble(scramble: string[]): Instance<P5Scene> {
  const base = p5PocketCube.generate(100, 'L1');
  return { ...base, id: 'P5-hand', scene: { ...base.scene, scramble } };
}

describe('P5 pocket cube', () => {
  it('a physical layer turn (group motion) reads back as the same turn of the distance table\'s move tables', async () => {
    for (const [face, quarters] of [['U', 1], ['R', 1], ['F', 1], ['R', 2], ['F', 3]] as const) {
      const env = await TaskEnv.create(p5PocketCube, withScramble([]));
      try {
        const r = env.execute({ tool: 'turn', args: { face, angle: quarters === 1 ? 90 : quarters === 2 ? 180 : -90 } });
        expect(r.status, r.message).to.equal('ok');
        expect(cubeIndex(readCube(env.world))).to.equal(cubeIndex(applyTurn(solvedCube(), { face, quarters })));
      } finally {
        env.free();
      }
    }
  });

  it('turning D, L or B is one move from solved, and a turn and its inverse solve again', async () => {
    for (const face of ['D', 'L', 'B']) {
      // A fresh episode each time: the first solve ends an episode.
      const env = await TaskEnv.create(p5PocketCube, withScramble([]));
      try {
        expect(env.execute({ tool: 'turn', args: { face, angle: 90 } }).status).to.equal('ok');
        expect(pocketCubeDistance(readCube(env.world), 'htm')).to.equal(1);
        expect(env.solved()).to.equal(false);
        expect(env.execute({ tool: 'turn', args: { face, angle: -90 } }).status).to.equal('ok');
        expect(env.solved()).to.equal(true);
      } finally {
        env.free();
      }
    }
  });

  it('a wrong solution fails: the scramble\'s own turns replayed forwards do not solve it; its shortest solution does', async () => {
    const inst = withScramble(["R", "U2", "F'"]);
    const env = await TaskEnv.create(p5PocketCube, inst);
    try {
      for (const [face, angle] of [['R', 90], ['U', 180], ['F', -90]] as const) env.execute({ tool: 'turn', args: { face, angle } });
      expect(env.solved()).to.equal(false);
    } finally {
      env.free();
    }
    const ref = reference(inst);
    expect(ref.calls).to.have.length(3);
    const env2 = await TaskEnv.create(p5PocketCube, inst);
    try {
      for (const c of ref.calls) expect(env2.execute(c).status).to.equal('ok');
      expect(env2.solved()).to.equal(true);
    } finally {
      env2.free();
    }
  });

  it('the generator is deterministic and every start sits exactly at its tier\'s distance in the table', () => {
    for (const tier of ['L1', 'L3', 'L5'] as Tier[]) {
      for (const seed of [100, 101, 102]) {
        const s = drawScramble(seed, tier);
        expect(drawScramble(seed, tier)).to.deep.equal(s);
        const inst = p5PocketCube.generate(seed, tier);
        expect(pocketCubeDistance(startState(inst.scene), 'htm')).to.equal(TIER_DISTANCE[tier]);
        expect(SHORTCUT_FILTERS[0].check(inst)).to.equal(null);
      }
    }
    expect(SHORTCUT_FILTERS[0].check(withScramble(['R']))).to.match(/1 turns/);
  });

  it("states the same title, rules and budget for every seed of a tier, and no distance (issue 36)", () => {
    for (const tier of TIERS) {
      const first = p5PocketCube.generate(100, tier);
      expect(first.budgets.actions, tier).to.equal(actionBudget(tier));
      expect(first.budgets.actions, tier).to.equal(2 * TIER_DISTANCE[tier]);
      // Version 1 said "N turns from solved" in the title and the rules.
      expect(first.title, tier).to.not.match(/\d|from solved/);
      expect(first.rules, tier).to.not.match(/from solved/);
    }
    expectTextAlikeOverSeeds(p5PocketCube, TIERS, { measure: (inst) => (inst.scene as P5Scene).scramble.join(' '), moreThan: 30 });
  });

  describe('sightless strategies fail over many seeds', () => {
    for (const strategy of SIGHTLESS) {
      it(`${strategy.name} stays within its bound (${strategy.bound})`, async function () {
        this.timeout(600_000);
        let solved = 0;
        let played = 0;
        for (const tier of ['L1', 'L3', 'L5'] as Tier[]) {
          for (let seed = 200; seed < 206; seed++) {
            if (await playSightless(p5PocketCube, p5PocketCube.generate(seed, tier), strategy, seed, { turns: 30 })) solved++;
            played++;
          }
        }
        expect(solved / played).to.be.at.most(strategy.bound);
      });
    }
  });
});
