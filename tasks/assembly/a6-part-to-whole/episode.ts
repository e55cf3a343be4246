/**
 * The A6 assembly world and its tools: the table, the board with the target's translucent
 * outline (no collider), the four trays with their eight pieces, and `place` / `remove` /
 * `commit`, carried out as real swept motions.
 *
 * Family state lives in `world.meta.placed`: for each piece on the board, the rotation it was
 * turned by, the board cell of its reference cube and the board cells it fills. A piece
 * lowered onto the board is judged as A1 judges a piece in its box (rigid-body statics on flat
 * supports): with nothing under it, it is let go and the statics check sees it fall; with its
 * centre of mass outside what carries it, the move is a statics violation; otherwise it is
 * fixed in place.
 */
import { SpaceActError, ViolationError } from '../../../sim/errors.ts';
import { qrotate } from '../../../sim/math.ts';
import type { Pose, ShapeSpec, Vec3 } from '../../../sim/types.ts';
import type { World } from '../../../sim/world.ts';
import { countPackings, type Cell } from '../../../verify/polycube.ts';
import { centreOverSupport, matApply, matToQuat, referenceCube, ROTATIONS, rotateCells, rotationIndex, turnsMatrix, type TurnName } from '../a1-occluded-packing/geometry.ts';
import { DROP_GAP, GAP, pieceMid, pieceShapes } from '../a1-occluded-packing/layout.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import {
  BOARD_CENTRE,
  BOARD_HALF,
  boardRotation,
  CELL,
  cellCentre,
  fromAgentCell,
  GHOST_INSET,
  PLATE,
  PLATE_TOP,
  round9,
  STRIP,
  TABLE,
  toAgentCell,
  transpose,
  TRAYS,
} from './layout.ts';
import { restingCubes, type PhysicalScene } from './physical.ts';
import { key } from './shapes.ts';

/** What `world.meta.placed` holds for a piece on the board. */
interface Placed {
  rotation: number;
  /** Board cell of the reference cube. */
  at: Cell;
  cells: Cell[];
}

const WOOD = { density: 700, friction: 0.6, restitution: 0 };
/** Clearance kept above everything while a piece is carried and turned. */
const CARRY_CLEARANCE = 0.02;
const BOARD_COLOR = '#d9bf92';
const TRAY_COLOR = '#c9ced3';
const GHOST_COLOR = '#6f86a6';

function box(half: Vec3, p: Vec3): ShapeSpec {
  return { type: 'box', half: half.map(round9) as Vec3, pose: { p: p.map(round9) as Vec3, q: [0, 0, 0, 1] } };
}

/** Adds the table, the board with its cell marks and the target outline, and the trays. */
function buildStatics(world: World, s: PhysicalScene): void {
  const { cols, rows } = s.board;
  const yaw = matToQuat(boardRotation(s.board.turns));
  const boardPose: Pose = { p: [BOARD_CENTRE[0], 0, BOARD_CENTRE[1]], q: yaw };
  world.addBody({
    name: 'table',
    kind: 'static',
    pose: { p: [0, -TABLE.half[1], TABLE.centreZ], q: [0, 0, 0, 1] },
    shapes: [{ type: 'box', half: TABLE.half }],
    material: WOOD,
    color: '#b9b2a6',
  });
  world.addBody({
    name: 'board',
    kind: 'static',
    pose: boardPose,
    shapes: [box([BOARD_HALF, PLATE / 2, BOARD_HALF], [0, PLATE / 2, 0])],
    material: WOOD,
    color: BOARD_COLOR,
  });
  // Cell marks over the target's grid, and a black square in cell [0, 0, 0].
  const w = (cols * CELL) / 2;
  const d = (rows * CELL) / 2;
  const line = 0.0007;
  const h = 0.00015;
  const y = PLATE_TOP + h;
  const marks: ShapeSpec[] = [];
  for (let i = 0; i <= cols; i++) marks.push(box([line, h, d], [-w + i * CELL, y, 0]));
  for (let k = 0; k <= rows; k++) marks.push(box([w, h, line], [0, y, -d + k * CELL]));
  marks.push(box([0.006, h, 0.006], [-w + CELL / 2, y, d - CELL / 2]));
  world.addBody({ name: 'board-marks', kind: 'static', collides: false, pose: boardPose, shapes: marks, color: '#2a2118' });
  // Painted axes from the corner of cell [0, 0, 0]: red along the columns (beside row 0), blue
  // along the rows (beside column 0); the red one also covers the corner where they meet.
  const gap = 0.002;
  const edge = gap + STRIP;
  world.addBody({
    name: 'column-axis',
    kind: 'static',
    collides: false,
    pose: boardPose,
    shapes: [box([w + edge / 2, h, STRIP / 2], [-edge / 2, y, d + gap + STRIP / 2])],
    color: '#c0392b',
  });
  world.addBody({
    name: 'row-axis',
    kind: 'static',
    collides: false,
    pose: boardPose,
    shapes: [box([STRIP / 2, h, d], [-w - gap - STRIP / 2, y, 0])],
    color: '#2060c0',
  });
  // The outline: one translucent cube per target cell, set in so a placed cube hides it.
  const half = CELL / 2 - GHOST_INSET;
  world.addBody({
    name: 'outline',
    kind: 'static',
    collides: false,
    pose: boardPose,
    shapes: s.target.map((c) => box([half, half, half], [(c[0] + 0.5) * CELL - w, PLATE_TOP + (c[1] + 0.5) * CELL, (c[2] + 0.5) * CELL - d])),
    color: GHOST_COLOR,
    opacity: 0.55,
  });
  TRAYS.x.forEach((x, i) => {
    world.addBody({
      name: `tray-${s.trays[i].letter}`,
      kind: 'static',
      pose: { p: [x, 0, TRAYS.z], q: [0, 0, 0, 1] },
      shapes: [box(TRAYS.half, [0, PLATE / 2, 0])],
      material: WOOD,
      color: TRAY_COLOR,
    });
  });
}

/** Largest distance of a piece's cube corners from its body origin. */
function pieceRadius(cells: readonly Cell[]): number {
  const mid = pieceMid(cells);
  let r = 0;
  for (const c of cells) {
    for (let corner = 0; corner < 8; corner++) {
      const v = [0, 1, 2].map((a) => (c[a] - mid[a]) * CELL + (corner & (1 << a) ? CELL / 2 : -CELL / 2));
      r = Math.max(r, Math.hypot(v[0], v[1], v[2]));
    }
  }
  return r;
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

/** Builds the assembly world and returns the family logic bound to it. */
export function buildPhysical(instance: Instance<PhysicalScene>, world: World): FamilyEnv {
  const s = instance.scene;
  const dims = s.board;
  buildStatics(world, s);
  const pieces = s.trays.flatMap((t, ti) => t.pieces.map((p) => ({ ...p, tray: ti })));
  for (const p of pieces) {
    world.addBody({ name: p.name, kind: 'dynamic', pose: { p: p.position, q: [0, 0, 0, 1] }, shapes: pieceShapes(p.cells), material: WOOD, color: p.color, tags: ['piece'] });
  }
  world.meta.placed = {};
  const byName = new Map(pieces.map((p) => [p.name, p]));
  const targetSet = new Set(s.target.map(key));
  const toWorld = boardRotation(dims.turns);
  const toBoard = transpose(toWorld);
  const placed = (): Record<string, Placed> => world.meta.placed as Record<string, Placed>;
  const trayTop = Math.max(...pieces.map((p) => p.position[1] + (Math.max(...p.cells.map((c) => c[1])) + 1) * CELL));
  const carryY = round9(Math.max(PLATE_TOP + dims.layers * CELL, trayTop) + Math.max(...pieces.map((p) => pieceRadius(p.cells))) + CARRY_CLEARANCE);
  const agentName = (c: readonly number[]): string => `[${toAgentCell(c, dims).join(', ')}]`;

  /** Board cells a piece fills when turned by rotation `r` with its reference cube at board cell `at`. */
  const cellsOf = (piece: (typeof pieces)[number], r: number, at: readonly number[]): Cell[] => {
    const turned = rotateCells(piece.cells, ROTATIONS[r]);
    const ref = referenceCube(turned);
    return turned.map((c) => {
      const b = matApply(toBoard, [c[0] - ref[0], c[1] - ref[1], c[2] - ref[2]]);
      return [b[0] + at[0], b[1] + at[1], b[2] + at[2]] as Cell;
    });
  };

  /** Body origin that puts a piece's cubes, turned by rotation `r`, in their cells with the reference cube at `at`. */
  const nominalOrigin = (piece: (typeof pieces)[number], r: number, at: readonly number[]): Vec3 => {
    const m = ROTATIONS[r];
    const ref = referenceCube(rotateCells(piece.cells, m));
    const mid = matApply(m, pieceMid(piece.cells));
    const centre = cellCentre(dims, dims.turns, at);
    return [0, 1, 2].map((a) => round9(centre[a] - (ref[a] - mid[a]) * CELL)) as Vec3;
  };

  const occupancy = (): Map<string, string> => {
    const occ = new Map<string, string>();
    for (const [name, rec] of Object.entries(placed())) for (const c of rec.cells) occ.set(key(c), name);
    return occ;
  };

  /** How far a placed piece rests above (negative: below) its nominal, cell-centred pose. */
  const settledBy = (name: string): number => {
    const rec = placed()[name];
    return world.getPose(name).p[1] - nominalOrigin(byName.get(name)!, rec.rotation, rec.at)[1];
  };

  /**
   * How far above its nominal pose a piece must stop to rest on what is under it: the board, or
   * the top of a placed piece where it really rests. The highest support wins; null when nothing
   * is under any of its cubes.
   */
  const liftOnSupports = (cells: readonly Cell[]): number | null => {
    const own = new Set(cells.map(key));
    const occ = occupancy();
    let lift: number | null = null;
    for (const c of cells) {
      const below: Cell = [c[0], c[1] - 1, c[2]];
      if (own.has(key(below))) continue;
      let top: number;
      if (c[1] === 0) top = PLATE_TOP;
      else if (occ.has(key(below))) top = cellCentre(dims, dims.turns, below)[1] + CELL / 2 - GAP + settledBy(occ.get(key(below))!);
      else continue;
      const need = top - (cellCentre(dims, dims.turns, c)[1] - CELL / 2 + GAP);
      lift = lift === null ? need : Math.max(lift, need);
    }
    return lift;
  };

  /** Lift straight up to the carry height, turn, carry over `to`, lower straight down onto `to`. */
  const carry = (name: string, to: Pose, what: string): void => {
    const from = world.getPose(name);
    during(`lifting '${name}'`, () => world.moveSwept(name, { p: [from.p[0], carryY, from.p[2]], q: from.q }));
    during(`turning '${name}' in the air`, () => world.moveSwept(name, { p: [from.p[0], carryY, from.p[2]], q: to.q }));
    during(`carrying '${name}'`, () => world.moveSwept(name, { p: [to.p[0], carryY, to.p[2]], q: to.q }));
    during(`lowering '${name}' ${what}`, () => world.moveSwept(name, to));
  };

  const pieceArg = (args: Record<string, unknown>): (typeof pieces)[number] => {
    const p = byName.get(String(args.piece));
    if (!p) throw new SpaceActError('invalid-argument', `piece must be one of ${[...byName.keys()].join(', ')}`, { field: 'piece' });
    return p;
  };

  const trayLetter = (name: string): string => s.trays[byName.get(name)!.tray].letter;

  return {
    tools: {
      place(args) {
        const piece = pieceArg(args);
        const name = piece.name;
        if (placed()[name]) throw new SpaceActError('invalid-argument', `'${name}' is already on the board; remove it first to place it again`, { field: 'piece' });
        const turns = (Array.isArray(args.turns) ? args.turns : []) as TurnName[];
        const cellArg = args.cell as number[];
        const m = turnsMatrix(turns);
        const rotation = rotationIndex(m);
        const at = fromAgentCell(cellArg, dims);
        const cells = cellsOf(piece, rotation, at);
        const origin = nominalOrigin(piece, rotation, at);
        const lift = liftOnSupports(cells);
        const rest: Vec3 = [origin[0], round9(origin[1] + (lift === null ? 0 : lift + DROP_GAP)), origin[2]];
        world.setKind(name, 'kinematic');
        carry(name, { p: rest, q: matToQuat(m) }, 'onto the board');
        const foreign = Object.keys(placed()).find((other) => trayLetter(other) !== trayLetter(name));
        if (foreign) {
          throw new ViolationError({
            kind: 'rule',
            bodies: [name, foreign],
            message: `'${name}' comes from tray ${trayLetter(name)} but '${foreign}' from tray ${trayLetter(foreign)} is on the board: only the two pieces of one tray may be put together (remove '${foreign}' first).`,
          });
        }
        const outside = cells.filter((c) => !targetSet.has(key(c)));
        if (outside.length) {
          throw new ViolationError({
            kind: 'rule',
            bodies: [name, 'outline'],
            message: `'${name}' would stick out of the outline: ${outside.length} of its ${cells.length} cubes would be outside the outline's cells (every cube must end inside the outline).`,
          });
        }
        const occ = occupancy();
        const carried = restingCubes(cells, new Set(occ.keys()));
        placed()[name] = { rotation, at, cells };
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
            message: `'${name}' would tip over: its centre of mass is not above the cubes that rest on the board or on the other piece.`,
          });
        }
        world.setKind(name, 'static');
        return `lowered '${name}' onto the board with its reference cube in cell [${cellArg.join(', ')}]`;
      },
      remove(args) {
        const piece = pieceArg(args);
        if (!placed()[piece.name]) throw new SpaceActError('invalid-argument', `'${piece.name}' is not on the board`, { field: 'piece' });
        world.setKind(piece.name, 'kinematic');
        carry(piece.name, { p: [piece.position[0], round9(piece.position[1] + DROP_GAP), piece.position[2]], q: [0, 0, 0, 1] }, 'back onto its tray');
        world.setKind(piece.name, 'dynamic');
        world.setVelocity(piece.name, [0, 0, 0], [0, 0, 0]);
        delete placed()[piece.name];
        return `took '${piece.name}' off the board and put it back where it lay in tray ${trayLetter(piece.name)}`;
      },
      commit() {
        return 'committed: the episode ends with the board as it is';
      },
    },
    solved() {
      const recs = Object.entries(placed());
      if (recs.length !== 2 || trayLetter(recs[0][0]) !== trayLetter(recs[1][0])) return false;
      const occ = occupancy();
      if (occ.size !== targetSet.size || ![...targetSet].every((k) => occ.has(k))) return false;
      // The record must agree with the bodies: every cube really sits in its cell.
      return recs.every(([name, rec]) => {
        const piece = byName.get(name)!;
        const pose = world.getPose(name);
        const mid = pieceMid(piece.cells);
        const cells = cellsOf(piece, rec.rotation, rec.at);
        return piece.cells.every((c, i) => {
          const local: Vec3 = [0, 1, 2].map((a) => (c[a] - mid[a]) * CELL) as Vec3;
          const at = qrotate(pose.q, local).map((v, a) => v + pose.p[a]);
          const want = cellCentre(dims, dims.turns, cells[i]);
          return [0, 1, 2].every((a) => Math.abs(at[a] - want[a]) < CELL / 4);
        });
      });
    },
    progress() {
      const recs = Object.entries(placed());
      if (recs.length === 0) return 0;
      // Only the right tray's pieces are headway; a wrong tray's can never fill the outline.
      if (recs.some(([name]) => byName.get(name)!.tray !== s.answer)) return 0;
      const filled = recs.reduce((n, [, r]) => n + r.cells.length, 0);
      const fraction = filled / s.target.length;
      const occ = occupancy();
      const free = s.target.filter((c) => !occ.has(key(c)));
      const rest = s.trays[s.answer].pieces.filter((p) => !placed()[p.name]).map((p) => p.cells);
      if (!free.length || !rest.length) return fraction;
      const completable = countPackings(rest, free, { limit: 1 }).count > 0;
      return completable ? fraction : fraction / 2;
    },
    stateText() {
      const lines = [
        `Board: the outline's grid is ${dims.cols} columns × ${dims.rows} rows × ${dims.layers} layers of ${CELL * 100} cm cells; cells are [col, row, layer]` +
          (dims.turns ? `; the board is turned ${dims.turns * 90}° counter-clockwise (seen from above) from the first view's axes.` : '.'),
        `Outline cells: ${s.target.map(agentName).join(' ')}.`,
        `Tray ${s.trays[s.answer].letter} holds the pair that forms the target.`,
      ];
      for (const p of pieces) {
        const rec = placed()[p.name];
        const pose = world.getPose(p.name);
        const where = rec
          ? `on the board, filling cells ${rec.cells.map(agentName).join(' ')}`
          : `in tray ${s.trays[p.tray].letter}, centre at x ${pose.p[0].toFixed(3)} m, z ${pose.p[2].toFixed(3)} m`;
        const shape = p.cells.map((c) => `[${c.join(',')}]`).join(' ');
        lines.push(`${p.name}: ${p.cells.length} cubes; on its tray its cubes are at ${shape} (x right, y up, z towards the front, in cubes); ${where}.`);
      }
      return lines.join('\n');
    },
  };
}
