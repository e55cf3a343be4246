/**
 * The A1 world and its tools: the table, the open box with its cell marks, the wall that hides
 * some pieces, the polycube pieces, and `place` / `remove` executed as real swept motions by the
 * shared polycube-piece placement (`../polycube-pieces/placement.ts`).
 *
 * Family state lives in `world.meta.placed`: for each piece in the box, the rotation it was
 * turned by and the internal cells it fills. Everything else is read from body poses. Pieces
 * on the table are dynamic (the statics check after every action watches them); a piece in
 * the box is judged by rigid-body statics on flat supports and fixed in place where it stands.
 */
import type { ShapeSpec } from '../../../sim/types.ts';
import type { World } from '../../../sim/world.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import { cellKey, fromAgentCell, toAgentCell } from '../../kits/polycube-pieces/cells.ts';
import { addTable, boxShape, CELL, WOOD } from '../../kits/polycube-pieces/pieces.ts';
import { piecePlacement, type PlacedPiece } from '../../kits/polycube-pieces/placement.ts';
import { ROTATIONS } from '../../kits/polycube-pieces/rotations.ts';
import { boxCells, boxTop, cellCentre, FLOOR, FLOOR_TOP, FRONT_RIM, HIDE_WALL, ORIGIN_MARK_HALF, TABLE, WALL, type A1Scene } from './scene.ts';
import { instanceSettings } from '../../levers.ts';
import { A1_LEVERS, TIER_SPECS } from './generate.ts';
import { completable } from './solver.ts';

/** Adds the table, the box (floor and walls), the cell marks and the hiding wall. */
function buildStatics(world: World, s: A1Scene): void {
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
  // The front wall is a low rim, so the first view sees the front row's floor over it.
  const rimHalfY = (FLOOR_TOP + FRONT_RIM) / 2;
  world.addBody({
    name: 'box-front',
    kind: 'static',
    pose: { p: [0, 0, 0], q: [0, 0, 0, 1] },
    shapes: [boxShape([w + WALL, rimHalfY, WALL / 2], [0, rimHalfY, d + WALL / 2])],
    material: WOOD,
    color: '#3e3e3e',
  });
  // Cell marks: lines on the floor along every cell boundary, and a black square in cell
  // [0, 0, 0] (its own body, so the view rule can tell that it is seen).
  const line = 0.0007;
  const h = 0.00015;
  const y = FLOOR_TOP + h;
  const marks: ShapeSpec[] = [];
  for (let i = 1; i < s.box.cols; i++) marks.push(boxShape([line, h, d], [-w + i * CELL, y, 0]));
  for (let k = 1; k < s.box.rows; k++) marks.push(boxShape([w, h, line], [0, y, -d + k * CELL]));
  world.addBody({ name: 'cell-marks', kind: 'static', collides: false, pose: { p: [0, 0, 0], q: [0, 0, 0, 1] }, shapes: marks, color: '#2a2118' });
  const origin = cellCentre(s.box, fromAgentCell([0, 0, 0], s.box));
  world.addBody({
    name: 'origin-mark',
    kind: 'static',
    collides: false,
    pose: { p: [0, 0, 0], q: [0, 0, 0, 1] },
    shapes: [boxShape([ORIGIN_MARK_HALF, h, ORIGIN_MARK_HALF], [origin[0], y, origin[2]])],
    color: '#111111',
  });
  world.addBody({
    name: 'wall',
    kind: 'static',
    pose: { p: [0, HIDE_WALL.height / 2, HIDE_WALL.zFront - HIDE_WALL.thickness / 2], q: [0, 0, 0, 1] },
    shapes: [{ type: 'box', half: [HIDE_WALL.halfLength, HIDE_WALL.height / 2, HIDE_WALL.thickness / 2] }],
    material: WOOD,
    color: '#6f8090',
  });
}

/** Builds the world and returns the family logic bound to it. */
export function build(instance: Instance<A1Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  buildStatics(world, s);
  const all = boxCells(s.box);
  const inBox = (c: readonly number[]): boolean =>
    c[0] >= 0 && c[0] < s.box.cols && c[1] >= 0 && c[1] < s.box.layers && c[2] >= 0 && c[2] < s.box.rows;
  const pieces = piecePlacement(world, {
    pieces: s.pieces,
    grid: {
      dims: s.box,
      rotation: ROTATIONS[0],
      cellCentre: (c) => cellCentre(s.box, c),
      // Only the box has a floor: a cube beside it finds nothing to rest on.
      floorUnder: (c) => (inBox(c) ? FLOOR_TOP : null),
      contains: inBox,
      body: 'box',
    },
    clearTop: Math.max(HIDE_WALL.height, boxTop(s.box)),
    words: {
      placedWhere: 'in the box',
      into: 'into the box',
      back: 'back onto the table',
      supports: 'the floor or on other pieces',
      outsideCount: (outside) => `${outside} of its cubes`,
      removed: (p) => `took '${p.name}' out of the box and put it back where it lay`,
    },
    record: (rotation, _at, cells): PlacedPiece => ({ rotation, cells }),
    // One text for every refusal (issue 36): which wall it met, how many cubes stuck out, or
    // whether it would fall or tip are each a reading of the piece's shape for a prober.
    refusal: {
      place: (name) => `'${name}' does not fit there; nothing moved.`,
      remove: (name) => `'${name}' cannot be lifted out now; nothing moved.`,
    },
  });
  const agentName = (c: readonly number[]): string => `[${toAgentCell(c, s.box).join(', ')}]`;

  return {
    tools: { place: pieces.place, remove: pieces.remove },
    viewParts: () => [
      {
        bodies: [
          { name: 'table', minPixels: 20000, mayBeCut: true },
          { name: 'wall', minPixels: 20000, mayBeCut: true },
          { name: 'box', minPixels: 3000 },
          { name: 'box-front', minPixels: 800 },
          // The floor lines show only where the inside of the box can be seen.
          { name: 'cell-marks', minPixels: 150 },
          { name: 'origin-mark', minPixels: 80 },
          ...s.pieces.map((p) => ({ name: p.name, minPixels: 1500 })),
        ],
        // The pieces behind the wall are out of sight from the first view by design.
        hidden: s.pieces.filter((p) => p.hidden).map((p) => p.name),
        hiddenBecause: 'the task: some pieces wait behind the wall, seen only by moving the camera',
        // As many as the tier text says ("2 pieces hidden", "4 of the 6 pieces hidden"); a lever study's own (A1-L5+occ).
        hiddenAtMost: instanceSettings(instance, TIER_SPECS, A1_LEVERS).hidden,
      },
    ],
    solved() {
      const occ = pieces.occupancy();
      // The record must agree with the bodies as well: every cube really sits in its cell.
      return all.every((c) => occ.has(cellKey(c))) && pieces.recordsMatchBodies();
    },
    progress() {
      const placed = pieces.placed();
      const filled = Object.values(placed).reduce((n, r) => n + r.cells.length, 0);
      if (filled === 0) return 0;
      const occ = pieces.occupancy();
      const free = all.filter((c) => !occ.has(cellKey(c)));
      const rest = s.pieces.filter((p) => !placed[p.name]).map((p) => p.cells);
      const fraction = filled / all.length;
      return completable(rest, free) ? fraction : fraction / 2;
    },
    stateText() {
      const occ = pieces.occupancy();
      const lines = [
        `Box: ${s.box.cols} columns × ${s.box.rows} rows × ${s.box.layers} layers of ${CELL * 100} cm cells; cells are [col, row, layer].`,
      ];
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
