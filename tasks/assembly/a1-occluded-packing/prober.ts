/**
 * A1's adaptive sightless adversary, `probe-and-pack` (issue 36): it never looks. It takes the
 * tier's box from the generator's documented ranges and the piece names from the schema, and
 * for each piece keeps every shape it could be as it lies on the table (every polycube of the
 * tier's sizes that fits a 3×3×3 block, in each of its flattest orientations that stand). It
 * then places the piece into the empty box with the turns and cell whose predicted outcome
 * splits the surviving shapes most evenly (removing it again when the placement goes through),
 * keeps the shapes whose predicted outcome matches — every distinct refusal text counts: a
 * collision, "N of its cubes would be outside", "would tip over", a fall — until the piece is
 * pinned; then it packs the pinned shapes by exact cover (the family's own solver) and plays the
 * plan.
 */
import { enumeratePolycubes, orientations, rotate, type Cell } from '../../../solvers/polycube.ts';
import { fromAgentCell, referenceCube } from '../../kits/polycube-pieces/cells.ts';
import { ROTATIONS, SHORTEST_TURNS } from '../../kits/polycube-pieces/rotations.ts';
import { centreOverSupport, standsOnTable } from '../../kits/polycube-pieces/statics.ts';
import { replayProgram, type SightlessProgram } from '../../kits/sightless-replay.ts';
import type { SightlessResult, SightlessStrategy, SightlessView } from '../../sightless.ts';
import type { Tier, ToolCall } from '../../types.ts';
import { TIER_SPECS } from './generate.ts';
import type { BoxDims } from './scene.ts';
import { findPlan } from './solver.ts';

/** One probe: a rotation (index into ROTATIONS) and the agent's cell. */
interface Probe {
  rotation: number;
  cell: [number, number, number];
}

/** Every shape a piece of `sizes` could lie in on the table: flattest standing orientations of each polycube within a 3×3×3 block. */
function tableShapes(sizes: [number, number]): Cell[][] {
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

/**
 * The outcome a placement into the empty box would have, as the old result texts told it apart:
 * `collision` (lowered into a wall or the front rim), `outside:N` (N cubes above or beyond the
 * box, clear of its walls), `falls` (nothing under it), `tips` (centre of mass outside its
 * support) or `ok`.
 */
export function predictedOutcome(cells: readonly Cell[], rotation: number, agentCell: readonly number[], box: BoxDims): string {
  const turned = rotate(cells, ROTATIONS[rotation]);
  const ref = referenceCube(turned);
  const at = fromAgentCell(agentCell, box);
  const placed = turned.map((c) => [c[0] - ref[0] + at[0], c[1] - ref[1] + at[1], c[2] - ref[2] + at[2]] as Cell);
  const inside = (c: Cell): boolean => c[0] >= 0 && c[0] < box.cols && c[1] >= 0 && c[1] < box.layers && c[2] >= 0 && c[2] < box.rows;
  // Side and back walls are as high as the box; the front wall is a low rim that only a bottom-layer cube meets.
  const hitsWall = placed.some((c) => c[1] < box.layers && (c[0] < 0 || c[0] >= box.cols || c[2] < 0 || (c[2] >= box.rows && c[1] === 0)));
  if (hitsWall) return 'collision';
  const outside = placed.filter((c) => !inside(c)).length;
  if (outside) return `outside:${outside}`;
  const resting = placed.filter((c) => c[1] === 0);
  if (!resting.length) return 'falls';
  return centreOverSupport(placed, resting) ? 'ok' : 'tips';
}

/** The outcome class a result text gives (a refusal that names no cause is `refused`). */
export function observedOutcome(r: SightlessResult): string {
  if (r.status === 'ok') return 'ok';
  const m = r.message;
  if (/would touch/.test(m)) return 'collision';
  const out = /(\d+) of its/.exec(m);
  if (/stick out/.test(m) && out) return `outside:${out[1]}`;
  if (/tip over/.test(m)) return 'tips';
  if (/Not stable/.test(m)) return 'falls';
  return 'refused';
}

function matches(predicted: string, observed: string): boolean {
  return observed === 'refused' ? predicted !== 'ok' : predicted === observed;
}

interface TierModel {
  box: BoxDims;
  shapes: Cell[][];
  probes: Probe[];
  /** outcome[shape][probe] */
  outcome: string[][];
  best: Map<string, number>;
}

const MODELS = new Map<string, TierModel>();

function model(tier: Tier, cellMax: [number, number, number]): TierModel {
  const key = `${tier}/${cellMax.join(',')}`;
  let m = MODELS.get(key);
  if (m) return m;
  const spec = TIER_SPECS[tier];
  const shapes = tableShapes(spec.sizes);
  const probes: Probe[] = [];
  for (let rotation = 0; rotation < ROTATIONS.length; rotation++) {
    for (let a = 0; a <= cellMax[0]; a++) for (let b = 0; b <= cellMax[1]; b++) for (let c = 0; c <= cellMax[2]; c++) probes.push({ rotation, cell: [a, b, c] });
  }
  const outcome = shapes.map((s) => probes.map((p) => predictedOutcome(s, p.rotation, p.cell, spec.box)));
  m = { box: spec.box, shapes, probes, outcome, best: new Map() };
  MODELS.set(key, m);
  return m;
}

/** The probe whose outcome splits `alive` shapes most evenly (most entropy); -1 when none tells them apart. */
function bestProbe(m: TierModel, alive: number[], observedClasses: boolean): number {
  const key = `${observedClasses}/${alive.join(',')}`;
  const hit = m.best.get(key);
  if (hit !== undefined) return hit;
  let best = -1;
  let bestH = 1e-9;
  for (let p = 0; p < m.probes.length; p++) {
    const counts = new Map<string, number>();
    for (const s of alive) {
      const o = m.outcome[s][p];
      const k = observedClasses ? o : o === 'ok' ? 'ok' : 'refused';
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    let h = 0;
    for (const n of counts.values()) h -= (n / alive.length) * Math.log2(n / alive.length);
    if (h > bestH + 1e-12) {
      bestH = h;
      best = p;
    }
  }
  m.best.set(key, best);
  return best;
}

function cellMaxOf(view: SightlessView): [number, number, number] {
  const tool = view.tools.find((t) => t.name === 'place');
  const items = (tool?.parameters as { properties?: { cell?: { prefixItems?: Array<{ maximum?: number }> } } }).properties?.cell?.prefixItems ?? [];
  return [0, 1, 2].map((i) => items[i]?.maximum ?? 2) as [number, number, number];
}

function pieceNames(view: SightlessView): string[] {
  const tool = view.tools.find((t) => t.name === 'place');
  return (tool?.parameters as { properties?: { piece?: { enum?: string[] } } }).properties?.piece?.enum ?? [];
}

/** The program: pin each piece's shape by probing the empty box, then pack by exact cover and play the plan. */
function* probeAndPack(view: SightlessView): SightlessProgram {
  const m = model(view.tier as Tier, cellMaxOf(view));
  const names = pieceNames(view);
  const pinned: Cell[][] = [];
  // Whether the texts tell refusals apart (learned from the first refusal read).
  let classes = true;
  for (const name of names) {
    let alive = m.shapes.map((_, i) => i);
    for (;;) {
      const p = bestProbe(m, alive, classes);
      if (p < 0 || alive.length <= 1) break;
      const probe = m.probes[p];
      const call: ToolCall = { tool: 'place', args: { piece: name, turns: SHORTEST_TURNS[probe.rotation], cell: probe.cell } };
      const res: SightlessResult[] = yield [call, { tool: 'remove', args: { piece: name } }];
      const seen = observedOutcome(res[0]);
      if (seen === 'refused') classes = false;
      const next = alive.filter((s) => matches(m.outcome[s][p], seen));
      // A texts-told class the model did not foresee: fall back on accepted versus refused.
      alive = next.length ? next : alive.filter((s) => (m.outcome[s][p] === 'ok') === (seen === 'ok'));
      if (!alive.length) return;
    }
    pinned.push(m.shapes[alive[0]]);
  }
  const plan = findPlan(pinned, m.box);
  if (!plan) return;
  for (const step of plan.steps) {
    const res: SightlessResult[] = yield [{ tool: 'place', args: { piece: names[step.piece], turns: step.turns, cell: step.cell } }];
    if (res[0].status !== 'ok') return;
  }
}

/** `probe-and-pack`: the adaptive prober of issue 36 as an A1 sightless strategy (see the file comment). */
export const PROBE_AND_PACK: SightlessStrategy = {
  name: 'probe-and-pack',
  description:
    'Pins every piece\'s shape without looking: places it into the empty box with the turns and cell that best split the shapes it could be (removing it when the placement goes through), keeps the shapes whose predicted outcome matches each result text, then packs the pinned shapes by exact cover and plays the plan.',
  bound: 0.1,
  next(ctx) {
    return replayProgram(ctx.history, () => probeAndPack(ctx.view));
  },
};
