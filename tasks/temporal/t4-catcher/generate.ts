/**
 * T4 generator: a pure function of (family, tier, seed). The table's and shelf's heights, the
 * barrel's angle, where the ball lands and (L7) how far the launcher fires off its drawn barrel
 * are drawn continuously; the launch speed follows from the landing point by the drag-free
 * formula. A draw that fails a filter (`filters.ts`) is drawn again with the next attempt's
 * stream. The text is the same for every seed of a tier: no height, angle, speed or distance.
 */
import { roundTo } from '../../../core/determinism.ts';
import type { RulerSpec } from '../../../sim/types.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { makeInstance } from '../../instance.ts';
import { tierSettings } from '../../levers.ts';
import { fitTrackCamera } from '../../kits/track-framing.ts';
import type { FamilyDescriptor, Instance, Tier, ToolSpec } from '../../types.ts';
import { framePoints, HEIGHT_STRIP_X } from './episode.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import { ACTION_BUDGET, apexHeight, PLACE_RANGE, SHELF_END, STOP_THICKNESS, STRIP_Z, TABLE_HALF_DEPTH, TIERS, T4_LEVERS, WAIT_RANGE, speedForLanding, type T4Scene } from './scene.ts';

/** Camera elevation of the first view, degrees: low, so that heights read nearly at full size. */
const ELEVATION_DEG = 16;
/**
 * Heights the first view's frames may take, pixels (each 1280 wide). The track kit's default
 * stops at 352, made for T1's and T2's long, low tracks; a T4 scene (2.1 m of table and shelf
 * under a flight whose top is up to 0.75 m above the floor) is taller, so version 1's camera
 * backed off to fit the flight's top into 352 pixels and left a third of the width empty. The
 * ruler strip, lying flat on the shelf and seen from 16° up, shrank with it below its pixel
 * floor on the tallest flights (T4-L5-s31: 4,496 pixels of the 4,584 asked). Up to 480 pixels,
 * the camera is fitted to the scene's width on most seeds and backs off much less on the rest.
 */
const FRAME_HEIGHTS: [number, number] = [240, 480];
/** Where the catcher is parked before the first placement, m from the table's edge. */
const CATCHER_PARK = 1.62;

const TOOLS: ToolSpec[] = [
  {
    name: 'place_catcher',
    kind: 'physical',
    description: `Put the ball back into the launcher's cradle, then slide the catcher along the shelf until its centre is distance_m (${PLACE_RANGE[0]}–${PLACE_RANGE[1]} m) from the table's edge, as the shelf's ruler reads. Takes no world time.`,
    parameters: { type: 'object', properties: { distance_m: { type: 'number', minimum: PLACE_RANGE[0], maximum: PLACE_RANGE[1] } }, required: ['distance_m'], additionalProperties: false },
  },
  {
    name: 'fire',
    kind: 'timed',
    description: "Put the ball back into the launcher's cradle if it is elsewhere and fire it; the launcher fires the same way every time. Takes no world time: the ball flies during the following waits.",
    parameters: { type: 'object', properties: {}, additionalProperties: false },
  },
  {
    name: 'wait',
    kind: 'timed',
    description: `Let world time run for seconds (${WAIT_RANGE[0]}–${WAIT_RANGE[1]}).`,
    parameters: { type: 'object', properties: { seconds: { type: 'number', minimum: WAIT_RANGE[0], maximum: WAIT_RANGE[1] } }, required: ['seconds'], additionalProperties: false },
  },
];

function rulesText(tier: Tier): string {
  const t = TIERS[tier];
  const level = t.angle[1] === 0;
  const shelf = t.shelf[1] > t.shelf[0];
  return [
    `A dark launcher at the edge of a brown table holds a red ball in its cradle; it fires the ball ${level ? 'level, straight off the table' : 'upward at an angle, off the table'}, always at the same speed and the same way. Beyond the table runs a ${shelf ? 'raised ' : 'low '}grey shelf with an orange catcher (an open box a little wider than the ball) on it and a stop at its far end. The launcher fired once as the episode began: the first picture shows that shot. How fast the ball leaves you must find out by watching it fly; nothing says it leaves exactly along the barrel.`,
    'Goal: the ball comes to rest inside the catcher. The episode ends as soon as it does.',
    `Time: the world moves only while wait(seconds) runs (${WAIT_RANGE[0]}–${WAIT_RANGE[1]} s). fire() and place_catcher(distance_m) first put the ball back into the cradle, take no world time, and the ball flies during the following waits. Thinking and looking around take no world time.`,
    'Each picture is a strip of five frames of the same view taken 0.25 s of world time apart, stacked with the oldest at the top; the bottom frame always shows the world now. A ruler with 1 cm ticks and 10 cm labels runs along the white strip at the shelf\'s front edge and reads 0 at the table\'s edge; another on the white strip on the table\'s front face reads heights above the shelf\'s top.',
    `Budget: ${ACTION_BUDGET} actions in all — every placement, firing and wait counts, refused ones too; camera moves are free.`,
  ].join('\n');
}

/** One draw of the generator; `attempt` picks a fresh seeded stream (see solvers/redraw.ts). */
function draw(family: FamilyDescriptor, seed: number, tier: Tier, lever: string | undefined, attempt: number): Instance<T4Scene> {
  const t = tierSettings('T4', TIERS, tier, lever, T4_LEVERS);
  const rng = redrawRng('T4', tier, seed, attempt);
  const tableHeight = roundTo(rng.range(t.table[0], t.table[1]), 4);
  const shelfHeight = roundTo(t.shelf[1] > t.shelf[0] ? rng.range(t.shelf[0], t.shelf[1]) : t.shelf[0], 4);
  const barrelDeg = t.angle[1] > 0 ? roundTo(rng.range(t.angle[0], t.angle[1]), 3) : 0;
  const launchDeg = t.misaim ? roundTo(barrelDeg + (rng.next() < 0.5 ? -1 : 1) * rng.range(t.misaim[0], t.misaim[1]), 3) : barrelDeg;
  const landing = rng.range(t.landing[0], t.landing[1]);
  const partial: T4Scene = { tableHeight, shelfHeight, barrelDeg, launchDeg, speed: 1, catcherStart: CATCHER_PARK };
  const scene: T4Scene = { ...partial, speed: roundTo(speedForLanding(partial, landing), 4) };
  const stripZ = roundTo((STRIP_Z[0] + STRIP_Z[1]) / 2 - 0.006, 4);
  const rulerX = roundTo(HEIGHT_STRIP_X[0] + 0.012, 4);
  const rulers: RulerSpec[] = [
    { from: [0, roundTo(shelfHeight + 0.0008, 4), stripZ], to: [SHELF_END + STOP_THICKNESS / 2, roundTo(shelfHeight + 0.0008, 4), stripZ], tickDir: [0, 0, 1], minor: 0.01, major: 0.1 },
    { from: [rulerX, shelfHeight, TABLE_HALF_DEPTH + 0.0008], to: [rulerX, roundTo(tableHeight - 0.005, 4), TABLE_HALF_DEPTH + 0.0008], tickDir: [1, 0, 0], minor: 0.01, major: 0.1 },
  ];
  const view = fitTrackCamera(framePoints(scene, apexHeight(scene)), { elevation: ELEVATION_DEG, heights: FRAME_HEIGHTS });
  return makeInstance(family, tier, seed, {
    ...(lever ? { lever } : {}),
    title: 'Catcher',
    rules: rulesText(tier),
    tools: TOOLS,
    budgets: { turns: 40, actionsPerTurn: 5, actions: ACTION_BUDGET },
    camera: { initial: view.camera, elevationRange: [0, 90], frameSize: view.frame, strobeLayout: 'column' },
    rulers,
    ground: { y: 0 },
    dynamic: true,
    scoring: 'graded',
    scene,
    reveal: {
      plan: 'Watch the first shot in the strobe frames (fire again and wait a different time for another look if needed): its horizontal speed is the distance it covers in 0.25 s, its vertical speed follows from how high it is; read the launch height above the shelf off the table\'s ruler, solve y₀ + v_y t − g t²/2 = rim height for t, and place the catcher where x = v_x t, then fire and wait.',
    },
  });
}

/** The instance of (seed, tier): drawn until every shortcut filter passes. */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<T4Scene> {
  return generateFiltered((attempt) => draw(family, seed, tier, lever, attempt), SHORTCUT_FILTERS);
}
