import { yawQuat } from '../../../sim/math.ts';
import type { Pose, Quat, Vec3 } from '../../../sim/types.ts';
import type { Rng } from '../../../core/rng.ts';
import { round9 } from '../../../core/determinism.ts';

/**
 * The kinds of block in a pile. Only `cube` is counted; the others are decoys:
 * `tile` a flat 4 × 4 × 2 cm block, `post` an upright 4 × 4 × 8 cm bar (it can pass for two
 * stacked cubes), `beam` the same bar lying across two neighbouring columns (end-on it looks
 * like a cube).
 */
export type BlockKind = 'cube' | 'tile' | 'post' | 'beam';

/** One block of a pile, as plain data: a box of half-extents `half` at `pose`. */
export interface PileBlock {
  name: string;
  kind: BlockKind;
  /** Half-extents in the block's own frame, metres. */
  half: Vec3;
  pose: Pose;
  color: string;
  /** Grid cells the block rests over (two for a beam), as `[column, row]`. */
  cells: Array<[number, number]>;
  /** Height of its underside above the floor, in units of {@link HALF_UNIT}. */
  base: number;
}

/** How a tier shapes its pile. */
export interface PilePlan {
  cols: number;
  rows: number;
  /** Inclusive range of the number of cubes. */
  cubes: [number, number];
  /** Inclusive range of the number of decoys (tiles, posts, beams). */
  decoys: [number, number];
  /** Tallest column, in cube edges. */
  maxCubesHigh: number;
}

/** Edge of a cube, metres. */
export const CUBE = 0.04;
/** Column spacing on the grid, metres: a 6 mm gap leaves room for the small placement jitter. */
export const PITCH = 0.046;
/** Height bookkeeping unit: half a cube edge (a tile's thickness), metres. */
export const HALF_UNIT = CUBE / 2;

/**
 * Painted-wood colours shared by every kind of block, so colour says nothing about the kind.
 * None is close to the rollback highlight magenta.
 */
export const BLOCK_COLORS = ['#c0392b', '#2e6fb7', '#e0b23a', '#4f9a4c', '#d29a5c', '#e07b39', '#5fb0b7'];

/** Half-units of height each kind adds to the column(s) it sits on. */
const KIND_UNITS: Record<BlockKind, number> = { cube: 2, tile: 1, post: 4, beam: 2 };

function roundQuat(q: Quat): Quat {
  return q.map(round9) as Quat;
}

/** Centre of a grid cell on the floor plane, metres. */
export function cellCenter(plan: Pick<PilePlan, 'cols' | 'rows'>, col: number, row: number): [number, number] {
  return [round9((col - (plan.cols - 1) / 2) * PITCH), round9((row - (plan.rows - 1) / 2) * PITCH)];
}

/**
 * Draws a pile: the counted cubes and the decoys, dropped one at a time in a shuffled order
 * onto grid columns (each column has a random appetite, so heights vary and some cells stay
 * empty), stacked straight so the pile is statically stable by construction. Beams need two
 * neighbouring columns of equal height; when none exists the beam becomes a tile. Every block
 * gets a small random offset (≤ 1.5 mm) and yaw (≤ 4°, beams ≤ 1.5°) so the pile does not
 * look machine-made; the 6 mm column gaps keep neighbours apart even then.
 */
export function drawPile(rng: Rng, plan: PilePlan, nCubes = rng.int(plan.cubes[0], plan.cubes[1])): PileBlock[] {
  const nDecoys = rng.int(plan.decoys[0], plan.decoys[1]);
  const decoyKinds: BlockKind[] = ['tile', 'post', 'beam'];
  const items: BlockKind[] = [...new Array<BlockKind>(nCubes).fill('cube')];
  for (let i = 0; i < nDecoys; i++) items.push(rng.pick(decoyKinds));
  const order = rng.shuffle(items);
  const maxUnits = plan.maxCubesHigh * 2;
  const top: number[][] = Array.from({ length: plan.cols }, () => new Array<number>(plan.rows).fill(0));
  const appetite: number[][] = Array.from({ length: plan.cols }, () => Array.from({ length: plan.rows }, () => rng.range(0.1, 1)));
  const placed: Array<{ kind: BlockKind; cells: Array<[number, number]>; base: number }> = [];

  const pickWeighted = <T>(options: Array<{ item: T; weight: number }>): T | null => {
    const total = options.reduce((s, o) => s + o.weight, 0);
    if (!options.length || total <= 0) return null;
    let x = rng.next() * total;
    for (const o of options) {
      x -= o.weight;
      if (x < 0) return o.item;
    }
    return options[options.length - 1].item;
  };

  for (let kind of order) {
    if (kind === 'beam') {
      const pairs: Array<{ item: Array<[number, number]>; weight: number }> = [];
      for (let c = 0; c < plan.cols; c++) {
        for (let r = 0; r < plan.rows; r++) {
          for (const [dc, dr] of [
            [1, 0],
            [0, 1],
          ]) {
            const c2 = c + dc;
            const r2 = r + dr;
            if (c2 >= plan.cols || r2 >= plan.rows) continue;
            if (top[c][r] !== top[c2][r2] || top[c][r] + 2 > maxUnits) continue;
            pairs.push({ item: [[c, r], [c2, r2]], weight: appetite[c][r] * appetite[c2][r2] });
          }
        }
      }
      const pair = pickWeighted(pairs);
      if (pair) {
        const base = top[pair[0][0]][pair[0][1]];
        for (const [c, r] of pair) top[c][r] = base + 2;
        placed.push({ kind, cells: pair, base });
        continue;
      }
      kind = 'tile';
    }
    const units = KIND_UNITS[kind];
    const cells: Array<{ item: [number, number]; weight: number }> = [];
    for (let c = 0; c < plan.cols; c++) {
      for (let r = 0; r < plan.rows; r++) {
        if (top[c][r] + units <= maxUnits) cells.push({ item: [c, r], weight: appetite[c][r] });
      }
    }
    let cell = pickWeighted(cells);
    if (!cell) {
      // Every column is at the cap (only a plan with too little room for its blocks): the
      // lowest column takes the block anyway.
      let best: [number, number] = [0, 0];
      for (let c = 0; c < plan.cols; c++) for (let r = 0; r < plan.rows; r++) if (top[c][r] < top[best[0]][best[1]]) best = [c, r];
      cell = best;
    }
    const base = top[cell[0]][cell[1]];
    top[cell[0]][cell[1]] = base + units;
    placed.push({ kind, cells: [cell], base });
  }

  return placed.map((p, i) => {
    const name = `block-${String(i + 1).padStart(2, '0')}`;
    const color = rng.pick(BLOCK_COLORS);
    const beam = p.kind === 'beam';
    const jitter = beam ? 0.001 : 0.0015;
    const yawMax = beam ? 1.5 : 4;
    const dx = rng.range(-jitter, jitter);
    const dz = rng.range(-jitter, jitter);
    const yaw = Math.round(rng.range(-yawMax, yawMax) * 10) / 10;
    const centers = p.cells.map(([c, r]) => cellCenter(plan, c, r));
    const cx = centers.reduce((s, v) => s + v[0], 0) / centers.length;
    const cz = centers.reduce((s, v) => s + v[1], 0) / centers.length;
    let half: Vec3;
    switch (p.kind) {
      case 'cube':
        half = [CUBE / 2, CUBE / 2, CUBE / 2];
        break;
      case 'tile':
        half = [CUBE / 2, CUBE / 4, CUBE / 2];
        break;
      case 'post':
        half = [CUBE / 2, CUBE, CUBE / 2];
        break;
      case 'beam':
        // Along the line through its two cells.
        half = p.cells[0][0] !== p.cells[1][0] ? [CUBE, CUBE / 2, CUBE / 2] : [CUBE / 2, CUBE / 2, CUBE];
        break;
    }
    const y = p.base * HALF_UNIT + half[1];
    return {
      name,
      kind: p.kind,
      half,
      pose: { p: [round9(cx + dx), round9(y), round9(cz + dz)], q: roundQuat(yawQuat(yaw)) },
      color,
      cells: p.cells,
      base: p.base,
    };
  });
}

/** Height of the pile's highest point above the floor, metres. */
export function pileHeight(blocks: PileBlock[]): number {
  return blocks.reduce((m, b) => Math.max(m, b.pose.p[1] + b.half[1]), 0);
}
