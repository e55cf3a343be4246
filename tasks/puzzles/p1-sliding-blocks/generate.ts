/**
 * P1 generator: a pure function of (seed, tier). It fills a tray with the target block and
 * random smaller blocks, maps every position reachable from that layout with its exact
 * distance to the goal, and starts the puzzle at a position whose distance lies in the tier's
 * band (re-drawing the layout when none does). An unsolvable layout is never used: the
 * distance of the chosen start is proved again by a forward breadth-first search.
 */
import { goalDistances } from '../../../solvers/discrete-search/index.ts';
import { sameSeedL7Study } from '../../levers.ts';
import { DEFAULT_BUDGETS, makeInstance } from '../../instance.ts';
import { Rng } from '../../../core/rng.ts';
import type { RulerSpec } from '../../../sim/types.ts';
import type { FamilyDescriptor, Instance, LeverInfo, Tier, ToolSpec } from '../../types.ts';
import { TRAY_DIRECTIONS, TRAY_MARGIN, WALL_THICKNESS } from '../../kits/grid-tray.ts';

const GROUND_Y = -0.0101;
import { CELL, type P1Block, type P1Scene } from './scene.ts';
import { slidingProblem, solveSliding } from './solver.ts';

/** Tray, blocks and distance band of each tier. */
export const TIER_SPEC: Record<Tier, { cols: number; rows: number; empty: number; shapes: Array<[number, number]>; band: [number, number]; yaw: boolean; maxStates: number }> = {
  L1: { cols: 4, rows: 4, empty: 3, shapes: [[1, 1], [1, 2], [2, 1]], band: [6, 8], yaw: false, maxStates: 2_500 },
  L3: { cols: 4, rows: 4, empty: 2, shapes: [[1, 2], [2, 1], [1, 1]], band: [14, 20], yaw: false, maxStates: 4_000 },
  L5: { cols: 4, rows: 5, empty: 2, shapes: [[1, 2], [2, 1], [1, 1], [1, 2], [2, 1]], band: [28, 40], yaw: false, maxStates: 4_000 },
  L7: { cols: 4, rows: 5, empty: 2, shapes: [[1, 2], [2, 1], [1, 1], [1, 2], [2, 1]], band: [28, 40], yaw: true, maxStates: 4_000 },
};

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Why a layout is not a valid P1 scene (overlap, outside the tray, duplicate letters), or null. */
export function layoutProblem(scene: Pick<P1Scene, 'cols' | 'rows' | 'blocks' | 'goal'>): string | null {
  const seen = new Set<number>();
  const ids = new Set<string>();
  for (const b of scene.blocks) {
    if (ids.has(b.id)) return `block letter ${b.id} is used twice`;
    ids.add(b.id);
    if (b.col < 0 || b.row < 0 || b.col + b.w > scene.cols || b.row + b.h > scene.rows) return `block ${b.id} lies outside the tray`;
    for (let r = 0; r < b.h; r++) {
      for (let c = 0; c < b.w; c++) {
        const k = (b.row + r) * scene.cols + b.col + c;
        if (seen.has(k)) return `block ${b.id} overlaps another block`;
        seen.add(k);
      }
    }
  }
  const t = scene.blocks[0];
  if (scene.goal.col < 0 || scene.goal.row < 0 || scene.goal.col + t.w > scene.cols || scene.goal.row + t.h > scene.rows) return 'the goal lies outside the tray';
  return null;
}

/**
 * A random layout: the 2×2 target, then random blocks of the tier's shapes at random free
 * places until only `empty` cells are left.
 */
export function randomLayout(rng: Rng, tier: Tier): P1Scene | null {
  const spec = TIER_SPEC[tier];
  const { cols, rows } = spec;
  const grid = new Array(cols * rows).fill(false);
  const fits = (c: number, r: number, w: number, h: number): boolean => {
    if (c + w > cols || r + h > rows) return false;
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (grid[(r + y) * cols + c + x]) return false;
    return true;
  };
  const put = (c: number, r: number, w: number, h: number): void => {
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) grid[(r + y) * cols + c + x] = true;
  };
  const goal = { col: rng.int(0, cols - 2), row: rows - 2 };
  // The target starts in the northern half, away from the goal.
  const target: P1Block = { id: 'A', col: rng.int(0, cols - 2), row: rng.int(0, Math.max(0, rows - 4)), w: 2, h: 2 };
  put(target.col, target.row, 2, 2);
  const blocks = [target];
  let free = cols * rows - 4;
  let tries = 0;
  while (free > spec.empty && tries++ < 400) {
    const [w, h] = rng.pick(spec.shapes);
    if (free - w * h < spec.empty) continue;
    const c = rng.int(0, cols - w);
    const r = rng.int(0, rows - h);
    if (!fits(c, r, w, h)) continue;
    put(c, r, w, h);
    blocks.push({ id: LETTERS[blocks.length], col: c, row: r, w, h });
    free -= w * h;
  }
  if (free !== spec.empty) return null;
  return { cols, rows, cell: CELL, blocks, target: 'A', goal, exitSide: 'south', yawDeg: 0 };
}

const drawn = new Map<string, { scene: P1Scene; length: number; count: number }>();

/**
 * Re-draws layouts (deterministically) until one has a start in the tier's band; returns it at
 * that start. A pure function of (seed, tier), so its results are kept for the process
 * (`memo: false` recomputes, as the determinism test does).
 */
export function drawScene(seed: number, tier: Tier, opts: { memo?: boolean } = {}): { scene: P1Scene; length: number; count: number } {
  const k = `${tier}/${seed}`;
  const hit = opts.memo === false ? undefined : drawn.get(k);
  if (hit) return structuredClone(hit);
  const out = drawSceneUncached(seed, tier);
  drawn.set(k, out);
  return structuredClone(out);
}

function drawSceneUncached(seed: number, tier: Tier): { scene: P1Scene; length: number; count: number } {
  const spec = TIER_SPEC[tier];
  if (spec.yaw) {
    // L7 is the L5 puzzle of the same seed with the tray turned: the lever changes only the frame.
    const base = drawScene(seed, 'L5');
    return { ...base, scene: { ...base.scene, yawDeg: new Rng(`P1/${tier}/${seed}/turn`).pick([90, 180, 270]) } };
  }
  for (let attempt = 0; attempt < 500; attempt++) {
    const rng = new Rng(`P1/${tier}/${seed}/${attempt}`);
    const layout = randomLayout(rng, tier);
    if (!layout) continue;
    const problem = slidingProblem(layout);
    // Layouts whose reachable positions pass the cap are re-drawn: it keeps generation quick.
    let mapped: { states: number[][]; toGoal: number[] };
    try {
      mapped = goalDistances(problem, { maxStates: spec.maxStates });
    } catch {
      continue;
    }
    const { states, toGoal } = mapped;
    const inBand = states.filter((_, i) => toGoal[i] >= spec.band[0] && toGoal[i] <= spec.band[1]);
    if (!inBand.length) continue;
    const start = rng.pick(inBand);
    const blocks = layout.blocks.map((b, i) => ({ ...b, col: start[i] % layout.cols, row: Math.floor(start[i] / layout.cols) }));
    const scene: P1Scene = { ...layout, blocks, yawDeg: 0 };
    const proof = solveSliding(scene);
    if (!proof.solvable || proof.length < spec.band[0] || proof.length > spec.band[1]) continue;
    return { scene, length: proof.length, count: proof.optimalCount };
  }
  throw new Error(`P1 ${tier} seed ${seed}: no layout in the distance band after 500 draws`);
}

/**
 * Largest `cells` a slide may ask for, the same at every tier: the schema must not tell a
 * prober the tray's size (issue 36). A slide longer than the tray is simply stopped by a wall.
 */
export const MAX_SLIDE_CELLS = 4;

/**
 * The factor of the action budget: the tier's longest shortest solution × this, rounded up,
 * refused slides counted. Why 1.5 is room for a player who looks and too little for one who maps
 * by probing: README "Budget".
 */
export const BUDGET_FACTOR = 1.5;

/**
 * The whole-episode action budget of a tier: the longest shortest solution its band allows (the
 * top of `band`; the generator proves every start's length in the band) × {@link BUDGET_FACTOR},
 * rounded up — the same for every seed of the tier (L1 12, L3 30, L5 and L7 60). Version 2 gave
 * each seed its own shortest length × 1.5, and stating it told a text-only agent how many slides
 * the shortest solution takes, a number that narrows the layouts a sampler keeps to those that
 * far from their goal (issue 36; P6 version 4 fell to exactly this). Refused slides count.
 */
export function actionBudget(tier: Tier): number {
  return Math.ceil(TIER_SPEC[tier].band[1] * BUDGET_FACTOR);
}

function slideTool(scene: P1Scene): ToolSpec {
  return {
    name: 'slide',
    kind: 'discrete',
    description:
      'Slide one block straight north, east, south or west by a whole number of cells (the compass letter N on the tray marks north). The block glides over the tray floor; anything in its way stops the move.',
    parameters: {
      type: 'object',
      properties: {
        block: { enum: scene.blocks.map((b) => b.id), description: 'the letter drawn on the block' },
        direction: { enum: [...TRAY_DIRECTIONS] },
        cells: { type: 'integer', minimum: 1, maximum: MAX_SLIDE_CELLS },
      },
      required: ['block', 'direction', 'cells'],
      additionalProperties: false,
    },
  };
}

/**
 * The rules: what the task is, never how big the tray is, how many blocks it holds or where they
 * are (read from the picture: the issue-36 contract). They read alike at every seed of a tier:
 * the action budget is the tier's ({@link actionBudget}; version 3), and only the block letters
 * drawn on the blocks vary (allow-listed in the family's `textVaries`).
 */
function rulesText(scene: P1Scene, budget: number): string {
  return [
    `A walled tray of square cells holds wooden blocks, each with its letter drawn on top. Block ${scene.target} is the red 2 × 2 block.`,
    `Goal: slide block ${scene.target} until it covers the green cells, which a green bar on top of the tray wall also marks.`,
    'slide(block, direction, cells) pushes one block straight north, east, south or west by that many cells, in the tray\'s own compass: the letter N drawn beside the tray marks its north side. A block cannot pass through a wall or another block: a slide that would hit something is stopped, rolled back, and the rest of that turn is not run. The result says only that the slide was stopped; the picture after it shows where.',
    `Each slide counts as one action, however far the block goes. You have ${budget} actions in all, and a slide that is stopped counts too; when they are spent, the episode ends. The episode ends as soon as block ${scene.target} covers the green cells; the fewer slides, the higher the score.`,
  ].join('\n');
}

function planText(scene: P1Scene): string {
  const r = solveSliding(scene);
  return `A shortest plan (${r.length} slides): ${r.moves.map((m) => `${scene.blocks[m.block].id} ${m.dir} ${m.cells}`).join(', ')}.`;
}

function nearEdgeRuler(scene: P1Scene): RulerSpec {
  const turned = scene.yawDeg % 180 !== 0;
  const across = (turned ? scene.rows : scene.cols) * scene.cell;
  const depth = (turned ? scene.cols : scene.rows) * scene.cell;
  // On the table just in front of the tray's floor, clear of the compass letter and the goal bar.
  const z = depth / 2 + WALL_THICKNESS + TRAY_MARGIN + 0.015;
  return { from: [-across / 2, GROUND_Y + 0.0005, z], to: [across / 2, GROUND_Y + 0.0005, z], tickDir: [0, 0, 1], major: 0.05 };
}

/**
 * The lever P1 supports as a single-factor study over L5 (`P1-L5…`): its L7's, which is by
 * construction the same seed's L5 world with that lever on.
 */
export const P1_LEVERS: Readonly<Record<string, LeverInfo>> = { '+rot': { description: "The L5 puzzle of the same seed with the tray turned by 90°, 180° or 270° relative to the first view: directions are the tray's own compass (its N mark), not the picture's." } };

/**
 * The instance of (seed, tier), or of L5 with its lever: the study is L7's world of the same seed
 * under the study's id (tasks/levers.ts {@link sameSeedL7Study}).
 */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<P1Scene> {
  return sameSeedL7Study(family.id, P1_LEVERS, (s, t) => generateTier(family, s, t), seed, tier, lever);
}

/** The instance of (seed, tier). */
function generateTier(family: FamilyDescriptor, seed: number, tier: Tier): Instance<P1Scene> {
  const { scene } = drawScene(seed, tier);
  const budget = actionBudget(tier);
  const w = scene.cols * scene.cell;
  const d = scene.rows * scene.cell;
  const span = Math.max(w, d);
  return makeInstance(family, tier, seed, {
    // The same for every seed of a tier: no tray size and no number of blocks.
    title: `Sliding blocks${scene.yawDeg ? ', tray turned' : ''}`,
    rules: rulesText(scene, budget),
    budgets: { ...DEFAULT_BUDGETS, actions: budget },
    tools: [slideTool(scene)],
    camera: {
      initial: { azimuth: 0, elevation: 62, distance: Math.round((span * 2.4 + 0.12) * 1000) / 1000, target: [0, 0, 0.03] },
      elevationRange: [10, 90],
    },
    // Along the near edge of the tray as first seen, whatever its turn.
    rulers: [nearEdgeRuler(scene)],
    ground: { y: GROUND_Y },
    dynamic: false,
    scoring: 'graded',
    scene,
    reveal: { plan: planText(scene) },
  });
}
