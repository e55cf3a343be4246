/**
 * B3 generator: the seeded draw of a scene (tiers in `scene.ts`), the tools and rules text an
 * instance carries, and the re-draw until the filters of `filters.ts` pass.
 *
 * A draw picks the tower's height in layers (the mark between `n − 1` and `n` brick heights,
 * {@link FACE_MARGIN} clear of both), the layer the push acts in (its height clear of that
 * brick's faces), the push's direction, a supply (a few long two-wide bricks, more short ones,
 * one spare, one-wide alternatives and plate decoys), where the baseplate stands on the mat
 * (anywhere that keeps the arrow, label and post on it), and then the push's force: a drawn
 * fraction of what the reference tower carries (closed-form statics), rounded down to 0.01 N.
 * The rules text says what the scene shows but gives no size, height, force or position: the
 * force is on the label by the arrow, the heights are read on the post's ruler, positions on
 * the mat's rulers.
 */
import { roundTo } from '../../../core/determinism.ts';
import type { Rng } from '../../../core/rng.ts';
import { BRICK_DEFAULTS } from '../../../sim/bricks.ts';
import type { RulerSpec } from '../../../sim/types.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { rulersOverlapping } from '../../kits/sight-lines.ts';
import { makeInstance } from '../../instance.ts';
import { tierSettings } from '../../levers.ts';
import type { FamilyDescriptor, Instance, Tier, ToolSpec } from '../../types.ts';
import { studPlaceTool, studRemoveTool, mm } from '../../kits/bricks/stud-site.ts';
import { brickType, PITCH, PLATE, type SupplyItem } from '../../kits/bricks/catalog.ts';
import { MAT_FRAME_TEXT, matRulers } from '../../kits/measuring-mat.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import { layoutOf } from './layout.ts';
import {
  actionBudget,
  BASE_PLATES,
  BRICK_H,
  FACE_MARGIN,
  HOLD_TOLERANCE,
  MAT,
  postRulerLength,
  PUSH_SECONDS,
  SITE_MARGIN,
  SITE_MARGIN_BACK,
  SNAP_TOLERANCE,
  B3_LEVERS,
  TIER_SETTINGS,
  type TierSettings,
  TURNS,
  YAW_TOLERANCE_DEG,
  type B3Scene,
} from './scene.ts';
import { designCapacity, planText, referenceDesign } from './solver.ts';


const COMMIT_TOOL: ToolSpec = {
  name: 'commit',
  kind: 'final',
  description: 'Finish: check the height against the mark, then apply the push. Ends the episode.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
};

function rulesText(s: B3Scene, actions: number): string {
  return [
    'A square grey baseplate covered with studs lies on a measuring mat. Beside it a thin post carries a vertical ruler and a red mark, and a blue arrow points at the baseplate with a label giving a force in newtons.' +
      (s.screen ? ' A screen stands in front of the baseplate in the first view: move the camera to see behind it.' : ''),
    `Goal: build a tower on the baseplate whose top reaches the red mark, then commit. At commit the tower must reach the mark, and then it is pushed sideways for ${s.pushSeconds} s (the pusher stops early if the tower gives way) with the force on the label, in the direction the arrow points, along the arrow's line: at the arrow's height, over the middle of the baseplate. The push acts on the brick it meets first on that line. The tower passes if it reaches the mark and no brick moves more than ${mm(HOLD_TOLERANCE)} during the push.`,
    `${MAT_FRAME_TEXT} The post's ruler reads heights in centimetres above the baseplate's top. The baseplate's stud grid is lined up with the mat.`,
    `Bricks: 'brick-WxL' is a brick W studs wide and L studs long, ${mm(BRICK_H)} tall; 'plate-WxL' the same ${mm(PLATE)} tall. A brick covers W×L stud cells of ${mm(PITCH)}.`,
    `Supply (a removed brick goes back into it): ${s.supply.map((x) => `${x.count} × ${x.type}`).join(', ')}.`,
    `Studs: a brick connects through its studs to every brick or baseplate directly under it where their footprints overlap; bricks side by side in one layer do not connect. Each stud holds at most ${BRICK_DEFAULTS.gripPerStud} N of pull before it lets go; pushing down on a stud is unlimited. A push tips the part above each connection about the far edge of its studs, and the studs that share that connection hold it back: the more studs a connection has along the push, and the lower the push above it, the more it holds.`,
    'Tools: place(brick_type, x_m, z_m, yaw_deg) lowers a brick from above (see its description); remove(brick) lifts a placed brick off again (only if nothing is on top of it); commit() runs the height check and the push and ends the episode. The place result names each brick (b1, b2, …).',
    `Budget: ${actions} actions in all — every place, remove and commit counts, refused ones too; camera moves are free.`,
    'Violations: a placement that is off the stud grid (see place), would hit something on the way down, lands on nothing with studs, or leaves the structure unable to hold its own weight is stopped and rolled back, and the rest of that turn is not run. The same holds for a removal that would leave something unsupported.',
    'The episode ends at commit: it passes if the tower reaches the mark and survives the push (pass/fail).',
  ].join('\n');
}

/**
 * The mat's rulers but its back one (what stands on the mat hides the back ruler's labels from a
 * low first view: a tower's height projects back over them), and the post's: heights above the
 * baseplate's top, on the post's face toward the camera.
 */
function rulersOf(s: B3Scene): RulerSpec[] {
  const base = BASE_PLATES * PLATE;
  const top = postRulerLength(s.targetHeight);
  const [px, pz] = s.post;
  const z = roundTo(pz + 0.003, 6);
  // Ticks and labels point away from the site, so a tower (or the L7 screen) never covers them;
  // unless there, seen from the first camera, they would lie over the mat's side ruler's labels
  // and give way to them (version 2: B3-L1-s4 showed the post's ruler with two of five labels).
  const mat = matRulers(s.mat).slice(1);
  const post = (side: number): RulerSpec => ({ from: [px, base, z], to: [px, roundTo(base + top, 6), z], tickDir: [side, 0, 0], minor: 0.005, major: 0.02, color: '#222222' });
  const away = px >= s.siteX ? 1 : -1;
  const camera = cameraOf(s).initial;
  const clash = (side: number): boolean => rulersOverlapping(camera, [...mat, post(side)]).length > 0;
  return [...mat, post(clash(away) && !clash(-away) ? -away : away)];
}

/** The first view: the whole mat from the front, looking down at 32° (L1's larger mat: farther back and at 38°, so the origin target stays large enough). */
function cameraOf(s: B3Scene): Instance['camera'] {
  return {
    initial: { azimuth: 0, elevation: s.mat[0] > MAT[0] ? 38 : 32, distance: roundTo((0.56 * s.mat[0]) / MAT[0], 4), target: [roundTo(s.mat[0] / 2, 4), 0.035, roundTo(s.mat[1] / 2, 4)] },
    elevationRange: [-10, 90],
  };
}

function instanceOf(family: FamilyDescriptor, s: B3Scene, seed: number, tier: Tier, lever?: string): Instance<B3Scene> {
  const actions = actionBudget(s.layers);
  return makeInstance<B3Scene>(family, tier, seed, {
    ...(lever ? { lever } : {}),
    title: 'Tower under a push',
    rules: rulesText(s, actions),
    tools: [studPlaceTool(s.supply.map((x) => x.type), s.mat, SNAP_TOLERANCE, YAW_TOLERANCE_DEG), studRemoveTool('on top of it'), COMMIT_TOOL],
    budgets: { turns: TURNS, actionsPerTurn: 5, actions },
    camera: cameraOf(s),
    rulers: rulersOf(s),
    ground: { y: 0, color: '#b9b2a5' },
    dynamic: false,
    scoring: 'passfail',
    scene: s,
    reveal: { plan: planText(s) },
  });
}

/** Plate types that cannot add a full layer (distractors). */
const DECOY_TYPES = ['plate-1x4', 'plate-2x2', 'plate-2x4', 'plate-2x6'];

/** Draws a scene (before the filters). */
export function drawScene(tier: Tier, rng: Rng, cfg: TierSettings = TIER_SETTINGS[tier]): B3Scene {
  const n = rng.int(cfg.layers[0], cfg.layers[1]);
  // The mark: above n − 1 bricks and below n, clear of both faces.
  const targetHeight = roundTo(rng.range((n - 1) * BRICK_H + FACE_MARGIN, n * BRICK_H - FACE_MARGIN), 4);
  const fromTop = rng.int(cfg.pushFromTop[0], cfg.pushFromTop[1]);
  const layer = n - fromTop; // 0-based layer the push acts in
  const pushHeight = roundTo(rng.range(layer * BRICK_H + FACE_MARGIN, (layer + 1) * BRICK_H - FACE_MARGIN), 4);
  const pushDir = rng.pick(cfg.directions);
  // The supply: a few long two-wide bricks, more short ones, and one spare in all.
  const supply: SupplyItem[] = [];
  const add = (type: string, count: number): void => {
    if (count <= 0) return;
    const item = supply.find((x) => x.type === type);
    if (item) item.count += count;
    else supply.push({ type, count });
  };
  const c8 = rng.int(1, 2);
  const c6 = rng.int(1, 2);
  const c4 = rng.int(2, 3);
  add('brick-2x8', c8);
  add('brick-2x6', c6);
  add('brick-2x4', c4);
  add('brick-2x2', Math.max(1, n + 1 - c8 - c6 - c4));
  add('brick-1x2', rng.int(1, 2));
  add('brick-1x4', rng.int(1, 2));
  const decoys = rng.shuffle(DECOY_TYPES).slice(0, cfg.decoys).sort();
  for (const t of decoys) add(t, rng.int(2, 3));
  supply.sort((a, b) => {
    const ta = brickType(a.type);
    const tb = brickType(b.type);
    return Number(ta.plate) - Number(tb.plate) || tb.width - ta.width || tb.length - ta.length;
  });
  const layout = layoutOf(cfg.plate, pushDir, cfg.screen);
  const [x0, x1, z0, z1] = layout.extent;
  const mat = cfg.mat;
  const siteX = roundTo(rng.range(SITE_MARGIN - x0, mat[0] - SITE_MARGIN - x1), 4);
  const siteZ = roundTo(rng.range(SITE_MARGIN_BACK - z0, mat[1] - SITE_MARGIN - z1), 4);
  const scene: B3Scene = {
    plate: cfg.plate,
    siteX,
    siteZ,
    targetHeight,
    layers: n,
    pushHeight,
    pushForce: 0,
    pushDir,
    pushSeconds: PUSH_SECONDS,
    post: [roundTo(siteX + layout.post[0], 4), roundTo(siteZ + layout.post[1], 4)],
    mat: [mat[0], mat[1]],
    supply,
    decoys,
    screen: cfg.screen,
  };
  const ref = referenceDesign(scene);
  if (ref) {
    const capacity = designCapacity(scene, ref);
    scene.pushForce = roundTo(Math.floor(rng.range(cfg.ratio[0], cfg.ratio[1]) * capacity * 100) / 100, 2);
  }
  return scene;
}

/** The instance of (seed, tier), or of L5 with one lever: scenes drawn until every shortcut filter passes. */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<B3Scene> {
  const cfg = tierSettings('B3', TIER_SETTINGS, tier, lever, B3_LEVERS);
  // A lever study draws from its tier's (L5's) stream.
  return generateFiltered((attempt) => instanceOf(family, drawScene(tier, redrawRng('B3', tier, seed, attempt), cfg), seed, tier, lever), SHORTCUT_FILTERS);
}
