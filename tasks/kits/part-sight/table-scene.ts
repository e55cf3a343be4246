/**
 * A table of lettered polycube parts, with grey walls that hide some of them from low views:
 * the scene of the mental-rotation families (V2 odd-one-out, V3 rotated copy). Plain JSON, the
 * world built from it, the ray-cast sight of it, the first camera that frames it, walls searched
 * so that a chosen part cannot be told from another shape in the first view, and the views that
 * together show every cube clearly (the reference's camera moves).
 */
import { round9 } from '../../../core/determinism.ts';
import type { CameraSpec } from '../../../render/camera-spec.ts';
import { cameraFrame, DEFAULT_FOV } from '../../../render/camera-frame.ts';
import { qrotate, yawQuat } from '../../../sim/math.ts';
import type { Pose, Vec3 } from '../../../sim/types.ts';
import type { World } from '../../../sim/world.ts';
import type { Cell } from '../../../solvers/polycube.ts';
import type { Rng } from '../../../core/rng.ts';
import type { ToolCall } from '../../types.ts';
import { CELL, pieceShapes, restingOriginHeight, WOOD } from '../polycube-pieces/pieces.ts';
import { boxClear } from './alternatives.ts';
import { glyphShapes, inkPose, PLATE, plateBox, platePatches, platePose, plateShape, type LetterPlate } from './letters.ts';
import { PartsSight, partPoint, type PartPlacement, type SolidBox } from './parts.ts';
import { reachableViews } from './surface.ts';

/** A lettered part standing on the table. */
export interface TablePart extends PartPlacement {
  /** The letter on its plate (an option letter, or R for a reference). */
  letter: string;
}

/** A grey wall standing on the table (an upright box turned about the vertical). */
export interface Wall extends SolidBox {}

/** Everything a table scene is built from. */
export interface TableScene {
  parts: TablePart[];
  /** Wooden stands (a raised step for a back row, a plinth for a reference) the parts on them rest on. */
  stands: SolidBox[];
  walls: Wall[];
  /** One plate per part, in the parts' order. */
  plates: LetterPlate[];
  /** The table slab (top face at y = 0). */
  table: { half: Vec3; pose: Pose };
}

/** Colours of the scene. */
export const TABLE_COLORS = { part: '#d9913f', wall: '#8d949b', table: '#b9b2a6', stand: '#9a8470', plate: '#f4f1e8', ink: '#1f2328' } as const;

/** Wall thickness, metres. */
export const WALL_THICKNESS = 0.008;
const TABLE_THICKNESS = 0.02;
const TABLE_MARGIN = 0.06;

/** Rounds to 1e-9 so generated numbers are stable JSON (the one rounding rule, core/determinism.ts). */
export const r9 = round9;

/** What a scene is made of, without its table. */
export type TableLayout = Pick<TableScene, 'parts' | 'stands' | 'walls' | 'plates'>;

/** The boxes besides the parts that hide things: stands and walls. */
export function sceneSolids(s: Omit<TableLayout, 'parts'>): SolidBox[] {
  return [...s.stands, ...s.walls];
}

/** Bounding boxes of everything besides the parts (stands, walls, letter stands), for framing and overlap tests. */
function sceneBoxes(s: Omit<TableLayout, 'parts'>): SolidBox[] {
  return [...s.stands, ...s.walls, ...s.plates.map(plateBox)];
}

/** The ray-cast sight of a scene: parts, stands and walls, and the letter stands' faces (extra group `i` is plate `i`). */
export function sceneSight(s: TableLayout): PartsSight {
  return new PartsSight(s.parts, sceneSolids(s), s.plates.map((p) => platePatches(p, 0)), s.plates.map(plateBox));
}

/** Corner points of everything on the table (parts, walls, plates), for framing and the table's size. */
function scenePoints(s: TableLayout): Vec3[] {
  const pts: Vec3[] = [];
  for (const p of s.parts) {
    for (const c of p.cells) {
      for (let k = 0; k < 8; k++) pts.push(partPoint(p, [c[0] + (k & 1 ? 0.5 : -0.5), c[1] + (k & 2 ? 0.5 : -0.5), c[2] + (k & 4 ? 0.5 : -0.5)]));
    }
  }
  for (const b of sceneBoxes(s)) {
    for (let k = 0; k < 8; k++) {
      const w = qrotate(b.pose.q, [k & 1 ? b.half[0] : -b.half[0], k & 2 ? b.half[1] : -b.half[1], k & 4 ? b.half[2] : -b.half[2]]);
      pts.push([b.pose.p[0] + w[0], b.pose.p[1] + w[1], b.pose.p[2] + w[2]]);
    }
  }
  return pts;
}

/** The table slab under everything, with a margin. */
export function tableUnder(s: TableLayout): TableScene['table'] {
  const pts = scenePoints(s);
  const lo = [0, 2].map((a) => Math.min(...pts.map((p) => p[a])) - TABLE_MARGIN);
  const hi = [0, 2].map((a) => Math.max(...pts.map((p) => p[a])) + TABLE_MARGIN);
  return {
    half: [r9((hi[0] - lo[0]) / 2), TABLE_THICKNESS / 2, r9((hi[1] - lo[1]) / 2)],
    pose: { p: [r9((hi[0] + lo[0]) / 2), -TABLE_THICKNESS / 2, r9((hi[1] + lo[1]) / 2)], q: [0, 0, 0, 1] },
  };
}

/** Whether every point lies inside `fill` of the picture of `camera` (and in front of it). */
export function pointsInFrame(points: readonly Vec3[], camera: CameraSpec, fill: number): boolean {
  const tanHalf = Math.tan(((camera.fov ?? DEFAULT_FOV) * Math.PI) / 360) * fill;
  const f = cameraFrame(camera);
  return points.every((p) => {
    const d = [p[0] - f.position[0], p[1] - f.position[1], p[2] - f.position[2]];
    const depth = -(d[0] * f.back[0] + d[1] * f.back[1] + d[2] * f.back[2]);
    const x = d[0] * f.right[0] + d[1] * f.right[1] + d[2] * f.right[2];
    const y = d[0] * f.up[0] + d[1] * f.up[1] + d[2] * f.up[2];
    return depth > 0 && Math.abs(x) <= tanHalf * depth && Math.abs(y) <= tanHalf * depth;
  });
}

/** Whether everything on the table shows inside `fill` of the picture of `camera`. */
export function sceneInFrame(s: TableLayout, camera: CameraSpec, fill = 0.94): boolean {
  return pointsInFrame(scenePoints(s), camera, fill);
}

/**
 * A camera from `azimuth`, `elevation` that frames `points`: aimed so their picture is centred,
 * as close as lets them all fit inside `fill` of the picture (centimetre steps, millimetre aim).
 */
export function framePoints(points: readonly Vec3[], azimuth: number, elevation: number, fill: number): CameraSpec {
  const lo = [0, 1, 2].map((a) => Math.min(...points.map((p) => p[a])));
  const hi = [0, 1, 2].map((a) => Math.max(...points.map((p) => p[a])));
  let target: Vec3 = [(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2];
  const tidy = (t: readonly number[]): Vec3 => t.map((x) => r9(Math.round(x * 1000) / 1000)) as Vec3;
  const fit = (t: Vec3): CameraSpec => {
    let distance = 0.3;
    while (!pointsInFrame(points, { azimuth, elevation, distance, target: t }, fill) && distance < 5) distance = r9(distance + 0.01);
    return { azimuth, elevation, distance, target: t };
  };
  let camera = fit(tidy(target));
  // Twice: move the aim to the middle of the points' picture, then fit the distance again.
  for (let pass = 0; pass < 2; pass++) {
    const f = cameraFrame(camera);
    let x0 = Infinity;
    let x1 = -Infinity;
    let y0 = Infinity;
    let y1 = -Infinity;
    for (const p of points) {
      const d = [p[0] - f.position[0], p[1] - f.position[1], p[2] - f.position[2]];
      const depth = -(d[0] * f.back[0] + d[1] * f.back[1] + d[2] * f.back[2]);
      const x = (d[0] * f.right[0] + d[1] * f.right[1] + d[2] * f.right[2]) / depth;
      const y = (d[0] * f.up[0] + d[1] * f.up[1] + d[2] * f.up[2]) / depth;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
    const sx = ((x0 + x1) / 2) * camera.distance;
    const sy = ((y0 + y1) / 2) * camera.distance;
    target = [0, 1, 2].map((k) => camera.target[k] + sx * f.right[k] + sy * f.up[k]) as Vec3;
    camera = fit(tidy(target));
  }
  return camera;
}

/**
 * The first camera: looking from `azimuth`, `elevation` at the scene, framing every part, stand
 * and plate inside `fill` of the picture, and a box `reserve` metres round and above every part
 * (where walls may yet stand) too.
 */
export function frameCamera(s: TableLayout, azimuth: number, elevation: number, fill = 0.9, reserve = 0): CameraSpec {
  const pts = scenePoints(s);
  if (reserve > 0) {
    for (const p of s.parts) {
      const r = footprintRadius(p.cells) + reserve;
      for (const [dx, dz] of [[-r, -r], [-r, r], [r, -r], [r, r]]) for (const y of [0, 0.07]) pts.push([p.at[0] + dx, (p.base ?? 0) + y, p.at[1] + dz]);
    }
  }
  return framePoints(pts, azimuth, elevation, fill);
}

/** The world of a table scene: static table, parts (the shared polycube-piece model), walls, and letter plates with their ink. */
export function buildTableScene(world: World, s: TableScene, partColor: (p: TablePart) => string = () => TABLE_COLORS.part): void {
  world.addBody({ name: 'table', kind: 'static', pose: s.table.pose, shapes: [{ type: 'box', half: s.table.half }], material: WOOD, color: TABLE_COLORS.table });
  for (const p of s.parts) {
    world.addBody({
      name: `part-${p.letter}`,
      kind: 'static',
      pose: { p: [p.at[0], r9((p.base ?? 0) + restingOriginHeight(p.cells)), p.at[1]], q: yawQuat(p.yawDeg) },
      shapes: pieceShapes(p.cells),
      material: WOOD,
      color: partColor(p),
      tags: ['part'],
    });
  }
  s.stands.forEach((b, i) => {
    world.addBody({ name: `stand-${i + 1}`, kind: 'static', pose: b.pose, shapes: [{ type: 'box', half: b.half }], material: WOOD, color: TABLE_COLORS.stand, tags: ['stand'] });
  });
  s.walls.forEach((w, i) => {
    world.addBody({ name: `wall-${i + 1}`, kind: 'static', pose: w.pose, shapes: [{ type: 'box', half: w.half }], material: WOOD, color: TABLE_COLORS.wall, tags: ['wall'] });
  });
  for (const pl of s.plates) {
    world.addBody({ name: `plate-${pl.letter}`, kind: 'static', pose: platePose(pl), shapes: [plateShape()], material: WOOD, color: TABLE_COLORS.plate, tags: ['plate'] });
    world.addBody({ name: `ink-${pl.letter}`, kind: 'static', pose: inkPose(pl), shapes: glyphShapes(pl.letter), collides: false, color: TABLE_COLORS.ink, tags: ['ink'] });
  }
}

/** The views visibility is checked over: azimuth every 30° at 0°, 30° and 60° elevation, and the top view. */
export function checkedViews(initial: CameraSpec, elevationRange: [number, number]): CameraSpec[] {
  return reachableViews(initial, elevationRange);
}

/** Per part, the cells no checked view shows clearly (empty lists when every cube can be seen). */
export function unseenCells(sight: PartsSight, views: readonly CameraSpec[]): string[][] {
  return sight.parts.map((p, i) => {
    const need = new Set(p.cells.map((c) => c.join(',')));
    for (const v of views) {
      for (const k of sight.clearCells(v, i, need)) need.delete(k);
      if (need.size === 0) break;
    }
    return [...need];
  });
}

/** A camera move, as the camera tools express it, from one orbit camera to another. */
export function orbitCall(from: CameraSpec, to: CameraSpec): ToolCall {
  let da = to.azimuth - from.azimuth;
  da = ((((da + 180) % 360) + 360) % 360) - 180;
  return { tool: 'orbit', args: { azimuth_deg: da, elevation_deg: to.elevation - from.elevation } };
}

/**
 * Views that together show every cube of every part clearly: a greedy cover over the checked
 * views, starting from the first view (free), each step taking the view that clearly shows the
 * most cubes not yet covered (ties: the smaller camera move). Throws if some cube is clear from
 * no view (the generator rejects such scenes first).
 */
export function coverViews(sight: PartsSight, initial: CameraSpec, views: readonly CameraSpec[]): CameraSpec[] {
  const left = new Set(sight.parts.flatMap((p, i) => p.cells.map((c) => `${i}|${c.join(',')}`)));
  const shows = (v: CameraSpec): Set<string> => {
    const out = new Set<string>();
    sight.parts.forEach((_, i) => {
      for (const k of sight.clearCells(v, i)) out.add(`${i}|${k}`);
    });
    return out;
  };
  for (const k of shows(initial)) left.delete(k);
  const seen = views.map(shows);
  const chosen: CameraSpec[] = [];
  let current = initial;
  while (left.size) {
    let best = -1;
    let bestGain = 0;
    let bestMove = Infinity;
    views.forEach((v, i) => {
      const gain = [...seen[i]].filter((k) => left.has(k)).length;
      const call = orbitCall(current, v);
      const move = Math.abs(call.args.azimuth_deg as number) + Math.abs(call.args.elevation_deg as number);
      if (gain > bestGain || (gain === bestGain && gain > 0 && move < bestMove)) {
        best = i;
        bestGain = gain;
        bestMove = move;
      }
    });
    if (best < 0) throw new Error(`cubes ${[...left].join(' ')} are clear from no checked view`);
    for (const k of seen[best]) left.delete(k);
    chosen.push(views[best]);
    current = views[best];
  }
  return chosen;
}

/** The letter stand of a part: `ahead` metres from the part's footprint centre towards azimuth `facingDeg` (0: +z), facing that way, on the same top. */
export function plateFor(part: TablePart, ahead: number, facingDeg: number): LetterPlate {
  const a = (facingDeg * Math.PI) / 180;
  return { letter: part.letter, at: [r9(part.at[0] + Math.sin(a) * ahead), r9(part.at[1] + Math.cos(a) * ahead)], yawDeg: facingDeg, base: part.base ?? 0 };
}

/** Half the largest footprint extent of a part on the table (any yaw), metres. */
export function footprintRadius(cells: readonly Cell[]): number {
  const xs = cells.map((c) => c[0]);
  const zs = cells.map((c) => c[2]);
  const w = (Math.max(...xs) - Math.min(...xs) + 1) * CELL;
  const d = (Math.max(...zs) - Math.min(...zs) + 1) * CELL;
  return Math.hypot(w, d) / 2;
}

/** What a wall search needs: where the wall may stand relative to the part, and how high. */
export interface WallPlan {
  /** Gap between the part's footprint circle and the wall's face, metres. */
  gap: [number, number];
  /** Wall height range, metres. */
  height: [number, number];
  /** Wall half width range, metres. */
  halfWidth: [number, number];
  /** Sideways offset from the part's centre, metres. */
  shift: [number, number];
  /** Turn of the wall about the vertical, degrees. */
  yaw: [number, number];
}

/**
 * A wall between part `pi` and the first camera (on the camera's side, i.e. towards +z turned by
 * the camera's azimuth), drawn from `plan`: the candidate to test.
 */
export function drawWall(rng: Rng, part: TablePart, camera: CameraSpec, plan: WallPlan): Wall {
  const h = rng.range(plan.height[0], plan.height[1]);
  const dist = footprintRadius(part.cells) + rng.range(plan.gap[0], plan.gap[1]) + WALL_THICKNESS / 2;
  const shift = rng.range(plan.shift[0], plan.shift[1]);
  const az = (camera.azimuth * Math.PI) / 180;
  // Towards the camera along the table, and sideways across that line.
  const fwd = [Math.sin(az), Math.cos(az)];
  const side = [Math.cos(az), -Math.sin(az)];
  const yaw = camera.azimuth + rng.int(plan.yaw[0], plan.yaw[1]);
  return {
    half: [r9(rng.range(plan.halfWidth[0], plan.halfWidth[1])), r9(h / 2), WALL_THICKNESS / 2],
    pose: { p: [r9(part.at[0] + fwd[0] * dist + side[0] * shift), r9((part.base ?? 0) + h / 2), r9(part.at[1] + fwd[1] * dist + side[1] * shift)], q: yawQuat(yaw) },
  };
}

/** Whether the footprint of upright box `inner` lies wholly within the footprint of upright box `outer`. */
function footprintInside(inner: SolidBox, outer: SolidBox): boolean {
  for (const [sx, sz] of [[-1, -1], [-1, 1], [1, -1], [1, 1]]) {
    const w = qrotate(inner.pose.q, [sx * inner.half[0], 0, sz * inner.half[2]]);
    const local = qrotate([-outer.pose.q[0], -outer.pose.q[1], -outer.pose.q[2], outer.pose.q[3]], [inner.pose.p[0] + w[0] - outer.pose.p[0], 0, inner.pose.p[2] + w[2] - outer.pose.p[2]]);
    if (Math.abs(local[0]) > outer.half[0] + 1e-9 || Math.abs(local[2]) > outer.half[2] + 1e-9) return false;
  }
  return true;
}

/**
 * Whether a wall stands clear of every part's cubes, of every plate and of the other walls, and
 * on one flat top: on the table clear of every stand, or wholly on the top of one stand.
 */
export function wallClear(s: TableLayout, wall: Wall): boolean {
  if (!boxClear(s.parts, [...s.walls, ...s.plates.map(plateBox)], wall)) return false;
  const bottom = wall.pose.p[1] - wall.half[1];
  if (bottom < 1e-9) return boxClear([], s.stands, wall);
  return s.stands.some((st) => Math.abs(st.pose.p[1] + st.half[1] - bottom) < 1e-9 && footprintInside(wall, st));
}

/** Plate side, for layouts. */
export const PLATE_SIDE = PLATE.side;
