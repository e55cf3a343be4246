import { SpaceActError } from '../../../core/errors.ts';
import type { RulerSpec } from '../../../sim/types.ts';
import type { World } from '../../../sim/world.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { makeInstance } from '../../instance.ts';
import type { FamilyEnv, Instance, InstanceFilter, ReferenceSolution, TaskFamily, Tier, ToolSpec } from '../../types.ts';
import { analyticArrival, analyticWindow, BALL_RADIUS, DECOY_Z, G, GATE_MOVE_S, GATE_THICKNESS, naiveWindow, PIT_LENGTH, PREROLL_S, RUNOUT, TIER_PARAMS, type DecoySpec, type GateName, type GateSpec, type T1Scene } from './scene.ts';
import { solveT1, stepsToSeconds, T1_WORLD_OPTIONS } from './solver.ts';
import { BALL, ballInPit, buildTrack, currentLift, gateBody, GROUND_Y, installGateMechanism, STRIP_Z, t1State } from './track.ts';
import { round9, roundTo } from '../../../core/determinism.ts';

const FAMILY_ID = 'T1';
const WAIT_MIN_S = 0.05;
const WAIT_MAX_S = 10;

function fmt(x: number, digits = 2): string {
  return x.toFixed(digits);
}

// ------------------------------------------------------------------ generation

function draw(seed: number, tier: Tier, attempt: number): Instance<T1Scene> {
  const rng = redrawRng(FAMILY_ID, tier, seed, attempt);
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
  return makeInstance(t1TunnelTiming, tier, seed, {
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

// ------------------------------------------------------------------ shortcut filters

const FILTERS: Array<InstanceFilter<T1Scene>> = [
  {
    name: 'no-open-at-once',
    check(i) {
      const w = analyticWindow(i.scene, i.scene.gates[0]);
      return w.lo < 0.5 ? `firing the entrance gate ${fmt(w.lo)} s after the first observation is already inside its window` : null;
    },
  },
  {
    name: 'window-width',
    check(i) {
      for (const g of i.scene.gates) {
        const w = analyticWindow(i.scene, g);
        if (w.hi - w.lo < 0.08) return `the ${g.name} gate's window is only ${fmt(w.hi - w.lo, 3)} s wide`;
        if (w.hi - w.lo > 0.7) return `the ${g.name} gate's window is ${fmt(w.hi - w.lo, 3)} s wide: timing would not matter`;
      }
      return null;
    },
  },
  {
    name: 'hidden-change-bites',
    check(i) {
      if (i.scene.kinkX === null) return null;
      // Firing at the middle of the windows a constant-speed reading gives must fail some gate.
      const bites = i.scene.gates.some((g) => {
        const naive = naiveWindow(i.scene, g);
        const mid = (naive.lo + naive.hi) / 2;
        const w = analyticWindow(i.scene, g);
        return mid < w.lo - 0.03 || mid > w.hi + 0.03;
      });
      return bites ? null : 'timing from the first strobe alone would still pass every gate';
    },
  },
  {
    name: 'decoy-distinct',
    check(i) {
      const d = i.scene.decoy;
      if (!d) return null;
      const r = d.speed / i.scene.speed;
      return Math.abs(r - 1) < 0.2 ? `the decoy ball's speed is within 20 % of the real one (${fmt(r)}×)` : null;
    },
  },
];

function generate(seed: number, tier: Tier): Instance<T1Scene> {
  return generateFiltered((attempt) => draw(seed, tier, attempt), FILTERS);
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

// ------------------------------------------------------------------ the episode

function gateStatus(world: World, s: T1Scene, name: GateName): string {
  const g = t1State(world).gates[name];
  if (g.jammedAt !== null) return 'jammed';
  if (g.firedAt === null) return 'closed, not fired yet';
  const since = world.time - g.firedAt;
  if (since < GATE_MOVE_S) return 'rising';
  if (since <= GATE_MOVE_S + s.openS) return 'fully open';
  if (since < 2 * GATE_MOVE_S + s.openS) return 'closing';
  return 'closed again (already used)';
}

function build(instance: Instance<T1Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  buildTrack(world, s);
  installGateMechanism(world, s);
  const failureText = (): string | null => {
    const f = t1State(world).failure;
    return f ? `The red ball touched the ${f.gate} gate at world time ${fmt(f.time)} s: the gate jammed and the run has failed for good.` : null;
  };
  const solved = (): boolean => t1State(world).failure === null && ballInPit(s, world.getPose(BALL).p);
  return {
    tools: {
      wait(args) {
        const seconds = Number(args.seconds);
        if (!(seconds >= WAIT_MIN_S && seconds <= WAIT_MAX_S)) throw new SpaceActError('invalid-argument', `seconds must be between ${WAIT_MIN_S} and ${WAIT_MAX_S}`);
        const failedBefore = t1State(world).failure !== null;
        const t0 = world.time;
        world.advance(seconds);
        const notes = [`Waited ${fmt(world.time - t0, 3)} s; world time is now ${fmt(world.time, 3)} s.`];
        if (!failedBefore && t1State(world).failure) notes.push(failureText()!);
        if (solved()) notes.push('The red ball lies in the green pit.');
        return notes.join(' ');
      },
      open_gate(args) {
        const name = (s.gates.length === 2 ? String(args.gate) : 'entrance') as GateName;
        const st = t1State(world);
        if (!st.gates[name]) throw new SpaceActError('invalid-argument', `there is no ${name} gate`);
        if (st.failure) throw new SpaceActError('invalid-state', `${failureText()} Nothing can be fired any more.`);
        if (st.gates[name].firedAt !== null) throw new SpaceActError('invalid-argument', `the ${name} gate has already been fired; each gate works once`);
        st.gates[name].firedAt = world.time;
        return `The ${name} gate fired at world time ${fmt(world.time, 3)} s: fully open from +${fmt(GATE_MOVE_S)} s, closing from +${fmt(GATE_MOVE_S + s.openS)} s, closed again at +${fmt(2 * GATE_MOVE_S + s.openS)} s.`;
      },
    },
    solved,
    failed: failureText,
    progress() {
      // Per gate: 1 when passed cleanly, ½ when the ball touched it while it was lifted (the
      // firing overlapped the ball's arrival); the pit is the last share.
      const st = t1State(world);
      let credit = st.passed.length;
      if (st.failure && st.failure.lift > 0) credit += 0.5;
      return credit / (s.gates.length + 1);
    },
    stateText() {
      const ball = world.getPose(BALL).p;
      const vel = world.getVelocity(BALL).linear;
      const lines = [
        `World time ${fmt(world.time, 3)} s (the first picture was taken at ${fmt(PREROLL_S, 3)} s). x runs along the track in the ball's direction; x = 0 is the entrance gate's centre plane.`,
        `Red ball: centre x = ${fmt(ball[0], 4)} m, height ${fmt(ball[1], 4)} m, velocity along x ${fmt(vel[0], 4)} m/s.`,
      ];
      for (const g of s.gates) {
        lines.push(`${g.name} gate: centre plane x = ${fmt(g.x, 4)} m, slab ${fmt(GATE_THICKNESS * 100, 1)} cm thick; ${gateStatus(world, s, g.name)}, lifted ${fmt(currentLift(world, s, g.name) * 100, 1)} cm.`);
      }
      lines.push(`Tunnel from x = ${fmt(s.tunnelFromX, 4)} to ${fmt(s.tunnelToX, 4)} m; the pit starts at x = ${fmt(s.toX, 4)} m.`);
      if (s.kinkX !== null) lines.push(`The floor is level up to x = ${fmt(s.kinkX, 4)} m and runs downhill at ${fmt(s.slopeDeg, 3)}° beyond.`);
      if (s.decoy) lines.push(`Blue decoy ball: centre x = ${fmt(world.getPose('decoy-ball').p[0], 4)} m (irrelevant).`);
      const f = failureText();
      if (f) lines.push(f);
      return lines.join('\n');
    },
    staticsAfter() {
      return false;
    },
    observationText() {
      const status = s.gates.map((g) => `${g.name} gate: ${gateStatus(world, s, g.name)}`).join('; ');
      const f = failureText();
      return f ? `${status}. ${f}` : `${status}.`;
    },
  };
}

// ------------------------------------------------------------------ reference

async function reference(instance: Instance<T1Scene>): Promise<ReferenceSolution> {
  const sol = await solveT1(instance);
  const calls: ReferenceSolution['calls'] = [];
  let at = 0;
  for (const w of [...sol.windows].sort((a, b) => a.midStep - b.midStep)) {
    calls.push({ tool: 'wait', args: { seconds: stepsToSeconds(w.midStep - at) } });
    calls.push({ tool: 'open_gate', args: instance.scene.gates.length === 2 ? { gate: w.gate } : {} });
    at = w.midStep;
  }
  calls.push({ tool: 'wait', args: { seconds: stepsToSeconds(sol.finalWaitSteps) } });
  const windows = sol.windows.map((w) => `${w.gate} ${fmt(w.lo, 3)}–${fmt(w.hi, 3)} s (${fmt(w.width * 1000, 0)} ms wide)`).join(', ');
  return {
    calls,
    method: `phase-window solver: every firing step (1/240 s grid) replayed against the recorded physical path; windows after the first observation: ${windows}; confirmed in fresh physics worlds: ${sol.confirmation}`,
  };
}

/** T1 tunnel timing: fire a tunnel gate so a rolling ball of unknown speed passes untouched. */
export const t1TunnelTiming: TaskFamily<T1Scene> = {
  id: FAMILY_ID,
  version: 1,
  category: 'T',
  title: 'Tunnel timing',
  summary:
    'A ball rolls towards a gated tunnel; the agent estimates its speed from strobe frames and rulers, lets time run with wait, and fires the gate (which opens for a fixed time, once) so the ball passes without touching it. Tests temporal estimation under a frozen clock; verified by a phase-window solver over the physical path.',
  tiers: {
    L1: { levers: [], description: 'Slow ball (0.20–0.30 m/s), one gate open 0.6 s, arrival 2.5–3.5 s after the first picture; window about 0.45 s.' },
    L3: { levers: [], description: 'Faster ball (0.35–0.45 m/s), one gate open 0.4 s, a decoy track with a blue ball at a clearly different speed.' },
    L5: {
      levers: [],
      description: 'Ball at 0.45–0.60 m/s, gates at both ends of an opaque tunnel (each open 0.3 s, once), a decoy track: the exit gate must be timed for a ball the agent cannot see.',
    },
    L7: {
      levers: ['+hidden-slope'],
      description:
        'L5 plus an undisclosed physical change: just past where the first strobe leaves the ball, the track turns gently downhill (about 1°), so the ball reaches the gates 22–35 % faster than it started; timing from the first strobe alone fails.',
    },
  },
  generate,
  worldOptions: () => ({ ...T1_WORLD_OPTIONS }),
  build,
  reference,
  shortcutFilters: FILTERS,
};
