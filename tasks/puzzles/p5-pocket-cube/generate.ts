/**
 * P5 generator: a pure function of (seed, tier). A random walk of U, R and F turns (no face
 * twice in a row) as long as the tier's distance, kept only when the exact table puts its end at
 * exactly that distance in the half-turn metric (re-drawn otherwise).
 */
import { Rng } from '../../../core/rng.ts';
import { applyTurn, pocketCubeDistance, solvedCube, type CubeFace } from '../../../solvers/discrete-search/index.ts';
import { sameSeedL7Study } from '../../levers.ts';
import { makeInstance } from '../../instance.ts';
import type { FamilyDescriptor, Instance, LeverInfo, Tier, ToolSpec } from '../../types.ts';
import { CENTRE, type P5Scene } from './scene.ts';
import { parseTurn, startState, turnName } from './solver.ts';

/** Half-turn distance of the start at each tier. */
export const TIER_DISTANCE: Record<Tier, number> = { L1: 4, L3: 6, L5: 9, L7: 9 };

/** The scramble of (seed, tier): its end lies exactly at the tier's distance. */
export function drawScramble(seed: number, tier: Tier): string[] {
  const d = TIER_DISTANCE[tier];
  // L7 is the L5 cube of the same seed: the lever hides a face, the puzzle stays.
  const key = tier === 'L7' ? 'L5' : tier;
  for (let attempt = 0; attempt < 1000; attempt++) {
    const rng = new Rng(`P5/${key}/${seed}/${attempt}`);
    const turns: string[] = [];
    let last = '';
    while (turns.length < d) {
      const face = rng.pick(['U', 'R', 'F'].filter((f) => f !== last)) as CubeFace;
      turns.push(turnName({ face, quarters: rng.pick([1, 2, 3] as const) }));
      last = face;
    }
    const end = turns.map(parseTurn).reduce((s, t) => applyTurn(s, t), solvedCube());
    if (pocketCubeDistance(end, 'htm') === d) return turns;
  }
  throw new Error(`P5 ${tier} seed ${seed}: no scramble at distance ${d}`);
}

const TURN_TOOL: ToolSpec = {
  name: 'turn',
  kind: 'discrete',
  description:
    'Turn one face of the cube: U (top), D (bottom), R (right), L (left), F (front, toward the first view) or B (back). angle 90 turns it a quarter turn clockwise as seen looking straight at that face from outside, -90 a quarter turn anticlockwise, 180 a half turn.',
  parameters: {
    type: 'object',
    properties: { face: { enum: ['U', 'D', 'R', 'L', 'F', 'B'] }, angle: { enum: [90, 180, -90] } },
    required: ['face', 'angle'],
    additionalProperties: false,
  },
};

/**
 * The whole-episode action budget of a tier: twice the tier's distance (half-turn metric), the
 * same for every seed of the tier (L1 8, L3 12, L5 and L7 18). Every start lies exactly at its
 * tier's distance, so this is the longest shortest solution of the tier twice over; it is read
 * from the tier, never from the seed's scene, so it cannot follow a seed's plan (issue 36).
 * Without a budget, 500 random turns over the default 100 turns solved 1 of 20 cubes 3 turns
 * from solved in the battery (and so did 6 random turns: L1 starts 4 turns away for that reason).
 */
export function actionBudget(tier: Tier): number {
  return 2 * TIER_DISTANCE[tier];
}

function rulesText(scene: P5Scene, budget: number): string {
  return [
    'A 2 × 2 × 2 twisty cube (a pocket cube) is held in the air above a base plate: eight small cubies, each with three coloured stickers. Its faces are named from the first view: U the top, D the bottom, F the front (toward you), B the back, R the right and L the left.',
    'Goal: turn faces until every face of the cube shows a single colour (any colour on any face).',
    'turn(face, angle) rotates the four cubies of one face together about that face\'s axis: 90 is a quarter turn clockwise as seen looking straight at the face from outside, -90 anticlockwise, 180 a half turn. Face names stay fixed to the room: after turning R, whatever faces right is still R.',
    `Each picture comes in two views: your camera, and the same cube from the opposite side ${scene.bottomView ? 'from below' : 'from above (the bottom is not shown: turn the camera below the cube to see it)'}.`,
    `Each turn counts as one action (a half turn too). Budget: at most ${budget} turns in the whole episode; looking around with the camera is free. The episode ends as soon as the cube is solved, or when the budget is spent; the fewer turns, the higher the score.`,
  ].join('\n');
}

/**
 * The lever P5 supports as a single-factor study over L5 (`P5-L5…`): its L7's, which is by
 * construction the same seed's L5 world with that lever on.
 */
export const P5_LEVERS: Readonly<Record<string, LeverInfo>> = { '+occ': { description: 'The L5 cube of the same seed; the second picture looks from above the back, so the bottom face is seen only by turning the camera below the cube.' } };

/**
 * The instance of (seed, tier), or of L5 with its lever: the study is L7's world of the same seed
 * under the study's id (tasks/levers.ts {@link sameSeedL7Study}).
 */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<P5Scene> {
  return sameSeedL7Study(family.id, P5_LEVERS, (s, t) => generateTier(family, s, t), seed, tier, lever);
}

/** The instance of (seed, tier). */
function generateTier(family: FamilyDescriptor, seed: number, tier: Tier): Instance<P5Scene> {
  const scramble = drawScramble(seed, tier);
  const partial: P5Scene = { scramble, distance: { htm: 0, qtm: 0 }, bottomView: tier !== 'L7' };
  const st = startState(partial);
  const scene: P5Scene = { ...partial, distance: { htm: pocketCubeDistance(st, 'htm'), qtm: pocketCubeDistance(st, 'qtm') } };
  return makeInstance(family, tier, seed, {
    title: `Pocket cube${tier === 'L7' ? ', bottom hidden' : ''}`,
    rules: rulesText(scene, actionBudget(tier)),
    tools: [TURN_TOOL],
    camera: {
      initial: { azimuth: 35, elevation: 30, distance: 0.3, target: [...CENTRE] as [number, number, number] },
      elevationRange: [-80, 90],
    },
    // No ruler: nothing in this task is measured.
    rulers: [],
    ground: { y: -0.01 },
    dynamic: false,
    scoring: 'graded',
    budgets: { turns: 100, actionsPerTurn: 5, actions: actionBudget(tier) },
    scene,
    reveal: { plan: 'Solve the cube in the fewest turns; a shortest solution is read off the exact distance table.' },
  });
}
