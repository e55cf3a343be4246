/**
 * Burr geometry: the full sticks of a three- or six-stick burr of 2×2×6 cubes, random notches
 * cut where sticks cross, and the disassembly certificate (the polycube-piece kit's
 * `disassembly.ts`) with the key stick clamped and the table under the burr.
 *
 * Cells are `[i, j, k]` integers: cube `[i, j, k]` spans `[i, i+1] × [j, j+1] × [k, k+1]` cube
 * units around the burr's centre (x right, y up, z towards the first camera). Every stick is 6
 * long and 2 × 2 across; the burr's bottom layer is `j = −3`, which stands on the table.
 */
import type { Rng } from '../../../core/rng.ts';
import type { Cell } from '../../../solvers/polycube.ts';
import { cellKey, faceNeighbours } from '../../kits/polycube-pieces/cells.ts';
import { disassemble, type Disassembly } from '../../kits/polycube-pieces/disassembly.ts';

/** Half the length of a stick, in cubes. */
export const HALF_LENGTH = 3;
/** The table top under the burr, as the lowest cube layer allowed. */
export const FLOOR_J = -HALF_LENGTH;

/** A stick's place in the burr: its long axis and where it lies across (the low cube of each cross axis). */
export interface StickSlot {
  /** Long axis: 0 = x, 1 = y, 2 = z. */
  axis: 0 | 1 | 2;
  /** The low cube index along each of the two other axes, in axis order (2 × 2 across from there). */
  across: [number, number];
}

/**
 * The slots of the three-stick burr: one stick per axis, crossing off-centre so the three can
 * come apart by straight slides (three sticks through one 2 × 2 × 2 centre lock for good). Slot
 * 1 (along y) is the key.
 */
export const THREE_SLOTS: readonly StickSlot[] = [
  { axis: 0, across: [0, -1] },
  { axis: 1, across: [-1, -2] },
  { axis: 2, across: [0, -1] },
];

/**
 * The slots of the six-stick burr: two sticks per axis, side by side (the standard six-piece
 * burr shape with sticks of length 6). Slots 2 and 3 stand along y; one of them is the key.
 */
export const SIX_SLOTS: readonly StickSlot[] = [
  { axis: 0, across: [-1, -2] }, // along x, at the back
  { axis: 0, across: [-1, 0] }, // along x, at the front
  { axis: 1, across: [-2, -1] }, // along y, on the left
  { axis: 1, across: [0, -1] }, // along y, on the right
  { axis: 2, across: [-1, -2] }, // along z, low
  { axis: 2, across: [-1, 0] }, // along z, high
];

/** Every cube of a full (un-notched) stick in a slot. */
export function fullStick(slot: StickSlot): Cell[] {
  const others = [0, 1, 2].filter((a) => a !== slot.axis);
  const out: Cell[] = [];
  for (let t = -HALF_LENGTH; t < HALF_LENGTH; t++) {
    for (let u = 0; u < 2; u++) {
      for (let v = 0; v < 2; v++) {
        const c: Cell = [0, 0, 0];
        c[slot.axis] = t;
        c[others[0]] = slot.across[0] + u;
        c[others[1]] = slot.across[1] + v;
        out.push(c);
      }
    }
  }
  return out;
}

/** Whether a set of cubes is face-connected. */
export function connected(cells: readonly Cell[]): boolean {
  if (cells.length === 0) return false;
  const have = new Set(cells.map(cellKey));
  const seen = new Set([cellKey(cells[0])]);
  const stack = [cells[0]];
  while (stack.length) {
    const c = stack.pop()!;
    for (const n of faceNeighbours(c)) {
      const k = cellKey(n);
      if (have.has(k) && !seen.has(k)) {
        seen.add(k);
        stack.push(n);
      }
    }
  }
  return seen.size === have.size;
}

/**
 * Random notches. Each stick first keeps one of its four lengthwise lines of cubes whole (its
 * spine, so it stays in one piece; spines of crossing sticks must not share a cube), then every
 * other cube that two or more full sticks share goes to one of them at random, or to none (a
 * hole) with probability `holeChance`; cubes of one stick alone stay. Null when no spines that
 * miss each other were drawn.
 */
export function notchSticks(rng: Rng, slots: readonly StickSlot[], holeChance: number): Cell[][] | null {
  const owners = new Map<string, number[]>();
  const fulls = slots.map(fullStick);
  fulls.forEach((cells, s) => {
    for (const c of cells) {
      const k = cellKey(c);
      const list = owners.get(k);
      if (list) list.push(s);
      else owners.set(k, [s]);
    }
  });
  // Spines: one lengthwise line per stick, drawn again (on the same stream) until no two cross.
  let taken: Map<string, number> | null = null;
  for (let t = 0; t < SPINE_TRIES && !taken; t++) taken = drawSpines(rng, slots);
  if (!taken) return null;
  const sticks: Cell[][] = slots.map(() => []);
  // Cubes in a fixed order (the first full stick's cubes first), so the draw is deterministic.
  const listed = new Set<string>();
  for (const cells of fulls) {
    for (const c of cells) {
      const k = cellKey(c);
      if (listed.has(k)) continue;
      listed.add(k);
      const own = owners.get(k)!;
      const spine = taken!.get(k);
      if (spine !== undefined) sticks[spine].push(c);
      else if (own.length === 1) sticks[own[0]].push(c);
      else if (rng.next() >= holeChance) sticks[rng.pick(own)].push(c);
    }
  }
  return sticks.every(connected) ? sticks : null;
}

/** Spine draws tried within one notching before it gives up. */
const SPINE_TRIES = 64;

/** One lengthwise line of cubes per stick (cube key → stick), or null when two of them share a cube. */
function drawSpines(rng: Rng, slots: readonly StickSlot[]): Map<string, number> | null {
  const taken = new Map<string, number>();
  for (let s = 0; s < slots.length; s++) {
    const slot = slots[s];
    const others = [0, 1, 2].filter((a) => a !== slot.axis);
    const u = rng.int(0, 1);
    const v = rng.int(0, 1);
    for (let t = -HALF_LENGTH; t < HALF_LENGTH; t++) {
      const c: Cell = [0, 0, 0];
      c[slot.axis] = t;
      c[others[0]] = slot.across[0] + u;
      c[others[1]] = slot.across[1] + v;
      const k = cellKey(c);
      const had = taken.get(k);
      if (had !== undefined && had !== s) return null;
      taken.set(k, s);
    }
  }
  return taken;
}

/** The mirror image of a burr's cells across the plane x = 0 (cube `i` → `−1 − i`): the same burr seen in a mirror, with the same level. */
export function mirrorX(sticks: readonly Cell[][]): Cell[][] {
  return sticks.map((cells) => cells.map((c) => [-1 - c[0], c[1], c[2]] as Cell));
}

/** The certificate: the full single-stick disassembly with the key clamped and the table under the burr. */
export function burrDisassembly(sticks: readonly Cell[][], key: number, maxStates = 20_000): Disassembly | null {
  return disassemble({ pieces: sticks.map((s) => s.slice()), fixed: [key], floorY: FLOOR_J, maxStates });
}

/**
 * Sticks (by index) that can leave the assembled burr with one straight slide: the pieces whose
 * way out is open from the start.
 */
export function directlyRemovable(sticks: readonly Cell[][], key: number): number[] {
  const out: number[] = [];
  for (let p = 0; p < sticks.length; p++) {
    if (p === key) continue;
    for (let dir = 0; dir < 6; dir++) {
      if (dir === 3) continue; // down: the table is in the way
      if (rayFree(sticks, p, dir)) {
        out.push(p);
        break;
      }
    }
  }
  return out;
}

/** Whether stick `p`, at its assembled place, can slide to infinity along direction `dir` (others assembled). */
function rayFree(sticks: readonly Cell[][], p: number, dir: number): boolean {
  const axis = dir >> 1;
  const sign = dir % 2 === 0 ? 1 : -1;
  const others = new Set<string>();
  sticks.forEach((cells, q) => {
    if (q !== p) for (const c of cells) others.add(cellKey(c));
  });
  for (const c of sticks[p]) {
    for (let s = 1; s <= 4 * HALF_LENGTH; s++) {
      const n: Cell = [c[0], c[1], c[2]];
      n[axis] += sign * s;
      if (others.has(cellKey(n))) return false;
    }
  }
  return true;
}
