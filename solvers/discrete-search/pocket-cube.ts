import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpaceActError } from '../../core/errors.ts';
import { addCounts } from './problem.ts';
import { PACKAGE_ROOT } from '../../core/package-root.ts';

/**
 * The 2×2×2 pocket cube as corner permutation and twist, with one corner held fixed.
 *
 * Corner positions (Kociemba's order): 0 URF, 1 UFL, 2 ULB, 3 UBR, 4 DFR, 5 DLF, 6 DBL, 7 DRB.
 * `cp[i]` is the corner cubie at position i, `co[i]` its twist (0 when its U/D sticker faces
 * U or D; 1 after one clockwise twist, 2 after two). The DBL corner (position 6) never moves
 * under U, R and F turns, and every position of the puzzle is, up to turning the whole cube,
 * one with DBL in place — so the puzzle has 7!·3⁶ = 3,674,160 positions.
 */
export interface PocketCubeState {
  cp: number[];
  co: number[];
}

/** The turning faces of the fixed-corner representation. */
export type CubeFace = 'U' | 'R' | 'F';
/** Half-turn metric (any face turn of 90° or 180° is one move) or quarter-turn metric (90° only). */
export type CubeMetric = 'htm' | 'qtm';
/** A turn: face and number of clockwise quarter turns (1, 2 or 3 = 90°, 180°, 90° anticlockwise). */
export interface CubeTurn {
  face: CubeFace;
  quarters: 1 | 2 | 3;
}

/** Positions of the puzzle with one corner fixed: 7! × 3⁶. */
export const POCKET_CUBE_POSITIONS = 5040 * 729;

const FACES: CubeFace[] = ['U', 'R', 'F'];
const BASE: Record<CubeFace, PocketCubeState> = {
  U: { cp: [3, 0, 1, 2, 4, 5, 6, 7], co: [0, 0, 0, 0, 0, 0, 0, 0] },
  R: { cp: [4, 1, 2, 0, 7, 5, 6, 3], co: [2, 0, 0, 1, 1, 0, 0, 2] },
  F: { cp: [1, 5, 2, 3, 0, 4, 6, 7], co: [1, 2, 0, 0, 2, 1, 0, 0] },
};
/** Positions that move, in index order (6 = DBL is fixed). */
const MOVING = [0, 1, 2, 3, 4, 5, 7];

/** The solved cube. */
export function solvedCube(): PocketCubeState {
  return { cp: [0, 1, 2, 3, 4, 5, 6, 7], co: [0, 0, 0, 0, 0, 0, 0, 0] };
}

/** The cube after one clockwise quarter turn of `face`. */
function quarter(s: PocketCubeState, face: CubeFace): PocketCubeState {
  const m = BASE[face];
  return { cp: m.cp.map((from) => s.cp[from]), co: m.cp.map((from, i) => (s.co[from] + m.co[i]) % 3) };
}

/** The cube after a turn. */
export function applyTurn(s: PocketCubeState, t: CubeTurn): PocketCubeState {
  let out = s;
  for (let k = 0; k < t.quarters; k++) out = quarter(out, t.face);
  return out;
}

/** The moves of a metric, in a fixed order. */
export function turnsOf(metric: CubeMetric): CubeTurn[] {
  const q: Array<1 | 2 | 3> = metric === 'htm' ? [1, 2, 3] : [1, 3];
  return FACES.flatMap((face) => q.map((quarters) => ({ face, quarters })));
}

/** Index 0..3,674,159 of a position with DBL in place. */
export function cubeIndex(s: PocketCubeState): number {
  if (s.cp[6] !== 6 || s.co[6] !== 0) throw new SpaceActError('invalid-argument', 'pocket cube index needs the DBL corner in place');
  let rank = 0;
  const vals = MOVING.map((p) => s.cp[p]);
  for (let i = 0; i < 7; i++) {
    let smaller = 0;
    for (let j = i + 1; j < 7; j++) if (vals[j] < vals[i]) smaller++;
    rank = rank * (7 - i) + smaller;
  }
  let ori = 0;
  for (let i = 0; i < 6; i++) ori = ori * 3 + s.co[i];
  return rank * 729 + ori;
}

/** The position of an index (inverse of {@link cubeIndex}). */
export function cubeFromIndex(index: number): PocketCubeState {
  let rank = Math.floor(index / 729);
  let ori = index % 729;
  const digits: number[] = [];
  for (let i = 6; i >= 0; i--) {
    digits[i] = rank % (7 - i);
    rank = Math.floor(rank / (7 - i));
  }
  const pool = [0, 1, 2, 3, 4, 5, 7];
  const cp = new Array<number>(8);
  MOVING.forEach((p, i) => (cp[p] = pool.splice(digits[i], 1)[0]));
  cp[6] = 6;
  const co = new Array<number>(8).fill(0);
  let sum = 0;
  for (let i = 5; i >= 0; i--) {
    co[i] = ori % 3;
    sum += co[i];
    ori = Math.floor(ori / 3);
  }
  co[7] = (3 - (sum % 3)) % 3;
  return { cp, co };
}

/** Whether a state is a legal position (a permutation, twists summing to 0 mod 3). */
export function isLegalCube(s: PocketCubeState): boolean {
  if (s.cp.length !== 8 || s.co.length !== 8) return false;
  if ([...s.cp].sort().join() !== '0,1,2,3,4,5,6,7') return false;
  if (s.co.some((c) => c !== 0 && c !== 1 && c !== 2)) return false;
  return s.co.reduce((a, b) => a + b, 0) % 3 === 0;
}

/** Quarter-turn move tables on the permutation rank and the twist index, per face. */
function moveTables(): { perm: Int32Array; ori: Int32Array } {
  const perm = new Int32Array(5040 * 3);
  const ori = new Int32Array(729 * 3);
  for (let r = 0; r < 5040; r++) {
    const s = cubeFromIndex(r * 729);
    FACES.forEach((f, k) => (perm[r * 3 + k] = Math.floor(cubeIndex(quarter(s, f)) / 729)));
  }
  for (let o = 0; o < 729; o++) {
    const s = cubeFromIndex(o);
    FACES.forEach((f, k) => {
      const t = quarter(s, f);
      // The twist table must not depend on the permutation: index twists by position only.
      ori[o * 3 + k] = cubeIndex({ cp: [0, 1, 2, 3, 4, 5, 6, 7], co: t.co }) % 729;
    });
  }
  return { perm, ori };
}

/**
 * Breadth-first distances from solved to every position, scanning layer by layer:
 * `table[i]` is the distance of position i in moves of `metric`.
 */
function distanceTable(metric: CubeMetric, tables: { perm: Int32Array; ori: Int32Array }): Uint8Array {
  const dist = new Uint8Array(POCKET_CUBE_POSITIONS).fill(255);
  dist[cubeIndex(solvedCube())] = 0;
  const { perm, ori } = tables;
  const half = metric === 'htm';
  let reached = 1;
  for (let d = 0; reached < POCKET_CUBE_POSITIONS && d < 254; d++) {
    let added = 0;
    for (let i = 0; i < POCKET_CUBE_POSITIONS; i++) {
      if (dist[i] !== d) continue;
      const r0 = (i / 729) | 0;
      const o0 = i - r0 * 729;
      for (let f = 0; f < 3; f++) {
        let r = r0;
        let o = o0;
        for (let q = 1; q <= 3; q++) {
          r = perm[r * 3 + f];
          o = ori[o * 3 + f];
          if (q === 2 && !half) continue;
          const j = r * 729 + o;
          if (dist[j] === 255) {
            dist[j] = d + 1;
            added++;
          }
        }
      }
    }
    if (!added) break;
    reached += added;
  }
  return dist;
}

/** Both distance tables and where they came from. */
export interface PocketCubeTables {
  htm: Uint8Array;
  qtm: Uint8Array;
  /** `computed` this call, read from the on-disk `cache`, or already in `memory`. */
  source: 'computed' | 'cache' | 'memory';
  /** The cache file used (or tried), if any. */
  cacheFile: string | null;
}

const CACHE_NAME = 'pocket-cube-distances-v1.bin';
const DIGEST_BYTES = 32;
let memo: { htm: Uint8Array; qtm: Uint8Array; cacheFile: string | null } | null = null;

/**
 * Where the table cache lives: `$SPACEACT_CACHE_DIR`, else `node_modules/.cache/spaceact/` in
 * the package (created by `npm ci`, never committed, private to the checkout), else the system
 * temporary folder. A missing, unwritable or corrupt cache is never an error: the table is
 * recomputed (it takes a few seconds) and the cache rewritten when possible.
 */
export function tableCacheDir(): string {
  if (process.env.SPACEACT_CACHE_DIR) return process.env.SPACEACT_CACHE_DIR;
  return join(PACKAGE_ROOT, 'node_modules', '.cache', 'spaceact');
}

function digest(a: Uint8Array, b: Uint8Array): Buffer {
  return createHash('sha256').update(a).update(b).digest();
}

function readCache(file: string): { htm: Uint8Array; qtm: Uint8Array } | null {
  try {
    const buf = readFileSync(file);
    if (buf.length !== DIGEST_BYTES + 2 * POCKET_CUBE_POSITIONS) return null;
    const htm = new Uint8Array(buf.subarray(DIGEST_BYTES, DIGEST_BYTES + POCKET_CUBE_POSITIONS));
    const qtm = new Uint8Array(buf.subarray(DIGEST_BYTES + POCKET_CUBE_POSITIONS));
    if (!digest(htm, qtm).equals(buf.subarray(0, DIGEST_BYTES))) return null;
    if (htm[cubeIndex(solvedCube())] !== 0 || qtm[cubeIndex(solvedCube())] !== 0) return null;
    return { htm, qtm };
  } catch {
    return null;
  }
}

function writeCache(dir: string, file: string, htm: Uint8Array, qtm: Uint8Array): boolean {
  try {
    mkdirSync(dir, { recursive: true });
    // Write beside the target and rename: a reader never sees half a file, and two processes
    // writing at once each rename a whole one.
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, Buffer.concat([digest(htm, qtm), htm, qtm]));
    renameSync(tmp, file);
    return true;
  } catch {
    return false;
  }
}

/**
 * The exact distance of every pocket-cube position from solved, in the half-turn and the
 * quarter-turn metric: breadth-first search over all 3,674,160 positions (one corner fixed),
 * kept in memory and cached on disk after the first run (see {@link tableCacheDir}).
 * `opts.fresh` recomputes and ignores both caches (for timing and for tests).
 */
export function pocketCubeTables(opts: { fresh?: boolean; cache?: boolean } = {}): PocketCubeTables {
  if (memo && !opts.fresh) return { ...memo, source: 'memory' };
  const useCache = opts.cache ?? true;
  const dirs = useCache ? [tableCacheDir(), join(tmpdir(), 'spaceact-cache')] : [];
  if (!opts.fresh) {
    for (const dir of dirs) {
      const file = join(dir, CACHE_NAME);
      const hit = readCache(file);
      if (hit) {
        memo = { ...hit, cacheFile: file };
        return { ...memo, source: 'cache' };
      }
    }
  }
  const mt = moveTables();
  const htm = distanceTable('htm', mt);
  const qtm = distanceTable('qtm', mt);
  let cacheFile: string | null = null;
  for (const dir of dirs) {
    const file = join(dir, CACHE_NAME);
    if (writeCache(dir, file, htm, qtm)) {
      cacheFile = file;
      break;
    }
  }
  memo = { htm, qtm, cacheFile };
  return { htm, qtm, source: 'computed', cacheFile };
}

/** How many positions lie at each distance from solved, in both metrics (God's numbers are the last indices). */
export interface PocketCubeDistanceCounts {
  positions: number;
  htm: number[];
  qtm: number[];
  godsNumber: { htm: number; qtm: number };
}

/**
 * The number of pocket-cube positions at each distance from solved in the half-turn and the
 * quarter-turn metric, from the full distance table — the figures an author can quote.
 */
export function pocketCubeDistanceCounts(): PocketCubeDistanceCounts {
  const t = pocketCubeTables();
  const histogram = (table: Uint8Array): number[] => {
    const out: number[] = [];
    for (const d of table) {
      if (d === 255) throw new SpaceActError('invalid-state', 'pocket cube table has an unreached position');
      out[d] = (out[d] ?? 0) + 1;
    }
    return out;
  };
  const htm = histogram(t.htm);
  const qtm = histogram(t.qtm);
  return { positions: POCKET_CUBE_POSITIONS, htm, qtm, godsNumber: { htm: htm.length - 1, qtm: qtm.length - 1 } };
}

/** The exact distance of a position (DBL in place) from solved. */
export function pocketCubeDistance(s: PocketCubeState, metric: CubeMetric): number {
  const t = pocketCubeTables();
  return (metric === 'htm' ? t.htm : t.qtm)[cubeIndex(s)];
}

/**
 * A shortest solution of a position in `metric`, read off the distance table (each turn goes
 * one closer; among equal turns the first in U, R, F and quarter order), and the number of
 * different shortest turn sequences (in the fixed-corner representation, where U, R, F turn and
 * D, L, B are the same turns up to turning the whole cube).
 */
export function solvePocketCube(s: PocketCubeState, metric: CubeMetric): { turns: CubeTurn[]; length: number; optimalCount: number } {
  if (!isLegalCube(s)) throw new SpaceActError('invalid-argument', 'not a legal pocket cube position');
  const table = metric === 'htm' ? pocketCubeTables().htm : pocketCubeTables().qtm;
  const moves = turnsOf(metric);
  const turns: CubeTurn[] = [];
  let cur = s;
  while (table[cubeIndex(cur)] > 0) {
    const d = table[cubeIndex(cur)];
    const t = moves.find((m) => table[cubeIndex(applyTurn(cur, m))] === d - 1)!;
    turns.push(t);
    cur = applyTurn(cur, t);
  }
  const memoCount = new Map<number, number>();
  const count = (st: PocketCubeState): number => {
    const i = cubeIndex(st);
    const d = table[i];
    if (d === 0) return 1;
    const hit = memoCount.get(i);
    if (hit !== undefined) return hit;
    let c = 0;
    for (const m of moves) {
      const n = applyTurn(st, m);
      if (table[cubeIndex(n)] === d - 1) c = addCounts(c, count(n));
    }
    memoCount.set(i, c);
    return c;
  };
  return { turns, length: turns.length, optimalCount: count(s) };
}
