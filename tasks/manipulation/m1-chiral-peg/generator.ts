/**
 * The M1 generator: a chiral pentomino peg, a plate of holes (the match, its mirror image and
 * one-square variants), and a start pose, all drawn from the instance's seeded stream.
 */
import { qangle, qmul, qrotate } from '../../../sim/math.ts';
import type { Quat, Vec3 } from '../../../sim/types.ts';
import type { Rng } from '../../../core/rng.ts';
import type { Tier } from '../../types.ts';
import { CHIRAL_PENTOMINOES, isChiral, mirror, normalise, oneCellMoves, oneSidedKey, rotate90, type Cell2 } from './polyomino.ts';
import { GRID, PLATE, RAIL_WIDTH, goalQuat, holeRadius, tidyQuat, yaw, type HoleKind, type M1Hole, type M1Scene } from './scene.ts';
import { round9 } from '../../../core/determinism.ts';

/** Per-tier settings. */
export interface TierSettings {
  holes: number;
  clearance: number;
  /** Hole and start turns are multiples of this (degrees). */
  angleStep: number;
  /** The peg starts tipped over (its shaft not pointing down). */
  tipped: boolean;
  /** The working frame is turned about the vertical (`+rot`). */
  rotatedFrame: boolean;
}

/** What each tier draws. */
export const TIER_SETTINGS: Record<Tier, TierSettings> = {
  L1: { holes: 3, clearance: 0.004, angleStep: 90, tipped: false, rotatedFrame: false },
  L3: { holes: 4, clearance: 0.002, angleStep: 15, tipped: false, rotatedFrame: false },
  L5: { holes: 5, clearance: 0.0008, angleStep: 15, tipped: true, rotatedFrame: false },
  L7: { holes: 5, clearance: 0.0008, angleStep: 15, tipped: true, rotatedFrame: true },
};

/** Slot centres on the plate (x, z), metres: three columns by two rows. */
const SLOTS: ReadonlyArray<[number, number]> = [
  [-0.13, -0.065], [0, -0.065], [0.13, -0.065],
  [-0.13, 0.065], [0, 0.065], [0.13, 0.065],
];
/** A hole centre may be moved this many grid steps from its slot centre, each way. */
const JITTER_STEPS = 2;
/** Least wall between two holes' bounding circles, and between a hole and the plate's edge (metres). */
const MIN_WALL = 0.008;
/** Largest bounding-box side of any hole shape, in cells (keeps holes inside their slots). */
const MAX_EXTENT = 4;

/** The 24 turns that map the coordinate axes onto themselves. */
const GRID_TURNS: readonly Quat[] = (() => {
  const h = Math.SQRT1_2;
  const gens: Quat[] = [[h, 0, 0, h], [0, h, 0, h]];
  const out: Quat[] = [[0, 0, 0, 1]];
  const same = (a: Quat, b: Quat): boolean => qangle(a, b) < 1e-6;
  for (let i = 0; i < out.length; i++) {
    for (const g of gens) {
      const q = tidyQuat(qmul(g, out[i]));
      if (!out.some((o) => same(o, q))) out.push(q);
    }
  }
  return out;
})();

function turnK(cells: Cell2[], k: number): Cell2[] {
  let c = normalise(cells);
  for (let i = 0; i < k; i++) c = rotate90(c);
  return c;
}

/** The decoy shapes: the mirror image first, then one-square variants (and their mirror images from L3). */
function decoyShapes(peg: Cell2[], count: number, withMirrors: boolean, rng: Rng): Array<{ cells: Cell2[]; kind: HoleKind }> {
  const out: Array<{ cells: Cell2[]; kind: HoleKind }> = [{ cells: mirror(peg), kind: 'mirror' }];
  const used = new Set([oneSidedKey(peg), oneSidedKey(mirror(peg))]);
  for (const v of rng.shuffle(oneCellMoves(peg, MAX_EXTENT))) {
    const candidates = withMirrors && isChiral(v) ? [v, mirror(v)] : [v];
    for (const c of candidates) {
      if (out.length >= count) break;
      const k = oneSidedKey(c);
      if (used.has(k)) continue;
      used.add(k);
      out.push({ cells: c, kind: 'variant' });
    }
    if (out.length >= count) break;
  }
  return out;
}

function onGrid(x: number): number {
  return round9(Math.round(x / GRID) * GRID);
}

/** Draws one scene for a tier from `rng`. */
export function drawScene(tier: Tier, rng: Rng): M1Scene {
  const cfg = TIER_SETTINGS[tier];
  const name = rng.pick(Object.keys(CHIRAL_PENTOMINOES).sort());
  let peg = normalise(CHIRAL_PENTOMINOES[name] as Cell2[]);
  if (rng.next() < 0.5) peg = mirror(peg);
  peg = turnK(peg, rng.int(0, 3));

  const shapes: Array<{ cells: Cell2[]; kind: HoleKind }> = [{ cells: peg, kind: 'match' }, ...decoyShapes(peg, cfg.holes - 1, tier !== 'L1', rng)];
  const slots = rng.shuffle(SLOTS.map((_, i) => i));
  const order = rng.shuffle(shapes.map((_, i) => i));
  const holes: M1Hole[] = [];
  let match = -1;
  const placed: Array<{ x: number; z: number; r: number }> = [];
  order.forEach((si, n) => {
    const s = shapes[si];
    // Decoys are shown in a random quarter turn of their own, so no outline repeats the peg's pose.
    const cells = s.kind === 'match' ? peg : turnK(s.cells, rng.int(0, 3));
    const yawDeg = rng.int(0, 360 / cfg.angleStep - 1) * cfg.angleStep;
    const r = holeRadius(cells, cfg.clearance);
    const [sx, sz] = SLOTS[slots[n]];
    const options: Array<[number, number]> = [];
    for (let i = -JITTER_STEPS; i <= JITTER_STEPS; i++) {
      for (let j = -JITTER_STEPS; j <= JITTER_STEPS; j++) {
        const x = onGrid(sx + i * GRID);
        const z = onGrid(sz + j * GRID);
        const insideX = Math.abs(x) + r <= PLATE.width / 2 - RAIL_WIDTH - MIN_WALL;
        const insideZ = Math.abs(z) + r <= PLATE.depth / 2 - MIN_WALL;
        const apart = placed.every((p) => Math.hypot(p.x - x, p.z - z) >= p.r + r + MIN_WALL);
        if (insideX && insideZ && apart) options.push([x, z]);
      }
    }
    // The slot centre always fits (slots are sized for the largest hole), so options is never empty.
    const [x, z] = options.length ? rng.pick(options) : [sx, sz];
    placed.push({ x, z, r });
    if (s.kind === 'match') match = holes.length;
    holes.push({ cells, x, z, yawDeg, kind: s.kind });
  });

  // The peg starts over the first free slot, high enough to turn freely.
  const [fx, fz] = SLOTS[slots[holes.length]];
  const start: Vec3 = [
    onGrid(fx + rng.int(-JITTER_STEPS, JITTER_STEPS) * GRID),
    onGrid(PLATE.top + rng.int(22, 30) * GRID),
    onGrid(fz + rng.int(-JITTER_STEPS, JITTER_STEPS) * GRID),
  ];
  const goalYaw = holes[match].yawDeg;
  let q: Quat;
  if (cfg.tipped) {
    // Any axis-aligned turn that does not leave the shaft pointing down, then a turn about the vertical.
    const tipped = GRID_TURNS.filter((g) => qrotate(g, [0, -1, 0])[1] > -0.5);
    q = qmul(yaw(rng.int(0, 23) * 15), rng.pick(tipped));
  } else {
    const steps = 360 / cfg.angleStep;
    const lo = Math.max(1, Math.round(30 / cfg.angleStep));
    q = yaw(goalYaw + rng.int(lo, steps - lo) * cfg.angleStep);
  }
  const frameYawDeg = cfg.rotatedFrame ? rng.pick([30, 45, 60]) * rng.pick([-1, 1]) : 0;
  return { pegCells: peg, clearance: cfg.clearance, holes, match, start: { p: start, q: tidyQuat(q) }, frameYawDeg };
}

/** Why a scene is not a fair instance, or null (a generator-side shortcut filter). */
export function sceneProblem(scene: M1Scene): string | null {
  const own = oneSidedKey(scene.pegCells);
  const matches = scene.holes.filter((h) => oneSidedKey(h.cells) === own);
  if (matches.length !== 1 || scene.holes[scene.match]?.kind !== 'match') return `${matches.length} holes have the peg's outline; exactly one must`;
  if (!scene.holes.some((h) => h.kind === 'mirror' && oneSidedKey(h.cells) === oneSidedKey(mirror(scene.pegCells)))) return 'no hole is the mirror image of the peg';
  const err = (qangle(scene.start.q, goalQuat(scene)) * 180) / Math.PI;
  if (err < 29.9) return `the peg starts only ${err.toFixed(1)}° from the fitting orientation`;
  return null;
}
