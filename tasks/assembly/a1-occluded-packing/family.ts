import { SpaceActError } from '../../../core/errors.ts';
import type { RulerSpec } from '../../../sim/types.ts';
import { makeInstance } from '../../instance.ts';
import type { Instance, ReferenceSolution, TaskFamily, Tier, ToolSpec } from '../../types.ts';
import { buildEpisode } from './episode.ts';
import { drawScene, hiddenFromFirstView, type A1Scene } from './generator.ts';
import { CELL } from '../../kits/polycube-pieces/pieces.ts';
import { placeParameters, removeParameters } from '../../kits/polycube-pieces/tools.ts';
import { boxTop, INITIAL_CAMERA, WALL } from './layout.ts';
import { certify, findPlan, type Plan } from './solver.ts';
import { round9 } from '../../../core/determinism.ts';

function tools(s: A1Scene): ToolSpec[] {
  const names = s.pieces.map((p) => p.name);
  return [
    {
      name: 'place',
      kind: 'discrete',
      description:
        'Lift a piece straight up from the table, turn it in the air by `turns` (quarter turns about fixed world axes, first one first, starting from the orientation it has on the table), carry it over the box and lower it straight down until its reference cube (its lowest cube; of several, the leftmost; of several, the frontmost) is in `cell` = [col, row, layer]. Touching anything on the way down is a collision.',
      parameters: placeParameters(names, s.box),
    },
    {
      name: 'remove',
      kind: 'discrete',
      description: 'Lift a piece straight up out of the box and put it back where it lay on the table, as it lay. Touching anything on the way up is a collision.',
      parameters: removeParameters(names),
    },
  ];
}

function rulesText(s: A1Scene): string {
  const { cols, rows, layers } = s.box;
  const cm = CELL * 100;
  const n = s.pieces.length;
  const hidden = s.pieces.filter((p) => p.hidden).length;
  return [
    `A wooden box without a lid stands on a table. Its inside holds ${cols} × ${rows} × ${layers} cells (columns × rows × layers), each a ${cm} cm cube: lines on the box floor mark the cells, the rulers on the box's front and left rims have a tick every ${cm} cm, and a small black square marks the floor of cell [0, 0, 0]. The box's front wall is the dark one.`,
    `${n} pieces lie on the table, each of a different colour and made of ${cm} cm cubes joined face to face (the seams between its cubes show as lines). ${hidden === 1 ? 'One piece lies' : `${hidden} pieces lie`} behind the grey wall at the back, out of sight from the first view: move the camera to see ${hidden === 1 ? 'it' : 'them'}.`,
    `Goal: fill every cell of the box with pieces. ${s.spares ? 'Not every piece is needed: some are spares that fit in no filling of the box. ' : ''}The episode ends as soon as the box is full.`,
    'Cells are named [col, row, layer]: col counts from the left (0 = the leftmost column as seen from the first view), row from the front (0 = the row along the dark front wall), layer from the bottom (0 = on the box floor).',
    "place(piece, turns, cell) lifts the piece straight up, turns it in the air, carries it over the box and lowers it straight down. `turns` lists quarter turns about fixed world axes, applied one after the other to the orientation the piece has on the table (an empty list keeps that orientation): 'y+' turns it counter-clockwise as seen from above and 'y-' clockwise; 'x+' tips its top towards the front (towards the first view) and 'x-' towards the back; 'z+' rolls its top to the left (counter-clockwise as seen from the front) and 'z-' to the right. `cell` is where the piece's reference cube ends: the piece's lowest cube after turning; if several are lowest, the leftmost of those; if still several, the frontmost. The piece comes to rest on what is under it.",
    'remove(piece) lifts a piece straight up out of the box and puts it back where it lay on the table.',
    'A piece can only go straight down, so a cell under part of another piece must be filled before that piece goes in. A piece stays where it is put when its cubes rest on the box floor or on pieces already in the box and its centre of mass lies above the cubes that rest on something; with nothing under it, it falls, and with its centre overhanging, it tips over.',
    'Violations: a piece touching anything while it is lowered or lifted (another piece or the box); a piece that would stick out of the box; a piece that falls or tips over. A violating call is undone, and the rest of that turn is not run.',
  ].join('\n');
}

function planText(s: A1Scene, plan: Plan): string {
  const steps = plan.steps.map(
    (st, i) => `${i + 1}. place ${s.pieces[st.piece].name} with turns [${st.turns.join(', ')}] at cell [${st.cell.join(', ')}]`,
  );
  const spares = plan.spares.map((i) => s.pieces[i].name);
  return [
    `Fill the box in this order (each piece is lowered straight down, so pieces underneath go first):`,
    ...steps,
    spares.length ? `Spare pieces, not used: ${spares.join(', ')}.` : 'Every piece is used.',
  ].join('\n');
}

function rulers(s: A1Scene): RulerSpec[] {
  const w = (s.box.cols * CELL) / 2;
  const d = (s.box.rows * CELL) / 2;
  const top = round9(boxTop(s.box) + 0.0003);
  return [
    // Along the front rim and the left rim, from the front-left inner corner: a tick per cell.
    { from: [-w, top, round9(d + WALL / 2)], to: [w, top, round9(d + WALL / 2)], tickDir: [0, 0, 1], minor: CELL, major: round9(2 * w) },
    { from: [round9(-w - WALL / 2), top, d], to: [round9(-w - WALL / 2), top, -d], tickDir: [-1, 0, 0], minor: CELL, major: round9(2 * d) },
    // Along the table's front edge, for sizing pieces.
    { from: [-0.4, 0.0005, 0.185], to: [0.4, 0.0005, 0.185], tickDir: [0, 0, 1] },
  ];
}

function generate(seed: number, tier: Tier): Instance<A1Scene> {
  const { scene, plan } = drawScene(seed, tier);
  const n = scene.pieces.length;
  return makeInstance(a1OccludedPacking, tier, seed, {
    title: `Occluded packing, ${scene.box.cols}×${scene.box.rows}×${scene.box.layers} box, ${n} pieces`,
    rules: rulesText(scene),
    tools: tools(scene),
    camera: { initial: structuredClone(INITIAL_CAMERA), elevationRange: [0, 90] },
    rulers: rulers(scene),
    ground: { y: -0.02 },
    dynamic: false,
    scoring: 'graded',
    scene,
    reveal: { plan: planText(scene, plan) },
  });
}

function reference(instance: Instance<A1Scene>): ReferenceSolution {
  const s = instance.scene;
  const shapes = s.pieces.map((p) => p.cells);
  const cert = certify(shapes, s.box);
  const plan = findPlan(shapes, s.box, cert.fillingSubsets.length ? cert.fillingSubsets : undefined);
  if (!plan) throw new SpaceActError('invalid-state', `${instance.id}: no filling can be built by lowering pieces straight down`, { instance: instance.id });
  return {
    calls: plan.steps.map((st) => ({ tool: 'place', args: { piece: s.pieces[st.piece].name, turns: st.turns, cell: st.cell } })),
    // One action per piece used, and every filling uses exactly these pieces: nothing shorter exists.
    optimal: cert.unique,
    unique: cert.unique,
    method:
      `polycube exact cover over ${cert.fillingSubsets.length} filling subset(s) of ${s.pieces.length} pieces: ` +
      `${cert.classes} packing(s) up to the ${cert.symmetries} rotations of the cell block (${cert.total} in all); ` +
      `lowering order from the column-precedence graph (depth ${plan.depth}, ${plan.forcedPairs} forced pairs)`,
  };
}

/** A1 occluded packing: fill an open box with polycube pieces, some hidden behind a wall, lowering each straight down. */
export const a1OccludedPacking: TaskFamily<A1Scene> = {
  id: 'A1',
  version: 1,
  category: 'A',
  title: 'Occluded packing',
  summary:
    'Fill an open box with polycube pieces lying on a table, some of them behind a wall that hides them from the first view. Each piece is turned in quarter turns and lowered straight down, so pieces under an overhang must go first; spare pieces that fit nowhere are mixed in. Tests mental rotation, exact cover and order planning under occlusion; the filling is certified unique with the polycube toolkit.',
  tiers: {
    L1: { levers: [], description: '2×2×2 box, 2 pieces of 3–5 cubes, no spares, 1 of them hidden behind the wall.' },
    L3: {
      levers: [],
      description: '3×2×2 box, 3 pieces of 3–5 cubes + 1 spare the size of a needed piece, 1 piece hidden; the lowering order has a forced chain of at least 2 pieces.',
    },
    L5: {
      levers: [],
      description:
        '3×3×2 box, 4 pieces of 4–5 cubes + 2 spares (one the mirror image of a chiral needed piece where that keeps the filling unique), 2 pieces hidden; a forced chain of at least 3.',
    },
    L7: { levers: ['+occ'], description: 'L5 with 4 of the 6 pieces hidden behind the wall.' },
  },
  generate,
  build: buildEpisode,
  reference,
  certify: { unique: true },
  shortcutFilters: [
    {
      name: 'hidden-pieces-hidden',
      check: (inst) => {
        const seen = inst.scene.pieces.find((p) => p.hidden && !hiddenFromFirstView(p.cells, p.position));
        return seen ? `${seen.name} should be hidden but is in sight from the first view` : null;
      },
    },
    {
      name: 'unique-filling',
      check: (inst) => {
        const c = certify(inst.scene.pieces.map((p) => p.cells), inst.scene.box);
        return c.unique ? null : `${c.fillingSubsets.length} filling subsets, ${c.classes} packings up to symmetry`;
      },
    },
  ],
};
