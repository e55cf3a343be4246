/**
 * The A1 solver: which pieces fill the box and how (exact cover with the polycube toolkit,
 * over every subset of the pieces whose volume matches, so spare pieces are covered by the
 * certificate), and an order in which every piece can be lowered straight down into place.
 *
 * Lowering order. A piece lowered vertically sweeps every cell above its cubes, so when piece
 * P has a cube above a cube of Q in the same column (at any height), Q must go in first. These
 * "Q before P" edges form a graph; a packing can be built by vertical lowering exactly when the
 * graph has no cycle, and then any topological order works. In such an order every piece's
 * lowest cube in each of its columns rests on the floor or on a piece already placed, so each
 * piece is carried over its whole footprint and stands still.
 */
import { countPackings, type Cell, type Packing } from '../../../solvers/polycube.ts';
import { certifyFilling, subsetsWithVolume, type FillingCertificate } from '../../kits/polycube-pieces/filling.ts';
import { cellKey, referenceCube, toAgentCell } from '../../kits/polycube-pieces/cells.ts';
import { turnsOnto } from '../../kits/polycube-pieces/rotations.ts';
import type { PlaceStep } from '../../kits/polycube-pieces/tools.ts';
import { SpaceActError } from '../../../core/errors.ts';
import type { Instance, ReferenceSolution } from '../../types.ts';
import { boxCells, type A1Scene, type BoxDims } from './scene.ts';

/** What the uniqueness certificate found (the polycube kit's filling certificate over the box). */
export type Certificate = FillingCertificate;

/** One step of a plan: the piece, the turns from its table orientation and where its cells go. */
export interface PlanStep extends PlaceStep {
  /** Index of the piece in the scene. */
  piece: number;
}

/** A buildable filling and its lowering order. */
export interface Plan {
  steps: PlanStep[];
  /** Pieces that are not used. */
  spares: number[];
  /** Longest chain of "must go in before" relations, in pieces (1 = order is free). */
  depth: number;
  /** Ordered pairs (Q before P) forced by the filling, transitively closed. */
  forcedPairs: number;
}

/**
 * Certifies the instance with the polycube kit's filling certificate: for every subset of the
 * pieces whose volume equals the box's, exact cover says whether it fills the box; the one
 * subset that does is counted up to the box's symmetries.
 */
export function certify(pieces: readonly Cell[][], box: BoxDims): Certificate {
  return certifyFilling(pieces, boxCells(box));
}

/** "Q before P" edges of a packing: `before[p]` lists the pieces that must precede `p`. */
function precedence(packing: Packing, box: BoxDims): Set<number>[] {
  const owner = new Map<string, number>();
  packing.forEach((cells, p) => cells.forEach((c) => owner.set(cellKey(c), p)));
  const before = packing.map(() => new Set<number>());
  for (let i = 0; i < box.cols; i++) {
    for (let k = 0; k < box.rows; k++) {
      for (let lo = 0; lo < box.layers; lo++) {
        for (let hi = lo + 1; hi < box.layers; hi++) {
          const a = owner.get(cellKey([i, lo, k]))!;
          const b = owner.get(cellKey([i, hi, k]))!;
          if (a !== b) before[b].add(a);
        }
      }
    }
  }
  return before;
}

/**
 * A topological order of the precedence graph (null when it has a cycle): among the pieces
 * free to go, the one whose cells sit lowest on average goes first, ties by index.
 */
function lowerOrder(packing: Packing, before: Set<number>[]): number[] | null {
  const n = packing.length;
  const height = packing.map((cells) => cells.reduce((s, c) => s + c[1], 0) / cells.length);
  const done = new Set<number>();
  const order: number[] = [];
  while (order.length < n) {
    let pick = -1;
    for (let p = 0; p < n; p++) {
      if (done.has(p) || [...before[p]].some((q) => !done.has(q))) continue;
      if (pick < 0 || height[p] < height[pick]) pick = p;
    }
    if (pick < 0) return null;
    done.add(pick);
    order.push(pick);
  }
  return order;
}

function depthAndPairs(before: Set<number>[], order: number[]): { depth: number; forcedPairs: number } {
  const depth = new Map<number, number>();
  const ancestors = new Map<number, Set<number>>();
  for (const p of order) {
    let d = 1;
    const anc = new Set<number>();
    for (const q of before[p]) {
      d = Math.max(d, depth.get(q)! + 1);
      anc.add(q);
      for (const a of ancestors.get(q)!) anc.add(a);
    }
    depth.set(p, d);
    ancestors.set(p, anc);
  }
  let pairs = 0;
  for (const a of ancestors.values()) pairs += a.size;
  return { depth: Math.max(...depth.values()), forcedPairs: pairs };
}

/**
 * A buildable filling: the first filling subset, its packings in the toolkit's order, and the
 * first packing whose precedence graph has no cycle, with its lowering order. Null when no
 * packing of any filling subset can be built by lowering pieces straight down.
 */
export function findPlan(pieces: readonly Cell[][], box: BoxDims, fillingSubsets?: number[][]): Plan | null {
  const target = boxCells(box);
  const subsets = fillingSubsets ?? subsetsWithVolume(pieces, target.length);
  for (const subset of subsets) {
    const { packings } = countPackings(subset.map((i) => pieces[i]), target, { collect: true });
    for (const packing of packings!) {
      const before = precedence(packing, box);
      const order = lowerOrder(packing, before);
      if (!order) continue;
      const { depth, forcedPairs } = depthAndPairs(before, order);
      const steps = order.map((local): PlanStep => {
        const piece = subset[local];
        const cells = packing[local];
        const { rotation, turns } = turnsOnto(pieces[piece], cells);
        return { piece, rotation, turns, cells, cell: toAgentCell(referenceCube(cells), box) };
      });
      const spares = pieces.map((_, i) => i).filter((i) => !subset.includes(i));
      return { steps, spares, depth, forcedPairs };
    }
  }
  return null;
}

/**
 * Whether the free cells can still be filled exactly with some of the remaining pieces (in any
 * order, ignoring how they would be lowered): the progress measure's test that the pieces
 * placed so far are part of some filling.
 */
export function completable(remaining: readonly Cell[][], free: readonly Cell[]): boolean {
  if (free.length === 0) return true;
  for (const s of subsetsWithVolume(remaining, free.length)) {
    if (countPackings(s.map((i) => remaining[i]), free as Cell[], { limit: 1 }).count > 0) return true;
  }
  return false;
}

/** The reference: the certified filling, lowered in an order the column-precedence graph allows. */
export function reference(instance: Instance<A1Scene>): ReferenceSolution {
  const s = instance.scene;
  const shapes = s.pieces.map((p) => p.cells);
  const cert = certify(shapes, s.box);
  const plan = findPlan(shapes, s.box, cert.fillingSubsets.length ? cert.fillingSubsets : undefined);
  if (!plan) throw new SpaceActError('invalid-state', `${instance.id}: no filling can be built by lowering pieces straight down`, { instance: instance.id });
  return {
    calls: plan.steps.map((st) => ({ tool: 'place', args: { piece: s.pieces[st.piece].name, turns: st.turns, cell: st.cell } })),
    // One action per piece used, and every filling uses exactly these pieces: nothing shorter exists.
    optimal: cert.unique,
    unique: cert.unique,
    method:
      `polycube exact cover over ${cert.fillingSubsets.length} filling subset(s) of ${s.pieces.length} pieces: ` +
      `${cert.classes} packing(s) up to the ${cert.symmetries} rotations of the cell block (${cert.total} in all); ` +
      `lowering order from the column-precedence graph (depth ${plan.depth}, ${plan.forcedPairs} forced pairs)`,
  };
}
