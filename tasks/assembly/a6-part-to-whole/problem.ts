/**
 * One A6 problem, as the polycube seed defines it: a target polycube, its cut into two
 * connected components (the correct option), and three distractors made by moving one cube or
 * by replacing a component with its mirror image; certified with the polycube toolkit so that
 * exactly one of the four options can form the target under the 24 rotations and integer
 * translations, with no overlap and no gap.
 *
 * Beyond the seed: distractors may start from other cuts of the same target, and draws where
 * the correct option is the one whose pieces recur most (or least) among the other options are
 * rejected — when every distractor is a one-cube edit of the answer, the answer is the option
 * the others have in common, a tell that needs no assembly reasoning. At the decoy tiers every
 * piece of every option also fits inside the target on its own, and moved cubes stay inside
 * the bounds of the piece they join where they can, so no piece is ruled out by a bump outside
 * the target's proportions.
 */
import { canonical, countPackings, isConnected, normalize, orientations, shapeKey, type Cell } from '../../../solvers/polycube.ts';
import type { Rng } from '../../../core/rng.ts';
import { cellKey, faceNeighbours } from '../../kits/polycube-pieces/cells.ts';
import { drawTarget, type TargetKind } from './shapes.ts';

/** One option: two components, and how it was made (for plans and reports, never shown as a hint). */
export interface Option {
  pieces: [Cell[], Cell[]];
  made: string;
}

/** A certified problem. */
export interface Problem {
  kind: TargetKind;
  /** What the target is, in a few words. */
  name: string;
  /** The target, normalised. */
  target: Cell[];
  /** The correct cut in the target's own coordinates (each part a subset of `target`). */
  cut: [Cell[], Cell[]];
  /** The four options in letter order (pieces normalised). */
  options: Option[];
  /** Index of the correct option. */
  answer: number;
}

/** What a tier asks of a problem. */
export interface ProblemSpec {
  /** Cubes in the target, inclusive range. */
  size: [number, number];
  /** Longest side of the target's bounding box, in cubes. */
  maxExtent: number;
  /** Decoy tiers: every piece fits in the target alone, and moved cubes stay inside their piece's bounds where they can. */
  decoys: boolean;
}

/** Names of the letters of the options. */
export const LETTERS = ['A', 'B', 'C', 'D'] as const;

/** A letter of an option. */
export type Letter = (typeof LETTERS)[number];

function canonKey(cells: readonly Cell[]): string {
  return shapeKey(canonical(cells));
}

/** The mirror image of a shape (x → −x), normalised. */
export function mirrored(cells: readonly Cell[]): Cell[] {
  return normalize(cells.map((c) => [-c[0] + 0, c[1], c[2]] as Cell));
}

/** Whether a shape differs from its mirror image under every rotation (it is chiral). */
export function isChiral(cells: readonly Cell[]): boolean {
  return canonKey(cells) !== canonKey(mirrored(cells));
}

/** Whether `piece` fits inside `target` on its own in some rotation and integer shift. */
export function fitsInside(piece: readonly Cell[], target: readonly Cell[]): boolean {
  const have = new Set(target.map(cellKey));
  for (const o of orientations(piece)) {
    const a = o[0];
    for (const t of target) {
      if (o.every((c) => have.has(cellKey([c[0] - a[0] + t[0], c[1] - a[1] + t[1], c[2] - a[2] + t[2]])))) return true;
    }
  }
  return false;
}

/** Whether an option's two pieces can form the target (the toolkit's exact cover; mirrors never allowed). */
export function formsTarget(pieces: readonly Cell[][], target: readonly Cell[]): boolean {
  return countPackings(pieces.map((p) => p.map((c) => [...c] as Cell)), target.map((c) => [...c] as Cell), { limit: 1 }).count > 0;
}

/** An unordered pair of shapes up to rotation, as a key. */
function pairKey(pieces: readonly Cell[][]): string {
  return pieces.map(canonKey).sort().join(' + ');
}

/** Cells of a shape whose removal leaves it connected (and at least `least` cubes). */
function removable(cells: readonly Cell[], least: number): number[] {
  if (cells.length - 1 < least) return [];
  return cells.map((_, i) => i).filter((i) => isConnected(cells.filter((_, j) => j !== i)));
}

/** Free cells next to a shape, in a fixed order. */
function freeNeighbours(cells: readonly Cell[], exclude: readonly Cell[] = []): Cell[] {
  const taken = new Set([...cells, ...exclude].map(cellKey));
  const out = new Map<string, Cell>();
  for (const c of cells) for (const n of faceNeighbours(c)) if (!taken.has(cellKey(n))) out.set(cellKey(n), n);
  return [...out.keys()].sort().map((k) => out.get(k)!);
}

/** Whether a cell lies inside the bounding box of a shape. */
function insideBox(c: readonly number[], cells: readonly Cell[]): boolean {
  return [0, 1, 2].every((a) => c[a] >= Math.min(...cells.map((d) => d[a])) && c[a] <= Math.max(...cells.map((d) => d[a])));
}

/**
 * Shuffles candidate moves; with `tight`, moves that put the cube inside the bounding box of the
 * shape it joins come first, so a moved cube does not stick out (a piece that grows past the
 * target's proportions is easy to rule out at a glance).
 */
function order<T>(rng: Rng, items: readonly T[], tight: boolean, inside: (x: T) => boolean): T[] {
  const shuffled = rng.shuffle(items);
  return tight ? [...shuffled.filter(inside), ...shuffled.filter((x) => !inside(x))] : shuffled;
}

/** One cube of a component moved to another place on the same component (a different shape). */
function moveWithin(rng: Rng, comp: readonly Cell[], tight: boolean): Cell[] | null {
  const options: Array<[number, Cell]> = [];
  for (const i of removable(comp, 1)) {
    const rest = comp.filter((_, j) => j !== i);
    for (const n of freeNeighbours(rest, [comp[i]])) options.push([i, n]);
  }
  for (const [i, n] of order(rng, options, tight, ([, n]) => insideBox(n, comp))) {
    const moved = [...comp.filter((_, j) => j !== i), n];
    if (canonKey(moved) !== canonKey(comp)) return normalize(moved);
  }
  return null;
}

/** One cube taken from component `from` and stuck onto component `to` somewhere else. */
function moveBetween(rng: Rng, from: readonly Cell[], to: readonly Cell[], tight: boolean): [Cell[], Cell[]] | null {
  const takes = rng.shuffle(removable(from, 2));
  const puts = order(rng, freeNeighbours(to), tight, (n) => insideBox(n, to));
  for (const i of takes) {
    for (const n of puts) {
      // Putting the cube back where it was would rebuild the target's own cut.
      if (cellKey(n) === cellKey(from[i])) continue;
      return [normalize(from.filter((_, j) => j !== i)), normalize([...to, n])];
    }
  }
  return null;
}

/** The changes a distractor is made with. */
type Change = 'mirror' | 'within' | 'between';

/** A distractor made from a cut by one change (drawn when not given), as the seed makes them. */
function distractorFrom(rng: Rng, cut: readonly Cell[][], base: string, tight: boolean, given?: Change): Option | null {
  const change = given ?? rng.pick(['mirror', 'within', 'between'] as const);
  const pieces: Cell[][] = [normalize(cut[0]), normalize(cut[1])];
  if (change === 'mirror') {
    // Only a chiral part changes when mirrored.
    const chiral = [0, 1].filter((i) => isChiral(pieces[i]));
    if (!chiral.length) return null;
    const which = rng.pick(chiral);
    pieces[which] = mirrored(pieces[which]);
    return { pieces: [pieces[0], pieces[1]], made: `${base} with part ${which + 1} replaced by its mirror image` };
  }
  const which = rng.int(0, 1);
  const other = 1 - which;
  if (change === 'within') {
    const moved = moveWithin(rng, cut[which], tight);
    if (!moved) return null;
    pieces[which] = moved;
    return { pieces: [pieces[0], pieces[1]], made: `${base} with one cube of part ${which + 1} moved` };
  }
  const moved = moveBetween(rng, cut[which], cut[other], tight);
  if (!moved) return null;
  pieces[which] = moved[0];
  pieces[other] = moved[1];
  return { pieces: [pieces[0], pieces[1]], made: `${base} with one cube moved from part ${which + 1} to part ${other + 1}` };
}

/**
 * For each option, how many of its pieces are congruent to a piece of another option. When the
 * correct option alone has the most (every distractor an edit of it) or the least, the options'
 * overlap gives the answer away.
 */
export function recurrence(options: readonly Option[]): number[] {
  const keys = options.map((o) => o.pieces.map(canonKey));
  return keys.map((ks, i) => ks.filter((k) => keys.some((other, j) => j !== i && other.includes(k))).length);
}

/** Why the recurrence of pieces singles out the answer, or null when it does not. */
export function recurrenceTell(options: readonly Option[], answer: number): string | null {
  const r = recurrence(options);
  const others = r.filter((_, i) => i !== answer);
  if (others.every((v) => v < r[answer])) return `the correct option alone shares most pieces with the others (${r.join(', ')})`;
  if (others.every((v) => v > r[answer])) return `the correct option alone shares fewest pieces with the others (${r.join(', ')})`;
  return null;
}

/** Checks a problem: exactly the answer forms the target. Returns the options that do. */
export function optionsFormingTarget(target: readonly Cell[], options: readonly Option[]): number[] {
  return options.map((o, i) => (formsTarget(o.pieces, target) ? i : -1)).filter((i) => i >= 0);
}

/** Distractor candidates tried before a draw is given up. */
const DISTRACTOR_TRIES = 80;

/**
 * Draws one problem of family `kind` with the correct option at `answer`, or a string saying
 * why this draw failed (the caller re-draws with the next stream).
 */
export function drawProblem(rng: Rng, kind: TargetKind, spec: ProblemSpec, answer: number): Problem | string {
  const target = drawTarget(rng, kind, spec.size);
  if (!target) return `${kind}: no target in the size range`;
  const extent = Math.max(...[0, 1, 2].map((a) => Math.max(...target.cells.map((c) => c[a])) + 1));
  if (extent > spec.maxExtent) return `${target.name}: ${extent} cubes long, more than ${spec.maxExtent}`;
  const cut = target.split(rng);
  if (!cut) return `${target.name}: no usable cut`;
  const correct: Option = { pieces: [normalize(cut[0]), normalize(cut[1])], made: 'the cut of the target' };
  const seen = new Set([pairKey(correct.pieces)]);
  // Other cuts of the same target, for distractors that are not all edits of the answer.
  const bases: Array<{ cut: Cell[][]; name: string }> = [{ cut, name: 'the correct cut' }];
  for (let t = 0; t < 6 && bases.length < 4; t++) {
    const other = target.split(rng);
    if (other && !bases.some((b) => pairKey(b.cut.map((p) => normalize(p))) === pairKey(other.map((p) => normalize(p))))) {
      bases.push({ cut: other, name: 'another cut of the target' });
    }
  }
  const distractors: Option[] = [];
  const accept = (d: Option | null): boolean => {
    if (!d) return false;
    const k = pairKey(d.pieces);
    if (seen.has(k)) return false;
    if (d.pieces.some((p) => !isConnected(p))) return false;
    if (spec.decoys && d.pieces.some((p) => !fitsInside(p, target.cells))) return false;
    if (formsTarget(d.pieces, target.cells)) return false;
    seen.add(k);
    distractors.push(d);
    return true;
  };
  const pickBase = (): (typeof bases)[number] => (rng.next() < 0.6 && bases.length > 1 ? rng.pick(bases.slice(1)) : bases[0]);
  // Mirror images are the rarer change (only chiral parts have one): take one first when some cut allows it.
  for (let t = 0; t < 4 && distractors.length === 0; t++) {
    const base = pickBase();
    accept(distractorFrom(rng, base.cut, base.name, spec.decoys, 'mirror'));
  }
  for (let t = 0; t < DISTRACTOR_TRIES && distractors.length < 3; t++) {
    const base = pickBase();
    accept(distractorFrom(rng, base.cut, base.name, spec.decoys));
  }
  if (distractors.length < 3) return `${target.name}: only ${distractors.length} distractors`;
  const order = rng.shuffle(distractors);
  const options: Option[] = [];
  for (let i = 0; i < 4; i++) options.push(i === answer ? correct : order.shift()!);
  // Which component is shown first is drawn per option, so order carries nothing.
  for (const o of options) if (rng.next() < 0.5) o.pieces = [o.pieces[1], o.pieces[0]];
  const tell = recurrenceTell(options, answer);
  if (tell) return `${target.name}: ${tell}`;
  const forming = optionsFormingTarget(target.cells, options);
  if (forming.length !== 1 || forming[0] !== answer) return `${target.name}: options ${forming.join(', ')} form the target`;
  return { kind, name: target.name, target: target.cells, cut: [cut[0], cut[1]], options, answer };
}
