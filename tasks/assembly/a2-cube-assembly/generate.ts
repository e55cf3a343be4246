/**
 * A2 generator: the tools and rules text an instance carries, and the draw of its scene — a
 * random partition of the box into connected pieces of the tier's sizes, decoy pieces that fit
 * in no filling, table orientations, colours and slots — re-drawn deterministically until the
 * certificate holds (exactly one subset of the pieces fills the box, so decoys are decoys) and
 * some packing can be built in an order gravity allows.
 */
import { SpaceActError } from '../../../core/errors.ts';
import { round9 } from '../../../core/determinism.ts';
import type { Rng } from '../../../core/rng.ts';
import type { RulerSpec } from '../../../sim/types.ts';
import { countPackings, type Cell } from '../../../solvers/polycube.ts';
import { redrawRng } from '../../../solvers/redraw.ts';
import { DEFAULT_BUDGETS, makeInstance } from '../../instance.ts';
import type { FamilyDescriptor, Instance, JsonSchema, Tier, ToolSpec } from '../../types.ts';
import { cellKey, faceNeighbours, referenceCube, toAgentCell } from '../../kits/polycube-pieces/cells.ts';
import { ENTRY_SIDES } from '../../kits/polycube-pieces/entry.ts';
import { CELL, restingOriginHeight } from '../../kits/polycube-pieces/pieces.ts';
import { tableOrientation } from '../../kits/polycube-pieces/statics.ts';
import { placeParameters, removeParameters } from '../../kits/polycube-pieces/tools.ts';
import { tierSettings } from '../../levers.ts';
import { A2_LEVERS, boxCells, PLATE, PLATE_CENTRE, PLATE_GRID, PLATE_MARGIN, SLOTS, INITIAL_CAMERA, TIERS, type A2Piece, type A2Scene, type TierSettings } from './scene.ts';
import { certify, findOrder, findPlan, PLAN_PACKINGS, type Certificate, type Plan, type PlanStep } from './solver.ts';
import { turnsOnto } from '../../kits/polycube-pieces/rotations.ts';

/** Piece colours; the names are what the agent calls the pieces. */
export const PIECE_COLORS: ReadonlyArray<{ name: string; color: string }> = [
  // No colour word the rules use for something else (the red and blue strips, the black square, the blue block).
  { name: 'crimson', color: '#c0283a' },
  { name: 'orange', color: '#ef8a17' },
  { name: 'yellow', color: '#f2cc1d' },
  { name: 'green', color: '#2e9e4f' },
  { name: 'violet', color: '#7b4fc4' },
  { name: 'cyan', color: '#22b3c4' },
  { name: 'brown', color: '#8a5a2b' },
  { name: 'pink', color: '#e47ab8' },
  { name: 'navy', color: '#23346e' },
  { name: 'olive', color: '#7d8a2a' },
];

/** Most draws tried before giving up (never reached for the seeds the tests and the battery use). */
export const MAX_ATTEMPTS = 400;

/** Whether a piece fits a 3 × 3 × 3 block (so it lies in a table slot). */
function extentOk(cells: readonly Cell[]): boolean {
  for (let a = 0; a < 3; a++) {
    const vs = cells.map((c) => c[a]);
    if (Math.max(...vs) - Math.min(...vs) > 2) return false;
  }
  return true;
}

/** Whether a piece is a box (a straight line or a 2 × 2 square): the Soma set has none. */
export function isBoxShape(cells: readonly Cell[]): boolean {
  const ext = [0, 1, 2].map((a) => Math.max(...cells.map((c) => c[a])) - Math.min(...cells.map((c) => c[a])) + 1);
  return ext[0] * ext[1] * ext[2] === cells.length;
}

/** Whether a piece is allowed at a tier. */
function pieceOk(cells: readonly Cell[], t: TierSettings): boolean {
  return extentOk(cells) && !(t.somaLike && isBoxShape(cells));
}

/**
 * A random partition of the box into connected pieces of the given sizes: each piece starts at
 * a free cell with the fewest free neighbours (so no cell is left stranded) and grows by random
 * free neighbours; null when a piece cannot reach its size or is not allowed.
 */
export function partition(rng: Rng, target: readonly Cell[], sizes: readonly number[], t: TierSettings): Cell[][] | null {
  const free = new Set(target.map(cellKey));
  const order = rng.shuffle([...sizes]);
  const pieces: Cell[][] = [];
  for (const size of order) {
    const freeCells = target.filter((c) => free.has(cellKey(c)));
    const degree = (c: Cell): number => faceNeighbours(c).filter((n) => free.has(cellKey(n))).length;
    const minDeg = Math.min(...freeCells.map(degree));
    const start = rng.pick(freeCells.filter((c) => degree(c) === minDeg));
    const piece: Cell[] = [start];
    free.delete(cellKey(start));
    while (piece.length < size) {
      const front = new Map<string, Cell>();
      for (const c of piece) for (const n of faceNeighbours(c)) if (free.has(cellKey(n))) front.set(cellKey(n), n);
      if (!front.size) return null;
      const key = rng.pick([...front.keys()].sort());
      free.delete(key);
      piece.push(front.get(key)!);
    }
    if (!pieceOk(piece, t)) return null;
    pieces.push(piece);
  }
  return free.size === 0 ? pieces : null;
}

/** A random polycube of `size` cubes inside a 3×3×3 block, allowed at the tier. */
function randomPiece(rng: Rng, size: number, t: TierSettings): Cell[] {
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
    if (pieceOk(piece, t)) return piece;
  }
}

/**
 * The size of a decoy: one cube more than any needed piece at L5 and L7. A decoy the size of a
 * needed piece almost never fits in no filling (Soma-like pieces fill the cube in hundreds to
 * thousands of ways: of the ten tri- and tetracubes, every one but the straight four fitted
 * some filling of a drawn L5 partition), and trying them made the generator ten times slower.
 * The certificate still decides every decoy (exact cover on every subset whose volume matches).
 */
const DECOY_SIZES = [5];

/** Random decoy candidates tried for one partition before the partition is given up. */
const DECOY_TRIES = 12;

/**
 * Decoy pieces, added one at a time, each kept only if the needed pieces stay the only subset
 * that fills the box (so no decoy fits into any filling): random pieces of sizes the needed
 * of {@link DECOY_SIZES}.
 */
function drawDecoys(rng: Rng, needed: readonly Cell[][], target: Cell[], t: TierSettings): Cell[][] | null {
  const out: Cell[][] = [];
  for (let k = 0; out.length < t.decoys && k < DECOY_TRIES; k++) {
    const p = randomPiece(rng, rng.pick(DECOY_SIZES), t);
    const all = [...needed, ...out, p];
    if (fillingSubsetCount(all, target, (1 << needed.length) - 1) !== 1) continue;
    out.push(p);
  }
  return out.length === t.decoys ? out : null;
}

/**
 * How many subsets of the pieces fill the target, stopping at 2: the certificate's subset test
 * without its packing count, cheap enough to run per decoy. `knownFilling` is the mask of a
 * subset known to fill it (the drawn partition), counted without a search.
 */
function fillingSubsetCount(pieces: readonly Cell[][], target: Cell[], knownFilling: number): number {
  let n = 1;
  for (let mask = 1; mask < 1 << pieces.length && n < 2; mask++) {
    if (mask === knownFilling) continue;
    const subset = pieces.filter((_, i) => mask & (1 << i)) as Cell[][];
    if (subset.reduce((v, p) => v + p.length, 0) !== target.length) continue;
    if (countPackings(subset, target, { limit: 1 }).count > 0) n++;
  }
  return n;
}

/** A drawn scene and the number of pieces its filling needs. */
export interface Draw {
  scene: A2Scene;
  /** Pieces the filling uses (every filling uses the same ones). */
  needed: number;
  /** The drawn packing built in the order the search found for it: a plan for the `+plan` reveal. */
  plan: Plan;
  attempt: number;
}

/**
 * One draw; a string says why it failed. What it returns already meets the tier: the decoys
 * were each kept only when the needed pieces stayed the only filling subset (with no decoys
 * that is trivially so), and the drawn partition itself — one packing of the box — has an order
 * gravity allows (`findOrder`). The filter re-checks both from the scene alone, with the full
 * certificate.
 */
function drawOnce(rng: Rng, t: TierSettings): Draw | string {
  const box = rng.pick(t.boxes);
  const target = boxCells(box);
  const needed = partition(rng, target, t.sizes[target.length], t);
  if (!needed) return 'partition failed';
  const order = findOrder(needed);
  if (!order) return 'the drawn packing has no order gravity allows';
  const decoys = drawDecoys(rng, needed, target, t);
  if (!decoys) return 'no decoy set keeps the needed pieces the only filling';
  const shapes = rng.shuffle([...needed.map((c) => ({ c, decoy: false })), ...decoys.map((c) => ({ c, decoy: true }))]);
  const colors = rng.shuffle(PIECE_COLORS).slice(0, shapes.length);
  const slots = rng.shuffle(SLOTS);
  const pieces: A2Piece[] = [];
  for (let i = 0; i < shapes.length; i++) {
    const cells = tableOrientation(rng, shapes[i].c);
    if (!cells) return 'a piece has no orientation that stands on the table';
    const [x, z] = slots[i];
    pieces.push({ name: colors[i].name, color: colors[i].color, cells, position: [round9(x), restingOriginHeight(cells), round9(z)], decoy: shapes[i].decoy });
  }
  // Scene index of each needed piece, in the partition's order.
  const sceneIndex = needed.map((c) => shapes.findIndex((sh) => sh.c === c));
  const steps = order.map((mv): PlanStep => {
    const piece = sceneIndex[mv.piece];
    const cells = needed[mv.piece];
    const { rotation, turns } = turnsOnto(pieces[piece].cells, cells);
    return { piece, rotation, turns, cells, cell: toAgentCell(referenceCube(cells), PLATE_GRID), from: mv.from };
  });
  const plan: Plan = { steps, decoys: shapes.flatMap((sh, i) => (sh.decoy ? [i] : [])), packing: -1, packingsWithoutOrder: 0 };
  return { scene: { box: { ...box }, pieces, decoys: t.decoys > 0, blueprint: t.blueprint }, needed: needed.length, plan, attempt: 0 };
}

/**
 * Why a scene does not meet its tier, or its certificate and plan when it does: exactly one
 * subset of the pieces fills the box, the decoy flags name the others, and some packing of it
 * can be built in an order gravity allows (the shortcut filter; the full certificate).
 */
export function sceneProblem(scene: A2Scene): string | { certificate: Certificate; plan: Plan } {
  const shapes = scene.pieces.map((p) => p.cells);
  const certificate = certify(shapes, boxCells(scene.box), { limit: GENERATOR_PACKINGS });
  if (certificate.fillingSubsets.length !== 1) return `${certificate.fillingSubsets.length} subsets of the pieces fill the box`;
  const plan = findPlan(shapes, certificate);
  if (!plan) return 'no packing can be built in an order gravity allows';
  const used = new Set(plan.steps.map((st) => st.piece));
  if (scene.pieces.some((p, i) => p.decoy === used.has(i))) return 'the decoy flags do not match the filling';
  return { certificate, plan };
}

/** Packings the filter collects to find a buildable one (the reference counts them all and collects as many). */
const GENERATOR_PACKINGS = PLAN_PACKINGS;

/**
 * Draws the scene of (seed, tier): attempt 0, 1, … from `redrawRng`, keeping the first that
 * meets the tier; `t`, the tier's settings, or L5's with a lever on (a study draws from L5's stream).
 */
export function drawScene(seed: number, tier: Tier, t: TierSettings = TIERS[tier]): Draw {
  const reasons: string[] = [];
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const rng = redrawRng('A2', tier, seed, attempt);
    const draw = drawOnce(rng, t);
    if (typeof draw === 'string') {
      reasons.push(draw);
      continue;
    }
    return { ...draw, attempt };
  }
  throw new SpaceActError('invalid-state', `A2 ${tier} seed ${seed}: no draw met the tier in ${MAX_ATTEMPTS} attempts (last: ${reasons[reasons.length - 1]})`, {
    rejections: reasons.slice(-10),
  });
}

/**
 * The action budget: the most placements a filling of the tier needs × this factor, refused
 * calls counted. Why 3 is
 * room for a player who looks and too little for one who maps the pieces by probing: README
 * "Budget".
 */
export const BUDGET_FACTOR = 3;

/** The `from` argument of `place`. */
const FROM_PARAMETER: JsonSchema = { enum: [...ENTRY_SIDES] };

function tools(s: A2Scene): ToolSpec[] {
  const names = s.pieces.map((p) => p.name);
  const place = placeParameters(names, PLATE_GRID) as JsonSchema & { properties: Record<string, JsonSchema> };
  place.properties.from = FROM_PARAMETER;
  return [
    {
      name: 'place',
      kind: 'discrete',
      description:
        "Lift a piece straight up from the table, turn it in the air by `turns` (quarter turns about fixed world axes, first one first, starting from the orientation it has on the table) and bring it into the cells whose reference cube (its lowest cube; of several, the leftmost; of several, the frontmost) is `cell` = [col, row, layer]: with `from` 'above' (the default) lowered straight down onto them; with 'left', 'right', 'front' or 'back' lowered beside the plate on that side at its final height and slid straight in. Touching anything on the way is a collision.",
      parameters: place,
    },
    {
      name: 'remove',
      kind: 'discrete',
      description: 'Lift a piece straight up off the plate and put it back where it lay on the table, as it lay. Touching anything on the way up is a collision.',
      parameters: removeParameters(names),
    },
  ];
}

/**
 * The rules: what the task is, never the box's size (except at L7, where it is in the drawing
 * only), how many pieces there are or how big they are (read from the picture: the issue-36
 * contract). The cube size is the same for every instance.
 */
function rulesText(s: A2Scene, budget: number): string {
  const cm = CELL * 100;
  const where = s.blueprint
    ? `The box is not marked on the plate: the second picture, a blueprint, shows it as line drawings without perspective from the front, from above and from the right side, at one scale, with dimension lines giving its width, depth and height (the front view looks at the side that faces the first view; in the top view that side is at the bottom; the right-side view has the front on its left).`
    : 'A translucent blue block on the plate shows the box to build.';
  return [
    `A square wooden build plate lies at the front of a table. Lines on it mark a grid of ${cm} cm cells; a small black square marks cell [0, 0, 0] at its front-left corner, a red strip runs along the front row and a blue strip along the left column, a ruler runs along its front edge and another stands upright at its front-left corner.`,
    `Pieces lie on the table behind the plate, each of a different colour and made of ${cm} cm cubes joined face to face (the seams between its cubes show as lines).`,
    `Goal: build a solid box of pieces on the plate, its front-left-bottom cube in cell [0, 0, 0], with every cell of the box filled and nothing outside it. ${where} ${s.decoys ? 'Not every piece is needed: some are decoys that fit in no filling of the box. ' : ''}The episode ends as soon as the box is complete.`,
    'Cells are named [col, row, layer]: col counts from the left (0 = the leftmost column as seen from the first view), row from the front (0 = the front row, along the red strip), layer from the bottom (0 = on the plate).',
    "place(piece, turns, cell, from) lifts the piece straight up, turns it in the air and brings it in. `turns` lists quarter turns about fixed world axes, applied one after the other to the orientation the piece has on the table (an empty list keeps that orientation): 'y+' turns it counter-clockwise as seen from above and 'y-' clockwise; 'x+' tips its top towards the front (towards the first view) and 'x-' towards the back; 'z+' rolls its top to the left (counter-clockwise as seen from the front) and 'z-' to the right. `cell` is where the piece's reference cube ends: the piece's lowest cube after turning; if several are lowest, the leftmost of those; if still several, the frontmost. `from` says how it comes in: 'above' (the default) lowers it straight down onto its cells; 'left', 'right', 'front' or 'back' lowers it beside the plate on that side, level with its cells, and slides it straight in.",
    'remove(piece) lifts a piece straight up off the plate and puts it back where it lay on the table.',
    'Gravity decides the order. A piece stays where it is put only when some of its cubes rest on the plate or on a piece already placed, directly below, and its centre of mass lies above the cubes that rest on something; a piece with nothing under it, or with its centre overhanging, cannot be put there. A piece cannot pass through another on its way in: a piece under an overhang must go in before the overhang, or slide in from a side with nothing in its way.',
    'Refused: a piece touching anything on its way (another piece or the plate); a piece that would stick out of the grid; a piece that would float or tip over. A refused call is undone, and the rest of that turn is not run; its result says only that the piece cannot go there that way (or cannot be lifted out), and the picture after it shows why.',
    `You have ${budget} actions in all: every place and remove counts, a refused one too; camera moves are free. When they are spent, the episode ends.`,
  ].join('\n');
}

function planText(s: A2Scene, plan: Plan): string {
  const steps = plan.steps.map(
    (st, i) => `${i + 1}. place ${s.pieces[st.piece].name} with turns [${st.turns.join(', ')}] at cell [${st.cell.join(', ')}] from ${st.from}`,
  );
  const decoys = plan.decoys.map((i) => s.pieces[i].name);
  return [
    'Build the box in this order (each piece must rest on the plate or on pieces already placed, and its path must be clear):',
    ...steps,
    decoys.length ? `Decoys, not used: ${decoys.join(', ')}.` : 'Every piece is used.',
  ].join('\n');
}

/** The rulers: along the plate's front edge (a tick per cell) and upright at its front-left corner (a tick per layer). */
function rulers(): RulerSpec[] {
  const w = (PLATE_GRID.cols * CELL) / 2;
  const d = (PLATE_GRID.rows * CELL) / 2;
  const [cx, cz] = PLATE_CENTRE;
  const front = round9(cz + d + PLATE_MARGIN * 0.55);
  const off = 0.012;
  return [
    { from: [round9(cx - w), round9(PLATE + 0.0003), front], to: [round9(cx + w), round9(PLATE + 0.0003), front], tickDir: [0, 0, 1], minor: CELL, major: CELL * 2 },
    {
      from: [round9(cx - w - off), PLATE, round9(cz + d + off)],
      to: [round9(cx - w - off), round9(PLATE + PLATE_GRID.layers * CELL), round9(cz + d + off)],
      tickDir: [-0.7071, 0, 0.7071],
      minor: CELL / 2,
      major: CELL,
    },
  ];
}

/** The instance of (seed, tier, lever): a lever study (`A2-L5+blueprint-s100`) is the seed's L5 draw with the lever on. */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<A2Scene> {
  const t = tierSettings('A2', TIERS, tier, lever, A2_LEVERS);
  const { scene, plan } = drawScene(seed, tier, t);
  // The same at every seed of a tier (a 2 × 3 × 4 box at L7 needs one piece fewer than the cube).
  const budget = t.maxNeeded * BUDGET_FACTOR;
  return makeInstance(family, tier, seed, {
    ...(lever ? { lever } : {}),
    // The same for every seed of a tier: no box size, no number of pieces.
    title: 'Cube assembly',
    rules: rulesText(scene, budget),
    budgets: { ...DEFAULT_BUDGETS, actions: budget },
    tools: tools(scene),
    camera: { initial: structuredClone(INITIAL_CAMERA), elevationRange: [0, 90] },
    rulers: rulers(),
    ground: { y: -0.02 },
    dynamic: false,
    scoring: 'graded',
    scene,
    reveal: { plan: planText(scene, plan) },
  });
}
