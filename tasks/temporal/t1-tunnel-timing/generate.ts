/**
 * T1 generator: the seeded draw of a track, ball, gates (and, by tier, decoy track and hidden
 * slope), re-drawn until the shortcut filters of `filters.ts` pass; and the tools, rules text
 * and plan an instance carries.
 */
import { round9, roundTo } from '../../../core/determinism.ts';
import type { RulerSpec } from '../../../sim/types.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { makeInstance } from '../../instance.ts';
import type { FamilyDescriptor, Instance, Tier, ToolSpec } from '../../types.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import { analyticArrival, analyticWindow, BALL_RADIUS, DECOY_Z, fmt, G, GATE_MOVE_S, GATE_THICKNESS, PIT_LENGTH, PREROLL_S, RUNOUT, TIER_PARAMS, WAIT_MAX_S, WAIT_MIN_S, type DecoySpec, type GateSpec, type T1Scene } from './scene.ts';
import { GROUND_Y, STRIP_Z } from './track.ts';

// ------------------------------------------------------------------ generation

function draw(family: FamilyDescriptor, seed: number, tier: Tier, attempt: number): Instance<T1Scene> {
  const rng = redrawRng('T1', tier, seed, attempt);
  const P = TIER_PARAMS[tier];
  const speed = roundTo(rng.range(P.speed[0], P.speed[1]), 3);
  const arrival = rng.range(P.arrival[0], P.arrival[1]);
  const tunnel = roundTo(rng.range(P.tunnel[0], P.tunnel[1]), 4);
  // The entrance gate's centre plane is x = 0; the ball's front would reach its face `arrival`
  // seconds after the first observation if the track were level.
  const frontAtGate = -GATE_THICKNESS / 2 - BALL_RADIUS;
  const firstX = roundTo(frontAtGate - speed * arrival, 4);
  const startX = roundTo(firstX - speed * PREROLL_S, 4);
  let kinkX: number | null = null;
  let slopeDeg = 0;
  if (P.hiddenSlope) {
    // The downhill starts just past where the first strobe leaves the ball, and is steep
    // enough that the ball reaches the entrance 22–35 % faster than it started.
    kinkX = roundTo(firstX + rng.range(0.04, 0.12), 4);
    const factor = rng.range(1.22, 1.35);
    const drop = ((factor * speed) ** 2 - speed ** 2) / ((10 / 7) * G);
    slopeDeg = roundTo((Math.atan(drop / (frontAtGate - kinkX)) * 180) / Math.PI, 3);
  }
  const gates: GateSpec[] = [{ name: 'entrance', x: 0 }];
  if (P.gates === 2) gates.push({ name: 'exit', x: tunnel });
  const tunnelFromX = roundTo(GATE_THICKNESS / 2 + 0.003, 4);
  const tunnelToX = roundTo(P.gates === 2 ? tunnel - GATE_THICKNESS / 2 - 0.003 : tunnel, 4);
  const lastFace = P.gates === 2 ? tunnel + GATE_THICKNESS / 2 + 0.003 : tunnel;
  const toX = roundTo(lastFace + RUNOUT, 4);
  const fromX = roundTo(startX - BALL_RADIUS - 0.012 - 0.01, 4);
  let decoy: DecoySpec | null = null;
  if (P.decoy) {
    const factor = rng.next() < 0.5 ? rng.range(0.6, 0.78) : rng.range(1.25, 1.45);
    const dSpeed = roundTo(speed * factor, 3);
    const dFirst = firstX + rng.range(-0.2, 0.2);
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
  const scene: T1Scene = { startX, speed, fromX, toX, kinkX, slopeDeg, gates, openS: P.openS, tunnelFromX, tunnelToX, decoy };
  const left = Math.min(fromX, decoy?.fromX ?? fromX);
  const right = toX + PIT_LENGTH;
  const span = right - left;
  const rulers: RulerSpec[] = [
    {
      from: [roundTo(fromX, 4), 0.0005, roundTo((STRIP_Z[0] + STRIP_Z[1]) / 2 - 0.004, 4)],
      to: [roundTo(right, 4), 0.0005, roundTo((STRIP_Z[0] + STRIP_Z[1]) / 2 - 0.004, 4)],
      tickDir: [0, 0, 1],
    },
  ];
  return makeInstance(family, tier, seed, {
    title: `Tunnel timing${P.gates === 2 ? ', two gates' : ''}${P.decoy ? ', with a second track' : ''}`,
    rules: rulesText(scene),
    tools: tools(scene),
    camera: {
      initial: {
        azimuth: 0,
        elevation: 35,
        distance: round9(span * 1.5),
        target: [roundTo((left + right) / 2, 4), -0.02, decoy ? roundTo(DECOY_Z / 2, 4) : 0],
      },
      elevationRange: [0, 90],
    },
    rulers,
    ground: { y: GROUND_Y },
    dynamic: true,
    scoring: 'graded',
    scene,
    reveal: { plan: planText(scene) },
  });
}

/** The instance of (seed, tier): drawn until every shortcut filter passes. */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier): Instance<T1Scene> {
  return generateFiltered((attempt) => draw(family, seed, tier, attempt), SHORTCUT_FILTERS);
}

// ------------------------------------------------------------------ text

function gateWords(s: T1Scene): string {
  return s.gates.length === 2 ? 'Both ends of the tunnel are closed by gates (yellow bars across the track): the entrance gate and the exit gate.' : 'The tunnel entrance is closed by a gate (a yellow bar across the track).';
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
    `Each picture is a strip of five frames taken 0.25 s of world time apart, oldest on the left. Frames are taken on a fixed 0.25 s clock, so after waits that do not add up to a multiple of 0.25 s the newest frame is a little older than now; the labels say how long ago each frame was taken. A ruler with 1 cm ticks and 10 cm labels runs along the white strip in front of the red ball's track. The ball is ${fmt(BALL_RADIUS * 200, 0)} cm across.`,
    'The episode ends as soon as the red ball lies in the green pit with no gate ever touched.',
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

/** The plan in words, from the analytic model (the +plan diagnostic mode). */
function planText(s: T1Scene): string {
  const parts: string[] = [];
  const v0 = s.speed;
  parts.push(
    `Measure the red ball's speed on the ruler: it moves about ${fmt(v0 * 25, 1)} cm per 0.25 s frame (about ${fmt(v0)} m/s).`,
  );
  if (s.kinkX !== null) {
    const vIn = analyticArrival(s, s.gates[0].x - GATE_THICKNESS / 2 - BALL_RADIUS).v;
    parts.push(
      `Beware: the track is not level all the way — shortly after the first pictures it runs gently downhill (${fmt(s.slopeDeg)}°), and the ball speeds up to about ${fmt(vIn)} m/s by the entrance gate. Wait a little and measure the speed again before timing the gates.`,
    );
  }
  let at = 0;
  for (const g of s.gates) {
    const w = analyticWindow(s, g);
    const fire = (w.lo + w.hi) / 2;
    const front = analyticArrival(s, g.x - GATE_THICKNESS / 2 - BALL_RADIUS).t - PREROLL_S;
    const call = s.gates.length === 2 ? `open_gate(gate="${g.name}")` : 'open_gate()';
    parts.push(
      `Fire the ${g.name} gate about ${fmt(fire)} s after the first picture (its window runs from about ${fmt(w.lo)} to ${fmt(w.hi)} s; the ball's front reaches the gate at about ${fmt(front)} s): wait ${at > 0 ? 'a further ' : ''}${fmt(fire - at)} s, then ${call}.`,
    );
    at = fire;
  }
  parts.push('Then wait until the ball has dropped into the green pit.');
  return parts.join(' ');
}

