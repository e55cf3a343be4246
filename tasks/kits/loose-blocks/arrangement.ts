/**
 * Loose blocks in any 2-D arrangement along x — several blocks per level, a block resting on one
 * or on several blocks under it, counterweights — and the exact statics verdict for it: the
 * contact-force feasibility linear program of Paterson and Zwick ("Overhang", Amer. Math. Monthly
 * 116, 2009). Every contact interface (a block on the table, or a block on a block of the level
 * under it) carries non-negative vertical forces at the two ends of its patch; the arrangement
 * stands when some such forces put every block in force and torque balance. Blocks are uniform
 * and of one cross-section, so a block's weight goes with its length and acts at its centre;
 * the table reaches back far enough to carry anything.
 *
 * The margin: the forces act `margin` inside each patch's ends, so every interface's load
 * resultant lies at least `margin` inside its patch (a patch narrower than twice the margin
 * carries nothing). For a single column this is exactly the column rule of `column.ts` (the
 * resultant on each level's patch is the centre of mass of the blocks from that level up), and
 * the verdict then takes that rule's path so column verdicts are the column rule's, bit for bit.
 *
 * It also holds the reference search over small tree-shaped arrangements (each block resting on
 * one block or on the table), for which the farthest reach is itself a linear program in the
 * blocks' centres.
 */
import { columnFailure } from './column.ts';
import { solveLp, type LpRow } from './lp.ts';

/** One block of an arrangement: its centre and length along x (m) and its level (0 = on the table). */
export interface ArrangedBlock {
  x: number;
  length: number;
  level: number;
}

/** Why an arrangement does not stand: a block that rests on nothing, or no balance of contact forces exists. */
export type ArrangementFailure = { kind: 'unsupported'; block: number } | { kind: 'tips' };

/** Overlap of two x-intervals (negative or zero when they do not overlap). */
function overlap(a: { x: number; length: number }, b: { x: number; length: number }): [number, number] {
  return [Math.max(a.x - a.length / 2, b.x - b.length / 2), Math.min(a.x + a.length / 2, b.x + b.length / 2)];
}

/**
 * The level a block of `length` lowered straight down with its centre at `x` comes to rest at,
 * on the blocks already in `blocks`: one above the highest block its footprint overlaps (by
 * more than nothing), or 0 on the table; null when it overlaps no block and lies wholly past
 * the table's `edge` (it would fall to the floor).
 */
export function landingLevel(blocks: readonly ArrangedBlock[], x: number, length: number, edge: number): number | null {
  let top = -1;
  for (const b of blocks) {
    const [lo, hi] = overlap(b, { x, length });
    if (hi - lo > 0) top = Math.max(top, b.level);
  }
  if (top >= 0) return top + 1;
  return x - length / 2 < edge ? 0 : null;
}

/** The contact patches of block `i` with what it rests on: the table (index −1) or blocks of the level below. */
function supports(blocks: readonly ArrangedBlock[], i: number, edge: number): { under: number; lo: number; hi: number }[] {
  const b = blocks[i];
  if (b.level === 0) {
    const lo = b.x - b.length / 2;
    const hi = Math.min(b.x + b.length / 2, edge);
    return hi - lo > 0 ? [{ under: -1, lo, hi }] : [];
  }
  const out: { under: number; lo: number; hi: number }[] = [];
  blocks.forEach((u, j) => {
    if (u.level !== b.level - 1) return;
    const [lo, hi] = overlap(b, u);
    if (hi - lo > 0) out.push({ under: j, lo, hi });
  });
  return out;
}

/** Whether `blocks` is one column: one block per level, bottom to top in list order. */
function isColumn(blocks: readonly ArrangedBlock[]): boolean {
  return blocks.every((b, k) => b.level === k);
}

/**
 * The exact verdict on an arrangement: null when it stands with `margin` (m) — some
 * non-negative forces, `margin` inside every contact patch's ends, balance every block's weight
 * and torque — otherwise why not: the first block (in list order) that rests on nothing, or
 * `tips` when no balance exists. A column (one block per level, bottom to top) is judged by the
 * column rule (`columnFailure`), which is the same condition in closed form.
 */
export function arrangementFailure(blocks: readonly ArrangedBlock[], edge: number, margin: number): ArrangementFailure | null {
  const patches = blocks.map((_, i) => supports(blocks, i, edge));
  const bare = patches.findIndex((p) => p.length === 0);
  if (bare >= 0) return { kind: 'unsupported', block: bare };
  if (isColumn(blocks)) return columnFailure(blocks, edge, margin) ? { kind: 'tips' } : null;
  return contactForcesBalance(blocks, edge, margin) ? null : { kind: 'tips' };
}

/**
 * The linear program itself, for any arrangement (a column too): whether non-negative vertical
 * forces at the two ends of every contact patch, each `margin` inside the patch, put every block
 * in force and torque balance. A block that rests on nothing has no such forces.
 */
export function contactForcesBalance(blocks: readonly ArrangedBlock[], edge: number, margin: number): boolean {
  const patches = blocks.map((_, i) => supports(blocks, i, edge));
  // Variables: two forces per interface that can carry any (its patch wider than twice the margin).
  const points: { upper: number; under: number; at: number }[] = [];
  patches.forEach((ps, i) => {
    for (const p of ps) {
      if (p.hi - p.lo - 2 * margin < 0) continue;
      points.push({ upper: i, under: p.under, at: p.lo + margin }, { upper: i, under: p.under, at: p.hi - margin });
    }
  });
  const rows: LpRow[] = [];
  blocks.forEach((b, i) => {
    // Force balance (up positive) and torque about the block's own centre, in units of length (weight ∝ length).
    const force = points.map((p) => (p.upper === i ? 1 : p.under === i ? -1 : 0));
    const torque = points.map((p) => (p.upper === i ? p.at - b.x : p.under === i ? -(p.at - b.x) : 0));
    rows.push({ coeffs: force, op: '=', rhs: b.length }, { coeffs: torque, op: '=', rhs: 0 });
  });
  if (!points.length) return blocks.length === 0;
  return solveLp(points.map(() => 0), rows).status !== 'infeasible';
}

/** The farthest point an arrangement reaches: its blocks' greatest far end, m. */
export function arrangementReach(blocks: readonly { x: number; length: number }[]): number {
  return blocks.reduce((r, b) => Math.max(r, b.x + b.length / 2), -Infinity);
}

/**
 * A tree-shaped arrangement to solve for: blocks listed level by level, left to right within a
 * level, each resting on one block of the level below (`parent`, an index into the list) or, at
 * level 0, on the table (−1).
 */
export interface TreeShape {
  /** Each block's length, m. */
  lengths: number[];
  /** Each block's parent (an index earlier in the list), or −1 for the table. */
  parent: number[];
}

/** What {@link farthestTree} keeps besides the shape. */
export interface TreeOptions {
  /** The table's edge, m. */
  edge: number;
  /** The margin every load resultant keeps inside its patch, m. */
  margin: number;
  /** The gap kept between neighbours on one level, m (so a block lowered beside another does not touch it). */
  gap: number;
  /** Centres must lie in [0, xMax] (the place tool's range), m. */
  xMax: number;
  /** The order the blocks are placed in (indexes into the list): every prefix must stand too. Default: list order. */
  order?: number[];
}

/**
 * The centres at which the tree `shape` reaches farthest with block `reacher`'s far end, every
 * interface's resultant `margin` inside its patch — for the whole arrangement and for every
 * prefix of the placement order, so it can be built one block at a time — neighbours on a level
 * at least `gap` apart and in list order. In a tree each interface carries the weight of the
 * blocks above it, with its resultant at their centre of mass, so the whole condition is linear
 * in the centres: one linear program. Null when no such centres exist.
 */
export function farthestTree(shape: TreeShape, reacher: number, opts: TreeOptions): ArrangedBlock[] | null {
  const { lengths, parent } = shape;
  const n = lengths.length;
  const order = opts.order ?? lengths.map((_, i) => i);
  const level: number[] = [];
  parent.forEach((p, i) => (level[i] = p < 0 ? 0 : level[p] + 1));
  const rows: LpRow[] = [];
  const unit = (i: number, c = 1): number[] => Array.from({ length: n }, (_, j) => (j === i ? c : 0));
  const add = (a: number[], b: number[]): number[] => a.map((v, j) => v + b[j]);
  for (let k = 1; k <= n; k++) {
    const present = new Set(order.slice(0, k));
    // Only the full arrangement and each prefix that adds a block: every prefix is constrained.
    for (const i of present) {
      const sub: number[] = [];
      const collect = (j: number): void => {
        sub.push(j);
        parent.forEach((p, c) => p === j && present.has(c) && collect(c));
      };
      collect(i);
      const mass = sub.reduce((s, j) => s + lengths[j], 0);
      // The subtree's centre of mass, as coefficients on the centres.
      const com = sub.reduce((acc, j) => add(acc, unit(j, lengths[j] / mass)), unit(-1));
      const bound = (j: number, half: number): void => {
        rows.push({ coeffs: add(com, unit(j, -1)), op: '>=', rhs: opts.margin - half });
        rows.push({ coeffs: add(com, unit(j, -1)), op: '<=', rhs: half - opts.margin });
      };
      bound(i, lengths[i] / 2);
      if (parent[i] >= 0) bound(parent[i], lengths[parent[i]] / 2);
      else rows.push({ coeffs: com, op: '<=', rhs: opts.edge - opts.margin });
    }
  }
  for (let i = 0; i < n; i++) {
    rows.push({ coeffs: unit(i), op: '<=', rhs: opts.xMax });
    for (let j = i + 1; j < n; j++) {
      if (level[j] !== level[i]) continue;
      // j is to the right of i on their level (list order), with the gap.
      rows.push({ coeffs: add(unit(j), unit(i, -1)), op: '>=', rhs: (lengths[i] + lengths[j]) / 2 + opts.gap });
    }
  }
  const result = solveLp(unit(reacher), rows);
  if (result.status !== 'optimal') return null;
  return result.x.map((x, i) => ({ x, length: lengths[i], level: level[i] }));
}

/**
 * Every tree shape of `n` blocks with one block on the table (more on the table cannot help
 * the reach): level sizes, and for each block above level 0 its parent on the level below,
 * parents non-decreasing left to right (blocks cannot cross).
 */
export function treeShapes(n: number): number[][] {
  const out: number[][] = [];
  const extend = (parent: number[], prevStart: number, prevCount: number, left: number): void => {
    if (left === 0) {
      out.push(parent);
      return;
    }
    for (let size = 1; size <= left; size++) {
      // Non-decreasing parent choices for `size` blocks among the previous level's `prevCount`.
      const choose = (acc: number[], from: number): void => {
        if (acc.length === size) {
          extend([...parent, ...acc], parent.length, size, left - size);
          return;
        }
        for (let p = from; p < prevStart + prevCount; p++) choose([...acc, p], p);
      };
      choose([], prevStart);
    }
  };
  if (n >= 1) extend([-1], 0, 1, n - 1);
  return out;
}

/** A tree-shaped arrangement chosen from a supply: which blocks (supply indexes, in list and placement order), their parents, where, and how far it reaches. */
export interface ChosenArrangement {
  /** Supply indexes, level by level and left to right: the order the blocks are placed in. */
  order: number[];
  /** Each listed block's parent (an index into `order`'s list), or −1 for the table. */
  parent: number[];
  /** The blocks, in the same order. */
  blocks: ArrangedBlock[];
  /** The farthest far end, m. */
  reach: number;
}

/** Every ordered choice of `count` distinct indexes of `0..n-1`. */
function orderedChoices(n: number, count: number): number[][] {
  const out: number[][] = [];
  const pick = (prefix: number[]): void => {
    if (prefix.length === count) out.push(prefix);
    else for (let i = 0; i < n; i++) if (!prefix.includes(i)) pick([...prefix, i]);
  };
  pick([]);
  return out;
}

/**
 * The farthest-reaching tree-shaped arrangement of exactly `count` blocks of `supply`
 * (lengths), built in list order with every prefix standing (see {@link farthestTree}): over
 * every choice and order of blocks, every shape (`shapes`, default every tree shape of `count`
 * blocks) and every block that is rightmost on its level as the one that reaches. Exhaustive
 * over those, so it is the best tree of that many blocks; ties keep the first found. Null when
 * none stands.
 */
export function bestTree(supply: readonly number[], count: number, opts: TreeOptions & { shapes?: number[][] }): ChosenArrangement | null {
  let best: ChosenArrangement | null = null;
  const shapes = opts.shapes ?? treeShapes(count);
  for (const parent of shapes) {
    const level: number[] = [];
    parent.forEach((p, i) => (level[i] = p < 0 ? 0 : level[p] + 1));
    const reachers = level.map((l, i) => i).filter((i) => !level.some((l, j) => j > i && l === level[i]));
    for (const order of orderedChoices(supply.length, count)) {
      for (const r of reachers) {
        const blocks = farthestTree({ lengths: order.map((i) => supply[i]), parent }, r, opts);
        if (!blocks) continue;
        const reach = arrangementReach(blocks);
        if (!best || reach > best.reach + 1e-12) best = { order, parent, blocks, reach };
      }
    }
  }
  return best;
}
