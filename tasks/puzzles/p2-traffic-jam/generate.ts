/**
 * P2 generator: a pure function of (seed, tier). It parks the red car and random cars and
 * trucks, maps every position reachable from that layout with its exact distance to the goal,
 * and starts at a position whose distance lies in the tier's band (re-drawing otherwise, so an
 * unsolvable lot is never released, nor one whose start is farther than the tier's `most`). L5
 * adds decoys — vehicles proved never to need moving — and L7 builds one vehicle tall so that it
 * hides others from the first view.
 */
import { Rng } from '../../../core/rng.ts';
import type { RulerSpec } from '../../../sim/types.ts';
import { goalDistances } from '../../../solvers/discrete-search/index.ts';
import { sameSeedL7Study } from '../../levers.ts';
import { makeInstance } from '../../instance.ts';
import { TRAY_MARGIN, WALL_THICKNESS } from '../../kits/grid-tray.ts';
import type { FamilyDescriptor, Instance, LeverInfo, Tier, ToolSpec } from '../../types.ts';
import { CELL, tallShadow, vehicleCells, type P2Scene, type P2Vehicle } from './scene.ts';
import { solveTraffic, trafficProblem } from './solver.ts';

/**
 * Vehicles, distance band and levers of each tier, and `most`: the most moves a released start
 * may take (version 5). The generator picks a start in `band` and re-draws the lot when the
 * proven optimum is longer than `most`; `most` fixes the tier's action budget
 * ({@link actionBudget}). At L1 and L3 it is the band's top. L5's band reaches 20, which no start
 * of seeds 0–999 did (the longest took 18 moves, 994 of 1,000 at most 14): a budget from it
 * would give the usual 10-move jam four times its optimum, so L5 and L7 stop at 14 (README.md).
 */
export const TIER_SPEC: Record<Tier, { vehicles: [number, number]; band: [number, number]; most: number; decoys: number; tall: boolean }> = {
  L1: { vehicles: [6, 8], band: [4, 6], most: 6, decoys: 0, tall: false },
  L3: { vehicles: [10, 12], band: [7, 10], most: 10, decoys: 0, tall: false },
  L5: { vehicles: [11, 13], band: [10, 20], most: 14, decoys: 2, tall: false },
  L7: { vehicles: [11, 13], band: [10, 20], most: 14, decoys: 2, tall: true },
};

const SIZE = 6;
/** A's row: the third from the north, as on the classic board. */
const EXIT_ROW = 2;
// No N: the compass letter N marks the lot's north, and a vehicle lettered N beside it would
// read as either (issue 32; version 3).
const LETTERS = 'ABCDEFGHIJKLMOPQRSTUVWXYZ';
const GROUND_Y = -0.0101;

type Drawn = { scene: P2Scene; length: number; count: number };
const drawn = new Map<string, Drawn>();

/** Why a lot is not a valid P2 scene (overlap, outside, a car lying across A's lane), or null. */
export function lotProblem(scene: P2Scene): string | null {
  const seen = new Set<number>();
  for (const v of scene.vehicles) {
    const w = v.axis === 'ew' ? v.length : 1;
    const h = v.axis === 'ns' ? v.length : 1;
    if (v.col < 0 || v.row < 0 || v.col + w > scene.size || v.row + h > scene.size) return `vehicle ${v.id} lies outside the lot`;
    for (let r = 0; r < h; r++) {
      for (let c = 0; c < w; c++) {
        const k = (v.row + r) * scene.size + v.col + c;
        if (seen.has(k)) return `vehicle ${v.id} overlaps another vehicle`;
        seen.add(k);
      }
    }
  }
  const a = scene.vehicles[0];
  if (a.axis !== 'ew' || a.length !== 2) return 'car A must be a car lying east–west';
  return null;
}

function occupied(vs: P2Vehicle[]): Set<number> {
  const s = new Set<number>();
  for (const v of vs) for (let k = 0; k < v.length; k++) s.add(v.axis === 'ew' ? v.row * SIZE + v.col + k : (v.row + k) * SIZE + v.col);
  return s;
}

function randomVehicle(rng: Rng, id: string, taken: Set<number>): P2Vehicle | null {
  const length = rng.next() < 0.7 ? 2 : 3;
  const axis = rng.next() < 0.5 ? 'ew' : 'ns';
  const col = rng.int(0, axis === 'ew' ? SIZE - length : SIZE - 1);
  const row = rng.int(0, axis === 'ns' ? SIZE - length : SIZE - 1);
  // Nothing lies east–west in A's lane: it could never let A pass.
  if (axis === 'ew' && row === EXIT_ROW) return null;
  const v: P2Vehicle = { id, col, row, length, axis };
  for (const k of occupied([v])) if (taken.has(k)) return null;
  return v;
}

/** Re-draws lots (deterministically) until one has a start in the tier's band, at most `most` moves away. Memoised: it is pure. */
export function drawScene(seed: number, tier: Tier, opts: { memo?: boolean } = {}): Drawn {
  const k = `${tier}/${seed}`;
  const hit = opts.memo === false ? undefined : drawn.get(k);
  if (hit) return structuredClone(hit);
  const out = drawUncached(seed, tier);
  drawn.set(k, out);
  return structuredClone(out);
}

function drawUncached(seed: number, tier: Tier): Drawn {
  const spec = TIER_SPEC[tier];
  if (spec.tall) {
    // L7 is the L5 lot of the same seed with one vehicle built tall: the same puzzle, half hidden.
    const base = drawScene(seed, 'L5');
    return { ...base, scene: { ...base.scene, tall: tallestHider(base.scene) } };
  }
  for (let attempt = 0; attempt < 2000; attempt++) {
    const rng = new Rng(`P2/${tier}/${seed}/${attempt}`);
    const n = rng.int(spec.vehicles[0], spec.vehicles[1]);
    const vehicles: P2Vehicle[] = [{ id: 'A', col: rng.int(0, SIZE - 4), row: EXIT_ROW, length: 2, axis: 'ew' }];
    for (let tries = 0; vehicles.length < n && tries < 300; tries++) {
      const v = randomVehicle(rng, LETTERS[vehicles.length], occupied(vehicles));
      if (v) vehicles.push(v);
    }
    const base: P2Scene = { size: SIZE, cell: CELL, vehicles, goalCol: SIZE - 2, decoys: [], tall: null };
    const problem = trafficProblem(base);
    let mapped: { states: number[][]; toGoal: number[] };
    try {
      // Hard jams have small state spaces (the hardest published one: 2,332 positions); lots with
      // more than 3,000 are re-drawn, which keeps generation quick.
      mapped = goalDistances(problem, { maxStates: 3_000 });
    } catch {
      continue;
    }
    const inBand = mapped.states.filter((_, i) => mapped.toGoal[i] >= spec.band[0] && mapped.toGoal[i] <= spec.band[1]);
    if (!inBand.length) continue;
    const start = rng.pick(inBand);
    const placed = vehicles.map((v, i) => ({ ...v, col: start[i] % SIZE, row: Math.floor(start[i] / SIZE) }));
    let scene: P2Scene = { ...base, vehicles: placed };
    const proof = solveTraffic(scene);
    if (!proof.solvable || proof.length < spec.band[0] || proof.length > spec.band[1]) continue;
    // A start farther than the tier's `most` is re-drawn (version 5): `most` fixes the tier's
    // budget, which no longer follows the seed (issue 36).
    if (proof.length > spec.most) continue;
    if (spec.decoys) {
      const withDecoys = addDecoys(rng, scene, spec.decoys, proof.length);
      if (!withDecoys) continue;
      scene = withDecoys;
      const r = solveTraffic(scene);
      return { scene, length: r.length, count: r.optimalCount };
    }
    return { scene, length: proof.length, count: proof.optimalCount };
  }
  throw new Error(`P2 ${tier} seed ${seed}: no lot in the distance band after 2000 draws`);
}

/**
 * Adds decoy vehicles at random free places such that the shortest solution keeps its length
 * with them held still (so a shortest solution never needs to move them).
 */
function addDecoys(rng: Rng, scene: P2Scene, count: number, length: number): P2Scene | null {
  for (let tries = 0; tries < 40; tries++) {
    const vehicles = scene.vehicles.slice();
    const ids: string[] = [];
    for (let k = 0; ids.length < count && k < 200; k++) {
      const v = randomVehicle(rng, LETTERS[vehicles.length], occupied(vehicles));
      if (v) {
        vehicles.push(v);
        ids.push(v.id);
      }
    }
    if (ids.length < count) continue;
    const candidate: P2Scene = { ...scene, vehicles, decoys: ids };
    // An added vehicle can only lengthen the shortest solution, and holding it still can only
    // lengthen it more: so if the lot with the decoys held still is solved in `length` moves,
    // so is the lot with them free, and a shortest solution never moves them.
    const held = solveTraffic(candidate, ids);
    if (held.solvable && held.length === length) return candidate;
  }
  return null;
}

/**
 * The vehicle that, built tall, hides the most cells of other vehicles from the first view
 * (which looks from the south): the other vehicles' cells in the two rows just north of it, in
 * its columns. Ties go to the earlier letter. A vehicle whose shadow would cover the exit gate
 * (it stands in the east column, the exit row in its shadow: P2-L7-s5) is never built tall: the
 * exit is what the rules point to, and the lever promises to hide vehicles only (version 4).
 */
export function tallestHider(scene: P2Scene): string {
  const cells = vehicleCells;
  const exitRow = scene.vehicles[0].row;
  let best: string | undefined;
  let bestScore = -1;
  for (const v of scene.vehicles.slice(1)) {
    const shadow = tallShadow(v);
    if (shadow.cols.has(scene.size - 1) && exitRow >= shadow.from && exitRow <= shadow.to) continue;
    const mine = cells(v);
    const north = Math.min(...mine.map((c) => c[1]));
    const cols = new Set(mine.map((c) => c[0]));
    let score = 0;
    for (const o of scene.vehicles) {
      if (o === v) continue;
      for (const [c, r] of cells(o)) if (cols.has(c) && r < north && r >= north - 2) score++;
    }
    if (score > bestScore) {
      best = v.id;
      bestScore = score;
    }
  }
  // The fallback keeps the function total should every vehicle shadow the exit.
  return best ?? scene.vehicles[1].id;
}

function driveTool(scene: P2Scene): ToolSpec {
  return {
    name: 'drive',
    kind: 'discrete',
    description:
      'Drive one vehicle forwards or backwards along its own length by a whole number of cells: north or south for one lying north–south, east or west for one lying east–west (the letter N beside the lot marks north). Anything in its way stops the move.',
    parameters: {
      type: 'object',
      properties: {
        vehicle: { enum: scene.vehicles.map((v) => v.id), description: 'the letter on the vehicle\'s roof' },
        direction: { enum: ['north', 'east', 'south', 'west'] },
        cells: { type: 'integer', minimum: 1, maximum: scene.size - 2 },
      },
      required: ['vehicle', 'direction', 'cells'],
      additionalProperties: false,
    },
  };
}

/**
 * The whole-episode action budget of a tier: twice the fewest drives of the longest start it
 * releases (`most`; the generator proves every start's length and re-draws a longer one) — the
 * same for every seed of the tier (L1 12, L3 20, L5 and L7 28). Version 4 gave each seed twice
 * its own fewest drives, and stating it told a text-only agent how many drives the shortest
 * solution takes, a number that narrows the lots a sampler keeps to those that far from the exit
 * (issue 36; P6 version 4 fell to exactly this). Refused drives count. Without a budget, a model
 * that drives vehicles at random without looking frees the short L1 jams now and then (the
 * battery saw 2 in 20 with 100 turns).
 */
export function actionBudget(tier: Tier): number {
  return 2 * TIER_SPEC[tier].most;
}

function rulesText(scene: P2Scene, budget: number): string {
  // How many cars and trucks, and the shortest length, vary with the seed: the pictures show the
  // vehicles (issue 36); the budget stated is the tier's (version 5), so the rules read alike at
  // every seed of a tier.
  return [
    `A walled parking lot of ${scene.size} × ${scene.size} square cells, each ${(scene.cell * 100).toFixed(0)} cm wide, is jammed with cars (2 cells long) and trucks (3 cells long), each with its letter on the roof. Car A is red. The exit is the green gate in the east wall, in A's row.`,
    'Goal: drive car A east until its front touches the exit gate (it then covers the green cells before the gate).',
    'drive(vehicle, direction, cells) moves one vehicle forwards or backwards along its own length only — a vehicle never moves sideways; driving it sideways is refused. Directions are compass directions: north is the far side of the lot in the first view (the letter N drawn beyond that wall marks it) and east is to the right. A vehicle cannot pass through a wall or another vehicle: a move that would hit something is stopped, rolled back, and the rest of that turn is not run.',
    `Each drive counts as one action, however far the vehicle goes. Budget: at most ${budget} drives in the whole episode; every drive counts, also one that is refused and rolled back; looking around with the camera is free. The episode ends as soon as A reaches the exit, or when the budget is spent; the fewer drives, the higher the score.`,
  ].join('\n');
}

function planText(scene: P2Scene): string {
  const r = solveTraffic(scene);
  return `A shortest plan (${r.length} drives): ${r.moves.map((m) => `${scene.vehicles[m.block].id} ${m.dir} ${m.cells}`).join(', ')}.`;
}

/**
 * The lever P2 supports as a single-factor study over L5 (`P2-L5…`): its L7's, which is by
 * construction the same seed's L5 world with that lever on.
 */
export const P2_LEVERS: Readonly<Record<string, LeverInfo>> = { '+occ': { description: 'The L5 lot of the same seed with one vehicle built tall, hiding the vehicles just north of it from the first view (a lower camera): the camera must move to see them.' } };

/**
 * The instance of (seed, tier), or of L5 with its lever: the study is L7's world of the same seed
 * under the study's id (tasks/levers.ts {@link sameSeedL7Study}).
 */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<P2Scene> {
  return sameSeedL7Study(family.id, P2_LEVERS, (s, t) => generateTier(family, s, t), seed, tier, lever);
}

/** The instance of (seed, tier). */
function generateTier(family: FamilyDescriptor, seed: number, tier: Tier): Instance<P2Scene> {
  const { scene } = drawScene(seed, tier);
  const budget = actionBudget(tier);
  const side = scene.size * scene.cell;
  const z = side / 2 + WALL_THICKNESS + TRAY_MARGIN + 0.015;
  const ruler: RulerSpec = { from: [-side / 2, GROUND_Y + 0.0005, z], to: [side / 2, GROUND_Y + 0.0005, z], tickDir: [0, 0, 1], major: 0.05 };
  return makeInstance(family, tier, seed, {
    title: 'Traffic jam',
    rules: rulesText(scene, budget),
    tools: [driveTool(scene)],
    camera: {
      initial: { azimuth: 0, elevation: scene.tall ? 42 : 58, distance: Math.round((side * 2.3 + 0.12) * 1000) / 1000, target: [0, 0, 0.03] },
      elevationRange: [10, 90],
    },
    rulers: [ruler],
    ground: { y: GROUND_Y },
    dynamic: false,
    scoring: 'graded',
    budgets: { turns: 100, actionsPerTurn: 5, actions: budget },
    scene,
    reveal: { plan: planText(scene) },
  });
}
