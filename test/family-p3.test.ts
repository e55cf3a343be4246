import { expect } from 'chai';
import { expectTextAlikeOverSeeds } from './support/text-alike.ts';
import { Rng } from '../core/rng.ts';
import { TaskEnv } from '../tasks/env.ts';
import { p3CratePushing } from '../tasks/puzzles/p3-crate-pushing/family.ts';
import { SHORTCUT_FILTERS } from '../tasks/puzzles/p3-crate-pushing/filters.ts';
import { drawScene } from '../tasks/puzzles/p3-crate-pushing/generate.ts';
import { crateDistances, parseLevel, step } from '../tasks/puzzles/p3-crate-pushing/level.ts';
import { actionBudget, TIER_SPEC, type P3Scene } from '../tasks/puzzles/p3-crate-pushing/scene.ts';
import { firstViewHides } from '../tasks/puzzles/p3-crate-pushing/sight.ts';
import { pullDistances, pushDistance, solveScene } from '../tasks/puzzles/p3-crate-pushing/solver.ts';
import type { Instance, Tier } from '../tasks/types.ts';
import { runBattery } from '../verify/battery.ts';
import { TIERS } from '../core/catalog.ts';

const DIRS = ['north', 'east', 'south', 'west'];

function scene(map: string[], heights: string[] | null = null): P3Scene {
  return { cols: map[0].length, rows: map.length, cell: 0.05, map, heights, platformHeight: 0.02, wallHeight: 0.05, optimum: { pushes: 0, moves: 0, solutions: 0 } };
}

function handInstance(s: P3Scene): Instance<P3Scene> {
  const r = solveScene(s);
  const base = p3CratePushing.generate(100, 'L1');
  return { ...base, id: 'P3-hand', scene: { ...s, optimum: { pushes: r.pushes, moves: r.moves, solutions: r.solutions } } };
}

/** Microban level 1 (David W. Skinner), the cells outside its walls filled with walls. */
const MICROBAN_1 = ['######', '# .###', '#  ###', '#*@  #', '#  $ #', '#  ###', '######'];

/** A crate on the ground, a ramp rising east onto a platform, the marked cell on the platform. */
const RAMP_ROOM = scene(['#######', '#     #', '#@$  .#', '#     #', '#######'], ['0000000', '0000110', '000e110', '0000110', '0000000']);

describe('P3 crate pushing', () => {
  describe('solver', () => {
    it('finds the published optimum of Microban level 1: 8 pushes, 33 moves, one such step sequence', () => {
      const r = solveScene(scene(MICROBAN_1));
      expect(r.solvable).to.equal(true);
      expect([r.pushes, r.moves, r.solutions]).to.deep.equal([8, 33, 1]);
      // The published solution dlUrrrdLullddrUluRuulDrddrruLdlUU (u north, r east, d south, l west).
      expect(r.steps.map((d) => 'urdl'[d]).join('')).to.equal('dlurrrdlullddruluruuldrddrruldluu');
    });

    it('refuses unsolvable rooms: a crate on a dead square at once, a frozen square of crates after an exhaustive search', () => {
      const corner = solveScene(scene(['#####', '#$  #', '#  .#', '# @ #', '#####']));
      expect(corner.solvable).to.equal(false);
      expect(corner.method).to.match(/dead square/);
      const frozen = solveScene(scene(['#######', '#  @  #', '# $$  #', '# $$  #', '#.... #', '#######']));
      expect(frozen.solvable).to.equal(false);
      expect(frozen.statesSearched).to.be.greaterThan(0);
      // The generator's filter refuses such a room.
      expect(SHORTCUT_FILTERS[0].check(handInstance(scene(['#######', '#  @  #', '# $$  #', '# $$  #', '#.... #', '#######'])))).to.match(/never/);
    });

    it('walks the ramp only along its slope: no passage up the platform\'s side or onto the ramp from the side', () => {
      const level = parseLevel(RAMP_ROOM);
      const at = (c: number, r: number): number => c + r * RAMP_ROOM.cols;
      expect(step(level, at(2, 2), 1)).to.equal(at(3, 2)); // ground → ramp's low end
      expect(step(level, at(3, 2), 1)).to.equal(at(4, 2)); // ramp → platform
      expect(step(level, at(3, 1), 2)).to.equal(-1); // onto the ramp from its side
      expect(step(level, at(3, 1), 1)).to.equal(-1); // ground → platform over its edge
      expect(step(level, at(4, 1), 3)).to.equal(-1); // platform → ground over its edge
      const r = solveScene(RAMP_ROOM);
      expect([r.pushes, r.moves, r.solutions]).to.deep.equal([3, 3, 1]);
    });

    it('the pull search and the forward search agree on the push distance of every generated start', () => {
      for (const tier of ['L1', 'L3', 'L5'] as Tier[]) {
        const d = drawScene(104, tier, 0, { memo: false });
        const level = parseLevel(d.scene);
        const table = pullDistances(level);
        expect(pushDistance(level, table, { crates: level.crates, pusher: level.pusher })).to.equal(d.pushes);
        expect(solveScene(d.scene).pushes).to.equal(d.pushes);
        expect(d.pushes).to.be.within(TIER_SPEC[tier].band[0], TIER_SPEC[tier].band[1]);
        // No crate starts on a dead square or a marked cell.
        const lone = crateDistances(level);
        expect(level.crates.every((c) => lone[c] > 0)).to.equal(true);
      }
    });

    it('the generator is deterministic; L5 rooms make a crate change level; only L7 hides a crate or a marked cell from the first view', () => {
      expect(drawScene(105, 'L5', 0, { memo: false })).to.deep.equal(drawScene(105, 'L5', 0, { memo: false }));
      for (let seed = 0; seed < 4; seed++) {
        const l5 = p3CratePushing.generate(seed, 'L5');
        const level = parseLevel(l5.scene);
        const onPlatform = (cells: number[]): number => cells.filter((c) => level.kind[c] === 'platform').length;
        expect(onPlatform(level.crates)).to.not.equal(onPlatform(level.goals));
        expect(firstViewHides(l5.scene)).to.deep.equal([]);
        const l7 = p3CratePushing.generate(seed, 'L7');
        expect(firstViewHides(l7.scene).length).to.be.greaterThan(0);
        expect(l7.levers).to.deep.equal(['+occ']);
      }
    });
  });

  describe('text and budget (issue 36)', () => {
    it("states the same title, rules and budget for every seed of a tier (version 5's budget told the optimum's length)", () => {
      for (const tier of TIERS) expect(p3CratePushing.generate(100, tier).budgets.actions, tier).to.equal(actionBudget(tier));
      // The seeds' optima differ, so a budget that followed them would differ too.
      expectTextAlikeOverSeeds(p3CratePushing, TIERS, {
        measure: (inst) => (inst.scene as P3Scene).optimum.moves,
        check: (inst, seed, tier) => expect((inst.scene as P3Scene).optimum.moves, `${tier} seed ${seed}`).to.be.within(...TIER_SPEC[tier].steps),
      });
    });

    it("refuses a room whose optimum walks more steps than the tier's band allows", () => {
      // One crate 4 pushes west of its marked cell, the pusher at the far west end: 4 pushes, 22 steps.
      const far = scene(['####################', '#@                 #', '#                  #', '#           .   $  #', '#                  #', '####################']);
      const r = solveScene(far);
      expect(r.pushes).to.equal(4);
      expect(r.moves).to.be.greaterThan(TIER_SPEC.L1.steps[1]);
      expect(SHORTCUT_FILTERS[0].check(handInstance(far))).to.match(/22 steps, outside the tier's 8–20/);
    });
  });

  describe('physics', () => {
    it('pushes a crate up the ramp onto the platform; rails refuse the side and the edge, and everything rolls back', async () => {
      const env = await TaskEnv.create(p3CratePushing, handInstance(RAMP_ROOM));
      try {
        for (const d of ['north', 'east', 'east']) expect(env.execute({ tool: 'move', args: { direction: d } }).status).to.equal('ok');
        const before = env.stateHash();
        const side = env.execute({ tool: 'move', args: { direction: 'south' } });
        expect(side.status).to.equal('violation');
        expect(side.violation?.kind).to.equal('collision');
        expect(side.violation?.bodies.some((b) => b.startsWith('rail-'))).to.equal(true);
        const edge = env.execute({ tool: 'move', args: { direction: 'east' } });
        expect(edge.violation?.bodies.some((b) => b.startsWith('rail-'))).to.equal(true);
        expect(env.stateHash()).to.equal(before);
        for (const d of ['west', 'west', 'south', 'east']) expect(env.execute({ tool: 'move', args: { direction: d } }).status).to.equal('ok');
        // The crate now stands on the ramp, tilted to its slope.
        const q = env.world.getPose('crate-1').q;
        expect(Math.abs(q[2])).to.be.greaterThan(0.1);
        expect(env.progress()).to.be.closeTo(1 / 3, 1e-9);
        expect(env.execute({ tool: 'move', args: { direction: 'east' } }).message).to.match(/pushed/);
        expect(env.world.getPose('crate-1').p[1]).to.be.closeTo(0.02 + 0.018, 1e-6);
        expect(env.solved()).to.equal(false);
        expect(env.execute({ tool: 'move', args: { direction: 'east' } }).status).to.equal('ok');
        expect(env.solved()).to.equal(true);
      } finally {
        env.free();
      }
    });

    it('two crates in a row cannot be pushed: the first stops against the second', async () => {
      const env = await TaskEnv.create(p3CratePushing, handInstance(scene(['#######', '#@$$..#', '#     #', '#######'])));
      try {
        const r = env.execute({ tool: 'move', args: { direction: 'east' } });
        expect(r.status).to.equal('violation');
        expect(r.violation?.bodies).to.include.members(['crate-1', 'crate-2']);
      } finally {
        env.free();
      }
    });

    it('the world refuses exactly the steps the rules refuse (random walks in generated rooms, ramps included)', async function () {
      this.timeout(600_000);
      let checked = 0;
      for (const tier of ['L1', 'L3', 'L5'] as Tier[]) {
        for (const seed of [300, 301]) {
          const inst = p3CratePushing.generate(seed, tier);
          const level = parseLevel(inst.scene);
          const env = await TaskEnv.create(p3CratePushing, inst);
          try {
            let pusher = level.pusher;
            const crates = new Set(level.crates);
            const rng = new Rng(`p3-walk/${tier}/${seed}`);
            for (let i = 0; i < 120 && !env.terminated; i++) {
              const d = rng.int(0, 3);
              const to = step(level, pusher, d);
              const beyond = to >= 0 && crates.has(to) ? step(level, to, d) : -1;
              const legal = to >= 0 && (!crates.has(to) || (beyond >= 0 && !crates.has(beyond)));
              const r = env.execute({ tool: 'move', args: { direction: DIRS[d] } });
              expect(r.status, `${inst.id} step ${i} ${DIRS[d]}: ${r.message}`).to.equal(legal ? 'ok' : 'violation');
              if (legal) {
                if (crates.has(to)) {
                  crates.delete(to);
                  crates.add(beyond);
                }
                pusher = to;
              }
              checked++;
            }
          } finally {
            env.free();
          }
        }
      }
      expect(checked).to.be.greaterThan(500);
    });
  });

  it('its sightless strategies stay under their bounds through the real loop (10 seeds per tier)', async function () {
    this.timeout(600_000);
    const reports = await runBattery(p3CratePushing, { seeds: 10, strategies: [], skip: ['null', 'random'] });
    for (const r of reports) {
      expect(r.error, r.error).to.equal(undefined);
      for (const a of r.agents) expect(a.rate, `${r.tier} ${a.name}`).to.be.at.most(a.bound);
    }
    expect(reports.flatMap((r) => r.agents.map((a) => a.name))).to.include.members(['sweep-the-room', 'probe-and-push']);
  });
});
