/**
 * B5 generator: the seeded draw of a scene (tiers in `scene.ts`), the tools and rules text an
 * instance carries, and the re-draw until the filters of `filters.ts` pass.
 *
 * A draw picks the walls (`walls.ts`), projects them onto the tier's views (the targets), places
 * the baseplate anywhere on the mat that keeps it clear of the rulers, and runs the exact search
 * (`search.ts`) for the least-brick standing build. The supply is that build's bricks plus one
 * or two spares of every type the tier offers (L1, L3), or exactly that build's bricks (L5, L7),
 * and the tier's decoy types (two-wide bricks); the search is then run again on the supply as
 * drawn, and its count is the scene's `leastBricks`. The rules text says what the scene and the
 * target sheet show but gives no size, count or position: those are read in the pictures.
 */
import type { Rng } from '../../../core/rng.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { makeInstance } from '../../instance.ts';
import { tierSettings } from '../../levers.ts';
import type { FamilyDescriptor, Instance, Tier, ToolSpec } from '../../types.ts';
import { studPlaceTool, studRemoveTool, mm } from '../../kits/bricks/stud-site.ts';
import { BRICK_DEFAULTS } from '../../../sim/bricks.ts';
import { brickType, PITCH, type SupplyItem } from '../../kits/bricks/catalog.ts';
import { MAT_FRAME_TEXT, matRulers } from '../../kits/measuring-mat.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import { actionBudget, BRICK_H, MAT, plateHalf, PLATE_STUDS, r4, SITE_MARGIN, SITE_MARGIN_BACK, SNAP_TOLERANCE, targetsOf, B5_LEVERS, TIER_SETTINGS, type TierSettings, TURNS, YAW_TOLERANCE_DEG, type B5Scene, type ViewName } from './scene.ts';
import { buildSupply, cellsDetermined, leastBrickBuilds } from './search.ts';
import { buildStands, planText, searchScene } from './solver.ts';
import { drawWalls } from './walls.ts';

const COMMIT_TOOL: ToolSpec = {
  name: 'commit',
  kind: 'final',
  description: "Finish: compare the bricks' views with the targets and check that the structure stands. Ends the episode.",
  parameters: { type: 'object', properties: {}, additionalProperties: false },
};

const VIEW_WORDS: Record<ViewName, string> = { front: 'from the front', right: 'from the right side', top: 'from above' };

function listWords(xs: string[]): string {
  return xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;
}

function rulesText(s: B5Scene, actions: number): string {
  const seen = listWords(s.views.map((v) => VIEW_WORDS[v]));
  const sheet =
    s.drawing === 'silhouette'
      ? `In each panel the target is the red shape, drawn at true scale over the baseplate (grey: edge-on in the side views, whole from above); a thin grid over it has a line at every stud (${mm(PITCH)}) and at every brick's height (${mm(BRICK_H)}), counted from the baseplate's edges and top.`
      : 'The panels are line drawings (+blueprint): black outlines on white of the baseplate (edge-on in the side views, whole from above) and of the target, drawn at true scale, with dimension lines giving lengths in centimetres; nothing else is marked.';
  return [
    `A square grey baseplate covered with studs lies on a measuring mat. A second picture, the target sheet, shows what the finished structure must look like seen ${seen}, without perspective: one panel per view, labelled with the side it is seen from (the front is the +z side, the right side the +x side).`,
    sheet,
    `Goal: build with bricks on the baseplate so that, seen ${seen} without perspective, the bricks cover exactly the target: every square of the view one stud wide and one brick tall inside the target is covered by some brick, and none outside it. Bricks one behind another look the same in a view; only what the views show counts. Then commit. The structure must also stand.`,
    `${MAT_FRAME_TEXT} The baseplate's stud grid is lined up with the mat.`,
    `Bricks: 'brick-WxL' is a brick W studs wide and L studs long, ${mm(BRICK_H)} tall; it covers W×L stud cells of ${mm(PITCH)}.`,
    `Supply (a removed brick goes back into it): ${s.supply.map((x) => `${x.count} × ${x.type}`).join(', ')}.`,
    `Studs: a brick connects through its studs to every brick or baseplate directly under it where their footprints overlap; bricks side by side in one layer do not connect. Each stud holds at most ${BRICK_DEFAULTS.gripPerStud} N of pull; a brick may reach out past what is under it as long as the studs hold it.`,
    'Tools: place(brick_type, x_m, z_m, yaw_deg) lowers a brick from above (see its description); remove(brick) lifts a placed brick off again (only if nothing is on top of it); commit() compares the views and ends the episode. The place result names each brick (b1, b2, …).',
    `Budget: ${actions} actions in all — every place, remove and commit counts, refused ones too; camera moves are free.`,
    'Violations: a placement that is off the stud grid (see place), would hit something on the way down, lands on nothing with studs, or leaves the structure unable to hold its own weight is stopped and rolled back, and the rest of that turn is not run. The same holds for a removal that would leave something unsupported.',
    "The episode ends at commit: it succeeds if the bricks' views equal the targets in every view and the structure stands.",
  ].join('\n');
}

/** The first view: the whole mat from the front, looking down at 45°. */
function cameraOf(s: B5Scene): Instance['camera'] {
  return {
    initial: { azimuth: 0, elevation: 45, distance: 0.45, target: [r4(s.mat[0] / 2), 0, r4(s.mat[1] / 2 + 0.01)] },
    elevationRange: [-10, 90],
  };
}

function instanceOf(family: FamilyDescriptor, s: B5Scene, seed: number, tier: Tier, lever?: string): Instance<B5Scene> {
  const actions = actionBudget(s.leastBricks);
  return makeInstance<B5Scene>(family, tier, seed, {
    ...(lever ? { lever } : {}),
    title: 'Walls that match their views',
    rules: rulesText(s, actions),
    tools: [studPlaceTool(s.supply.map((x) => x.type), s.mat, SNAP_TOLERANCE, YAW_TOLERANCE_DEG), studRemoveTool('on top of it'), COMMIT_TOOL],
    budgets: { turns: TURNS, actionsPerTurn: 5, actions },
    camera: cameraOf(s),
    // The back ruler is left out: the walls stand in front of its labels in the first view.
    rulers: matRulers(s.mat).slice(1),
    ground: { y: 0, color: '#b9b2a5' },
    dynamic: false,
    scoring: 'graded',
    scene: s,
    reveal: { plan: planText(s) },
  });
}

/** Two-wide bricks added as distractors: a wall one stud thick has no room for them. */
const DECOY_TYPES = ['brick-2x2', 'brick-2x4'];

function sortSupply(supply: SupplyItem[]): SupplyItem[] {
  return supply.sort((a, b) => {
    const ta = brickType(a.type);
    const tb = brickType(b.type);
    return ta.width - tb.width || ta.length - tb.length;
  });
}

/** Draws a scene (before the filters). */
export function drawScene(tier: Tier, rng: Rng, cfg: TierSettings = TIER_SETTINGS[tier]): B5Scene {
  const plate = PLATE_STUDS;
  let cells = drawWalls(rng, cfg, plate);
  for (let i = 0; !cells && i < 20; i++) cells = drawWalls(rng, cfg, plate);
  const views = cfg.views.slice();
  const targets = targetsOf(cells ?? [], views);
  const half = plateHalf(plate);
  const mat = MAT;
  const siteX = r4(rng.range(SITE_MARGIN + half, mat[0] - SITE_MARGIN - half));
  const siteZ = r4(rng.range(SITE_MARGIN_BACK + half, mat[1] - SITE_MARGIN - half));
  const scene: B5Scene = { plate, siteX, siteZ, mat: [mat[0], mat[1]], views, drawing: cfg.drawing, cells: cells ?? [], targets, supply: [], decoys: [], leastBricks: 0 };
  if (!cells) return scene;
  // The views must fix the cells where the tier asks (cheap; checked before the search).
  if (cfg.uniqueCells && !cellsDetermined(plate, targets, views)) return scene;
  // The least build with any number of each type the tier offers.
  const open = leastBrickBuilds(plate, targets, views, cfg.types.map((type) => ({ type, count: 99 })), { accept: (b) => buildStands(plate, b) });
  if (!open.build) return scene;
  const used = buildSupply(open.build);
  const supply: SupplyItem[] = cfg.tightSupply ? used : cfg.types.map((type) => ({ type, count: (used.find((u) => u.type === type)?.count ?? 0) + rng.int(1, 2) }));
  const decoys = rng.shuffle(DECOY_TYPES).slice(0, cfg.decoys).sort();
  for (const type of decoys) supply.push({ type, count: rng.int(1, 2) });
  scene.supply = sortSupply(supply);
  scene.decoys = decoys;
  scene.leastBricks = searchScene(scene).least ?? 0;
  return scene;
}

/** The instance of (seed, tier), or of L5 with one lever: scenes drawn until every shortcut filter passes. */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<B5Scene> {
  const cfg = tierSettings('B5', TIER_SETTINGS, tier, lever, B5_LEVERS);
  // A lever study draws from its tier's (L5's) stream.
  return generateFiltered((attempt) => instanceOf(family, drawScene(tier, redrawRng('B5', tier, seed, attempt), cfg), seed, tier, lever), SHORTCUT_FILTERS);
}
