/**
 * V2 generator: a pure function of (family, tier, seed). Every random choice comes from the
 * seeded stream of `redrawRng`; a draw that fails a shortcut filter (`filters.ts`) is drawn again
 * with the next attempt's stream, so the same (seed, tier) always ends at the same instance.
 */
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { makeInstance } from '../../instance.ts';
import type { FamilyDescriptor, Instance, Tier, ToolSpec } from '../../types.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import { DIRECTIONS, PITCH, TIERS, type V2Scene, type Cell, type Grid } from './scene.ts';
import { distanceOf, distancesTo, solve } from './solver.ts';

const SLIDE: ToolSpec = {
  name: 'slide',
  kind: 'discrete',
  description: 'Slide the blue block one cell left, right, away from or toward the first camera view.',
  parameters: {
    type: 'object',
    properties: { direction: { enum: Object.keys(DIRECTIONS) } },
    required: ['direction'],
    additionalProperties: false,
  },
};

function rulesText(s: V2Scene): string {
  return [
    `A blue block sits on a ${s.grid.size}×${s.grid.size} board of ${PITCH * 100} cm cells${s.grid.obstacles.length ? ', among grey obstacle blocks' : ''}.`,
    'Goal: slide the blue block onto the green pad.',
    'slide(direction) moves it exactly one cell: left or right, away from or toward the first camera view.',
    'A slide into an obstacle or off the board is stopped and rolled back, and the rest of that turn is not run. The episode ends when the block is on the pad.',
  ].join('\n');
}

/** One draw of the generator; `attempt` picks a fresh seeded stream (see solvers/redraw.ts). */
function draw(family: FamilyDescriptor, seed: number, tier: Tier, attempt: number): Instance<V2Scene> {
  const t = TIERS[tier as keyof typeof TIERS];
  const rng = redrawRng('V2', tier, seed, attempt);
  const cells: Cell[] = [];
  for (let row = 0; row < t.size; row++) for (let col = 0; col < t.size; col++) cells.push({ col, row });
  const [start, goal, ...rest] = rng.shuffle(cells);
  const grid: Grid = { size: t.size, obstacles: rest.slice(0, t.obstacles) };
  const scene: V2Scene = { grid, start, goal };
  let plan = 'The goal cannot be reached.';
  const dist = distanceOf(distancesTo(grid, goal), grid, start);
  if (dist > 0) plan = `A shortest plan (${dist} slides): ${solve(grid, start, goal).plan.join(', ')}.`;
  return makeInstance(family, tier, seed, {
    title: `Chiral odd-one-out, ${t.size}×${t.size} board`,
    rules: rulesText(scene),
    tools: [SLIDE],
    camera: { initial: { azimuth: 0, elevation: 55, distance: 0.25 + t.size * 0.08, target: [0, 0, 0] }, elevationRange: [5, 90] },
    rulers: [{ from: [-(t.size / 2) * PITCH, 0.0005, (t.size / 2) * PITCH + 0.01], to: [(t.size / 2) * PITCH, 0.0005, (t.size / 2) * PITCH + 0.01], tickDir: [0, 0, 1] }],
    ground: { y: -0.02 },
    dynamic: false,
    scoring: 'graded',
    scene,
    reveal: { plan },
  });
}

/** The instance of (seed, tier): drawn until every shortcut filter passes. */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier): Instance<V2Scene> {
  return generateFiltered((attempt) => draw(family, seed, tier, attempt), SHORTCUT_FILTERS);
}
