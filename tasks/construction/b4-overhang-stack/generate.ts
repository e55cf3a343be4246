/**
 * B4 generator: a pure function of (family, tier, lever, seed). It draws the table's edge, the supply's
 * lengths (continuous, so no grid of possible worlds exists to enumerate) and the marker's
 * distance past the edge as a fraction of what the reference column reaches; a draw that fails
 * a shortcut filter (`filters.ts`) is drawn again with the next attempt's stream.
 *
 * Nothing metric that varies with the seed is in the text: the rules name the colours and count
 * the blocks; lengths, the edge and the marker are read off the ruler in the pictures.
 */
import { roundTo } from '../../../core/determinism.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { makeInstance } from '../../instance.ts';
import type { FamilyDescriptor, Instance, InstanceFilter, Tier } from '../../types.ts';
import { boxScreenArea, unseenPoints, type SightBox, type SightPoint } from '../../kits/sight-lines.ts';
import { farthestOfSupply, placeToolSpec, REMOVE_LAST_TOOL_SPEC, REMOVE_TOOL_SPEC, tableEdgeRules } from '../../kits/loose-blocks/stack-tools.ts';
import { BLOCK_DEPTH, BLOCK_HEIGHT, mixedSupplyLengths, namedSupply, supplyPose, TABLE_EDGE_GROUND, tableEdgeCamera, tableEdgeRulers } from '../../kits/loose-blocks/table-edge.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import { tierSettings } from '../../levers.ts';
import { actionBudget, B4_LEVERS, REFERENCE_MARGIN, RULE_MARGIN, TIERS, type B4Scene } from './scene.ts';
import { referenceArrangement } from './solver.ts';

/** Turns an episode may take. */
const TURNS = 30;

/** B4's goal at the column tiers, in the rules between the kit's sentences on the marker and on the ruler. */
const GOAL = 'Goal: stack blocks in one column on the table at its edge so that the far (right) end of a block reaches past the red post, as seen from above, and the stack stands. The episode ends as soon as it does.';
/** B4's goal at the counterweighted tier. */
const GOAL_ANY = 'Goal: build with blocks on the table at its edge — one on another, or side by side on one level — so that the far (right) end of a block reaches past the red post, as seen from above, and the blocks stand. The episode ends as soon as they do.';

/**
 * How far the straight first view looks down, degrees. The kit's camera looks down at 30°, where
 * each supply block hides the front half of the top of the block in the row behind it; at L5 the
 * short blocks of the six-row supply then showed as little as 788 pixels (B4-L5-s27's orange,
 * back row, behind the long purple). At 45° a block hides only a 5 mm strip of the one behind it,
 * and every top face is seen less foreshortened.
 */
export const STRAIGHT_VIEW_ELEVATION = 45;

/**
 * The first camera: the kit's (`tableEdgeCamera`: the whole table, the supply, the ruler and the
 * post in frame), looking down at {@link STRAIGHT_VIEW_ELEVATION} when it looks from straight
 * in front. A turned view (L7, `+rot`) keeps the kit's 30°: it backs off to fit the slanted
 * ruler, and its blocks are checked by sight lines where they might line up.
 */
export function firstCamera(scene: B4Scene, turn: number): Instance['camera'] {
  const camera = tableEdgeCamera(scene, turn);
  return turn ? camera : { ...camera, initial: { ...camera.initial, elevation: STRAIGHT_VIEW_ELEVATION } };
}

/** One draw of the generator; `attempt` picks a fresh seeded stream (see solvers/redraw.ts). */
function draw(family: FamilyDescriptor, seed: number, tier: Tier, lever: string | undefined, attempt: number): Instance<B4Scene> {
  const t = tierSettings('B4', TIERS, tier, lever, B4_LEVERS);
  const rng = redrawRng('B4', tier, seed, attempt);
  const long = rng.range(t.length[0], t.length[1]);
  const lengths: number[] = [];
  if (t.counterweight) lengths.push(long, long * rng.range(0.9, 1), long * rng.range(0.45, 0.65));
  else if (!t.mixed) for (let i = 0; i < t.supply; i++) lengths.push(long);
  else lengths.push(...mixedSupplyLengths(rng, long, t.supply));
  // The colours come in one fixed order, so the text is the same for every seed; which of them
  // is long is drawn (the lengths are shuffled over them).
  const order = rng.shuffle(lengths.map((_, i) => i));
  const blocks = namedSupply(order.map((i) => lengths[i]));
  const edgeX = roundTo(rng.range(0.27, 0.42), 4);
  const partial: B4Scene = { edgeX, markerX: 0, blocks, needed: t.needed };
  const best = t.counterweight ? tryReach(() => referenceArrangement(partial).reach) : farthestOfSupply(partial, t.needed, REFERENCE_MARGIN)?.reach;
  const overhang = best !== undefined ? best - edgeX : 0;
  const markerX = roundTo(edgeX + overhang * rng.range(t.reachFraction[0], t.reachFraction[1]), 4);
  const scene: B4Scene = { ...partial, markerX };
  const actions = actionBudget(tier);
  const turn = t.turnedView ? rng.pick([-1, 1]) * Math.round(rng.range(t.turnedView[0], t.turnedView[1])) : 0;
  return makeInstance<B4Scene>(family, tier, seed, {
    ...(lever ? { lever } : {}),
    title: 'Overhang stack',
    rules: tableEdgeRules(scene, { goal: t.counterweight ? GOAL_ANY : GOAL, margin: RULE_MARGIN, actions, sideBySide: t.counterweight }),
    tools: [placeToolSpec(scene, t.counterweight), t.counterweight ? REMOVE_LAST_TOOL_SPEC : REMOVE_TOOL_SPEC],
    budgets: { turns: TURNS, actionsPerTurn: 5, actions },
    camera: firstCamera(scene, turn),
    rulers: tableEdgeRulers(scene),
    ground: { ...TABLE_EDGE_GROUND },
    dynamic: false,
    scoring: 'graded',
    scene,
    reveal: {
      plan: t.counterweight
        ? 'No column of these blocks reaches the post. Lay one long block on the table reaching past the edge, the short block on its back end as a counterweight, then the other long block on its far end reaching farther: the counterweight holds the bottom block down while the top one hangs out.'
        : `Stack ${t.needed} blocks as a harmonic column: from the top down, each block's load sits just inside the far end of the block below, and the whole column's centre of mass just inside the table edge.`,
    },
  });
}

/** The value of `f`, or undefined when it throws (no arrangement stands: the filters redraw). */
function tryReach(f: () => number): number | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

/**
 * Sight-line pixels (at 768 × 768) a supply block must keep in the turned first view of a lever
 * study: the view rule asks 800 of the render, and the estimate below (the box's screen area
 * times the share of its top and front sample points no other block hides) strays either way
 * (746 estimated showed over 800; 524 showed 611, 810 showed 789), hence the margin.
 */
const STUDY_BLOCK_MIN_PIXELS = 900;

/**
 * Lever studies only (`B4-L5+rot-s100`): the turned first view looks along the L5 supply's six
 * rows, where a long block in front may hide most of a short one behind it (one study seed in
 * twenty); such a draw is drawn again. L7's three blocks never line up so; it keeps its own
 * filters and its instances.
 */
const STUDY_BLOCKS_IN_SIGHT: InstanceFilter<B4Scene> = {
  name: 'study-blocks-in-sight',
  check(instance) {
    const s = instance.scene;
    const camera = instance.camera.initial;
    const boxes: SightBox[] = s.blocks.map((b, k) => ({ center: supplyPose(s, k).p, half: [b.length / 2, BLOCK_HEIGHT / 2, BLOCK_DEPTH / 2] }));
    for (const [k, b] of boxes.entries()) {
      const points: SightPoint[] = [];
      for (const fx of [-0.8, -0.4, 0, 0.4, 0.8]) {
        for (const [fy, fz] of [[1, -0.8], [1, 0], [1, 0.8], [0, 1], [0.8, 1], [-0.8, 1]]) {
          points.push({ point: [b.center[0] + fx * b.half[0], b.center[1] + fy * b.half[1], b.center[2] + fz * b.half[2]], what: s.blocks[k].color, own: [k] });
        }
      }
      const shown = 1 - unseenPoints(camera, points, boxes).length / points.length;
      const pixels = boxScreenArea(camera, b) * 768 * 768 * shown;
      if (pixels < STUDY_BLOCK_MIN_PIXELS) return `the ${s.blocks[k].color} block shows about ${Math.round(pixels)} pixels in the first view`;
    }
    return null;
  },
};

/**
 * The instance of (seed, tier, lever): drawn until every shortcut filter passes. A lever study
 * (`B4-L5+rot-s100`) draws from the L5 stream with the lever on.
 */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<B4Scene> {
  return generateFiltered((attempt) => draw(family, seed, tier, lever, attempt), lever ? [...SHORTCUT_FILTERS, STUDY_BLOCKS_IN_SIGHT] : SHORTCUT_FILTERS);
}
