/**
 * Polycube parts standing on a table, as a camera sees them: which cubes show, which show
 * clearly, and whether the picture would stay the same if a part had other cubes where the
 * camera cannot see (the certificate that a view hides the evidence a question needs).
 *
 * A part is a set of integer cells in its own upright grid (lowest layer y = 0, resting on the
 * table), turned by a yaw about the vertical and set at a point of the table. Its surface is
 * modelled as its exposed cube faces (faces with no cube of the same part beside them; the
 * bottom faces on the table are left out), each set in by the piece model's gap like the
 * physical piece's outer faces.
 */
import type { CameraSpec } from '../../../render/camera-spec.ts';
import { qrotate, yawQuat } from '../../../sim/math.ts';
import type { Pose, Vec3 } from '../../../sim/types.ts';
import type { Cell } from '../../../solvers/polycube.ts';
import { CELL, GAP } from '../polycube-pieces/pieces.ts';
import { boxPatches, SurfaceSight, type Patch } from './surface.ts';

/** A part on the table: upright cells (lowest y = 0), yaw about the vertical in degrees, and where its grid origin stands. */
export interface PartPlacement {
  cells: Cell[];
  yawDeg: number;
  /** World x, z of the centre of the part's footprint (the middle of its cells' x–z bounding box). */
  at: [number, number];
  /** Height of the flat top the part stands on (0: the table; more: a stand), metres. */
  base?: number;
}

/** A solid box that hides things (a wall, a plinth, a letter plate). */
export interface SolidBox {
  half: Vec3;
  pose: Pose;
}

/** The six face directions: +x, −x, +y, −y, +z, −z. */
export const DIRS: readonly Vec3[] = [
  [1, 0, 0],
  [-1, 0, 0],
  [0, 1, 0],
  [0, -1, 0],
  [0, 0, 1],
  [0, 0, -1],
];

/** One exposed face of a part: a cell and a direction index into {@link DIRS}. */
export interface CellFace {
  cell: Cell;
  dir: number;
}

const key = (c: readonly number[]): string => c.join(',');
/** A face's key: its cell and direction. */
export const faceKey = (f: CellFace): string => `${key(f.cell)}/${f.dir}`;

/** Middle of the x–z bounding box of the cells, in cell units. */
function footprintMid(cells: readonly Cell[]): [number, number] {
  const xs = cells.map((c) => c[0]);
  const zs = cells.map((c) => c[2]);
  return [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...zs) + Math.max(...zs)) / 2];
}

/**
 * A cell point of a part in the world: `local` is in cell units relative to the cell's centre's
 * grid (e.g. the cell itself, or a face centre cell ± ½). The footprint middle of `frame`
 * (default the part's own cells) sits at the part's `at`.
 */
export function partPoint(part: PartPlacement, local: readonly number[], frame: readonly Cell[] = part.cells): Vec3 {
  const [mx, mz] = footprintMid(frame);
  // The physical piece's outer faces are set in by GAP and its bottom rests on the table, so its
  // cube centres sit GAP below the grid's.
  const v: Vec3 = [(local[0] - mx) * CELL, (local[1] + 0.5) * CELL - GAP, (local[2] - mz) * CELL];
  const w = qrotate(yawQuat(part.yawDeg), v);
  return [part.at[0] + w[0], w[1] + (part.base ?? 0), part.at[1] + w[2]];
}

/**
 * The placement of `cells` in the grid of `part` (same yaw, same top): its `at` moved so each
 * cell stands where the same cell of the part's grid does. How a shape the kit found in a part's
 * grid is built as a body of its own.
 */
export function regrid<P extends PartPlacement>(part: P, cells: Cell[]): P {
  const [mx, mz] = footprintMid(cells);
  const w = partPoint(part, [mx, 0, mz]);
  return { ...part, cells, at: [w[0], w[2]] };
}

/** The exposed faces of a cell set (bottom faces on the table, y = 0, left out). */
export function exposedFaces(cells: readonly Cell[]): CellFace[] {
  const have = new Set(cells.map(key));
  const out: CellFace[] = [];
  for (const c of cells) {
    DIRS.forEach((d, dir) => {
      if (have.has(key([c[0] + d[0], c[1] + d[1], c[2] + d[2]]))) return;
      if (dir === 3 && c[1] === 0) return;
      out.push({ cell: c, dir });
    });
  }
  return out;
}

/**
 * The patch of an exposed face: the plane of the physical piece's outer face (set in by the
 * gap), the full cell width across, so neighbouring faces of one part close up without slits.
 */
function facePatch(part: PartPlacement, f: CellFace, owner: number, frame: readonly Cell[]): Patch {
  const d = DIRS[f.dir];
  const inset = 0.5 - GAP / CELL;
  const centre = partPoint(part, [f.cell[0] + d[0] * inset, f.cell[1] + d[1] * inset, f.cell[2] + d[2] * inset], frame);
  const a = f.dir >> 1;
  const uAxis = (a + 1) % 3;
  const vAxis = (a + 2) % 3;
  const q = yawQuat(part.yawDeg);
  const u: Vec3 = [0, 0, 0];
  u[uAxis] = CELL / 2;
  const v: Vec3 = [0, 0, 0];
  v[vAxis] = CELL / 2;
  return { centre, u: qrotate(q, u), v: qrotate(q, v), normal: qrotate(q, d as Vec3), owner };
}

/** What a camera sees of one cell of a part. */
export interface CellSighting {
  /** Some sample of the fine lattice of one of its exposed faces shows. */
  glimpsed: boolean;
  /** One of its exposed faces is clearly seen (75 % of samples, not grazing). */
  clear: boolean;
}

interface Layout {
  sight: SurfaceSight;
  /** Per part, per face key: patch index. */
  faceIndex: Array<Map<string, number>>;
  /** Per solid, the index of its first patch (its six faces follow in `boxPatches` order). */
  solidStart: number[];
  /** Per extra group, the index of its first patch. */
  extraStart: number[];
}

/**
 * Ray-cast sightings of parts among solids. Every part's cells and every solid hide things;
 * owners are one per cube, so "seen" is decided cube by cube.
 */
export class PartsSight {
  readonly parts: readonly PartPlacement[];
  /** Boxes that hide things and stand in the way of other shapes a part could have. */
  readonly solids: readonly SolidBox[];
  /** Other surfaces that hide things (e.g. letter stands), one owner per group. */
  readonly extras: readonly Patch[][];
  /** Boxes that only stand in the way (e.g. the bounding boxes of the extras). */
  readonly obstacles: readonly SolidBox[];
  private readonly layout: Layout;
  private readonly glimpseCache = new Map<string, boolean>();

  constructor(parts: PartPlacement[], solids: SolidBox[], extras: Patch[][] = [], obstacles: SolidBox[] = []) {
    this.parts = parts;
    this.solids = solids;
    this.extras = extras;
    this.obstacles = obstacles;
    this.layout = PartsSight.build(parts, solids, extras);
  }

  private static build(parts: readonly PartPlacement[], solids: readonly SolidBox[], extras: readonly Patch[][], frames?: ReadonlyArray<readonly Cell[]>): Layout {
    const patches: Patch[] = [];
    const faceIndex: Array<Map<string, number>> = [];
    let owner = 0;
    parts.forEach((part, pi) => {
      const m = new Map<string, number>();
      const ownerOf = new Map<string, number>();
      for (const c of part.cells) ownerOf.set(key(c), owner++);
      for (const f of exposedFaces(part.cells)) {
        m.set(faceKey(f), patches.length);
        patches.push(facePatch(part, f, ownerOf.get(key(f.cell))!, frames?.[pi] ?? part.cells));
      }
      faceIndex.push(m);
    });
    const solidStart: number[] = [];
    for (const s of solids) {
      solidStart.push(patches.length);
      patches.push(...boxPatches(s.half, s.pose, owner++));
    }
    const extraStart: number[] = [];
    for (const group of extras) {
      extraStart.push(patches.length);
      const o = owner++;
      patches.push(...group.map((p) => ({ ...p, owner: o })));
    }
    return { sight: new SurfaceSight(patches), faceIndex, solidStart, extraStart };
  }

  /** What `camera` sees of every cell of part `pi`, keyed by the cell's `x,y,z`. */
  cells(camera: CameraSpec, pi: number): Map<string, CellSighting> {
    const out = new Map<string, CellSighting>();
    for (const c of this.parts[pi].cells) out.set(key(c), { glimpsed: false, clear: false });
    for (const [fk, idx] of this.layout.faceIndex[pi]) {
      const s = out.get(fk.split('/')[0])!;
      if (!s.glimpsed && this.faceGlimpsed(camera, pi, fk)) s.glimpsed = true;
      if (s.glimpsed && !s.clear && this.layout.sight.clear(camera, idx)) s.clear = true;
    }
    return out;
  }

  /** The cells of part `pi` that `camera` sees clearly (one exposed face clearly seen), as `x,y,z` keys; `only` limits the cells tried. */
  clearCells(camera: CameraSpec, pi: number, only?: ReadonlySet<string>): Set<string> {
    const out = new Set<string>();
    for (const [fk, idx] of this.layout.faceIndex[pi]) {
      const ck = fk.split('/')[0];
      if (out.has(ck) || (only && !only.has(ck))) continue;
      if (this.layout.sight.clear(camera, idx)) out.add(ck);
    }
    return out;
  }

  /**
   * Pixels of part `pi` that show from `camera` in a {@link PICTURE_SIZE}-pixel picture: each seen
   * sample of a `grid`² lattice per exposed face stands for its share of the face.
   */
  seenPixels(camera: CameraSpec, pi: number, grid = 8): number {
    let px = 0;
    for (const idx of this.layout.faceIndex[pi].values()) px += this.layout.sight.sightPatch(camera, idx, grid, false).seenPixels;
    return px;
  }

  /** Whether `camera` clearly sees patch `k` of extra group `ei` (e.g. the face of a letter stand). */
  extraClear(camera: CameraSpec, ei: number, k = 0): boolean {
    return this.layout.sight.clear(camera, this.layout.extraStart[ei] + k);
  }

  /** Whether any sample of the face `fk` of part `pi` shows (cached per camera). */
  faceGlimpsed(camera: CameraSpec, pi: number, fk: string): boolean {
    const ck = `${JSON.stringify(camera)}|${pi}|${fk}`;
    let g = this.glimpseCache.get(ck);
    if (g === undefined) {
      g = this.layout.sight.glimpsed(camera, this.layout.faceIndex[pi].get(fk)!);
      this.glimpseCache.set(ck, g);
    }
    return g;
  }

  /** The faces of part `pi` that show at all from `camera`. */
  glimpsedFaces(camera: CameraSpec, pi: number): Set<string> {
    return new Set([...this.layout.faceIndex[pi].keys()].filter((fk) => this.faceGlimpsed(camera, pi, fk)));
  }

  /**
   * Whether the picture from `camera` stays the same when part `pi` has the cells `alt` (same
   * upright grid, same yaw and footprint frame) instead of its own: every face of the part that
   * the change removes is hidden now, and every face it adds would be hidden in the changed
   * scene (ray cast on the fine lattice). Both scenes then show exactly the same surfaces.
   * The caller checks that `alt` is physically possible (on the table, clear of other solids).
   */
  sameView(camera: CameraSpec, pi: number, alt: readonly Cell[]): boolean {
    const own = this.layout.faceIndex[pi];
    const altFaces = exposedFaces(alt);
    const altKeys = new Set(altFaces.map(faceKey));
    for (const fk of own.keys()) if (!altKeys.has(fk) && this.faceGlimpsed(camera, pi, fk)) return false;
    const added = altFaces.filter((f) => !own.has(faceKey(f)));
    if (added.length === 0) return true;
    const parts = this.parts.map((p, i) => (i === pi ? { ...p, cells: alt as Cell[] } : p));
    const frames = this.parts.map((p) => p.cells);
    const changed = PartsSight.build(parts, this.solids, this.extras, frames);
    return added.every((f) => !changed.sight.glimpsed(camera, changed.faceIndex[pi].get(faceKey(f))!));
  }
}
