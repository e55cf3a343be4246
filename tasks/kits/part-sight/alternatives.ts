/**
 * Other shapes a part could have, as far as one view can tell: placements of a given shape in
 * the part's own grid that stand on the table, keep clear of everything else, and leave the
 * picture unchanged ({@link PartsSight.sameView}). If such a placement exists for a shape of
 * another kind (a mirror image instead of a copy), that view cannot tell the part's kind.
 */
import type { CameraSpec } from '../../../render/camera-spec.ts';
import { qrotate } from '../../../sim/math.ts';
import type { Vec3 } from '../../../sim/types.ts';
import { isConnected, normalize, orientations, type Cell } from '../../../solvers/polycube.ts';
import { CELL, GAP } from '../polycube-pieces/pieces.ts';
import { standsOnTable } from '../polycube-pieces/statics.ts';
import { DIRS, partPoint, type PartPlacement, type PartsSight, type SolidBox } from './parts.ts';

const key = (c: readonly number[]): string => c.join(',');

interface Rect2 {
  centre: [number, number];
  /** Unit axes in x–z and half extents along them. */
  axes: [[number, number], [number, number]];
  half: [number, number];
  y: [number, number];
}

function rectOfCell(p: PartPlacement, c: Cell): Rect2 {
  const w = partPoint(p, c);
  const a = (p.yawDeg * Math.PI) / 180;
  const h = CELL / 2 - GAP;
  return { centre: [w[0], w[2]], axes: [[Math.cos(a), -Math.sin(a)], [Math.sin(a), Math.cos(a)]], half: [h, h], y: [w[1] - h, w[1] + h] };
}

function rectOfSolid(half: Vec3, pose: { p: Vec3; q: [number, number, number, number] }): Rect2 {
  const ax = qrotate(pose.q, [1, 0, 0]);
  const az = qrotate(pose.q, [0, 0, 1]);
  return { centre: [pose.p[0], pose.p[2]], axes: [[ax[0], ax[2]], [az[0], az[2]]], half: [half[0], half[2]], y: [pose.p[1] - half[1], pose.p[1] + half[1]] };
}

/** Whether two upright boxes overlap (separating axes in x–z, intervals in y); touching counts as apart. */
function overlaps(a: Rect2, b: Rect2): boolean {
  if (a.y[1] <= b.y[0] + 1e-9 || b.y[1] <= a.y[0] + 1e-9) return false;
  const d: [number, number] = [b.centre[0] - a.centre[0], b.centre[1] - a.centre[1]];
  for (const axis of [...a.axes, ...b.axes]) {
    const proj = (r: Rect2): number => r.half[0] * Math.abs(r.axes[0][0] * axis[0] + r.axes[0][1] * axis[1]) + r.half[1] * Math.abs(r.axes[1][0] * axis[0] + r.axes[1][1] * axis[1]);
    if (Math.abs(d[0] * axis[0] + d[1] * axis[1]) >= proj(a) + proj(b) - 1e-9) return false;
  }
  return true;
}

/** Whether the cells `alt` of part `pi` (its grid) stay clear of every other part and solid. */
export function clearOfOthers(sight: PartsSight, pi: number, alt: readonly Cell[]): boolean {
  const own = new Set(sight.parts[pi].cells.map(key));
  const fresh = alt.filter((c) => !own.has(key(c)));
  if (fresh.length === 0) return true;
  const others: Rect2[] = [];
  sight.parts.forEach((p, j) => {
    if (j !== pi) for (const c of p.cells) others.push(rectOfCell(p, c));
  });
  for (const s of [...sight.solids, ...sight.obstacles]) others.push(rectOfSolid(s.half, s.pose));
  return fresh.every((c) => {
    const r = rectOfCell(sight.parts[pi], c);
    return others.every((o) => !overlaps(r, o));
  });
}

/** Whether an upright box (a wall) stays clear of every part's cubes and of the given solids. */
export function boxClear(parts: readonly PartPlacement[], solids: readonly SolidBox[], box: SolidBox): boolean {
  const r = rectOfSolid(box.half, box.pose);
  if (solids.some((s) => overlaps(r, rectOfSolid(s.half, s.pose)))) return false;
  return parts.every((p) => p.cells.every((c) => !overlaps(r, rectOfCell(p, c))));
}

/**
 * Whether part `pi` could, as far as `camera` can tell, be a placement of `shape` (any proper
 * rotation, any translation in its grid) for which `accept` holds: one that stands on the
 * table, keeps clear of everything else and leaves the picture unchanged. Returns the first such
 * placement found, or null.
 */
export function consistentPlacement(
  sight: PartsSight,
  camera: CameraSpec,
  pi: number,
  shape: readonly Cell[],
  accept: (cells: Cell[]) => boolean = () => true,
): Cell[] | null {
  const part = sight.parts[pi];
  const seen = [...sight.glimpsedFaces(camera, pi)];
  // Every face that shows must still be a face of the alternative: its cell is in it and the cell
  // beyond the face is not.
  const mustHave = [...new Set(seen.map((fk) => fk.split('/')[0]))];
  const mustLack = seen.map((fk) => {
    const [c, dir] = fk.split('/');
    const cell = c.split(',').map(Number);
    const d = DIRS[Number(dir)];
    return key([cell[0] + d[0], cell[1] + d[1], cell[2] + d[2]]);
  });
  const anchors = mustHave.length ? [mustHave[0].split(',').map(Number) as Cell] : part.cells;
  const tried = new Set<string>();
  for (const o of orientations(shape)) {
    if (!standsOnTable(o)) continue;
    for (const anchor of anchors) {
      for (const h of o) {
        // Lowest layer on the table (y = 0): orientations are normalised, so no vertical shift.
        if (anchor[1] !== h[1]) continue;
        const shift: Cell = [anchor[0] - h[0], 0, anchor[2] - h[2]];
        const cells = o.map((c) => [c[0] + shift[0], c[1], c[2] + shift[2]] as Cell);
        const k = normalizeKey(cells);
        if (tried.has(k)) continue;
        tried.add(k);
        const have = new Set(cells.map(key));
        if (!mustHave.every((m) => have.has(m))) continue;
        if (mustLack.some((m) => have.has(m))) continue;
        if (!accept(cells)) continue;
        if (!clearOfOthers(sight, pi, cells)) continue;
        if (!sight.sameView(camera, pi, cells)) continue;
        return cells;
      }
    }
  }
  return null;
}

function normalizeKey(cells: readonly Cell[]): string {
  return cells
    .map(key)
    .sort()
    .join(';');
}

/**
 * The part's own cells with one cube moved (taken away and put back elsewhere touching the
 * rest), standing on the table: the near misses a view may fail to rule out.
 */
export function oneCubeMovesInPlace(cells: readonly Cell[]): Cell[][] {
  const out: Cell[][] = [];
  const seen = new Set<string>();
  cells.forEach((_, i) => {
    const rest = cells.filter((__, j) => j !== i);
    if (!isConnected(rest)) return;
    const have = new Set(rest.map(key));
    for (const c of rest) {
      for (const d of DIRS) {
        const n: Cell = [c[0] + d[0], c[1] + d[1], c[2] + d[2]];
        if (n[1] < 0 || have.has(key(n)) || key(n) === key(cells[i])) continue;
        const moved = [...rest, n];
        if (Math.min(...moved.map((m) => m[1])) !== 0) continue;
        const k = normalizeKey(moved);
        if (seen.has(k)) continue;
        seen.add(k);
        if (!standsOnTable(normalize(moved))) continue;
        out.push(moved);
      }
    }
  });
  return out;
}
