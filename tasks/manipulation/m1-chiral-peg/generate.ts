/**
 * M1 generator: the tools and rules text an instance carries, and the seeded draw of its
 * scene. The M1 generator: a chiral pentomino peg, a plate of holes (the match, its mirror image and
 * one-square variants), and a start pose, all drawn from the instance's seeded stream.
 */
import { qangle, qmul, qrotate } from '../../../sim/math.ts';
import type { Quat, Vec3 } from '../../../sim/types.ts';
import type { Rng } from '../../../core/rng.ts';
import { makeInstance } from '../../instance.ts';
import type { FamilyDescriptor, Instance, Tier, ToolSpec } from '../../types.ts';
import type { RulerSpec } from '../../../sim/types.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import { turnsBetween } from './solver.ts';
import { CHIRAL_PENTOMINOES, isChiral, mirror, normalise, oneCellMoves, oneSidedKey, rotate90, type Cell2 } from './polyomino.ts';
import { CELL, cm, GRID, goalQuat, holeRadius, INSERT_DEPTH, MAX_STEP, mm, PLATE, RAIL_WIDTH, RULER_ZERO, rulerCoords, SHAFT_LENGTH, tidyQuat, WORKSPACE, yaw, type HoleKind, type M1Hole, type M1Scene } from './scene.ts';
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

function translateTool(): ToolSpec {
  const d = { type: 'number', minimum: -MAX_STEP, maximum: MAX_STEP };
  return {
    name: 'translate',
    kind: 'physical',
    description:
      `Move the held peg in a straight line by dx_m, dy_m and dz_m metres along the working frame's x, y and z axes (the red, green and blue arrows; each at most ${MAX_STEP} m, omitted = 0). ` +
      'The whole path is checked: if the peg would touch the plate or its rails, or leave the workspace, the move is rolled back.',
    parameters: {
      type: 'object',
      properties: { dx_m: { ...d }, dy_m: { ...d }, dz_m: { ...d } },
      additionalProperties: false,
    },
  };
}

function rotateTool(): ToolSpec {
  return {
    name: 'rotate',
    kind: 'physical',
    description:
      "Turn the held peg by angle_deg degrees about an axis through the peg's own centre (the centre of its bounding box) parallel to the working frame's x, y or z axis. " +
      'Positive angles turn counter-clockwise as seen looking from the tip of that axis arrow back towards the peg (right-hand rule). The whole turn is checked like a move.',
    parameters: {
      type: 'object',
      properties: {
        axis: { type: 'string', enum: ['x', 'y', 'z'] },
        angle_deg: { type: 'number', minimum: -180, maximum: 180 },
      },
      required: ['axis', 'angle_deg'],
      additionalProperties: false,
    },
  };
}

function rulesText(s: M1Scene, tier: Tier): string {
  const cfg = TIER_SETTINGS[tier];
  const n = s.holes.length;
  const lines = [
    `A flat plate ${mm(PLATE.thickness)} thick rests on two rails; it has ${n} through-holes. You hold a peg above it (the orange part): a shaft ${mm(SHAFT_LENGTH)} long whose cross-section is five ${mm(CELL)} squares joined edge to edge, topped by a thin cap that overhangs the shaft by ${mm(6e-3)} all round. The cap shows the shaft's outline but is too wide for any hole, so the peg can only go in shaft first.`,
    `Exactly one hole has the shaft's outline (with ${mm(s.clearance)} clearance on every side). The others are decoys: the mirror image of the outline, and outlines with one square in another place. The cross-section is not mirror-symmetric, so the peg fits its hole in only one orientation.`,
    `Goal: push the shaft into the matching hole until its bottom end is at least ${mm(INSERT_DEPTH)} below the plate's top surface. The episode ends as soon as it is.`,
    'Frame: the red, green and blue arrows beside the plate show the working frame\'s +x, +y and +z axes; +y is straight up.' +
      (s.frameYawDeg === 0
        ? ' In the first view +x points to the right along the plate and +z towards you.'
        : ' This frame is NOT lined up with the plate: it is turned about the vertical by a whole multiple of 15° that you must read from the arrows. translate and rotate both use the arrows\' frame.'),
    `Measuring: rulers run along the plate's front and left top edges from its front-left corner (0), with ticks every ${mm(GRID)}; a third ruler stands upright at the back-left corner and measures height above the plate's top surface. The centre of each hole (the middle of its outline's bounding box) and the peg's starting centre lie on the ${mm(GRID)} ticks. ` +
      (cfg.angleStep === 90
        ? 'Every hole is turned by whole quarter turns relative to the plate\'s edges, and so is the peg.'
        : `Every hole is turned about the vertical by a whole multiple of ${cfg.angleStep}° relative to the plate's edges; the peg starts ${cfg.tipped ? 'in an orientation made of quarter turns about the plate\'s axes followed by a turn about the vertical by' : 'turned about the vertical by'} a whole multiple of ${cfg.angleStep}°.`),
    'Tools: translate(dx_m, dy_m, dz_m) moves the peg in a straight line; rotate(axis, angle_deg) turns it about an axis through its own centre (the centre of its bounding box). Both are relative to where the peg is now.',
    `Every move is swept along its whole path. If the peg would touch the plate or a rail, or leave the workspace, the move is stopped, rolled back (the peg stays where it was), and the rest of that turn is not run. The workspace is a box from just above the floor to ${cm(WORKSPACE.max[1] - PLATE.top)} above the plate's top, reaching ${cm(WORKSPACE.max[0] - PLATE.width / 2)} past the plate's left and right edges and ${cm(WORKSPACE.max[2] - PLATE.depth / 2)} past its front and back edges; the whole peg must stay inside it.`,
  ];
  return lines.join('\n');
}

function planText(s: M1Scene): string {
  const hole = s.holes[s.match];
  const c = rulerCoords([hole.x, PLATE.top, hole.z]);
  const turns = turnsBetween(s.start.q, goalQuat(s), s.frameYawDeg);
  const turnText = turns.length ? turns.map((t) => `rotate about ${t.axis} by ${t.angleDeg}°`).join(', then ') : 'no turn';
  return (
    `The matching hole is the one centred ${mm(c.along)} along the front ruler and ${mm(c.back)} back along the left ruler. ` +
    `1) At the start height turn the peg into the fitting orientation (${turnText}). ` +
    '2) Move it level until its centre is right above that hole\'s centre. ' +
    `3) Lower it straight down until the shaft's bottom is ${mm(INSERT_DEPTH)}–${mm(SHAFT_LENGTH)} below the plate's top (about ${mm(0.025)} is safe).`
  );
}

function draw(family: FamilyDescriptor, seed: number, tier: Tier, attempt: number): Instance<M1Scene> {
  const scene = drawScene(tier, redrawRng('M1', tier, seed, attempt));
  const cfg = TIER_SETTINGS[tier];
  const top = PLATE.top;
  const x1 = PLATE.width / 2;
  const z1 = PLATE.depth / 2;
  const rulers: RulerSpec[] = [
    { from: [...RULER_ZERO], to: [x1, top, z1], tickDir: [0, 0, 1], minor: GRID, major: 0.05 },
    { from: [...RULER_ZERO], to: [-x1, top, -z1], tickDir: [-1, 0, 0], minor: GRID, major: 0.05 },
    { from: [-x1, top, -z1], to: [-x1, top + 0.25, -z1], tickDir: [1, 0, 0], minor: GRID, major: 0.05 },
  ];
  return makeInstance(family, tier, seed, {
    title: `Chiral peg-in-hole, ${scene.holes.length} holes, ${mm(scene.clearance)} clearance${cfg.tipped ? ', peg tipped over' : ''}${cfg.rotatedFrame ? ', turned working frame' : ''}`,
    rules: rulesText(scene, tier),
    tools: [translateTool(), rotateTool()],
    camera: {
      initial: { azimuth: 18, elevation: 48, distance: 0.95, target: [0, top + 0.03, 0] },
      elevationRange: [-10, 90],
    },
    rulers,
    ground: { y: 0, color: '#6f7782' },
    dynamic: false,
    scoring: 'graded',
    scene,
    reveal: { plan: planText(scene) },
  });
}

/** The instance of (seed, tier): drawn until every shortcut filter passes. */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier): Instance<M1Scene> {
  return generateFiltered((attempt) => draw(family, seed, tier, attempt), SHORTCUT_FILTERS);
}
