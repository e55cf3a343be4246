/**
 * B4 generator: a pure function of (family, tier, seed). It draws the table's edge, the supply's
 * lengths (continuous, so no grid of possible worlds exists to enumerate) and the marker's
 * distance past the edge as a fraction of what the reference column reaches; a draw that fails
 * a shortcut filter (`filters.ts`) is drawn again with the next attempt's stream.
 *
 * Nothing metric that varies with the seed is in the text: the rules name the colours and count
 * the blocks; lengths, the edge and the marker are read off the ruler in the pictures.
 */
import { roundTo } from '../../../core/determinism.ts';
import type { RulerSpec } from '../../../sim/types.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { makeInstance } from '../../instance.ts';
import type { FamilyDescriptor, Instance, Tier, ToolSpec } from '../../types.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import {
  actionBudget,
  BLOCK_COLORS,
  REFERENCE_MARGIN,
  RULE_MARGIN,
  RULER_END,
  RULER_Z,
  rulerEnd,
  TABLE_BACK,
  TIERS,
  type B4Scene,
  type BlockColor,
  type SupplyBlock,
} from './scene.ts';
import { farthest } from './solver.ts';

/** Turns an episode may take. */
const TURNS = 30;

function placeTool(s: B4Scene): ToolSpec {
  return {
    name: 'place',
    kind: 'physical',
    description:
      'Pick up the named block from where it lies, carry it over the stacking line and lower it straight down onto the top of the stack (onto the table when the stack is empty), lying along the ruler. ' +
      'x_m is where its centre should be along the ruler, in metres (the ruler reads centimetres from its 0 mark, which is x = 0). The placement is refused and undone if the block would rest on nothing, or if the stack would not stand with it (see the rules).',
    parameters: {
      type: 'object',
      properties: {
        block: { enum: s.blocks.map((b) => b.color) },
        x_m: { type: 'number', minimum: 0, maximum: RULER_END },
      },
      required: ['block', 'x_m'],
      additionalProperties: false,
    },
  };
}

const REMOVE_TOOL: ToolSpec = {
  name: 'remove',
  kind: 'physical',
  description: 'Lift the top block off the stack and put it back where it lay at the start.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
};

function rulesText(s: B4Scene, actions: number): string {
  const colors = s.blocks.map((b) => b.color);
  return [
    `${s.blocks.length} loose wooden blocks (${colors.join(', ')}) lie on a table, each named by its colour. They have no studs: they hold by their own weight and friction only. All have the same height and depth and the same wood, so a block's weight goes with its length; ${s.blocks.some((b) => b.length !== s.blocks[0].length) ? 'their lengths differ.' : 'they are all the same length.'}`,
    'A red post with a red ball on top stands on the floor beyond the right-hand edge of the table, below the level of the table top.',
    'Goal: stack blocks in one column on the table at its edge so that the far (right) end of a block reaches past the red post, as seen from above, and the stack stands. The episode ends as soon as it does.',
    'A black-and-white ruler runs along the stacking line, level with the table top, and reads centimetres from its 0 mark; the table edge, the post and the blocks are measured against it.',
    'place(block, x_m) puts a block on top of the stack with its centre at x_m along the ruler (metres); remove() takes the top block back. Blocks lie along the ruler, one on top of another.',
    `Standing: at every level the blocks from that level up must have their common centre of mass over the part where that level rests on the one below (for the bottom block, on the table), at least ${RULE_MARGIN * 1000} mm inside that part's ends. A placement that breaks this, or rests on nothing, is refused and undone, and the rest of that turn is not run.`,
    `Budget: ${actions} actions — every place and remove counts, refused ones too; camera moves are free.`,
  ].join('\n');
}

function rulersOf(s: B4Scene): RulerSpec[] {
  return [{ from: [0, 0.0015, RULER_Z], to: [roundTo(rulerEnd(s), 4), 0.0015, RULER_Z], tickDir: [0, 0, 1], minor: 0.01, major: 0.05, color: '#111111' }];
}

function cameraOf(s: B4Scene, turn: number): Instance['camera'] {
  // Everything from the table's back end to past the ruler's end, the supply behind the line.
  const right = rulerEnd(s) + 0.05;
  // The table's back corner comes out farther left in perspective than its front edge.
  const left = TABLE_BACK - 0.07;
  const width = right - left;
  const target: [number, number, number] = [roundTo((left + right) / 2, 4), -0.03, -0.07];
  return { initial: { azimuth: turn, elevation: 30, distance: roundTo(width * (turn ? 1.95 : 1.6), 3), target }, elevationRange: [-20, 90] };
}

/** One draw of the generator; `attempt` picks a fresh seeded stream (see solvers/redraw.ts). */
function draw(family: FamilyDescriptor, seed: number, tier: Tier, attempt: number): Instance<B4Scene> {
  const t = TIERS[tier];
  const rng = redrawRng('B4', tier, seed, attempt);
  const long = rng.range(t.length[0], t.length[1]);
  const lengths: number[] = [];
  if (!t.mixed) for (let i = 0; i < t.supply; i++) lengths.push(long);
  else {
    lengths.push(long, long * rng.range(0.9, 1));
    lengths.push(long * rng.range(0.55, 0.75), long * rng.range(0.55, 0.75));
    for (let i = 4; i < t.supply; i++) lengths.push(long * rng.range(0.3, 0.45));
  }
  // The colours come in one fixed order, so the text is the same for every seed; which of them
  // is long is drawn (the lengths are shuffled over them).
  const colors = (Object.keys(BLOCK_COLORS) as BlockColor[]).slice(0, t.supply);
  const order = rng.shuffle(lengths.map((_, i) => i));
  const blocks: SupplyBlock[] = order.map((i, k) => ({ color: colors[k], length: roundTo(lengths[i], 4) }));
  const edgeX = roundTo(rng.range(0.27, 0.42), 4);
  const partial: B4Scene = { edgeX, markerX: 0, blocks, needed: t.needed };
  const best = farthest(partial, t.needed, REFERENCE_MARGIN);
  const overhang = best ? best.reach - edgeX : 0;
  const markerX = roundTo(edgeX + overhang * rng.range(t.reachFraction[0], t.reachFraction[1]), 4);
  const scene: B4Scene = { ...partial, markerX };
  const actions = actionBudget(tier);
  const turn = t.turnedView ? rng.pick([-1, 1]) * Math.round(rng.range(t.turnedView[0], t.turnedView[1])) : 0;
  return makeInstance<B4Scene>(family, tier, seed, {
    title: 'Overhang stack',
    rules: rulesText(scene, actions),
    tools: [placeTool(scene), REMOVE_TOOL],
    budgets: { turns: TURNS, actionsPerTurn: 5, actions },
    camera: cameraOf(scene, turn),
    rulers: rulersOf(scene),
    ground: { y: -0.22, color: '#b9b2a5' },
    dynamic: false,
    scoring: 'graded',
    scene,
    reveal: { plan: `Stack ${t.needed} blocks as a harmonic column: from the top down, each block's load sits just inside the far end of the block below, and the whole column's centre of mass just inside the table edge.` },
  });
}

/** The instance of (seed, tier): drawn until every shortcut filter passes. */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier): Instance<B4Scene> {
  return generateFiltered((attempt) => draw(family, seed, tier, attempt), SHORTCUT_FILTERS);
}
