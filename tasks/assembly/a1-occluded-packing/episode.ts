/**
 * The A1 world and its tools: the table, the open box with its cell marks, the wall that hides
 * some pieces, the polycube pieces, and `place` / `remove` executed as real swept motions.
 *
 * Family state lives in `world.meta.placed`: for each piece in the box, the rotation it was
 * turned by and the internal cells it fills. Everything else is read from body poses.
 *
 * Pieces on the table are dynamic (the statics check after every action watches them). A piece
 * lowered into the box is judged by rigid-body statics on flat supports (`centreOverSupport`):
 * with nothing under it, it is let go as a dynamic body and the statics check sees it fall;
 * with its centre of mass outside its supports, the move is a statics violation; otherwise it
 * is fixed in place (static). Fixing it is deliberate: the pieces' outer faces are set in by
 * 1 mm, so a piece resting on the floor with an overhang on a neighbour hangs 2 mm above that
 * neighbour, and left dynamic it would rock by a degree or two onto it, which the statics
 * check (1°) would call a collapse although the real piece stands.
 */
import { SpaceActError, ViolationError } from '../../../sim/errors.ts';
import { qrotate } from '../../../sim/math.ts';
import type { Pose, ShapeSpec, Vec3 } from '../../../sim/types.ts';
import type { World } from '../../../sim/world.ts';
import type { Cell } from '../../../verify/polycube.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import type { A1Scene } from './generator.ts';
import {
  boxCells,
  cellKey,
  centreOverSupport,
  fromAgentCell,
  matApply,
  matToQuat,
  referenceCube,
  ROTATIONS,
  rotateCells,
  rotationIndex,
  toAgentCell,
  turnsMatrix,
  type TurnName,
} from './geometry.ts';
import { boxTop, CELL, cellCentre, DROP_GAP, FLOOR, FLOOR_TOP, GAP, HIDE_WALL, pieceMid, pieceShapes, round9, TABLE, WALL } from './layout.ts';
import { completable } from './solver.ts';

/** What `world.meta.placed` holds for a piece in the box. */
interface Placed {
  rotation: number;
  cells: Cell[];
}

const WOOD = { density: 700, friction: 0.6, restitution: 0 };
/** Clearance kept above everything while a piece is carried and turned. */
const CARRY_CLEARANCE = 0.02;

function box(half: Vec3, p: Vec3): ShapeSpec {
  return { type: 'box', half: half.map(round9) as Vec3, pose: { p: p.map(round9) as Vec3, q: [0, 0, 0, 1] } };
}

/** Adds the table, the box (floor and walls), the cell marks and the hiding wall. */
function buildStatics(world: World, s: A1Scene): void {
  const w = (s.box.cols * CELL) / 2;
  const d = (s.box.rows * CELL) / 2;
  const top = boxTop(s.box);
  world.addBody({
    name: 'table',
    kind: 'static',
    pose: { p: [0, -TABLE.half[1], TABLE.centreZ], q: [0, 0, 0, 1] },
    shapes: [{ type: 'box', half: TABLE.half }],
    material: WOOD,
    color: '#b9b2a6',
  });
  const wallHalfY = top / 2;
  world.addBody({
    name: 'box',
    kind: 'static',
    pose: { p: [0, 0, 0], q: [0, 0, 0, 1] },
    shapes: [
      box([w + WALL, FLOOR / 2, d + WALL], [0, FLOOR / 2, 0]),
      box([w + WALL, wallHalfY, WALL / 2], [0, wallHalfY, -d - WALL / 2]),
      box([WALL / 2, wallHalfY, d], [-w - WALL / 2, wallHalfY, 0]),
      box([WALL / 2, wallHalfY, d], [w + WALL / 2, wallHalfY, 0]),
    ],
    material: WOOD,
    color: '#d9bf92',
  });
  world.addBody({
    name: 'box-front',
    kind: 'static',
    pose: { p: [0, 0, 0], q: [0, 0, 0, 1] },
    shapes: [box([w + WALL, wallHalfY, WALL / 2], [0, wallHalfY, d + WALL / 2])],
    material: WOOD,
    color: '#3e3e3e',
  });
  // Cell marks: lines on the floor along every cell boundary, and a square in cell [0, 0, 0].
  const line = 0.0007;
  const h = 0.00015;
  const y = FLOOR_TOP + h;
  const marks: ShapeSpec[] = [];
  for (let i = 1; i < s.box.cols; i++) marks.push(box([line, h, d], [-w + i * CELL, y, 0]));
  for (let k = 1; k < s.box.rows; k++) marks.push(box([w, h, line], [0, y, -d + k * CELL]));
  const origin = cellCentre(s.box, fromAgentCell([0, 0, 0], s.box));
  marks.push(box([0.005, h, 0.005], [origin[0], y, origin[2]]));
  world.addBody({ name: 'cell-marks', kind: 'static', collides: false, pose: { p: [0, 0, 0], q: [0, 0, 0, 1] }, shapes: marks, color: '#2a2118' });
  world.addBody({
    name: 'wall',
    kind: 'static',
    pose: { p: [0, HIDE_WALL.height / 2, HIDE_WALL.zFront - HIDE_WALL.thickness / 2], q: [0, 0, 0, 1] },
    shapes: [{ type: 'box', half: [HIDE_WALL.halfLength, HIDE_WALL.height / 2, HIDE_WALL.thickness / 2] }],
    material: WOOD,
    color: '#6f8090',
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

/** Builds the world and returns the family logic bound to it. */
export function buildEpisode(instance: Instance<A1Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  buildStatics(world, s);
  for (const p of s.pieces) {
    world.addBody({
      name: p.name,
      kind: 'dynamic',
      pose: { p: p.position, q: [0, 0, 0, 1] },
      shapes: pieceShapes(p.cells),
      material: WOOD,
      color: p.color,
      tags: ['piece'],
    });
  }
  world.meta.placed = {};
  const byName = new Map(s.pieces.map((p, i) => [p.name, i]));
  const all = boxCells(s.box);
  const inBox = (c: readonly number[]): boolean =>
    c[0] >= 0 && c[0] < s.box.cols && c[1] >= 0 && c[1] < s.box.layers && c[2] >= 0 && c[2] < s.box.rows;
  const placed = (): Record<string, Placed> => world.meta.placed as Record<string, Placed>;
  const carryY = round9(Math.max(HIDE_WALL.height, boxTop(s.box)) + Math.max(...s.pieces.map((p) => pieceRadius(p.cells))) + CARRY_CLEARANCE);
  const agentName = (c: readonly number[]): string => `[${toAgentCell(c, s.box).join(', ')}]`;

  /** Which piece fills each box cell now, by the record. */
  const occupancy = (): Map<string, string> => {
    const occ = new Map<string, string>();
    for (const [name, rec] of Object.entries(placed())) for (const c of rec.cells) occ.set(cellKey(c), name);
    return occ;
  };

  /** Body-origin position that puts a piece, turned by `m`, with its cubes in the given cells. */
  const nominalOrigin = (piece: number, rotation: number, cells: readonly Cell[]): Vec3 => {
    const m = ROTATIONS[rotation];
    const turned = rotateCells(s.pieces[piece].cells, m);
    const ref = referenceCube(turned);
    const refTarget = referenceCube(cells);
    const mid = matApply(m, pieceMid(s.pieces[piece].cells));
    const centre = cellCentre(s.box, refTarget);
    return [0, 1, 2].map((a) => round9(centre[a] - (ref[a] - mid[a]) * CELL)) as Vec3;
  };

  /** Vertical offset of a placed piece from its nominal (cell-centred) pose: it rests on its supports, a little below. */
  const settledBy = (name: string): number => {
    const rec = placed()[name];
    return world.getPose(name).p[1] - nominalOrigin(byName.get(name)!, rec.rotation, rec.cells)[1];
  };

  /**
   * How far above its nominal pose (negative: below) a piece must stop to rest on what is under
   * it: the floor, or the top faces of pieces already in the box where they actually rest. The
   * highest support wins. Null when nothing is under any of its cubes.
   */
  const liftOnSupports = (cells: readonly Cell[]): number | null => {
    const own = new Set(cells.map(cellKey));
    const occ = occupancy();
    let lift: number | null = null;
    for (const c of cells) {
      const below: Cell = [c[0], c[1] - 1, c[2]];
      if (own.has(cellKey(below))) continue;
      let top: number;
      if (c[1] === 0 && inBox(c)) top = FLOOR_TOP;
      else if (inBox(below) && occ.has(cellKey(below))) top = cellCentre(s.box, below)[1] + CELL / 2 - GAP + settledBy(occ.get(cellKey(below))!);
      else continue;
      const need = top - (cellCentre(s.box, c)[1] - CELL / 2 + GAP);
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

  const pieceArg = (args: Record<string, unknown>): number => {
    const i = byName.get(String(args.piece));
    if (i === undefined) throw new SpaceActError('invalid-argument', `piece must be one of ${[...byName.keys()].join(', ')}`, { field: 'piece' });
    return i;
  };

  return {
    tools: {
      place(args) {
        const piece = pieceArg(args);
        const name = s.pieces[piece].name;
        if (placed()[name]) throw new SpaceActError('invalid-argument', `'${name}' is already in the box; remove it first to place it again`, { field: 'piece' });
        const turns = (Array.isArray(args.turns) ? args.turns : []) as TurnName[];
        const cellArg = args.cell as number[];
        const m = turnsMatrix(turns);
        const rotation = rotationIndex(m);
        const turned = rotateCells(s.pieces[piece].cells, m);
        const ref = referenceCube(turned);
        const at = fromAgentCell(cellArg, s.box);
        const cells = turned.map((c) => [c[0] - ref[0] + at[0], c[1] - ref[1] + at[1], c[2] - ref[2] + at[2]] as Cell);
        const origin = nominalOrigin(piece, rotation, cells);
        const lift = liftOnSupports(cells);
        const rest: Vec3 = [origin[0], round9(origin[1] + (lift === null ? 0 : lift + DROP_GAP)), origin[2]];
        world.setKind(name, 'kinematic');
        carry(name, { p: rest, q: matToQuat(m) }, 'into the box');
        const outside = cells.filter((c) => !inBox(c));
        if (outside.length) {
          throw new ViolationError({
            kind: 'rule',
            bodies: [name, 'box'],
            message: `'${name}' would stick out of the box: ${outside.length} of its cubes would be outside the box's cells (every cube must end inside the box).`,
          });
        }
        placed()[name] = { rotation, cells };
        const own = new Set(cells.map(cellKey));
        const occ = occupancy();
        const carried = cells.filter((c) => {
          const below = cellKey([c[0], c[1] - 1, c[2]]);
          return !own.has(below) && (c[1] === 0 || occ.has(below));
        });
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
            message: `'${name}' would tip over: its centre of mass is not above the cubes that rest on the floor or on other pieces.`,
          });
        }
        // Carried: it stays where it was put (rigid-body statics decided above), fixed in place.
        world.setKind(name, 'static');
        return `lowered '${name}' into the box with its reference cube in cell [${cellArg.join(', ')}]`;
      },
      remove(args) {
        const piece = pieceArg(args);
        const p = s.pieces[piece];
        if (!placed()[p.name]) throw new SpaceActError('invalid-argument', `'${p.name}' is not in the box`, { field: 'piece' });
        world.setKind(p.name, 'kinematic');
        carry(p.name, { p: [p.position[0], round9(p.position[1] + DROP_GAP), p.position[2]], q: [0, 0, 0, 1] }, 'back onto the table');
        world.setKind(p.name, 'dynamic');
        world.setVelocity(p.name, [0, 0, 0], [0, 0, 0]);
        delete placed()[p.name];
        return `took '${p.name}' out of the box and put it back where it lay`;
      },
    },
    solved() {
      const occ = occupancy();
      if (!all.every((c) => occ.has(cellKey(c)))) return false;
      // The record must agree with the bodies: every cube really sits in its cell.
      return Object.entries(placed()).every(([name, rec]) => {
        const piece = s.pieces[byName.get(name)!];
        const pose = world.getPose(name);
        const mid = pieceMid(piece.cells);
        const turned = rotateCells(piece.cells, ROTATIONS[rec.rotation]);
        const ref = referenceCube(turned);
        const refTarget = referenceCube(rec.cells);
        return piece.cells.every((c) => {
          const local: Vec3 = [0, 1, 2].map((a) => (c[a] - mid[a]) * CELL) as Vec3;
          const world_ = qrotate(pose.q, local).map((v, a) => v + pose.p[a]);
          const t = matApply(ROTATIONS[rec.rotation], c);
          const cell = [0, 1, 2].map((a) => t[a] - ref[a] + refTarget[a]);
          const want = cellCentre(s.box, cell);
          return [0, 1, 2].every((a) => Math.abs(world_[a] - want[a]) < CELL / 4);
        });
      });
    },
    progress() {
      const recs = Object.entries(placed());
      const filled = recs.reduce((n, [, r]) => n + r.cells.length, 0);
      if (filled === 0) return 0;
      const used = new Set(recs.map(([name]) => byName.get(name)!));
      const free = all.filter((c) => !occupancy().has(cellKey(c)));
      const rest = s.pieces.map((p, i) => ({ cells: p.cells, i })).filter((x) => !used.has(x.i)).map((x) => x.cells);
      const fraction = filled / all.length;
      return completable(rest, free) ? fraction : fraction / 2;
    },
    stateText() {
      const occ = occupancy();
      const lines = [
        `Box: ${s.box.cols} columns × ${s.box.rows} rows × ${s.box.layers} layers of ${CELL * 100} cm cells; cells are [col, row, layer].`,
      ];
      for (const p of s.pieces) {
        const rec = placed()[p.name];
        const pose = world.getPose(p.name);
        const where = rec
          ? `in the box, filling cells ${rec.cells.map(agentName).join(' ')}`
          : `on the table ${p.hidden ? 'behind the wall' : 'in view'}, centre at x ${pose.p[0].toFixed(3)} m, z ${pose.p[2].toFixed(3)} m`;
        const shape = p.cells.map((c) => `[${c.join(',')}]`).join(' ');
        lines.push(`${p.name}: ${p.cells.length} cubes; on the table its cubes are at ${shape} (x right, y up, z towards the front, in cubes); ${where}.`);
      }
      const empty = all.filter((c) => !occ.has(cellKey(c)));
      lines.push(empty.length ? `Empty cells: ${empty.map(agentName).join(' ')}.` : 'The box is full.');
      return lines.join('\n');
    },
  };
}
