/**
 * B2 generator: the seeded draw of a scene (tiers in `scene.ts`), the tools and rules text an
 * instance carries, and the re-draw until the filters of `filters.ts` pass.
 *
 * A draw picks the table (its width toward the edge), the reach to the target, where the site
 * stands on the mat (anywhere that keeps {@link SITE_MARGIN} from its edges; at L7 turned by
 * ±30–60°), an intended cantilever of the tier's levels from the catalog, and a supply holding
 * that cantilever's bricks with a spare of each, useful-looking alternatives and (L5/L7) decoys:
 * the one-wide look-alikes of the intended bricks and a short type. The payload then follows from
 * the statics model: a drawn share of what the solver's reference (the first design of the
 * tier's levels in search order) carries, rounded down to 5 g.
 * The rules text describes the site but gives no size or position of it: the agent places
 * bricks by world coordinates read off the mat, its rulers and the origin target.
 */
import { roundTo } from '../../../core/determinism.ts';
import type { Rng } from '../../../core/rng.ts';
import { BRICK_DEFAULTS } from '../../../sim/bricks.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { makeInstance } from '../../instance.ts';
import { tierSettings } from '../../levers.ts';
import type { FamilyDescriptor, Instance, Tier, ToolSpec } from '../../types.ts';
import { studPlaceTool, studRemoveTool, mm } from '../../kits/bricks/stud-site.ts';
import { brickType, CATALOG, PITCH, PLATE, type SupplyItem } from '../../kits/bricks/catalog.ts';
import { MAT_FRAME_TEXT, matRulers } from '../../kits/measuring-mat.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import {
  actionBudget,
  brickBudget,
  HOLD_SECONDS,
  HOLD_TOLERANCE,
  MAT,
  ROWS,
  SITE_MARGIN,
  siteHalfExtents,
  SNAP_TOLERANCE,
  TABLE_PLATES,
  targetCellOf,
  B2_LEVERS,
  TIER_SETTINGS,
  type TierSettings,
  TURNS,
  YAW_TOLERANCE_DEG,
  type B2Scene,
} from './scene.ts';
import { anchorOf, designPlan, designs, levelOverlap, narrowType, planText } from './solver.ts';
import { planCapacityKg } from './statics-model.ts';


/** The payload as the rules say it, in grams. */
export function payloadText(s: Pick<B2Scene, 'payloadKg'>): string {
  return `${Math.round(s.payloadKg * 1000)} g`;
}

const COMMIT_TOOL: ToolSpec = {
  name: 'commit',
  kind: 'final',
  description: 'Finish: hang the payload at the target for the load test. Ends the episode.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
};

function rulesText(s: B2Scene, actions: number): string {
  const turned = s.reachYawDeg !== 0;
  const lines = [
    `A grey table ${mm(s.tablePlates * PLATE)} tall stands on a measuring mat. Its top is covered with studs in a square grid of pitch ${mm(PITCH)} (centre to centre) right up to one edge; beyond that edge there is nothing but air above the mat. ` +
      (turned
        ? 'The table and its stud grid are NOT lined up with the mat: they are turned about the vertical by an angle you must read from the pictures.'
        : "The table's sides are lined up with the mat's lines."),
    `Goal: build a cantilever out from the table over its edge to the target, then commit. A thin post rises from the mat beyond the edge; the red ball on top of it, level with the table top, marks the target: the centre of a stud cell of the table's grid, continued past the edge, in line with the middle row of studs. At commit a ${payloadText(s)} payload hangs from the highest brick over that point for ${s.holdSeconds} s; if no brick is over it, the payload falls. The cantilever passes if no brick moves more than ${mm(HOLD_TOLERANCE)} during the test.`,
    'Anchoring: the table is the only thing the structure can hold on to. A brick that sticks out past the edge stays up only through the studs it shares with the table (or with a brick that does); bricks merely resting on the table would tip over the edge under the payload.',
    MAT_FRAME_TEXT,
    `Bricks: 'brick-WxL' is a brick W studs wide and L studs long, ${mm(3 * PLATE)} tall; 'plate-WxL' the same ${mm(PLATE)} tall. A brick W×L covers W×L stud cells of ${mm(PITCH)}, so its footprint is W×${mm(PITCH)} by L×${mm(PITCH)}.`,
    `Supply (a removed brick goes back into it): ${s.supply.map((x) => `${x.count} × ${x.type}`).join(', ')}. At most ${s.maxBricks} bricks may stand at once (the brick budget).`,
    `Studs: a brick connects through its studs to every brick or the table directly under it where their footprints overlap, and a brick placed later on top of it connects to it the same way; bricks side by side in one layer do not connect. Each stud holds at most ${BRICK_DEFAULTS.gripPerStud} N of pull before it lets go; pushing down on a stud is unlimited. So a brick sticking out over the edge is held by the studs it shares with what is under it: the more studs it shares and the closer the weight is to them, the more it carries.`,
    'Tools: place(brick_type, x_m, z_m, yaw_deg) lowers a brick from above (see its description); remove(brick) lifts a placed brick off again (only if nothing is on top of it); commit() runs the load test and ends the episode. The place result names each brick (b1, b2, …).',
    `Budget: ${actions} actions in all — every place, remove and commit counts, refused ones too; camera moves are free.`,
    'Violations: a placement that is off the stud grid (see place), would hit something on the way down, lands on nothing with studs, would exceed the brick budget, or leaves the structure unable to hold its own weight is stopped and rolled back, and the rest of that turn is not run. The same holds for a removal that would leave something unsupported.',
    'The episode ends at commit: it passes if the payload held (pass/fail).',
  ];
  return lines.join('\n');
}

/** The first view: the whole mat from the front, looking down at 60°. */
function cameraOf(s: B2Scene): Instance['camera'] {
  return {
    initial: { azimuth: 0, elevation: 60, distance: 0.6, target: [roundTo(s.mat[0] / 2, 4), 0.012, roundTo(s.mat[1] / 2 + 0.02, 4)] },
    elevationRange: [-10, 90],
  };
}

function instanceOf(family: FamilyDescriptor, s: B2Scene, seed: number, tier: Tier, lever?: string): Instance<B2Scene> {
  const actions = actionBudget(tier);
  return makeInstance<B2Scene>(family, tier, seed, {
    ...(lever ? { lever } : {}),
    title: 'Cantilever over an edge',
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

/** Short distractor types: they cannot reach far past the edge. */
const SHORT_TYPES = ['brick-1x2', 'brick-2x2', 'plate-1x2', 'plate-2x2', 'plate-1x4', 'plate-2x4'];

/** Capacity bisection range, kg. */
const CAPACITY_RANGE: [number, number] = [0.005, 0.64];
/** Payloads are whole multiples of this, kg (5 g). */
const PAYLOAD_STEP = 0.005;

function addSupply(supply: SupplyItem[], type: string, count: number): void {
  const item = supply.find((s) => s.type === type);
  if (item) item.count += count;
  else supply.push({ type, count });
}

/** Draws a scene (before the filters). */
export function drawScene(tier: Tier, rng: Rng, cfg: TierSettings = TIER_SETTINGS[tier]): B2Scene {
  const W = rng.pick(cfg.tableCols);
  const R = rng.pick(cfg.reaches);
  const targetCell = targetCellOf(W, R);
  const reachYawDeg = cfg.rotated ? rng.pick([-1, 1]) * rng.int(30, 60) : 0;
  const grid = { tableCols: W, rows: ROWS, reach: R, tablePlates: TABLE_PLATES, targetCell, reachYawDeg };
  const [hx, hz] = siteHalfExtents(grid);
  const siteX = roundTo(rng.range(SITE_MARGIN[0] + hx, MAT[0] - SITE_MARGIN[0] - hx), 4);
  const siteZ = roundTo(rng.range(SITE_MARGIN[1] + hz, MAT[1] - SITE_MARGIN[1] - hz), 4);
  const width = rng.pick(cfg.widths);
  const pool = Object.keys(CATALOG).filter((t) => brickType(t).length >= 2 && brickType(t).length <= cfg.maxLength);
  const sturdy = pool.filter((t) => brickType(t).length >= 4 && !brickType(t).plate);
  // The intended cantilever: a sturdy-looking design of the tier's levels from the catalog.
  const catalogSupply = sturdy.filter((t) => brickType(t).width === width).map((type) => ({ type, count: 3 }));
  const candidates = designs({ ...grid, supply: catalogSupply }, cfg.levels).filter((d) => anchorOf(d) >= 2 && d.levels.slice(1).every((_, i) => levelOverlap(d, i + 1) >= 2));
  const supply: SupplyItem[] = [];
  if (candidates.length) {
    const intended = rng.pick(candidates);
    for (const l of intended.levels) addSupply(supply, l.type, 1);
    // A spare of every type the cantilever uses, so the supply never lists exactly the design.
    for (const item of supply) item.count += 1;
  }
  const intendedTypes = supply.map((x) => x.type);
  const alternatives = rng.shuffle(sturdy.filter((t) => !supply.some((x) => x.type === t))).slice(0, cfg.alternatives);
  for (const t of alternatives) addSupply(supply, t, rng.int(1, 2));
  // Decoys: the one-wide look-alikes of the intended bricks (as long, too weak), then short types.
  const lookAlikes = intendedTypes.map((t) => narrowType(t)).filter((t): t is string => t !== null && !supply.some((x) => x.type === t));
  const shorts = rng.shuffle(SHORT_TYPES.filter((t) => pool.includes(t) && !supply.some((x) => x.type === t)));
  const decoys = [...new Set([...lookAlikes, ...shorts])].slice(0, cfg.decoys).sort();
  for (const t of decoys) addSupply(supply, t, rng.int(2, 3));
  const byKind = (a: SupplyItem, b: SupplyItem): number => {
    const ta = brickType(a.type);
    const tb = brickType(b.type);
    return Number(ta.plate) - Number(tb.plate) || ta.width - tb.width || ta.length - tb.length;
  };
  supply.sort(byKind);
  // The solver's first design may use more of a type than the intended one: give it a spare too.
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
  let payloadKg = 0;
  const first = designs({ ...grid, supply }, cfg.levels)[0];
  if (first) {
    const capacity = planCapacityKg(grid, designPlan(grid, first), CAPACITY_RANGE[0], CAPACITY_RANGE[1], 9);
    // Drawn a little inside the range so the filter's check at the range's end is clear-cut.
    const ratio = rng.range(cfg.ratio[0] + 0.04, cfg.ratio[1]);
    payloadKg = roundTo(Math.floor((ratio * capacity) / PAYLOAD_STEP + 1e-9) * PAYLOAD_STEP, 3);
  }
  return {
    tableCols: W,
    rows: ROWS,
    reach: R,
    tablePlates: TABLE_PLATES,
    payloadKg,
    holdSeconds: HOLD_SECONDS,
    targetCell,
    maxBricks: brickBudget(tier),
    siteX,
    siteZ,
    reachYawDeg,
    mat: [MAT[0], MAT[1]],
    supply,
    decoys,
  };
}

/** The instance of (seed, tier), or of L5 with one lever: scenes drawn until every shortcut filter passes. */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<B2Scene> {
  const cfg = tierSettings('B2', TIER_SETTINGS, tier, lever, B2_LEVERS);
  // A lever study draws from its tier's (L5's) stream.
  return generateFiltered((attempt) => instanceOf(family, drawScene(tier, redrawRng('B2', tier, seed, attempt), cfg), seed, tier, lever), SHORTCUT_FILTERS);
}
