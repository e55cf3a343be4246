/**
 * B1 generator: the seeded draw of a scene (tiers in `scene.ts`), the tools and rules text an
 * instance carries, and the re-draw until the filters of `filters.ts` pass.
 *
 * The load is chosen so that the task means something:
 * - it is at least {@link TWO_SIDED_MARGIN}× what the studs of one pier could ever hold at
 *   mid-span ({@link singlePierBoundKg}), so only a bridge tied to both piers can pass;
 * - at L5/L7 it is heavier still: 70 % of what the intended two-wide bridge carries, which is
 *   more than the same bridge built one stud wide (at most 3 kg), so the agent must choose strong
 *   bricks and a long tie overlap from a supply with decoys.
 * Every instance is then checked with the statics model (`filters.ts`): the reference carries
 * {@link REFERENCE_MARGIN}× the load, and the reference with its tie slid onto one half fails.
 */
import { round9, roundTo } from '../../../core/determinism.ts';
import type { Rng } from '../../../core/rng.ts';
import { BRICK_DEFAULTS } from '../../../sim/bricks.ts';
import type { RulerSpec } from '../../../sim/types.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { makeInstance } from '../../instance.ts';
import type { FamilyDescriptor, Instance, Tier, ToolSpec } from '../../types.ts';
import { brickType, CATALOG, PITCH, PLATE, type SupplyItem } from '../../kits/bricks/catalog.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import { gridDirection, gridToWorld, HOLD_SECONDS, HOLD_TOLERANCE, L1_MAX_BRICKS, LOAD_ROW, MAX_LOAD_KG, PIER_PLATES, ROWS, singlePierBoundKg, spanCells, TIER_SETTINGS, TWO_SIDED_MARGIN, type B1Scene } from './scene.ts';
import { designPlan, designs, holeOf, planText, type BridgeDesign } from './solver.ts';
import { planCapacityKg } from './statics-model.ts';

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

function instanceOf(family: FamilyDescriptor, scene: B1Scene, seed: number, tier: Tier): Instance<B1Scene> {
  const s = scene;
  const W = s.pierCols;
  const G = s.gap;
  const front = s.rows + 0.35;
  const rulers: RulerSpec[] = [{ from: gridToWorld(s, W, front, 0), to: gridToWorld(s, W + G, front, 0), tickDir: gridDirection(s, 0, 1), minor: 0.01, major: 0.02 }];
  const width = spanCells(s) * PITCH;
  // A turned span runs towards the camera too: step back so the near pier stays in view.
  const distance = roundTo((0.08 + 1.3 * width) * (s.yawDeg === 0 ? 1 : 1.12), 3);
  const cfg = TIER_SETTINGS[tier];
  return makeInstance(family, tier, seed, {
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

const DECOY_TYPES = ['brick-1x1', 'brick-1x2', 'brick-2x2', 'plate-1x2', 'plate-2x2'];

function ceil05(x: number): number {
  return round9(Math.ceil(x * 20 - 1e-9) / 20);
}

function floor05(x: number): number {
  return round9(Math.floor(x * 20 + 1e-9) / 20);
}

/** Types no longer than the gap minus one, so no single brick reaches from pier to pier. */
function fits(gap: number, type: string): boolean {
  return brickType(type).length <= gap - 1;
}

/** Intended designs of one width the catalog offers for this gap (anchor ≥ 2). */
function intendedDesigns(pierCols: number, gap: number, width: 1 | 2): BridgeDesign[] {
  const all = Object.keys(CATALOG).filter((t) => fits(gap, t) && brickType(t).width === width && brickType(t).length >= 4);
  const supply = all.map((type) => ({ type, count: 3 }));
  return designs({ pierCols, rows: ROWS, gap, pierPlates: PIER_PLATES, loadCell: [pierCols + (gap - 1) / 2, LOAD_ROW], supply }).filter(
    (d) => d.anchor >= 2 && !brickType(d.cantilever).plate,
  );
}

function addSupply(supply: SupplyItem[], type: string, count: number): void {
  const item = supply.find((s) => s.type === type);
  if (item) item.count += count;
  else supply.push({ type, count });
}

/** Draws a scene (before the filters). */
export function drawScene(tier: Tier, rng: Rng): B1Scene {
  const cfg = TIER_SETTINGS[tier];
  const W = rng.pick(cfg.pierCols);
  const G = rng.pick(cfg.gaps);
  const loadCell: [number, number] = [W + (G - 1) / 2, LOAD_ROW];
  const base = { pierCols: W, rows: ROWS, gap: G, pierPlates: PIER_PLATES, loadCell };
  const bound = singlePierBoundKg(base);
  let supply: SupplyItem[];
  let decoys: string[] = [];
  let loadKg = ceil05(TWO_SIDED_MARGIN * bound);
  if (!cfg.budgeted) {
    // L1: plenty of every short type; only the number standing at once is limited.
    supply = ['brick-1x2', 'brick-1x4', 'brick-2x2', 'brick-2x4', 'plate-1x4', 'plate-2x4'].filter((t) => fits(G, t)).map((type) => ({ type, count: L1_MAX_BRICKS }));
  } else {
    const width: 1 | 2 = cfg.heavy ? 2 : rng.pick([1, 2] as const);
    const intended = rng.pick(intendedDesigns(W, G, width));
    supply = [];
    addSupply(supply, intended.cantilever, 2);
    addSupply(supply, intended.tie, 1);
    if (!cfg.heavy) addSupply(supply, intended.cantilever, 1);
    // Other useful-looking types: the other width's long bricks (one-wide ones at L5+, where
    // the load is too heavy for them in the same layout).
    const others = Object.keys(CATALOG).filter((t) => fits(G, t) && brickType(t).length >= 4 && !supply.some((s) => s.type === t) && (!cfg.heavy || brickType(t).width === 1));
    for (const t of rng.shuffle(others).slice(0, cfg.heavy ? 2 : 1)) addSupply(supply, t, cfg.heavy ? 2 : rng.int(1, 2));
    if (cfg.decoys) {
      decoys = rng.shuffle(DECOY_TYPES.filter((t) => brickType(t).length < holeOf({ gap: G }, intended) + 2)).slice(0, 2).sort();
      for (const t of decoys) addSupply(supply, t, rng.int(2, 3));
    }
    if (cfg.heavy) {
      const capacity = planCapacityKg(base, designPlan(base, intended), bound, 8, 12);
      loadKg = Math.max(loadKg, Math.min(MAX_LOAD_KG, floor05(0.7 * capacity)));
    }
  }
  supply.sort((a, b) => {
    const ta = brickType(a.type);
    const tb = brickType(b.type);
    return Number(ta.plate) - Number(tb.plate) || ta.width - tb.width || ta.length - tb.length;
  });
  const yawDeg = cfg.rotated ? rng.pick([-1, 1]) * rng.int(30, 60) : 0;
  return {
    ...base,
    loadKg,
    holdSeconds: HOLD_SECONDS,
    yawDeg,
    supply,
    budgeted: cfg.budgeted,
    maxBricks: cfg.budgeted ? supply.reduce((n, s) => n + s.count, 0) : L1_MAX_BRICKS,
    decoys,
  };
}

/** The instance of (seed, tier): scenes drawn until every shortcut filter passes. */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier): Instance<B1Scene> {
  return generateFiltered((attempt) => instanceOf(family, drawScene(tier, redrawRng('B1', tier, seed, attempt)), seed, tier), SHORTCUT_FILTERS);
}
