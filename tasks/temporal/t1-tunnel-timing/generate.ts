/**
 * T1 generator: the seeded draw of a track, ball, gates (and, by tier, decoy track and hidden
 * slope), re-drawn until the shortcut filters of `filters.ts` pass; and the tools, rules text
 * and plan an instance carries.
 */
import { roundTo } from '../../../core/determinism.ts';
import type { RulerSpec, Vec3 } from '../../../sim/types.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { makeInstance } from '../../instance.ts';
import type { FamilyDescriptor, Instance, InstanceFilter, Tier, ToolSpec } from '../../types.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import { fitTrackCamera } from '../../kits/track-framing.ts';
import { tierSettings } from '../../levers.ts';
import { analyticArrival, analyticWindow, BALL_RADIUS, DECOY_Z, fmt, G, GATE_GAP, GATE_HEIGHT, GATE_LIFT, GATE_MOVE_S, GATE_THICKNESS, PIT_LENGTH, PREROLL_S, RUNOUT, T1_LEVERS, TIER_PARAMS, WAIT_MAX_S, WAIT_MIN_S, type DecoySpec, type GateSpec, type T1Scene } from './scene.ts';
import { GROUND_Y, STRIP_Z } from './track.ts';

/** Height down to which the first view shows the ruler strip's front, room for the ruler's labels, metres. */
const LABEL_ROOM_Y = -0.035;
/** L7: the level run between the end of the hidden slope and the entrance gate's face, metres. */
const LEVEL_BEFORE_GATE = 0.1;

// ------------------------------------------------------------------ generation

function draw(family: FamilyDescriptor, seed: number, tier: Tier, lever: string | undefined, attempt: number): Instance<T1Scene> {
  const rng = redrawRng('T1', tier, seed, attempt);
  const P = tierSettings('T1', TIER_PARAMS, tier, lever, T1_LEVERS);
  // The arrival time is drawn uniformly and the start placed to match it, so that window
  // positions spread evenly over the whole range (a fixed firing time lies in few windows).
  const gateSpeed = rng.range(P.speed[0], P.speed[1]);
  const arrival = rng.range(P.arrival[0], P.arrival[1]);
  const tunnel = roundTo(rng.range(P.tunnel[0], P.tunnel[1]), 4);
  // The entrance gate's centre plane is x = 0; the ball's front reaches its face `arrival`
  // seconds after the first observation.
  const frontAtGate = -GATE_THICKNESS / 2 - BALL_RADIUS;
  let speed: number;
  let firstX: number;
  let kinkX: number | null = null;
  let slopeToX: number | null = null;
  let slopeDeg = 0;
  if (P.speedUp) {
    // Level for a few centimetres past where the first strobe leaves the ball, then gently
    // downhill, then level again shortly before the entrance gate: the ball meets both gates
    // at `gateSpeed`, `factor` times faster than it started.
    const factor = rng.range(P.speedUp[0], P.speedUp[1]);
    speed = roundTo(gateSpeed / factor, 3);
    const level = rng.range(0.03, 0.08);
    // Time on the slope: what is left of the arrival after the two level runs; uniform
    // acceleration covers the slope at the mean of the two speeds.
    const onSlope = arrival - level / speed - LEVEL_BEFORE_GATE / gateSpeed;
    const slopeLength = ((speed + gateSpeed) / 2) * onSlope;
    slopeToX = roundTo(frontAtGate - LEVEL_BEFORE_GATE, 4);
    kinkX = roundTo(slopeToX - slopeLength, 4);
    firstX = roundTo(kinkX - level, 4);
    // A rolling ball gains v² − v0² = (10/7)·g·h over a drop h.
    const drop = (gateSpeed ** 2 - speed ** 2) / ((10 / 7) * G);
    slopeDeg = roundTo((Math.atan(drop / (slopeToX - kinkX)) * 180) / Math.PI, 5);
  } else {
    speed = roundTo(gateSpeed, 3);
    firstX = roundTo(frontAtGate - speed * arrival, 4);
  }
  const startX = roundTo(firstX - speed * PREROLL_S, 4);
  const gates: GateSpec[] = [{ name: 'entrance', x: 0 }];
  if (P.gates === 2) gates.push({ name: 'exit', x: tunnel });
  const tunnelFromX = roundTo(GATE_THICKNESS / 2 + 0.003, 4);
  const tunnelToX = roundTo(P.gates === 2 ? tunnel - GATE_THICKNESS / 2 - 0.003 : tunnel, 4);
  const lastFace = P.gates === 2 ? tunnel + GATE_THICKNESS / 2 + 0.003 : tunnel;
  const toX = roundTo(lastFace + RUNOUT, 4);
  const fromX = roundTo(startX - BALL_RADIUS - 0.012 - 0.01, 4);
  let decoy: DecoySpec | null = null;
  if (P.decoy) {
    // Clearly slower than the red ball ever rolls, or clearly faster.
    const dSpeed = roundTo(rng.next() < 0.5 ? speed * rng.range(0.6, 0.78) : gateSpeed * rng.range(1.25, 1.45), 3);
    // The blue ball starts on the stretch the red one covers, so it does not lengthen the scene.
    const dLow = startX + dSpeed * PREROLL_S + 0.03;
    const dHigh = Math.max(dLow, firstX + 0.15);
    const dFirst = rng.range(dLow, dHigh);
    const dStart = roundTo(dFirst - dSpeed * PREROLL_S, 4);
    decoy = {
      startX: dStart,
      speed: dSpeed,
      fromX: roundTo(dStart - BALL_RADIUS - 0.012 - 0.01, 4),
      toX,
      tunnelFromX,
      tunnelToX: roundTo(lastFace, 4),
    };
  }
  const scene: T1Scene = { startX, speed, fromX, toX, kinkX, slopeToX, slopeDeg, gates, openS: P.openS, tunnelFromX, tunnelToX, decoy };
  const left = Math.min(fromX, decoy?.fromX ?? fromX);
  const right = toX + PIT_LENGTH + 0.012;
  const rulerZ = roundTo((STRIP_Z[0] + STRIP_Z[1]) / 2 - 0.004, 4);
  const rulers: RulerSpec[] = [{ from: [roundTo(fromX, 4), 0.0005, rulerZ], to: [roundTo(toX + PIT_LENGTH, 4), 0.0005, rulerZ], tickDir: [0, 0, 1] }];
  // Everything the rules mention, a raised gate included: the tracks from the back of the decoy
  // to the front of the ruler strip, with room under the ruler for its labels. The benches'
  // sides below that are left out of the frame (the rules never mention them).
  const back = (decoy ? DECOY_Z : 0) - 0.05;
  const top = GATE_GAP + GATE_HEIGHT + GATE_LIFT;
  const corners: Vec3[] = [];
  for (const x of [left, right]) corners.push([x, top, back], [x, top, STRIP_Z[1]], [x, LABEL_ROOM_Y, STRIP_Z[1]]);
  const view = fitTrackCamera(corners);
  return makeInstance(family, tier, seed, {
    ...(lever ? { lever } : {}),
    title: 'Tunnel timing',
    rules: rulesText(scene),
    budgets: { turns: 100, actionsPerTurn: 5, actions: actionBudget(scene) },
    tools: tools(scene),
    camera: {
      initial: view.camera,
      elevationRange: [0, 90],
      frameSize: view.frame,
      strobeLayout: 'column',
    },
    rulers,
    ground: { y: GROUND_Y },
    dynamic: true,
    scoring: 'graded',
    scene,
    reveal: { plan: planText(scene) },
  });
}

/**
 * Lever studies only (`T1-L5+change-s100`): no ball rolls at a speed that reads like one of the
 * gate's fixed timings the episode reports (fully open from +0.10 s, closing from +0.45 s,
 * closed at +0.55 s), which the text-leak check would take for the speed said back. With the
 * hidden slope's slower start a slow decoy can roll at 0.100 m/s (study seed 100 did); L5's
 * balls never do. L7 keeps its own filters and its instances.
 */
const STUDY_SPEEDS_UNLIKE_GATE_TIMES: InstanceFilter<T1Scene> = {
  name: 'study-speeds-unlike-gate-times',
  check(instance) {
    const s = instance.scene;
    const times = [GATE_MOVE_S, GATE_MOVE_S + s.openS, 2 * GATE_MOVE_S + s.openS].map((t) => Number(fmt(t)));
    const speeds = [s.speed, ...(s.decoy ? [s.decoy.speed] : [])];
    const alike = speeds.find((v) => times.some((t) => Math.abs(v - t) <= 0.005 * t + 1e-9));
    return alike === undefined ? null : `a ball rolls at ${alike} m/s, alike a gate time the episode reports`;
  },
};

/**
 * The instance of (seed, tier, lever): drawn until every shortcut filter passes. A lever study
 * (`T1-L5+change-s100`) draws from the L5 stream with the lever's settings.
 */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<T1Scene> {
  return generateFiltered((attempt) => draw(family, seed, tier, lever, attempt), lever ? [...SHORTCUT_FILTERS, STUDY_SPEEDS_UNLIKE_GATE_TIMES] : SHORTCUT_FILTERS);
}

// ------------------------------------------------------------------ text

function gateWords(s: T1Scene): string {
  return s.gates.length === 2 ? 'Both ends of the tunnel are closed by gates (yellow bars across the track): the entrance gate and the exit gate.' : 'The tunnel entrance is closed by a gate (a yellow bar across the track).';
}

/**
 * The episode's action budget, every wait included: four times the reference's calls (wait,
 * fire, wait per gate: 3 with one gate, 5 with two), so a player who watches the ball over a few
 * short waits before timing the gate has room, while stepping through time in small waits to
 * find the ball by trial is unaffordable (issue 36).
 */
export function actionBudget(s: Pick<T1Scene, 'gates'>): number {
  return s.gates.length === 2 ? 20 : 12;
}

function rulesText(s: T1Scene): string {
  const lines = [
    `A red ball rolls along a straight channel towards a tunnel and a green pit beyond it. ${gateWords(s)} Inside the tunnel the ball is hidden from view.`,
  ];
  if (s.decoy) lines.push('Behind it, a second track carries a blue ball into a tunnel of its own; the gates do not act on that track, and the blue ball does not matter.');
  lines.push(
    'Goal: get the red ball through the tunnel into the green pit without it ever touching a gate.',
    `Time: the world moves only while wait(seconds) runs (${WAIT_MIN_S}–${WAIT_MAX_S} s, rounded to 1/240 s). Thinking, looking around and firing a gate take no world time.`,
    `open_gate${s.gates.length === 2 ? '(gate)' : '()'} fires ${s.gates.length === 2 ? 'a' : 'the'} gate: it rises for ${fmt(GATE_MOVE_S)} s, stays fully open for ${fmt(s.openS)} s, then closes again over ${fmt(GATE_MOVE_S)} s; the motion happens during the following wait. ${s.gates.length === 2 ? 'Each gate can be fired only once.' : 'The gate can be fired only once.'}`,
    'If the ball touches a gate at any moment (it runs into a closed gate, or a closing gate comes down on it), that gate jams, the run has failed for good and the task can no longer be solved.',
    `Each picture is a strip of five frames of the same view taken 0.25 s of world time apart, stacked with the oldest at the top. The bottom frame always shows the world now, whatever you waited; each frame's label says how long ago it was taken and the world time it shows (e.g. "0.25 s ago · t = 1.35 s"). A ruler with 1 cm ticks and 10 cm labels runs along the white strip in front of the red ball's track. The ball is ${fmt(BALL_RADIUS * 200, 0)} cm across.`,
    'The episode ends as soon as the red ball lies in the green pit with no gate ever touched.',
    `Budget: ${actionBudget(s)} actions in all — every wait and every open_gate counts, refused ones too; camera moves are free.`,
  );
  return lines.join('\n');
}

function tools(s: T1Scene): ToolSpec[] {
  const gateParam =
    s.gates.length === 2
      ? { type: 'object', properties: { gate: { type: 'string', enum: s.gates.map((g) => g.name) } }, required: ['gate'], additionalProperties: false }
      : { type: 'object', properties: {}, additionalProperties: false };
  return [
    {
      name: 'wait',
      kind: 'timed',
      description: `Let world time run for seconds (${WAIT_MIN_S}–${WAIT_MAX_S}, rounded to 1/240 s). The ball rolls and fired gates move meanwhile.`,
      parameters: {
        type: 'object',
        properties: { seconds: { type: 'number', minimum: WAIT_MIN_S, maximum: WAIT_MAX_S } },
        required: ['seconds'],
        additionalProperties: false,
      },
    },
    {
      name: 'open_gate',
      kind: 'discrete',
      description:
        (s.gates.length === 2 ? 'Fire the named gate (entrance or exit of the tunnel). ' : 'Fire the tunnel gate. ') +
        `It rises over ${fmt(GATE_MOVE_S)} s, stays fully open ${fmt(s.openS)} s and closes over ${fmt(GATE_MOVE_S)} s, starting now; takes no world time itself. Once per gate.`,
      parameters: gateParam,
    },
  ];
}

/** Where the ball's centre is (x, metres) `t` seconds of world time after the start, under the analytic model. */
function ballXAt(s: T1Scene, t: number): number {
  let lo = s.startX;
  let hi = s.toX;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (analyticArrival(s, mid).t < t) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** The plan in words, from the analytic model (the +plan diagnostic mode). */
function planText(s: T1Scene): string {
  const parts: string[] = [];
  const v0 = s.speed;
  const onRuler = (x: number): string => fmt((x - s.fromX) * 100, 0);
  parts.push(
    `Measure the red ball's speed on the ruler: it moves about ${fmt(v0 * 25, 1)} cm per 0.25 s frame (about ${fmt(v0, 3)} m/s). The entrance gate stands at about ${onRuler(s.gates[0].x)} cm on the ruler.`,
  );
  if (s.kinkX !== null) {
    const vIn = analyticArrival(s, s.gates[0].x - GATE_THICKNESS / 2 - BALL_RADIUS).v;
    parts.push(
      `Beware: the track is not level all the way — from about ${onRuler(s.kinkX)} cm to ${onRuler(s.slopeToX ?? s.toX)} cm on the ruler it runs very gently downhill (${fmt(s.slopeDeg, 3)}°), and the ball speeds up to about ${fmt(vIn, 3)} m/s (${fmt(vIn * 25, 1)} cm per frame) before the gates. Wait until it is past the slope and measure the speed again before timing the gates.`,
    );
  }
  let at = 0;
  for (const g of s.gates) {
    const w = analyticWindow(s, g);
    const fire = (w.lo + w.hi) / 2;
    const front = analyticArrival(s, g.x - GATE_THICKNESS / 2 - BALL_RADIUS).t - PREROLL_S;
    const call = s.gates.length === 2 ? `open_gate(gate="${g.name}")` : 'open_gate()';
    const where = ballXAt(s, fire + PREROLL_S);
    const seen = where < s.tunnelFromX - BALL_RADIUS ? ` — when the ball's centre is at about ${onRuler(where)} cm on the ruler` : ' — the ball is hidden in the tunnel then: time it from its speed';
    parts.push(
      `Fire the ${g.name} gate about ${fmt(fire)} s after the first picture${seen} (its window runs from about ${fmt(w.lo)} to ${fmt(w.hi)} s; the ball's front reaches the gate at about ${fmt(front)} s): wait ${at > 0 ? 'a further ' : ''}${fmt(fire - at)} s, then ${call}.`,
    );
    at = fire;
  }
  parts.push('Then wait until the ball has dropped into the green pit.');
  return parts.join(' ');
}
