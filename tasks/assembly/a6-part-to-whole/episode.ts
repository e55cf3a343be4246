/**
 * The A6 assembly world and its tools: the table, the board with the target's translucent
 * outline (no collider), the four trays with their eight pieces, and `place` / `remove` /
 * `commit`. `place` and `remove` are the shared polycube-piece placement
 * (`../polycube-pieces/placement.ts`) on the board's grid, turned with the board; A6 adds
 * the rule that only the two pieces of one tray may be on the board together.
 *
 * Family state lives in `world.meta.placed`: for each piece on the board, the rotation it was
 * turned by, the board cell of its reference cube and the board cells it fills. A piece
 * lowered onto the board is judged as in A1's box (rigid-body statics on flat supports).
 */
import { ViolationError } from '../../../sim/violation.ts';
import type { Pose, ShapeSpec } from '../../../sim/types.ts';
import type { World } from '../../../sim/world.ts';
import { countPackings, type Cell } from '../../../solvers/polycube.ts';
import type { FamilyEnv, Instance, ViewDeclaration } from '../../types.ts';
import { cellKey, toAgentCell } from '../../kits/polycube-pieces/cells.ts';
import { addTable, boxShape, CELL, WOOD } from '../../kits/polycube-pieces/pieces.ts';
import { piecePlacement, type PlacedPiece } from '../../kits/polycube-pieces/placement.ts';
import { matToQuat } from '../../kits/polycube-pieces/rotations.ts';
import { LETTERS } from './problem.ts';
import { questionObservation, questionViewParts } from './question.ts';
import { BOARD_CENTRE, BOARD_HALF, boardRotation, cellCentre, GHOST_INSET, ORIGIN_MARK_HALF, PLATE, PLATE_TOP, STRIP, TABLE, TRAY_LETTERS, TRAYS, type A6Scene, type PhysicalScene, type QuestionScene } from './scene.ts';
import { glyphShapes } from '../../kits/glyphs.ts';

/** What `world.meta.placed` holds for a piece on the board. */
interface Placed extends PlacedPiece {
  /**
   * Board cell of the reference cube. The mechanics derive it from `cells`; it stays in the
   * record because the record is part of the hashed state the released fixtures pin.
   */
  at: Cell;
}

const BOARD_COLOR = '#d9bf92';
const TRAY_COLOR = '#c9ced3';
const GHOST_COLOR = '#6f86a6';
const LETTER_COLOR = '#1d1d1d';

/** Adds the table, the board with its cell marks and the target outline, and the trays. */
function buildStatics(world: World, s: PhysicalScene): void {
  const { cols, rows } = s.board;
  const yaw = matToQuat(boardRotation(s.board.turns));
  const boardPose: Pose = { p: [BOARD_CENTRE[0], 0, BOARD_CENTRE[1]], q: yaw };
  addTable(world, TABLE);
  world.addBody({
    name: 'board',
    kind: 'static',
    pose: boardPose,
    shapes: [boxShape([BOARD_HALF, PLATE / 2, BOARD_HALF], [0, PLATE / 2, 0])],
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
  for (let i = 0; i <= cols; i++) marks.push(boxShape([line, h, d], [-w + i * CELL, y, 0]));
  for (let k = 0; k <= rows; k++) marks.push(boxShape([w, h, line], [0, y, -d + k * CELL]));
  world.addBody({ name: 'board-marks', kind: 'static', collides: false, pose: boardPose, shapes: marks, color: '#2a2118' });
  // The black square of cell [0, 0, 0] is its own body, so the view rule can tell that it is seen.
  world.addBody({
    name: 'origin-mark',
    kind: 'static',
    collides: false,
    pose: boardPose,
    shapes: [boxShape([ORIGIN_MARK_HALF, h, ORIGIN_MARK_HALF], [-w + CELL / 2, y, d - CELL / 2])],
    color: '#111111',
  });
  // Painted axes from the corner of cell [0, 0, 0]: red along the columns (beside row 0), blue
  // along the rows (beside column 0); the red one also covers the corner where they meet.
  const gap = 0.002;
  const edge = gap + STRIP;
  world.addBody({
    name: 'column-axis',
    kind: 'static',
    collides: false,
    pose: boardPose,
    shapes: [boxShape([w + edge / 2, h, STRIP / 2], [-edge / 2, y, d + gap + STRIP / 2])],
    color: '#c0392b',
  });
  world.addBody({
    name: 'row-axis',
    kind: 'static',
    collides: false,
    pose: boardPose,
    shapes: [boxShape([STRIP / 2, h, d], [-w - gap - STRIP / 2, y, 0])],
    color: '#2060c0',
  });
  // The outline: one translucent cube per target cell, set in so a placed cube hides it.
  const half = CELL / 2 - GHOST_INSET;
  world.addBody({
    name: 'outline',
    kind: 'static',
    collides: false,
    pose: boardPose,
    shapes: s.target.map((c) => boxShape([half, half, half], [(c[0] + 0.5) * CELL - w, PLATE_TOP + (c[1] + 0.5) * CELL, (c[2] + 0.5) * CELL - d])),
    color: GHOST_COLOR,
    opacity: 0.55,
  });
  TRAYS.x.forEach((x, i) => {
    world.addBody({
      name: `tray-${s.trays[i].letter}`,
      kind: 'static',
      pose: { p: [x, 0, TRAYS.z], q: [0, 0, 0, 1] },
      shapes: [boxShape(TRAYS.half, [0, PLATE / 2, 0])],
      material: WOOD,
      color: TRAY_COLOR,
    });
    // The tray's letter, painted on the table in front of it, as the rules name it.
    world.addBody({
      name: `letter-${s.trays[i].letter}`,
      kind: 'static',
      collides: false,
      // The font's boxes are centred on y = 0: lift them so the ink lies on the table.
      pose: { p: [x, TRAY_LETTERS.ink / 2, TRAY_LETTERS.z], q: [0, 0, 0, 1] },
      shapes: glyphShapes(s.trays[i].letter, TRAY_LETTERS.height, TRAY_LETTERS.ink),
      color: LETTER_COLOR,
    });
  });
}

/** Pixels the first view must show of the outline per target cell (view rule). */
const OUTLINE_PIXELS_PER_CELL = 750;

/** What the first view must show (the view rule): every body the rules mention, at a size one can act on. */
function physicalViewParts(s: PhysicalScene): ViewDeclaration[] {
  return [
    {
      bodies: [
        { name: 'table', minPixels: 20000, mayBeCut: true },
        { name: 'board', minPixels: 12000 },
        // One translucent cube per target cell: a target of fewer than eight cells must show
        // proportionally less than the 6000 pixels asked of larger ones (A6-L1-s3's six cells
        // standing as a column showed 5148, every cell clear).
        { name: 'outline', minPixels: Math.min(6000, OUTLINE_PIXELS_PER_CELL * s.target.length) },
        { name: 'board-marks', minPixels: 300 },
        { name: 'origin-mark', minPixels: 60 },
        { name: 'column-axis', minPixels: 150 },
        { name: 'row-axis', minPixels: 150 },
        ...s.trays.flatMap((t) => [
          { name: `tray-${t.letter}`, minPixels: 8000 },
          { name: `letter-${t.letter}`, minPixels: 150 },
          ...t.pieces.map((p) => ({ name: p.name, minPixels: 1200 })),
        ]),
      ],
      letters: s.trays.map((t) => ({ body: `letter-${t.letter}`, text: t.letter, role: 'piece' as const, piece: `tray-${t.letter}` })),
      // The painted axes the board's columns and rows are read from: strips with no head.
      arrows: [
        { body: 'column-axis', what: 'the columns axis', head: [] },
        { body: 'row-axis', what: 'the rows axis', head: [] },
      ],
    },
  ];
}

/** Builds the assembly world and returns the family logic bound to it. */
export function buildPhysical(instance: Instance<PhysicalScene>, world: World): FamilyEnv {
  const s = instance.scene;
  const dims = s.board;
  buildStatics(world, s);
  const pieces = s.trays.flatMap((t, ti) => t.pieces.map((p) => ({ ...p, tray: ti })));
  const byName = new Map(pieces.map((p) => [p.name, p]));
  const targetSet = new Set(s.target.map(cellKey));
  const trayLetter = (name: string): string => s.trays[byName.get(name)!.tray].letter;
  const trayTop = Math.max(...pieces.map((p) => p.position[1] + (Math.max(...p.cells.map((c) => c[1])) + 1) * CELL));
  const placement = piecePlacement(world, {
    pieces,
    grid: {
      dims,
      rotation: boardRotation(dims.turns),
      cellCentre: (c) => cellCentre(dims, dims.turns, c),
      floorUnder: () => PLATE_TOP,
      contains: (c) => targetSet.has(cellKey(c)),
      body: 'outline',
    },
    clearTop: Math.max(PLATE_TOP + dims.layers * CELL, trayTop),
    words: {
      placedWhere: 'on the board',
      into: 'onto the board',
      back: 'back onto its tray',
      supports: 'the board or on the other piece',
      // How many cubes stick out is a count a prober would map the outline with (issue 36).
      outsideCount: () => 'some of its cubes',
      removed: (p) => `took '${p.name}' off the board and put it back where it lay in tray ${trayLetter(p.name)}`,
    },
    record: (rotation, at, cells): Placed => ({ rotation, at, cells }),
    admit(piece, placed) {
      const name = piece.name;
      const foreign = Object.keys(placed).find((other) => trayLetter(other) !== trayLetter(name));
      if (foreign) {
        throw new ViolationError({
          kind: 'rule',
          bodies: [name, foreign],
          message: `'${name}' comes from tray ${trayLetter(name)} but '${foreign}' from tray ${trayLetter(foreign)} is on the board: only the two pieces of one tray may be put together (remove '${foreign}' first).`,
        });
      }
    },
  });
  const agentName = (c: readonly number[]): string => `[${toAgentCell(c, dims).join(', ')}]`;

  return {
    tools: {
      place: placement.place,
      remove: placement.remove,
      commit() {
        return 'committed: the episode ends with the board as it is';
      },
    },
    viewParts: () => physicalViewParts(s),
    solved() {
      const recs = Object.entries(placement.placed());
      if (recs.length !== 2 || trayLetter(recs[0][0]) !== trayLetter(recs[1][0])) return false;
      const occ = placement.occupancy();
      if (occ.size !== targetSet.size || ![...targetSet].every((k) => occ.has(k))) return false;
      // The record must agree with the bodies: every cube really sits in its cell.
      return placement.recordsMatchBodies();
    },
    progress() {
      const placed = placement.placed();
      const recs = Object.entries(placed);
      if (recs.length === 0) return 0;
      // Only the right tray's pieces are headway; a wrong tray's can never fill the outline.
      if (recs.some(([name]) => byName.get(name)!.tray !== s.answer)) return 0;
      const filled = recs.reduce((n, [, r]) => n + r.cells.length, 0);
      const fraction = filled / s.target.length;
      const occ = placement.occupancy();
      const free = s.target.filter((c) => !occ.has(cellKey(c)));
      const rest = s.trays[s.answer].pieces.filter((p) => !placed[p.name]).map((p) => p.cells);
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
        const rec = placement.placed()[p.name];
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

/** The question form's episode: one `answer` call, drawn by the family's own observation (the question's pictures). */
function buildQuestion(instance: Instance<QuestionScene>, world: World): FamilyEnv {
  const s = instance.scene;
  world.meta.answer = null;
  const text = (cells: readonly number[][]): string => cells.map((c) => `[${c.join(',')}]`).join(' ');
  return {
    tools: {
      answer(args) {
        world.meta.answer = String(args.option);
        return `answered option ${String(args.option)}`;
      },
    },
    solved: () => world.meta.answer === LETTERS[s.answer],
    progress: () => 0,
    stateText() {
      return [
        `Target cubes (x, y, z): ${text(s.target)}.`,
        ...s.options.map((o, i) => `Option ${LETTERS[i]}: first component ${text(o[0].cells)}; second component ${text(o[1].cells)}.`),
      ].join('\n');
    },
    observe: (ctx) => questionObservation(ctx.renderer, s),
    viewParts: () => questionViewParts(s),
  };
}

/** Builds the episode of either form. */
export function build(instance: Instance<A6Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  return s.form === 'question' ? buildQuestion(instance as Instance<QuestionScene>, world) : buildPhysical(instance as Instance<PhysicalScene>, world);
}
