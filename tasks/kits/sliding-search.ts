/**
 * Sliding rectangular pieces on a grid as a search problem for the discrete-puzzle kit (the
 * sliding-block and traffic-jam families): a state is the north-west cell of every piece; a move
 * slides one piece one or more cells in one straight direction through empty cells, along any
 * axis or only along the piece's own axis. Pieces of the same size and axis (other than piece 0,
 * the target) are interchangeable, so a state's key names cells by piece kind only.
 */
import type { SearchProblem } from '../../solvers/discrete-search/index.ts';
import { DIRECTION_STEP, TRAY_DIRECTIONS, type TrayDirection } from './grid-tray.ts';

/** A piece on the grid: its north-west cell, its size, and the directions it may slide. */
export interface GridPiece {
  col: number;
  row: number;
  w: number;
  h: number;
  /** `ew`: only east and west; `ns`: only north and south; default any direction. */
  axis?: 'ew' | 'ns';
  /** Never moves (a piece held in place, e.g. to prove it never needs to move). */
  fixed?: boolean;
}

/** One slide: piece index, direction, cells. */
export interface SlideMove {
  block: number;
  dir: TrayDirection;
  cells: number;
}

/** Piece positions as cell indices (col + row × cols), in piece order. */
export type SlideState = number[];

/** The puzzle "bring piece 0 to `goal`" on a cols × rows grid (default start: the pieces' own cells). */
export function slidingProblem(scene: { cols: number; rows: number; blocks: GridPiece[]; goal: { col: number; row: number } }, start?: SlideState): SearchProblem<SlideState, SlideMove> {
  const { cols, rows, blocks } = scene;
  const goalIndex = scene.goal.col + scene.goal.row * cols;
  // Key: one character per cell, naming the kind of piece whose north-west corner is there
  // (1 the target, then one code per other size and axis); equal pieces are interchangeable.
  const kinds: string[] = [];
  const kindCode = blocks.map((b, i) => {
    if (i === 0) return 1;
    const k = `${b.w}x${b.h}${b.axis ?? ''}${b.fixed ? 'fixed' : ''}`;
    if (!kinds.includes(k)) kinds.push(k);
    return 2 + kinds.indexOf(k);
  });
  const dirsOf = blocks.map((b) => TRAY_DIRECTIONS.filter((d) => b.fixed ? false : !b.axis || (b.axis === 'ew' ? d === 'east' || d === 'west' : d === 'north' || d === 'south')));
  const keyCells = new Uint16Array(cols * rows);
  const grid = new Int8Array(cols * rows);
  const widths = blocks.map((b) => b.w);
  const heights = blocks.map((b) => b.h);
  const occupancy = (s: SlideState): Int8Array => {
    const g = grid.fill(-1);
    for (let i = 0; i < s.length; i++) {
      const c0 = s[i] % cols;
      const r0 = (s[i] - c0) / cols;
      const w = widths[i];
      const h = heights[i];
      for (let r = 0; r < h; r++) for (let c = 0; c < w; c++) g[(r0 + r) * cols + c0 + c] = i;
    }
    return g;
  };
  // When every piece keeps to one axis (or never moves), its coordinate along that axis names
  // its place, and pieces can never swap places: a number in base max(cols, rows) is a faster key.
  const onRails = blocks.every((b) => b.axis || b.fixed) && Math.max(cols, rows) ** blocks.length <= Number.MAX_SAFE_INTEGER;
  const base = Math.max(cols, rows);
  // Otherwise, when the grid is small enough, the per-cell key read as a number in base
  // (kinds + 2): the sum over pieces of kind × base^cell (one piece's corner per cell, so the sum
  // is exact and one-to-one). Building the string key was a third of generating a P1-L5 puzzle.
  const kindBase = kinds.length + 2;
  const cellPower = kindBase ** (cols * rows) <= Number.MAX_SAFE_INTEGER ? Array.from({ length: cols * rows }, (_, i) => kindBase ** i) : null;
  // On rails, piece i's coordinate weighs base^i in the key (the key read in base `base`).
  const railPower: number[] = [];
  for (let i = 0, p = 1; i < blocks.length; i++, p *= base) railPower.push(p);
  const railCoord = (i: number, cell: number): number => (blocks[i].axis === 'ns' ? (cell - (cell % cols)) / cols : cell % cols);
  // The slides last listed by successorKeys: which piece, and its new north-west cell.
  const slidPiece: number[] = [];
  const slidCell: number[] = [];
  const slidDir: TrayDirection[] = [];
  const slidCells: number[] = [];
  /**
   * Calls `visit(piece, dir, cells, newCell)` for every slide out of `s`, in the order the
   * successors are listed (pieces in order, directions in the piece's order, then nearer
   * first), and returns how many.
   */
  const eachSlide = (s: SlideState, visit: (piece: number, dir: TrayDirection, cells: number, cell: number) => void): number => {
    const g = occupancy(s);
    let count = 0;
    for (let i = 0; i < s.length; i++) {
      const b = blocks[i];
      const c0 = s[i] % cols;
      const r0 = (s[i] - c0) / cols;
      const dirs = dirsOf[i];
      for (let d = 0; d < dirs.length; d++) {
        const dir = dirs[d];
        const step = DIRECTION_STEP[dir];
        const dc = step[0];
        const dr = step[1];
        for (let n = 1; ; n++) {
          // The leading edge's new cells must be inside and empty.
          const c = c0 + dc * n;
          const r = r0 + dr * n;
          if (c < 0 || r < 0 || c + b.w > cols || r + b.h > rows) break;
          let free = true;
          if (dc !== 0) {
            const edge = dc > 0 ? c + b.w - 1 : c;
            for (let k = 0; k < b.h && free; k++) if (g[(r + k) * cols + edge] >= 0 && g[(r + k) * cols + edge] !== i) free = false;
          } else {
            const edge = dr > 0 ? r + b.h - 1 : r;
            for (let k = 0; k < b.w && free; k++) if (g[edge * cols + c + k] >= 0 && g[edge * cols + c + k] !== i) free = false;
          }
          if (!free) break;
          visit(i, dir, n, c + r * cols);
          count++;
        }
      }
    }
    return count;
  };
  const key = (s: SlideState): string | number => {
    if (onRails) {
      let k = 0;
      for (let i = s.length - 1; i >= 0; i--) k = k * base + railCoord(i, s[i]);
      return k;
    }
    if (cellPower) {
      let k = 0;
      for (let i = 0; i < s.length; i++) k += kindCode[i] * cellPower[s[i]];
      return k;
    }
    keyCells.fill(48);
    for (let i = 0; i < s.length; i++) keyCells[s[i]] = 48 + kindCode[i];
    return String.fromCharCode(...keyCells);
  };
  // Scratch of successorKeys' visitor (no closure per state: this is the searches' inner loop).
  let fromKey = 0;
  let slid = 0;
  let fromState: SlideState = [];
  let keysOut: Array<string | number> = [];
  const recordSlide = (piece: number, dir: TrayDirection, cells: number, cell: number): void => {
    const j = slid++;
    slidPiece[j] = piece;
    slidCell[j] = cell;
    slidDir[j] = dir;
    slidCells[j] = cells;
    // Every term of a numeric key is a whole number and every key is below 2^53, so moving one
    // piece's term is exact: the same number key() gives the new state.
    keysOut[j] = onRails
      ? fromKey - railCoord(piece, fromState[piece]) * railPower[piece] + railCoord(piece, cell) * railPower[piece]
      : fromKey - kindCode[piece] * cellPower![fromState[piece]] + kindCode[piece] * cellPower![cell];
  };
  return {
    start: start ?? blocks.map((b) => b.col + b.row * cols),
    key,
    isGoal: (s) => s[0] === goalIndex,
    successors(s) {
      // An array, not a generator: this is the inner loop of every distance table (P1 and P2
      // generation, and their episodes' progress).
      const out: Array<readonly [SlideMove, SlideState]> = [];
      eachSlide(s, (block, dir, cells, cell) => {
        const next = s.slice();
        next[block] = cell;
        out.push([{ block, dir, cells }, next] as const);
      });
      return out;
    },
    ...(onRails || cellPower
      ? {
          successorKeys(s: SlideState, keys: Array<string | number>): number {
            slid = 0;
            fromKey = key(s) as number;
            fromState = s;
            keysOut = keys;
            return eachSlide(s, recordSlide);
          },
          successorAt(s: SlideState, j: number): readonly [SlideMove, SlideState] {
            const next = s.slice();
            next[slidPiece[j]] = slidCell[j];
            return [{ block: slidPiece[j], dir: slidDir[j], cells: slidCells[j] }, next] as const;
          },
        }
      : {}),
  };
}
