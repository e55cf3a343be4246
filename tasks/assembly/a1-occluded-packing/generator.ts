/**
 * Draws A1 scenes: a random partition of the box into polycube pieces, spare pieces that fit
 * in no filling, table orientations and slots (some behind the wall), re-drawn
 * deterministically until the tier's requirements hold (unique filling, buildable by lowering,
 * order depth, hidden pieces really hidden from the first view).
 */
import { SpaceActError } from '../../../core/errors.ts';
import type { Vec3 } from '../../../sim/types.ts';
import { redrawRng } from '../../../solvers/redraw.ts';
import { canonical, shapeKey, type Cell } from '../../../solvers/polycube.ts';
import type { Rng } from '../../../core/rng.ts';
import type { Tier } from '../../types.ts';
import { cellKey, faceNeighbours } from '../../kits/polycube-pieces/cells.ts';
import { CELL, pieceMid, restingOriginHeight } from '../../kits/polycube-pieces/pieces.ts';
import type { TablePiece } from '../../kits/polycube-pieces/placement.ts';
import { tableOrientation } from '../../kits/polycube-pieces/statics.ts';
import { boxCells, type BoxDims } from './geometry.ts';
import { HIDDEN_SLOTS, HIDE_WALL, INITIAL_CAMERA, VISIBLE_SLOTS } from './layout.ts';
import { certify, findPlan, type Certificate, type Plan } from './solver.ts';
import { round9 } from '../../../core/determinism.ts';

/** One piece as an instance stores it. */
export interface A1Piece extends TablePiece {
  /** Its colour name, which is also the name the agent uses. */
  name: string;
  /** Lies behind the wall, out of sight from the first view. */
  hidden: boolean;
}

/** Parameters an A1 world is built from. */
export interface A1Scene {
  box: BoxDims;
  pieces: A1Piece[];
  /** Whether some pieces are spares (the rules say so). */
  spares: boolean;
}

/** What each tier asks of a draw. */
export interface TierSpec {
  box: BoxDims;
  pieces: [number, number];
  sizes: [number, number];
  spares: number;
  /** At tiers that have spares: make one spare the mirror image of a needed piece, if one is chiral. */
  mirrorSpare: boolean;
  hidden: number;
  /** Smallest longest chain of forced "goes in before" relations. */
  minDepth: number;
}

/** The tiers' parameters. */
export const TIER_SPECS: Record<Tier, TierSpec> = {
  L1: { box: { cols: 2, rows: 2, layers: 2 }, pieces: [2, 2], sizes: [3, 5], spares: 0, mirrorSpare: false, hidden: 1, minDepth: 1 },
  L3: { box: { cols: 3, rows: 2, layers: 2 }, pieces: [3, 3], sizes: [3, 5], spares: 1, mirrorSpare: false, hidden: 1, minDepth: 2 },
  L5: { box: { cols: 3, rows: 3, layers: 2 }, pieces: [4, 4], sizes: [4, 5], spares: 2, mirrorSpare: true, hidden: 2, minDepth: 3 },
  L7: { box: { cols: 3, rows: 3, layers: 2 }, pieces: [4, 4], sizes: [4, 5], spares: 2, mirrorSpare: true, hidden: 4, minDepth: 3 },
};

/** Piece colours; the names are what the agent calls the pieces. */
export const PIECE_COLORS: ReadonlyArray<{ name: string; color: string }> = [
  { name: 'red', color: '#d1392b' },
  { name: 'orange', color: '#ef8a17' },
  { name: 'yellow', color: '#f2cc1d' },
  { name: 'green', color: '#2e9e4f' },
  { name: 'blue', color: '#2d6cd3' },
  { name: 'purple', color: '#7b4fc4' },
  { name: 'cyan', color: '#22b3c4' },
  { name: 'brown', color: '#8a5a2b' },
];

/** Most draws tried before giving up (never reached for the released seeds). */
const MAX_ATTEMPTS = 400;

/**
 * A random partition of the box into connected pieces. Each piece starts at a free cell with
 * the fewest free neighbours (so no cell is left stranded) and grows by random free
 * neighbours; null when the draw leaves a piece outside the size range.
 */
export function partition(rng: Rng, spec: TierSpec): Cell[][] | null {
  const cells = boxCells(spec.box);
  const free = new Set(cells.map(cellKey));
  const pieces: Cell[][] = [];
  const [minS, maxS] = spec.sizes;
  while (free.size) {
    const freeCells = cells.filter((c) => free.has(cellKey(c)));
    const degree = (c: Cell): number => faceNeighbours(c).filter((n) => free.has(cellKey(n))).length;
    const minDeg = Math.min(...freeCells.map(degree));
    const start = rng.pick(freeCells.filter((c) => degree(c) === minDeg));
    let size = rng.int(minS, maxS);
    if (free.size - size < minS) size = free.size;
    if (size > maxS) return null;
    const piece: Cell[] = [start];
    free.delete(cellKey(start));
    while (piece.length < size) {
      const front = new Map<string, Cell>();
      for (const c of piece) for (const n of faceNeighbours(c)) if (free.has(cellKey(n))) front.set(cellKey(n), n);
      if (!front.size) break;
      const key = rng.pick([...front.keys()].sort());
      free.delete(key);
      piece.push(front.get(key)!);
    }
    if (piece.length < minS) return null;
    pieces.push(piece);
  }
  if (pieces.length < spec.pieces[0] || pieces.length > spec.pieces[1]) return null;
  return pieces;
}

function extentOk(cells: readonly Cell[]): boolean {
  for (let a = 0; a < 3; a++) {
    const vs = cells.map((c) => c[a]);
    if (Math.max(...vs) - Math.min(...vs) > 2) return false;
  }
  return true;
}

/** A random polycube of `size` cubes inside a 3×3×3 block. */
function randomPolycube(rng: Rng, size: number): Cell[] {
  for (;;) {
    const piece: Cell[] = [[0, 0, 0]];
    const have = new Set([cellKey([0, 0, 0])]);
    while (piece.length < size) {
      const front = new Map<string, Cell>();
      for (const c of piece) for (const n of faceNeighbours(c)) if (!have.has(cellKey(n))) front.set(cellKey(n), n);
      const key = rng.pick([...front.keys()].sort());
      have.add(key);
      piece.push(front.get(key)!);
    }
    if (extentOk(piece)) return piece;
  }
}

function mirrorX(cells: readonly Cell[]): Cell[] {
  return cells.map((c) => [-c[0] + 0, c[1], c[2]] as Cell);
}

function canonicalKey(cells: readonly Cell[]): string {
  return shapeKey(canonical(cells));
}

/** Random spare candidates tried for one partition before the partition is given up. */
const SPARE_TRIES = 12;

/**
 * Spare pieces, added one at a time and each kept only if the filling stays unique (so no
 * spare fits into any filling): with `mirrorSpare` first the mirror image of a chiral needed
 * piece when one keeps the filling unique, then random polycubes of sizes that needed pieces
 * have (so counting cubes does not single a spare out), never congruent to another piece.
 * Null when the tier's number of spares is not reached within `SPARE_TRIES` random draws.
 */
function drawSpares(rng: Rng, needed: readonly Cell[][], spec: TierSpec): Cell[][] | null {
  const taken = new Set(needed.map(canonicalKey));
  const out: Cell[][] = [];
  const keeps = (candidate: Cell[]): boolean => certify([...needed, ...out, candidate], spec.box).unique;
  if (spec.spares > 0 && spec.mirrorSpare) {
    for (const p of rng.shuffle(needed)) {
      const m = mirrorX(p);
      if (taken.has(canonicalKey(m)) || !keeps(m)) continue;
      out.push(m);
      taken.add(canonicalKey(m));
      break;
    }
  }
  const sizes = needed.map((p) => p.length);
  for (let t = 0; out.length < spec.spares && t < SPARE_TRIES; t++) {
    const p = randomPolycube(rng, rng.pick(sizes));
    const k = canonicalKey(p);
    if (taken.has(k) || !keeps(p)) continue;
    taken.add(k);
    out.push(p);
  }
  return out.length === spec.spares ? out : null;
}

/** The eye point of a camera spec. */
function eyeOf(cam = INITIAL_CAMERA): Vec3 {
  const az = (cam.azimuth * Math.PI) / 180;
  const el = (cam.elevation * Math.PI) / 180;
  return [
    cam.target[0] + cam.distance * Math.cos(el) * Math.sin(az),
    cam.target[1] + cam.distance * Math.sin(el),
    cam.target[2] + cam.distance * Math.cos(el) * Math.cos(az),
  ];
}

/** Whether the segment a→b passes through the box [min, max]. */
function segmentHitsBox(a: Vec3, b: Vec3, min: Vec3, max: Vec3): boolean {
  let t0 = 0;
  let t1 = 1;
  for (let i = 0; i < 3; i++) {
    const d = b[i] - a[i];
    if (Math.abs(d) < 1e-12) {
      if (a[i] < min[i] || a[i] > max[i]) return false;
      continue;
    }
    let u = (min[i] - a[i]) / d;
    let v = (max[i] - a[i]) / d;
    if (u > v) [u, v] = [v, u];
    t0 = Math.max(t0, u);
    t1 = Math.min(t1, v);
    if (t0 > t1) return false;
  }
  return true;
}

/**
 * Whether a piece is hidden from the first view: the sight line to every corner of its bounding
 * box passes through the wall (shrunk by 3 mm for margin). The wall is convex, so the whole box
 * is then hidden.
 */
export function hiddenFromFirstView(cells: readonly Cell[], position: Vec3): boolean {
  const eye = eyeOf();
  const mid = pieceMid(cells);
  const lo: Vec3 = [0, 0, 0];
  const hi: Vec3 = [0, 0, 0];
  for (let a = 0; a < 3; a++) {
    const vs = cells.map((c) => c[a]);
    lo[a] = position[a] + (Math.min(...vs) - mid[a]) * CELL - CELL / 2;
    hi[a] = position[a] + (Math.max(...vs) - mid[a]) * CELL + CELL / 2;
  }
  const m = 0.003;
  const wallMin: Vec3 = [-HIDE_WALL.halfLength + m, m, HIDE_WALL.zFront - HIDE_WALL.thickness + m];
  const wallMax: Vec3 = [HIDE_WALL.halfLength - m, HIDE_WALL.height - m, HIDE_WALL.zFront - m];
  for (let c = 0; c < 8; c++) {
    const p: Vec3 = [c & 1 ? hi[0] : lo[0], c & 2 ? hi[1] : lo[1], c & 4 ? hi[2] : lo[2]];
    if (!segmentHitsBox(eye, p, wallMin, wallMax)) return false;
  }
  return true;
}

/** A drawn scene with the solver's findings about it. */
export interface Draw {
  scene: A1Scene;
  certificate: Certificate;
  plan: Plan;
  attempt: number;
}

/**
 * One draw: a partition whose filling is unique and deep enough, then spares that keep it
 * unique, then table orientations, colours and slots. A string says why the draw failed.
 */
function drawOnce(rng: Rng, spec: TierSpec): A1Scene | string {
  const needed = partition(rng, spec);
  if (!needed) return 'partition outside the size range';
  const alone = certify(needed, spec.box);
  if (!alone.unique) return `not unique without spares (${alone.classes} packings up to symmetry)`;
  const plan = findPlan(needed, spec.box, alone.fillingSubsets);
  if (!plan) return 'no packing can be built by lowering pieces straight down';
  if (plan.depth < spec.minDepth) return `order depth ${plan.depth} < ${spec.minDepth}`;
  const spares = drawSpares(rng, needed, spec);
  if (!spares) return 'no spare set keeps the filling unique';
  const shapes = rng.shuffle([...needed, ...spares]);
  const colors = rng.shuffle(PIECE_COLORS).slice(0, shapes.length);
  const hiddenIdx = new Set(rng.shuffle(shapes.map((_, i) => i)).slice(0, spec.hidden));
  const hiddenSlots = rng.shuffle(HIDDEN_SLOTS);
  const visibleSlots = rng.shuffle(VISIBLE_SLOTS);
  const oriented = shapes.map((shape) => tableOrientation(rng, shape));
  if (oriented.some((o) => o === null)) return 'a piece has no orientation that stands on the table';
  const pieces: A1Piece[] = oriented.map((o, i) => {
    const cells = o!;
    const hidden = hiddenIdx.has(i);
    const [x, z] = hidden ? hiddenSlots.pop()! : visibleSlots.pop()!;
    return {
      name: colors[i].name,
      color: colors[i].color,
      cells,
      position: [round9(x), restingOriginHeight(cells), round9(z)],
      hidden,
    };
  });
  return { box: { ...spec.box }, pieces, spares: spec.spares > 0 };
}

/**
 * Draws the scene of (seed, tier): attempt 0, 1, … from `redrawRng`, keeping the first that
 * meets the tier: a unique filling (certified with the polycube toolkit over every subset of
 * the pieces), buildable by lowering with an order of at least the tier's depth, at least one
 * needed piece hidden, and every hidden piece out of sight from the first view.
 */
export function drawScene(seed: number, tier: Tier): Draw {
  const spec = TIER_SPECS[tier];
  const reasons: string[] = [];
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const rng = redrawRng('A1', tier, seed, attempt);
    const scene = drawOnce(rng, spec);
    if (typeof scene === 'string') {
      reasons.push(scene);
      continue;
    }
    const problem = sceneProblem(scene, tier);
    if (typeof problem === 'string') {
      reasons.push(problem);
      continue;
    }
    return { scene, ...problem, attempt };
  }
  throw new SpaceActError('invalid-state', `A1 ${tier} seed ${seed}: no draw met the tier in ${MAX_ATTEMPTS} attempts (last: ${reasons[reasons.length - 1]})`, {
    rejections: reasons.slice(-10),
  });
}

/** Why a scene does not meet its tier, or its certificate and plan when it does. */
export function sceneProblem(scene: A1Scene, tier: Tier): string | { certificate: Certificate; plan: Plan } {
  const spec = TIER_SPECS[tier];
  const shapes = scene.pieces.map((p) => p.cells);
  const certificate = certify(shapes, scene.box);
  if (!certificate.unique) {
    return `not unique (${certificate.fillingSubsets.length} filling subsets, ${certificate.classes} packings up to symmetry)`;
  }
  const plan = findPlan(shapes, scene.box, certificate.fillingSubsets);
  if (!plan) return 'no packing can be built by lowering pieces straight down';
  if (plan.depth < spec.minDepth) return `order depth ${plan.depth} < ${spec.minDepth}`;
  if (!scene.pieces.some((p, i) => p.hidden && !plan.spares.includes(i))) return 'no needed piece is hidden';
  const seen = scene.pieces.find((p) => p.hidden && !hiddenFromFirstView(p.cells, p.position));
  if (seen) return `${seen.name} is meant to be hidden but is in sight from the first view`;
  return { certificate, plan };
}
