/**
 * T6 gear train: the exact ratio arithmetic, the train search on a hand-built pegboard, and the
 * real engine on it — the right train turns the pointer onto the mark (the measured rotation
 * agrees with the exact rational one within the mark's half-width), while a train of the wrong
 * ratio and a train turning the wrong way fail; a gear too big for its peg is refused and
 * changes nothing; the L7 off peg really breaks its route in the engine; and the generator's
 * references solve in the engine.
 */
import { expect } from 'chai';
import { World } from '../sim/world.ts';
import { build } from '../tasks/temporal/t6-gear-train/episode.ts';
import { t6GearTrain } from '../tasks/temporal/t6-gear-train/family.ts';
import { MARK_HALF_DEG, targetDeg, trainRatio, type T6Scene } from '../tasks/temporal/t6-gear-train/scene.ts';
import { bestTrain, measuredTurn, trainCalls } from '../tasks/temporal/t6-gear-train/solver.ts';
import { allTrains, solvingTrains, type Train } from '../tasks/temporal/t6-gear-train/trains.ts';
import type { Instance, TaskFamily, Tier } from '../tasks/types.ts';

const family = t6GearTrain as unknown as TaskFamily<T6Scene>;

/**
 * A hand-built board: I at (−0.2, 0); A 80 mm to its right (12 + 20 or 16 + 16 teeth mesh);
 * O 110 mm beyond A (20 + 24 or 16 + 28 mesh); B and C spare. The tray holds both choices.
 */
const HAND: T6Scene = {
  pegs: [
    { name: 'I', x: -0.2, z: 0 },
    { name: 'O', x: -0.01, z: 0 },
    { name: 'A', x: -0.12, z: 0 },
    { name: 'B', x: 0.2, z: -0.12 },
  ],
  tray: [12, 20, 24, 16, 16, 28],
  target: { num: 1, den: 2 },
  offPeg: null,
};

function withScene(tier: Tier, scene: T6Scene): Instance<T6Scene> {
  const i = family.generate(100, tier);
  return { ...i, scene };
}

function train(pegs: string[], teeth: number[]): Train {
  return { pegs, teeth, ratio: trainRatio(teeth) };
}

describe('T6 gear train', function () {
  this.timeout(600_000);

  it('the exact ratio is (−1)^(n−1) · z_first / z_last in lowest terms', () => {
    expect(trainRatio([12, 20, 24])).to.deep.equal({ num: 1, den: 2 });
    expect(trainRatio([16, 22])).to.deep.equal({ num: -8, den: 11 });
    expect(trainRatio([14, 30, 18, 21])).to.deep.equal({ num: -2, den: 3 });
  });

  it('the search finds exactly the trains the hand-built board allows', () => {
    const found = allTrains(HAND).map((t) => `${t.pegs.join('')}:${t.teeth.join(',')}`).sort();
    expect(found).to.deep.equal(['IAO:12,20,24', 'IAO:16,16,28']);
    expect(solvingTrains(HAND).map((t) => t.teeth)).to.deep.equal([[12, 20, 24]]);
    expect(bestTrain(HAND)?.teeth).to.deep.equal([12, 20, 24]);
  });

  it('in the engine the right train lands on the mark; a wrong ratio and a wrong direction do not', async () => {
    const instance = withScene('L1', HAND);
    const right = await measuredTurn(instance, train(['I', 'A', 'O'], [12, 20, 24]));
    // Exact: +1/2 turn = +180°; the pin contacts deliver it within the mark's half-width.
    expect(Math.abs(right.degrees - 180), `measured ${right.degrees}°`).to.be.at.most(MARK_HALF_DEG);
    expect(right.solved).to.equal(true);

    // Wrong ratio: 16 → 16 → 28 meshes on the same pegs and turns +4/7 of a turn (205.7°).
    const wrongRatio = await measuredTurn(instance, train(['I', 'A', 'O'], [16, 16, 28]));
    expect(Math.abs(wrongRatio.degrees - (360 * 4) / 7), `measured ${wrongRatio.degrees}°`).to.be.at.most(MARK_HALF_DEG);
    expect(wrongRatio.solved).to.equal(false);

    // Wrong direction: the asked rotation is −1/2 turn (clockwise), the train turns +1/2.
    const cw = withScene('L1', { ...HAND, target: { num: -1, den: 2 } });
    const wrongWay = await measuredTurn(cw, train(['I', 'A', 'O'], [12, 20, 24]));
    expect(wrongWay.degrees).to.be.greaterThan(150);
    expect(wrongWay.solved).to.equal(false);
  });

  it('a gear too big for its peg is refused as a collision and changes nothing', async () => {
    const world = await World.create();
    try {
      const env = build(withScene('L1', HAND), world);
      expect(world.attempt(() => env.tools.place_gear({ teeth: 12, peg: 'I' })).ok).to.equal(true);
      const before = world.stateHash();
      // 12 + 28 teeth need 100 mm between the pegs; I and A are 80 mm apart.
      const r = world.attempt(() => env.tools.place_gear({ teeth: 28, peg: 'A' }));
      expect(r.ok).to.equal(false);
      if (!r.ok) {
        expect(r.violation.kind).to.equal('collision');
        expect(r.violation.message).to.not.match(/\d+(\.\d+)?\s*(mm|cm|m|°|%)/);
      }
      expect(world.stateHash()).to.equal(before);
      // An unknown tooth count and an occupied peg are refused by rule.
      expect(world.attempt(() => env.tools.place_gear({ teeth: 30, peg: 'A' })).ok).to.equal(false);
      expect(world.attempt(() => env.tools.place_gear({ teeth: 20, peg: 'I' })).ok).to.equal(false);
      expect(world.stateHash()).to.equal(before);
    } finally {
      world.free();
    }
  });

  it('a peg off its spot (the L7 change) breaks its route in the engine: the output does not turn', async () => {
    // A moved 40.1 mm sideways: I–A is 89.5 mm instead of the 80 mm that 12 + 20 teeth need (the generator's least push: two pin radii and 3 mm).
    const off: T6Scene = { ...HAND, pegs: HAND.pegs.map((p) => (p.name === 'A' ? { ...p, z: 0.0401 } : p)), offPeg: 'A' };
    expect(solvingTrains(off)).to.have.length(0);
    const world = await World.create();
    try {
      const env = build(withScene('L7', off), world);
      for (const c of trainCalls(train(['I', 'A', 'O'], [12, 20, 24]))) expect(world.attempt(() => env.tools[c.tool](c.args)).ok, c.tool).to.equal(true);
      expect(Math.abs(world.meta.lastTurnDeg as number)).to.be.lessThan(MARK_HALF_DEG);
      expect(env.solved()).to.equal(false);
    } finally {
      world.free();
    }
  });

  it('the references of generated instances turn the output onto the mark in the engine', async () => {
    for (const tier of ['L1', 'L3', 'L5', 'L7'] as Tier[]) {
      const instance = family.generate(101, tier);
      const t = bestTrain(instance.scene) as Train;
      const m = await measuredTurn(instance, t);
      expect(Math.abs(m.degrees - targetDeg(instance.scene)), `${instance.id}: measured ${m.degrees}°, exact ${targetDeg(instance.scene)}°`).to.be.at.most(MARK_HALF_DEG);
      expect(m.solved).to.equal(true);
    }
  });

  it('the rules and tool descriptions read alike over seeds of a tier (but for the budget)', () => {
    for (const tier of ['L1', 'L3', 'L5', 'L7'] as Tier[]) {
      const texts = new Set<string>();
      for (let seed = 0; seed < 12; seed++) {
        const i = family.generate(seed, tier);
        texts.add(JSON.stringify([i.title, i.rules.replace(/Budget: \d+ actions/, 'Budget: N actions'), i.tools]));
      }
      expect(texts.size, tier).to.equal(1);
    }
  });
});
