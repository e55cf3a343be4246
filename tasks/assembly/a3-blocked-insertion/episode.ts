/**
 * The A3 world and its tools: the table, the open box with its cell marks, the `+occ` wall, the
 * polycube pieces, and `place` / `remove` executed as real swept motions by the shared
 * polycube-piece placement (`tasks/kits/polycube-pieces/placement.ts`).
 *
 * The pieces that start in the box are put there at build time by the same `place` the agent
 * calls (lifted from their own free place on the table, turned, lowered straight down), in an
 * order the order search finds, so the start is a state the real mechanics reach. Family state
 * lives in `world.meta.placed` (the kit's records); everything else is read from body poses.
 */
import { SpaceActError } from '../../../core/errors.ts';
import type { ShapeSpec } from '../../../sim/types.ts';
import type { World } from '../../../sim/world.ts';
import { breadthFirst } from '../../../solvers/discrete-search/index.ts';
import { countPackings, type Cell } from '../../../solvers/polycube.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import { cellKey, toAgentCell } from '../../kits/polycube-pieces/cells.ts';
import { subsetsWithVolume } from '../../kits/polycube-pieces/filling.ts';
import { blockCells } from '../../kits/polycube-pieces/partition.ts';
import { addTable, boxShape, CELL, WOOD } from '../../kits/polycube-pieces/pieces.ts';
import { piecePlacement, type PlacedPiece } from '../../kits/polycube-pieces/placement.ts';
import { ROTATIONS } from '../../kits/polycube-pieces/rotations.ts';
import { homeCells, orderProblem } from './order.ts';
import { instanceSettings } from '../../levers.ts';
import { START_PIECE_MIN_PIXELS } from './view.ts';
import { A3_LEVERS, boxTop, cellCentre, TIER_SPECS, FLOOR, FLOOR_TOP, FRONT_RIM, HIDE_WALL, inBox, ORIGIN_MARK_HALF, TABLE, WALL, type A3Scene } from './scene.ts';

/** Adds the table, the box (floor and walls), the cell marks, the column-0 mark and the `+occ` wall. */
function buildStatics(world: World, s: A3Scene): void {
  const w = (s.box.cols * CELL) / 2;
  const d = (s.box.rows * CELL) / 2;
  const top = boxTop(s.box);
  addTable(world, TABLE);
  const wallHalfY = top / 2;
  world.addBody({
    name: 'box',
    kind: 'static',
    pose: { p: [0, 0, 0], q: [0, 0, 0, 1] },
    shapes: [
      boxShape([w + WALL, FLOOR / 2, d + WALL], [0, FLOOR / 2, 0]),
      boxShape([w + WALL, wallHalfY, WALL / 2], [0, wallHalfY, -d - WALL / 2]),
      boxShape([WALL / 2, wallHalfY, d], [-w - WALL / 2, wallHalfY, 0]),
      boxShape([WALL / 2, wallHalfY, d], [w + WALL / 2, wallHalfY, 0]),
    ],
    material: WOOD,
    color: '#d9bf92',
  });
  // The front wall is a low rim, so the first view sees into the front row over it.
  const rimTop = FLOOR_TOP + FRONT_RIM;
  const rimHalfY = rimTop / 2;
  world.addBody({
    name: 'box-front',
    kind: 'static',
    pose: { p: [0, 0, 0], q: [0, 0, 0, 1] },
    shapes: [boxShape([w + WALL, rimHalfY, WALL / 2], [0, rimHalfY, d + WALL / 2])],
    material: WOOD,
    color: '#3e3e3e',
  });
  // Cell marks: lines on the floor along every cell boundary.
  const line = 0.0007;
  const h = 0.00015;
  const y = FLOOR_TOP + h;
  const marks: ShapeSpec[] = [];
  for (let i = 1; i < s.box.cols; i++) marks.push(boxShape([line, h, d], [-w + i * CELL, y, 0]));
  for (let k = 1; k < s.box.rows; k++) marks.push(boxShape([w, h, line], [0, y, -d + k * CELL]));
  world.addBody({ name: 'cell-marks', kind: 'static', collides: false, pose: { p: [0, 0, 0], q: [0, 0, 0, 1] }, shapes: marks, color: '#2a2118' });
  // Column 0's mark sits on top of the front rim, where no piece in the box can cover it.
  world.addBody({
    name: 'origin-mark',
    kind: 'static',
    collides: false,
    pose: { p: [0, 0, 0], q: [0, 0, 0, 1] },
    shapes: [boxShape([ORIGIN_MARK_HALF, h, WALL / 2], [-w + CELL / 2, rimTop + h, d + WALL / 2])],
    color: '#111111',
  });
  if (s.wall) {
    world.addBody({
      name: 'wall',
      kind: 'static',
      pose: { p: [0, HIDE_WALL.height / 2, HIDE_WALL.zFront - HIDE_WALL.thickness / 2], q: [0, 0, 0, 1] },
      shapes: [{ type: 'box', half: [HIDE_WALL.halfLength, HIDE_WALL.height / 2, HIDE_WALL.thickness / 2] }],
      material: WOOD,
      color: '#6f8090',
    });
  }
}

/** An order the starting pieces can be lowered into the box in, alone (the order search, placements only). */
export function startOrder(s: A3Scene): number[] {
  const home = homeCells(s);
  const found = breadthFirst(orderProblem(home, 0, true));
  if (!found.solvable) throw new SpaceActError('invalid-state', 'the pieces that start in the box cannot be lowered there', {});
  return found.moves.map((m) => m.piece);
}

/** Whether the free cells can still be filled exactly with some of the remaining pieces (in any order, ignoring how they would be lowered). */
function completable(remaining: readonly Cell[][], free: Cell[]): boolean {
  if (free.length === 0) return true;
  return subsetsWithVolume(remaining, free.length).some((s) => countPackings(s.map((i) => remaining[i]), free, { limit: 1 }).count > 0);
}

/** Builds the world and returns the family logic bound to it. */
export function build(instance: Instance<A3Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  buildStatics(world, s);
  const all = blockCells(s.box);
  const contains = (c: readonly number[]): boolean => inBox(s.box, c);
  const pieces = piecePlacement(world, {
    pieces: s.pieces,
    grid: {
      dims: s.box,
      rotation: ROTATIONS[0],
      cellCentre: (c) => cellCentre(s.box, c),
      // Only the box has a floor: a cube beside it finds nothing to rest on.
      floorUnder: (c) => (contains(c) ? FLOOR_TOP : null),
      contains,
      body: 'box',
    },
    clearTop: Math.max(s.wall ? HIDE_WALL.height : 0, boxTop(s.box)),
    words: {
      placedWhere: 'in the box',
      into: 'into the box',
      back: 'onto the table',
      supports: 'the floor or on other pieces',
      outsideCount: (outside) => `${outside} of its cubes`,
      removed: (p) => `took '${p.name}' out of the box and set it down on the table`,
    },
    record: (rotation, _at, cells): PlacedPiece => ({ rotation, cells }),
    // One text for every refusal (issue 36): which body it met, how many cubes stuck out, or
    // whether it would fall or tip are each a reading of the piece's shape for a prober.
    refusal: {
      place: (name) => `'${name}' does not fit there; nothing moved.`,
      remove: (name) => `'${name}' cannot be lifted out now; nothing moved.`,
    },
  });
  // The starting pieces go in by the agent's own `place`, from their free places on the table.
  for (const p of startOrder(s)) {
    const piece = s.pieces[p];
    pieces.place({ piece: piece.name, turns: piece.start!.turns, cell: piece.start!.cell });
  }
  const startFilled = pieces.occupancy().size;
  const agentName = (c: readonly number[]): string => `[${toAgentCell(c, s.box).join(', ')}]`;

  return {
    tools: { place: pieces.place, remove: pieces.remove },
    viewParts: (ctx) => [
      {
        // Every ruler: the rims' two give the cells, the table's the pieces' sizes.
        rulers: (ctx.scene().rulers ?? []).map((_, i) => i),
        bodies: [
          { name: 'table', minPixels: 20000, mayBeCut: true },
          ...(s.wall ? [{ name: 'wall', minPixels: 20000, mayBeCut: true }] : []),
          { name: 'box', minPixels: 3000 },
          { name: 'box-front', minPixels: 800 },
          { name: 'origin-mark', minPixels: 40 },
          ...s.pieces.map((p) => ({ name: p.name, minPixels: p.start ? START_PIECE_MIN_PIXELS : 1500 })),
        ],
        // The floor lines show only where no piece covers the floor: a box nearly full from the
        // first view shows a few pixels of them (A3-L7-s4: 21), by the task's nature, not the
        // camera's. The cells stay readable from the rims' rulers and the column-0 mark, which
        // are held to the rule.
        scenery: ['cell-marks'],
        hidden: s.pieces.filter((p) => p.hidden).map((p) => p.name),
        ...(s.wall ? { hiddenBecause: '+occ (L7): the grey wall hides some pieces on the table from the first view' } : {}),
        // As many as the tier text says ("2 of the table pieces hidden"); a lever study's own (A3-L5+occ).
        hiddenAtMost: instanceSettings(instance, TIER_SPECS, A3_LEVERS).hidden,
      },
    ],
    solved() {
      const occ = pieces.occupancy();
      // The record must agree with the bodies as well: every cube really sits in its cell.
      return all.every((c) => occ.has(cellKey(c))) && pieces.recordsMatchBodies();
    },
    progress() {
      const occ = pieces.occupancy();
      const gained = occ.size - startFilled;
      if (gained <= 0) return 0;
      const placed = pieces.placed();
      const free = all.filter((c) => !occ.has(cellKey(c)));
      const rest = s.pieces.filter((p) => !placed[p.name]).map((p) => p.cells);
      const fraction = gained / (all.length - startFilled);
      return completable(rest, free) ? fraction : fraction / 2;
    },
    stateText() {
      const occ = pieces.occupancy();
      const lines = [`Box: ${s.box.cols} columns × ${s.box.rows} rows × ${s.box.layers} layers of ${CELL * 100} cm cells; cells are [col, row, layer].`];
      for (const p of s.pieces) {
        const rec = pieces.placed()[p.name];
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
