/**
 * A tray of square cells with rectangular pieces that slide on its floor — the physical world
 * shared by the sliding-block, traffic-jam and crate-pushing families. Pieces are dynamic boxes
 * resting on a static floor inside static walls; a move carries a piece (with its drawn letter)
 * along a straight swept path, so whatever is in the way stops it as a collision. The discrete
 * position of every piece is read back from its pose, never kept beside the world.
 *
 * Tray coordinates: column `col` grows to the east, row `row` to the south; north is −Z in the
 * tray's own frame, and the whole tray may be turned about the vertical by `yawDeg` (a multiple
 * of 90°, so every pose stays exact) relative to the first view, which looks from +Z.
 */
import { SpaceActError } from '../../core/errors.ts';
import type { BodyRequirement, LetterRequirement } from '../../render/view-rule.ts';
import type { Pose, Vec3 } from '../../sim/types.ts';
import type { World } from '../../sim/world.ts';
import { glyphShapes } from './glyphs.ts';

/** Compass directions in the tray's own frame. */
export type TrayDirection = 'north' | 'east' | 'south' | 'west';
export const TRAY_DIRECTIONS: readonly TrayDirection[] = ['north', 'east', 'south', 'west'];
/** Column and row steps of each direction. */
export const DIRECTION_STEP: Record<TrayDirection, [number, number]> = { north: [0, -1], east: [1, 0], south: [0, 1], west: [-1, 0] };

/** Size and placement of a tray. */
export interface TrayLayout {
  cols: number;
  rows: number;
  /** Cell edge, m. */
  cell: number;
  /** The tray turned about +Y relative to the first view, degrees (0, 90, 180 or 270). */
  yawDeg: number;
}

/** A rectangular piece on the tray: its north-west cell and its size in cells. */
export interface TrayPiece {
  name: string;
  /** Letter drawn on top (A–Z), or none. */
  label?: string;
  col: number;
  row: number;
  /** Width east–west and depth north–south in cells. */
  w: number;
  h: number;
  /** Height of the block, m. */
  height: number;
  color: string;
  labelColor?: string;
}

/** Gap between a piece and a neighbour cell's edge, m (pieces never touch at rest). */
export const PIECE_CLEARANCE = 0.003;
/** Width of the tray floor left outside the walls on every side, m. */
export const TRAY_MARGIN = 0.06;
/** Thickness of the tray walls, m. */
export const WALL_THICKNESS = 0.01;
/** Name of the tray's floor body (excluded from slides: pieces glide on it). */
export const TRAY_FLOOR = 'tray-floor';

const QUARTER: Record<number, [number, number]> = { 0: [1, 0], 90: [0, 1], 180: [-1, 0], 270: [0, -1] };

function yaw(layout: TrayLayout): [number, number] {
  const cs = QUARTER[((layout.yawDeg % 360) + 360) % 360];
  if (!cs) throw new SpaceActError('invalid-instance', `tray yaw must be a multiple of 90°, not ${layout.yawDeg}`);
  return cs;
}

/** The tray's orientation as a quaternion (exact for quarter turns). */
export function trayQuat(layout: TrayLayout): [number, number, number, number] {
  const h = Math.SQRT1_2;
  const q: Record<number, [number, number, number, number]> = { 0: [0, 0, 0, 1], 90: [0, h, 0, h], 180: [0, 1, 0, 0], 270: [0, h, 0, -h] };
  yaw(layout);
  return q[((layout.yawDeg % 360) + 360) % 360];
}

/** A tray-frame point (x east, z south, metres from the tray centre) in the world. */
export function trayToWorld(layout: TrayLayout, x: number, y: number, z: number): Vec3 {
  const [c, s] = yaw(layout);
  // Turning by yaw about +Y: x' = x cos + z sin, z' = −x sin + z cos.
  return [x * c + z * s, y, -x * s + z * c];
}

/** A world point in the tray frame. */
export function worldToTray(layout: TrayLayout, p: Vec3): Vec3 {
  const [c, s] = yaw(layout);
  return [p[0] * c - p[2] * s, p[1], p[0] * s + p[2] * c];
}

/** Tray-frame centre of a w×h block whose north-west cell is (col, row). */
export function blockCentre(layout: TrayLayout, col: number, row: number, w: number, h: number): [number, number] {
  return [(col + w / 2 - layout.cols / 2) * layout.cell, (row + h / 2 - layout.rows / 2) * layout.cell];
}

/**
 * What the first view of a tray must show, for the view rule (`FamilyEnv.viewParts`, AUTHORING
 * step 4a): the floor, the walls, the compass letter N the rules name directions by, and each
 * named piece with its painted letter (minimum pixels at 768×768; a letter's thin strokes
 * cover few pixels even where it reads well). A piece a tier hides on purpose goes, with its
 * letter, into the declaration's `hidden`.
 */
export function trayViewBodies(pieces: string[]): BodyRequirement[] {
  return [
    { name: TRAY_FLOOR, minPixels: 20000 },
    { name: 'tray-walls', minPixels: 8000 },
    { name: 'compass-N', minPixels: 120 },
    ...pieces.flatMap((n) => [
      { name: n, minPixels: 1500 },
      { name: labelOf(n), minPixels: 100 },
    ]),
  ];
}

/**
 * The letters of a tray's first view, for the view rule: the compass N and each piece's letter
 * (`pieces`: body name → the letter painted on it), each letter going with its piece when a
 * tier hides the piece.
 */
export function trayLetters(pieces: Array<{ body: string; text: string }>, compass = true): LetterRequirement[] {
  return [
    ...(compass ? [{ body: 'compass-N', text: 'N', role: 'compass' as const }] : []),
    ...pieces.map((p) => ({ body: labelOf(p.body), text: p.text, role: 'piece' as const, piece: p.body })),
  ];
}

/** The world pose of a block resting with its base at height `base`. */
export function blockPose(layout: TrayLayout, p: Pick<TrayPiece, 'col' | 'row' | 'w' | 'h' | 'height'>, base = 0): Pose {
  const [x, z] = blockCentre(layout, p.col, p.row, p.w, p.h);
  return { p: trayToWorld(layout, x, base + p.height / 2, z), q: trayQuat(layout) };
}

/** Name of the drawn letter that rides on a piece. */
export function labelOf(name: string): string {
  return `${name}-label`;
}

/**
 * Adds the floor, the walls (with openings where `openings` says: a side and the cells along it
 * left open) and a compass letter N outside the north wall, on a rim `northMargin` wide
 * (default {@link TRAY_MARGIN}, as on the other sides).
 */
export function addTray(
  world: World,
  layout: TrayLayout,
  opts: { wallHeight: number; openings?: Array<{ side: TrayDirection; from: number; to: number }>; floorColor?: string; wallColor?: string; compass?: boolean; northMargin?: number },
): void {
  const { cols, rows, cell } = layout;
  const t = WALL_THICKNESS;
  const wood = { density: 700, friction: 0.5, restitution: 0 };
  const q = trayQuat(layout);
  const margin = TRAY_MARGIN;
  // The rim beyond the north wall, where the N lies: wider for a low first camera, which sees
  // less of the floor behind the wall.
  const north = opts.northMargin ?? margin;
  world.addBody({
    name: TRAY_FLOOR,
    kind: 'static',
    pose: { p: north === margin ? [0, -t / 2, 0] : trayToWorld(layout, 0, -t / 2, -(north - margin) / 2), q },
    shapes: [{ type: 'box', half: [(cols * cell) / 2 + t + margin, t / 2, (rows * cell) / 2 + t + (margin + north) / 2] }],
    material: wood,
    color: opts.floorColor ?? '#d9c7a3',
  });
  const shapes: Array<{ half: Vec3; p: Vec3 }> = [];
  const hw = opts.wallHeight / 2;
  const sides: TrayDirection[] = ['north', 'south', 'east', 'west'];
  for (const side of sides) {
    const along = side === 'north' || side === 'south' ? cols : rows;
    const open = new Array(along).fill(false);
    for (const o of opts.openings ?? []) if (o.side === side) for (let i = o.from; i <= o.to; i++) open[i] = true;
    // Wall pieces between openings; the corners are covered by the north and south walls.
    let i = 0;
    while (i < along) {
      if (open[i]) {
        i++;
        continue;
      }
      let e = i;
      while (e < along && !open[e]) e++;
      const ext = side === 'north' || side === 'south';
      const lo = (i - along / 2) * cell - (ext && i === 0 ? t : 0);
      const hi = (e - along / 2) * cell + (ext && e === along ? t : 0);
      const mid = (lo + hi) / 2;
      const half = (hi - lo) / 2;
      if (side === 'north') shapes.push({ half: [half, hw, t / 2], p: [mid, hw, -(rows * cell) / 2 - t / 2] });
      if (side === 'south') shapes.push({ half: [half, hw, t / 2], p: [mid, hw, (rows * cell) / 2 + t / 2] });
      if (side === 'west') shapes.push({ half: [t / 2, hw, half], p: [-(cols * cell) / 2 - t / 2, hw, mid] });
      if (side === 'east') shapes.push({ half: [t / 2, hw, half], p: [(cols * cell) / 2 + t / 2, hw, mid] });
      i = e;
    }
  }
  world.addBody({
    name: 'tray-walls',
    kind: 'static',
    pose: { p: [0, 0, 0], q },
    shapes: shapes.map((s) => ({ type: 'box', half: s.half, pose: { p: s.p, q: [0, 0, 0, 1] } })),
    material: wood,
    color: opts.wallColor ?? '#8a6a45',
  });
  if (opts.compass !== false) {
    // Far enough out that the wall does not hide it from a camera 60° up behind the tray.
    const size = Math.min(0.03, margin * 0.5);
    world.addBody({
      name: 'compass-N',
      kind: 'static',
      collides: false,
      pose: { p: trayToWorld(layout, 0, 0.0006, -(rows * cell) / 2 - t - north + size / 2 + 0.006), q },
      shapes: glyphShapes('N', size, 0.001),
      color: '#1f2d3d',
    });
  }
}

/**
 * Adds a piece and its drawn letter. A piece is a kinematic box: it rides in the tray like a
 * block in a real sliding puzzle, held to the floor, and moves only when slid. (Dynamic blocks
 * resting on the floor were tried first: Rapier kept stale contacts between a block put down
 * by a swept move and its new neighbours, and shoved blocks by up to 37 mm while settling.)
 */
export function addPiece(world: World, layout: TrayLayout, piece: TrayPiece, opts: { base?: number; density?: number } = {}): void {
  const pose = blockPose(layout, piece, opts.base ?? 0);
  world.addBody({
    name: piece.name,
    kind: 'kinematic',
    pose,
    shapes: [{ type: 'box', half: [(piece.w * layout.cell) / 2 - PIECE_CLEARANCE, piece.height / 2, (piece.h * layout.cell) / 2 - PIECE_CLEARANCE] }],
    material: { density: opts.density ?? 600, friction: 0.5, restitution: 0 },
    color: piece.color,
    tags: ['piece'],
  });
  if (piece.label) {
    const size = Math.min(piece.w, piece.h) * layout.cell * 0.55;
    world.addBody({
      name: labelOf(piece.name),
      kind: 'kinematic',
      collides: false,
      pose: { p: [pose.p[0], pose.p[1] + piece.height / 2 + 0.0006, pose.p[2]], q: pose.q },
      // Letters read upright from the tray's south side.
      shapes: glyphShapes(piece.label, size, 0.001),
      color: piece.labelColor ?? '#ffffff',
    });
  }
}

/** The members that move with a piece: the block and its letter. */
export function pieceGroup(world: World, name: string): string[] {
  return world.hasBody(labelOf(name)) ? [name, labelOf(name)] : [name];
}

/**
 * Slides a piece `cells` cells in a tray direction along a straight swept path (with its
 * letter). Anything in the way — a wall, another piece — stops it: the world throws the
 * collision as a violation and the caller's attempt rolls everything back.
 */
export function slidePiece(world: World, layout: TrayLayout, name: string, dir: TrayDirection, cells: number, opts: { exclude?: string[] } = {}): void {
  const [dc, dr] = DIRECTION_STEP[dir];
  const from = world.getPose(name);
  const d = trayToWorld(layout, dc * cells * layout.cell, 0, dr * cells * layout.cell);
  const to: Pose = { p: [from.p[0] + d[0], from.p[1], from.p[2] + d[2]], q: from.q };
  world.moveGroupSwept(pieceGroup(world, name), { type: 'path', frame: from, waypoints: [to] }, { exclude: [TRAY_FLOOR, ...(opts.exclude ?? [])] });
}

/**
 * The north-west cell of a w×h piece read from its pose (rounded to the nearest cell), and how
 * far the pose is from that cell's exact centre (m), so a caller can refuse a piece that is not
 * seated on the grid.
 */
export function pieceCell(world: World, layout: TrayLayout, name: string, w: number, h: number): { col: number; row: number; offset: number } {
  const [x, , z] = worldToTray(layout, world.getPose(name).p);
  const col = Math.round(x / layout.cell + layout.cols / 2 - w / 2);
  const row = Math.round(z / layout.cell + layout.rows / 2 - h / 2);
  const [cx, cz] = blockCentre(layout, col, row, w, h);
  return { col, row, offset: Math.hypot(x - cx, z - cz) };
}
