/**
 * Loose blocks (no studs, friction only) stacked in one column over a table edge: the exact
 * statics verdict and the column that reaches farthest.
 *
 * A column stands when, at every level, the centre of mass of the blocks from that level up lies
 * over the patch where the level rests: the overlap of the block with the one under it, or, for
 * the bottom block, with the table. Blocks are uniform and of one cross-section, so a block's
 * mass is proportional to its length and its centre of mass is its centre. A verdict at the
 * tipping limit itself means nothing physical (Rapier's settle is not monotone within ±0.5 % of
 * it; see issue 29), so every check holds the centre of mass `margin` inside the patch, and the
 * families that use the kit say so in their rules.
 *
 * Coordinates are along the stacking direction only (metres): the table ends at `edge` and
 * reaches back far enough to carry any column.
 */

/** One block of a column: its centre and its length along the stacking direction, m. */
export interface ColumnBlock {
  x: number;
  length: number;
}

/** Why a column does not stand, at the lowest level that fails (0 = the bottom block). */
export interface ColumnFailure {
  level: number;
  /** `unsupported`: the block does not rest on the one below (or on the table) at all. */
  kind: 'unsupported' | 'tips';
}

/** The patch level `k` rests on: its overlap with the block below, or with the table. */
function restingPatch(blocks: readonly ColumnBlock[], k: number, edge: number): [number, number] {
  const b = blocks[k];
  const lo = b.x - b.length / 2;
  const hi = b.x + b.length / 2;
  if (k === 0) return [lo, Math.min(hi, edge)];
  const u = blocks[k - 1];
  return [Math.max(lo, u.x - u.length / 2), Math.min(hi, u.x + u.length / 2)];
}

/**
 * The exact verdict: null when every level's load (the blocks from it up) has its centre of mass
 * at least `margin` inside the patch that level rests on; otherwise the lowest failing level.
 * Levels are checked from the top down and the lowest failure reported, so the verdict names
 * where the column would first give way under its own weight.
 */
export function columnFailure(blocks: readonly ColumnBlock[], edge: number, margin: number): ColumnFailure | null {
  let mass = 0;
  let moment = 0;
  let failure: ColumnFailure | null = null;
  for (let k = blocks.length - 1; k >= 0; k--) {
    mass += blocks[k].length;
    moment += blocks[k].length * blocks[k].x;
    const [lo, hi] = restingPatch(blocks, k, edge);
    if (hi - lo <= 0) failure = { level: k, kind: 'unsupported' };
    else {
      const com = moment / mass;
      if (com < lo + margin || com > hi - margin) failure = { level: k, kind: 'tips' };
    }
  }
  return failure;
}

/** The farthest point of the column past the start of the stacking direction: its blocks' greatest far end, m. */
export function columnReach(blocks: readonly ColumnBlock[]): number {
  return blocks.reduce((r, b) => Math.max(r, b.x + b.length / 2), -Infinity);
}

/**
 * The column of `lengths` (bottom to top, in this order) that reaches farthest past `edge`
 * while standing with `margin` at every level: built from the top down, each block set so the
 * load above it rests `margin` inside its far end, then the whole column shifted until its centre
 * of mass is `margin` inside the edge (the classic harmonic construction, for blocks of any
 * length). Null when that construction breaks a patch of its own (a long block on a short one
 * whose load would hang past the short block's back end).
 */
export function farthestColumn(lengths: readonly number[], edge: number, margin: number): ColumnBlock[] | null {
  if (lengths.length === 0) return [];
  const n = lengths.length;
  const xs = new Array<number>(n);
  xs[n - 1] = 0;
  let mass = lengths[n - 1];
  let com = 0;
  for (let k = n - 2; k >= 0; k--) {
    // The load above (centre `com`) sits `margin` inside block k's far end.
    xs[k] = com + margin - lengths[k] / 2;
    com = (com * mass + xs[k] * lengths[k]) / (mass + lengths[k]);
    mass += lengths[k];
  }
  const shift = edge - margin - com;
  const blocks = xs.map((x, k) => ({ x: x + shift, length: lengths[k] }));
  // The construction sits exactly at the margin; a nanometre of slack absorbs rounding.
  return columnFailure(blocks, edge, margin - 1e-9) ? null : blocks;
}

/** A column chosen from a supply: which blocks (indexes into the supply), bottom to top, and where. */
export interface ChosenColumn {
  order: number[];
  blocks: ColumnBlock[];
  reach: number;
}

/** Every ordered choice of `count` distinct indexes of `0..n-1`. */
function arrangements(n: number, count: number): number[][] {
  const out: number[][] = [];
  const pick = (prefix: number[]): void => {
    if (prefix.length === count) {
      out.push(prefix);
      return;
    }
    for (let i = 0; i < n; i++) if (!prefix.includes(i)) pick([...prefix, i]);
  };
  pick([]);
  return out;
}

/**
 * The farthest-reaching column of exactly `count` blocks from `supply` (lengths), over every
 * choice and order of blocks: exhaustive, so the reach is the best any single column of that many
 * blocks can do with that margin. Ties keep the first choice in (index order) so the result is
 * deterministic. Null when no choice stands.
 */
export function bestColumn(supply: readonly number[], count: number, edge: number, margin: number): ChosenColumn | null {
  let best: ChosenColumn | null = null;
  for (const order of arrangements(supply.length, count)) {
    const blocks = farthestColumn(order.map((i) => supply[i]), edge, margin);
    if (!blocks) continue;
    const reach = columnReach(blocks);
    if (!best || reach > best.reach + 1e-12) best = { order, blocks, reach };
  }
  return best;
}
