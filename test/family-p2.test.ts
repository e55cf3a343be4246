import { expect } from 'chai';
import { expectTextAlikeOverSeeds } from './support/text-alike.ts';
import { TaskEnv } from '../tasks/env.ts';
import { p2TrafficJam } from '../tasks/puzzles/p2-traffic-jam/family.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from '../tasks/puzzles/p2-traffic-jam/filters.ts';
import { compassX } from '../tasks/puzzles/p2-traffic-jam/episode.ts';
import { actionBudget, drawScene, lotProblem, TIER_SPEC } from '../tasks/puzzles/p2-traffic-jam/generate.ts';
import type { P2Scene } from '../tasks/puzzles/p2-traffic-jam/scene.ts';
import { solveTraffic } from '../tasks/puzzles/p2-traffic-jam/solver.ts';
import type { Instance, Tier } from '../tasks/types.ts';
import { playSightless } from './support/sightless-episode.ts';
import { TIERS } from '../core/catalog.ts';

/** A hand-built lot: A in row 2, a car B standing across A's lane at column 4, a car C below B. */
function handScene(extra: Partial<P2Scene> = {}): P2Scene {
  return {
    size: 6,
    cell: 0.05,
    vehicles: [
      { id: 'A', col: 0, row: 2, length: 2, axis: 'ew' },
      { id: 'B', col: 4, row: 1, length: 2, axis: 'ns' },
      { id: 'C', col: 4, row: 4, length: 2, axis: 'ns' },
    ],
    goalCol: 4,
    decoys: [],
    tall: null,
    ...extra,
  };
}

function handInstance(scene: P2Scene): Instance<P2Scene> {
  return { ...p2TrafficJam.generate(100, 'L1'), id: 'P2-hand', scene };
}

describe('P2 traffic jam', () => {
  describe('solver', () => {
    it('finds the one shortest plan of a hand-built lot: B north 1, then A east 4', () => {
      // B (rows 1–2) blocks A's lane; south it cannot clear the lane (C is in the way), north 1 it can.
      const r = solveTraffic(handScene());
      expect(r.length).to.equal(2);
      expect(r.optimalCount).to.equal(1);
      expect(r.moves).to.deep.equal([
        { block: 1, dir: 'north', cells: 1 },
        { block: 0, dir: 'east', cells: 4 },
      ]);
    });

    it('proves a lot unsolvable when a truck across the lane can never leave it', () => {
      // Truck B (rows 1–3) across the lane cannot go north far enough, and car C stops it going south.
      const scene = handScene({ vehicles: [handScene().vehicles[0], { id: 'B', col: 4, row: 1, length: 3, axis: 'ns' }, { id: 'C', col: 4, row: 4, length: 2, axis: 'ns' }] });
      const r = solveTraffic(scene);
      expect(r.solvable).to.equal(false);
      expect(SHORTCUT_FILTERS[0].check(handInstance(scene))).to.match(/never reach/);
    });

    it('lot checks catch overlaps and vehicles outside', () => {
      expect(lotProblem(handScene())).to.equal(null);
      expect(lotProblem(handScene({ vehicles: [...handScene().vehicles, { id: 'D', col: 3, row: 2, length: 2, axis: 'ew' }] }))).to.match(/overlaps/);
      expect(lotProblem(handScene({ vehicles: [...handScene().vehicles, { id: 'D', col: 5, row: 4, length: 3, axis: 'ns' }] }))).to.match(/outside/);
    });

    it('the generator is deterministic, its decoys are never needed, and L7 is the L5 lot with one tall vehicle', () => {
      const a = drawScene(104, 'L5', { memo: false });
      expect(drawScene(104, 'L5', { memo: false })).to.deep.equal(a);
      expect(a.scene.decoys).to.have.length(2);
      const held = solveTraffic(a.scene, a.scene.decoys);
      expect(held.length).to.equal(a.length);
      const l7 = drawScene(104, 'L7');
      expect(l7.scene.vehicles).to.deep.equal(a.scene.vehicles);
      expect(l7.scene.tall).to.be.a('string');
    });
  });

  describe('text and budget (issue 36)', () => {
    it("states the same title, rules and budget for every seed of a tier (version 4's budget told the fewest drives)", () => {
      const budgets: Record<Tier, number> = { L1: 12, L3: 20, L5: 28, L7: 28 };
      for (const tier of TIERS) {
        const first = p2TrafficJam.generate(100, tier);
        expect(first.budgets.actions, tier).to.equal(actionBudget(tier)).and.to.equal(budgets[tier]);
        expect(first.budgets.actions, tier).to.equal(2 * TIER_SPEC[tier].most);
        expect(first.rules).to.include(`at most ${first.budgets.actions} drives`);
      }
      // The seeds' fewest drives differ, so a budget that followed them would differ too.
      expectTextAlikeOverSeeds(p2TrafficJam, TIERS, {
        measure: (_, seed, tier) => drawScene(seed, tier).length,
        check: (inst, seed, tier) => {
          const { length } = drawScene(seed, tier);
          expect(length, `${tier} seed ${seed}`).to.be.within(TIER_SPEC[tier].band[0], TIER_SPEC[tier].most);
          expect(inst.budgets.actions!, `${tier} seed ${seed}`).to.be.at.least(2 * length);
        },
      });
    });

    it("refuses a start farther from the exit than the tier allows (the budget assumes its longest)", () => {
      // An L3 lot (7–10 moves from the exit) judged as an L1 instance (4–6).
      const { scene, length } = drawScene(101, 'L3');
      expect(SHORTCUT_FILTERS[0].check(handInstance(drawScene(101, 'L1').scene))).to.equal(null);
      expect(SHORTCUT_FILTERS[0].check(handInstance(scene))).to.equal(`car A is ${length} moves from the exit, more than the tier allows (6; the budget assumes it)`);
    });
  });

  describe('physics', () => {
    it('a blocked drive is a collision and a sideways drive a rule violation, both rolled back; the plan then solves it', async () => {
      const env = await TaskEnv.create(p2TrafficJam, handInstance(handScene()));
      try {
        const before = env.stateHash();
        const blocked = env.execute({ tool: 'drive', args: { vehicle: 'A', direction: 'east', cells: 4 } });
        expect(blocked.status).to.equal('violation');
        expect(blocked.violation?.kind).to.equal('collision');
        expect(blocked.violation?.bodies).to.include('vehicle-B');
        const sideways = env.execute({ tool: 'drive', args: { vehicle: 'A', direction: 'north', cells: 1 } });
        expect(sideways.violation?.kind).to.equal('rule');
        expect(env.stateHash()).to.equal(before);
        const plan = solveTraffic(handScene());
        for (const m of plan.moves) {
          const r = env.execute({ tool: 'drive', args: { vehicle: handScene().vehicles[m.block].id, direction: m.dir, cells: m.cells } });
          expect(r.status, r.message).to.equal('ok');
        }
        expect(env.solved()).to.equal(true);
      } finally {
        env.free();
      }
    });
  });

  describe('first view', () => {
    it('lays the compass N at the middle of the north rim unless the tall vehicle hides it there (version 6: P2-L7-s39)', () => {
      // No tall vehicle: the N stays where the grid-tray kit lays it.
      expect(compassX(p2TrafficJam.generate(39, 'L5'))).to.equal(0);
      expect(compassX(p2TrafficJam.generate(100, 'L7'))).to.equal(0);
      // P2-L7-s39: the tall car B stands in the second row from the north, just east of the middle; the N moves a column west.
      const inst = p2TrafficJam.generate(39, 'L7');
      expect(inst.scene.tall).to.equal('B');
      expect(compassX(inst)).to.equal(-0.05);
    });
  });

  describe('sightless strategies fail over many seeds', () => {
    for (const strategy of SIGHTLESS) {
      it(`${strategy.name} stays within its bound (${strategy.bound})`, async function () {
        this.timeout(600_000);
        let solved = 0;
        let played = 0;
        for (const tier of ['L1', 'L3', 'L5'] as Tier[]) {
          for (let seed = 200; seed < 206; seed++) {
            if (await playSightless(p2TrafficJam, p2TrafficJam.generate(seed, tier), strategy, seed, { turns: 60 })) solved++;
            played++;
          }
        }
        expect(solved / played).to.be.at.most(strategy.bound);
      });
    }
  });
});
