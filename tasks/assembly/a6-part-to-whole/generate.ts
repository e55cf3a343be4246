/**
 * A6 generator: one family, two forms, told apart by the seed. Seeds below 1000 are the
 * assembly form (`physical.ts` draws the scene); seeds from 1000 on are the question form,
 * where seed `1000 + 3p + k` is problem `p` in presentation `k` (`polycomp.ts`). This file
 * writes each form's tools, rules text, rulers and plan.
 */
import { round9 } from '../../../core/determinism.ts';
import type { RulerSpec, Vec3 } from '../../../sim/types.ts';
import { makeInstance } from '../../instance.ts';
import type { FamilyDescriptor, Instance, Tier, ToolSpec } from '../../types.ts';
import { CELL } from '../../kits/polycube-pieces/pieces.ts';
import { matApply } from '../../kits/polycube-pieces/rotations.ts';
import { placeParameters, removeParameters } from '../../kits/polycube-pieces/tools.ts';
import { tierSettings } from '../../levers.ts';
import { A6_LEVERS, drawPhysical, planAssembly, TIER_SPECS, type PhysicalSpec } from './physical.ts';
import { drawQuestion, isQuestionSeed } from './polycomp.ts';
import { LETTERS } from './problem.ts';
import { questionRules } from './question.ts';
import { boardPoint, boardRotation, INITIAL_CAMERA, type A6Scene, type PhysicalScene } from './scene.ts';

const CM = CELL * 100;

// ------------------------------------------------------------------ assembly form

function physicalTools(s: PhysicalScene): ToolSpec[] {
  const names = s.trays.flatMap((t) => t.pieces.map((p) => p.name));
  return [
    {
      name: 'place',
      kind: 'discrete',
      description:
        'Lift a piece straight up from where it lies, turn it in the air by `turns` (quarter turns about fixed world axes, first one first, starting from the orientation it has on its tray), carry it over the board and lower it straight down until its reference cube (its lowest cube; of several, the leftmost; of several, the frontmost, as seen from the first view) is in board cell `cell` = [col, row, layer]. Touching anything on the way down is a collision.',
      parameters: placeParameters(names, s.board),
    },
    {
      name: 'remove',
      kind: 'discrete',
      description: 'Lift a piece straight up off the board and put it back where it lay in its tray, as it lay. Touching anything on the way up is a collision.',
      parameters: removeParameters(names),
    },
    {
      name: 'commit',
      kind: 'final',
      description: 'End the episode now, with the board as it is (a filled outline ends it by itself).',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
    },
  ];
}

/**
 * The physical form's action budget: four times the reference's two placements, so a player who
 * picks the tray from the pictures and misplaces a piece, or tries a wrong tray first, has room;
 * a prober who maps pieces and outline by refused placements ('cube outside the outline', 'tips
 * over') cannot afford to (issue 36). Refused and undone calls count.
 */
export const PHYSICAL_ACTION_BUDGET = 8;

function physicalRules(s: PhysicalScene): string {
  // The target's cube count and the grid's size vary with the seed: the outline and the lines on
  // the board show them (issue 36).
  const axes = s.board.turns
    ? 'The board is turned on the table, so its columns and rows need not run left to right and front to back in the first view: read them from the black square and the two painted strips.'
    : 'As seen from the first view, columns run from left to right and rows from front to back.';
  return [
    `A board lies at the front of a table, nearest the first view. On it a translucent grey-blue outline shows a target solid made of cubes, each ${CM} cm. Lines on the board mark the outline's grid of cells; a small black square marks cell [0, 0, 0]. A red strip painted beside the grid runs along the columns and a blue strip along the rows, both from the corner of cell [0, 0, 0], where an upright ruler stands with a tick at every ${CM} cm layer boundary, labelled from 0 (where labels would crowd, every other one is left out).`,
    'Behind the board four trays lie in a row: A, B, C and D from left to right as seen from the first view, each tray\'s letter painted on the table in front of it. Each tray holds two pieces made of the same cubes: piece 1 (orange) in the front half of the tray and piece 2 (blue) in the back half, named after their tray: A1, A2, B1, … D2. The seams between a piece\'s cubes show as lines.',
    'Exactly one tray holds two pieces that together can fill the outline exactly (each piece turned and moved as a rigid body, with no overlap and no gap); the two pieces of any other tray cannot.',
    'Goal: fill the outline with the two pieces of that tray. The episode ends, solved, as soon as the outline is filled; commit() ends it at once as it is.',
    `Cells are named [col, row, layer]: col counts along the red strip from 0, row along the blue strip from 0, and layer from the board up (0 = lying on the board). ${axes}`,
    "place(piece, turns, cell) lifts the piece straight up, turns it in the air, carries it over the board and lowers it straight down. `turns` lists quarter turns about fixed world axes as seen from the first view, applied one after the other to the orientation the piece has on its tray (an empty list keeps that orientation): 'y+' turns it counter-clockwise as seen from above and 'y-' clockwise; 'x+' tips its top towards the front (towards the first view) and 'x-' towards the back; 'z+' rolls its top to the left (counter-clockwise as seen from the front) and 'z-' to the right. `cell` is the board cell where the piece's reference cube ends: its lowest cube after turning; if several are lowest, the leftmost of those as seen from the first view; if still several, the frontmost. The piece comes to rest on what is under it.",
    'remove(piece) lifts a piece off the board and puts it back where it lay in its tray.',
    'A piece can only go straight down, so where one piece lies over part of the other, the lower one must go in first. A piece stays where it is put when its cubes rest on the board or on the other piece and its centre of mass lies above the cubes that rest on something; with nothing under it, it falls, and with its centre overhanging, it tips over.',
    'Violations: a piece touching anything while it is lowered, lifted or carried; a piece with a cube outside the outline; pieces from two different trays on the board together; a piece that falls or tips over. A violating call is undone, and the rest of that turn is not run.',
    `Budget: ${PHYSICAL_ACTION_BUDGET} actions in all — every place, remove and commit counts, refused and undone ones too; camera moves are free.`,
  ].join('\n');
}

function physicalRulers(s: PhysicalScene): RulerSpec[] {
  const w = (s.board.cols * CELL) / 2;
  const d = (s.board.rows * CELL) / 2;
  const t = s.board.turns;
  const off = 0.012;
  const out = matApply(boardRotation(t), [-1, 0, 1]).map((x) => round9(x / Math.SQRT2)) as Vec3;
  // Upright at the outer corner of cell [0, 0, 0]: a labelled tick at every layer boundary, a
  // mid tick at every layer's middle; at least two layers high, so that two labels always show
  // (the renderer may label every other boundary where the labels would crowd).
  const height = round9(Math.max(2, s.board.layers) * CELL);
  return [{ from: boardPoint(t, [-w - off, 0, d + off]), to: boardPoint(t, [-w - off, height, d + off]), tickDir: out, minor: CELL / 2, major: CELL }];
}

function physicalPlan(s: PhysicalScene): string {
  const plan = planAssembly(s);
  if (!plan) return 'No assembly found.';
  const steps = plan.steps.map((st, i) => `${i + 1}. place ${st.piece} with turns [${st.turns.join(', ')}] at cell [${st.cell.join(', ')}]`);
  return [`Tray ${s.trays[s.answer].letter} holds the pair that forms the target. Lower its pieces in this order:`, ...steps].join('\n');
}

function generatePhysical(family: FamilyDescriptor, seed: number, tier: Tier, spec: PhysicalSpec, lever: string | undefined): Instance<A6Scene> {
  const { scene } = drawPhysical(seed, tier, spec);
  return makeInstance<A6Scene>(family, tier, seed, {
    ...(lever ? { lever } : {}),
    title: 'Part-to-whole assembly: four trays of two pieces',
    rules: physicalRules(scene),
    budgets: { turns: 100, actionsPerTurn: 5, actions: PHYSICAL_ACTION_BUDGET },
    tools: physicalTools(scene),
    camera: { initial: structuredClone(INITIAL_CAMERA), elevationRange: [0, 90] },
    rulers: physicalRulers(scene),
    ground: { y: -0.02 },
    dynamic: false,
    scoring: 'graded',
    scene,
    reveal: { plan: physicalPlan(scene) },
  });
}

// ------------------------------------------------------------------ question form

const ANSWER_TOOL: ToolSpec = {
  name: 'answer',
  kind: 'final',
  description: 'Give the letter of the option whose two components together can form the target solid. Ends the episode.',
  parameters: {
    type: 'object',
    properties: { option: { enum: [...LETTERS] } },
    required: ['option'],
    additionalProperties: false,
  },
};

const PRESENTATION_TITLE = {
  composite: 'one composite image',
  neutral: 'five images, neutral labels',
  descriptive: 'five images, descriptive labels',
} as const;

function generateQuestion(family: FamilyDescriptor, seed: number, tier: Tier, spec: PhysicalSpec, lever: string | undefined): Instance<A6Scene> {
  const { scene } = drawQuestion(seed, tier, spec);
  return makeInstance<A6Scene>(family, tier, seed, {
    ...(lever ? { lever } : {}),
    title: `Part-to-whole question (${PRESENTATION_TITLE[scene.presentation]})`,
    rules: questionRules(scene),
    tools: [ANSWER_TOOL],
    noCameraTools: true,
    budgets: { turns: 1, actionsPerTurn: 1 },
    camera: { initial: structuredClone(INITIAL_CAMERA) },
    rulers: [],
    dynamic: false,
    scoring: 'graded',
    scene,
    reveal: { plan: `Option ${LETTERS[scene.answer]}: its two components form the target; no other option's can.` },
  });
}

/**
 * The instance of (seed, tier, lever): the question form for seeds from 1000 on, else the
 * assembly form. A lever study (`A6-L5+rot-s100`) is the seed's L5 draw with the lever on.
 */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<A6Scene> {
  const spec = tierSettings('A6', TIER_SPECS, tier, lever, A6_LEVERS);
  return isQuestionSeed(seed) ? generateQuestion(family, seed, tier, spec, lever) : generatePhysical(family, seed, tier, spec, lever);
}
