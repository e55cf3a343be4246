/**
 * Pure grid maths of the brick system (split from `sim/bricks.ts`, which keeps the world-bound
 * `BrickSystem`): footprints, stacking and overlap on a stud grid, stud centres, the size and
 * pose of a part. Nothing here touches a world.
 */
import { composePose, yawQuat } from './math.ts';
import type { Pose, ShapeSpec, Vec3 } from './types.ts';

/** A registered brick or baseplate. */
export interface BrickInfo {
  name: string;
  grid: string;
  /** Cells along the grid's X and Z after rotation. */
  footprint: [number, number];
  size: [number, number];
  rot: 0 | 90;
  cell: [number, number];
  /** Bottom face, plates. */
  layer: number;
  /** Height, plates. */
  height: number;
  plate: boolean;
  /** Static baseplate or pier. */
  fixed: boolean;
}

/** A grid: a world frame at `origin` turned by `yawDeg` about +Y. */
export interface GridInfo {
  origin: Vec3;
  yawDeg: number;
}

/** The lengths of a brick system, metres. */
export interface BrickDimensions {
  readonly pitch: number;
  readonly plateHeight: number;
  readonly play: number;
  readonly studRadius: number;
  readonly studHeight: number;
}

/** Grid cells (x, z) shared by two parts' footprints. */
export function sharedCells(a: BrickInfo, b: BrickInfo): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const x0 = Math.max(a.cell[0], b.cell[0]);
  const x1 = Math.min(a.cell[0] + a.footprint[0], b.cell[0] + b.footprint[0]);
  const z0 = Math.max(a.cell[1], b.cell[1]);
  const z1 = Math.min(a.cell[1] + a.footprint[1], b.cell[1] + b.footprint[1]);
  for (let i = x0; i < x1; i++) for (let j = z0; j < z1; j++) out.push([i, j]);
  return out;
}

/** Parts whose top is `info`'s bottom and whose footprints overlap it (sorted names). */
export function partsStackedOn(parts: BrickInfo[], info: BrickInfo): string[] {
  return parts
    .filter((p) => p.name !== info.name && p.grid === info.grid && p.layer + p.height === info.layer && sharedCells(p, info).length)
    .map((p) => p.name)
    .sort();
}

/** Parts whose bottom is `info`'s top and whose footprints overlap it (sorted names). */
export function partsStackedUnder(parts: BrickInfo[], info: BrickInfo): string[] {
  return parts
    .filter((p) => p.name !== info.name && p.grid === info.grid && p.layer === info.layer + info.height && sharedCells(p, info).length)
    .map((p) => p.name)
    .sort();
}

/** Parts of the same grid whose volumes overlap `info`'s. */
export function partsOverlapping(parts: BrickInfo[], info: BrickInfo): string[] {
  return parts.filter((p) => p.grid === info.grid && p.layer < info.layer + info.height && info.layer < p.layer + p.height && sharedCells(p, info).length).map((p) => p.name);
}

/** Stud centres on a part's top face, in the part's frame. */
export function studCentres(d: BrickDimensions, info: BrickInfo): Vec3[] {
  const [a, b] = info.size;
  const h = (info.height * d.plateHeight) / 2;
  const out: Vec3[] = [];
  for (let i = 0; i < a; i++) for (let j = 0; j < b; j++) out.push([(i + 0.5 - a / 2) * d.pitch, h, (j + 0.5 - b / 2) * d.pitch]);
  return out;
}

/** The drawn studs of a part: one cylinder standing on each stud centre of its top face. */
export function studShapes(d: BrickDimensions, info: BrickInfo): ShapeSpec[] {
  const half = d.studHeight / 2;
  return studCentres(d, info).map(([x, y, z]) => ({ type: 'cylinder', radius: d.studRadius, halfHeight: half, pose: { p: [x, y + half, z], q: [0, 0, 0, 1] } }));
}

/** Half extents of a part's box (a loose brick is narrower by the play on each side). */
export function halfExtents(d: BrickDimensions, info: BrickInfo): Vec3 {
  const play = info.fixed ? 0 : d.play;
  return [(info.size[0] * d.pitch) / 2 - play, (info.height * d.plateHeight) / 2, (info.size[1] * d.pitch) / 2 - play];
}

/** World pose of a part's centre. */
export function partPose(d: BrickDimensions, grids: Record<string, GridInfo>, info: BrickInfo): Pose {
  const g = gridPose(grids[info.grid]);
  const local: Pose = {
    p: [(info.cell[0] + info.footprint[0] / 2) * d.pitch, (info.layer + info.height / 2) * d.plateHeight, (info.cell[1] + info.footprint[1] / 2) * d.pitch],
    q: yawQuat(info.rot),
  };
  return composePose(g, local);
}

/** World pose of a grid's frame. */
export function gridPose(g: GridInfo): Pose {
  return { p: g.origin, q: yawQuat(g.yawDeg) };
}
