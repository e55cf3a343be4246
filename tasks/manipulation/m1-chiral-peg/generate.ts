/**
 * M1 generator: the tools and rules text an instance carries, and the seeded draw of its
 * scene. The M1 generator: a chiral pentomino peg, a plate of holes (the match, its mirror image and
 * one-square variants), and a start pose, all drawn from the instance's seeded stream.
 */
import { qangle, qmul, qrotate } from '../../../sim/math.ts';
import type { Quat, Vec3 } from '../../../sim/types.ts';
import type { Rng } from '../../../core/rng.ts';
import { makeInstance } from '../../instance.ts';
import { tierSettings, type LeverTable } from '../../levers.ts';
import type { FamilyDescriptor, Instance, Tier, ToolSpec } from '../../types.ts';
import type { RulerSpec } from '../../../sim/types.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import { turnsBetween } from './solver.ts';
import { CHIRAL_PENTOMINOES, isChiral, mirror, normalise, oneCellMoves, oneSidedKey, rotate90, type Cell2 } from './polyomino.ts';
import { GRID, goalQuat, holeRadius, INSERT_DEPTH, MAX_STEP, mm, PLATE, RAIL_WIDTH, RULER_ZERO, rulerCoords, SHAFT_LENGTH, tidyQuat, yaw, type HoleKind, type M1Hole, type M1Scene } from './scene.ts';
import { round9 } from '../../../core/determinism.ts';

/** Per-tier settings. */
export interface TierSettings {
  holes: number;
  clearance: number;
  /** Holes and the peg's start are turned by whole quarter turns (L1) rather than by any angle. */
  quarterTurns: boolean;
  /** The peg starts tipped over (its shaft not pointing down). */
  tipped: boolean;
  /** The working frame is turned about the vertical (`+rot`). */
  rotatedFrame: boolean;
}

/** What each tier draws. */
export const TIER_SETTINGS: Record<Tier, TierSettings> = {
  L1: { holes: 3, clearance: 0.004, quarterTurns: true, tipped: false, rotatedFrame: false },
  L3: { holes: 4, clearance: 0.002, quarterTurns: false, tipped: false, rotatedFrame: false },
  L5: { holes: 5, clearance: 0.0008, quarterTurns: false, tipped: true, rotatedFrame: false },
  L7: { holes: 5, clearance: 0.0008, quarterTurns: false, tipped: true, rotatedFrame: true },
};

/**
 * The levers M1 supports as single-factor studies over L5 (`M1-L5+rot-s100`; tasks/levers.ts).
 * `+rot` is its L7's lever; its frame turn is the scene's last draw, so the study is the seed's
 * L5 world with the frame turned.
 */
export const M1_LEVERS: LeverTable<TierSettings> = {
  '+rot': { description: 'L5 with the working frame turned about the vertical by 30–60° either way, shown only by the axis arrows.', apply: (s) => ({ ...s, rotatedFrame: true }) },
};

/**
 * Most calls the reference makes at a tier: one turn about the vertical for an upright start
 * (L1, L3); for a tipped one a turn about the vertical, one tipping turn and a last turn about
 * the vertical; then one level move and one lowering.
 */
export function referenceCallsAtMost(tier: Tier): number {
  return TIER_SETTINGS[tier].tipped ? 5 : 3;
}

/**
 * The action budget's factor over the reference's largest call count for the tier: room for a
 * model that looks to correct each step a few times (see README.md), far too few calls to map
 * the plate, the holes and the peg by feeling with refused moves.
 */
export const BUDGET_FACTOR = 4;

/** The action budget of a tier (refused and rolled-back calls count): the same for every seed, so it tells nothing about one. */
export function actionBudget(tier: Tier): number {
  return BUDGET_FACTOR * referenceCallsAtMost(tier);
}

/** Slot centres on the plate (x, z), metres: three columns by two rows. */
const SLOTS: ReadonlyArray<[number, number]> = [
  [-0.13, -0.065], [0, -0.065], [0.13, -0.065],
  [-0.13, 0.065], [0, 0.065], [0.13, 0.065],
];
/** A hole centre (and the peg's start) may be moved up to this far from its slot centre along x and z, metres (drawn continuously). */
const JITTER = 0.01;
/** Least wall between two holes' bounding circles, and between a hole and the plate's edge (metres). */
const MIN_WALL = 0.008;
/** Largest bounding-box side of any hole shape, in cells (keeps holes inside their slots). */
const MAX_EXTENT = 4;
/** Positions are drawn to 0.1 mm and angles to 0.01°: continuous for any prober (no grid to enumerate), exact in JSON. */
const POS_STEP = 1e-4;
const DEG_STEP = 0.01;

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

/** A continuous draw in [lo, hi], kept to `step`. */
function drawIn(rng: Rng, lo: number, hi: number, step: number): number {
  return round9(Math.round(rng.range(lo, hi) / step) * step);
}

/** A turn about the vertical drawn continuously in [0°, 360°). */
function anyYaw(rng: Rng): number {
  return drawIn(rng, 0, 360 - DEG_STEP, DEG_STEP);
}

/** Draws one scene for a tier from `rng`. */
export function drawScene(tier: Tier, rng: Rng, cfg: TierSettings = TIER_SETTINGS[tier]): M1Scene {
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
    const yawDeg = cfg.quarterTurns ? rng.int(0, 3) * 90 : anyYaw(rng);
    const r = holeRadius(cells, cfg.clearance);
    const [sx, sz] = SLOTS[slots[n]];
    const fits = (x: number, z: number): boolean =>
      Math.abs(x) + r <= PLATE.width / 2 - RAIL_WIDTH - MIN_WALL &&
      Math.abs(z) + r <= PLATE.depth / 2 - MIN_WALL &&
      placed.every((p) => Math.hypot(p.x - x, p.z - z) >= p.r + r + MIN_WALL);
    // A continuous offset from the slot centre; the slot centre itself always fits (slots are
    // sized for the largest hole), so it is the fallback after a few rejected draws.
    let at: [number, number] = [sx, sz];
    for (let k = 0; k < 20; k++) {
      const x = drawIn(rng, sx - JITTER, sx + JITTER, POS_STEP);
      const z = drawIn(rng, sz - JITTER, sz + JITTER, POS_STEP);
      if (fits(x, z)) {
        at = [x, z];
        break;
      }
    }
    placed.push({ x: at[0], z: at[1], r });
    if (s.kind === 'match') match = holes.length;
    holes.push({ cells, x: at[0], z: at[1], yawDeg, kind: s.kind });
  });

  // The peg starts over the first free slot, high enough to turn freely.
  const [fx, fz] = SLOTS[slots[holes.length]];
  const start: Vec3 = [drawIn(rng, fx - JITTER, fx + JITTER, POS_STEP), drawIn(rng, PLATE.top + 0.11, PLATE.top + 0.15, POS_STEP), drawIn(rng, fz - JITTER, fz + JITTER, POS_STEP)];
  const goalYaw = holes[match].yawDeg;
  let q: Quat;
  if (cfg.tipped) {
    // Any axis-aligned turn that does not leave the shaft pointing down, then any turn about the vertical.
    const tipped = GRID_TURNS.filter((g) => qrotate(g, [0, -1, 0])[1] > -0.5);
    q = qmul(yaw(anyYaw(rng)), rng.pick(tipped));
  } else if (cfg.quarterTurns) {
    q = yaw(goalYaw + rng.int(1, 3) * 90);
  } else {
    q = yaw(goalYaw + drawIn(rng, 30, 330, DEG_STEP));
  }
  const frameYawDeg = cfg.rotatedFrame ? drawIn(rng, 30, 60, DEG_STEP) * rng.pick([-1, 1]) : 0;
  return { pegCells: peg, clearance: cfg.clearance, holes, match, start: { p: start, q: tidyQuat(q) }, frameYawDeg };
}

function translateTool(): ToolSpec {
  const d = { type: 'number', minimum: -MAX_STEP, maximum: MAX_STEP };
  return {
    name: 'translate',
    kind: 'physical',
    description:
      `Move the held peg in a straight line by dx_m, dy_m and dz_m metres along the working frame's x, y and z axes (the red, green and blue arrows; omitted = 0). ` +
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
  const lines = [
    'A flat plate with several through-holes rests on two rails. You hold a peg above it (the orange part): a shaft whose cross-section is five equal squares joined edge to edge, topped by a thin cap that overhangs the shaft all round. The cap shows the shaft\'s outline but is too wide for any hole, so the peg can only go in shaft first.',
    'Exactly one hole has the shaft\'s outline (with a small clearance on every side). The others are decoys: the mirror image of the outline, and outlines with one square in another place. The cross-section is not mirror-symmetric, so the peg fits its hole in only one orientation.',
    'Goal: push the shaft into the matching hole until at least a third of its length is below the plate\'s top surface. The episode ends as soon as it is.',
    'Frame: the red, green and blue arrows beside the plate show the working frame\'s +x, +y and +z axes; +y is straight up.' +
      (s.frameYawDeg === 0
        ? ' In the first view +x points to the right along the plate and +z towards you.'
        : ' This frame is NOT lined up with the plate: it is turned about the vertical, and you must read how far from the arrows. translate and rotate both use the arrows\' frame.'),
    'Measuring: every size, position and angle is read from the picture. Rulers run along the plate\'s front and left top edges from zero at its front-left corner; a third ruler stands upright at the back-left corner and measures height above the plate\'s top surface. The centre of a hole is the middle of its outline\'s bounding box; the peg\'s centre is the middle of its own bounding box.',
    'Tools: translate(dx_m, dy_m, dz_m) moves the peg in a straight line; rotate(axis, angle_deg) turns it about an axis through its own centre. Both are relative to where the peg is now.',
    'Every move is swept along its whole path. If the peg would touch the plate or a rail, or leave the workspace around the plate, the move is stopped, rolled back (the peg stays where it was), and the rest of that turn is not run.',
    `Budget: ${actionBudget(tier)} actions in all. Every translate and rotate counts, also one that is refused and rolled back; when they are used up the episode ends.`,
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

function draw(family: FamilyDescriptor, seed: number, tier: Tier, lever: string | undefined, attempt: number): Instance<M1Scene> {
  const cfg = tierSettings('M1', TIER_SETTINGS, tier, lever, M1_LEVERS);
  // A lever study draws from its tier's stream: the seed's L5 world, with the lever on.
  const scene = drawScene(tier, redrawRng('M1', tier, seed, attempt), cfg);
  const top = PLATE.top;
  const x1 = PLATE.width / 2;
  const z1 = PLATE.depth / 2;
  const rulers: RulerSpec[] = [
    { from: [...RULER_ZERO], to: [x1, top, z1], tickDir: [0, 0, 1], minor: GRID, major: 0.05 },
    { from: [...RULER_ZERO], to: [-x1, top, -z1], tickDir: [-1, 0, 0], minor: GRID, major: 0.05 },
    { from: [-x1, top, -z1], to: [-x1, top + 0.25, -z1], tickDir: [1, 0, 0], minor: GRID, major: 0.05 },
  ];
  return makeInstance(family, tier, seed, {
    ...(lever ? { lever } : {}),
    title: `Chiral peg-in-hole${cfg.tipped ? ', peg tipped over' : ''}${cfg.rotatedFrame ? ', turned working frame' : ''}`,
    rules: rulesText(scene, tier),
    tools: [translateTool(), rotateTool()],
    budgets: { turns: 100, actionsPerTurn: 5, actions: actionBudget(tier) },
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
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<M1Scene> {
  return generateFiltered((attempt) => draw(family, seed, tier, lever, attempt), SHORTCUT_FILTERS);
}
