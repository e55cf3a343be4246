/**
 * A3's own sightless adversary, `clear-and-probe` (issue 36): it never looks. It lifts every
 * piece it can out of the box (a `remove` that goes through tells it the piece started there;
 * one refused for a piece on top is tried again once that one is out), so that the box is empty
 * and every piece lies on the table; then, as A1's `probe-and-pack`, for each piece it keeps
 * every shape the piece could be as it lies (every polycube of the tier's sizes within a 3×3×3
 * block, in its flattest orientations that stand), places it into the empty box with the turns
 * and cell whose predicted outcome (accepted or refused) splits the surviving shapes most evenly,
 * removing it when it goes in, until the piece is pinned; then it packs the pinned shapes by
 * exact cover, orders the placements with the family's order search and plays them.
 */
import { countPackings, enumeratePolycubes, orientations, rotate, type Cell } from '../../../solvers/polycube.ts';
import { breadthFirst } from '../../../solvers/discrete-search/index.ts';
import { fromAgentCell, referenceCube, toAgentCell } from '../../kits/polycube-pieces/cells.ts';
import { subsetsWithVolume } from '../../kits/polycube-pieces/filling.ts';
import { blockCells } from '../../kits/polycube-pieces/partition.ts';
import { ROTATIONS, SHORTEST_TURNS, turnsOnto } from '../../kits/polycube-pieces/rotations.ts';
import { centreOverSupport, standsOnTable } from '../../kits/polycube-pieces/statics.ts';
import { replayProgram, type SightlessProgram } from '../../kits/sightless-replay.ts';
import type { SightlessResult, SightlessStrategy, SightlessView } from '../../sightless.ts';
import type { Tier, ToolCall } from '../../types.ts';
import { orderProblem } from './order.ts';
import { CELL_MAX, inBox, TIER_SPECS, type BoxDims } from './scene.ts';

/** One probe: a rotation (index into ROTATIONS) and the agent's cell. */
interface Probe {
  rotation: number;
  cell: [number, number, number];
}

/** Every shape a piece of `sizes` could lie in on the table: flattest standing orientations of each polycube within a 3×3×3 block. */
function tableShapes(sizes: readonly [number, number]): Cell[][] {
  const out: Cell[][] = [];
  for (let n = sizes[0]; n <= sizes[1]; n++) {
    for (const p of enumeratePolycubes(n)) {
      const extent = [0, 1, 2].map((a) => Math.max(...p.map((c) => c[a])) - Math.min(...p.map((c) => c[a])));
      if (extent.some((e) => e > 2)) continue;
      const stands = orientations(p).filter(standsOnTable);
      if (!stands.length) continue;
      const height = (o: Cell[]): number => Math.max(...o.map((c) => c[1])) + 1;
      const low = Math.min(...stands.map(height));
      out.push(...stands.filter((o) => height(o) === low));
    }
  }
  return out;
}

/** Whether placing `cells` turned by `rotation` with its reference cube at `agentCell` into the empty box is accepted. */
export function acceptedInEmptyBox(cells: readonly Cell[], rotation: number, agentCell: readonly number[], box: BoxDims): boolean {
  const turned = rotate(cells, ROTATIONS[rotation]);
  const ref = referenceCube(turned);
  const at = fromAgentCell(agentCell, box);
  const placed = turned.map((c) => [c[0] - ref[0] + at[0], c[1] - ref[1] + at[1], c[2] - ref[2] + at[2]] as Cell);
  if (!placed.every((c) => inBox(box, c))) return false;
  return centreOverSupport(placed, placed.filter((c) => c[1] === 0));
}

interface TierModel {
  box: BoxDims;
  shapes: Cell[][];
  probes: Probe[];
  /** accepted[shape][probe] */
  accepted: boolean[][];
  best: Map<string, number>;
}

const MODELS = new Map<Tier, TierModel>();

function model(tier: Tier): TierModel {
  let m = MODELS.get(tier);
  if (m) return m;
  const spec = TIER_SPECS[tier];
  const shapes = tableShapes(spec.sizes);
  const probes: Probe[] = [];
  for (let rotation = 0; rotation < ROTATIONS.length; rotation++) {
    for (let a = 0; a < CELL_MAX.cols; a++) for (let b = 0; b < CELL_MAX.rows; b++) for (let c = 0; c < CELL_MAX.layers; c++) probes.push({ rotation, cell: [a, b, c] });
  }
  const accepted = shapes.map((s) => probes.map((p) => acceptedInEmptyBox(s, p.rotation, p.cell, spec.box)));
  m = { box: spec.box, shapes, probes, accepted, best: new Map() };
  MODELS.set(tier, m);
  return m;
}

/** The probe whose accepted/refused outcome splits `alive` shapes most evenly; -1 when none tells them apart. */
function bestProbe(m: TierModel, alive: number[]): number {
  const key = alive.join(',');
  const hit = m.best.get(key);
  if (hit !== undefined) return hit;
  let best = -1;
  let bestGap = alive.length;
  for (let p = 0; p < m.probes.length; p++) {
    let yes = 0;
    for (const s of alive) if (m.accepted[s][p]) yes++;
    if (yes === 0 || yes === alive.length) continue;
    const gap = Math.abs(alive.length - 2 * yes);
    if (gap < bestGap) {
      bestGap = gap;
      best = p;
    }
  }
  m.best.set(key, best);
  return best;
}

function pieceNames(view: SightlessView): string[] {
  const tool = view.tools.find((t) => t.name === 'place');
  return (tool?.parameters as { properties?: { piece?: { enum?: string[] } } }).properties?.piece?.enum ?? [];
}

/** A plan for pinned shapes: a filling subset, a packing and an order from the empty box; null when none. */
function planFor(shapes: readonly Cell[][], box: BoxDims): ToolCall[] | null {
  const target = blockCells(box);
  for (const subset of subsetsWithVolume(shapes, target.length)) {
    const { packings } = countPackings(subset.map((i) => shapes[i]), target, { collect: true, limit: 20 });
    for (const local of packings!) {
      const packing: Array<Cell[] | null> = shapes.map(() => null);
      subset.forEach((p, i) => (packing[p] = local[i]));
      const order = breadthFirst(orderProblem(packing, 0, true));
      if (!order.solvable) continue;
      return order.moves.map((mv) => {
        const cells = packing[mv.piece]!;
        return { tool: 'place', args: { piece: String(mv.piece), turns: turnsOnto(shapes[mv.piece], cells).turns, cell: toAgentCell(referenceCube(cells), box) } };
      });
    }
  }
  return null;
}

/** The program: clear the box, pin each piece's shape by probing the empty box, then pack and play. */
function* clearAndProbe(view: SightlessView): SightlessProgram {
  const m = model(view.tier as Tier);
  const names = pieceNames(view);
  // 1. Lift out everything that is in the box, retrying pieces that were pinned by another.
  let pending = names.slice();
  for (let round = 0; round < names.length && pending.length; round++) {
    const next: string[] = [];
    for (const name of pending) {
      const [r]: SightlessResult[] = yield [{ tool: 'remove', args: { piece: name } }];
      if (r.status === 'violation') next.push(name);
    }
    if (next.length === pending.length) return;
    pending = next;
  }
  // 2. Pin every piece's shape in the empty box.
  const pinned: Cell[][] = [];
  for (const name of names) {
    let alive = m.shapes.map((_, i) => i);
    while (alive.length > 1) {
      const p = bestProbe(m, alive);
      if (p < 0) break;
      const probe = m.probes[p];
      const res: SightlessResult[] = yield [
        { tool: 'place', args: { piece: name, turns: SHORTEST_TURNS[probe.rotation], cell: probe.cell } },
        { tool: 'remove', args: { piece: name } },
      ];
      const ok = res[0].status === 'ok';
      alive = alive.filter((s) => m.accepted[s][p] === ok);
      if (!alive.length) return;
    }
    pinned.push(m.shapes[alive[0]]);
  }
  // 3. Pack the pinned shapes and lower them in an order the order search allows.
  const plan = planFor(pinned, m.box);
  if (!plan) return;
  for (const call of plan) {
    const res: SightlessResult[] = yield [{ tool: 'place', args: { ...call.args, piece: names[Number(call.args.piece)] } }];
    if (res[0].status !== 'ok') return;
  }
}

/** `clear-and-probe`: A3's adaptive prober (see the file comment). */
export const CLEAR_AND_PROBE: SightlessStrategy = {
  name: 'clear-and-probe',
  description:
    "Lifts every piece it can out of the box, then pins each piece's shape without looking: places it into the empty box with the turns and cell that best split the shapes it could be (removing it when it goes in), then packs the pinned shapes by exact cover and lowers them in an order the order search allows.",
  bound: 0.1,
  next(ctx) {
    return replayProgram(ctx.history, () => clearAndProbe(ctx.view));
  },
};
