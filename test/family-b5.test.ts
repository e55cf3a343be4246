/**
 * B5 multi-wall: the exact search on hand-built targets (least bricks against brute force, a
 * bridged opening, the cells the views fix), the generator's guarantees, and in the real world
 * (episodes through `TaskEnv`, Rapier and the brick statics): the released references match
 * every view and stand, while a structure one brick short, one with a brick moved by a stud
 * (a wrong view), and a brick lowered where nothing with studs is under it all fail.
 */
import { expect } from 'chai';
import { b5MultiWall } from '../tasks/construction/b5-multi-wall/family.ts';
import { sceneProblem } from '../tasks/construction/b5-multi-wall/filters.ts';
import { actionBudget, baseplatePart, cellsOfParts, sameViews, targetsOf, TIER_SETTINGS, type B5Scene, type Cell, type ViewName } from '../tasks/construction/b5-multi-wall/scene.ts';
import { allowedCells, cellsDetermined, leastBrickBuilds } from '../tasks/construction/b5-multi-wall/search.ts';
import { buildStands, placeCall, reference, searchScene } from '../tasks/construction/b5-multi-wall/solver.ts';
import { TaskEnv } from '../tasks/env.ts';
import { brickType } from '../tasks/kits/bricks/catalog.ts';
import { landParts } from '../tasks/kits/bricks/plan.ts';
import type { Instance, TaskFamily, Tier, ToolCall } from '../tasks/types.ts';

const family = b5MultiWall as unknown as TaskFamily;
const RELEASED: Tier[] = ['L3', 'L5', 'L7'];

async function play(instance: Instance<B5Scene>, calls: ToolCall[]): Promise<{ messages: string[]; statuses: string[]; solved: boolean; progress: number }> {
  const env = await TaskEnv.create(family, instance);
  try {
    const results = calls.map((c) => env.execute(c));
    return { messages: results.map((r) => r.message), statuses: results.map((r) => r.status), solved: env.solved(), progress: env.progress() };
  } finally {
    env.free();
  }
}

/** Every placement of a 1-wide type fully inside `cells` (brute force's candidates). */
function candidates(cells: Cell[], types: string[], plate: number): Array<{ type: string; col: number; row: number; rot: 0 | 90; layer: number; cells: string[] }> {
  const inside = new Set(cells.map((c) => c.join(',')));
  const out: Array<{ type: string; col: number; row: number; rot: 0 | 90; layer: number; cells: string[] }> = [];
  for (const type of types) {
    const t = brickType(type);
    for (const rot of [0, 90] as const) {
      if (rot === 90 && t.length === 1) continue;
      for (let l = 0; l < 4; l++)
        for (let r = 0; r < plate; r++)
          for (let c = 0; c < plate; c++) {
            const cs: string[] = [];
            for (let i = 0; i < t.length; i++) cs.push(rot === 0 ? `${c + i},${r},${l}` : `${c},${r + i},${l}`);
            if (cs.every((k) => inside.has(k))) out.push({ type, col: c, row: r, rot, layer: l, cells: cs });
          }
    }
  }
  return out;
}

describe('B5 multi-wall', function () {
  this.timeout(600000);

  describe('the exact search', () => {
    const plate = 8;
    const views: ViewName[] = ['front', 'right'];

    it('finds the least bricks of a straight wall, and agrees with brute force over every choice of placements', () => {
      // A wall along x at row 2: heights 2, 2, 1, 1, 2 from col 1.
      const heights = [2, 2, 1, 1, 2];
      const cells: Cell[] = [];
      heights.forEach((h, i) => {
        for (let l = 0; l < h; l++) cells.push([1 + i, 2, l]);
      });
      const targets = targetsOf(cells, views);
      const types = ['brick-1x1', 'brick-1x2', 'brick-1x4'];
      const res = leastBrickBuilds(plate, targets, views, types.map((type) => ({ type, count: 9 })), { accept: (b) => buildStands(plate, b) });
      expect(res.gaveUp).to.equal(false);
      // Layer 0: a 1x4 and a 1x1 (5 cells); layer 1: cols 1–2 (one 1x2) and col 5 (a 1x1).
      expect(res.least).to.equal(4);
      // Brute force: the least number of non-overlapping placements inside the allowed cells
      // whose projections equal the targets and that land and stand.
      const allowed = allowedCells(plate, targets, views);
      const cands = candidates(allowed, types, plate);
      let best = Infinity;
      const pick = (from: number, chosen: typeof cands, used: Set<string>): void => {
        if (chosen.length >= best) return;
        const built = targetsOf(chosen.flatMap((c) => c.cells.map((k) => k.split(',').map(Number) as Cell)), views);
        if (JSON.stringify(built) === JSON.stringify(targets)) {
          const b = { placements: chosen.slice().sort((a, b2) => a.layer - b2.layer).map(({ cells: _c, ...p }) => p) };
          if (buildStands(plate, b)) best = chosen.length;
          return;
        }
        for (let i = from; i < cands.length; i++) {
          if (cands[i].cells.some((k) => used.has(k))) continue;
          const next = new Set(used);
          cands[i].cells.forEach((k) => next.add(k));
          pick(i + 1, [...chosen, cands[i]], next);
        }
      };
      pick(0, [], new Set());
      expect(best).to.equal(res.least);
    });

    it('bridges an opening with a brick that reaches across from a support', () => {
      // A door at col 2, layer 0 of a wall cols 1–3, two bricks high.
      const cells: Cell[] = [[1, 4, 0], [3, 4, 0], [1, 4, 1], [2, 4, 1], [3, 4, 1]];
      const targets = targetsOf(cells, views);
      const only1x1 = leastBrickBuilds(plate, targets, views, [{ type: 'brick-1x1', count: 9 }], { accept: (b) => buildStands(plate, b) });
      expect(only1x1.build, 'a 1x1 over the door has nothing under it').to.equal(null);
      const res = leastBrickBuilds(plate, targets, views, [{ type: 'brick-1x1', count: 9 }, { type: 'brick-1x2', count: 9 }], { accept: (b) => buildStands(plate, b) });
      expect(res.least).to.equal(4);
      const over = res.build!.placements.filter((p) => p.layer === 1);
      expect(over.some((p) => p.type === 'brick-1x2' && (p.col === 1 || p.col === 2)), JSON.stringify(over)).to.equal(true);
    });

    it('tells when the views fix the filled cells', () => {
      const one: Cell[] = [[1, 3, 0], [2, 3, 0], [2, 3, 1]];
      expect(cellsDetermined(plate, targetsOf(one, views), views)).to.equal(true);
      // Two parallel walls along x: the front view cannot tell which row holds which part.
      const two: Cell[] = [[1, 1, 0], [2, 1, 0], [1, 5, 0], [2, 5, 0], [2, 5, 1]];
      expect(cellsDetermined(plate, targetsOf(two, views), views)).to.equal(false);
      const three: ViewName[] = ['front', 'right', 'top'];
      expect(cellsDetermined(plate, targetsOf(two, three), three)).to.equal(false);
      const apart: Cell[] = [[1, 1, 0], [2, 1, 0], [5, 5, 0], [6, 5, 0], [6, 5, 1]];
      expect(cellsDetermined(plate, targetsOf(apart, three), three)).to.equal(true);
    });
  });

  describe('the generator', () => {
    it('draws instances that pass their filters, with the budget 1.5× the reference', () => {
      for (const tier of ['L1', 'L3', 'L5', 'L7'] as Tier[]) {
        for (const seed of [1, 2, 3]) {
          const i = b5MultiWall.generate(seed, tier);
          expect(sceneProblem(i.scene, tier), `${i.id}`).to.equal(null);
          const ref = reference(i);
          expect(ref.calls.length - 1).to.equal(i.scene.leastBricks);
          expect(i.budgets.actions).to.equal(actionBudget(i.scene.leastBricks));
          expect(i.scene.views).to.deep.equal(TIER_SETTINGS[tier].views);
          if (TIER_SETTINGS[tier].uniqueCells) expect(allowedCells(i.scene.plate, i.scene.targets, i.scene.views).length, i.id).to.equal(i.scene.cells.length);
        }
      }
    });
  });

  describe('in the real world', () => {
    for (const tier of RELEASED) {
      it(`${tier} s100: the reference matches every view and stands; one brick short, a brick moved by a stud, and a brick over nothing fail`, async () => {
        const i = b5MultiWall.generate(100, tier);
        const ref = reference(i).calls;
        const ok = await play(i, ref);
        expect(ok.statuses.every((s) => s === 'ok'), ok.messages.join(' | ')).to.equal(true);
        expect(ok.solved).to.equal(true);

        // One brick short: the last brick of the build is left out (a wrong view).
        const short = await play(i, [...ref.slice(0, -2), ref[ref.length - 1]]);
        expect(short.solved).to.equal(false);
        expect(short.messages[short.messages.length - 1]).to.match(/differ from the targets/);
        expect(short.progress).to.be.greaterThan(0).and.lessThan(1);

        // The last brick moved by a stud, the first way (of ±x, ±z) that lands and changes a
        // view by the plan's own arithmetic: a wrong view in the real world too.
        const build = searchScene(i.scene).build!;
        const lastP = build.placements[build.placements.length - 1];
        const shifts: Array<[number, number]> = [[1, 0], [-1, 0], [0, 1], [0, -1]];
        const shift = shifts.find(([dc, dr]) => {
          const moved = [...build.placements.slice(0, -1), { ...lastP, col: lastP.col + dc, row: lastP.row + dr }];
          const landed = landParts([baseplatePart(i.scene.plate)], moved);
          if ('unsupported' in landed) return false;
          return !sameViews(targetsOf(cellsOfParts(landed.parts), i.scene.views), i.scene.targets, i.scene.views);
        });
        expect(shift, 'some one-stud move of the last brick changes a view').to.not.equal(undefined);
        const movedCall = placeCall(i.scene, { ...lastP, col: lastP.col + shift![0], row: lastP.row + shift![1] });
        const off = await play(i, [...ref.slice(0, -2), movedCall, ref[ref.length - 1]]);
        expect(off.statuses.slice(0, -1).every((st) => st === 'ok'), off.messages.join(' | ')).to.equal(true);
        expect(off.solved).to.equal(false);
        expect(off.messages[off.messages.length - 1]).to.match(/differ from the targets/);

        // A brick lowered beside the baseplate lands on nothing with studs: refused, and the
        // structure without it does not match.
        const s = i.scene;
        const beside: ToolCall = { tool: 'place', args: { brick_type: s.supply[0].type, x_m: Number((s.siteX - 0.052).toFixed(4)), z_m: s.siteZ, yaw_deg: 90 } };
        const none = await play(i, [beside, { tool: 'commit', args: {} }]);
        expect(none.statuses[0]).to.equal('violation');
        expect(none.messages[0]).to.match(/nothing with studs/);
        expect(none.solved).to.equal(false);
      });
    }
  });
});
