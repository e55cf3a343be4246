/**
 * The A2 solver: which pieces fill the box and in how many ways (exact cover with the polycube
 * toolkit, over every subset of the pieces whose volume matches, so decoys are covered by the
 * certificate), and an order in which gravity lets the pieces go in — found by search over the
 * sets of pieces already placed.
 *
 * The order model (the cell model of the world's moves, `tasks/kits/polycube-pieces/entry.ts`
 * and `statics.ts`): a piece can go in next, from above or sliding in level from the left,
 * right, front or back, when
 *  - its path is clear: no cube of a placed piece in any cell it sweeps (from above every cell
 *    above its cubes; from a side every cell between a cube and that side's edge, in its layer);
 *  - it rests: some of its cubes stand on the plate or on a placed piece's cube directly below,
 *    and its centre of mass lies above the footprints of those cubes, a quarter cube inside
 *    their edge (the kit's rigid-body statics; no floating piece, no piece that tips).
 * Search is depth-first over placed sets (at most 2^7 of them) with dead sets remembered, so it
 * either finds an order or proves that a packing has none. Among the moves it tries pieces
 * lowest first, and for each piece from above before the sides.
 */
import { countPackings, countPackingsUpToSymmetry, targetSymmetries, type Cell, type Packing } from '../../../solvers/polycube.ts';
import { cellKey, referenceCube, toAgentCell, type GridDims } from '../../kits/polycube-pieces/cells.ts';
import { ENTRY_SIDES, entryPathClear, type EntrySide } from '../../kits/polycube-pieces/entry.ts';
import { turnsOnto } from '../../kits/polycube-pieces/rotations.ts';
import { centreOverSupport, restingCubes } from '../../kits/polycube-pieces/statics.ts';
import type { PlaceStep } from '../../kits/polycube-pieces/tools.ts';
import { SpaceActError } from '../../../core/errors.ts';
import type { Instance, ReferenceSolution, ToolCall } from '../../types.ts';
import { boxCells, PLATE_GRID, type A2Scene } from './scene.ts';

/** What the packing certificate found. */
export interface Certificate {
  /** Subsets of the pieces (by index) that fill the box in at least one way. */
  fillingSubsets: number[][];
  /** Packings of the one filling subset, every one (symmetric copies counted apart). */
  total: number;
  /** Packings up to the box's rotations (0 when not asked for: see {@link CertifyOptions}). */
  classes: number;
  /** Rotations of the box's cell block the classes are taken under. */
  symmetries: number;
  /** The first packings of the filling subset (pieces in the subset's order), in the toolkit's order. */
  packings: Packing[];
}

/** One step of a plan: the piece, the turns from its table orientation, the cells and the side it comes in from. */
export interface PlanStep extends PlaceStep {
  /** Index of the piece in the scene. */
  piece: number;
  /** Where it comes in from. */
  from: EntrySide;
}

/** A buildable filling and its order. */
export interface Plan {
  steps: PlanStep[];
  /** Pieces that are not used (decoys). */
  decoys: number[];
  /** Index of the packing used, among the certificate's packings. */
  packing: number;
  /** Packings of the certificate tried before one with an order was found (those have none). */
  packingsWithoutOrder: number;
}

function volume(pieces: readonly Cell[][], subset: readonly number[]): number {
  return subset.reduce((n, i) => n + pieces[i].length, 0);
}

/** Index subsets of `0..n-1` whose volume is `target`, in a fixed order (by size, then lexicographically). */
function subsetsWithVolume(pieces: readonly Cell[][], target: number): number[][] {
  const n = pieces.length;
  const out: number[][] = [];
  for (let mask = 1; mask < 1 << n; mask++) {
    const s: number[] = [];
    for (let i = 0; i < n; i++) if (mask & (1 << i)) s.push(i);
    if (volume(pieces, s) === target) out.push(s);
  }
  return out.sort((a, b) => a.length - b.length || a.join(',').localeCompare(b.join(',')));
}

/** How far {@link certify} goes. */
export interface CertifyOptions {
  /**
   * Collect at most this many packings and count no further (the generator's filter: the plan
   * is the first packing with an order, and those come first in the toolkit's order). Without
   * it every packing is counted (no collecting) and the first {@link PLAN_PACKINGS} collected.
   */
  limit?: number;
  /** Also classify the packings up to the box's rotations (one more full enumeration). */
  classes?: boolean;
}

/** Packings collected for the order search when every packing is counted. */
export const PLAN_PACKINGS = 200;

/**
 * The packing certificate: for every subset of the pieces whose volume equals the box's,
 * `countPackings` says whether it fills the box; the packings of the first filling subset are
 * counted (all of them, unless `limit` is given), the first ones collected for the order
 * search, and with `classes` classified up to the box's rotations with
 * `countPackingsUpToSymmetry`.
 */
export function certify(pieces: readonly Cell[][], target: Cell[], opts: CertifyOptions = {}): Certificate {
  const filling: number[][] = [];
  for (const s of subsetsWithVolume(pieces, target.length)) {
    if (countPackings(s.map((i) => pieces[i]), target, { limit: 1 }).count > 0) filling.push(s);
  }
  const symmetries = targetSymmetries(target).length;
  if (!filling.length) return { fillingSubsets: [], total: 0, classes: 0, symmetries, packings: [] };
  const used = filling[0].map((i) => pieces[i]);
  const collected = countPackings(used, target, { collect: true, limit: opts.limit ?? PLAN_PACKINGS });
  const total = opts.limit !== undefined ? collected.count : countPackings(used, target).count;
  const classes = opts.classes ? countPackingsUpToSymmetry(used, target).count : 0;
  return { fillingSubsets: filling, total, classes, symmetries, packings: collected.packings! };
}

/** Whether a piece filling `cells` can come in from `side` with the cells in `occupied` filled: clear path and at rest. */
export function canEnter(cells: readonly Cell[], side: EntrySide, occupied: ReadonlySet<string>, grid: GridDims = PLATE_GRID): boolean {
  if (!entryPathClear(cells, side, occupied, grid)) return false;
  const resting = restingCubes(cells, occupied);
  return resting.length > 0 && centreOverSupport(cells, resting);
}

/** One move of an order: which piece of the packing, from which side. */
export interface OrderMove {
  piece: number;
  from: EntrySide;
}

/**
 * An order in which every piece of `packing` can go in (see the module comment), or null when
 * none exists — a proof, since the search is exhaustive over placed sets.
 */
export function findOrder(packing: Packing, grid: GridDims = PLATE_GRID): OrderMove[] | null {
  const n = packing.length;
  const height = packing.map((cells) => cells.reduce((s, c) => s + c[1], 0) / cells.length);
  const tryOrder = packing.map((_, i) => i).sort((a, b) => height[a] - height[b] || a - b);
  const dead = new Set<number>();
  const path: OrderMove[] = [];
  const occupiedOf = (mask: number): Set<string> => {
    const occ = new Set<string>();
    for (let p = 0; p < n; p++) if (mask & (1 << p)) for (const c of packing[p]) occ.add(cellKey(c));
    return occ;
  };
  const full = (1 << n) - 1;
  const dfs = (mask: number): boolean => {
    if (mask === full) return true;
    if (dead.has(mask)) return false;
    const occ = occupiedOf(mask);
    for (const p of tryOrder) {
      if (mask & (1 << p)) continue;
      for (const side of ENTRY_SIDES) {
        if (!canEnter(packing[p], side, occ, grid)) continue;
        path.push({ piece: p, from: side });
        if (dfs(mask | (1 << p))) return true;
        path.pop();
        break; // another side leads to the same placed set
      }
    }
    dead.add(mask);
    return false;
  };
  return dfs(0) ? path : null;
}

/**
 * How many orders (sequences of pieces) build the packing, counting each sequence once whatever
 * sides its moves use, and how many of them lower every piece from above.
 */
export function countOrders(packing: Packing, grid: GridDims = PLATE_GRID): { orders: number; fromAboveOnly: number } {
  const n = packing.length;
  const full = (1 << n) - 1;
  const memo = new Map<number, [number, number]>();
  const count = (mask: number): [number, number] => {
    if (mask === full) return [1, 1];
    const hit = memo.get(mask);
    if (hit) return hit;
    const occ = new Set<string>();
    for (let p = 0; p < n; p++) if (mask & (1 << p)) for (const c of packing[p]) occ.add(cellKey(c));
    let any = 0;
    let above = 0;
    for (let p = 0; p < n; p++) {
      if (mask & (1 << p)) continue;
      const sides = ENTRY_SIDES.filter((s) => canEnter(packing[p], s, occ, grid));
      if (!sides.length) continue;
      const [a, b] = count(mask | (1 << p));
      any += a;
      if (sides[0] === 'above') above += b;
    }
    const r: [number, number] = [any, above];
    memo.set(mask, r);
    return r;
  };
  const [orders, fromAboveOnly] = count(0);
  return { orders, fromAboveOnly };
}

/**
 * A buildable filling: the certificate's packings in the toolkit's order, and the first one that
 * has an order, with that order. Null when no packing of the filling subset can be built.
 */
export function findPlan(pieces: readonly Cell[][], cert: Certificate): Plan | null {
  if (!cert.fillingSubsets.length) return null;
  const subset = cert.fillingSubsets[0];
  for (let k = 0; k < cert.packings.length; k++) {
    const packing = cert.packings[k];
    const order = findOrder(packing);
    if (!order) continue;
    const steps = order.map((mv): PlanStep => {
      const piece = subset[mv.piece];
      const cells = packing[mv.piece];
      const { rotation, turns } = turnsOnto(pieces[piece], cells);
      return { piece, rotation, turns, cells, cell: toAgentCell(referenceCube(cells), PLATE_GRID), from: mv.from };
    });
    const decoys = pieces.map((_, i) => i).filter((i) => !subset.includes(i));
    return { steps, decoys, packing: k, packingsWithoutOrder: k };
  }
  return null;
}

/** The `place` calls of a plan. */
export function planCalls(s: A2Scene, plan: Plan): ToolCall[] {
  return plan.steps.map((st) => ({ tool: 'place', args: { piece: s.pieces[st.piece].name, turns: st.turns, cell: st.cell, from: st.from } }));
}

/**
 * Whether the free cells can still be filled exactly with some of the remaining pieces (in any
 * order, ignoring gravity): the progress measure's test that the pieces placed so far are part
 * of some filling.
 */
export function completable(remaining: readonly Cell[][], free: readonly Cell[]): boolean {
  if (free.length === 0) return true;
  for (const s of subsetsWithVolume(remaining, free.length)) {
    if (countPackings(s.map((i) => remaining[i]), free as Cell[], { limit: 1 }).count > 0) return true;
  }
  return false;
}

/** The reference: the first certified packing that gravity lets be built, in the order the search found. */
export function reference(instance: Instance<A2Scene>): ReferenceSolution {
  const s = instance.scene;
  const shapes = s.pieces.map((p) => p.cells);
  const cert = certify(shapes, boxCells(s.box));
  const plan = findPlan(shapes, cert);
  if (!plan) throw new SpaceActError('invalid-state', `${instance.id}: no filling of the box can be built in an order gravity allows`, { instance: instance.id });
  const orders = countOrders(cert.packings[plan.packing]);
  const sides = plan.steps.filter((st) => st.from !== 'above').length;
  const oneSubset = cert.fillingSubsets.length === 1;
  return {
    calls: planCalls(s, plan),
    // One place per piece used, and every filling uses exactly these pieces: nothing shorter exists.
    optimal: oneSubset,
    method:
      `polycube exact cover over ${cert.fillingSubsets.length} filling subset(s) of ${s.pieces.length} pieces: ` +
      `${cert.total} packing(s) in all (symmetric copies counted apart; the box has ${cert.symmetries} rotations); ` +
      `order search over placed sets (from above or level from a side, resting on its supports): packing #${plan.packing + 1} ` +
      `(${plan.packingsWithoutOrder} before it have no order) has ${orders.orders} order(s), ${orders.fromAboveOnly} of them from above only; ` +
      `the reference uses ${sides} side entr${sides === 1 ? 'y' : 'ies'}`,
  };
}
