/**
 * M1 chiral peg-in-hole: the polyomino geometry, the generator's guarantees, the tools, and —
 * what makes an instance meaningful — that no decoy hole (least of all the mirror image) accepts
 * the peg while the matching hole accepts it in exactly one orientation.
 */
import { expect } from 'chai';
import { qangle, qaxisAngle, qmul, qrotate } from '../sim/math.ts';
import type { Pose, Quat } from '../sim/types.ts';
import { TaskEnv } from '../tasks/env.ts';
import { m1ChiralPeg } from '../tasks/manipulation/m1-chiral-peg/family.ts';
import { sceneProblem } from '../tasks/manipulation/m1-chiral-peg/filters.ts';
import { hiddenByPeg } from '../tasks/manipulation/m1-chiral-peg/sight.ts';
import { rollbackHighlight } from '../render/rollback-text.ts';
import { TIER_SETTINGS, actionBudget, drawScene } from '../tasks/manipulation/m1-chiral-peg/generate.ts';
import { feelForHole } from '../tasks/manipulation/m1-chiral-peg/filters.ts';
import { SightlessAgent } from '../agents/sightless/agent.ts';
import { runEpisode } from '../agents/loop.ts';
import { DEFAULT_MODE } from '../agents/modes.ts';
import type { SightlessStrategy } from '../tasks/sightless.ts';
import {
  CHIRAL_PENTOMINOES,
  cellCentres,
  freeKey,
  grownOutline,
  isChiral,
  mirror,
  oneCellMoves,
  oneSidedKey,
  outline,
  rotate90,
  type Cell2,
  type Point2,
} from '../tasks/manipulation/m1-chiral-peg/polyomino.ts';
import { CELL, INSERT_DEPTH, PEG_HEIGHT, PLATE, RAIL_WIDTH, goalQuat, holePolygon, holeRadius, yaw, type M1Scene } from '../tasks/manipulation/m1-chiral-peg/scene.ts';
import { Rng } from '../core/rng.ts';
import { TIERS, type Tier } from '../core/catalog.ts';

function area(poly: Point2[]): number {
  let a = 0;
  for (let i = 0; i < poly.length; i++) {
    const p = poly[i];
    const q = poly[(i + 1) % poly.length];
    a += p[0] * q[1] - q[0] * p[1];
  }
  return a / 2;
}

function inside(poly: Point2[], x: number, z: number): boolean {
  let c = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, zi] = poly[i];
    const [xj, zj] = poly[j];
    if (zi > z !== zj > z && x < ((xj - xi) * (z - zi)) / (zj - zi) + xi) c = !c;
  }
  return c;
}

/** Points on the shaft's outline (corners and every 2 mm along the edges), cell centres first. */
function pegSamples(cells: Cell2[]): Point2[] {
  const loop = grownOutline(cells, CELL, 0);
  const pts: Point2[] = [...cellCentres(cells, CELL)];
  for (let i = 0; i < loop.length; i++) {
    const a = loop[i];
    const b = loop[(i + 1) % loop.length];
    const n = Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1]) / 0.002);
    for (let k = 0; k < n; k++) pts.push([a[0] + ((b[0] - a[0]) * k) / n, a[1] + ((b[1] - a[1]) * k) / n]);
  }
  return pts;
}

/**
 * Whether the shaft's cross-section fits inside a hole outline (both centred on their bounding
 * boxes) at some turn (3° steps) and offset (1 mm steps, up to 25 mm): a search in the plane.
 */
function fitsSomewhere(peg: Cell2[], hole: Point2[]): boolean {
  const samples = pegSamples(peg);
  for (let deg = 0; deg < 360; deg += 3) {
    const c = Math.cos((deg * Math.PI) / 180);
    const s = Math.sin((deg * Math.PI) / 180);
    const turned = samples.map(([u, v]): Point2 => [c * u - s * v, s * u + c * v]);
    for (let dx = -25; dx <= 25; dx++) {
      for (let dz = -25; dz <= 25; dz++) {
        if (turned.every(([u, v]) => inside(hole, u + dx / 1000, v + dz / 1000))) return true;
      }
    }
  }
  return false;
}

describe('M1 chiral peg-in-hole', function () {
  this.timeout(60_000);

  describe('polyominoes', () => {
    it('the five peg shapes are chiral and have no rotational symmetry', () => {
      for (const [name, cells] of Object.entries(CHIRAL_PENTOMINOES)) {
        expect(isChiral(cells as Cell2[]), name).to.equal(true);
        let c = cells as Cell2[];
        const keys = new Set<string>();
        for (let k = 0; k < 4; k++) {
          keys.add(JSON.stringify(c));
          c = rotate90(c);
        }
        expect(keys.size, `${name} has a rotational symmetry`).to.equal(4);
      }
    });

    it('a grown outline has the area of the grown squares (A + perimeter·δ + 4δ²)', () => {
      for (const cells of Object.values(CHIRAL_PENTOMINOES) as Cell2[][]) {
        const loop = outline(cells);
        let perimeter = 0;
        for (let i = 0; i < loop.length; i++) {
          const a = loop[i];
          const b = loop[(i + 1) % loop.length];
          perimeter += Math.abs(b[0] - a[0]) + Math.abs(b[1] - a[1]);
        }
        const d = 0.003;
        const expected = 5 * CELL * CELL + perimeter * CELL * d + 4 * d * d;
        expect(area(grownOutline(cells, CELL, d))).to.be.closeTo(expected, 1e-12);
      }
    });

    it('one-square variants are never congruent to the shape or its mirror image', () => {
      for (const cells of Object.values(CHIRAL_PENTOMINOES) as Cell2[][]) {
        const variants = oneCellMoves(cells, 4);
        expect(variants.length).to.be.greaterThan(2);
        for (const v of variants) {
          expect(v).to.have.length(5);
          expect(freeKey(v)).to.not.equal(freeKey(cells));
        }
        expect(oneSidedKey(mirror(cells))).to.not.equal(oneSidedKey(cells));
      }
    });
  });

  describe('generator', () => {
    for (const tier of TIERS) {
      it(`${tier}: every draw has one matching hole, its mirror image, holes inside the plate and apart`, () => {
        const cfg = TIER_SETTINGS[tier];
        for (let seed = 0; seed < 25; seed++) {
          const s: M1Scene = drawScene(tier, Rng.forInstance('M1', tier, seed));
          expect(sceneProblem(s), `seed ${seed}`).to.equal(null);
          expect(s.holes).to.have.length(cfg.holes);
          expect(s.clearance).to.equal(cfg.clearance);
          expect(s.holes.filter((h) => oneSidedKey(h.cells) === oneSidedKey(s.pegCells))).to.have.length(1);
          for (const h of s.holes) {
            if (cfg.quarterTurns) expect(h.yawDeg % 90).to.equal(0);
            const r = holeRadius(h.cells, s.clearance);
            expect(Math.abs(h.x) + r).to.be.at.most(PLATE.width / 2 - RAIL_WIDTH);
            expect(Math.abs(h.z) + r).to.be.at.most(PLATE.depth / 2);
            for (const o of s.holes) {
              if (o === h) continue;
              expect(Math.hypot(o.x - h.x, o.z - h.z)).to.be.greaterThan(r + holeRadius(o.cells, s.clearance));
            }
          }
          const down = qrotate(s.start.q, [0, -1, 0]);
          if (cfg.tipped) expect(down[1], `seed ${seed}: the peg should start tipped`).to.be.greaterThan(-0.5);
          else expect(down[1]).to.be.closeTo(-1, 1e-9);
          if (cfg.rotatedFrame) expect(Math.abs(s.frameYawDeg)).to.be.within(30, 60);
          else expect(s.frameYawDeg).to.equal(0);
        }
      });
    }

    it('the peg never starts in front of a hole or a ruler\'s labels in the first view; a start over a hole is caught', () => {
      for (const tier of TIERS) {
        for (const seed of [100, 101, 102, 103]) {
          const inst = m1ChiralPeg.generate(seed, tier);
          expect(hiddenByPeg(inst.scene, inst.camera.initial, inst.rulers), inst.id).to.deep.equal([]);
        }
      }
      const inst = m1ChiralPeg.generate(100, 'L7');
      const h = inst.scene.holes[0];
      const over: M1Scene = { ...inst.scene, start: { ...inst.scene.start, p: [h.x, PLATE.top + 0.06, h.z] } };
      expect(hiddenByPeg(over, inst.camera.initial, inst.rulers)).to.include('the peg stands in front of hole 1 in the first view');
    });

    it('no decoy admits the shaft at any turn or offset, even at the widest clearance', () => {
      // Containment only gets easier as the clearance grows, so 4 mm (L1) bounds every tier.
      const wide = TIER_SETTINGS.L1.clearance;
      for (const seed of [100, 101]) {
        const s = drawScene('L5', Rng.forInstance('M1', 'L5', seed));
        for (const [i, h] of s.holes.entries()) {
          const fits = fitsSomewhere(s.pegCells, grownOutline(h.cells, CELL, wide));
          expect(fits, `seed ${seed}, hole ${i} (${h.kind})`).to.equal(i === s.match);
        }
      }
    });
  });

  describe('the world', () => {
    const lowerAt = (env: TaskEnv, x: number, z: number, q: Quat): boolean => {
      const above: Pose = { p: [x, PLATE.top + 0.04 + PEG_HEIGHT / 2, z], q };
      env.world.setPose('peg', above);
      const r = env.world.sweep('peg', { p: [x, PLATE.top - 0.025 + PEG_HEIGHT / 2, z], q });
      return !r.hit;
    };

    for (const id of ['M1-L1-s100', 'M1-L5-s100', 'M1-L7-s100']) {
      it(`${id}: the matching hole takes the peg in exactly one orientation; no decoy takes it at all`, async () => {
        const tier = id.split('-')[1] as Tier;
        const instance = m1ChiralPeg.generate(100, tier);
        const s = instance.scene;
        const env = await TaskEnv.create(m1ChiralPeg, instance);
        try {
          const flip = qaxisAngle([1, 0, 0], Math.PI);
          for (const [i, h] of s.holes.entries()) {
            // Turns relative to the hole's own (continuously drawn) turn: 0° is the one that fits.
            for (let k = 0; k < 24; k++) {
              const upright = yaw(h.yawDeg + k * 15);
              const fits = lowerAt(env, h.x, h.z, upright);
              const expected = i === s.match && k === 0;
              expect(fits, `hole ${i} (${h.kind}) at ${k * 15}° from its turn`).to.equal(expected);
              // Upside down (cap first) the peg shows the mirror image, but the cap never goes in.
              expect(lowerAt(env, h.x, h.z, qmul(upright, flip)), `hole ${i} (${h.kind}) cap first at ${k * 15}° from its turn`).to.equal(false);
            }
          }
        } finally {
          env.free();
        }
      });
    }

    it('tools: bad arguments are refused, leaving the workspace and touching the plate are rolled back', async () => {
      const env = await TaskEnv.create(m1ChiralPeg, m1ChiralPeg.generate(100, 'L3'));
      try {
        const start = env.world.getPose('peg');
        const hash = env.stateHash();
        expect(env.execute({ tool: 'rotate', args: { axis: 'y', angle_deg: 200 } }).status).to.equal('invalid');
        expect(env.execute({ tool: 'rotate', args: { axis: 'w', angle_deg: 10 } }).status).to.equal('invalid');
        expect(env.execute({ tool: 'translate', args: { dx_m: 0.6 } }).status).to.equal('invalid');
        expect(env.execute({ tool: 'translate', args: { dx_m: 0.1, extra: 1 } }).status).to.equal('invalid');
        const up = env.execute({ tool: 'translate', args: { dy_m: 0.4 } });
        expect(up.status).to.equal('violation');
        expect(up.violation?.kind).to.equal('workspace');
        const down = env.execute({ tool: 'translate', args: { dy_m: -0.2 } });
        expect(down.status).to.equal('violation');
        expect(down.violation?.kind).to.equal('collision');
        // The collider is not drawn: the violation names the drawn plate, so the rollback image tints it.
        expect(down.violation?.bodies).to.deep.equal(['peg', 'plate-surface']);
        expect(down.message).to.contain("'plate-surface'");
        expect(rollbackHighlight(down.violation!, env.scene()).others).to.deep.equal(['plate-surface']);
        expect(env.stateHash()).to.equal(hash);
        expect(env.world.getPose('peg')).to.deep.equal(start);
        // A half turn goes in two swept quarter turns and ends where one 180° turn about the axis would.
        expect(env.execute({ tool: 'rotate', args: { axis: 'x', angle_deg: 180 } }).status).to.equal('ok');
        const turned = env.world.getPose('peg');
        // (poses are stored in single precision, hence the loose tolerance)
        expect(qangle(turned.q, qmul(qaxisAngle([1, 0, 0], Math.PI), start.q))).to.be.below(2e-3);
        expect(qrotate(turned.q, [0, -1, 0])[1]).to.be.closeTo(1, 1e-6);
      } finally {
        env.free();
      }
    });

    it('progress pays only for the steps of an insertion: turned to fit, then over the right hole, then pushed in', async () => {
      const instance = m1ChiralPeg.generate(100, 'L5');
      const env = await TaskEnv.create(m1ChiralPeg, instance);
      try {
        const s = instance.scene;
        const hole = s.holes[s.match];
        const fit = goalQuat(s);
        const tilt = qmul(qaxisAngle([1, 0, 0], (10 * Math.PI) / 180), fit);
        const above = PLATE.top + 0.002 + PEG_HEIGHT / 2;
        const at = (x: number, y: number, z: number, q: Quat): number => {
          env.world.setPose('peg', { p: [x, y, z], q });
          return env.progress();
        };
        // Right over the matching hole, resting on the plate, but turned 10° off: nothing.
        expect(at(hole.x, above, hole.z, tilt)).to.equal(0);
        // Turned to fit, but beside the hole (5 cm off): the turn only.
        expect(at(hole.x + 0.05, above + 0.05, hole.z, fit)).to.be.closeTo(0.3, 1e-9);
        // Turned to fit and over the hole, not yet in: turn and alignment.
        expect(at(hole.x, above + 0.02, hole.z, fit)).to.be.closeTo(0.5, 1e-9);
        // Half the required depth in.
        expect(at(hole.x, PLATE.top - INSERT_DEPTH / 2 + PEG_HEIGHT / 2, hole.z, fit)).to.be.closeTo(0.5 + 0.45 / 2, 1e-3);
      } finally {
        env.free();
      }
    });

    it('progress rises along the reference, and only an inserted peg (cap above the plate) counts as solved', async () => {
      const instance = m1ChiralPeg.generate(100, 'L5');
      const env = await TaskEnv.create(m1ChiralPeg, instance);
      try {
        expect(env.progress()).to.be.closeTo(0, 1e-9);
        const ref = await m1ChiralPeg.reference(instance);
        let last = env.progress();
        ref.calls.forEach((call, i) => {
          expect(env.solved()).to.equal(false);
          const r = env.execute(call);
          expect(r.status, `${call.tool} ${JSON.stringify(call.args)}: ${r.message}`).to.equal('ok');
          const p = env.progress();
          expect(p).to.be.at.least(last - 1e-9);
          if (i < ref.calls.length - 1) expect(p).to.be.below(1);
          last = p;
        });
        expect(env.solved()).to.equal(true);
        expect(env.terminated).to.equal(true);
        // The same spot, orientation and depth test, but the whole peg under the plate: not inserted.
        const hole = instance.scene.holes[instance.scene.match];
        env.world.setPose('peg', { p: [hole.x, PLATE.top - PLATE.thickness - 0.01 - PEG_HEIGHT / 2, hole.z], q: yaw(hole.yawDeg) });
        expect(env.solved()).to.equal(false);
        // Inserted only 10 mm: not deep enough.
        env.world.setPose('peg', { p: [hole.x, PLATE.top - 0.01 + PEG_HEIGHT / 2, hole.z], q: yaw(hole.yawDeg) });
        expect(env.solved()).to.equal(false);
      } finally {
        env.free();
      }
    });
  });
});

describe('M1 validity contract (issue 36)', function () {
  this.timeout(600000);

  it('rules, title and tool descriptions read alike for every seed of a tier and carry no number but the action budget', () => {
    for (const tier of TIERS) {
      const texts = new Set<string>();
      for (let seed = 0; seed < 12; seed++) {
        const inst = m1ChiralPeg.generate(seed, tier);
        const text = [inst.title, inst.rules, ...inst.tools.filter((t) => t.kind === 'physical').map((t) => t.description)].join('\n');
        texts.add(text);
        // The budget, and translate's "omitted = 0".
        const numbers = new Set(text.match(/\d+(\.\d+)?/g) ?? []);
        expect([...numbers].sort(), `${inst.id}`).to.deep.equal([String(inst.budgets.actions), '0'].sort());
        expect(inst.budgets.actions).to.equal(actionBudget(tier));
      }
      expect(texts.size, tier).to.equal(1);
    }
  });

  it('refused calls count: a peg pushed into the plate again and again ends the episode at the action budget, unsolved', async () => {
    const instance = m1ChiralPeg.generate(100, 'L7');
    const push: SightlessStrategy = { name: 'push', description: 'pushes the peg down into the plate', bound: 1, next: () => [{ tool: 'translate', args: { dy_m: -0.3 } }] };
    const agent = new SightlessAgent(push, undefined, 0);
    const out = await runEpisode({ family: m1ChiralPeg, instance, agent, mode: DEFAULT_MODE, renderer: null, render: 'never' });
    expect(out.solved).to.equal(false);
    expect(out.endReason).to.equal('action-budget');
    expect(out.actions).to.equal(instance.budgets.actions);
  });

  it('the feel-for-hole prober fails on the continuous, budgeted instances (it must: the hole is found only by looking)', async () => {
    const strategy = feelForHole;
    const training = [100, 101, 102, 103].map((s) => ({ instance: m1ChiralPeg.generate(s + 5000, 'L1'), reference: { calls: [], method: 'unused' } }));
    const fitted = await strategy.fit!(training as never, { trial: async () => false });
    for (const seed of [100, 101, 102]) {
      const instance = m1ChiralPeg.generate(seed, 'L1');
      const agent = new SightlessAgent(strategy as SightlessStrategy, fitted, seed);
      const out = await runEpisode({ family: m1ChiralPeg, instance, agent, mode: DEFAULT_MODE, renderer: null, render: 'never' });
      expect(out.solved, instance.id).to.equal(false);
      expect(out.endReason, instance.id).to.equal('action-budget');
    }
  });

  it('no call result carries a number: moves, turns, refusals and the solving move alike', async () => {
    const instance = m1ChiralPeg.generate(100, 'L5');
    const env = await TaskEnv.create(m1ChiralPeg, instance);
    try {
      const ref = await m1ChiralPeg.reference(instance);
      const calls = [{ tool: 'translate', args: { dy_m: -0.3 } }, { tool: 'translate', args: { dx_m: 0.5 } }, ...ref.calls];
      for (const c of calls) {
        const r = env.execute(c);
        expect(r.message, JSON.stringify(c)).to.not.match(/\d/);
      }
      expect(env.solved()).to.equal(true);
    } finally {
      env.free();
    }
  });
});
