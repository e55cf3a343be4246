/**
 * T1 episode: the track, the rolling ball (and decoy), the gates and their mechanism, and the
 * tools — `wait` lets world time run, `open_gate` fires a gate (it rises, stays open for a
 * fixed time, closes, once). A ball that touches a gate fails the episode for good.
 */
import { SpaceActError } from '../../../core/errors.ts';
import type { World, WorldOptions } from '../../../sim/world.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import { fmt, GATE_MOVE_S, GATE_THICKNESS, PREROLL_S, WAIT_MAX_S, WAIT_MIN_S, type GateName, type T1Scene } from './scene.ts';
import { T1_WORLD_OPTIONS } from './solver.ts';
import { BALL, ballInPit, buildTrack, currentLift, DECOY_BALL, gateBody, installGateMechanism, t1State } from './track.ts';

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

/** World settings: the fine time step the solver's phase windows are computed on. */
export function worldOptions(): WorldOptions {
  return { ...T1_WORLD_OPTIONS };
}

/** Builds the track, the ball(s) and the gate mechanism, and the `wait` and `open_gate` tools. */
export function build(instance: Instance<T1Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  buildTrack(world, s);
  installGateMechanism(world, s);
  const failureText = (): string | null => {
    const f = t1State(world).failure;
    // When it touched stays out of the text (the ball's arrival time is what the task asks to read).
    return f ? `The red ball touched the ${f.gate} gate: the gate jammed and the run has failed for good.` : null;
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
    // The frame the first strobe strip ends on, the world now (view rule, AUTHORING step 4a): the
    // track, its tunnel, every gate, the pit and the ball, the decoy track and its ball where the
    // tier has one, and the ruler readable. The +hidden-slope lever hides a slope inside the
    // tunnel, not a body.
    viewParts: () => [
      {
        bodies: [
          // A sloped track (L7) is drawn as its own surface mesh, its colliders hidden; the long
          // track runs on past the frame's bottom edge.
          { name: s.kinkX === null ? 'track' : 'track-surface', minPixels: 3000, mayBeCut: true },
          { name: 'tunnel', minPixels: 2000 },
          ...s.gates.map((g) => ({ name: gateBody(g.name), minPixels: 150 })),
          { name: 'pit-walls', minPixels: 500 },
          { name: BALL, minPixels: 100 },
          { name: 'ruler-strip', minPixels: 10000, mayBeCut: true },
          ...(s.decoy ? [{ name: 'decoy-track', minPixels: 3000 }, { name: DECOY_BALL, minPixels: 80 }] : []),
        ],
        // The track's furniture: rails, walls and pit floor around the parts the rules name.
        scenery: ['rails', 'back-wall', 'pit-floor', 'decoy-rails', 'decoy-tunnel', 'decoy-back-wall', 'decoy-pit-floor', 'decoy-pit-walls'],
      },
    ],
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
      if (s.kinkX !== null) lines.push(`The floor is level up to x = ${fmt(s.kinkX, 4)} m, runs downhill at ${fmt(s.slopeDeg, 4)}° to x = ${fmt(s.slopeToX ?? s.toX, 4)} m, and is level again beyond.`);
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
