/**
 * A6 part-to-whole: the polycube seed's question — which of four pairs of components forms the
 * target? — made physical, and also offered as the seed's four-option question.
 *
 * One family, two forms, told apart by the seed: seeds below 1000 are the assembly form (tiers
 * L1–L7 grow the target and add decoys and, at L7, a turned board); seeds from 1000 on are the
 * question form, where seed `1000 + 3p + k` is problem `p` in presentation `k` (see
 * `polycomp.ts`). Both run through the same episode loop: the question is a one-turn,
 * one-call episode whose observation is drawn by the family (`FamilyEnv.observe`).
 */
import { SpaceActError } from '../../../core/errors.ts';
import type { RulerSpec, Vec3 } from '../../../sim/types.ts';
import type { World } from '../../../sim/world.ts';
import { makeInstance } from '../../instance.ts';
import type { FamilyEnv, Instance, ReferenceSolution, TaskFamily, Tier, ToolSpec } from '../../types.ts';
import { CELL } from '../../kits/polycube-pieces/pieces.ts';
import { matApply } from '../../kits/polycube-pieces/rotations.ts';
import { placeParameters, removeParameters } from '../../kits/polycube-pieces/tools.ts';
import { buildPhysical } from './episode.ts';
import { boardPoint, boardRotation, INITIAL_CAMERA } from './layout.ts';
import { drawPhysical, planAssembly, type PhysicalScene } from './physical.ts';
import { drawQuestion, isQuestionSeed, polycompInstances, SERIES_LENGTH } from './polycomp.ts';
import { LETTERS, optionsFormingTarget, recurrenceTell, type Option } from './problem.ts';
import { questionObservation, questionRules, type QuestionScene } from './question.ts';
import { round9 } from '../../../core/determinism.ts';

/** An A6 instance's scene: the assembly world or the question's pictures. */
export type A6Scene = PhysicalScene | QuestionScene;

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

function physicalRules(s: PhysicalScene): string {
  const n = s.target.length;
  const { cols, rows, layers } = s.board;
  const axes = s.board.turns
    ? 'The board is turned on the table, so its columns and rows need not run left to right and front to back in the first view: read them from the black square and the two painted strips.'
    : 'As seen from the first view, columns run from left to right and rows from front to back.';
  return [
    `A board lies at the back of a table. On it a translucent grey-blue outline shows a target solid of ${n} cubes, each ${CM} cm. Lines on the board mark the outline's grid of ${cols} × ${rows} cells (columns × rows), up to ${layers} layer${layers === 1 ? '' : 's'} high; a small black square marks cell [0, 0, 0]. A red strip painted beside the grid runs along the columns and a blue strip along the rows, both from the corner of cell [0, 0, 0], where an upright ruler stands with a labelled tick at every ${CM} cm layer boundary.`,
    'In front of the board four trays lie in a row: A, B, C and D from left to right as seen from the first view. Each tray holds two pieces made of the same cubes: piece 1 (orange) in the front half of the tray and piece 2 (blue) in the back half, named after their tray: A1, A2, B1, … D2. The seams between a piece\'s cubes show as lines.',
    'Exactly one tray holds two pieces that together can fill the outline exactly (each piece turned and moved as a rigid body, with no overlap and no gap); the two pieces of any other tray cannot.',
    'Goal: fill the outline with the two pieces of that tray. The episode ends, solved, as soon as the outline is filled; commit() ends it at once as it is.',
    `Cells are named [col, row, layer]: col counts along the red strip from 0, row along the blue strip from 0, and layer from the board up (0 = lying on the board). ${axes}`,
    "place(piece, turns, cell) lifts the piece straight up, turns it in the air, carries it over the board and lowers it straight down. `turns` lists quarter turns about fixed world axes as seen from the first view, applied one after the other to the orientation the piece has on its tray (an empty list keeps that orientation): 'y+' turns it counter-clockwise as seen from above and 'y-' clockwise; 'x+' tips its top towards the front (towards the first view) and 'x-' towards the back; 'z+' rolls its top to the left (counter-clockwise as seen from the front) and 'z-' to the right. `cell` is the board cell where the piece's reference cube ends: its lowest cube after turning; if several are lowest, the leftmost of those as seen from the first view; if still several, the frontmost. The piece comes to rest on what is under it.",
    'remove(piece) lifts a piece off the board and puts it back where it lay in its tray.',
    'A piece can only go straight down, so where one piece lies over part of the other, the lower one must go in first. A piece stays where it is put when its cubes rest on the board or on the other piece and its centre of mass lies above the cubes that rest on something; with nothing under it, it falls, and with its centre overhanging, it tips over.',
    'Violations: a piece touching anything while it is lowered, lifted or carried; a piece with a cube outside the outline; pieces from two different trays on the board together; a piece that falls or tips over. A violating call is undone, and the rest of that turn is not run.',
  ].join('\n');
}

function physicalRulers(s: PhysicalScene): RulerSpec[] {
  const w = (s.board.cols * CELL) / 2;
  const d = (s.board.rows * CELL) / 2;
  const t = s.board.turns;
  const off = 0.012;
  const out = matApply(boardRotation(t), [-1, 0, 1]).map((x) => round9(x / Math.SQRT2)) as Vec3;
  // Upright at the outer corner of cell [0, 0, 0]: a labelled tick at every layer boundary, a mid tick at every layer's middle.
  return [{ from: boardPoint(t, [-w - off, 0, d + off]), to: boardPoint(t, [-w - off, round9(s.board.layers * CELL), d + off]), tickDir: out, minor: CELL / 2, major: CELL }];
}

function physicalPlan(s: PhysicalScene): string {
  const plan = planAssembly(s);
  if (!plan) return 'No assembly found.';
  const steps = plan.steps.map((st, i) => `${i + 1}. place ${st.piece} with turns [${st.turns.join(', ')}] at cell [${st.cell.join(', ')}]`);
  return [`Tray ${s.trays[s.answer].letter} holds the pair that forms the target. Lower its pieces in this order:`, ...steps].join('\n');
}

function generatePhysical(seed: number, tier: Tier): Instance<A6Scene> {
  const { scene } = drawPhysical(seed, tier);
  return makeInstance<A6Scene>(a6PartToWhole, tier, seed, {
    title: `Part-to-whole assembly: a ${scene.target.length}-cube target, four trays of two pieces`,
    rules: physicalRules(scene),
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

function generateQuestion(seed: number, tier: Tier): Instance<A6Scene> {
  const { scene } = drawQuestion(seed, tier);
  return makeInstance<A6Scene>(a6PartToWhole, tier, seed, {
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
  };
}

// ------------------------------------------------------------------ both

/** The options of a scene as certification sees them, and its target. */
function optionsOf(s: A6Scene): { target: PhysicalScene['target']; options: Option[] } {
  if (s.form === 'physical') return { target: s.target, options: s.trays.map((t) => ({ pieces: [t.pieces[0].cells, t.pieces[1].cells], made: '' })) };
  return { target: s.target, options: s.options.map((o) => ({ pieces: [o[0].cells, o[1].cells], made: '' })) };
}

/** Certifies that exactly the answer forms the target; the method text for the reference. */
function certificate(instance: Instance<A6Scene>): string {
  const { target, options } = optionsOf(instance.scene);
  const forming = optionsFormingTarget(target, options);
  if (forming.length !== 1 || forming[0] !== instance.scene.answer) {
    throw new SpaceActError('invalid-state', `${instance.id}: options ${forming.map((i) => LETTERS[i]).join(', ') || 'none'} form the target, not exactly ${LETTERS[instance.scene.answer]}`, {
      instance: instance.id,
    });
  }
  return `polycube exact cover: option ${LETTERS[instance.scene.answer]} forms the ${target.length}-cube target, options ${LETTERS.filter((_, i) => i !== instance.scene.answer).join(', ')} form it in 0 packings (24 rotations, integer translations, no mirroring)`;
}

function reference(instance: Instance<A6Scene>): ReferenceSolution {
  const s = instance.scene;
  const method = certificate(instance);
  if (s.form === 'question') {
    // One call, and the only right one.
    return { calls: [{ tool: 'answer', args: { option: LETTERS[s.answer] } }], optimal: true, unique: true, method };
  }
  const plan = planAssembly(s);
  if (!plan) throw new SpaceActError('invalid-state', `${instance.id}: the correct pair cannot be lowered into the outline`, { instance: instance.id });
  return {
    calls: plan.steps.map((st) => ({ tool: 'place', args: { piece: st.piece, turns: st.turns, cell: st.cell } })),
    // Two pieces need two placements, and only one tray can fill the outline.
    optimal: true,
    unique: true,
    method: `${method}; ${plan.packings} packing(s) of the outline by tray ${s.trays[s.answer].letter}, the first that can be lowered piece by piece is played`,
  };
}

/**
 * Random success bound per form. The question form is a four-way choice: a uniform guess is
 * right with probability 1/4, and verify's 10 random episodes per instance then succeed
 * Binomial(10, 1/4) times — 2.5 on average, 7 or more with probability 0.35 %. Its bound is
 * 0.6 (at most 6 of 10), which keeps false alarms on question instances rare. The assembly
 * form keeps the default 0.1: a random `place` must pick the right tray, piece, turn and cell
 * at once (0 of 10 in verify on the released instances).
 */
const randomSuccessBound = (instance: Instance): number => ((instance as Instance<A6Scene>).scene.form === 'question' ? 0.6 : 0.1);

/** A6 part-to-whole: find and place the two components that form a target polycube; also as the seed's four-option question. */
export const a6PartToWhole: TaskFamily<A6Scene> = {
  id: 'A6',
  version: 1,
  category: 'A',
  title: 'Part-to-whole',
  summary:
    'A target polycube is shown as a translucent outline on a board; four trays each hold two pieces, and only one tray\'s pair can form the target under rotation and translation. Pick the pair and assemble it into the outline by turning and lowering each piece. Distractors are the correct cut (or another cut) of the target with one cube moved or one component mirrored, never singled out by sharing the most (or fewest) pieces with the others; targets are rectangular loops, toy-like shapes, cleaved blocks and joinery. The same problems are offered as the polycube seed\'s four-option question in its three presentations (seeds from 1000 on, suite `polycomp`). Certified with the polycube toolkit: exactly one option forms the target.',
  tiers: {
    L1: {
      levers: [],
      description:
        'Targets of 6–8 cubes; distractors are a cut of the target (the correct one or another) with one cube moved or one part mirrored, with no decoy constraint, so a distractor piece may stick out past the target\'s proportions; the board is aligned with the first view.',
    },
    L3: {
      levers: [],
      description:
        'Targets of 8–11 cubes; decoys: every piece of every tray fits inside the outline on its own, and moved cubes stay within the bounds of the piece they join where they can.',
    },
    L5: { levers: [], description: 'Targets of 10–14 cubes, decoys as at L3. The question suite `polycomp` uses this tier.' },
    L7: { levers: ['+rot'], description: 'L5 with the board turned by 90°, 180° or 270° on the table: its columns and rows must be read from its marks (question form: cameras may look from below).' },
  },
  generate(seed: number, tier: Tier): Instance<A6Scene> {
    return isQuestionSeed(seed) ? generateQuestion(seed, tier) : generatePhysical(seed, tier);
  },
  build(instance: Instance<A6Scene>, world: World): FamilyEnv {
    const s = instance.scene;
    return s.form === 'question' ? buildQuestion(instance as Instance<QuestionScene>, world) : buildPhysical(instance as Instance<PhysicalScene>, world);
  },
  reference,
  certify: { unique: true },
  randomSuccessBound,
  shortcutFilters: [
    {
      name: 'exactly-one-option-forms-target',
      check(inst) {
        const { target, options } = optionsOf(inst.scene);
        const forming = optionsFormingTarget(target, options);
        return forming.length === 1 && forming[0] === inst.scene.answer ? null : `options ${forming.map((i) => LETTERS[i]).join(', ') || 'none'} form the target`;
      },
    },
    {
      name: 'no-recurrence-tell',
      check(inst) {
        const { options } = optionsOf(inst.scene);
        return recurrenceTell(options, inst.scene.answer);
      },
    },
    {
      name: 'assemblable-by-lowering',
      check: (inst) => (inst.scene.form === 'physical' && !planAssembly(inst.scene) ? 'the correct pair cannot be lowered into the outline' : null),
    },
  ],
  suites: {
    polycomp: {
      description: `The polycube seed's question series: ${SERIES_LENGTH} problems at L5 (65 rectangular loops, 24 toy-like shapes, 14 cleaved blocks, 17 joinery cases), each in the three presentations (composite image; five images labelled Image 1–5; five labelled Target and Option A–D), ${SERIES_LENGTH * 3} instances.`,
      instances: polycompInstances,
    },
  },
};
