/**
 * T5 generator: a pure function of (family, tier, seed). The lever's length, the crate's size,
 * the band's height and (L7) how much heavier than it looks the crate is are drawn continuously;
 * a draw that fails a filter (`filters.ts`) is drawn again with the next attempt's stream. The
 * text is the same for every seed of a tier: no length, size, height or mass that varies.
 */
import { roundTo } from '../../../core/determinism.ts';
import type { RulerSpec } from '../../../sim/types.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { makeInstance } from '../../instance.ts';
import { tierSettings } from '../../levers.ts';
import { fitTrackCamera } from '../../kits/track-framing.ts';
import type { FamilyDescriptor, Instance, Tier, ToolSpec } from '../../types.ts';
import { BOARD_HEIGHT, BOARD_Z, framePoints, MARKER_FRONT_Z, MARKER_TOP, MARKER_X } from './episode.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import {
  ACTION_BUDGET,
  BEAM_DENSITY,
  BEAM_T,
  BEAM_W,
  CRATE_DENSITY,
  CW_SIDE,
  reachableCrateY,
  HANG,
  PLACE_RANGE,
  T5_LEVERS,
  TIERS,
  WAIT_RANGE,
  type T5Scene,
  type TierSettings,
} from './scene.ts';

/** Camera elevation of the first view, degrees: low, so that heights read across to the marker's ruler. */
const ELEVATION_DEG = 8;
/** Width of each strobe frame, pixels, and the heights allowed. */
const FRAME_WIDTH = 1024;
const FRAME_HEIGHTS: [number, number] = [560, 800];

const TOOLS: ToolSpec[] = [
  {
    name: 'set_fulcrum',
    kind: 'physical',
    description: `Latch the lever level (if it is free), then slide the fulcrum along the floor, the lever hanging on it, until its pin is distance_m (${PLACE_RANGE[0]}–${PLACE_RANGE[1]} m) from the lever's load end, as the board's ruler reads. Takes no world time.`,
    parameters: { type: 'object', properties: { distance_m: { type: 'number', minimum: PLACE_RANGE[0], maximum: PLACE_RANGE[1] } }, required: ['distance_m'], additionalProperties: false },
  },
  {
    name: 'set_counterweight',
    kind: 'physical',
    description: `Latch the lever level (if it is free), then slide the counterweight along the lever's top until its centre is distance_m (${PLACE_RANGE[0]}–${PLACE_RANGE[1]} m) from the lever's load end, as the board's ruler reads, and clamp it there. Takes no world time.`,
    parameters: { type: 'object', properties: { distance_m: { type: 'number', minimum: PLACE_RANGE[0], maximum: PLACE_RANGE[1] } }, required: ['distance_m'], additionalProperties: false },
  },
  {
    name: 'release',
    kind: 'timed',
    description: 'Open the latch: the lever turns freely on the fulcrum\'s pin. Takes no world time: it turns during the following waits.',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
  },
  {
    name: 'wait',
    kind: 'timed',
    description: `Let world time run for seconds (${WAIT_RANGE[0]}–${WAIT_RANGE[1]}).`,
    parameters: { type: 'object', properties: { seconds: { type: 'number', minimum: WAIT_RANGE[0], maximum: WAIT_RANGE[1] } }, required: ['seconds'], additionalProperties: false },
  },
];

function rulesText(t: TierSettings): string {
  const heavy = t.crateFactor[1] > 1;
  return [
    `A wooden lever (${BEAM_DENSITY} kg/m³, ${Math.round(BEAM_T * 100)} cm thick, ${Math.round(BEAM_W * 100)} cm deep) hangs from the pin of a dark fulcrum on an aluminium hanger behind it, its centre line ${Math.round(HANG * 100)} cm below the pin, like a balance beam: released, it swings on a damped hinge and comes to rest where the moments of its parts about the pin balance, or against one of its two stops. An orange crate is bolted on its load end (the left); a steel counterweight (a cube of 2 kg) is clamped on its top. ${heavy ? 'The crate is said to be packed with sand (' + CRATE_DENSITY + ' kg/m³), but nothing says what is really inside it.' : 'The crate is packed solid with sand (' + CRATE_DENSITY + ' kg/m³).'}`,
    "Goal: the crate's centre comes to rest level with the green band on the white marker post left of the lever, the lever free on its pin. The episode ends as soon as it has rested there for half a second.",
    `Tools: set_fulcrum(distance_m) slides the fulcrum under the lever; set_counterweight(distance_m) moves the counterweight along the lever's top; both first latch the lever level and take no world time. release() opens the latch; the lever turns only while wait(seconds) runs (${WAIT_RANGE[0]}–${WAIT_RANGE[1]} s). Thinking and looking around take no world time.`,
    "Each picture is a strip of five frames of the same view taken 0.25 s of world time apart, stacked with the oldest at the top; the bottom frame always shows the world now. A ruler with 1 cm ticks and 10 cm labels runs along the white board under the lever and reads 0 at the lever's load end while the lever is level; another up the marker post reads heights above the floor.",
    `Budget: ${ACTION_BUDGET} actions in all — every placement, release and wait counts, refused ones too; camera moves are free.`,
  ].join('\n');
}

/** One draw of the generator; `attempt` picks a fresh seeded stream (see solvers/redraw.ts). */
function draw(family: FamilyDescriptor, seed: number, tier: Tier, lever: string | undefined, attempt: number): Instance<T5Scene> {
  const t = tierSettings('T5', TIERS, tier, lever, T5_LEVERS);
  // A lever study draws from its tier's stream (L5's).
  const rng = redrawRng('T5', tier, seed, attempt);
  const leverLength = roundTo(rng.range(t.leverLength[0], t.leverLength[1]), 4);
  const crateSide = roundTo(rng.range(t.crateSide[0], t.crateSide[1]), 4);
  const factor = t.crateFactor[1] > t.crateFactor[0] ? rng.range(t.crateFactor[0], t.crateFactor[1]) : t.crateFactor[0];
  const crateDensity = roundTo(CRATE_DENSITY * factor, 1);
  const partial = { leverLength, crateSide, crateDensity, bandLow: 0, bandHigh: 0, fulcrumStart: 0, counterweightStart: 0 };
  // The band's middle anywhere the lever can rest the crate (with the real crate), a margin inside.
  const reach = reachableCrateY(partial);
  const mid = rng.range(reach[0] + t.reachMargin + t.bandHeight / 2, reach[1] - t.reachMargin - t.bandHeight / 2);
  const scene: T5Scene = {
    ...partial,
    bandLow: roundTo(mid - t.bandHeight / 2, 4),
    bandHigh: roundTo(mid + t.bandHeight / 2, 4),
    fulcrumStart: roundTo(leverLength / 2, 4),
    counterweightStart: roundTo(leverLength - CW_SIDE / 2 - 0.01, 4),
  };
  const ruleY = BOARD_HEIGHT - 0.012;
  const rulers: RulerSpec[] = [
    { from: [0, ruleY, BOARD_Z + 0.0008], to: [roundTo(leverLength, 4), ruleY, BOARD_Z + 0.0008], tickDir: [0, -1, 0], minor: 0.01, major: 0.1 },
    { from: [roundTo(MARKER_X + 0.012, 4), 0, MARKER_FRONT_Z + 0.0012], to: [roundTo(MARKER_X + 0.012, 4), MARKER_TOP - 0.01, MARKER_FRONT_Z + 0.0012], tickDir: [-1, 0, 0], minor: 0.01, major: 0.1 },
  ];
  const view = fitTrackCamera(framePoints(scene), { elevation: ELEVATION_DEG, width: FRAME_WIDTH, heights: FRAME_HEIGHTS });
  return makeInstance(family, tier, seed, {
    ...(lever ? { lever } : {}),
    title: 'Lever synthesis',
    rules: rulesText(t),
    tools: TOOLS,
    budgets: { turns: 40, actionsPerTurn: 5, actions: ACTION_BUDGET },
    camera: { initial: view.camera, elevationRange: [0, 90], frameSize: view.frame, strobeLayout: 'column' },
    rulers,
    ground: { y: 0 },
    dynamic: true,
    scoring: 'graded',
    scene,
    reveal: {
      plan: 'Read the lever\'s length, the crate\'s side and the band\'s height off the rulers; with the stated densities, write the moment balance about the pin, tan θ = Σ m u / Σ m v (u along the lever from the pin, v up from it), for the angle that puts the crate\'s centre in the band; choose a fulcrum and solve it for the counterweight\'s place, then release and wait for the lever to settle. At L7 release once to see where the crate really rests, infer its mass from the angle, and correct.',
    },
  });
}

/** The instance of (seed, tier, lever): drawn until every shortcut filter passes. */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<T5Scene> {
  return generateFiltered((attempt) => draw(family, seed, tier, lever, attempt), SHORTCUT_FILTERS);
}
