/**
 * T2 shortcut filters and sightless strategies. The filters keep worlds where the puck stops
 * for good (friction beats the tilt with room to spare), within one wait of the launch, before
 * the bumper, and — at L7 — where the patch matters: the speed a probe on the first stretch of
 * ice alone would suggest misses the band.
 */
import { instanceSettings } from '../../levers.ts';
import type { SightlessStrategy } from '../../sightless.ts';
import { priorFittedStrategy } from '../../kits/sightless-prior.ts';
import type { InstanceFilter } from '../../types.ts';
import { analyticStop, BUMPER_THICKNESS, deceleration, PUCK_RADIUS, TIERS, T2_LEVERS, WAIT_RANGE, zoneCentre, type T2Scene } from './scene.ts';
import { analyticSpeedFor } from './solver.ts';

/** Least deceleration on any stretch, m/s²: the puck must slow visibly and stop for good. */
const MIN_DECELERATION = 0.25;
/** How far friction must exceed the tangent of the tilt for a stopped puck to stay put. */
const HOLD_MARGIN = 0.03;

/** Seconds until the puck rests after a launch at `speed` (textbook, piecewise). */
function restTime(s: T2Scene, speed: number): number {
  const a1 = deceleration(s, s.friction);
  if (!s.patch || (speed * speed) / (2 * a1) <= s.patch.from) return speed / a1;
  const v2 = Math.sqrt(speed * speed - 2 * a1 * s.patch.from);
  return (speed - v2) / a1 + v2 / deceleration(s, s.patch.friction);
}

/** Shortcut filters: each names a way an instance could be trivial or unfair. */
export const SHORTCUT_FILTERS: InstanceFilter<T2Scene>[] = [
  {
    name: 'stops-for-good',
    check(instance) {
      const s = instance.scene;
      const frictions = [s.friction, ...(s.patch ? [s.patch.friction] : [])];
      if (Math.min(...frictions.map((mu) => deceleration(s, mu))) < MIN_DECELERATION) return 'the ice barely slows the puck (it would creep on)';
      // Uphill, the puck stops and then must stay: friction beats the tilt with room to spare.
      const tan = Math.tan((Math.abs(s.tiltDeg) * Math.PI) / 180);
      return Math.min(...frictions) >= tan + HOLD_MARGIN ? null : 'the puck would slide back down once stopped';
    },
  },
  {
    name: 'rests-within-one-wait',
    check(instance) {
      const s = instance.scene;
      const v = analyticSpeedFor(s, zoneCentre(s));
      return restTime(s, v) <= WAIT_RANGE[1] - 1 ? null : 'the puck would take longer than one wait to come to rest in the band';
    },
  },
  {
    name: 'bumper-past-band',
    check(instance) {
      const s = instance.scene;
      return s.end - BUMPER_THICKNESS / 2 - PUCK_RADIUS > s.zone.to + 0.1 ? null : 'the bumper is too close to the band';
    },
  },
  {
    name: 'patch-matters',
    check(instance) {
      const s = instance.scene;
      if (!instanceSettings(instance, TIERS, T2_LEVERS).patch || !s.patch) return null;
      // The speed the first stretch alone suggests (a probe that stops before the patch).
      const naive = Math.sqrt(2 * deceleration(s, s.friction) * zoneCentre(s));
      const lands = analyticStop(s, naive);
      const width = s.zone.to - s.zone.from;
      return Math.abs(lands - zoneCentre(s)) >= 1.5 * width ? null : 'the patch hardly changes where the first stretch\'s speed lands';
    },
  },
];

/**
 * The best a model can do without looking: for each generated instance, the speeds that land
 * the puck in the band (by the textbook formula); then the two speeds that between them hit the
 * most, each followed by the longest wait. Nothing the calls return tells it where the puck went.
 */
const priorFittedSpeeds = priorFittedStrategy<T2Scene>({
  name: 'prior-fitted-speeds',
  description: 'launches the two speeds that together land the puck in the band on most of 400 instances the generator draws for the tier, each followed by the longest wait',
  bound: 0.1,
  choose(pool) {
    let open = pool.map((sc) => [analyticSpeedFor(sc, sc.zone.from), analyticSpeedFor(sc, sc.zone.to)] as const);
    const grid = Array.from({ length: 391 }, (_, i) => Math.round((0.1 + i * 0.01) * 100) / 100);
    const chosen: number[] = [];
    for (let k = 0; k < 2; k++) {
      let best = { v: grid[0], hits: -1 };
      for (const v of grid) {
        const hits = open.filter(([lo, hi]) => v >= lo && v <= hi).length;
        if (hits > best.hits) best = { v, hits };
      }
      chosen.push(best.v);
      open = open.filter(([lo, hi]) => !(best.v >= lo && best.v <= hi));
    }
    return chosen.flatMap((v) => [
      { tool: 'launch', args: { speed_mps: v } },
      { tool: 'wait', args: { seconds: WAIT_RANGE[1] } },
    ]);
  },
});

/** T2's own sightless strategies (the shared battery covers memorised and random play). */
export const SIGHTLESS: SightlessStrategy[] = [priorFittedSpeeds];
