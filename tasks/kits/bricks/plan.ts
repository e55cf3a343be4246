/**
 * Construction plans on a stud grid, without a world: placements of catalog bricks, where each
 * lands when lowered straight down onto fixed supports (piers, baseplates), and which studs
 * connect what. Generators use it to reason about a design before any body exists; the statics
 * of a landed plan are in `plan-statics.ts`.
 *
 * Grid convention: `cell = [col, row]` counts studs; heights count in plates, and a part's
 * `layer` is the height of its bottom face (fixed supports may start below 0).
 */
import { brickType, heightOf, type BrickType } from './catalog.ts';

/** One placement on the grid, as a `place` tool takes it. */
export interface Placement {
  type: string;
  col: number;
  row: number;
  /** 0: the brick's length along the cols; 90: along the rows. */
  rot: 0 | 90;
}

/** Cells a placement covers: `[cols, rows]` after rotation. */
export function footprint(p: Placement): [number, number] {
  const t = brickType(p.type);
  return p.rot === 0 ? [t.length, t.width] : [t.width, t.length];
}

/** A placed part of a plan (a fixed support or a brick) with the layer of its bottom face. */
export interface PlannedPart {
  name: string;
  /** Grid cell of the footprint's lowest corner. */
  cell: [number, number];
  /** Cells along col and row. */
  span: [number, number];
  /** Bottom face, plates. */
  layer: number;
  /** Height, plates. */
  height: number;
  fixed: boolean;
  type?: BrickType;
}

/** Shared stud cells of two footprints. */
export function sharedCells(a: Pick<PlannedPart, 'cell' | 'span'>, b: Pick<PlannedPart, 'cell' | 'span'>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const x0 = Math.max(a.cell[0], b.cell[0]);
  const x1 = Math.min(a.cell[0] + a.span[0], b.cell[0] + b.span[0]);
  const z0 = Math.max(a.cell[1], b.cell[1]);
  const z1 = Math.min(a.cell[1] + a.span[1], b.cell[1] + b.span[1]);
  for (let i = x0; i < x1; i++) for (let j = z0; j < z1; j++) out.push([i, j]);
  return out;
}

/**
 * Lands every placement of a plan in order on the fixed supports, as a vertical drop does: a
 * brick comes to rest on the highest part under its footprint. Returns the parts (the supports
 * first, then bricks named `b1`, `b2`, … in order), or the index of the first placement with
 * nothing under it.
 */
export function landParts(supports: readonly PlannedPart[], plan: readonly Placement[]): { parts: PlannedPart[] } | { unsupported: number } {
  const parts = supports.map((p) => ({ ...p }));
  for (let k = 0; k < plan.length; k++) {
    const p = plan[k];
    const t = brickType(p.type);
    const part: PlannedPart = { name: `b${k + 1}`, cell: [p.col, p.row], span: footprint(p), layer: 0, height: heightOf(t), fixed: false, type: t };
    let top = -Infinity;
    for (const q of parts) if (sharedCells(q, part).length) top = Math.max(top, q.layer + q.height);
    if (top === -Infinity) return { unsupported: k };
    part.layer = top;
    parts.push(part);
  }
  return { parts };
}

/** Stud connections of landed parts: a lower part's top meets an upper part's bottom over shared studs. */
export function planConnections(parts: readonly PlannedPart[]): Array<{ lower: PlannedPart; upper: PlannedPart; studs: Array<[number, number]> }> {
  const out: Array<{ lower: PlannedPart; upper: PlannedPart; studs: Array<[number, number]> }> = [];
  for (const upper of parts) {
    if (upper.fixed) continue;
    for (const lower of parts) {
      if (lower === upper || lower.layer + lower.height !== upper.layer) continue;
      const studs = sharedCells(lower, upper);
      if (studs.length) out.push({ lower, upper, studs });
    }
  }
  return out;
}

/** The topmost part covering a cell, or null. */
export function topPartAt(parts: readonly PlannedPart[], cell: readonly [number, number]): PlannedPart | null {
  let best: PlannedPart | null = null;
  for (const p of parts) {
    if (cell[0] < p.cell[0] || cell[0] >= p.cell[0] + p.span[0] || cell[1] < p.cell[1] || cell[1] >= p.cell[1] + p.span[1]) continue;
    if (!best || p.layer + p.height > best.layer + best.height) best = p;
  }
  return best;
}
