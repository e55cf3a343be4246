/**
 * B1 generator: the seeded draw of a scene (tiers in `scene.ts`), the tools and rules text an
 * instance carries, and the re-draw until the filters of `filters.ts` pass.
 *
 * A draw picks the piers (width, gap), where they stand on the mat (anywhere that keeps
 * {@link SITE_MARGIN} from its edges; at L7 turned by ±30–60°), an intended bridge of the
 * tier's levels from the catalog, and a supply holding that bridge's bricks with a spare of each,
 * useful-looking alternatives and short decoys. The load then follows from the statics model:
 * - L1: {@link TWO_SIDED_MARGIN}× what the studs of one pier could ever hold at mid-span
 *   ({@link singlePierBoundKg}), so only a bridge tied to both piers passes;
 * - L3 and up: a drawn fraction of what the solver's reference (the first design of the tier's
 *   levels in search order) carries, never lighter than the heaviest L1 load; the filters then
 *   require that no bridge with fewer levels holds it, so the reference's brick count is the
 *   least there is.
 * The rules text says what the site looks like but gives no size or position of it: the agent
 * places bricks by world coordinates read off the mat, its rulers and the origin target.
 */
import { roundTo } from '../../../core/determinism.ts';
import type { Rng } from '../../../core/rng.ts';
import { BRICK_DEFAULTS } from '../../../sim/bricks.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { makeInstance } from '../../instance.ts';
import type { FamilyDescriptor, Instance, Tier, ToolSpec } from '../../types.ts';
import { studPlaceTool, studRemoveTool, mm } from '../../kits/bricks/stud-site.ts';
import { brickType, CATALOG, PITCH, PLATE, type SupplyItem } from '../../kits/bricks/catalog.ts';
import { matRulers } from '../../kits/measuring-mat.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import {
  actionBudget,
  HOLD_SECONDS,
  HOLD_TOLERANCE,
  LOAD_ROW,
  MAT,
  PIER_PLATES,
  l1Load,
  minLoadKg,
  ROWS,
  SITE_MARGIN,
  siteHalfExtents,
  SNAP_TOLERANCE,
  B1_LEVERS,
  TIER_SETTINGS,
  type TierSettings,
  TURNS,
  YAW_TOLERANCE_DEG,
  type B1Scene,
} from './scene.ts';
import { tierSettings } from '../../levers.ts';
import { anchorOf, designPlan, designs, levelOverlap, planText } from './solver.ts';
import { planCapacityKg } from './statics-model.ts';


const COMMIT_TOOL: ToolSpec = {
  name: 'commit',
  kind: 'final',
  description: 'Finish: hang the load at mid-span for the load test. Ends the episode.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
};

function rulesText(s: B1Scene, actions: number): string {
  const turned = s.spanYawDeg !== 0;
  const lines = [
    `Two grey piers ${mm(s.pierPlates * PLATE)} tall stand on a measuring mat with a gap between them. The top of each pier is covered with studs in a square grid of pitch ${mm(PITCH)} (centre to centre); the gap is a whole number of pitches wide and has no studs. ` +
      (turned
        ? "The piers and their stud grid are NOT lined up with the mat: they are turned about the vertical by an angle you must read from the pictures."
        : "The piers' sides are lined up with the mat's lines."),
    `Goal: build a bridge over the gap, then commit. A weight hangs on a cord in the gap; the red ball at the top of the cord, level with the pier tops, marks where the load hangs: the middle of the gap, above the middle row of studs. At commit a ${s.loadKg} kg load hangs from the highest brick over that point for ${s.holdSeconds} s; if no brick is over it, the load falls. The bridge passes if no brick moves more than ${mm(HOLD_TOLERANCE)} during the test.`,
    "World frame (every position you give is in it, in metres): the origin is the centre of the black-and-white target at the mat's back-left corner; x grows to the right along the red rulers, z grows toward the front along the blue rulers; heights are up. The rulers read centimetres from the origin, and the mat has a line every 1 cm, a bolder one every 5 cm.",
    `Bricks: 'brick-WxL' is a brick W studs wide and L studs long, ${mm(3 * PLATE)} tall; 'plate-WxL' the same ${mm(PLATE)} tall. A brick W×L covers W×L stud cells of ${mm(PITCH)}, so its footprint is W×${mm(PITCH)} by L×${mm(PITCH)}.`,
    `Supply (a removed brick goes back into it): ${s.supply.map((x) => `${x.count} × ${x.type}`).join(', ')}.`,
    `Studs: a brick connects through its studs to every brick or pier directly under it where their footprints overlap, and a brick placed later on top of it connects to it the same way; bricks side by side in one layer do not connect. Each stud holds at most ${BRICK_DEFAULTS.gripPerStud} N of pull before it lets go; pushing down on a stud is unlimited. So a brick sticking out over the gap is held by the studs it shares with what is under it: the more studs it shares and the closer the weight is to them, the more it carries.`,
    'Tools: place(brick_type, x_m, z_m, yaw_deg) lowers a brick from above (see its description); remove(brick) lifts a placed brick off again (only if nothing is on top of it); commit() runs the load test and ends the episode. The place result names each brick (b1, b2, …).',
    `Budget: ${actions} actions in all — every place, remove and commit counts, refused ones too; camera moves are free.`,
    'Violations: a placement that is off the stud grid (see place), would hit something on the way down, lands on nothing with studs, or leaves the structure unable to hold its own weight is stopped and rolled back, and the rest of that turn is not run. The same holds for a removal that would leave something unsupported.',
    'The episode ends at commit: it passes if the load held (pass/fail).',
  ];
  return lines.join('\n');
}

/** The first view: the whole mat from the front, looking down at 60°. */
function cameraOf(s: B1Scene): Instance['camera'] {
  return {
    initial: { azimuth: 0, elevation: 60, distance: 0.6, target: [roundTo(s.mat[0] / 2, 4), 0.012, roundTo(s.mat[1] / 2 + 0.02, 4)] },
    elevationRange: [-10, 90],
  };
}

function instanceOf(family: FamilyDescriptor, s: B1Scene, seed: number, tier: Tier, lever?: string): Instance<B1Scene> {
  const actions = actionBudget(tier);
  return makeInstance<B1Scene>(family, tier, seed, {
    ...(lever ? { lever } : {}),
    title: 'Bridge over a gap',
    rules: rulesText(s, actions),
    tools: [studPlaceTool(s.supply.map((x) => x.type), s.mat, SNAP_TOLERANCE, YAW_TOLERANCE_DEG), studRemoveTool('attached on top of it'), COMMIT_TOOL],
    budgets: { turns: TURNS, actionsPerTurn: 5, actions },
    camera: cameraOf(s),
    rulers: matRulers(s.mat),
    ground: { y: 0, color: '#b9b2a5' },
    dynamic: false,
    scoring: 'passfail',
    scene: s,
    reveal: { plan: planText(s) },
  });
}

/** Short distractor types: they cannot reach far over the gap. */
const DECOY_TYPES = ['brick-1x1', 'brick-1x2', 'brick-2x2', 'plate-1x2', 'plate-2x2', 'plate-1x4', 'plate-2x4'];

function floor05(x: number): number {
  return roundTo(Math.floor(x * 20 + 1e-9) / 20, 2);
}

/** Range of loads the capacity bisection explores, kg. */
const CAPACITY_RANGE: [number, number] = [0.5, 16];

function addSupply(supply: SupplyItem[], type: string, count: number): void {
  const item = supply.find((s) => s.type === type);
  if (item) item.count += count;
  else supply.push({ type, count });
}

/** Draws a scene (before the filters). */
export function drawScene(tier: Tier, rng: Rng, cfg: TierSettings = TIER_SETTINGS[tier]): B1Scene {
  const W = rng.pick(cfg.pierCols);
  const G = rng.pick(cfg.gaps);
  const loadCell: [number, number] = [W + (G - 1) / 2, LOAD_ROW];
  const spanYawDeg = cfg.rotated ? rng.pick([-1, 1]) * rng.int(30, 60) : 0;
  const grid = { pierCols: W, rows: ROWS, gap: G, pierPlates: PIER_PLATES, loadCell, spanYawDeg };
  const [hx, hz] = siteHalfExtents(grid);
  const siteX = roundTo(rng.range(SITE_MARGIN[0] + hx, MAT[0] - SITE_MARGIN[0] - hx), 4);
  const siteZ = roundTo(rng.range(SITE_MARGIN[1] + hz, MAT[1] - SITE_MARGIN[1] - hz), 4);
  const width = rng.pick(cfg.widths);
  // No brick long enough to reach from pier to pier on its own (G + 2 studs).
  const pool = Object.keys(CATALOG).filter((t) => brickType(t).length >= 2 && brickType(t).length <= Math.min(cfg.maxLength, G + 1));
  const sturdy = pool.filter((t) => brickType(t).length >= 4 && !brickType(t).plate);
  // The intended bridge: a sturdy-looking design of the tier's levels from the catalog.
  const catalogSupply = sturdy.filter((t) => brickType(t).width === width).map((type) => ({ type, count: 5 }));
  const candidates = designs({ ...grid, supply: catalogSupply }, cfg.levels).filter(
    (d) => anchorOf(d) >= 3 && d.overlapEast >= 2 && d.levels.slice(1).every((_, i) => levelOverlap(d, i + 1) >= 2),
  );
  const supply: SupplyItem[] = [];
  if (candidates.length) {
    const intended = rng.pick(candidates);
    for (const l of intended.levels) addSupply(supply, l.type, 2);
    addSupply(supply, intended.tie, 1);
    // A spare of every type the bridge uses, so the supply never lists exactly the design.
    for (const item of supply) item.count += 1;
  }
  const alternatives = rng.shuffle(sturdy.filter((t) => !supply.some((x) => x.type === t))).slice(0, cfg.alternatives);
  for (const t of alternatives) addSupply(supply, t, rng.int(1, 2));
  const decoys = rng.shuffle(DECOY_TYPES.filter((t) => pool.includes(t) && !supply.some((x) => x.type === t))).slice(0, cfg.decoys).sort();
  for (const t of decoys) addSupply(supply, t, rng.int(2, 3));
  const byKind = (a: SupplyItem, b: SupplyItem): number => {
    const ta = brickType(a.type);
    const tb = brickType(b.type);
    return Number(ta.plate) - Number(tb.plate) || ta.width - tb.width || ta.length - tb.length;
  };
  supply.sort(byKind);
  // The solver's first design may use more of a type than the intended one: give it a spare too,
  // so the supply never lists exactly the reference's bricks (until the first design is stable).
  for (let round = 0; round < 4; round++) {
    const first = designs({ ...grid, supply }, cfg.levels)[0];
    if (!first) break;
    const used = new Map<string, number>();
    for (const p of designPlan(grid, first)) used.set(p.type, (used.get(p.type) ?? 0) + 1);
    let bumped = false;
    for (const item of supply) {
      const n = used.get(item.type) ?? 0;
      if (n && item.count <= n) {
        item.count = n + 1;
        bumped = true;
      }
    }
    if (!bumped) break;
  }
  let loadKg = l1Load(W, G);
  if (cfg.ratio) {
    const first = designs({ ...grid, supply }, cfg.levels)[0];
    if (first) {
      const capacity = planCapacityKg(grid, designPlan(grid, first), CAPACITY_RANGE[0], CAPACITY_RANGE[1], 8);
      // Drawn a little inside the range so the filter's check at the range's end is clear-cut.
      const ratio = rng.range(cfg.ratio[0] + 0.04, cfg.ratio[1]);
      loadKg = Math.max(minLoadKg(tier), floor05(ratio * capacity));
    }
  }
  return {
    pierCols: W,
    rows: ROWS,
    gap: G,
    pierPlates: PIER_PLATES,
    loadKg,
    holdSeconds: HOLD_SECONDS,
    loadCell,
    siteX,
    siteZ,
    spanYawDeg,
    mat: [MAT[0], MAT[1]],
    supply,
    decoys,
  };
}

/** The instance of (seed, tier), or of L5 with one lever: scenes drawn until every shortcut filter passes. */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<B1Scene> {
  const cfg = tierSettings('B1', TIER_SETTINGS, tier, lever, B1_LEVERS);
  // A lever study draws from its tier's (L5's) stream.
  return generateFiltered((attempt) => instanceOf(family, drawScene(tier, redrawRng('B1', tier, seed, attempt), cfg), seed, tier, lever), SHORTCUT_FILTERS);
}

