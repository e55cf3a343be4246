/**
 * A1 generator: the tools and rules text an instance carries, and the draw of its scene — a random partition of the box into polycube pieces, spare pieces that fit
 * in no filling, table orientations and slots (some behind the wall), re-drawn
 * deterministically until the tier's requirements hold (unique filling, buildable by lowering,
 * order depth, hidden pieces really hidden from the first view).
 */
import { SpaceActError } from '../../../core/errors.ts';

import { redrawRng } from '../../../solvers/redraw.ts';
import { canonical, shapeKey, type Cell } from '../../../solvers/polycube.ts';
import type { Rng } from '../../../core/rng.ts';
import { DEFAULT_BUDGETS, makeInstance } from '../../instance.ts';
import type { FamilyDescriptor, Instance, Tier, ToolSpec } from '../../types.ts';
import type { RulerSpec } from '../../../sim/types.ts';
import { placeParameters, removeParameters } from '../../kits/polycube-pieces/tools.ts';
import { partitionBlock, randomPolycube } from '../../kits/polycube-pieces/partition.ts';
import { CELL, restingOriginHeight } from '../../kits/polycube-pieces/pieces.ts';

import { tableOrientation } from '../../kits/polycube-pieces/statics.ts';
import { boxCells, boxTop, FLOOR, FRONT_RIM, HIDDEN_SLOTS, INITIAL_CAMERA, TABLE_RULER, VISIBLE_SLOTS, WALL, type A1Piece, type A1Scene, type BoxDims } from './scene.ts';
import { hiddenFromFirstView } from './sight.ts';
import { certify, findPlan, type Certificate, type Plan } from './solver.ts';
import { round9 } from '../../../core/determinism.ts';
import { tierSettings, type LeverTable } from '../../levers.ts';

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

/**
 * The levers A1 supports as single-factor studies over L5 (`A1-L5+occ-s100`;
 * tasks/levers.ts): each the L5 settings with one change.
 */
export const A1_LEVERS: LeverTable<TierSpec> = {
  '+occ': { description: "L5 with 4 of the 6 pieces hidden behind the wall.", apply: (s) => ({ ...s, hidden: 4 }) },
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
  const needed = partitionBlock(rng, spec.box, spec.sizes, spec.pieces);
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
export function drawScene(seed: number, tier: Tier, spec: TierSpec = TIER_SPECS[tier]): Draw {
  const reasons: string[] = [];
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const rng = redrawRng('A1', tier, seed, attempt);
    const scene = drawOnce(rng, spec);
    if (typeof scene === 'string') {
      reasons.push(scene);
      continue;
    }
    const problem = sceneProblem(scene, tier, spec);
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
export function sceneProblem(scene: A1Scene, tier: Tier, spec: TierSpec = TIER_SPECS[tier]): string | { certificate: Certificate; plan: Plan } {
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

/**
 * The largest agent cell a `place` call may name, the same at every tier: the schema must not
 * give the box's size away (issue 36). A cell outside the box is simply refused.
 */
export const CELL_MAX: BoxDims = { cols: 3, rows: 3, layers: 3 };

/**
 * The action budget: the reference's placements × this factor, refused calls counted. Why 3 is
 * room for a player who looks and too little for one who maps the pieces by probing: README
 * "Budget".
 */
export const BUDGET_FACTOR = 3;

function tools(s: A1Scene): ToolSpec[] {
  const names = s.pieces.map((p) => p.name);
  return [
    {
      name: 'place',
      kind: 'discrete',
      description:
        'Lift a piece straight up from the table, turn it in the air by `turns` (quarter turns about fixed world axes, first one first, starting from the orientation it has on the table), carry it over the box and lower it straight down until its reference cube (its lowest cube; of several, the leftmost; of several, the frontmost) is in `cell` = [col, row, layer]. Touching anything on the way down is a collision.',
      parameters: placeParameters(names, CELL_MAX),
    },
    {
      name: 'remove',
      kind: 'discrete',
      description: 'Lift a piece straight up out of the box and put it back where it lay on the table, as it lay. Touching anything on the way up is a collision.',
      parameters: removeParameters(names),
    },
  ];
}

/**
 * The rules: what the task is, never the box's size, how many pieces there are, how many are
 * hidden or how big they are (read from the picture: the issue-36 contract). The cube size is
 * the same for every instance.
 */
function rulesText(s: A1Scene, budget: number): string {
  const cm = CELL * 100;
  return [
    `A wooden box without a lid stands on a table. Its inside is a block of cells, each a ${cm} cm cube: lines on the box floor mark the cells, the rulers on the box's front and left rims have a tick every ${cm} cm, and a small black square marks the floor of cell [0, 0, 0]. The box's front wall is the dark one: a low rim, so the floor can be seen over it.`,
    `Pieces lie on the table, each of a different colour and made of ${cm} cm cubes joined face to face (the seams between its cubes show as lines). Some of them lie behind the grey wall at the back, out of sight from the first view: move the camera to see them.`,
    `Goal: fill every cell of the box with pieces. ${s.spares ? 'Not every piece is needed: some are spares that fit in no filling of the box. ' : ''}The episode ends as soon as the box is full.`,
    'Cells are named [col, row, layer]: col counts from the left (0 = the leftmost column as seen from the first view), row from the front (0 = the row along the dark front wall), layer from the bottom (0 = on the box floor).',
    "place(piece, turns, cell) lifts the piece straight up, turns it in the air, carries it over the box and lowers it straight down. `turns` lists quarter turns about fixed world axes, applied one after the other to the orientation the piece has on the table (an empty list keeps that orientation): 'y+' turns it counter-clockwise as seen from above and 'y-' clockwise; 'x+' tips its top towards the front (towards the first view) and 'x-' towards the back; 'z+' rolls its top to the left (counter-clockwise as seen from the front) and 'z-' to the right. `cell` is where the piece's reference cube ends: the piece's lowest cube after turning; if several are lowest, the leftmost of those; if still several, the frontmost. The piece comes to rest on what is under it.",
    'remove(piece) lifts a piece straight up out of the box and puts it back where it lay on the table.',
    'A piece can only go straight down, so a cell under part of another piece must be filled before that piece goes in. A piece stays where it is put when its cubes rest on the box floor or on pieces already in the box and its centre of mass lies above the cubes that rest on something; with nothing under it, it would fall, and with its centre overhanging, it would tip over.',
    'Refused: a piece touching anything on its way down or up (another piece or the box); a piece that would stick out of the box; a piece that would fall or tip over. A refused call is undone, and the rest of that turn is not run; its result says only that the piece does not fit there (or cannot be lifted out), and the picture after it shows why.',
    `You have ${budget} actions in all: every place and remove counts, a refused one too; when they are spent, the episode ends.`,
  ].join('\n');
}

function planText(s: A1Scene, plan: Plan): string {
  const steps = plan.steps.map(
    (st, i) => `${i + 1}. place ${s.pieces[st.piece].name} with turns [${st.turns.join(', ')}] at cell [${st.cell.join(', ')}]`,
  );
  const spares = plan.spares.map((i) => s.pieces[i].name);
  return [
    `Fill the box in this order (each piece is lowered straight down, so pieces underneath go first):`,
    ...steps,
    spares.length ? `Spare pieces, not used: ${spares.join(', ')}.` : 'Every piece is used.',
  ].join('\n');
}

function rulers(s: A1Scene): RulerSpec[] {
  const w = (s.box.cols * CELL) / 2;
  const d = (s.box.rows * CELL) / 2;
  const top = round9(boxTop(s.box) + 0.0003);
  const rim = round9(FLOOR + FRONT_RIM + 0.0003);
  return [
    // Along the low front rim and the left rim, from the front-left inner corner: a tick per cell.
    { from: [-w, rim, round9(d + WALL / 2)], to: [w, rim, round9(d + WALL / 2)], tickDir: [0, 0, 1], minor: CELL, major: round9(2 * w) },
    { from: [round9(-w - WALL / 2), top, d], to: [round9(-w - WALL / 2), top, -d], tickDir: [-1, 0, 0], minor: CELL, major: round9(2 * d) },
    // Along the table's front edge, for sizing pieces.
    { from: [-TABLE_RULER.half, 0.0005, TABLE_RULER.z], to: [TABLE_RULER.half, 0.0005, TABLE_RULER.z], tickDir: [0, 0, 1] },
  ];
}

/** The instance of (seed, tier, lever); a lever study draws from its tier's stream (L5's). */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<A1Scene> {
  const { scene, plan } = drawScene(seed, tier, tierSettings('A1', TIER_SPECS, tier, lever, A1_LEVERS));
  const budget = plan.steps.length * BUDGET_FACTOR;
  return makeInstance(family, tier, seed, {
    ...(lever ? { lever } : {}),
    // The same for every seed of a tier: no box size, no number of pieces.
    title: 'Occluded packing',
    rules: rulesText(scene, budget),
    budgets: { ...DEFAULT_BUDGETS, actions: budget },
    tools: tools(scene),
    camera: { initial: structuredClone(INITIAL_CAMERA), elevationRange: [0, 90] },
    rulers: rulers(scene),
    ground: { y: -0.02 },
    dynamic: false,
    scoring: 'graded',
    scene,
    reveal: { plan: planText(scene, plan) },
  });
}
