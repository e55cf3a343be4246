/**
 * T3 generator: a pure function of (family, tier, seed). The pendulum's length and amplitude,
 * the phase it starts from, the drop line and height and (L7) the rod's density are drawn
 * continuously; a draw that fails a filter (`filters.ts`) is drawn again with the next attempt's
 * stream. The text is the same for every seed (and every tier): no length, angle, period or
 * time; the rulers and the strobe frames show them.
 */
import { roundTo } from '../../../core/determinism.ts';
import type { RulerSpec, Vec3 } from '../../../sim/types.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { makeInstance } from '../../instance.ts';
import { tierSettings } from '../../levers.ts';
import { fitTrackCamera } from '../../kits/track-framing.ts';
import type { FamilyDescriptor, Instance, Tier, ToolSpec } from '../../types.ts';
import { beamTopY, drumLowestY, postFrontZ, postHalfWidth, postX, STRIP_BELOW, STRIP_FRONT_Z, STRIP_HEIGHT } from './episode.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import { ACTION_BUDGET, heldBallCentre, pivotY, TIERS, T3_LEVERS, WAIT_RANGE, type T3Scene } from './scene.ts';

/** The first camera's elevation, degrees: low, so heights read true against the post's ruler, high enough to see the strip's ruler. */
const ELEVATION = 10;
/** Width of each strobe frame, pixels, and the heights allowed. */
const FRAME_WIDTH = 1024;
const FRAME_HEIGHTS: [number, number] = [480, 800];
/**
 * How the renderer sizes the labels of a ruler with 10 cm majors (render/page/rulers.ts), for the
 * room the right post's labels need: each hangs from a point 3.3 cm out from the ruler's line (its
 * band, 0.3 of a major, and a margin of 0.03 of one); it is 2 cm tall in the world (0.2 of a major)
 * unless the camera is far out, where the renderer keeps it at 2.4 % of the frame's height, at
 * most 2.2 cm here (T3's frames show at most 0.9 m of height); and "70 cm", the widest text the
 * post's ruler carries, is 2.83 times as wide as tall (2.9 with a little slack).
 */
const LABEL_OFFSET = 0.033;
const LABEL_HEIGHT_MAX = 0.022;
const LABEL_ASPECT_MAX = 2.9;
/**
 * Room the frame keeps right of the right post for its ruler's labels, m from the post's right
 * face (the ruler's line runs up the post's middle), with 5 mm to spare. Version 1 kept 5 cm,
 * less than the 7.5 cm a 2 cm label reaches past the face: the frame's 2.5 % margin made up the
 * rest only while the camera stood far out, so on small swings, framed close, every label but
 * "0" fell across the frame's edge and was left out.
 */
const LABEL_ROOM = LABEL_OFFSET + LABEL_ASPECT_MAX * LABEL_HEIGHT_MAX - postHalfWidth() + 0.005;

const TOOLS: ToolSpec[] = [
  {
    name: 'release',
    kind: 'timed',
    description: 'Open the clamp: the ball falls straight down. Works once. Takes no world time: the ball falls during the following wait.',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
  },
  {
    name: 'wait',
    kind: 'timed',
    description: `Let world time run for seconds (${WAIT_RANGE[0]}–${WAIT_RANGE[1]}, rounded to the world's 1/240 s step); the pendulum swings and a released ball falls meanwhile.`,
    parameters: { type: 'object', properties: { seconds: { type: 'number', minimum: WAIT_RANGE[0], maximum: WAIT_RANGE[1] } }, required: ['seconds'], additionalProperties: false },
  },
];

const RULES = [
  'A pendulum — a red drum on a thin dark rod — swings from a pivot under the beam of a grey gantry, in the plane facing the first camera. Above the drum\'s path a blue steel ball hangs in a clamp; released, it falls straight down just in front of the rod, over the front half of the drum. Nothing says the pendulum is built the way it looks: time its swing in the strobe frames.',
  'Goal: the falling ball strikes the drum. The episode ends as soon as it does, and fails for good once the ball has fallen past the drum without touching it.',
  `Time: the world moves only while wait(seconds) runs (${WAIT_RANGE[0]}–${WAIT_RANGE[1]} s, rounded to the world's 1/240 s step). release() opens the clamp, once; it takes no world time, so the ball falls during the following waits. Thinking and looking around take no world time. Gravity is 9.81 m/s².`,
  'Each picture is a strip of five frames of the same view taken 0.25 s of world time apart, stacked with the oldest at the top; the bottom frame always shows the world now, and each frame\'s label gives its age and world time. Two rulers have 1 cm ticks and 10 cm labels: one along the white board under the swing, reading from its left end; one up the right-hand post, reading 0 at the height of the pivot and counting down.',
  `Budget: ${ACTION_BUDGET} actions in all — every wait and every release counts, refused ones too; camera moves are free.`,
].join('\n');

/** One draw of the generator; `attempt` picks a fresh seeded stream (see solvers/redraw.ts). */
function draw(family: FamilyDescriptor, seed: number, tier: Tier, lever: string | undefined, attempt: number): Instance<T3Scene> {
  const t = tierSettings('T3', TIERS, tier, lever, T3_LEVERS);
  // A lever study draws from its tier's (L5's) stream: the seed's L5 swing, with the lever on.
  const rng = redrawRng('T3', tier, seed, attempt);
  const length = roundTo(rng.range(t.length[0], t.length[1]), 4);
  const amplitudeDeg = roundTo(rng.range(t.amplitudeDeg[0], t.amplitudeDeg[1]), 3);
  const phase = roundTo(rng.next(), 5);
  const share = t.dropShare[1] > 0 ? (rng.next() < 0.5 ? -1 : 1) * rng.range(t.dropShare[0], t.dropShare[1]) : 0;
  const dropX = roundTo(share * length * Math.sin((amplitudeDeg * Math.PI) / 180), 4);
  const dropGap = roundTo(rng.range(t.dropGap[0], t.dropGap[1]), 4);
  const rodDensity = roundTo(rng.range(t.rodDensity[0], t.rodDensity[1]), 1);
  const scene: T3Scene = { length, amplitudeDeg, phase, bobRadius: t.bobRadius, ballRadius: t.ballRadius, dropX, dropGap, rodDensity };
  const px = roundTo(postX(scene), 5);
  const stripTop = drumLowestY(scene) - STRIP_BELOW;
  const rulerY = roundTo(stripTop - 0.003, 5);
  const stripZ = roundTo(STRIP_FRONT_Z + 0.0005, 5);
  const strip = px - postHalfWidth();
  const py = roundTo(pivotY(scene), 5);
  const rulers: RulerSpec[] = [
    { from: [roundTo(-strip, 5), rulerY, stripZ], to: [roundTo(strip, 5), rulerY, stripZ], tickDir: [0, -1, 0], minor: 0.01, major: 0.1 },
    { from: [px, py, roundTo(postFrontZ() + 0.0005, 5)], to: [px, 0.005, roundTo(postFrontZ() + 0.0005, 5)], tickDir: [1, 0, 0], minor: 0.01, major: 0.1 },
  ];
  const top = beamTopY(scene) + 0.005;
  const corners: Vec3[] = [
    [-px - postHalfWidth(), top, 0.06],
    [px + postHalfWidth() + LABEL_ROOM, top, 0.06],
    [-px - postHalfWidth(), stripTop - STRIP_HEIGHT - 0.01, STRIP_FRONT_Z],
    [px + postHalfWidth() + LABEL_ROOM, stripTop - STRIP_HEIGHT - 0.01, STRIP_FRONT_Z],
    [px + postHalfWidth() + LABEL_ROOM, 0, postFrontZ()],
    heldBallCentre(scene),
  ];
  const view = fitTrackCamera(corners, { elevation: ELEVATION, width: FRAME_WIDTH, heights: FRAME_HEIGHTS });
  return makeInstance(family, tier, seed, {
    ...(lever ? { lever } : {}),
    title: 'Pendulum strike',
    rules: RULES,
    tools: TOOLS,
    budgets: { turns: 40, actionsPerTurn: 5, actions: ACTION_BUDGET },
    camera: { initial: view.camera, elevationRange: [0, 90], frameSize: view.frame, strobeLayout: 'column' },
    rulers,
    ground: { y: 0 },
    dynamic: true,
    scoring: 'graded',
    scene,
    reveal: {
      plan: 'Read the pendulum\'s length off the post\'s ruler and its swing off the strip\'s, and time the swing in the strobe frames (check the period against the frames: the rod may be heavier than it looks). Work out when the drum will next pass under the ball, subtract the ball\'s fall time √(2h/g) for the gap h between the ball and the drum\'s top, wait until then and release.',
    },
  });
}

/** The instance of (seed, tier): drawn until every shortcut filter passes. */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<T3Scene> {
  return generateFiltered((attempt) => draw(family, seed, tier, lever, attempt), SHORTCUT_FILTERS);
}
