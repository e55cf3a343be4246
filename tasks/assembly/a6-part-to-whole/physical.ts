/**
 * The physical form of A6: a problem laid out on a table. The target stands on the board as a
 * translucent outline, in an orientation in which the correct pair can be assembled by lowering
 * its two pieces straight down (one after the other, each standing by itself); the four
 * options lie in four trays in a row behind the board, A to D from the left, piece 1 at the front of its tray
 * and piece 2 at the back, each in an orientation it stands in.
 *
 * The planner finds, for the tray that holds the answer, a packing of the target (the polycube
 * toolkit's exact cover) whose lowering order works, and turns it into `place` calls.
 */
import { SpaceActError } from '../../../core/errors.ts';
import { countPackings, normalize, rotate, shapeKey, type Cell } from '../../../solvers/polycube.ts';
import { redrawRng } from '../../../solvers/redraw.ts';
import { balancedOption } from '../../../core/balance.ts';
import { Rng } from '../../../core/rng.ts';
import type { LeverTable } from '../../levers.ts';
import type { Tier } from '../../types.ts';
import { cellKey, referenceCube, toAgentCell } from '../../kits/polycube-pieces/cells.ts';
import { restingOriginHeight } from '../../kits/polycube-pieces/pieces.ts';
import { matApply, ROTATIONS, transpose, turnsOnto } from '../../kits/polycube-pieces/rotations.ts';
import { centreOverSupport, restingCubes, tableOrientation } from '../../kits/polycube-pieces/statics.ts';
import type { PlaceStep } from '../../kits/polycube-pieces/tools.ts';
import { boardRotation, MAX_FOOTPRINT, MAX_GRID, MAX_LAYERS, PLATE_TOP, TRAYS, type A6Piece, type A6Tray, type BoardDims, type PhysicalScene } from './scene.ts';
import { drawProblem, LETTERS, type Problem, type ProblemSpec } from './problem.ts';
import { TARGET_KINDS, type TargetKind } from './shapes.ts';
import { round9 } from '../../../core/determinism.ts';

/** Piece colours: every tray's piece 1 is orange and piece 2 blue. */
export const PIECE_COLORS = ['#e8833a', '#3b7dd8'] as const;

/** What each tier asks of a physical draw. */
export interface PhysicalSpec extends ProblemSpec {
  /** `+rot`: the board is turned by one to three quarter turns. */
  turned: boolean;
}

/** The tiers' parameters (the question form uses the same problem sizes). */
export const TIER_SPECS: Record<Tier, PhysicalSpec> = {
  L1: { size: [6, 8], maxExtent: MAX_GRID, decoys: false, turned: false },
  L3: { size: [8, 11], maxExtent: MAX_GRID, decoys: true, turned: false },
  L5: { size: [10, 14], maxExtent: MAX_GRID, decoys: true, turned: false },
  L7: { size: [10, 14], maxExtent: MAX_GRID, decoys: true, turned: true },
};

/**
 * The levers A6 supports as single-factor studies over L5 (`A6-L5+rot-s100`, tasks/levers.ts):
 * `+rot` is its L7's turned board (in the question form, cameras that may look from below).
 */
export const A6_LEVERS: LeverTable<PhysicalSpec> = {
  '+rot': {
    description: 'L5 with the board turned by 90°, 180° or 270° on the table: its columns and rows must be read from its marks (question form: cameras may look from below).',
    apply: (s) => ({ ...s, turned: true }),
  },
};

/** One step of the assembly: which piece, how it is turned from its tray orientation, where it goes. */
export interface PlanStep extends PlaceStep {
  /** The piece's name. */
  piece: string;
}

/** An assembly of the correct pair by lowering. */
export interface AssemblyPlan {
  steps: PlanStep[];
  /** Packings of the target by the correct pair (all, symmetric copies included). */
  packings: number;
}

/** Whether `upper` can be lowered after `lower` is in place: no cube of `lower` above one of `upper` in a column. */
function lowersAfter(lower: readonly Cell[], upper: readonly Cell[]): boolean {
  const lowest = new Map<string, number>();
  for (const c of upper) {
    const col = `${c[0]},${c[2]}`;
    lowest.set(col, Math.min(lowest.get(col) ?? Infinity, c[1]));
  }
  return lower.every((c) => !(c[1] > (lowest.get(`${c[0]},${c[2]}`) ?? Infinity)));
}

/** Whether a piece stands when lowered onto what is placed already (rigid-body statics on flat supports). */
export function stands(cells: readonly Cell[], placed: ReadonlySet<string>): boolean {
  return centreOverSupport(cells, restingCubes(cells, placed));
}

/**
 * An order in which two pieces, filling the given cells, can be lowered straight down, each
 * standing by itself when it arrives: `[first, second]` as indices, or null.
 */
export function lowerOrder(parts: readonly Cell[][]): [number, number] | null {
  for (const [a, b] of [[0, 1], [1, 0]] as const) {
    if (!lowersAfter(parts[a], parts[b])) continue;
    if (!stands(parts[a], new Set())) continue;
    if (!stands(parts[b], new Set(parts[a].map(cellKey)))) continue;
    return [a, b];
  }
  return null;
}

/**
 * The reference assembly: the first packing of the target by the answer tray's pieces (in the
 * toolkit's order) that can be lowered in some order, as `place` steps. Null when none can.
 */
export function planAssembly(scene: PhysicalScene): AssemblyPlan | null {
  const tray = scene.trays[scene.answer];
  const shapes = tray.pieces.map((p) => p.cells);
  const { count, packings } = countPackings(shapes, scene.target, { collect: true });
  const toWorld = boardRotation(scene.board.turns);
  const toBoard = transpose(toWorld);
  for (const packing of packings!) {
    const order = lowerOrder(packing);
    if (!order) continue;
    const steps = order.map((i): PlanStep => {
      const cells = packing[i];
      const world = rotate(cells, toWorld);
      const { rotation, turns } = turnsOnto(tray.pieces[i].cells, world);
      const ref = matApply(toBoard, referenceCube(world)) as Cell;
      return { piece: tray.pieces[i].name, rotation, turns, cells, cell: toAgentCell(ref, scene.board) };
    });
    return { steps, packings: count };
  }
  return null;
}

/** Whether the target, in this orientation on the board, can be assembled from the answer's pieces by lowering. */
function assemblable(target: Cell[], pieces: readonly Cell[][]): boolean {
  const { packings } = countPackings(pieces.map((p) => p.slice()), target, { collect: true });
  return packings!.some((p) => lowerOrder(p) !== null);
}

/** Whether a piece in this orientation has a footprint that fits its slot on a tray. */
function fitsSlot(o: Cell[]): boolean {
  return Math.max(...o.map((c) => c[0])) < MAX_FOOTPRINT.x && Math.max(...o.map((c) => c[2])) < MAX_FOOTPRINT.z;
}

/** Lays a problem out on the table, or says why it cannot be. */
function layOut(rng: Rng, spec: PhysicalSpec, problem: Problem): PhysicalScene | string {
  const answerPieces = problem.options[problem.answer].pieces;
  // Orientations of the target on the board that fit the grid and can be assembled by lowering.
  const seen = new Set<string>();
  let target: Cell[] | null = null;
  for (const r of rng.shuffle(ROTATIONS.map((_, i) => i))) {
    const oriented = normalize(rotate(problem.target, ROTATIONS[r]));
    const k = shapeKey(oriented);
    if (seen.has(k)) continue;
    seen.add(k);
    const ext = [0, 1, 2].map((a) => Math.max(...oriented.map((c) => c[a])) + 1);
    if (ext[0] > MAX_GRID || ext[2] > MAX_GRID || ext[1] > MAX_LAYERS) continue;
    if (!assemblable(oriented, answerPieces)) continue;
    target = oriented;
    break;
  }
  if (!target) return `${problem.name}: no orientation on the board can be assembled by lowering`;
  const dims: BoardDims = {
    cols: Math.max(...target.map((c) => c[0])) + 1,
    layers: Math.max(...target.map((c) => c[1])) + 1,
    rows: Math.max(...target.map((c) => c[2])) + 1,
  };
  const turns = spec.turned ? rng.int(1, 3) : 0;
  const trays: A6Tray[] = [];
  for (let i = 0; i < 4; i++) {
    const pieces: A6Piece[] = [];
    for (let j = 0; j < 2; j++) {
      const cells = tableOrientation(rng, problem.options[i].pieces[j], fitsSlot);
      if (!cells) return `${problem.name}: a piece of option ${LETTERS[i]} stands in no orientation that fits its slot`;
      pieces.push({
        name: `${LETTERS[i]}${j + 1}`,
        color: PIECE_COLORS[j],
        cells,
        position: [TRAYS.x[i], round9(PLATE_TOP + restingOriginHeight(cells)), TRAYS.slotZ[j]],
      });
    }
    trays.push({ letter: LETTERS[i], pieces: [pieces[0], pieces[1]] });
  }
  return { form: 'physical', kind: problem.kind, name: problem.name, board: { ...dims, turns }, target, trays, answer: problem.answer };
}

/** Most draws tried before giving up (not reached for the seeds in use). */
const MAX_ATTEMPTS = 300;

/** The target family of a physical instance: drawn once per (tier, seed), uniform over the four. */
export function physicalKind(tier: Tier, seed: number): TargetKind {
  return TARGET_KINDS[Rng.forInstance('A6', tier, seed, 'kind').int(0, TARGET_KINDS.length - 1)];
}

/**
 * The answer's tray of a physical instance: uniform over A–D at every tier, a different tray at
 * each tier of one seed (`balancedOption`), drawn apart from the re-draws so they cannot skew it.
 */
export function physicalAnswer(tier: Tier, seed: number): number {
  return balancedOption('A6', seed, tier, 4);
}

/**
 * Draws the physical scene of (seed, tier): attempt 0, 1, … from `redrawRng` until a problem
 * certifies and lays out on the table with an assembly the planner finds. `spec`: the tier's
 * settings, or L5's with a lever on (a study draws from L5's streams).
 */
export function drawPhysical(seed: number, tier: Tier, spec: PhysicalSpec = TIER_SPECS[tier]): { scene: PhysicalScene; plan: AssemblyPlan; attempt: number } {
  const kind = physicalKind(tier, seed);
  const answer = physicalAnswer(tier, seed);
  const reasons: string[] = [];
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const rng = redrawRng('A6', tier, seed, attempt);
    const problem = drawProblem(rng, kind, spec, answer);
    if (typeof problem === 'string') {
      reasons.push(problem);
      continue;
    }
    const scene = layOut(rng, spec, problem);
    if (typeof scene === 'string') {
      reasons.push(scene);
      continue;
    }
    const plan = planAssembly(scene);
    if (!plan) {
      reasons.push(`${problem.name}: no packing can be lowered`);
      continue;
    }
    return { scene, plan, attempt };
  }
  throw new SpaceActError('invalid-state', `A6 ${tier} seed ${seed}: no draw worked in ${MAX_ATTEMPTS} attempts (last: ${reasons[reasons.length - 1]})`, {
    rejections: reasons.slice(-10),
  });
}
