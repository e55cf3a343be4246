/**
 * B6 generator: the seeded draw of a scene (tiers in `scene.ts`), the tools and rules text an
 * instance carries, and the re-draw until the filters of `filters.ts` pass.
 *
 * A draw picks the light (a shadow length per metre of height in the tier's range and a
 * direction within the tier's spread of +x, both continuous), the hidden structure (columns of
 * one brick type stacked straight, each its own height, at free cells of the baseplate's grid
 * at least a cell apart, each throwing at least the tier's least area of shadow on the board and
 * none past its far or side edges; a tier may cap columns with a plate, none does now), at L7 a turn of the baseplate, then
 * where the baseplate stands on the mat, the board beside it on the shadow's side and the
 * reference post in front of the board, where its shadow falls on the open mat. The target is
 * the hidden structure's box shadow on the board; the supply holds its bricks, a spare of each
 * and decoy types. The rules text states the IoU threshold (a tier constant) and the post's
 * height (the same everywhere), but no position, size, height or angle of this instance.
 */
import { roundTo } from '../../../core/determinism.ts';
import type { Rng } from '../../../core/rng.ts';
import type { RulerSpec } from '../../../sim/types.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { makeInstance } from '../../instance.ts';
import { tierSettings } from '../../levers.ts';
import type { FamilyDescriptor, Instance, Tier, ToolSpec } from '../../types.ts';
import { mm, studPlaceTool, studRemoveTool } from '../../kits/bricks/stud-site.ts';
import { brickType, PITCH, PLATE, type SupplyItem } from '../../kits/bricks/catalog.ts';
import { footprint, type Placement } from '../../kits/bricks/plan.ts';
import { MAT_FRAME_TEXT, matRulers } from '../../kits/measuring-mat.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import {
  actionBudget,
  BOARD_GAP,
  BOARD_MARGIN_Z,
  BOARD_TOP,
  BOARD_W,
  BRICK_H,
  baseplateCorners,
  clipToRect,
  landOnBaseplate,
  lightOf,
  partShadows,
  rasterArea,
  rasterOnBoard,
  MAT,
  POST_CLEAR,
  POST_MIN_X,
  POST_H,
  POST_HALF,
  SITE_MARGIN,
  SITE_MARGIN_BACK,
  SNAP_TOLERANCE,
  B6_LEVERS,
  TIER_SETTINGS,
  type TierSettings,
  TURNS,
  YAW_TOLERANCE_DEG,
  type B6Scene,
} from './scene.ts';
import { planText } from './solver.ts';

const COMMIT_TOOL: ToolSpec = {
  name: 'commit',
  kind: 'final',
  description: 'Finish: compare the shadow on the white board with the red outline. Ends the episode.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
};

function rulesText(s: B6Scene, actions: number): string {
  const pct = Math.round(s.threshold * 100);
  return [
    `A square grey baseplate covered with studs lies on a measuring mat, and to its right lies a white board with a red outline drawn on it. One slanted light, like a low sun, casts sharp shadows. A grey square post ${mm(POST_H)} tall, with a ruler on it, stands on the mat: its shadow shows the light's direction and how long the shadow of a given height is.` +
      (s.yawDeg !== 0 ? ' The baseplate is turned on the mat: its rows of studs are not parallel to the mat\'s lines.' : ''),
    `Goal: build a structure on the baseplate whose shadow on the white board fills the red outline, then commit. At commit the shadow on the board is compared with the area inside the outline: the area both cover, divided by the area either covers (intersection over union), must be at least ${pct} %. Only shadow on the board counts, and shadow on the board outside the outline counts against you.`,
    `${MAT_FRAME_TEXT} The post's ruler reads heights in centimetres above the mat.`,
    `Bricks: 'brick-WxL' is a brick W studs wide and L studs long, ${mm(BRICK_H)} tall; 'plate-WxL' the same ${mm(PLATE)} tall. A brick covers W×L stud cells of ${mm(PITCH)} and has a stud on top of each cell; studs cast shadows too.`,
    `Supply (a removed brick goes back into it): ${s.supply.map((x) => `${x.count} × ${x.type}`).join(', ')}.`,
    "Tools: place(brick_type, x_m, z_m, yaw_deg) lowers a brick from above onto whatever is under it (see its description); remove(brick) lifts a placed brick off again (only if nothing is on top of it); commit() compares the shadow with the outline and ends the episode. The place result names each brick (b1, b2, …).",
    `Budget: ${actions} actions in all — every place, remove and commit counts, refused ones too; camera moves are free.`,
    'Violations: a placement that is off the stud grid (see place), would hit something on the way down, lands on nothing with studs, or leaves the structure unable to hold its own weight is stopped and rolled back, and the rest of that turn is not run. The same holds for a removal that would leave something unsupported.',
    'The episode ends at commit: it passes if the shadow fills the outline as stated (pass/fail).',
  ].join('\n');
}

/** The mat's rulers (but its back one, which the baseplate's structure may hide) and the post's height ruler on its face toward the camera. */
function rulersOf(s: B6Scene): RulerSpec[] {
  const [px, pz] = s.post;
  const z = roundTo(pz + POST_HALF + 0.0003, 6);
  return [...matRulers(s.mat).slice(1), { from: [px, 0, z], to: [px, POST_H, z], tickDir: [1, 0, 0], minor: 0.005, major: 0.01, color: '#222222' }];
}

/** The first view: the whole mat from the front, looking down at 52°. */
function cameraOf(s: B6Scene): Instance['camera'] {
  return {
    initial: { azimuth: 0, elevation: 55, distance: 0.5, target: [roundTo(s.mat[0] / 2, 4), 0.0, roundTo(s.mat[1] / 2 + 0.005, 4)] },
    elevationRange: [-10, 90],
  };
}

function instanceOf(family: FamilyDescriptor, s: B6Scene, seed: number, tier: Tier, lever?: string): Instance<B6Scene> {
  const actions = actionBudget(s.target.length);
  return makeInstance<B6Scene>(family, tier, seed, {
    ...(lever ? { lever } : {}),
    title: 'Oblique shadow',
    rules: rulesText(s, actions),
    tools: [studPlaceTool(s.supply.map((x) => x.type), s.mat, SNAP_TOLERANCE, YAW_TOLERANCE_DEG), studRemoveTool('on top of it'), COMMIT_TOOL],
    budgets: { turns: TURNS, actionsPerTurn: 5, actions },
    camera: cameraOf(s),
    rulers: rulersOf(s),
    ground: { y: 0, color: '#b9b2a5' },
    light: lightOf(s.shadow),
    dynamic: false,
    scoring: 'passfail',
    scene: s,
    reveal: { plan: planText(s) },
  });
}

/** Brick types a column of the hidden structure is built of, and the plate that may cap it. */
const COLUMN_TYPES: Record<string, string> = { 'brick-2x2': 'plate-2x2', 'brick-2x4': 'plate-2x4', 'brick-1x4': 'plate-1x4' };
/** Types a supply may offer as decoys. */
const DECOY_TYPES = ['brick-1x2', 'brick-1x6', 'brick-2x6', 'plate-1x2', 'plate-2x6'];

/**
 * Area (m²) of a column's box shadow beyond the board's near edge, with the baseplate at the
 * origin (the board's near edge stands {@link BOARD_GAP} past the baseplate's right-most point),
 * or 0 when the shadow would run past the board's far or side edges.
 */
function columnBoardArea(plate: number, yawDeg: number, shadow: [number, number], column: Placement[]): number {
  const s = { plate, siteX: 0, siteZ: 0, yawDeg, shadow };
  const corners = baseplateCorners(s);
  const x0 = Math.max(...corners.map((c) => c[0])) + BOARD_GAP;
  const z0 = Math.min(...corners.map((c) => c[1])) - BOARD_MARGIN_Z;
  const z1 = Math.max(...corners.map((c) => c[1])) + BOARD_MARGIN_Z;
  const parts = landOnBaseplate(s, column);
  if (!parts) return 0;
  const polys = partShadows(s, parts, false);
  const inset = 0.004;
  if (polys.some((p) => p.some(([x, z]) => x > x0 + BOARD_W - inset || z < z0 + inset || z > z1 - inset))) return 0;
  const clipped = polys.map((p) => clipToRect(p, [x0, x0 + BOARD_W, z0, z1]));
  return rasterArea(rasterOnBoard([x0, x0 + BOARD_W, z0, z1], clipped).bits);
}

/** Draws tried before giving up (the near-miss filter rejects most L5 and L7 draws). */
const MAX_DRAWS = 1000;

/** Draws a scene (before the filters). */
export function drawScene(tier: Tier, rng: Rng, cfg: TierSettings = TIER_SETTINGS[tier]): B6Scene {
  const plate = cfg.plate;
  const k = rng.range(cfg.slope[0], cfg.slope[1]);
  const phi = (rng.range(-cfg.spreadDeg, cfg.spreadDeg) * Math.PI) / 180;
  const shadow: [number, number] = [roundTo(k * Math.cos(phi), 4), roundTo(k * Math.sin(phi), 4)];
  const yawDeg = cfg.rotated ? roundTo(rng.pick([-1, 1]) * rng.range(15, 35), 2) : 0;
  // The hidden structure: columns at free cells (one cell apart at least).
  const nCols = rng.int(cfg.columns[0], cfg.columns[1]);
  const target: Placement[] = [];
  const taken: Array<[number, number, number, number]> = [];
  const types = tier === 'L1' ? ['brick-2x2', 'brick-2x4'] : Object.keys(COLUMN_TYPES);
  for (let c = 0; c < nCols; c++) {
    for (let tries = 0; tries < 60; tries++) {
      const type = rng.pick(types);
      const rot: 0 | 90 = rng.pick([0, 90] as const);
      const [fc, fr] = footprint({ type, col: 0, row: 0, rot });
      const col = rng.int(0, plate - fc);
      const row = rng.int(0, plate - fr);
      if (taken.some(([c0, r0, c1, r1]) => col < c1 + 1 && c0 < col + fc + 1 && row < r1 + 1 && r0 < row + fr + 1)) continue;
      const n = rng.int(cfg.height[0], cfg.height[1]);
      const column: Placement[] = [];
      for (let i = 0; i < n; i++) column.push({ type, col, row, rot });
      if (cfg.plates && rng.next() < 0.5) column.push({ type: COLUMN_TYPES[type], col, row, rot });
      // A column whose shadow hardly reaches the board is drawn again.
      if (columnBoardArea(plate, yawDeg, shadow, column) < cfg.minColumnArea) continue;
      taken.push([col, row, col + fc, row + fr]);
      target.push(...column);
      break;
    }
  }
  // Supply: the target's bricks with a spare of each type, and decoys.
  const supply: SupplyItem[] = [];
  for (const p of target) {
    const item = supply.find((x) => x.type === p.type);
    if (item) item.count++;
    else supply.push({ type: p.type, count: 2 });
  }
  const decoys = rng
    .shuffle(DECOY_TYPES.filter((t) => !supply.some((x) => x.type === t)))
    .slice(0, cfg.decoys)
    .sort();
  for (const t of decoys) supply.push({ type: t, count: rng.int(2, 3) });
  supply.sort((a, b) => {
    const ta = brickType(a.type);
    const tb = brickType(b.type);
    return Number(ta.plate) - Number(tb.plate) || tb.width - ta.width || tb.length - ta.length;
  });
  // Where things stand: extents of the (turned) baseplate about its centre.
  const corners = baseplateCorners({ plate, siteX: 0, siteZ: 0, yawDeg });
  const ex0 = Math.min(...corners.map((c) => c[0]));
  const ex1 = Math.max(...corners.map((c) => c[0]));
  const ez0 = Math.min(...corners.map((c) => c[1]));
  const ez1 = Math.max(...corners.map((c) => c[1]));
  const mat = MAT;
  const postReach = POST_H * Math.abs(shadow[1]);
  const xLo = Math.max(SITE_MARGIN, POST_MIN_X - 0.01) - ex0;
  const xHi = mat[0] - SITE_MARGIN - (ex1 + BOARD_GAP + BOARD_W);
  const zLo = SITE_MARGIN_BACK - (ez0 - BOARD_MARGIN_Z);
  const zHi = mat[1] - SITE_MARGIN - (ez1 + BOARD_MARGIN_Z + POST_CLEAR + 2 * POST_HALF + postReach);
  const siteX = roundTo(rng.range(xLo, Math.max(xLo, xHi)), 4);
  const siteZ = roundTo(rng.range(zLo, Math.max(zLo, zHi)), 4);
  const bx0 = roundTo(siteX + ex1 + BOARD_GAP, 4);
  const board: [number, number, number, number] = [bx0, roundTo(bx0 + BOARD_W, 4), roundTo(siteZ + ez0 - BOARD_MARGIN_Z, 4), roundTo(siteZ + ez1 + BOARD_MARGIN_Z, 4)];
  // The post: in front of the board's front edge, near the baseplate's left, its shadow clear of the board.
  const post: [number, number] = [roundTo(siteX + ex0 + 0.01, 4), roundTo(board[3] + POST_CLEAR + POST_HALF + Math.max(0, -POST_H * shadow[1]), 4)];
  void BOARD_TOP;
  return { plate, siteX, siteZ, yawDeg, shadow, board, post, target, threshold: cfg.threshold, mat: [mat[0], mat[1]], supply, decoys };
}

/** The instance of (seed, tier): scenes drawn until every shortcut filter passes. */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<B6Scene> {
  const cfg = tierSettings('B6', TIER_SETTINGS, tier, lever, B6_LEVERS);
  // A lever study draws from its tier's (L5's) stream.
  return generateFiltered((attempt) => instanceOf(family, drawScene(tier, redrawRng('B6', tier, seed, attempt), cfg), seed, tier, lever), SHORTCUT_FILTERS, { maxAttempts: MAX_DRAWS });
}
