/**
 * The crate-pushing room as a graph: which cell a step in each compass direction leads to
 * (walls, the platform's drops and the ramp's sides have none), read from the scene's map and
 * heights. The solver, the generator and the episode all walk this one graph, so the rules the
 * search proves optimal under are the rules the world enforces with its rails and walls.
 */
import { SpaceActError } from '../../../core/errors.ts';
import { DIRECTION_STEP, TRAY_DIRECTIONS, type TrayDirection } from '../../kits/grid-tray.ts';
import type { P3Scene } from './scene.ts';

/** What a cell is. */
export type CellKind = 'wall' | 'ground' | 'platform' | 'ramp';

/** The four directions in a fixed order (index 0–3: north, east, south, west). */
export const DIRS: readonly TrayDirection[] = TRAY_DIRECTIONS;
/** The opposite of direction index d. */
export function opposite(d: number): number {
  return (d + 2) % 4;
}

/** A parsed room: cells are indexed `col + row × cols`. */
export interface Level {
  cols: number;
  rows: number;
  kind: CellKind[];
  /** For a ramp cell, the direction index it rises toward; else -1. */
  rise: number[];
  /** `next[cell × 4 + d]`: the cell one step in direction d leads to, or -1 (no passage). */
  next: Int32Array;
  goals: number[];
  /** Crate cells, ascending. */
  crates: number[];
  pusher: number;
}

const RISE_CODES: Record<string, number> = { n: 0, e: 1, s: 2, w: 3 };

/** Whether a step from cell a (kind ka) in direction d to cell b (kind kb) is a passage. */
function passage(ka: CellKind, riseA: number, kb: CellKind, riseB: number, d: number): boolean {
  if (ka === 'wall' || kb === 'wall') return false;
  if (ka === 'ramp' && kb === 'ramp') return false;
  if (ka === 'ramp') {
    // Up the slope onto the platform, or down it onto the ground; never over a side rail.
    if (d === riseA) return kb === 'platform';
    if (d === opposite(riseA)) return kb === 'ground';
    return false;
  }
  if (kb === 'ramp') {
    // Onto the low end from the ground, or onto the high end from the platform.
    if (d === riseB) return ka === 'ground';
    if (d === opposite(riseB)) return ka === 'platform';
    return false;
  }
  // Ground to ground and platform to platform; the platform's edge is a drop with a rail.
  return ka === kb;
}

/** Parses a scene's map and heights; throws `SpaceActError('invalid-instance')` on a malformed one. */
export function parseLevel(scene: Pick<P3Scene, 'cols' | 'rows' | 'map' | 'heights'>): Level {
  const { cols, rows, map, heights } = scene;
  const bad = (msg: string): never => {
    throw new SpaceActError('invalid-instance', `P3 map: ${msg}`);
  };
  if (map.length !== rows || map.some((r) => r.length !== cols)) bad(`expected ${rows} rows of ${cols} characters`);
  if (heights && (heights.length !== rows || heights.some((r) => r.length !== cols))) bad(`heights: expected ${rows} rows of ${cols} characters`);
  const n = cols * rows;
  const kind: CellKind[] = new Array(n);
  const rise: number[] = new Array(n).fill(-1);
  const goals: number[] = [];
  const crates: number[] = [];
  let pusher = -1;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const i = c + r * cols;
      const ch = map[r][c];
      const h = heights ? heights[r][c] : '0';
      if (!'# .$*@+'.includes(ch)) bad(`unknown character "${ch}" at column ${c}, row ${r}`);
      if (ch === '#') {
        kind[i] = 'wall';
        continue;
      }
      if (r === 0 || c === 0 || r === rows - 1 || c === cols - 1) bad('the border must be walls');
      if (h === '0') kind[i] = 'ground';
      else if (h === '1') kind[i] = 'platform';
      else if (h in RISE_CODES) {
        kind[i] = 'ramp';
        rise[i] = RISE_CODES[h];
      } else bad(`unknown height "${h}" at column ${c}, row ${r}`);
      if (ch === '.' || ch === '*' || ch === '+') goals.push(i);
      if (ch === '$' || ch === '*') crates.push(i);
      if (ch === '@' || ch === '+') {
        if (pusher >= 0) bad('more than one pusher');
        pusher = i;
      }
    }
  }
  if (pusher < 0) bad('no pusher');
  if (crates.length !== goals.length || crates.length === 0) bad(`${crates.length} crates for ${goals.length} marked cells`);
  const next = new Int32Array(n * 4).fill(-1);
  for (let i = 0; i < n; i++) {
    const c = i % cols;
    const r = (i - c) / cols;
    DIRS.forEach((dir, d) => {
      const [dc, dr] = DIRECTION_STEP[dir];
      const cc = c + dc;
      const rr = r + dr;
      if (cc < 0 || rr < 0 || cc >= cols || rr >= rows) return;
      const j = cc + rr * cols;
      if (passage(kind[i], rise[i], kind[j], rise[j], d)) next[i * 4 + d] = j;
    });
  }
  return { cols, rows, kind, rise, next, goals, crates: crates.sort((a, b) => a - b), pusher };
}

/** The cell one step from `cell` in direction index d, or -1. */
export function step(level: Level, cell: number, d: number): number {
  return level.next[cell * 4 + d];
}

/**
 * Cells from which a lone crate can still be pushed onto some marked cell (the others are dead
 * squares: a crate pushed there can never be finished). Found backwards from the marked cells: a
 * crate reaches cell c from p = c − d when the pusher can stand at p − d.
 */
export function crateDistances(level: Level): Int32Array {
  const dist = new Int32Array(level.kind.length).fill(-1);
  const queue: number[] = [];
  for (const g of level.goals) {
    dist[g] = 0;
    queue.push(g);
  }
  for (let head = 0; head < queue.length; head++) {
    const c = queue[head];
    for (let d = 0; d < 4; d++) {
      const p = step(level, c, opposite(d));
      if (p < 0 || dist[p] >= 0) continue;
      if (step(level, p, opposite(d)) < 0) continue;
      dist[p] = dist[c] + 1;
      queue.push(p);
    }
  }
  return dist;
}

/**
 * Shortest walks of the pusher from `from` over cells free of crates: the number of steps to
 * every cell (-1 where it cannot go), the number of different shortest walks, and the direction
 * of the last step of the first shortest walk found (directions tried in the fixed order
 * north, east, south, west), from which a walk is read back.
 */
export function walks(level: Level, from: number, occupied: ReadonlySet<number> | ((cell: number) => boolean)): { dist: Int32Array; ways: Float64Array; lastDir: Int8Array } {
  const isOccupied = typeof occupied === 'function' ? occupied : (c: number): boolean => occupied.has(c);
  const n = level.kind.length;
  const dist = new Int32Array(n).fill(-1);
  const ways = new Float64Array(n);
  const lastDir = new Int8Array(n).fill(-1);
  dist[from] = 0;
  ways[from] = 1;
  const queue = [from];
  for (let head = 0; head < queue.length; head++) {
    const a = queue[head];
    for (let d = 0; d < 4; d++) {
      const b = step(level, a, d);
      if (b < 0 || isOccupied(b)) continue;
      if (dist[b] < 0) {
        dist[b] = dist[a] + 1;
        ways[b] = ways[a];
        lastDir[b] = d;
        queue.push(b);
      } else if (dist[b] === dist[a] + 1) {
        ways[b] += ways[a];
      }
    }
  }
  return { dist, ways, lastDir };
}

/**
 * Where the pusher can walk from `from` without crossing a crate (`crates[cell]` 1): marks the
 * cells in `seen` with `stamp` and returns the lowest one, the region's canonical name. For
 * searches that need only where the pusher can go, not how (see {@link walks}); `seen` and
 * `stack` are the caller's scratch, reused across calls by passing a new stamp each time.
 */
export function pusherRegion(level: Level, from: number, crates: Uint8Array, seen: Uint32Array, stack: Int32Array, stamp: number): number {
  let top = 0;
  let low = from;
  seen[from] = stamp;
  stack[top++] = from;
  while (top > 0) {
    const a = stack[--top];
    if (a < low) low = a;
    for (let d = 0; d < 4; d++) {
      const b = level.next[a * 4 + d];
      if (b < 0 || crates[b] || seen[b] === stamp) continue;
      seen[b] = stamp;
      stack[top++] = b;
    }
  }
  return low;
}

/** The directions of the first shortest walk to `to` (see {@link walks}). */
export function walkTo(level: Level, w: { lastDir: Int8Array }, to: number): number[] {
  const dirs: number[] = [];
  let at = to;
  while (w.lastDir[at] >= 0) {
    const d = w.lastDir[at];
    dirs.push(d);
    at = step(level, at, opposite(d));
  }
  return dirs.reverse();
}

/** Column and row of a cell index. */
export function colRow(level: Pick<Level, 'cols'>, cell: number): [number, number] {
  const c = cell % level.cols;
  return [c, (cell - c) / level.cols];
}
