/**
 * T2 generator: a pure function of (family, tier, seed). Tilt, friction, the band's distance and
 * (L7) the patch are drawn continuously; a draw that fails a filter (`filters.ts`) is drawn again
 * with the next attempt's stream. The text is the same for every seed of a tier: no tilt,
 * friction, distance or width; the ruler and the strobe frames show them.
 */
import { roundTo } from '../../../core/determinism.ts';
import type { RulerSpec, Vec3 } from '../../../sim/types.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { makeInstance } from '../../instance.ts';
import { tierSettings } from '../../levers.ts';
import { fitTrackCamera } from '../../kits/track-framing.ts';
import type { FamilyDescriptor, Instance, Tier, ToolSpec } from '../../types.ts';
import { floorY } from './episode.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import { ACTION_BUDGET, BUMPER_HEIGHT, BUMPER_THICKNESS, ICE_BACK, ICE_HALF_WIDTH, PUCK_RADIUS, SPEED_RANGE, STRIP_Z, surfacePoint, TIERS, T2_LEVERS, WAIT_RANGE, type T2Scene } from './scene.ts';

/** Room under the ruler strip's front edge for its labels, m. */
const LABEL_ROOM = 0.035;

const TOOLS: ToolSpec[] = [
  {
    name: 'launch',
    kind: 'timed',
    description: `Pick the puck up wherever it is, set it on the pad and push it along the ice at speed_mps (${SPEED_RANGE[0]}–${SPEED_RANGE[1]} m/s). Takes no world time: it slides during the following wait.`,
    parameters: { type: 'object', properties: { speed_mps: { type: 'number', minimum: SPEED_RANGE[0], maximum: SPEED_RANGE[1] } }, required: ['speed_mps'], additionalProperties: false },
  },
  {
    name: 'wait',
    kind: 'timed',
    description: `Let world time run for seconds (${WAIT_RANGE[0]}–${WAIT_RANGE[1]}); the puck slides meanwhile.`,
    parameters: { type: 'object', properties: { seconds: { type: 'number', minimum: WAIT_RANGE[0], maximum: WAIT_RANGE[1] } }, required: ['seconds'], additionalProperties: false },
  },
];

function rulesText(tier: Tier): string {
  const tilted = TIERS[tier].tilt[1] > 0;
  return [
    `A red puck sits on a grey launch pad at the near end of a long sheet of ice; further along lies a green band, and a bumper closes the far end. ${tilted ? 'The ice may run slightly uphill or downhill from the pad.' : 'The ice is level.'} How slippery it is you must find out by watching the puck; nothing says the ice is the same everywhere.`,
    'Goal: the puck comes to rest with its centre inside the green band. The episode ends as soon as it does.',
    `Time: the world moves only while wait(seconds) runs (${WAIT_RANGE[0]}–${WAIT_RANGE[1]} s). launch(speed_mps) puts the puck back on the pad and pushes it along the ice; it takes no world time, so the puck slides during the following waits. Thinking and looking around take no world time.`,
    'Each picture is a strip of five frames of the same view taken 0.25 s of world time apart, stacked with the oldest at the top; the bottom frame always shows the world now. A ruler with 1 cm ticks and 10 cm labels runs along the white strip beside the ice; it reads 0 at the middle of the pad.',
    `Budget: ${ACTION_BUDGET} actions in all — every launch and every wait counts; camera moves are free.`,
  ].join('\n');
}

/** One draw of the generator; `attempt` picks a fresh seeded stream (see solvers/redraw.ts). */
function draw(family: FamilyDescriptor, seed: number, tier: Tier, lever: string | undefined, attempt: number): Instance<T2Scene> {
  const t = tierSettings('T2', TIERS, tier, lever, T2_LEVERS);
  const rng = redrawRng('T2', tier, seed, attempt);
  const tiltDeg = t.tilt[1] > 0 ? roundTo((rng.next() < 0.5 ? -1 : 1) * rng.range(t.tilt[0], t.tilt[1]), 3) : 0;
  const friction = roundTo(rng.range(t.friction[0], t.friction[1]), 4);
  const distance = rng.range(t.distance[0], t.distance[1]);
  const zone = { from: roundTo(distance - t.zoneWidth / 2, 4), to: roundTo(distance + t.zoneWidth / 2, 4) };
  const end = roundTo(zone.to + rng.range(0.25, 0.45), 4);
  let patch: T2Scene['patch'] = null;
  if (t.patch) {
    const factor = rng.pick(t.patch.factor);
    patch = { from: roundTo(distance * rng.range(t.patch.from[0], t.patch.from[1]), 4), friction: roundTo(friction * rng.range(factor[0], factor[1]), 4) };
  }
  const scene: T2Scene = { tiltDeg, friction, patch, zone, end };
  const far = end + BUMPER_THICKNESS;
  const rulerZ = roundTo((STRIP_Z[0] + STRIP_Z[1]) / 2 - 0.004, 4);
  const at = (x: number, z: number, lift = 0.0005): Vec3 => {
    const p = surfacePoint(scene, x, lift);
    return [roundTo(p[0], 5), roundTo(p[1], 5), z];
  };
  const rulers: RulerSpec[] = [{ from: at(0, rulerZ), to: at(end, rulerZ), tickDir: [0, 0, 1], minor: 0.01, major: 0.1 }];
  const corners: Vec3[] = [];
  for (const x of [ICE_BACK, far]) {
    const top = surfacePoint(scene, x, BUMPER_HEIGHT + 0.005);
    const low = surfacePoint(scene, x);
    corners.push([top[0], top[1], -ICE_HALF_WIDTH], [top[0], top[1], STRIP_Z[1]], [low[0], low[1] - LABEL_ROOM, STRIP_Z[1]]);
  }
  corners.push([surfacePoint(scene, 0)[0], surfacePoint(scene, 0, 2 * PUCK_RADIUS)[1], 0]);
  const view = fitTrackCamera(corners);
  return makeInstance(family, tier, seed, {
    ...(lever ? { lever } : {}),
    title: 'Ice slope',
    rules: rulesText(tier),
    tools: TOOLS,
    budgets: { turns: 40, actionsPerTurn: 5, actions: ACTION_BUDGET },
    camera: { initial: view.camera, elevationRange: [0, 90], frameSize: view.frame, strobeLayout: 'column' },
    rulers,
    ground: { y: roundTo(floorY(scene), 4) },
    dynamic: true,
    scoring: 'graded',
    scene,
    reveal: { plan: 'Launch gently once and watch where the puck stops (and how it slows in the strobe frames); the stopping distance grows with the square of the speed, so scale the speed by the square root of (band distance / stopping distance) — and check that the ice slows it the same way all along.' },
  });
}

/** The instance of (seed, tier): drawn until every shortcut filter passes. */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<T2Scene> {
  return generateFiltered((attempt) => draw(family, seed, tier, lever, attempt), SHORTCUT_FILTERS);
}
