/**
 * Exact handedness and rotation certificates for polycubes: mirror images, chirality, which
 * proper rotations carry one shape onto another and by how much they turn it, and the one-cube
 * edits ("near misses") of a shape. Everything is integer arithmetic on cells, so every answer
 * is exact.
 *
 * Why the 24 cube rotations suffice. Two parts are copies of each other when some proper rigid
 * motion (a rotation of determinant +1, then a translation) carries the cube centres of one onto
 * those of the other. Such a motion maps the vectors between neighbouring cubes (±unit axis
 * vectors) onto such vectors. A polycube that is not a straight bar has neighbours along at
 * least two axes; the motion then maps two axes to axes, and the third (their cross product,
 * since the determinant is +1) as well, so its rotation is one of the 24 signed permutation
 * matrices of determinant +1. A straight bar is its own mirror image and never chiral. So
 * comparing canonical forms under the 24 rotations decides "proper copy" exactly, whatever turn
 * about the vertical a part is given on the table on top of its cube rotation.
 */
import { SpaceActError } from '../core/errors.ts';
import { canonical, isConnected, normalize, rotate, rotations24, shapeKey, type Cell, type Rotation } from './polycube.ts';

/** The mirror image of a shape: x → −x (any reflection gives the same shape up to rotation). */
export function mirrorCells(cells: readonly Cell[]): Cell[] {
  return normalize(cells.map(([x, y, z]) => [-x + 0, y, z] as Cell));
}

/** A key equal for two shapes exactly when a proper rotation and a translation carry one onto the other. */
export function properKey(cells: readonly Cell[]): string {
  return shapeKey(canonical(cells));
}

/** Whether `a` and `b` are the same shape up to proper rotation and translation (mirror images are different). */
export function properlyCongruent(a: readonly Cell[], b: readonly Cell[]): boolean {
  return a.length === b.length && properKey(a) === properKey(b);
}

/**
 * Whether a shape is chiral: no proper rotation carries it onto its mirror image. A shape that
 * is not chiral makes a mirror-image question void (its mirror copy is also a rotated copy).
 */
export function isChiral(cells: readonly Cell[]): boolean {
  return !properlyCongruent(cells, mirrorCells(cells));
}

/** How a part relates to a shape: a proper copy, its mirror image, or something else. */
export type Handedness = 'copy' | 'mirror' | 'other';

/** Whether `part` is a proper copy of `shape`, its mirror image, or neither (for a chiral shape the first two exclude each other). */
export function handednessOf(shape: readonly Cell[], part: readonly Cell[]): Handedness {
  if (properlyCongruent(shape, part)) return 'copy';
  if (properlyCongruent(mirrorCells(shape), part)) return 'mirror';
  return 'other';
}

/** The cube rotations `M` with `M · from` equal to `to` up to translation (empty when `to` is not a proper copy of `from`). */
export function rotationsOnto(from: readonly Cell[], to: readonly Cell[]): Rotation[] {
  const want = shapeKey(to);
  return rotations24().filter((m) => shapeKey(rotate(from, m)) === want);
}

/** The proper rotations that carry a shape onto itself (its symmetry group; the identity at least). */
export function rotationSymmetries(cells: readonly Cell[]): Rotation[] {
  return rotationsOnto(cells, cells);
}

/** A 3×3 real rotation matrix, row-major (`p' = M p`). */
export type Mat3 = readonly number[];

/** Matrix product `a · b`. */
export function mat3Mul(a: Mat3, b: Mat3): number[] {
  const out = new Array<number>(9).fill(0);
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) for (let k = 0; k < 3; k++) out[r * 3 + c] += a[r * 3 + k] * b[k * 3 + c];
  return out;
}

/** The turn about the vertical (world Y) by `deg` degrees, counter-clockwise seen from above. */
export function yawMatrix(deg: number): number[] {
  const a = (deg * Math.PI) / 180;
  const c = Math.cos(a);
  const s = Math.sin(a);
  // Rotation about +Y: x' = c x + s z, z' = −s x + c z.
  return [c, 0, s, 0, 1, 0, -s, 0, c];
}

/** The angle of a rotation matrix, degrees in [0, 180], and its unit axis (any unit vector for the identity). */
export function rotationAngleAxis(m: Mat3): { angleDeg: number; axis: [number, number, number] } {
  const cos = Math.min(1, Math.max(-1, (m[0] + m[4] + m[8] - 1) / 2));
  const angle = Math.acos(cos);
  let axis: [number, number, number] = [m[7] - m[5], m[2] - m[6], m[3] - m[1]];
  let n = Math.hypot(...axis);
  if (n < 1e-6) {
    if (cos > 0) return { angleDeg: 0, axis: [0, 1, 0] };
    // A half turn: the axis is the column of M + I with the largest norm.
    const cols = [0, 1, 2].map((c) => [m[c] + (c === 0 ? 1 : 0), m[3 + c] + (c === 1 ? 1 : 0), m[6 + c] + (c === 2 ? 1 : 0)] as [number, number, number]);
    axis = cols.reduce((best, v) => (Math.hypot(...v) > Math.hypot(...best) ? v : best));
    n = Math.hypot(...axis);
  }
  return { angleDeg: (angle * 180) / Math.PI, axis: axis.map((v) => v / n) as [number, number, number] };
}

/** A part as it stands on the table: its cells in its own upright grid, turned by `yawDeg` about the vertical. */
export interface PlacedCells {
  cells: Cell[];
  yawDeg: number;
}

/**
 * The smallest turn that carries part `from` onto part `to` as they stand in the world (cube
 * rotation and turn about the vertical together), over every symmetry of the shape: its angle in
 * degrees and how far its axis tilts from the vertical, degrees. Null when `to` is not a proper
 * copy of `from`.
 */
export function smallestTurn(from: PlacedCells, to: PlacedCells): { angleDeg: number; axisTiltDeg: number } | null {
  const ms = rotationsOnto(from.cells, to.cells);
  if (ms.length === 0) return null;
  let best: { angleDeg: number; axisTiltDeg: number } | null = null;
  const yawFromInverse = yawMatrix(-from.yawDeg);
  for (const m of ms) {
    // World rotation: undo the first part's yaw, apply the cube rotation, then the second's yaw.
    const w = mat3Mul(yawMatrix(to.yawDeg), mat3Mul(m as unknown as number[], yawFromInverse));
    const { angleDeg, axis } = rotationAngleAxis(w);
    const tilt = angleDeg < 1e-6 ? 0 : (Math.acos(Math.min(1, Math.abs(axis[1]))) * 180) / Math.PI;
    if (!best || angleDeg < best.angleDeg - 1e-9) best = { angleDeg, axisTiltDeg: tilt };
  }
  return best;
}

/** The six face neighbours of a cell. */
function neighbours([x, y, z]: Cell): Cell[] {
  return [[x + 1, y, z], [x - 1, y, z], [x, y + 1, z], [x, y - 1, z], [x, y, z + 1], [x, y, z - 1]];
}

/**
 * Every shape made from `cells` by moving one cube to another place where it touches the rest
 * (connected, same number of cubes), each once up to proper rotation, leaving out shapes that
 * are proper copies or mirror images of the original. Sorted by key, so the list never depends
 * on search order.
 */
export function oneCubeMoves(cells: readonly Cell[]): Cell[][] {
  const own = new Set([properKey(cells), properKey(mirrorCells(cells))]);
  const out = new Map<string, Cell[]>();
  cells.forEach((_, i) => {
    const rest = cells.filter((__, j) => j !== i);
    if (!isConnected(rest)) return;
    const have = new Set(rest.map((c) => c.join(',')));
    for (const c of rest) {
      for (const n of neighbours(c)) {
        const k = n.join(',');
        if (have.has(k) || k === cells[i].join(',')) continue;
        const shape = normalize([...rest, n]);
        const key = properKey(shape);
        if (own.has(key) || out.has(key)) continue;
        out.set(key, shape);
      }
    }
  });
  return [...out.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, s]) => s);
}

/** The bounding box of a shape, sides sorted ascending (unchanged by rotation). */
export function sortedExtent(cells: readonly Cell[]): [number, number, number] {
  const e = [0, 1, 2].map((a) => Math.max(...cells.map((c) => c[a])) - Math.min(...cells.map((c) => c[a])) + 1);
  return e.sort((x, y) => x - y) as [number, number, number];
}

/** How many cubes have 1, 2, … 6 face neighbours in the shape, as a key (unchanged by rotation and mirroring). */
export function degreeProfile(cells: readonly Cell[]): string {
  const have = new Set(cells.map((c) => c.join(',')));
  const counts = [0, 0, 0, 0, 0, 0, 0];
  for (const c of cells) counts[neighbours(c).filter((n) => have.has(n.join(','))).length]++;
  return counts.slice(1).join(',');
}

/**
 * Whether a near miss is close to the shape: same sorted bounding box and same neighbour-count
 * profile, so neither the outline's size nor counting ends and corners tells them apart.
 */
export function closeNearMiss(shape: readonly Cell[], nearMiss: readonly Cell[]): boolean {
  return sortedExtent(shape).join() === sortedExtent(nearMiss).join() && degreeProfile(shape) === degreeProfile(nearMiss);
}

/** The exact certificate of a chiral odd-one-out question. */
export interface OddOneOutCertificate {
  /** Index of the part that is the mirror image of all the others. */
  odd: number;
  /** Proper rotations carrying the first copy onto each part (empty for the odd one): the witnesses. */
  witnesses: Rotation[][];
}

/**
 * Certifies an odd-one-out question exactly: the parts have equal cube counts, the shape is
 * chiral, every part but one is a proper copy of the first copy, and the remaining part is its
 * mirror image (so no proper rotation carries it onto the others). Throws `invalid-state`
 * naming what fails.
 */
export function certifyOddOneOut(parts: readonly (readonly Cell[])[]): OddOneOutCertificate {
  if (parts.length < 3) throw new SpaceActError('invalid-state', `an odd-one-out question needs at least 3 parts, got ${parts.length}`);
  const n = parts[0].length;
  if (parts.some((p) => p.length !== n)) throw new SpaceActError('invalid-state', 'the parts have different numbers of cubes');
  if (!parts.every((p) => isConnected(p))) throw new SpaceActError('invalid-state', 'a part is not one connected piece');
  if (!isChiral(parts[0])) throw new SpaceActError('invalid-state', 'the shape is its own mirror image up to rotation, so the question is void');
  const keys = parts.map(properKey);
  const groups = new Map<string, number[]>();
  keys.forEach((k, i) => groups.set(k, [...(groups.get(k) ?? []), i]));
  if (groups.size !== 2) throw new SpaceActError('invalid-state', `the parts fall into ${groups.size} shapes up to proper rotation, not 2`);
  const [a, b] = [...groups.values()];
  const odd = a.length === 1 ? a[0] : b.length === 1 ? b[0] : -1;
  if (odd < 0) throw new SpaceActError('invalid-state', `no part is alone in its shape (groups of ${a.length} and ${b.length})`);
  const copy = parts[odd === 0 ? 1 : 0];
  if (handednessOf(copy, parts[odd]) !== 'mirror') throw new SpaceActError('invalid-state', 'the odd part is not the mirror image of the others');
  return { odd, witnesses: parts.map((p, i) => (i === odd ? [] : rotationsOnto(copy, p))) };
}

/** The exact certificate of a rotated-copy question. */
export interface RotatedCopyCertificate {
  /** Index of the only candidate that is a proper copy of the reference. */
  copy: number;
  /** How each candidate relates to the reference. */
  relations: Handedness[];
}

/**
 * Certifies a rotated-copy question exactly: every candidate has the reference's cube count and
 * is connected, and exactly one is a proper copy of the reference (the 24 proper rotations,
 * integer translations). Throws `invalid-state` naming what fails.
 */
export function certifyRotatedCopy(reference: readonly Cell[], candidates: readonly (readonly Cell[])[]): RotatedCopyCertificate {
  if (!isConnected(reference)) throw new SpaceActError('invalid-state', 'the reference is not one connected piece');
  candidates.forEach((c, i) => {
    if (c.length !== reference.length) throw new SpaceActError('invalid-state', `candidate ${i} has ${c.length} cubes, the reference ${reference.length}`);
    if (!isConnected(c)) throw new SpaceActError('invalid-state', `candidate ${i} is not one connected piece`);
  });
  const relations = candidates.map((c) => handednessOf(reference, c));
  const copies = relations.flatMap((r, i) => (r === 'copy' ? [i] : []));
  if (copies.length !== 1) throw new SpaceActError('invalid-state', `${copies.length} candidates are proper copies of the reference, not exactly 1`);
  return { copy: copies[0], relations };
}
