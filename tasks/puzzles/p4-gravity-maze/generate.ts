/**
 * P4 generator: a pure function of (seed, tier). It fills the surface cells of a 4 × 4 × 4 cube
 * with random blocks around a solid 2 × 2 × 2 core, opens an exit hole in one face of a surface
 * cell, puts the ball on a cell where it rests, and keeps the draw when breadth-first search
 * over (orientation × ball cell) puts the exit at a number of turns in the tier's band
 * (re-drawing otherwise, so an unsolvable maze is never released).
 */
import { Rng } from '../../../core/rng.ts';
import { generateFiltered, memoisedDraw, redrawRng } from '../../../solvers/redraw.ts';
import { sameSeedL7Study } from '../../levers.ts';
import { makeInstance } from '../../instance.ts';
import type { FamilyDescriptor, Instance, LeverInfo, Tier, ToolSpec } from '../../types.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import { cellIndex, cellOf, FACE_NORMAL } from './maze.ts';
import { actionBudget, CELL, CENTRE, SIZE, TIER_SPEC, type MazeCell, type MazeFace, type P4Scene } from './scene.ts';
import { moveToCall, solveMaze } from './solver.ts';



function isCore(c: MazeCell): boolean {
  return [c.x, c.y, c.z].every((v) => v === 1 || v === 2);
}

/** One draw of a maze from a seeded stream, or null when it has no usable exit or resting cell. */
function drawMaze(rng: Rng, tier: Tier): Omit<P4Scene, 'optimum' | 'viewAzimuth'> | null {
  const spec = TIER_SPEC[tier];
  const solid = new Array<boolean>(SIZE ** 3).fill(false);
  for (let i = 0; i < solid.length; i++) solid[i] = isCore(cellOf(i)) || rng.next() < spec.solid;
  const open = solid.map((s, i) => (s ? -1 : i)).filter((i) => i >= 0);
  if (open.length < 6) return null;
  const exitCell = rng.pick(open);
  const e = cellOf(exitCell);
  const faces = (Object.keys(FACE_NORMAL) as MazeFace[]).filter((f) => {
    const n = FACE_NORMAL[f];
    return [e.x + n[0], e.y + n[1], e.z + n[2]].some((v) => v < 0 || v >= SIZE);
  });
  const face = rng.pick(faces);
  const rests = open.filter((i) => {
    const c = cellOf(i);
    return i !== exitCell && (c.y === 0 || solid[cellIndex({ ...c, y: c.y - 1 })]);
  });
  if (!rests.length) return null;
  const ball = cellOf(rng.pick(rests));
  const layers: string[][] = [];
  for (let y = 0; y < SIZE; y++) {
    const rows: string[] = [];
    for (let z = 0; z < SIZE; z++) {
      let row = '';
      for (let x = 0; x < SIZE; x++) row += solid[cellIndex({ x, y, z })] ? '#' : '.';
      rows.push(row);
    }
    layers.push(rows);
  }
  return { size: SIZE, cell: CELL, layers, ball, exit: { ...e, face }, opaque: spec.opaque };
}

/**
 * Re-draws mazes (deterministically) until the shortest way out lies in the tier's band. A pure
 * function of (seed, tier, attempt), kept for the process (`memo: false` recomputes).
 */
export const drawScene: (seed: number, tier: Tier, attempt?: number, opts?: { memo?: boolean }) => P4Scene = memoisedDraw((seed, tier, attempt) => drawSceneUncached(seed, tier as Tier, attempt));

function drawSceneUncached(seed: number, tier: Tier, attempt: number): P4Scene {
  const spec = TIER_SPEC[tier];
  if (spec.turned) {
    // L7 is the L5 maze of the same seed, first seen from another side (+rot).
    const base = drawScene(seed, 'L5', attempt);
    return { ...base, viewAzimuth: new Rng(`P4/${tier}/${seed}/${attempt}/view`).pick([90, 180, 270]) };
  }
  for (let d = 0; d < 2000; d++) {
    const maze = drawMaze(redrawRng('P4', tier, seed, attempt * 10_000 + d), tier);
    if (!maze) continue;
    const scene: P4Scene = { ...maze, viewAzimuth: 0, optimum: { turns: 0, solutions: 0 } };
    const r = solveMaze(scene);
    if (!r.solvable || r.length < spec.band[0] || r.length > spec.band[1]) continue;
    scene.optimum = { turns: r.length, solutions: r.optimalCount };
    return scene;
  }
  throw new Error(`P4 ${tier} seed ${seed}: no maze in the band after 2000 draws`);
}

const TILT_TOOL: ToolSpec = {
  name: 'tilt',
  kind: 'discrete',
  description: 'Tip the cube a quarter turn about a level axis through its centre, so that its top face turns to face the named side (the letters on the ground mark the sides). The ball turns with the cube, then falls.',
  parameters: {
    type: 'object',
    properties: { toward: { enum: ['north', 'east', 'south', 'west'] } },
    required: ['toward'],
    additionalProperties: false,
  },
};

const SPIN_TOOL: ToolSpec = {
  name: 'spin',
  kind: 'discrete',
  description: 'Turn the cube a quarter turn about the vertical axis through its centre, clockwise or anticlockwise as seen from above. The ball turns with the cube (it does not fall: down stays down).',
  parameters: {
    type: 'object',
    properties: { direction: { enum: ['clockwise', 'anticlockwise'] } },
    required: ['direction'],
    additionalProperties: false,
  },
};

function rulesText(s: P4Scene, budget: number): string {
  const cm = (s.cell * 100).toFixed(0);
  return [
    `A glass cube is held in the air above a tray. Inside it is a maze of ${s.size} × ${s.size} × ${s.size} cells, each ${cm} cm wide: every cell is either a solid block or open, and the central 2 × 2 × 2 cells are one solid block. A red ball lies in one open cell. One face of one cell on the cube's surface has a hole in the glass, framed in yellow: the exit.`,
    s.opaque
      ? 'The blocks are opaque: you see the ball only where no block stands between it and the camera.'
      : 'The blocks are translucent: you can see the ball through them.',
    'Goal: get the ball out of the cube through the exit, onto the tray.',
    'tilt(toward) tips the cube a quarter turn about a level axis through its centre so that its top face turns toward north, east, south or west; the letters N, E, S and W on the ground mark those sides. spin(direction) turns it a quarter turn about the vertical axis, clockwise or anticlockwise as seen from above. The ball turns with the cube; after the turn it drops straight down through open cells until a block or the glass stops it, or out through the exit if the hole is then underneath it. The ball never moves sideways on its own.',
    `Each turn is one action. Budget: at most ${budget} turns in the whole episode. The episode ends as soon as the ball is out, or when the budget is spent.`,
  ].join('\n');
}

/** One draw (an attempt of the shortcut filters' re-draw loop). */
function draw(family: FamilyDescriptor, seed: number, tier: Tier, attempt: number): Instance<P4Scene> {
  const scene = drawScene(seed, tier, attempt);
  const budget = actionBudget(tier);
  const plan = solveMaze(scene).moves.map(moveToCall);
  return makeInstance(family, tier, seed, {
    title: 'Gravity maze',
    rules: rulesText(scene, budget),
    tools: [TILT_TOOL, SPIN_TOOL],
    budgets: { turns: 100, actionsPerTurn: 5, actions: budget },
    camera: {
      initial: { azimuth: scene.viewAzimuth + 30, elevation: 34, distance: 0.66, target: [0, CENTRE[1] - 0.05, 0] },
      elevationRange: [-20, 90],
    },
    // Nothing in this task is measured: no ruler.
    rulers: [],
    ground: { y: 0 },
    dynamic: false,
    scoring: 'graded',
    scene,
    reveal: { plan: `A shortest way out (${plan.length} turns): ${plan.map((c) => `${c.tool} ${Object.values(c.args)[0]}`).join(', ')}.` },
  });
}

/**
 * The lever P4 supports as a single-factor study over L5 (`P4-L5…`): its L7's, which is by
 * construction the same seed's L5 world with that lever on.
 */
export const P4_LEVERS: Readonly<Record<string, LeverInfo>> = { '+rot': { description: 'The L5 maze of the same seed, first seen from the east, north or west: the compass letters, not the picture, say which way is north.' } };

/**
 * The instance of (seed, tier), or of L5 with its lever: the study is L7's world of the same seed
 * under the study's id (tasks/levers.ts {@link sameSeedL7Study}).
 */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<P4Scene> {
  return sameSeedL7Study(family.id, P4_LEVERS, (s, t) => generateTier(family, s, t), seed, tier, lever);
}

/** The instance of (seed, tier). */
function generateTier(family: FamilyDescriptor, seed: number, tier: Tier): Instance<P4Scene> {
  return generateFiltered((attempt) => draw(family, seed, tier, attempt), SHORTCUT_FILTERS);
}
