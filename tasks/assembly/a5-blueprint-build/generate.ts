/**
 * A5 generator: the target structure (a random stack of cubes, re-drawn until the tier's
 * blueprint has exactly one buildable reading, and at L5 until every view is needed), the supply
 * of loose cubes, and the tools, rules text and rulers an instance carries.
 */
import { round9 } from '../../../core/determinism.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import type { RulerSpec } from '../../../sim/types.ts';
import { DEFAULT_BUDGETS, makeInstance } from '../../instance.ts';
import { tierSettings } from '../../levers.ts';
import type { FamilyDescriptor, Instance, JsonSchema, Tier, ToolSpec } from '../../types.ts';
import { CELL, restingOriginHeight } from '../../kits/polycube-pieces/pieces.ts';
import { VIEW_LABELS } from '../../kits/polycube-pieces/blueprint.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import { INITIAL_CAMERA, PLATE, PLATE_CENTRE, PLATE_GRID, PLATE_MARGIN, supplyPosition, A5_LEVERS, TIERS, type A5Scene } from './scene.ts';
import { referenceCalls } from './solver.ts';
import { drawStructure } from './structure.ts';

const CM = CELL * 100;

/**
 * The action budget: the reference's calls (one place per cube and the commit) × this factor,
 * refused calls counted. Why 2 is fair: README "Budget".
 */
export const BUDGET_FACTOR = 2;

/** The action budget of a tier (the target's cube count is the same at every seed of a tier). */
export function actionBudget(tier: Tier): number {
  return (TIERS[tier].cubes + 1) * BUDGET_FACTOR;
}

/** Draws once (attempt `attempt` of the seed's stream); the filters decide whether it is kept. */
function draw(family: FamilyDescriptor, seed: number, tier: Tier, lever: string | undefined, attempt: number): Instance<A5Scene> {
  // A lever study draws from its tier's stream (L5's); its budget is L5's (the same cubes).
  const rng = redrawRng('A5', tier, seed, attempt);
  const t = tierSettings('A5', TIERS, tier, lever, A5_LEVERS);
  let structure = drawStructure(rng, t.cubes, t.max);
  for (let again = 0; !structure && again < 50; again++) structure = drawStructure(rng, t.cubes, t.max);
  if (!structure) structure = { cells: [], extent: { cols: 0, rows: 0, layers: 0 } };
  const count = t.cubes + t.spares;
  const y = restingOriginHeight([[0, 0, 0]]);
  const supply = Array.from({ length: count }, (_, n) => {
    const p = supplyPosition(n, count);
    return { name: `cube-${n + 1}`, color: '#c8894a', cells: [[0, 0, 0] as [number, number, number]], position: [p[0], y, p[2]] as [number, number, number] };
  });
  const scene: A5Scene = { target: structure.cells, extent: structure.extent, views: [...t.views], supply };
  const budget = actionBudget(tier);
  return makeInstance(family, tier, seed, {
    ...(lever ? { lever } : {}),
    // The same for every seed of a tier: nothing about the target's size or shape.
    title: 'Blueprint build',
    rules: rulesText(scene, budget),
    budgets: { ...DEFAULT_BUDGETS, actions: budget },
    tools: TOOLS,
    camera: { initial: structuredClone(INITIAL_CAMERA), elevationRange: [0, 90] },
    rulers: rulers(),
    ground: { y: -0.02 },
    dynamic: false,
    scoring: 'graded',
    scene,
    reveal: { plan: planText(scene) },
  });
}

/** A `[col, row, layer]` on the plate's grid (the same grid at every tier). */
const CELL_PARAMETER: JsonSchema = {
  type: 'array',
  prefixItems: [
    { type: 'integer', minimum: 0, maximum: PLATE_GRID.cols - 1 },
    { type: 'integer', minimum: 0, maximum: PLATE_GRID.rows - 1 },
    { type: 'integer', minimum: 0, maximum: PLATE_GRID.layers - 1 },
  ],
  items: false,
  minItems: 3,
  maxItems: 3,
};

const TOOLS: ToolSpec[] = [
  {
    name: 'place',
    kind: 'discrete',
    description:
      'Take the next loose cube from the table, lift it straight up, carry it over the plate and lower it straight down into `cell` = [col, row, layer]. Touching anything on the way is a collision; a cube must end on the plate (layer 0) or on a cube directly below it.',
    parameters: { type: 'object', properties: { cell: CELL_PARAMETER }, required: ['cell'], additionalProperties: false },
  },
  {
    name: 'remove',
    kind: 'discrete',
    description: 'Lift the cube in `cell` = [col, row, layer] straight up off the plate and put it back on the table. Touching anything on the way up (a cube on top of it) is a collision.',
    parameters: { type: 'object', properties: { cell: CELL_PARAMETER }, required: ['cell'], additionalProperties: false },
  },
  {
    name: 'commit',
    kind: 'final',
    description: 'Say the structure is finished. Ends the episode: it is solved when the cubes on the plate form the blueprint\'s structure.',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
  },
];

/** Names a list of views in words: "from the front, from above and from the right". */
function viewWords(views: readonly string[]): string {
  const words = views.map((v) => ({ front: 'from the front', top: 'from above', right: 'from the right' })[v as 'front']);
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}` : words[0];
}

/**
 * The rules: what the task is, never the structure's size or how many cubes it has (read from
 * the blueprint's dimension lines). The views named vary by tier only.
 */
function rulesText(s: A5Scene, budget: number): string {
  const panels = s.views.map((v) => `"${VIEW_LABELS[v]}"`).join(', ');
  return [
    `A square build plate lies at the front of a table, nearest the first view. Lines on it mark a grid of cells, each a ${CM} cm cube; a small black square marks cell [0, 0, 0], a red strip runs along the front row and a blue strip along the left column. A ruler along the plate's front edge and an upright ruler at its front-left corner have a tick every ${CM} cm. Loose wooden cubes of the same size lie in rows on the table behind the plate.`,
    `The second picture is a blueprint of a target structure made of these cubes: line drawings without perspective ${viewWords(s.views)}, in panels labelled ${panels}, all at one scale. The front view looks at the side that faces the first view; in the top view that side is at the bottom; the right-side view looks from the right, so the front is on its left. A line marks the structure's outline and every place where the surface seen steps nearer or farther; faces in one plane meet without a line. Dimension lines with their lengths give the structure's overall width, depth and height.`,
    'Exactly one structure that can be built by stacking cubes (each on the plate or on the cube directly below it) looks like the blueprint in every view shown.',
    'Goal: build that structure on the plate, turned as the blueprint shows it (its front towards the first view), anywhere on the grid, with no cube missing and no cube extra, then call commit(). The episode ends at commit; it is solved only if the cubes on the plate form exactly the structure.',
    'Cells are named [col, row, layer]: col counts from the left along the red strip (0 = the leftmost column as seen from the first view), row from the front along the blue strip (0 = the front row, along the red strip), layer from the plate up (0 = on the plate).',
    'place(cell) takes the next loose cube from the table, lifts it straight up, carries it over the plate and lowers it straight down into the cell. remove(cell) lifts the cube in that cell straight up and puts it back on the table.',
    'Refused: a cube touching anything on its way down or up (lowering into a cell that holds a cube; lifting a cube that has another on top of it); a cube that would end with nothing under it; a place when no loose cube is left; a remove from an empty cell. A refused call is undone, and the rest of that turn is not run; its result only says that it was refused, and the picture after it shows why.',
    `You have ${budget} actions in all: every place, remove and commit counts, a refused one too; camera moves are free. When they are spent, the episode ends.`,
  ].join('\n');
}

function planText(s: A5Scene): string {
  const calls = referenceCalls(s);
  return [
    'Build the structure bottom-up in the middle of the plate:',
    ...calls.map((c, i) => (c.tool === 'place' ? `${i + 1}. place a cube in cell [${(c.args.cell as number[]).join(', ')}]` : `${i + 1}. commit`)),
  ].join('\n');
}

/** The rulers: along the plate's front edge (a tick per cell) and upright at its front-left corner (a tick per layer). */
function rulers(): RulerSpec[] {
  const w = (PLATE_GRID.cols * CELL) / 2;
  const d = (PLATE_GRID.rows * CELL) / 2;
  const [cx, cz] = PLATE_CENTRE;
  const front = round9(cz + d + PLATE_MARGIN * 0.55);
  const off = 0.012;
  return [
    { from: [round9(cx - w), round9(PLATE + 0.0003), front], to: [round9(cx + w), round9(PLATE + 0.0003), front], tickDir: [0, 0, 1], minor: CELL, major: CELL * 2 },
    {
      from: [round9(cx - w - off), PLATE, round9(cz + d + off)],
      to: [round9(cx - w - off), round9(PLATE + PLATE_GRID.layers * CELL), round9(cz + d + off)],
      tickDir: [-0.7071, 0, 0.7071],
      minor: CELL / 2,
      major: CELL,
    },
  ];
}

/** The instance of (seed, tier, lever). */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<A5Scene> {
  return generateFiltered((attempt) => draw(family, seed, tier, lever, attempt), SHORTCUT_FILTERS);
}
