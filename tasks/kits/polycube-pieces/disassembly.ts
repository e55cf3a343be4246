/**
 * Disassembly search for interlocking voxel puzzles (burrs), the classic method run the way
 * Cutler's and BurrTools' analyses do: a state is every piece's integer offset from its
 * assembled position; a move slides one piece (or, for level counting, a group of pieces) along
 * ±x, ±y or ±z by whole cells, and a slide of any length along one direction counts as one move;
 * a piece is out when it can slide to infinity along some direction without meeting another
 * piece. Breadth-first search over the states gives the **level** (moves to the first piece out,
 * the removal counted) and, phase by phase, a full disassembly whose reverse is an assembly.
 *
 * Options a physical world adds: pieces that never move (a key stick clamped in place, which
 * also fixes the frame) and a floor no cube may go below (a table). Without a fixed piece the
 * search works on offsets relative to the first remaining piece, so translating everything is
 * not a move.
 */
import type { Cell } from '../../../solvers/polycube.ts';

/** The six slide directions, in the fixed order searches use: +x, −x, +y, −y, +z, −z. */
export const SLIDE_DIRECTIONS: readonly Cell[] = [
  [1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1],
];

/** One move: `pieces` (one, or a group) slid `steps` cells along direction index `dir` into {@link SLIDE_DIRECTIONS}. */
export interface SlideMove {
  pieces: number[];
  dir: number;
  steps: number;
}

/** The puzzle: every piece's cells in the assembled state, and the physical options. */
export interface DisassemblyProblem {
  /** Cells of each piece at its assembled position (integer grid coordinates, y up). */
  pieces: Cell[][];
  /** Pieces that never move (a clamped key stick). */
  fixed?: number[];
  /** No cube may go below this y (a table top under the assembly); only used with a fixed piece. */
  floorY?: number;
  /** Also move groups of pieces together (level counting as BurrTools does); default single pieces only. */
  groups?: boolean;
  /** Most states one phase may visit before the search gives up (default 200,000). */
  maxStates?: number;
}

/** A phase's shortest path from its start state to the first piece (or group) out. */
export interface DisassemblyPhase {
  /** Moves inside the puzzle before the removal, each a slide of one piece or group. */
  moves: SlideMove[];
  /** The removal: the piece(s) that leave and the direction; `steps` is 0 (to infinity). */
  removal: SlideMove;
  /** States the phase's search visited. */
  states: number;
}

/** A full disassembly: phase by phase, until only fixed pieces (or one piece) remain. */
export interface Disassembly {
  /** Moves to the first piece out, the removal counted: the puzzle's level. */
  level: number;
  /** Every phase in order. */
  phases: DisassemblyPhase[];
  /** Each piece's offset just before it was removed (the state its removal slides from), by piece index; null for pieces never removed. */
  exitOffsets: (Cell | null)[];
  /** States visited over all phases. */
  states: number;
}

type Offsets = Cell[];

const BIAS = 512;
function vkey(x: number, y: number, z: number): number {
  return ((x + BIAS) * 1024 + (y + BIAS)) * 1024 + (z + BIAS);
}

function stateKey(remaining: readonly number[], off: Offsets, normalise: boolean): string {
  const base = normalise ? off[remaining[0]] : [0, 0, 0];
  return remaining.map((p) => `${off[p][0] - base[0]},${off[p][1] - base[1]},${off[p][2] - base[2]}`).join(';');
}

/** The movers of a phase: single pieces, and with `groups` every proper subset of the movable pieces. */
function moverSets(remaining: readonly number[], fixed: ReadonlySet<number>, groups: boolean): number[][] {
  const movable = remaining.filter((p) => !fixed.has(p));
  if (!groups) return movable.map((p) => [p]);
  const out: number[][] = [];
  const n = movable.length;
  // Without a fixed piece, moving a set equals moving its complement the other way: a proper subset is enough.
  const full = (1 << n) - 1;
  for (let mask = 1; mask <= full; mask++) {
    if (mask === full && fixed.size === 0) continue;
    const s: number[] = [];
    for (let i = 0; i < n; i++) if (mask & (1 << i)) s.push(movable[i]);
    out.push(s);
  }
  return out.sort((a, b) => a.length - b.length || a.join(',').localeCompare(b.join(',')));
}

/**
 * The collision model a phase searches in: whether `movers` fit at `off` shifted by `shift`
 * (no cube on another remaining piece's cube, none below the floor), and whether they can slide
 * to infinity along `dir` from there.
 */
class Space {
  constructor(private readonly prob: DisassemblyProblem) {}

  private occupancy(remaining: readonly number[], off: Offsets, except: ReadonlySet<number>): Set<number> {
    const occ = new Set<number>();
    for (const p of remaining) {
      if (except.has(p)) continue;
      const o = off[p];
      for (const c of this.prob.pieces[p]) occ.add(vkey(c[0] + o[0], c[1] + o[1], c[2] + o[2]));
    }
    return occ;
  }

  /** Largest slide of `movers` along `dir` (up to `limit`) before a collision, and whether the way is open to infinity. */
  reach(remaining: readonly number[], off: Offsets, movers: readonly number[], dir: number, floorY: number | null): { steps: number; free: boolean } {
    const set = new Set(movers);
    const occ = this.occupancy(remaining, off, set);
    const d = SLIDE_DIRECTIONS[dir];
    const cubes: Cell[] = [];
    for (const p of movers) {
      const o = off[p];
      for (const c of this.prob.pieces[p]) cubes.push([c[0] + o[0], c[1] + o[1], c[2] + o[2]]);
    }
    // The farthest obstacle along the movers' lines bounds the search; none ahead means free.
    let maxAhead = 0;
    let anyAhead = false;
    const axis = d[0] !== 0 ? 0 : d[1] !== 0 ? 1 : 2;
    const sign = d[axis];
    const lines = new Map<string, number[]>();
    for (const p of remaining) {
      if (set.has(p)) continue;
      const o = off[p];
      for (const c of this.prob.pieces[p]) {
        const w: Cell = [c[0] + o[0], c[1] + o[1], c[2] + o[2]];
        const k = axis === 0 ? `${w[1]},${w[2]}` : axis === 1 ? `${w[0]},${w[2]}` : `${w[0]},${w[1]}`;
        const list = lines.get(k);
        if (list) list.push(w[axis]);
        else lines.set(k, [w[axis]]);
      }
    }
    for (const c of cubes) {
      const k = axis === 0 ? `${c[1]},${c[2]}` : axis === 1 ? `${c[0]},${c[2]}` : `${c[0]},${c[1]}`;
      for (const v of lines.get(k) ?? []) {
        const ahead = (v - c[axis]) * sign;
        if (ahead > 0) {
          anyAhead = true;
          maxAhead = Math.max(maxAhead, ahead);
        }
      }
    }
    const floorBlocks = floorY !== null && dir === 3;
    if (!anyAhead && !floorBlocks) return { steps: Infinity, free: true };
    const limit = floorBlocks ? Math.max(maxAhead, Math.min(...cubes.map((c) => c[1])) - floorY) : maxAhead;
    let steps = 0;
    for (let s = 1; s <= limit; s++) {
      const ok = cubes.every((c) => {
        const x = c[0] + d[0] * s;
        const y = c[1] + d[1] * s;
        const z = c[2] + d[2] * s;
        return !occ.has(vkey(x, y, z)) && (floorY === null || y >= floorY);
      });
      if (!ok) break;
      steps = s;
    }
    return { steps, free: false };
  }
}

interface Node {
  off: Offsets;
  parent: number;
  move: SlideMove | null;
}

/**
 * Breadth-first search from `start` (offsets of every piece; only `remaining` count) for the
 * fewest moves to the first piece or group out. Null when no piece can come out (the pieces are
 * locked, or the state budget ran out).
 */
export function searchPhase(prob: DisassemblyProblem, remaining: readonly number[], start: Offsets): DisassemblyPhase | null {
  const fixed = new Set(prob.fixed ?? []);
  const normalise = fixed.size === 0;
  const floorY = fixed.size > 0 && prob.floorY !== undefined ? prob.floorY : null;
  const space = new Space(prob);
  const sets = moverSets(remaining, fixed, prob.groups === true);
  const maxStates = prob.maxStates ?? 200_000;
  const nodes: Node[] = [{ off: start.map((c) => [...c] as Cell), parent: -1, move: null }];
  const seen = new Set([stateKey(remaining, start, normalise)]);
  for (let head = 0; head < nodes.length; head++) {
    const node = nodes[head];
    // Check removals first: popping in breadth-first order makes the first found the fewest moves.
    const pending: Array<{ off: Offsets; move: SlideMove }> = [];
    for (const movers of sets) {
      for (let dir = 0; dir < 6; dir++) {
        const r = space.reach(remaining, node.off, movers, dir, floorY);
        if (r.free) {
          const moves: SlideMove[] = [];
          for (let at = head; nodes[at].move; at = nodes[at].parent) moves.unshift(nodes[at].move!);
          return { moves, removal: { pieces: [...movers], dir, steps: 0 }, states: nodes.length };
        }
        const d = SLIDE_DIRECTIONS[dir];
        for (let s = 1; s <= r.steps; s++) {
          const off = node.off.map((c) => [...c] as Cell);
          for (const p of movers) off[p] = [off[p][0] + d[0] * s, off[p][1] + d[1] * s, off[p][2] + d[2] * s];
          pending.push({ off, move: { pieces: [...movers], dir, steps: s } });
        }
      }
    }
    for (const next of pending) {
      const k = stateKey(remaining, next.off, normalise);
      if (seen.has(k)) continue;
      seen.add(k);
      nodes.push({ off: next.off, parent: head, move: next.move });
      if (nodes.length > maxStates) return null;
    }
  }
  return null;
}

/** The level alone: moves to the first piece (or, with `groups`, group) out from the assembled state; null when it cannot be taken apart. */
export function burrLevel(prob: DisassemblyProblem): { level: number; states: number } | null {
  const remaining = prob.pieces.map((_, i) => i);
  const phase = searchPhase(prob, remaining, prob.pieces.map(() => [0, 0, 0] as Cell));
  return phase ? { level: phase.moves.length + 1, states: phase.states } : null;
}

/**
 * A full disassembly by single pieces: phase after phase, the fewest moves to the next piece
 * out, that piece removed, until only the fixed pieces (or, with none, one piece) remain. Null
 * when some phase finds no piece that can come out.
 */
export function disassemble(prob: DisassemblyProblem): Disassembly | null {
  if (prob.groups) throw new Error('disassemble() takes pieces out one at a time; use burrLevel() for group moves');
  const fixed = new Set(prob.fixed ?? []);
  let remaining = prob.pieces.map((_, i) => i);
  const off: Offsets = prob.pieces.map(() => [0, 0, 0]);
  const exitOffsets: (Cell | null)[] = prob.pieces.map(() => null);
  const phases: DisassemblyPhase[] = [];
  let states = 0;
  const done = (): boolean => remaining.every((p) => fixed.has(p)) || (fixed.size === 0 && remaining.length <= 1);
  while (!done()) {
    const phase = searchPhase(prob, remaining, off);
    if (!phase) return null;
    states += phase.states;
    for (const m of phase.moves) {
      const d = SLIDE_DIRECTIONS[m.dir];
      for (const p of m.pieces) off[p] = [off[p][0] + d[0] * m.steps, off[p][1] + d[1] * m.steps, off[p][2] + d[2] * m.steps];
    }
    const out = phase.removal.pieces[0];
    exitOffsets[out] = [...off[out]] as Cell;
    remaining = remaining.filter((p) => p !== out);
    phases.push(phase);
  }
  return { level: phases.length ? phases[0].moves.length + 1 : 0, phases, exitOffsets, states };
}

/** Whether no two pieces share a cube when each is at its offset. */
export function disjointAt(pieces: readonly Cell[][], offsets: readonly Cell[]): boolean {
  const occ = new Set<number>();
  for (let p = 0; p < pieces.length; p++) {
    const o = offsets[p];
    for (const c of pieces[p]) {
      const k = vkey(c[0] + o[0], c[1] + o[1], c[2] + o[2]);
      if (occ.has(k)) return false;
      occ.add(k);
    }
  }
  return true;
}
