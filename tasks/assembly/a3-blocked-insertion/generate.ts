/**
 * A3 generator: the tools and rules text an instance carries, and the draw of its scene — a
 * random partition of the box into polycube pieces, the pieces that start in the box (blockers
 * that every solution must lift out and put back, and at L5+ a decoy that never needs to move),
 * spare pieces that fit in no filling, table orientations and slots (some behind the wall at
 * L7), re-drawn deterministically until the tier's requirements hold, every piece that starts in
 * the box shows in the first view (`view.ts`), and the order certificate (`order.ts`) proves that
 * no monotone order exists and that the search's fewest moves are minimal among all play.
 */
import { SpaceActError } from '../../../core/errors.ts';
import type { Rng } from '../../../core/rng.ts';
import { round9 } from '../../../core/determinism.ts';
import { redrawRng } from '../../../solvers/redraw.ts';
import { canonical, countPackings, shapeKey, type Cell } from '../../../solvers/polycube.ts';
import type { RulerSpec } from '../../../sim/types.ts';
import { DEFAULT_BUDGETS, makeInstance } from '../../instance.ts';
import { tierSettings } from '../../levers.ts';
import type { FamilyDescriptor, Instance, Tier, ToolSpec } from '../../types.ts';
import { referenceCube, toAgentCell } from '../../kits/polycube-pieces/cells.ts';
import { subsetsWithVolume } from '../../kits/polycube-pieces/filling.ts';
import { blockCells, partitionBlock, randomPolycube } from '../../kits/polycube-pieces/partition.ts';
import { CELL, restingOriginHeight } from '../../kits/polycube-pieces/pieces.ts';
import { turnsOnto } from '../../kits/polycube-pieces/rotations.ts';
import { hiddenBehindWall } from '../../kits/polycube-pieces/sight.ts';
import { tableOrientation } from '../../kits/polycube-pieces/statics.ts';
import { placeParameters, removeParameters } from '../../kits/polycube-pieces/tools.ts';
import { breadthFirst } from '../../../solvers/discrete-search/index.ts';
import { START_PIECE_SEEN_ESTIMATE, startPiecesSeenPixels } from './view.ts';
import { above, MAX_PACKINGS, orderCertificate, orderProblem, packingLowerBound, type OrderCertificate, type OrderMove } from './order.ts';
import {
  boxTop, CELL_MAX, FLOOR, FRONT_RIM, HIDDEN_SLOTS, HIDE_WALL_BOX, INITIAL_CAMERA, TABLE_RULER, TIER_SPECS, VISIBLE_SLOTS, WALL, A3_LEVERS,
  type A3Piece, type A3Scene, type TierSpec,
} from './scene.ts';

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
const MAX_ATTEMPTS = 3000;

/**
 * The action budget: this factor × the most moves a reference of the tier can need, refused
 * calls counted. Why 3 is room for a player who looks and too little for one who maps the pieces
 * by probing: README "Budget".
 */
export const BUDGET_FACTOR = 3;

/**
 * The most moves a reference of the tier needs: each table piece of the filling placed once,
 * each blocker lifted out and put back. The budget is the same for every seed of a tier, so the
 * rules carry no count that varies with the seed.
 */
export function tierMoves(tier: Tier): number {
  const spec = TIER_SPECS[tier];
  return spec.pieces[1] - spec.blockers - spec.decoys + 2 * spec.blockers;
}

/** Random partitions tried within one draw. */
const PARTITION_TRIES = 40;

/** Random spare candidates tried for one draw before it is given up. */
const SPARE_TRIES = 12;

function canonicalKey(cells: readonly Cell[]): string {
  return shapeKey(canonical(cells));
}

/** Every k-subset of 0..n-1, in lexicographic order. */
function combinations(n: number, k: number): number[][] {
  const out: number[][] = [];
  const rec = (from: number, acc: number[]): void => {
    if (acc.length === k) {
      out.push(acc.slice());
      return;
    }
    for (let i = from; i < n; i++) rec(i + 1, [...acc, i]);
  };
  rec(0, []);
  return out;
}

/**
 * The pieces (by index into `packing`) to start in the box: the first subset, in a random order,
 * that can stand there alone (lowered in some order, each resting), in which exactly the tier's
 * number must move in every solution (the lower bound's fixpoint) and the rest never need to,
 * and, when the tier asks, under which a piece that starts on the table lies on top of a blocker
 * (so it goes in only after that blocker is back). Null when no subset does.
 */
function chooseStarters(rng: Rng, packing: readonly Cell[][], spec: TierSpec): number[] | null {
  const n = packing.length;
  for (const subset of rng.shuffle(combinations(n, spec.blockers + spec.decoys))) {
    const inSet = new Set(subset);
    const alone = packing.map((c, p) => (inSet.has(p) ? c : null));
    if (!breadthFirst(orderProblem(alone, 0, true)).solvable) continue;
    const home = alone;
    const { mustMove } = packingLowerBound(packing, home);
    if (mustMove.length !== spec.blockers) continue;
    if (spec.interleave) {
      const onTop = packing.some((c, x) => !inSet.has(x) && mustMove.some((b) => above(c, packing[b])));
      if (!onTop) continue;
    }
    return subset;
  }
  return null;
}

/** Spare pieces of sizes the needed pieces have, each kept only if it fits in no filling (no subset with it fills the box) and it is congruent to no other piece. */
function drawSpares(rng: Rng, needed: readonly Cell[][], spec: TierSpec): Cell[][] | null {
  const taken = new Set(needed.map(canonicalKey));
  const out: Cell[][] = [];
  const sizes = needed.map((p) => p.length);
  const target = blockCells(spec.box);
  for (let t = 0; out.length < spec.spares && t < SPARE_TRIES; t++) {
    const p = randomPolycube(rng, rng.pick(sizes));
    const k = canonicalKey(p);
    if (taken.has(k) || !onlyFilling([...needed, ...out, p], needed.length, target)) continue;
    taken.add(k);
    out.push(p);
  }
  return out.length === spec.spares ? out : null;
}

/** Whether the only subset of `pieces` that fills `target` is the first `needed` of them. */
function onlyFilling(pieces: readonly Cell[][], needed: number, target: Cell[]): boolean {
  return subsetsWithVolume(pieces, target.length).every((s) => (s.length === needed && s.every((i) => i < needed)) || countPackings(s.map((i) => pieces[i]), target, { limit: 1 }).count === 0);
}

/** A drawn scene with its order certificate. */
export interface Draw {
  scene: A3Scene;
  certificate: OrderCertificate;
  attempt: number;
}

/**
 * One draw: a partition into pairwise different pieces whose filling is unique, the pieces that
 * start in the box, spares that keep the filling unique, then table orientations, colours and
 * slots. A string says why the draw failed.
 */
function drawOnce(rng: Rng, spec: TierSpec): A3Scene | string {
  // Most random partitions leave a piece outside the size range: retry on the same stream.
  let needed: Cell[][] | null = null;
  for (let t = 0; t < PARTITION_TRIES && !needed; t++) needed = partitionBlock(rng, spec.box, spec.sizes, spec.pieces);
  if (!needed) return 'partition outside the size range';
  if (new Set(needed.map(canonicalKey)).size !== needed.length) return 'two pieces of the same shape';
  // The cheap test first: whether some pieces can start in the box as the tier wants.
  const starters = chooseStarters(rng, needed, spec);
  if (!starters) return 'no set of starting pieces meets the tier';
  if (countPackings(needed, blockCells(spec.box), { limit: MAX_PACKINGS + 1 }).count > MAX_PACKINGS) return 'too many packings to certify';
  const spares = drawSpares(rng, needed, spec);
  if (!spares) return 'no spare keeps the filling unique';
  const all = [...needed, ...spares];
  const order = rng.shuffle(all.map((_, i) => i));
  const colors = rng.shuffle(PIECE_COLORS).slice(0, all.length);
  const startSet = new Set(starters);
  // Pieces that start on the table; the +occ tier hides some of them, at least one needed.
  const onTable = order.filter((i) => !startSet.has(i));
  const hide = new Set<number>();
  if (spec.hidden > 0) {
    const neededOnTable = onTable.filter((i) => i < needed.length);
    hide.add(rng.pick(neededOnTable));
    for (const i of rng.shuffle(onTable)) if (hide.size < spec.hidden) hide.add(i);
  }
  const visibleSlots = rng.shuffle(VISIBLE_SLOTS);
  const hiddenSlots = rng.shuffle(HIDDEN_SLOTS);
  const fits = (o: Cell[]): boolean => [0, 2].every((a) => Math.max(...o.map((c) => c[a])) <= 2);
  const pieces: A3Piece[] = [];
  for (let slot = 0; slot < order.length; slot++) {
    const i = order[slot];
    const cells = tableOrientation(rng, all[i], fits);
    if (!cells) return 'a piece has no orientation that stands on the table';
    const hidden = hide.has(i);
    const [x, z] = hidden ? hiddenSlots.pop()! : visibleSlots.pop()!;
    let start: A3Piece['start'] = null;
    if (startSet.has(i)) {
      const { turns } = turnsOnto(cells, needed[i]);
      start = { turns, cell: toAgentCell(referenceCube(needed[i]), spec.box) };
    }
    pieces.push({ name: colors[slot].name, color: colors[slot].color, cells, position: [round9(x), restingOriginHeight(cells), round9(z)], hidden, start });
  }
  return { box: { ...spec.box }, pieces, spares: spec.spares > 0, wall: spec.hidden > 0 };
}

/** Why a scene does not meet its tier, or its certificate when it does. */
export function sceneProblem(scene: A3Scene, tier: Tier, spec: TierSpec = TIER_SPECS[tier]): string | OrderCertificate {
  // The cheap test first: a piece standing in the box must show in the first view (a flat piece
  // under another shows only its front cube's strip above the rim), or the agent cannot tell
  // which cells it fills.
  const seenPixels = startPiecesSeenPixels(scene, INITIAL_CAMERA);
  const buried = scene.pieces.findIndex((_, p) => seenPixels[p] !== null && seenPixels[p]! < START_PIECE_SEEN_ESTIMATE);
  if (buried >= 0) return `${scene.pieces[buried].name} in the box would show about ${Math.round(seenPixels[buried]!)} pixels in the first view`;
  const cert = orderCertificate(scene);
  if (cert.fillingSubsets.length !== 1) return `${cert.fillingSubsets.length} subsets of the pieces fill the box`;
  if (!cert.complete) return 'too many packings to certify';
  if (!cert.best) return 'no order fills the box';
  if (!cert.monotoneImpossible) return 'a monotone order fills the box';
  if (!cert.optimal) return `the search's fewest moves (${cert.best.length}) exceed the lower bound (${cert.lowerBound})`;
  if (cert.mustMove.length !== spec.blockers) return `${cert.mustMove.length} pieces must move, not ${spec.blockers}`;
  const seen = scene.pieces.find((p) => p.hidden && !hiddenBehindWall(p.cells, p.position, INITIAL_CAMERA, HIDE_WALL_BOX));
  if (seen) return `${seen.name} is meant to be hidden but is in sight from the first view`;
  return cert;
}

/**
 * Draws the scene of (seed, tier): attempt 0, 1, … from `redrawRng`, keeping the first that
 * meets the tier and whose certificate holds.
 */
export function drawScene(seed: number, tier: Tier, spec: TierSpec = TIER_SPECS[tier]): Draw {
  const reasons: string[] = [];
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const rng = redrawRng('A3', tier, seed, attempt);
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
    return { scene, certificate: problem, attempt };
  }
  throw new SpaceActError('invalid-state', `A3 ${tier} seed ${seed}: no draw met the tier in ${MAX_ATTEMPTS} attempts (last: ${reasons[reasons.length - 1]})`, {
    rejections: reasons.slice(-10), counts: Object.entries(reasons.reduce((m, r) => ({ ...m, [r.replace(/[0-9]+/g, "#")]: (m[r.replace(/[0-9]+/g, "#")] ?? 0) + 1 }), {} as Record<string, number>)),
  });
}

/** The piece names as the tools list them: in alphabetical order, so the list says nothing of where a piece starts. */
export function toolNames(s: A3Scene): string[] {
  return s.pieces.map((p) => p.name).sort();
}

function tools(s: A3Scene): ToolSpec[] {
  const names = toolNames(s);
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
      description:
        'Lift a piece straight up out of the box and set it down on the table: a piece that started on the table goes back where it lay, as it lay; a piece that started in the box goes to its own free place on the table (the same place every time). Touching anything on the way up is a collision.',
      parameters: removeParameters(names),
    },
  ];
}

/**
 * The rules: what the task is, never the box's size, how many pieces there are, which of them
 * block, or how big they are (read from the picture: the issue-36 contract).
 */
function rulesText(s: A3Scene, budget: number): string {
  const cm = CELL * 100;
  return [
    `A wooden box without a lid stands on a table. Its inside is a block of cells, each a ${cm} cm cube: lines on the box floor mark the cells, the rulers on the box's front and left rims have a tick every ${cm} cm, and a small black square on the dark front rim marks column 0. The box's front wall is the dark one: a low rim, so the inside can be seen over it.`,
    `Pieces made of ${cm} cm cubes joined face to face (the seams between its cubes show as lines), each of a different colour, lie on the table; some pieces already stand in the box.${s.wall ? ' Some pieces lie behind the grey wall at the back, out of sight from the first view: move the camera to see them.' : ''}`,
    `Goal: fill every cell of the box with pieces. ${s.spares ? 'Not every piece is needed: some are spares that fit in no filling of the box. ' : ''}A piece already in the box may stand where another has to go in underneath it: then it must be lifted out first and put back later. The episode ends as soon as the box is full.`,
    'Cells are named [col, row, layer]: col counts from the left (0 = the leftmost column as seen from the first view), row from the front (0 = the row along the dark front wall), layer from the bottom (0 = on the box floor).',
    "place(piece, turns, cell) lifts the piece straight up, turns it in the air, carries it over the box and lowers it straight down. `turns` lists quarter turns about fixed world axes, applied one after the other to the orientation the piece has on the table (an empty list keeps that orientation): 'y+' turns it counter-clockwise as seen from above and 'y-' clockwise; 'x+' tips its top towards the front (towards the first view) and 'x-' towards the back; 'z+' rolls its top to the left (counter-clockwise as seen from the front) and 'z-' to the right. `cell` is where the piece's reference cube ends: the piece's lowest cube after turning; if several are lowest, the leftmost of those; if still several, the frontmost. The piece comes to rest on what is under it.",
    'remove(piece) lifts a piece straight up out of the box and sets it down on the table: back where it lay if it started on the table, or on its own free place on the table if it started in the box (turned as it lies there, which is the orientation its `turns` start from).',
    'A piece can only go straight down and come straight up, so a cell under part of another piece must be filled before that piece goes in, and a piece with another on top of it cannot be lifted out. A piece stays where it is put when its cubes rest on the box floor or on pieces already in the box and its centre of mass lies above the cubes that rest on something.',
    'Refused: a piece touching anything on its way down or up (another piece or the box); a piece that would stick out of the box; a piece that would fall or tip over. A refused call is undone, and the rest of that turn is not run; its result says only that the piece does not fit there (or cannot be lifted out), and the picture after it shows why.',
    `You have ${budget} actions in all: every place and remove counts, a refused one too; when they are spent, the episode ends.`,
  ].join('\n');
}

function planText(s: A3Scene, cert: OrderCertificate): string {
  const steps = referenceCalls(s, cert).map((c, i) =>
    c.tool === 'remove' ? `${i + 1}. remove ${c.args.piece}` : `${i + 1}. place ${c.args.piece} with turns [${(c.args.turns as string[]).join(', ')}] at cell [${(c.args.cell as number[]).join(', ')}]`,
  );
  return ['Fill the box in this order (a piece in the box that stands over a cell still to be filled comes out first and goes back later):', ...steps].join('\n');
}

/** The reference's calls: the order search's shortest moves, each a `place` into the packing's cells or a `remove`. */
export function referenceCalls(s: A3Scene, cert: OrderCertificate): Array<{ tool: string; args: Record<string, unknown> }> {
  if (!cert.best) throw new SpaceActError('invalid-state', 'no order fills the box');
  return cert.best.moves.map((m: OrderMove) => {
    const piece = s.pieces[m.piece];
    if (m.kind === 'remove') return { tool: 'remove', args: { piece: piece.name } };
    const cells = cert.packing[m.piece]!;
    const { turns } = turnsOnto(piece.cells, cells);
    return { tool: 'place', args: { piece: piece.name, turns, cell: toAgentCell(referenceCube(cells), s.box) } };
  });
}

function rulers(s: A3Scene): RulerSpec[] {
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

/** The instance of (seed, tier). */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<A3Scene> {
  // A lever study draws from its tier's stream (L5's); its budget is L5's (hiding moves no piece).
  const { scene, certificate } = drawScene(seed, tier, tierSettings('A3', TIER_SPECS, tier, lever, A3_LEVERS));
  return instanceOf(family, tier, seed, scene, certificate, lever);
}

/** The instance carrying a drawn scene and its certificate (the generator's, or a candidate's with its pieces renamed). */
export function instanceOf(family: FamilyDescriptor, tier: Tier, seed: number, scene: A3Scene, certificate: OrderCertificate, lever?: string): Instance<A3Scene> {
  const budget = tierMoves(tier) * BUDGET_FACTOR;
  return makeInstance(family, tier, seed, {
    ...(lever ? { lever } : {}),
    // The same for every seed of a tier: no box size, no number of pieces.
    title: 'Blocked insertion',
    rules: rulesText(scene, budget),
    budgets: { ...DEFAULT_BUDGETS, actions: budget },
    tools: tools(scene),
    camera: { initial: structuredClone(INITIAL_CAMERA), elevationRange: [0, 90] },
    rulers: rulers(scene),
    ground: { y: -0.02 },
    dynamic: false,
    scoring: 'graded',
    scene,
    reveal: { plan: planText(scene, certificate) },
  });
}
