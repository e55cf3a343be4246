/**
 * The A2 world and its tools: the table, the build plate with its grid lines, the black square
 * of cell [0, 0, 0] and the axis strips, the translucent block that shows the box (not at L7),
 * the polycube pieces, and `place` / `remove` executed as real swept motions by the shared
 * polycube-piece placement (`tasks/kits/polycube-pieces/placement.ts`), whose side entry
 * (`entry.ts`) lets a piece slide in level from the left, right, front or back.
 *
 * Family state lives in `world.meta.placed` (the kit's record of every piece on the plate);
 * everything else is read from body poses. Pieces on the table are dynamic; a piece on the plate
 * is judged by the kit's rigid-body statics and fixed where it stands. At L7 the observation
 * adds the blueprint sheet: the box drawn by the renderer's line view (A5's drawing).
 */
import type { Pose, ShapeSpec } from '../../../sim/types.ts';
import type { World } from '../../../sim/world.ts';
import type { Cell } from '../../../solvers/polycube.ts';
import type { FamilyEnv, Instance, ObservationImage, ViewDeclaration } from '../../types.ts';
import { cellKey, toAgentCell } from '../../kits/polycube-pieces/cells.ts';
import { addTable, boxShape, CELL, WOOD } from '../../kits/polycube-pieces/pieces.ts';
import { piecePlacement, type PlacedPiece } from '../../kits/polycube-pieces/placement.ts';
import { ROTATIONS } from '../../kits/polycube-pieces/rotations.ts';
import { blueprintSheet, blueprintViewParts, type BlueprintSpec } from '../../kits/polycube-pieces/blueprint.ts';
import { boxCells, boxStructure, cellCentre, ORIGIN_MARK_HALF, PLATE, PLATE_CENTRE, PLATE_GRID, PLATE_MARGIN, STRIP, TABLE, type A2Scene } from './scene.ts';
import { completable } from './solver.ts';

const PLATE_COLOR = '#d9bf92';

/** One text for every refused place, whatever the cause (a collision on the way, a cube outside the grid, floating, tipping). */
export function placeRefused(piece: string): string {
  return `'${piece}' cannot go there that way; nothing moved.`;
}
/** One text for every refused remove. */
export function removeRefused(piece: string): string {
  return `'${piece}' cannot be lifted off now; nothing moved.`;
}

/** Adds the table, the plate with its marks and axis strips, and (but at L7) the translucent box. */
function buildStatics(world: World, s: A2Scene): void {
  const pose: Pose = { p: [PLATE_CENTRE[0], 0, PLATE_CENTRE[1]], q: [0, 0, 0, 1] };
  const w = (PLATE_GRID.cols * CELL) / 2;
  const d = (PLATE_GRID.rows * CELL) / 2;
  addTable(world, TABLE);
  world.addBody({
    name: 'plate',
    kind: 'static',
    pose,
    shapes: [boxShape([w + PLATE_MARGIN, PLATE / 2, d + PLATE_MARGIN], [0, PLATE / 2, 0])],
    material: WOOD,
    color: PLATE_COLOR,
  });
  const line = 0.0007;
  const h = 0.00015;
  const y = PLATE + h;
  const marks: ShapeSpec[] = [];
  for (let i = 0; i <= PLATE_GRID.cols; i++) marks.push(boxShape([line, h, d], [-w + i * CELL, y, 0]));
  for (let k = 0; k <= PLATE_GRID.rows; k++) marks.push(boxShape([w, h, line], [0, y, -d + k * CELL]));
  world.addBody({ name: 'plate-marks', kind: 'static', collides: false, pose, shapes: marks, color: '#2a2118' });
  world.addBody({
    name: 'origin-mark',
    kind: 'static',
    collides: false,
    pose,
    shapes: [boxShape([ORIGIN_MARK_HALF, h, ORIGIN_MARK_HALF], [-w + CELL / 2, y, d - CELL / 2])],
    color: '#111111',
  });
  const gap = 0.002;
  const edge = gap + STRIP;
  world.addBody({
    name: 'column-axis',
    kind: 'static',
    collides: false,
    pose,
    shapes: [boxShape([w + edge / 2, h, STRIP / 2], [-edge / 2, y, d + gap + STRIP / 2])],
    color: '#c0392b',
  });
  world.addBody({
    name: 'row-axis',
    kind: 'static',
    collides: false,
    pose,
    shapes: [boxShape([STRIP / 2, h, d], [-w - gap - STRIP / 2, y, 0])],
    color: '#2060c0',
  });
  if (!s.blueprint) {
    // The box to build: a translucent block over its cells that nothing collides with.
    const lo = cellCentre([0, 0, PLATE_GRID.rows - s.box.rows]);
    const half = [s.box.cols, s.box.layers, s.box.rows].map((n) => (n * CELL) / 2) as [number, number, number];
    world.addBody({
      name: 'target-box',
      kind: 'static',
      collides: false,
      pose: { p: [lo[0] - CELL / 2 + half[0], PLATE + half[1], lo[2] - CELL / 2 + half[2]], q: [0, 0, 0, 1] },
      shapes: [{ type: 'box', half }],
      color: '#5a9be0',
      opacity: 0.3,
    });
  }
}

/** The blueprint: the box drawn as the blueprint kit draws a structure, seen from the front, above and the right. */
function blueprintOf(s: A2Scene): BlueprintSpec {
  return { target: boxStructure(s.box), extent: { ...s.box }, views: ['front', 'top', 'right'] };
}

/** What the first observation must show: the world view, and at L7 every blueprint panel. */
function viewParts(s: A2Scene): ViewDeclaration[] {
  return [
    {
      bodies: [
        { name: 'table', minPixels: 20000, mayBeCut: true },
        { name: 'plate', minPixels: 8000 },
        { name: 'plate-marks', minPixels: 200 },
        { name: 'origin-mark', minPixels: 40 },
        { name: 'column-axis', minPixels: 100 },
        { name: 'row-axis', minPixels: 100 },
        ...(s.blueprint ? [] : [{ name: 'target-box', minPixels: 2000 }]),
        ...s.pieces.map((p) => ({ name: p.name, minPixels: 1200 })),
      ],
    },
    ...(s.blueprint ? blueprintViewParts(blueprintOf(s)) : []),
  ];
}

/** Builds the world and returns the family logic bound to it. */
export function build(instance: Instance<A2Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  buildStatics(world, s);
  const target = boxCells(s.box);
  const targetKeys = new Set(target.map(cellKey));
  const inGrid = (c: readonly number[]): boolean =>
    c[0] >= 0 && c[0] < PLATE_GRID.cols && c[1] >= 0 && c[1] < PLATE_GRID.layers && c[2] >= 0 && c[2] < PLATE_GRID.rows;
  const pieces = piecePlacement(world, {
    pieces: s.pieces,
    grid: { dims: PLATE_GRID, rotation: ROTATIONS[0], cellCentre, floorUnder: () => PLATE, contains: inGrid, body: 'plate' },
    clearTop: PLATE + PLATE_GRID.layers * CELL,
    words: {
      placedWhere: 'on the plate',
      into: 'onto the plate',
      back: 'back onto the table',
      supports: 'the plate or on other pieces',
      outsideCount: (outside) => `${outside} of its cubes`,
      removed: (p) => `took '${p.name}' off the plate and put it back where it lay`,
    },
    record: (rotation, _at, cells): PlacedPiece => ({ rotation, cells }),
    // One text for every refusal (issue 36): which body it met, whether it would float or tip
    // are each a reading of the piece's shape for a prober.
    refusal: { place: placeRefused, remove: removeRefused },
  });
  const agentName = (c: readonly number[]): string => `[${toAgentCell(c, PLATE_GRID).join(', ')}]`;
  let sheet: Buffer | null = null;

  return {
    tools: { place: pieces.place, remove: pieces.remove },
    viewParts: () => viewParts(s),
    ...(s.blueprint
      ? {
          async observe(ctx): Promise<ObservationImage[]> {
            const view = await ctx.renderer.render(ctx.scene(), ctx.camera);
            sheet ??= await blueprintSheet(ctx.renderer, blueprintOf(s));
            return [
              { kind: 'view', png: view, caption: 'Current view.' },
              { kind: 'view', png: sheet, caption: 'The blueprint of the box: front, top and right side view, drawn without perspective.' },
            ];
          },
        }
      : {}),
    solved() {
      const occ = pieces.occupancy();
      // Exactly the box: every cell filled, nothing outside it, every cube really in its cell.
      return occ.size === target.length && target.every((c) => occ.has(cellKey(c))) && pieces.recordsMatchBodies();
    },
    progress() {
      const placed = pieces.placed();
      const cells: Cell[] = Object.values(placed).flatMap((r) => r.cells);
      if (!cells.length) return 0;
      const inside = cells.filter((c) => targetKeys.has(cellKey(c))).length;
      const fraction = Math.max(0, inside - (cells.length - inside)) / target.length;
      if (inside !== cells.length) return fraction / 2;
      const occ = pieces.occupancy();
      const free = target.filter((c) => !occ.has(cellKey(c)));
      const rest = s.pieces.filter((p) => !placed[p.name]).map((p) => p.cells);
      return completable(rest, free) ? fraction : fraction / 2;
    },
    stateText() {
      const occ = pieces.occupancy();
      const lines = [
        `Plate: ${PLATE_GRID.cols} columns × ${PLATE_GRID.rows} rows of ${CELL * 100} cm cells; cells are [col, row, layer]. The box is ${s.box.cols} wide × ${s.box.rows} deep × ${s.box.layers} high from cell [0, 0, 0].`,
      ];
      for (const p of s.pieces) {
        const rec = pieces.placed()[p.name];
        const pose = world.getPose(p.name);
        const where = rec ? `on the plate, filling cells ${rec.cells.map(agentName).join(' ')}` : `on the table, centre at x ${pose.p[0].toFixed(3)} m, z ${pose.p[2].toFixed(3)} m`;
        const shape = p.cells.map((c) => `[${c.join(',')}]`).join(' ');
        lines.push(`${p.name}${p.decoy ? ' (decoy)' : ''}: ${p.cells.length} cubes; on the table its cubes are at ${shape} (x right, y up, z towards the front, in cubes); ${where}.`);
      }
      const empty = target.filter((c) => !occ.has(cellKey(c)));
      lines.push(empty.length ? `Empty cells of the box: ${empty.map(agentName).join(' ')}.` : 'The box is complete.');
      return lines.join('\n');
    },
  };
}
