/**
 * T2 reference solver: the launch speed that brings the puck to rest at the middle of the green
 * band. It starts from the textbook stopping distance v² / (2 g (μ cos θ − sin θ)) (piecewise
 * over an L7 patch) and then bisects the speed in the real engine — the family's own world, built
 * as an episode builds it — until the simulated rest point is within a millimetre of the band's
 * middle. The certificate is both numbers: the simulated rest point and the textbook one agree
 * within 2 % on uniform ice (`test/family-t2.test.ts`), and the reference replays in the loop.
 */
import { SpaceActError } from '../../../core/errors.ts';
import { roundTo } from '../../../core/determinism.ts';
import { World } from '../../../sim/world.ts';
import type { Instance, ReferenceSolution } from '../../types.ts';
import { build } from './episode.ts';
import { analyticStop, deceleration, REST_SPEED, slopeCoordinate, SPEED_RANGE, WAIT_RANGE, zoneCentre, type T2Scene } from './scene.ts';

/** Longest a simulated slide is followed, s. */
const MAX_SLIDE_S = 14;

/** Where and when the puck comes to rest in the real engine after a launch at `speed` (m/s) from the pad. */
export async function simulatedStop(instance: Instance<T2Scene>, speed: number): Promise<{ at: number; seconds: number }> {
  const world = await World.create();
  try {
    const env = build(instance, world);
    env.tools.launch({ speed_mps: speed });
    let t = 0;
    const step = 0.05;
    // At rest means staying at rest: a puck that stops uphill for an instant and slides back
    // is still moving a quarter second later.
    let still = 0;
    while (t < MAX_SLIDE_S && still < 5) {
      world.advance(step);
      t += step;
      const v = world.getVelocity('puck').linear;
      still = Math.hypot(v[0], v[1], v[2]) < REST_SPEED ? still + 1 : 0;
    }
    return { at: slopeCoordinate(instance.scene, world.getPose('puck').p), seconds: t };
  } finally {
    world.free();
  }
}

/** The speed whose textbook rest point is `target` (bisection over the piecewise formula). */
export function analyticSpeedFor(s: T2Scene, target: number): number {
  let lo = SPEED_RANGE[0];
  let hi = SPEED_RANGE[1];
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (analyticStop(s, mid) < target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** The launch speed (0.1 mm/s steps) whose simulated rest point is the band's middle, and that slide. */
export async function referenceLaunch(instance: Instance<T2Scene>): Promise<{ speed: number; at: number; seconds: number; analytic: number }> {
  const s = instance.scene;
  const target = zoneCentre(s);
  const guess = analyticSpeedFor(s, target);
  let lo = guess * 0.9;
  let hi = guess * 1.1;
  for (let i = 0; i < 24 && hi - lo > 1e-4; i++) {
    const mid = (lo + hi) / 2;
    if ((await simulatedStop(instance, mid)).at < target) lo = mid;
    else hi = mid;
  }
  const speed = roundTo((lo + hi) / 2, 4);
  const slide = await simulatedStop(instance, speed);
  return { speed, ...slide, analytic: analyticStop(s, speed) };
}

/** The reference: launch at the bisected speed, then wait until the puck has come to rest. */
export async function reference(instance: Instance<T2Scene>): Promise<ReferenceSolution> {
  const s = instance.scene;
  if (deceleration(s, s.friction) <= 0) throw new SpaceActError('invalid-state', `${instance.id}: the puck would never stop on this ice`, { instance: instance.id });
  const r = await referenceLaunch(instance);
  const wait = Math.min(WAIT_RANGE[1], Math.ceil((r.seconds + 0.5) * 4) / 4);
  return {
    calls: [
      { tool: 'launch', args: { speed_mps: r.speed } },
      { tool: 'wait', args: { seconds: wait } },
    ],
    optimal: true,
    unique: false,
    method:
      `textbook stopping distance v²/(2g(μ cos θ − sin θ))${s.patch ? ' piecewise over the patch' : ''}, then bisection of the launch speed in the engine to the band's middle ` +
      `(simulated rest ${roundTo(r.at, 4)} m, textbook ${roundTo(r.analytic, 4)} m); a launch takes no world time, so no solution is shorter than a launch and a wait`,
  };
}
