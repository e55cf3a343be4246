/**
 * The A5 world and its tools: the table, the build plate with its grid lines, the black square
 * of cell [0, 0, 0] and two painted axis strips, and the loose cubes of the supply in rows behind
 * it. `place` and `remove` move one cube at a time with the shared polycube-piece placement
 * (`tasks/kits/polycube-pieces/placement.ts`: lifted straight up, carried over the plate and
 * lowered straight down, each leg a swept move), so a cube lowered into an occupied cell collides
 * and a cube with nothing under it is refused; `commit` ends the episode.
 *
 * Family state: `world.meta.placed` (the kit's record of every cube on the plate) and
 * `world.meta.committed`. The observation is the world from the agent's camera and the
 * blueprint sheet (`drawing.ts`).
 */
import { ViolationError } from '../../../sim/violation.ts';
import type { Pose, ShapeSpec } from '../../../sim/types.ts';
import type { World } from '../../../sim/world.ts';
import type { Cell } from '../../../solvers/polycube.ts';
import type { FamilyEnv, Instance, ObservationImage, ViewDeclaration } from '../../types.ts';
import { cellKey, fromAgentCell, toAgentCell } from '../../kits/polycube-pieces/cells.ts';
import { addTable, boxShape, CELL, WOOD } from '../../kits/polycube-pieces/pieces.ts';
import { piecePlacement, type PlacedPiece } from '../../kits/polycube-pieces/placement.ts';
import { ROTATIONS } from '../../kits/polycube-pieces/rotations.ts';
import { blueprintSheet, blueprintViewParts, VIEW_LABELS } from '../../kits/polycube-pieces/blueprint.ts';
import { structureKey } from './structure.ts';
import { cellCentre, ORIGIN_MARK_HALF, PLATE, PLATE_CENTRE, PLATE_GRID, PLATE_MARGIN, STRIP, TABLE, type A5Scene } from './scene.ts';

const PLATE_COLOR = '#d9bf92';
const CUBE_COLOR = '#c8894a';

/** World time each place or remove lets the loose cubes settle before the statics check judges them. */
export const SETTLE_SECONDS = 0.2;

/** One text for every refused place, whatever the cause (collision, nothing under it, no cube left). */
export const PLACE_REFUSED = 'The cube does not fit there; nothing moved.';
/** One text for every refused remove (nothing in that cell, or a cube on top of it). */
export const REMOVE_REFUSED = 'No cube can be lifted from that cell now; nothing moved.';

/** Adds the table, the plate with its marks and axis strips. */
function buildStatics(world: World): void {
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
  // Painted axes from the corner of cell [0, 0, 0]: red along the columns (in front of row 0),
  // blue along the rows (left of column 0), as on A6's board.
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
}

/** What the first observation must show: the world view, then every blueprint panel. */
function viewParts(s: A5Scene): ViewDeclaration[] {
  return [
    {
      bodies: [
        { name: 'table', minPixels: 20000, mayBeCut: true },
        { name: 'plate', minPixels: 20000 },
        { name: 'plate-marks', minPixels: 300 },
        { name: 'origin-mark', minPixels: 60 },
        { name: 'column-axis', minPixels: 150 },
        { name: 'row-axis', minPixels: 150 },
        ...s.supply.map((c) => ({ name: c.name, minPixels: 600 })),
      ],
    },
    ...blueprintViewParts(s),
  ];
}

/** The built cubes as a set of plate cells, by the kit's records. */
function builtCells(placed: Record<string, PlacedPiece>): Cell[] {
  return Object.values(placed).flatMap((r) => r.cells);
}

/** The cells moved so that their lowest-left-back corner is at 0 (a structure's shape, wherever it stands). */
function normalised(cells: readonly Cell[]): Cell[] {
  if (!cells.length) return [];
  const lo = [0, 1, 2].map((a) => Math.min(...cells.map((c) => c[a])));
  return cells.map((c) => [c[0] - lo[0], c[1] - lo[1], c[2] - lo[2]] as Cell);
}

/**
 * Headway for an unsolved episode: over every horizontal shift of the target on the plate, the
 * most cubes built where the shifted target has one, less the cubes built anywhere else, as a
 * share of the target's cubes (0 when that is negative). Never shown to the agent.
 */
export function buildProgress(built: readonly Cell[], target: readonly Cell[], extent: A5Scene['extent']): number {
  if (!built.length) return 0;
  const have = new Set(built.map(cellKey));
  let best = 0;
  for (let di = 0; di + extent.cols <= PLATE_GRID.cols; di++) {
    for (let dk = 0; dk + extent.rows <= PLATE_GRID.rows; dk++) {
      const hit = target.filter((c) => have.has(cellKey([c[0] + di, c[1], c[2] + dk]))).length;
      best = Math.max(best, hit - (built.length - hit));
    }
  }
  return Math.max(0, best / target.length);
}

/** Builds the world and returns the family logic bound to it. */
export function build(instance: Instance<A5Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  buildStatics(world);
  world.meta.committed = false;
  const inGrid = (c: readonly number[]): boolean =>
    c[0] >= 0 && c[0] < PLATE_GRID.cols && c[1] >= 0 && c[1] < PLATE_GRID.layers && c[2] >= 0 && c[2] < PLATE_GRID.rows;
  const cubes = piecePlacement(world, {
    pieces: s.supply,
    grid: {
      dims: PLATE_GRID,
      rotation: ROTATIONS[0],
      cellCentre,
      floorUnder: () => PLATE,
      contains: inGrid,
      body: 'plate',
    },
    clearTop: PLATE + PLATE_GRID.layers * CELL,
    words: {
      placedWhere: 'on the plate',
      into: 'onto the plate',
      back: 'back onto the table',
      supports: 'the plate or on other cubes',
      outsideCount: () => 'some of its cubes',
      removed: () => 'lifted the cube off the plate and put it back on the table',
    },
    record: (rotation, _at, cells): PlacedPiece => ({ rotation, cells }),
    // One text for every refusal: which cause it was would tell a prober nothing about the
    // target, but the family keeps the shared contract (issue 36) all the same.
    refusal: { place: () => PLACE_REFUSED, remove: () => REMOVE_REFUSED },
  });
  const targetKey = structureKey(s.target);
  let sheet: Buffer | null = null;

  return {
    tools: {
      place(args) {
        const next = s.supply.find((c) => !cubes.placed()[c.name]);
        if (!next) throw new ViolationError({ kind: 'rule', bodies: [], message: PLACE_REFUSED });
        cubes.place({ piece: next.name, turns: [], cell: args.cell });
        return `lowered a cube into cell [${(args.cell as number[]).join(', ')}]`;
      },
      remove(args) {
        const at = fromAgentCell(args.cell as number[], PLATE_GRID);
        const hit = Object.entries(cubes.placed()).find(([, r]) => cellKey(r.cells[0]) === cellKey(at));
        if (!hit) throw new ViolationError({ kind: 'rule', bodies: [], message: REMOVE_REFUSED });
        cubes.remove({ piece: hit[0] });
        return `lifted the cube in cell [${(args.cell as number[]).join(', ')}] off the plate and put it back on the table`;
      },
      commit() {
        world.meta.committed = true;
        return 'committed: the episode ends with the plate as it is';
      },
    },
    viewParts: () => viewParts(s),
    // Placed cubes are judged by the kit's rigid-body statics and fixed; what the settle watches
    // is the loose cubes on the table (and one put back, lowered to within half a millimetre of
    // it), which come to rest well within a fifth of a second.
    staticsAfter: () => ({ seconds: SETTLE_SECONDS }),
    async observe(ctx): Promise<ObservationImage[]> {
      const view = await ctx.renderer.render(ctx.scene(), ctx.camera);
      sheet ??= await blueprintSheet(ctx.renderer, s);
      return [
        { kind: 'view', png: view, caption: 'Current view.' },
        { kind: 'view', png: sheet, caption: `The blueprint: ${s.views.map((v) => VIEW_LABELS[v].toLowerCase()).join(', ')} view, drawn without perspective.` },
      ];
    },
    solved() {
      if (world.meta.committed !== true) return false;
      const built = builtCells(cubes.placed());
      // The same structure, anywhere on the plate, and every cube really where its record says.
      return structureKey(normalised(built)) === targetKey && cubes.recordsMatchBodies();
    },
    progress() {
      return buildProgress(builtCells(cubes.placed()), s.target, s.extent);
    },
    stateText() {
      const agent = (c: readonly number[]): string => `[${toAgentCell(c, PLATE_GRID).join(', ')}]`;
      const built = builtCells(cubes.placed());
      return [
        `Plate: ${PLATE_GRID.cols} columns × ${PLATE_GRID.rows} rows of ${CELL * 100} cm cells; cells are [col, row, layer].`,
        `Target structure (${s.target.length} cubes, ${s.extent.cols} wide × ${s.extent.rows} deep × ${s.extent.layers} high), with its left-front-bottom cube at [0, 0, 0]: ${s.target.map((c) => `[${c[0]}, ${s.extent.rows - 1 - c[2]}, ${c[1]}]`).join(' ')}.`,
        built.length ? `Cubes on the plate: ${built.map(agent).join(' ')}.` : 'The plate is empty.',
        `Committed: ${world.meta.committed === true ? 'yes' : 'no'}.`,
      ].join('\n');
    },
  };
}
