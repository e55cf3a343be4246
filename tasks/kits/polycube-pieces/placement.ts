/**
 * `place` and `remove` for polycube pieces, carried out as real swept motions: a piece is
 * lifted straight up to a carry height, turned in the air, carried over its target and lowered
 * straight down (each leg a `World.moveSwept`, so touching anything is a collision), and put
 * back the same way. The families differ only in their grid (where it stands, whether it is
 * turned, where it has a floor, which cells a piece may fill), their extra rules and their
 * wording, which {@link PlacementSpec} carries.
 *
 * State lives in `world.meta.placed` (one record per placed piece), so snapshots, rollbacks
 * and the state hash cover it. A lowered piece is judged by rigid-body statics on flat
 * supports ({@link centreOverSupport}): with nothing under it, it is let go as a dynamic body
 * and the statics check after the action sees it fall; with its centre of mass outside its
 * supports, the move is a statics violation; otherwise it is fixed in place (static). Fixing it
 * is deliberate: the pieces' outer faces are set in by 1 mm, so a piece resting on the floor
 * with an overhang on a neighbour hangs 2 mm above that neighbour, and left dynamic it would
 * rock by a degree or two onto it, which the statics check (1°) would call a collapse although
 * the real piece stands.
 */
import { SpaceActError } from '../../../core/errors.ts';
import { ViolationError } from '../../../sim/violation.ts';
import { qrotate } from '../../../sim/math.ts';
import type { Pose, Vec3 } from '../../../sim/types.ts';
import type { World } from '../../../sim/world.ts';
import { rotate, type Cell, type Rotation } from '../../../solvers/polycube.ts';
import { cellKey, fromAgentCell, referenceCube, type GridDims } from './cells.ts';
import { CELL, DROP_GAP, GAP, pieceMid, pieceRadius, pieceShapes, WOOD } from './pieces.ts';
import { matApply, matToQuat, ROTATIONS, rotationIndex, transpose, turnsMatrix, type TurnName } from './rotations.ts';
import { centreOverSupport, restingCubes } from './statics.ts';
import { ENTRY_OUTWARD, entryShiftCells, type EntrySide } from './entry.ts';
import { round9 } from '../../../core/determinism.ts';

/** Clearance kept above everything while a piece is carried and turned. */
const CARRY_CLEARANCE = 0.02;

/** A piece as it lies before it is placed, and where `remove` puts it back. */
export interface TablePiece {
  /** Body name, and the name the agent uses. */
  name: string;
  /** CSS colour. */
  color: string;
  /** Its cubes in the orientation it lies in (x right, y up, z front), normalised. */
  cells: Cell[];
  /** Where its body origin (the middle of its cell bounding box) rests, metres. */
  position: Vec3;
}

/** What `world.meta.placed` holds for a placed piece; a family's record may carry more. */
export interface PlacedPiece {
  /** Index into ROTATIONS of the turn applied to the piece's table orientation. */
  rotation: number;
  /** Grid cells it fills, in the order of the piece's own cells. */
  cells: Cell[];
}

/** The grid pieces are placed into. */
export interface PlacementGrid {
  /** Its size in cells: how the agent's `[col, row, layer]` map to grid cells. */
  dims: GridDims;
  /** Grid frame → world (the identity for a grid aligned with the world). */
  rotation: Rotation;
  /** World centre of a grid cell. */
  cellCentre(c: readonly number[]): Vec3;
  /** Top of the floor under a bottom-layer cell, or null where a cube there has no floor under it. */
  floorUnder(c: readonly number[]): number | null;
  /** Whether a piece may end with a cube in this cell. */
  contains(c: readonly number[]): boolean;
  /** The body a cube outside the grid sticks out of, named in the violation: 'box', 'outline'. */
  body: string;
}

/** How a family words what happens, so the shared mechanics speak each family's language. */
export interface PlacementWords {
  /** Where a placed piece is: 'in the box'. */
  placedWhere: string;
  /** Where `place` lowers a piece: 'into the box'. */
  into: string;
  /** Where `remove` lowers it: 'back onto the table'. */
  back: string;
  /** What carries a piece, after "the cubes that rest on": 'the floor or on other pieces'. */
  supports: string;
  /** How many of a piece's cubes would end outside the grid: '2 of its cubes'. */
  outsideCount(outside: number, cubes: number): string;
  /** The reply to a `remove` of `piece`. */
  removed(piece: TablePiece): string;
}

/** What one family's placement is built from. */
export interface PlacementSpec<P extends TablePiece, R extends PlacedPiece> {
  /** The pieces, added to the world as dynamic bodies in this order. */
  pieces: readonly P[];
  /** The grid they are placed into. */
  grid: PlacementGrid;
  /** Top of the highest thing a carried piece must clear (walls, box rims, trays). */
  clearTop: number;
  /** The family's wording of replies and violations. */
  words: PlacementWords;
  /**
   * The record stored for a placed piece with its reference cube in grid cell `at`. It is
   * hashed with the state, so it is the family's to shape; the mechanics only read
   * `rotation` and `cells`.
   */
  record(rotation: number, at: Cell, cells: Cell[]): R;
  /** Family rules checked once a piece has arrived, before it is checked against the grid: throws a `ViolationError`. */
  admit?(piece: P, placed: Readonly<Record<string, R>>): void;
  /**
   * One wording for every refusal, when a family wants its results not to tell the causes
   * apart (issue 36: "would touch the box", "N of its cubes would be outside", "would tip
   * over" and a fall are each a probe's reading of the piece's shape). Given, every refused
   * `place` — a collision on the way, a cube outside the grid, nothing under it, its centre
   * overhanging — is one rule violation naming only the piece, with this text; a piece with
   * nothing under it is refused at once instead of let go. The same for a `remove` that
   * touches something on the way. The rollback image still shows what happened.
   */
  refusal?: { place(piece: string): string; remove(piece: string): string };
}

/** The placement tools bound to one world, and what a family's `solved`, `progress` and `stateText` read. */
export interface PiecePlacement<R extends PlacedPiece> {
  /** The `place(piece, turns, cell)` tool. */
  place(args: Record<string, unknown>): string;
  /** The `remove(piece)` tool. */
  remove(args: Record<string, unknown>): string;
  /** The placed pieces' records, by piece name (live: the world's meta). */
  placed(): Record<string, R>;
  /** Which piece fills each grid cell now, by the records, keyed by {@link cellKey}. */
  occupancy(): Map<string, string>;
  /** Whether every placed piece's cubes really sit in the cells its record names. */
  recordsMatchBodies(): boolean;
}

/** Re-throws a swept-motion violation with the phase of the move in front of its message. */
function during<T>(phase: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof ViolationError) throw new ViolationError({ ...err.violation, message: `${phase}: ${err.violation.message}` });
    throw err;
  }
}

/** Adds the pieces to the world and returns `place` / `remove` and the record readers bound to it. */
export function piecePlacement<P extends TablePiece, R extends PlacedPiece>(world: World, spec: PlacementSpec<P, R>): PiecePlacement<R> {
  const { grid, words } = spec;
  for (const p of spec.pieces) {
    world.addBody({ name: p.name, kind: 'dynamic', pose: { p: p.position, q: [0, 0, 0, 1] }, shapes: pieceShapes(p.cells), material: WOOD, color: p.color, tags: ['piece'] });
  }
  world.meta.placed = {};
  const byName = new Map(spec.pieces.map((p) => [p.name, p]));
  const toWorld = grid.rotation;
  const toGrid = transpose(toWorld);
  const placed = (): Record<string, R> => world.meta.placed as Record<string, R>;
  const carryY = round9(spec.clearTop + Math.max(...spec.pieces.map((p) => pieceRadius(p.cells))) + CARRY_CLEARANCE);

  const occupancy = (): Map<string, string> => {
    const occ = new Map<string, string>();
    for (const [name, rec] of Object.entries(placed())) for (const c of rec.cells) occ.set(cellKey(c), name);
    return occ;
  };

  /** Grid cells a piece fills when turned by rotation `r` with its reference cube at grid cell `at`. */
  const cellsOf = (cells: readonly Cell[], r: number, at: readonly number[]): Cell[] => {
    const turned = rotate(cells, ROTATIONS[r]);
    const ref = referenceCube(turned);
    return turned.map((c) => {
      const b = matApply(toGrid, [c[0] - ref[0], c[1] - ref[1], c[2] - ref[2]]);
      return [b[0] + at[0], b[1] + at[1], b[2] + at[2]] as Cell;
    });
  };

  /**
   * The grid cell of the reference cube of placed cells. The reference cube is picked in the
   * world's frame, so the cells are turned there and back; records need not store it.
   */
  const referenceCell = (cells: readonly Cell[]): Cell => matApply(toGrid, referenceCube(rotate(cells, toWorld))) as Cell;

  /** Body origin that puts a piece's cubes, turned by rotation `r`, in their cells with the reference cube at `at`. */
  const nominalOrigin = (cells: readonly Cell[], r: number, at: readonly number[]): Vec3 => {
    const m = ROTATIONS[r];
    const ref = referenceCube(rotate(cells, m));
    const mid = matApply(m, pieceMid(cells));
    const centre = grid.cellCentre(at);
    return [0, 1, 2].map((a) => round9(centre[a] - (ref[a] - mid[a]) * CELL)) as Vec3;
  };

  /** How far a placed piece rests above (negative: below) its nominal, cell-centred pose. */
  const settledBy = (name: string): number => {
    const rec = placed()[name];
    return world.getPose(name).p[1] - nominalOrigin(byName.get(name)!.cells, rec.rotation, referenceCell(rec.cells))[1];
  };

  /**
   * How far above its nominal pose (negative: below) a piece must stop to rest on what is under
   * it: the floor, or the top faces of placed pieces where they actually rest. The highest
   * support wins. Null when nothing is under any of its cubes.
   */
  const liftOnSupports = (cells: readonly Cell[]): number | null => {
    const own = new Set(cells.map(cellKey));
    const occ = occupancy();
    let lift: number | null = null;
    for (const c of cells) {
      const below: Cell = [c[0], c[1] - 1, c[2]];
      if (own.has(cellKey(below))) continue;
      const floor = c[1] === 0 ? grid.floorUnder(c) : null;
      let top: number;
      if (floor !== null) top = floor;
      else if (occ.has(cellKey(below))) top = grid.cellCentre(below)[1] + CELL / 2 - GAP + settledBy(occ.get(cellKey(below))!);
      else continue;
      const need = top - (grid.cellCentre(c)[1] - CELL / 2 + GAP);
      lift = lift === null ? need : Math.max(lift, need);
    }
    return lift;
  };

  /**
   * Lift straight up to the carry height, turn, carry over `to`, lower straight down onto `to`.
   * With a side `offset` (side entry, `entry.ts`), carry over `to + offset` instead, lower
   * there and slide level onto `to`.
   */
  const carry = (name: string, to: Pose, what: string, offset: Vec3 | null = null): void => {
    const from = world.getPose(name);
    const over: Vec3 = offset ? [round9(to.p[0] + offset[0]), to.p[1], round9(to.p[2] + offset[2])] : to.p;
    during(`lifting '${name}'`, () => world.moveSwept(name, { p: [from.p[0], carryY, from.p[2]], q: from.q }));
    during(`turning '${name}' in the air`, () => world.moveSwept(name, { p: [from.p[0], carryY, from.p[2]], q: to.q }));
    during(`carrying '${name}'`, () => world.moveSwept(name, { p: [over[0], carryY, over[2]], q: to.q }));
    during(`lowering '${name}' ${what}`, () => world.moveSwept(name, { p: over, q: to.q }));
    if (offset) during(`sliding '${name}' ${what}`, () => world.moveSwept(name, to));
  };

  /** The world offset a piece starts from when it slides into grid `cells` from `side` (null from above). */
  const entryOffset = (cells: readonly Cell[], side: EntrySide): Vec3 | null => {
    if (side === 'above') return null;
    const out = matApply(toWorld, ENTRY_OUTWARD[side]);
    const s = entryShiftCells(cells, side, grid.dims) * CELL;
    return [round9(out[0] * s), 0, round9(out[2] * s)];
  };

  const pieceArg = (args: Record<string, unknown>): P => {
    const p = byName.get(String(args.piece));
    if (!p) throw new SpaceActError('invalid-argument', `piece must be one of ${[...byName.keys()].join(', ')}`, { field: 'piece' });
    return p;
  };

  return {
    place(args) {
      const piece = pieceArg(args);
      const name = piece.name;
      if (placed()[name]) throw new SpaceActError('invalid-argument', `'${name}' is already ${words.placedWhere}; remove it first to place it again`, { field: 'piece' });
      const turns = (Array.isArray(args.turns) ? args.turns : []) as TurnName[];
      const cellArg = args.cell as number[];
      const m = turnsMatrix(turns);
      const rotation = rotationIndex(m);
      const at = fromAgentCell(cellArg, grid.dims);
      const cells = cellsOf(piece.cells, rotation, at);
      const origin = nominalOrigin(piece.cells, rotation, at);
      const lift = liftOnSupports(cells);
      const rest: Vec3 = [origin[0], round9(origin[1] + (lift === null ? 0 : lift + DROP_GAP)), origin[2]];
      // Side entry (`entry.ts`): only where a family's schema offers `from`; default from above.
      const offset = entryOffset(cells, typeof args.from === 'string' ? (args.from as EntrySide) : 'above');
      world.setKind(name, 'kinematic');
      if (spec.refusal) {
        const text = spec.refusal.place(name);
        return refusingAs(text, name, () => placeCarried(piece, m, rotation, at, cells, rest, cellArg, text, offset));
      }
      return placeCarried(piece, m, rotation, at, cells, rest, cellArg, null, offset);
    },
    remove(args) {
      const piece = pieceArg(args);
      if (!placed()[piece.name]) throw new SpaceActError('invalid-argument', `'${piece.name}' is not ${words.placedWhere}`, { field: 'piece' });
      world.setKind(piece.name, 'kinematic');
      const lift = (): void => carry(piece.name, { p: [piece.position[0], round9(piece.position[1] + DROP_GAP), piece.position[2]], q: [0, 0, 0, 1] }, words.back);
      if (spec.refusal) refusingAs(spec.refusal.remove(piece.name), piece.name, lift);
      else lift();
      world.setKind(piece.name, 'dynamic');
      world.setVelocity(piece.name, [0, 0, 0], [0, 0, 0]);
      delete placed()[piece.name];
      return words.removed(piece);
    },
    placed,
    occupancy,
    recordsMatchBodies() {
      return Object.entries(placed()).every(([name, rec]) => {
        const piece = byName.get(name)!;
        const pose = world.getPose(name);
        const mid = pieceMid(piece.cells);
        return piece.cells.every((c, i) => {
          const local: Vec3 = [0, 1, 2].map((a) => (c[a] - mid[a]) * CELL) as Vec3;
          const at = qrotate(pose.q, local).map((v, a) => v + pose.p[a]);
          const want = grid.cellCentre(rec.cells[i]);
          return [0, 1, 2].every((a) => Math.abs(at[a] - want[a]) < CELL / 4);
        });
      });
    },
  };

  /** Runs `fn`, turning any violation it throws into one rule violation naming only `name`, with `text`. */
  function refusingAs<T>(text: string, name: string, fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      if (err instanceof ViolationError) throw new ViolationError({ kind: 'rule', bodies: [name], message: text });
      throw err;
    }
  }

  /**
   * The rest of `place` once the piece is lifted off the table: carry it, check it against the
   * family's rules and the grid, and let it rest. With a `refusal` text, a piece with nothing
   * under it is refused at once rather than let go.
   */
  function placeCarried(piece: P, m: ReturnType<typeof turnsMatrix>, rotation: number, at: Cell, cells: Cell[], rest: Vec3, cellArg: number[], refusal: string | null, offset: Vec3 | null): string {
    const name = piece.name;
    carry(name, { p: rest, q: matToQuat(m) }, words.into, offset);
    spec.admit?.(piece, placed());
    const outside = cells.filter((c) => !grid.contains(c));
    if (outside.length) {
      throw new ViolationError({
        kind: 'rule',
        bodies: [name, grid.body],
        message: `'${name}' would stick out of the ${grid.body}: ${words.outsideCount(outside.length, cells.length)} would be outside the ${grid.body}'s cells (every cube must end inside the ${grid.body}).`,
      });
    }
    const carried = restingCubes(cells, new Set(occupancy().keys()));
    if (carried.length === 0 && refusal !== null) throw new ViolationError({ kind: 'rule', bodies: [name], message: refusal });
    placed()[name] = spec.record(rotation, at, cells);
    if (carried.length === 0) {
      // Nothing under it: let go, and the statics check after the action sees it fall.
      world.setKind(name, 'dynamic');
      world.setVelocity(name, [0, 0, 0], [0, 0, 0]);
      return `let go of '${name}' with nothing under it`;
    }
    if (!centreOverSupport(cells, carried)) {
      throw new ViolationError({
        kind: 'statics',
        bodies: [name],
        message: `'${name}' would tip over: its centre of mass is not above the cubes that rest on ${words.supports}.`,
      });
    }
    // Carried: it stays where it was put (rigid-body statics decided above), fixed in place.
    world.setKind(name, 'static');
    return `lowered '${name}' ${words.into} with its reference cube in cell [${cellArg.join(', ')}]`;
  }
}
