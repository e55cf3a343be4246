/**
 * B1 bridge: span the gap between two studded piers with interlocking bricks so that a load
 * hung at mid-span holds (pass/fail).
 *
 * **Scene.** Two static piers 48 mm tall stand on the floor, each topped with studs
 * (`W` columns along the span × 3 rows, 8 mm pitch), with a gap of `G` pitches between them
 * (`G` odd). A weight on a cord hangs under the middle cell of the gap's middle row: the load
 * cell. A ruler with 1 cm ticks runs along the front edge of the gap from one pier's inner edge
 * to the other's; red and blue arrows at the west pier's corner show the grid's +col and +row.
 *
 * **Tools.** `place(brick_type, col, row, rot_deg, layer?)` lowers a brick from the supply
 * straight down onto the stud grid (a swept drop: anything in the way is a collision; a brick
 * with nothing under it, or a structure that cannot hold itself, is a statics violation — both
 * rolled back); `remove(brick)` lifts a placed brick off again; `commit()` hangs the load from
 * the highest brick covering the load cell for 2 s (`BrickSystem.loadTest`: stud connections
 * the statics LP finds overloaded let go, then Rapier shows whether anything moves more than
 * 2 mm) and ends the episode.
 *
 * **What it takes.** No brick is long enough to reach from pier to pier, and the load is at
 * least 1.3× what the studs of one pier could hold at mid-span, so a passing bridge must be
 * tied to both piers: typically a cantilever from each pier and a tie brick across the middle
 * resting on both. The same bricks with the tie resting on one half only fail (checked for
 * every instance by the statics model and, for the released ones, in the real world by
 * `test/family-b1.test.ts`).
 *
 * **Tiers.** L1: gap 5, any number of six short types (at most 20 standing), load just above
 * one pier's reach. L3: gap 7 or 9, a counted supply (brick budget) of a few long types. L5:
 * gap 9 or 11, two-wide bricks and a load of 70 % of what the intended two-wide bridge carries
 * (more than a one-wide bridge of the same layout holds), short decoy bricks. L7: L5 with
 * `+rot`: the grid is turned by ±30–60° about the vertical relative to the first view.
 */
import { BRICK_DEFAULTS, BRICK_WORLD_OPTIONS } from '../../../sim/bricks.ts';
import type { RulerSpec } from '../../../sim/types.ts';
import { makeInstance } from '../../instance.ts';
import type { Instance, TaskFamily, Tier, ToolSpec } from '../../types.ts';
import { buildEpisode } from './episode.ts';
import { generateScene, sceneProblem, TIER_SETTINGS } from './generator.ts';
import { brickType, gridDirection, gridToWorld, HOLD_TOLERANCE, PITCH, PLATE, spanCells, type B1Scene } from './layout.ts';
import { planText, referenceSolution } from './solver.ts';
import { roundTo } from '../../../core/determinism.ts';

export type { B1Scene } from './layout.ts';

const ID = 'B1';
/** Highest `layer` the place tool accepts, plates. */
const MAX_LAYER = 30;

function mm(x: number): string {
  return `${Number((x * 1000).toFixed(1))} mm`;
}

function placeTool(s: B1Scene): ToolSpec {
  const lastCol = spanCells(s) - 1;
  return {
    name: 'place',
    kind: 'physical',
    description:
      'Take a brick of brick_type from the supply and lower it straight down onto the stud grid. (col, row) is the cell of the footprint\'s lowest col and lowest row; rot_deg 0 lays the brick\'s length along the span (cols), 90 across it (rows). ' +
      'The brick stops on the highest thing under its footprint and connects through its studs to everything directly under it. layer (optional) is the height of its bottom above the pier tops in plates (3.2 mm; a brick is 3 plates tall): when given, the brick must come to rest exactly there.',
    parameters: {
      type: 'object',
      properties: {
        brick_type: { enum: s.supply.map((x) => x.type) },
        col: { type: 'integer', minimum: -2, maximum: lastCol + 2 },
        row: { type: 'integer', minimum: -1, maximum: s.rows },
        rot_deg: { enum: [0, 90] },
        layer: { type: 'integer', minimum: 0, maximum: MAX_LAYER },
      },
      required: ['brick_type', 'col', 'row', 'rot_deg'],
      additionalProperties: false,
    },
  };
}

const REMOVE_TOOL: ToolSpec = {
  name: 'remove',
  kind: 'physical',
  description: "Lift a placed brick (by the name the place result gave it, e.g. 'b3') straight up and return it to the supply. Only a brick with nothing attached on top of it can be lifted.",
  parameters: {
    type: 'object',
    properties: { brick: { type: 'string', pattern: '^b[0-9]{1,4}$' } },
    required: ['brick'],
    additionalProperties: false,
  },
};

const COMMIT_TOOL: ToolSpec = {
  name: 'commit',
  kind: 'final',
  description: 'Finish: hang the load at mid-span for the load test. Ends the episode.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
};

function supplyText(s: B1Scene): string {
  const items = s.supply.map((x) => {
    const t = brickType(x.type);
    const what = `${t.plate ? 'plate' : 'brick'} ${t.width} stud${t.width > 1 ? 's' : ''} wide and ${t.length} long`;
    return s.budgeted ? `${x.count} × ${x.type} (${what})` : `${x.type} (${what})`;
  });
  return s.budgeted
    ? `Supply (your brick budget; a removed brick goes back into it): ${items.join('; ')}.`
    : `Supply: as many as you like of ${items.join('; ')} — but at most ${s.maxBricks} bricks may stand at once.`;
}

function rulesText(s: B1Scene): string {
  const W = s.pierCols;
  const [lc, lr] = s.loadCell;
  const lines = [
    `Two piers ${mm(s.pierPlates * PLATE)} tall stand on the floor with a gap between them. The top of each pier is covered with studs in a square grid of pitch ${mm(PITCH)} (centre to centre): ${W} columns along the span and ${s.rows} rows across it. The gap is a whole number of pitches wide and has no studs.`,
    `Goal: build a bridge over the gap, then commit. At commit a ${s.loadKg} kg load is hung from the middle of the span — from the stud cell in the middle column of the gap, in the middle row (row ${lr}); the weight hanging on a cord under the gap marks that cell — and must hang for ${s.holdSeconds} s. The load hangs from the highest brick covering that cell; if no brick covers it, the load falls into the gap. The bridge passes if no brick moves more than ${mm(HOLD_TOLERANCE)} during the test.`,
    `Grid: every cell is (col, row). Cell (0, 0) is the corner stud of the pier where a red and a blue arrow start; col counts along the red arrow, across the first pier (cols 0–${W - 1}), on over the gap and across the other pier; row counts along the blue arrow (rows 0–${s.rows - 1}). ` +
      (s.yawDeg === 0
        ? 'In the first view the span runs from left (col 0) to right, and row 0 is the back row.'
        : 'The grid is NOT lined up with the first view: the piers and the grid are turned about the vertical by an angle you must read from the picture (the red arrow shows the +col direction, the blue arrow +row). Cols and rows stay tied to the piers.') +
      ' Cells over the gap have no studs: count them with the ruler.',
    `Measuring: a ruler with 1 cm ticks runs along the front edge of the gap, from one pier's inner edge (0) to the other's. Bricks are ${mm(3 * PLATE)} tall and plates ${mm(PLATE)}.`,
    supplyText(s),
    `Studs: a brick connects through its studs to every brick or pier directly under it where their footprints overlap, and a brick placed later on top of it connects to it the same way; bricks side by side in one layer do not connect. Each stud holds at most ${BRICK_DEFAULTS.gripPerStud} N of pull before it lets go; pushing down on a stud is unlimited. So a brick sticking out over the gap is held by the studs it shares with what is under it, and the more studs it shares and the closer the weight is to them, the more it carries.`,
    'Tools: place(brick_type, col, row, rot_deg, layer?) lowers a brick from above onto the grid; remove(brick) lifts a placed brick off again (only if nothing is on top of it); commit() runs the load test and ends the episode. The place result names each brick (b1, b2, …).',
    'Violations: a placement whose brick would hit something on the way down, that has nothing with studs under it, or that leaves the structure unable to hold its own weight is stopped and rolled back, and the rest of that turn is not run. The same holds for a removal that would leave something unsupported.',
    'The episode ends at commit: it passes if the load held (pass/fail).',
  ];
  return lines.join('\n');
}

function draw(scene: B1Scene, seed: number, tier: Tier): Instance<B1Scene> {
  const s = scene;
  const W = s.pierCols;
  const G = s.gap;
  const front = s.rows + 0.35;
  const rulers: RulerSpec[] = [{ from: gridToWorld(s, W, front, 0), to: gridToWorld(s, W + G, front, 0), tickDir: gridDirection(s, 0, 1), minor: 0.01, major: 0.02 }];
  const width = spanCells(s) * PITCH;
  // A turned span runs towards the camera too: step back so the near pier stays in view.
  const distance = roundTo((0.08 + 1.3 * width) * (s.yawDeg === 0 ? 1 : 1.12), 3);
  const cfg = TIER_SETTINGS[tier];
  return makeInstance(b1Bridge, tier, seed, {
    title: `Bridge over a gap, ${s.loadKg} kg load${cfg.budgeted ? ', brick budget' : ''}${cfg.decoys ? ', decoys' : ''}${cfg.rotated ? ', turned grid' : ''}`,
    rules: rulesText(s),
    tools: [placeTool(s), REMOVE_TOOL, COMMIT_TOOL],
    camera: {
      initial: { azimuth: 0, elevation: 35, distance, target: [0, roundTo(s.pierPlates * PLATE - 0.008, 6), 0] },
      elevationRange: [-10, 90],
    },
    rulers,
    ground: { y: 0, color: '#b9b2a5' },
    dynamic: false,
    scoring: 'passfail',
    scene: s,
    reveal: { plan: planText(s) },
  });
}

const FILTERS: NonNullable<TaskFamily<B1Scene>['shortcutFilters']> = [{ name: 'meaningful-load', check: (i) => sceneProblem(i.scene, i.tier) }];

/** B1 bridge: build across a gap so that a mid-span load holds. */
export const b1Bridge: TaskFamily<B1Scene> = {
  id: ID,
  version: 1,
  category: 'B',
  title: 'Bridge',
  summary:
    'Span the gap between two studded piers with interlocking bricks from a supply so that a load hung at mid-span holds for 2 s (pass/fail). Tests metric grounding on a stud grid (the gap is measured with a ruler), stud statics (cantilevers must be anchored and tied across the middle) and, at L7, a turned working frame.',
  tiers: {
    L1: { levers: [], description: 'Gap of 5 pitches; any number of short bricks (at most 20 standing); load just above what one pier could hold.' },
    L3: { levers: [], description: 'Gap of 7 or 9 pitches; a brick budget of a few long types.' },
    L5: { levers: [], description: 'Gap of 9 or 11 pitches; a heavier load (70 % of the intended two-wide bridge, beyond a one-wide one); short decoy bricks in the budget.' },
    L7: { levers: ['+rot'], description: 'L5 with the grid and piers turned by ±30–60° about the vertical relative to the first view.' },
  },
  generate(seed, tier) {
    return generateScene(seed, tier, (scene) => draw(scene, seed, tier), FILTERS);
  },
  worldOptions: () => ({ ...BRICK_WORLD_OPTIONS }),
  build: (instance, world) => buildEpisode(instance, world),
  reference: (instance) => referenceSolution(instance.scene),
  shortcutFilters: FILTERS,
};
