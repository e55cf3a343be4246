/**
 * A4 burr: the geometry of the sticks (the standard six-piece burr's slots), the certificate
 * on the released tiers (the level the scene records is the search's, the tier's level range
 * and its count of sticks that slide straight out), a published fact as cross-check (a solid
 * six-piece burr — no internal voids — is level 1, its key stick sliding straight out: IBM
 * Research's Burr Puzzles pages after Cutler), and in the real world: the reference assembling
 * the burr with no violation, and an infeasible order — the stick that comes out first (so goes
 * in last) slid in first — refused with the one refusal text and the state hash unchanged.
 */
import { expect } from 'chai';
import { Rng } from '../core/rng.ts';
import type { Cell } from '../solvers/polycube.ts';
import { a4Burr as family } from '../tasks/assembly/a4-burr/family.ts';
import { burrDisassembly, connected, directlyRemovable, fullStick, SIX_SLOTS, THREE_SLOTS } from '../tasks/assembly/a4-burr/burr.ts';
import { sceneDisassembly } from '../tasks/assembly/a4-burr/plan.ts';
import { TIER_SPECS, type A4Scene } from '../tasks/assembly/a4-burr/scene.ts';
import { cellKey } from '../tasks/kits/polycube-pieces/cells.ts';
import { burrLevel, disjointAt } from '../tasks/kits/polycube-pieces/disassembly.ts';
import { TaskEnv } from '../tasks/env.ts';
import type { Instance, Tier, ToolCall } from '../tasks/types.ts';

const generated = new Map<Tier, Instance<A4Scene>>();

/** The tier's instance at seed 100, generated once per run. */
function instance(tier: Tier): Instance<A4Scene> {
  if (!generated.has(tier)) generated.set(tier, family.generate(100, tier));
  return generated.get(tier)!;
}

function referenceCalls(inst: Instance<A4Scene>): ToolCall[] {
  return (family.reference(inst) as { calls: ToolCall[] }).calls;
}

async function envOf(inst: Instance<A4Scene>): Promise<TaskEnv> {
  return TaskEnv.create(family as never, inst as Instance);
}

/** Cubes shared by two or more full sticks: where notches are cut. */
function sharedCubes(slots: typeof SIX_SLOTS): number {
  const count = new Map<string, number>();
  for (const s of slots) for (const c of fullStick(s)) count.set(cellKey(c), (count.get(cellKey(c)) ?? 0) + 1);
  return [...count.values()].filter((n) => n >= 2).length;
}

describe('A4 burr', function () {
  this.timeout(300000);

  describe('geometry', () => {
    it('the six sticks are the standard six-piece burr: 2 × 2 × 6 sticks in a 6 × 6 × 6 box, two per axis, side by side', () => {
      const all = SIX_SLOTS.flatMap(fullStick);
      for (let a = 0; a < 3; a++) {
        expect(Math.min(...all.map((c) => c[a]))).to.equal(-3);
        expect(Math.max(...all.map((c) => c[a]))).to.equal(2);
      }
      expect(SIX_SLOTS.map((s) => s.axis).sort()).to.deep.equal([0, 0, 1, 1, 2, 2]);
      for (const s of SIX_SLOTS) expect(fullStick(s)).to.have.length(24);
      // Every pair of crossing sticks shares 2 × 2 × 1 cubes; parallel ones share none.
      expect(sharedCubes(SIX_SLOTS)).to.be.greaterThan(0);
      expect(disjointAt(SIX_SLOTS.slice(0, 2).map(fullStick), [[0, 0, 0], [0, 0, 0]])).to.equal(true);
    });

    it('three sticks through one 2 × 2 × 2 centre lock for good; the off-centre three-stick slots do not', () => {
      // Through one centre every stick is held on all sides by the arms of the other two.
      const centred = [{ axis: 0 as const, across: [-1, -1] as [number, number] }, { axis: 1 as const, across: [-1, -1] as [number, number] }, { axis: 2 as const, across: [-1, -1] as [number, number] }];
      // Give the centre's 8 cubes to the sticks in every way that keeps each stick whole (its spine through the centre): none comes apart.
      const rng = new Rng('A4-test/centred');
      let tried = 0;
      for (let t = 0; t < 400 && tried < 40; t++) {
        const sticks = centred.map(fullStick).map((cells) => cells.filter((c) => !(c[0] >= -1 && c[0] <= 0 && c[1] >= -1 && c[1] <= 0 && c[2] >= -1 && c[2] <= 0)));
        for (const c of fullStick(centred[0]).filter((c) => c[0] >= -1 && c[0] <= 0 && c[1] >= -1 && c[1] <= 0 && c[2] >= -1 && c[2] <= 0)) {
          const owner = rng.int(0, 3);
          if (owner < 3) sticks[owner].push(c);
        }
        if (!sticks.every(connected)) continue;
        tried++;
        expect(burrDisassembly(sticks, 1)).to.equal(null);
      }
      expect(tried).to.be.greaterThan(0);
      // The off-centre slots: the released L1 burr comes apart.
      expect(THREE_SLOTS.map((s) => s.axis)).to.deep.equal([0, 1, 2]);
      expect(sceneDisassembly(instance('L1').scene).level).to.equal(1);
    });
  });

  describe('cross-check with a published fact: a solid six-piece burr with a key stick is level 1', () => {
    // IBM Research, "Burr Puzzles" (research.ibm.com/BurrPuzzles, after W. Cutler's analysis):
    // solid burrs — no internal voids — come apart with their first move, the key piece (an
    // un-notched stick) sliding straight out; every solid six-piece burr is level 1. Build solid
    // burrs of the standard shape with an un-notched key: every shared cube given to a stick,
    // none left empty. Whenever the search can take one apart, its level must be 1, in the free
    // model with group moves (as BurrTools counts) and with a stick clamped as A4 plays it.
    it('every solid burr of the standard shape the search can take apart is level 1', () => {
      const rng = new Rng('A4-test/solid');
      let apart = 0;
      for (let t = 0; t < 3000 && apart < 5; t++) {
        const key = rng.int(0, 5);
        const fulls = SIX_SLOTS.map(fullStick);
        const owners = new Map<string, number[]>();
        fulls.forEach((cells, s) => cells.forEach((c) => owners.set(cellKey(c), [...(owners.get(cellKey(c)) ?? []), s])));
        const sticks: Cell[][] = fulls.map(() => []);
        for (const [k, own] of [...owners.entries()].sort()) {
          const c = k.split(',').map(Number) as Cell;
          // The key keeps every cube it has; the others share the rest.
          const owner = own.includes(key) ? key : rng.pick(own);
          sticks[owner].push(c);
        }
        if (!sticks.every(connected)) continue;
        const free = burrLevel({ pieces: sticks, groups: true });
        if (!free) continue;
        apart++;
        expect(free.level).to.equal(1);
        expect(burrLevel({ pieces: sticks })!.level).to.equal(1);
        // The key is un-notched and slides straight out.
        expect(sticks[key]).to.have.length(24);
        expect(directlyRemovable(sticks, (key + 1) % 6)).to.include(key);
      }
      expect(apart, 'solid burrs that come apart were found').to.be.greaterThan(0);
    });
  });

  describe('the certificate on the released tiers', () => {
    for (const tier of ['L1', 'L3', 'L5', 'L7'] as Tier[]) {
      it(`${tier}: the recorded level is the search's and within the tier; at most the tier's sticks slide straight out`, () => {
        const s = instance(tier).scene;
        const dis = sceneDisassembly(s);
        const spec = TIER_SPECS[tier];
        expect(dis.level).to.equal(s.level);
        expect(s.level).to.be.within(spec.level[0], spec.level[1]);
        const key = s.sticks.findIndex((t) => t.key);
        expect(directlyRemovable(s.sticks.map((t) => t.cells), key).length).to.be.at.most(spec.maxDirect);
        expect(s.sticks).to.have.length(spec.slots.length);
        // Every stick but the key starts out of the burr.
        for (const t of s.sticks) expect(t.start.some((v) => v !== 0)).to.equal(!t.key);
      });
    }
  });

  describe('in the real world', () => {
    for (const tier of ['L1', 'L5'] as Tier[]) {
      it(`${tier}: the reference assembles the burr with no violation; the first-out stick slid in first makes the rest refused, nothing moved`, async () => {
        const inst = instance(tier);
        const calls = referenceCalls(inst);
        const env = await envOf(inst);
        try {
          for (const c of calls) expect(env.execute(c).status, JSON.stringify(c)).to.equal('ok');
          expect(env.solved()).to.equal(true);
        } finally {
          env.free();
        }
        // The stick that comes out first goes in last; play its slides first, then the rest.
        const first = sceneDisassembly(inst.scene).phases[0].removal.pieces[0];
        const name = inst.scene.sticks[first].name;
        const order = [...calls.filter((c) => c.args.stick === name), ...calls.filter((c) => c.args.stick !== name)];
        const wrong = await envOf(inst);
        try {
          let refused = 0;
          for (const c of order) {
            const h = wrong.stateHash();
            const r = wrong.execute(c);
            if (r.status === 'ok') continue;
            refused++;
            expect(r.status).to.equal('violation');
            expect(r.violation!.kind).to.equal('rule');
            expect(r.message).to.equal(`'${c.args.stick}' cannot make that slide; nothing moved.`);
            expect(wrong.stateHash()).to.equal(h);
          }
          expect(refused, 'a stick whose way in the first-out stick closes is refused').to.be.greaterThan(0);
          expect(wrong.solved()).to.equal(false);
        } finally {
          wrong.free();
        }
      });
    }

    it('the key stick is clamped: the tool offers only the five other sticks', () => {
      const inst = instance('L3');
      const tool = inst.tools.find((t) => t.name === 'slide')!;
      const names = (tool.parameters as { properties: { stick: { enum: string[] } } }).properties.stick.enum;
      expect(names).to.not.include('grey');
      expect(names).to.have.length(5);
    });
  });
});
