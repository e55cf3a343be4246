/**
 * The four target families of A6 and how each is cut in two: rectangular loops (closed rings
 * of cubes along the edges of a box), toy-like shapes (small figures from templates), block
 * cleavage (a cuboid split along a stepped surface) and joinery (a rectangular bar split by a
 * woodworking joint). Each generator returns the target and a splitter that draws a cut of
 * that target in the family's own style, so distractors can start from other cuts too.
 *
 * Cells are integer `[x, y, z]` (y up). Shapes come out normalised (smallest coordinate 0).
 */
import { isConnected, normalize, type Cell } from '../../../solvers/polycube.ts';
import type { Rng } from '../../../core/rng.ts';
import { cellKey, faceNeighbours } from '../../kits/polycube-pieces/cells.ts';

/** The target families, named as the polycube seed names them. */
export type TargetKind = 'loop' | 'toy' | 'cleavage' | 'joinery';

/** Every target family, in a fixed order. */
export const TARGET_KINDS: readonly TargetKind[] = ['loop', 'toy', 'cleavage', 'joinery'];

/** A target and a way to cut it into two connected parts. */
export interface Target {
  kind: TargetKind;
  /** A few words on the shape, e.g. `rectangular loop around a 4×3 face`. */
  name: string;
  cells: Cell[];
  /** A cut in the family's style: two connected, non-empty parts, or null when this draw failed. */
  split(rng: Rng): [Cell[], Cell[]] | null;
}

/** Cells without repeats, in first-seen order. */
function unique(cells: readonly Cell[]): Cell[] {
  const seen = new Set<string>();
  const out: Cell[] = [];
  for (const c of cells) {
    if (seen.has(cellKey(c))) continue;
    seen.add(cellKey(c));
    out.push([c[0], c[1], c[2]]);
  }
  return out;
}

/** Whether a cut is usable: both parts connected and neither smaller than a quarter of the whole. */
function goodCut(a: readonly Cell[], b: readonly Cell[]): boolean {
  const n = a.length + b.length;
  const least = Math.max(2, Math.ceil(n / 4));
  return a.length >= least && b.length >= least && isConnected(a) && isConnected(b);
}

/** Splits `cells` by a predicate into [in, out], or null when the cut is not usable. */
function cutBy(cells: readonly Cell[], inFirst: (c: Cell) => boolean): [Cell[], Cell[]] | null {
  const a = cells.filter(inFirst);
  const b = cells.filter((c) => !inFirst(c));
  return goodCut(a, b) ? [a, b] : null;
}

/**
 * A random cut of any shape: grow a connected region from a random cell by random frontier
 * cells to a size between 35 % and 65 % of the whole, and keep it when the rest is connected.
 */
export function randomCut(rng: Rng, cells: readonly Cell[], tries = 40): [Cell[], Cell[]] | null {
  const all = new Map(cells.map((c) => [cellKey(c), c]));
  const n = cells.length;
  for (let t = 0; t < tries; t++) {
    const size = rng.int(Math.ceil(n * 0.35), Math.floor(n * 0.65));
    const start = rng.pick(cells);
    const region = new Map([[cellKey(start), start]]);
    while (region.size < size) {
      const front = new Map<string, Cell>();
      for (const c of region.values()) for (const m of faceNeighbours(c)) if (all.has(cellKey(m)) && !region.has(cellKey(m))) front.set(cellKey(m), all.get(cellKey(m))!);
      if (!front.size) break;
      const k = rng.pick([...front.keys()].sort());
      region.set(k, front.get(k)!);
    }
    const cut = cutBy(cells, (c) => region.has(cellKey(c)));
    if (cut) return cut;
  }
  return null;
}

// ------------------------------------------------------------------ rectangular loops

/** Simple cycles of the cube graph (corners as 3-bit numbers), each once, as corner lists. */
const CUBE_CYCLES: readonly number[][] = (() => {
  const out: number[][] = [];
  const seen = new Set<string>();
  const walk = (path: number[]): void => {
    const last = path[path.length - 1];
    for (let bit = 0; bit < 3; bit++) {
      const next = last ^ (1 << bit);
      if (next === path[0] && path.length >= 4) {
        // A cycle is the same whichever corner and direction it is read from.
        const k = [...path].sort((a, b) => a - b).join(',') + '|' + canonicalCycle(path).join(',');
        if (!seen.has(k)) {
          seen.add(k);
          out.push(path.slice());
        }
      } else if (!path.includes(next) && next > path[0]) {
        path.push(next);
        walk(path);
        path.pop();
      }
    }
  };
  for (let s = 0; s < 8; s++) walk([s]);
  return out;
})();

function canonicalCycle(path: readonly number[]): number[] {
  const n = path.length;
  let best: number[] | null = null;
  for (let s = 0; s < n; s++) {
    for (const dir of [1, -1]) {
      const seq = Array.from({ length: n }, (_, i) => path[(s + dir * i + n * 2) % n]);
      if (!best || seq.join(',') < best.join(',')) best = seq;
    }
  }
  return best!;
}

/**
 * A rectangular loop: a closed ring of cubes running along edges of a box of `dims` cells,
 * following a cycle of the box's corners (a face gives a flat rectangle; six or eight corners
 * give a bent or skew loop). Cells come in order round the ring.
 */
function loopRing(corners: readonly number[], dims: readonly number[]): Cell[] {
  const at = (corner: number): Cell => [0, 1, 2].map((a) => (corner & (1 << a) ? dims[a] - 1 : 0)) as Cell;
  const ring: Cell[] = [];
  for (let i = 0; i < corners.length; i++) {
    const from = at(corners[i]);
    const to = at(corners[(i + 1) % corners.length]);
    const axis = [0, 1, 2].find((a) => from[a] !== to[a])!;
    const step = Math.sign(to[axis] - from[axis]);
    for (let v = from[axis]; v !== to[axis]; v += step) {
      const c: Cell = [from[0], from[1], from[2]];
      c[axis] = v;
      ring.push(c);
    }
  }
  return unique(ring);
}

function loopTarget(rng: Rng, size: [number, number]): Target | null {
  const cycle = rng.pick(CUBE_CYCLES);
  // The axes the cycle moves along; a flat (four-corner) loop keeps one axis fixed.
  const moving = [0, 1, 2].filter((a) => cycle.some((c) => (c ^ cycle[0]) & (1 << a)));
  const dims = [1, 1, 1];
  for (const a of moving) dims[a] = rng.int(2, 5);
  // A loop needs a hole: at least two of its axes three cubes long.
  if (moving.filter((a) => dims[a] >= 3).length < 2) return null;
  const ring = loopRing(cycle, dims);
  // Flat loops may be two cubes thick across their plane.
  const flatAxis = [0, 1, 2].find((a) => !moving.includes(a));
  const thick = flatAxis !== undefined && rng.next() < 0.35 ? 2 : 1;
  const layers: Cell[][] = [];
  for (let t = 0; t < thick; t++) {
    layers.push(ring.map((c) => {
      const d: Cell = [c[0], c[1], c[2]];
      if (flatAxis !== undefined) d[flatAxis] = t;
      return d;
    }));
  }
  const cells = layers.flat();
  if (cells.length < size[0] || cells.length > size[1]) return null;
  const shape = loopShape(cycle, moving.length);
  const around = moving.map((a) => dims[a]).join('×');
  const n = ring.length;
  return {
    kind: 'loop',
    name: `${shape} rectangular loop around a ${around} box${thick === 2 ? ', two cubes thick' : ''}`,
    cells: normalize(cells),
    split(r) {
      // Two cuts round the ring; in a thick loop each layer may be cut one cube further on.
      const len = r.int(Math.max(2, Math.ceil(n * 0.35)), Math.floor(n * 0.65));
      const start = r.int(0, n - 1);
      const shifts = layers.map((_, t) => (t === 0 ? [0, 0] : [r.int(-1, 1), r.int(-1, 1)]));
      const first = new Set<string>();
      layers.forEach((layer, t) => {
        const [s0, s1] = shifts[t];
        for (let i = s0; i < len + s1; i++) first.add(cellKey(layer[(((start + i) % n) + n) % n]));
      });
      const cut = cutBy(cells, (c) => first.has(cellKey(c)));
      return cut && [normalizeWith(cut[0], cells), normalizeWith(cut[1], cells)];
    },
  };
}

/**
 * What a cycle of the box's corners looks like: a face is a flat rectangle; six corners leaving
 * out two neighbouring ones are a rectangle bent over an edge; six leaving out two opposite
 * ones are a skew hexagon; all eight make a zig-zag loop.
 */
function loopShape(cycle: readonly number[], axes: number): string {
  if (axes === 2) return 'flat';
  if (cycle.length === 8) return 'zig-zag';
  const missing = [0, 1, 2, 3, 4, 5, 6, 7].filter((c) => !cycle.includes(c));
  const differ = missing[0] ^ missing[1];
  return differ === 7 ? 'skew hexagonal' : 'bent';
}

/** Translates a part by the same shift that normalises its whole. */
function normalizeWith(part: readonly Cell[], whole: readonly Cell[]): Cell[] {
  const lo = [0, 1, 2].map((a) => Math.min(...whole.map((c) => c[a])));
  return part.map((c) => [c[0] - lo[0], c[1] - lo[1], c[2] - lo[2]] as Cell);
}

// ------------------------------------------------------------------ toy-like shapes

/** A toy template: its name and a random instance of it (before normalisation). */
interface ToyTemplate {
  name: string;
  build(rng: Rng): Cell[];
}

function row(from: Cell, axis: number, length: number): Cell[] {
  return Array.from({ length }, (_, i) => {
    const c: Cell = [from[0], from[1], from[2]];
    c[axis] += i;
    return c;
  });
}

const TOYS: readonly ToyTemplate[] = [
  {
    name: 'aeroplane',
    build(rng) {
      const length = rng.int(4, 5);
      const span = rng.int(1, 2);
      const wingAt = rng.int(1, length - 2);
      const cells = row([0, 0, 0], 0, length);
      for (let s = 1; s <= span; s++) cells.push([wingAt, 0, s], [wingAt, 0, -s]);
      cells.push(...row([0, 1, 0], 1, rng.int(1, 2)));
      if (rng.next() < 0.5) cells.push([0, 0, 1], [0, 0, -1]);
      return cells;
    },
  },
  {
    name: 'robot figure',
    build(rng) {
      const legs = rng.int(1, 2);
      const torso = rng.int(1, 2);
      const cells: Cell[] = [...row([0, 0, 0], 1, legs), ...row([2, 0, 0], 1, legs), ...row([0, legs, 0], 0, 3)];
      cells.push(...row([1, legs + 1, 0], 1, torso));
      const shoulders = legs + torso + 1;
      cells.push(...row([0, shoulders, 0], 0, 3), [1, shoulders + 1, 0]);
      // Arms: forward, down, up or missing on each side.
      for (const x of [0, 2]) {
        const arm = rng.int(0, 3);
        if (arm === 1) cells.push([x, shoulders, 1]);
        else if (arm === 2) cells.push([x === 0 ? -1 : 3, shoulders, 0], [x === 0 ? -1 : 3, shoulders - 1, 0]);
        else if (arm === 3) cells.push([x, shoulders + 1, 0]);
      }
      return cells;
    },
  },
  {
    name: 'car',
    build(rng) {
      const length = rng.int(3, 4);
      const cells: Cell[] = [];
      for (let x = 0; x < length; x++) for (let z = 0; z < 2; z++) cells.push([x, 1, z]);
      for (const x of [0, length - 1]) for (const z of [0, 1]) if (rng.next() < 0.8) cells.push([x, 0, z]);
      const cabin = rng.int(1, 2);
      const from = rng.int(0, length - cabin);
      for (let x = from; x < from + cabin; x++) cells.push([x, 2, rng.next() < 0.7 ? 0 : 1]);
      return cells;
    },
  },
  {
    name: 'chair',
    build(rng) {
      const cells: Cell[] = [];
      for (let x = 0; x < 2; x++) for (let z = 0; z < 2; z++) cells.push([x, 1, z]);
      for (const [x, z] of [[0, 0], [1, 0], [0, 1], [1, 1]]) if (rng.next() < 0.75) cells.push([x, 0, z]);
      const back = rng.int(1, 2);
      for (let y = 2; y < 2 + back; y++) for (let x = 0; x < 2; x++) if (x === 0 || rng.next() < 0.7) cells.push([x, y, 0]);
      if (rng.next() < 0.4) cells.push([-1, 1, 0]);
      return cells;
    },
  },
  {
    name: 'table',
    build(rng) {
      const w = rng.int(2, 3);
      const d = rng.int(2, 3);
      const cells: Cell[] = [];
      for (let x = 0; x < w; x++) for (let z = 0; z < d; z++) cells.push([x, 1, z]);
      for (const [x, z] of [[0, 0], [w - 1, 0], [0, d - 1], [w - 1, d - 1]]) if (rng.next() < 0.8) cells.push([x, 0, z]);
      if (rng.next() < 0.4) cells.push([0, 2, 0]);
      return cells;
    },
  },
  {
    name: 'dog',
    build(rng) {
      const body = rng.int(2, 4);
      const cells: Cell[] = row([0, 1, 0], 0, body);
      cells.push([0, 0, 0], [body - 1, 0, 0]);
      if (rng.next() < 0.5) cells.push([0, 0, 1], [body - 1, 0, 1], [0, 1, 1], [body - 1, 1, 1]);
      cells.push([body, 1, 0], [body, 2, 0]);
      if (rng.next() < 0.6) cells.push([body + 1, 2, 0]);
      if (rng.next() < 0.7) cells.push([-1, 2, 0]);
      return cells;
    },
  },
  {
    name: 'castle tower',
    build(rng) {
      const h = rng.int(1, 3);
      const cells: Cell[] = [];
      for (let x = 0; x < 2; x++) for (let z = 0; z < 2; z++) for (let y = 0; y < h; y++) cells.push([x, y, z]);
      for (const [x, z] of [[0, 0], [1, 1], [1, 0], [0, 1]]) if (rng.next() < 0.6) cells.push([x, h, z]);
      if (rng.next() < 0.5) cells.push([2, 0, 0]);
      return cells;
    },
  },
  {
    name: 'rocket',
    build(rng) {
      const h = rng.int(3, 5);
      const cells: Cell[] = row([0, 0, 0], 1, h);
      const fins: Cell[] = [[1, 0, 0], [-1, 0, 0], [0, 0, 1], [0, 0, -1]];
      for (const f of fins) if (rng.next() < 0.7) cells.push(f, ...(rng.next() < 0.4 ? [[f[0], 1, f[2]] as Cell] : []));
      return cells;
    },
  },
];

function toyTarget(rng: Rng, size: [number, number]): Target | null {
  const template = rng.pick(TOYS);
  const cells = normalize(unique(template.build(rng)));
  if (cells.length < size[0] || cells.length > size[1] || !isConnected(cells)) return null;
  return { kind: 'toy', name: `toy-like ${template.name}`, cells, split: (r) => randomCut(r, cells) };
}

// ------------------------------------------------------------------ block cleavage

/** Every cell of an a×b×c block. */
function block(dims: readonly number[]): Cell[] {
  const out: Cell[] = [];
  for (let x = 0; x < dims[0]; x++) for (let y = 0; y < dims[1]; y++) for (let z = 0; z < dims[2]; z++) out.push([x, y, z]);
  return out;
}

/** Random block dimensions (each 1–`most`, at least `least` cubes on two axes) with a volume in `size`. */
function blockDims(rng: Rng, size: [number, number], least: number, most: number): number[] | null {
  for (let t = 0; t < 30; t++) {
    const d = [rng.int(1, most), rng.int(1, most), rng.int(1, most)];
    const v = d[0] * d[1] * d[2];
    if (v >= size[0] && v <= size[1] && d.filter((x) => x >= least).length >= 2) return d;
  }
  return null;
}

function cleavageTarget(rng: Rng, size: [number, number]): Target | null {
  const dims = blockDims(rng, size, 2, 4);
  if (!dims || dims.filter((d) => d >= 2).length < 3) return null;
  const cells = block(dims);
  return {
    kind: 'cleavage',
    name: `${dims.join('×')} block cleaved along a stepped surface`,
    cells,
    split(r) {
      // A height map over the block's floor: each column is cut at a level 0…height, and
      // neighbouring columns differ by at most one, like a stepped fracture.
      const [a, h, c] = dims;
      for (let t = 0; t < 20; t++) {
        const level: number[][] = [];
        for (let x = 0; x < a; x++) {
          level.push([]);
          for (let z = 0; z < c; z++) {
            const near = [x > 0 ? level[x - 1][z] : null, z > 0 ? level[x][z - 1] : null].filter((v): v is number => v !== null);
            const lo = Math.max(0, ...near.map((v) => v - 1));
            const hi = Math.min(h, ...near.map((v) => v + 1));
            level[x].push(near.length ? r.int(lo, hi) : r.int(1, h - 1));
          }
        }
        const flat = level.flat();
        if (Math.min(...flat) === Math.max(...flat)) continue;
        const cut = cutBy(cells, (p) => p[1] < level[p[0]][p[2]]);
        if (cut) return cut;
      }
      return null;
    },
  };
}

// ------------------------------------------------------------------ joinery

/** The joints a bar may be cut with. */
type Joint = 'half-lap' | 'tenon' | 'bridle' | 'finger' | 'hooked scarf';

function jointTarget(rng: Rng, size: [number, number]): Target | null {
  // A bar along x: length 3–5, cross-section height h × width w (each 1–3, not both 1).
  const h = rng.int(1, 3);
  const w = rng.int(1, 3);
  if (h * w < 2) return null;
  const length = rng.int(3, 5);
  const n = length * h * w;
  if (n < size[0] || n > size[1]) return null;
  const fibres: Array<[number, number]> = [];
  for (let y = 0; y < h; y++) for (let z = 0; z < w; z++) fibres.push([y, z]);
  const joints: Joint[] = ['half-lap', 'finger'];
  if (h * w >= 3) joints.push('tenon', 'bridle');
  if (w === 3 && length >= 4) joints.push('hooked scarf');
  const joint = rng.pick(joints);
  const cells = block([length, h, w]);
  return {
    kind: 'joinery',
    name: `${length}×${h}×${w} bar joined with a ${joint} joint`,
    cells,
    split(r) {
      for (let t = 0; t < 20; t++) {
        const cut = cutJoint(r, joint, length, fibres, w);
        if (!cut) continue;
        const parts = cutBy(cells, (c) => c[0] < cut(c[1], c[2], c[0]));
        if (parts) return parts;
      }
      return null;
    },
  };
}

/**
 * Where the first part of the bar ends along x for each fibre `(y, z)`: cells with
 * `x < cut(y, z, x)` belong to it. Most joints cut each fibre at one place; the hooked scarf
 * (a flat dovetail-like hook) also depends on x.
 */
function cutJoint(rng: Rng, joint: Joint, length: number, fibres: Array<[number, number]>, w: number): ((y: number, z: number, x: number) => number) | null {
  const m = rng.int(1, length - 2);
  const depth = rng.int(1, Math.max(1, Math.min(2, length - 1 - m)));
  switch (joint) {
    case 'half-lap': {
      // One half of the cross-section (split across y or z) runs on past the other.
      const acrossY = rng.next() < 0.5;
      const half = (y: number, z: number): boolean => (acrossY ? y === 0 : z === 0);
      return (y, z) => (half(y, z) ? m + depth : m);
    }
    case 'finger': {
      const phase = rng.int(0, 1);
      return (y, z) => ((y + z + phase) % 2 ? m + 1 : m);
    }
    case 'tenon':
    case 'bridle': {
      // A block of fibres (not all) goes deeper (tenon) or shallower (bridle: the other part's tongue).
      const chosen = rng.shuffle(fibres).slice(0, rng.int(1, Math.max(1, Math.floor(fibres.length / 2))));
      const inside = new Set(chosen.map(([y, z]) => `${y},${z}`));
      const sign = joint === 'tenon' ? 1 : -1;
      return (y, z) => (inside.has(`${y},${z}`) ? m + sign * depth : m);
    }
    case 'hooked scarf': {
      // Across the width 3: a neck at one edge, then a head two wide, like half a dovetail.
      if (w !== 3 || m + 2 > length - 1) return null;
      const edge = rng.pick([0, 2]);
      const inner = 1;
      return (_y, z, x) => {
        if (x < m) return Infinity;
        if (x === m) return z === edge ? Infinity : -Infinity;
        if (x === m + 1) return z === edge || z === inner ? Infinity : -Infinity;
        return -Infinity;
      };
    }
  }
}

// ------------------------------------------------------------------ dispatch

const BUILDERS: Record<TargetKind, (rng: Rng, size: [number, number]) => Target | null> = {
  loop: loopTarget,
  toy: toyTarget,
  cleavage: cleavageTarget,
  joinery: jointTarget,
};

/** Random targets tried per call before {@link drawTarget} gives up. */
const TARGET_TRIES = 60;

/** A target of the given family with between `size[0]` and `size[1]` cubes, or null when every try missed. */
export function drawTarget(rng: Rng, kind: TargetKind, size: [number, number]): Target | null {
  for (let t = 0; t < TARGET_TRIES; t++) {
    const target = BUILDERS[kind](rng, size);
    if (target) return target;
  }
  return null;
}
