import { expect } from 'chai';
import { expectTextAlikeOverSeeds } from './support/text-alike.ts';
import { Rng } from '../core/rng.ts';
import { inverseTransformPoint } from '../sim/math.ts';
import { TaskEnv } from '../tasks/env.ts';
import { CUBE_BODIES, TRAY_TOP } from '../tasks/puzzles/p4-gravity-maze/episode.ts';
import { p4GravityMaze } from '../tasks/puzzles/p4-gravity-maze/family.ts';
import { bestFixedSequence, SHORTCUT_FILTERS } from '../tasks/puzzles/p4-gravity-maze/filters.ts';
import { drawScene } from '../tasks/puzzles/p4-gravity-maze/generate.ts';
import { applyMove, cellOf, EXITED, MAZE_MOVES, mazeProblem, ORIENTATIONS, parseMaze } from '../tasks/puzzles/p4-gravity-maze/maze.ts';
import { breadthFirst } from '../solvers/discrete-search/index.ts';
import { actionBudget, BALL_RADIUS, CENTRE, TIER_SPEC, type P4Scene } from '../tasks/puzzles/p4-gravity-maze/scene.ts';
import { moveToCall, solveMaze, startState } from '../tasks/puzzles/p4-gravity-maze/solver.ts';
import type { Instance, Tier } from '../tasks/types.ts';
import { runBattery } from '../verify/battery.ts';
import { TIERS } from '../core/catalog.ts';

/** Every surface cell solid but one column (x 0, z 0) from bottom to top; the exit is the top face of its top cell. */
function columnMaze(extra: Partial<P4Scene> = {}): P4Scene {
  const layers = [0, 1, 2, 3].map(() => ['.###', '####', '####', '####']);
  return { size: 4, cell: 0.03, layers, ball: { x: 0, y: 0, z: 0 }, exit: { x: 0, y: 3, z: 0, face: 'up' }, opaque: false, viewAzimuth: 0, optimum: { turns: 2, solutions: 4 }, ...extra };
}

function handInstance(s: P4Scene): Instance<P4Scene> {
  const base = p4GravityMaze.generate(100, 'L1');
  return { ...base, id: 'P4-hand', scene: s };
}

describe('P4 gravity maze', () => {
  describe('model and solver', () => {
    it('there are 24 orientations, and each tilt or spin four times over is the identity', () => {
      expect(ORIENTATIONS).to.have.length(24);
      const maze = parseMaze(columnMaze());
      for (let k = 0; k < MAZE_MOVES.length; k++) {
        let s = { o: 0, cell: 0 };
        for (let i = 0; i < 4; i++) s = applyMove(maze, s, k);
        expect(s.o, MAZE_MOVES[k]).to.equal(0);
      }
    });

    it('a hand-built column maze: the cube must be turned upside down, 2 turns, by any of the 4 doubled tilts', () => {
      const r = solveMaze(columnMaze());
      expect(r.length).to.equal(2);
      expect(r.optimalCount).to.equal(4);
      expect(r.moves[0]).to.equal(r.moves[1]);
      expect(r.moves[0]).to.match(/^tilt/);
    });

    it('refuses a maze whose exit the ball can never reach', () => {
      // The exit is in an open cell walled off from the ball's column.
      const layers = [0, 1, 2, 3].map(() => ['.###', '####', '####', '####']);
      layers[3][3] = '###.';
      const s = columnMaze({ layers, exit: { x: 3, y: 3, z: 3, face: 'up' } });
      const r = solveMaze(s);
      expect(r.solvable).to.equal(false);
      expect(SHORTCUT_FILTERS[0].check(handInstance(s))).to.match(/never leave/);
    });

    it('the generator is deterministic, keeps the core solid, rests the ball, and lands in the band', () => {
      for (const tier of ['L1', 'L3', 'L5'] as Tier[]) {
        const a = drawScene(106, tier, 0, { memo: false });
        expect(drawScene(106, tier, 0, { memo: false })).to.deep.equal(a);
        const maze = parseMaze(a);
        for (let i = 0; i < 64; i++) {
          const c = cellOf(i);
          if ([c.x, c.y, c.z].every((v) => v === 1 || v === 2)) expect(maze.solid[i]).to.equal(true);
        }
        const below = a.ball.y === 0 || a.layers[a.ball.y - 1][a.ball.z][a.ball.x] === '#';
        expect(below).to.equal(true);
        const r = solveMaze(a);
        expect(r.length).to.be.within(TIER_SPEC[tier].band[0], TIER_SPEC[tier].band[1]);
        expect(a.optimum).to.deep.equal({ turns: r.length, solutions: r.optimalCount });
      }
      const l7 = p4GravityMaze.generate(106, 'L7');
      const l5 = p4GravityMaze.generate(106, 'L5');
      expect(l7.scene.layers).to.deep.equal(l5.scene.layers);
      expect([90, 180, 270]).to.include(l7.scene.viewAzimuth);
      expect(l7.camera.initial.azimuth).to.not.equal(l5.camera.initial.azimuth);
    });
  });

  describe('text and budget (issue 36)', () => {
    it("states the same title, rules and budget for every seed of a tier (version 2's budget told the fewest turns)", () => {
      for (const tier of TIERS) expect(p4GravityMaze.generate(100, tier).budgets.actions, tier).to.equal(actionBudget(tier));
      // The seeds' optima differ, so a budget that followed them would differ too.
      const turns = (inst: Instance): number => (inst.scene as P4Scene).optimum.turns;
      expectTextAlikeOverSeeds(p4GravityMaze, TIERS, {
        measure: turns,
        check: (inst, seed, tier) => expect(inst.budgets.actions!, `${tier} seed ${seed}`).to.be.at.least(turns(inst) + Math.ceil(turns(inst) / 2)),
      });
    });
  });

  describe('physics', () => {
    it('the cube turns with the ball inside as one group; upside down, the ball drops out through the hole onto the tray', async () => {
      const env = await TaskEnv.create(p4GravityMaze, handInstance(columnMaze()));
      try {
        const local = (): number[] => inverseTransformPoint(env.world.getPose('maze-blocks'), env.world.getPose('ball').p);
        const before = local();
        const p0 = env.world.getPose('ball').p;
        expect(env.execute({ tool: 'spin', args: { direction: 'clockwise' } }).status).to.equal('ok');
        expect(local().map((v, i) => v - before[i]).every((d) => Math.abs(d) < 1e-6)).to.equal(true);
        expect(env.execute({ tool: 'tilt', args: { toward: 'north' } }).status).to.equal('ok');
        // Carried with the cube: the same cell of the cube (the ball only settles against the glass
        // that is now its floor, 4 mm from where it lay), another place in the world.
        expect(local().map((v) => Math.floor(v / 0.03 + 2))).to.deep.equal([0, 0, 0]);
        expect(local().map((v, i) => Math.abs(v - before[i])).reduce((a, b) => a + b)).to.be.closeTo(0.03 / 2 - BALL_RADIUS - 0.0001, 0.0002);
        expect(Math.hypot(...env.world.getPose('ball').p.map((v, i) => v - p0[i]))).to.be.greaterThan(0.03);
        for (const b of CUBE_BODIES) expect(env.world.getPose(b).q).to.deep.equal(env.world.getPose('maze-blocks').q);
        expect(env.solved()).to.equal(false);
        expect(env.execute({ tool: 'tilt', args: { toward: 'north' } }).status).to.equal('ok');
        expect(env.solved()).to.equal(true);
        expect(env.world.getPose('ball').p[1]).to.be.closeTo(TRAY_TOP + BALL_RADIUS, 0.0005);
        expect(env.world.getPose('ball').p[1]).to.be.below(CENTRE[1]);
      } finally {
        env.free();
      }
    });

    it('the ball ends every turn in the cell the search\'s model says (random turns in generated mazes)', async function () {
      this.timeout(600_000);
      let checked = 0;
      let exits = 0;
      for (const tier of ['L1', 'L3', 'L5'] as Tier[]) {
        for (const seed of [300, 301, 302]) {
          const inst = p4GravityMaze.generate(seed, tier);
          const maze = parseMaze(inst.scene);
          const env = await TaskEnv.create(p4GravityMaze, inst);
          try {
            let st = startState(inst.scene);
            const rng = new Rng(`p4-walk/${tier}/${seed}`);
            // Twenty random turns, then the shortest way out from wherever the ball is.
            const plan: number[] = [];
            for (let i = 0; i < 40 && st.cell !== EXITED; i++) {
              if (i === 20) {
                const out = breadthFirst(mazeProblem(maze, st));
                if (out.solvable) plan.push(...out.moves.map((m) => MAZE_MOVES.indexOf(m)));
              }
              const k = i >= 20 && plan.length ? plan.shift()! : rng.int(0, MAZE_MOVES.length - 1);
              expect(env.execute(moveToCall(MAZE_MOVES[k])).status).to.equal('ok');
              st = applyMove(maze, st, k);
              const local = inverseTransformPoint(env.world.getPose('maze-blocks'), env.world.getPose('ball').p);
              if (st.cell === EXITED) {
                exits++;
                expect(env.solved(), `${inst.id} turn ${i}`).to.equal(true);
              } else {
                const c = cellOf(st.cell);
                const idx = local.map((v) => Math.floor(v / inst.scene.cell + 2));
                expect(idx, `${inst.id} turn ${i} ${MAZE_MOVES[k]}`).to.deep.equal([c.x, c.y, c.z]);
                expect(env.solved()).to.equal(false);
              }
              checked++;
            }
          } finally {
            env.free();
          }
        }
      }
      expect(checked).to.be.greaterThan(200);
      expect(exits).to.be.greaterThan(0);
    });
  });

  describe('shortcuts', () => {
    it('the best fixed sequence fitted on training mazes frees few unseen ones', () => {
      const training = Array.from({ length: 8 }, (_, i) => p4GravityMaze.generate(1_000_000 + i, 'L1'));
      const seq = bestFixedSequence(training, 6);
      expect(seq.length).to.be.within(1, 6);
      let freed = 0;
      const judged = 40;
      for (let seed = 0; seed < judged; seed++) {
        const inst = p4GravityMaze.generate(seed, 'L1');
        const maze = parseMaze(inst.scene);
        let st = startState(inst.scene);
        for (const k of seq.slice(0, inst.budgets.actions)) {
          st = applyMove(maze, st, k);
          if (st.cell === EXITED) break;
        }
        if (st.cell === EXITED) freed++;
      }
      expect(freed / judged).to.be.at.most(0.1);
    });

    it('its sightless strategies stay under their bounds through the real loop (10 seeds per tier)', async function () {
      this.timeout(600_000);
      const reports = await runBattery(p4GravityMaze, { seeds: 10, strategies: [], skip: ['null', 'random'] });
      for (const r of reports) {
        expect(r.error, r.error).to.equal(undefined);
        for (const a of r.agents) expect(a.rate, `${r.tier} ${a.name}`).to.be.at.most(a.bound);
      }
      expect(reports.flatMap((r) => r.agents.map((a) => a.name))).to.include.members(['random-turns', 'tilt-round', 'learned-sequence', 'rock-and-spin']);
    });
  });
});
