/**
 * T5 reference solver: a search over fulcrum placements, the counterweight's place for each
 * found by the moment balance and then corrected in the real engine. For every fulcrum place on
 * a 1 cm grid it solves the balance for the counterweight place that rests the crate's centre at
 * the band's middle, keeps the fulcrum whose counterweight window (the counterweight places that
 * keep the crate in the band) is widest, then releases that lever in the family's own world
 * (built as an episode builds it), reads where the crate came to rest and moves the counterweight
 * by the balance's slope until the engine rests it within a millimetre of the band's middle.
 * The certificate is the balance itself: the engine's resting angle agrees with
 * tan θ = Σ m u / Σ m v within 2 % (`test/family-t5.test.ts`, README.md).
 */
import { SpaceActError } from '../../../core/errors.ts';
import { roundTo } from '../../../core/determinism.ts';
import { World } from '../../../sim/world.ts';
import type { Instance, ReferenceSolution } from '../../types.ts';
import { build, CRATE, leverAngleDeg } from './episode.ts';
import { balanceAngleDeg, balanceCrateY, bandMiddle, counterweightFor, counterweightRange, fulcrumRange, WAIT_RANGE, type T5Scene } from './scene.ts';

/** Step of the fulcrum search, m. */
const FULCRUM_STEP = 0.01;
/** Margin the counterweight keeps from the ends of its range, m. */
const CW_MARGIN = 0.01;
/** Longest a simulated release is followed, s. */
const SETTLE_S = 7;

/** What one release in the engine gave: whether the episode's success test held, when, and where the lever came to rest. */
export interface ReleaseOutcome {
  solved: boolean;
  /** World seconds after the release at which the success test first held (or the whole run). */
  seconds: number;
  /** The lever's angle at the end, degrees (counter-clockwise). */
  angleDeg: number;
  /** The crate centre's height at the end, m. */
  crateY: number;
}

/**
 * One release in the engine, played as an episode plays it: the fulcrum and the counterweight
 * set by the tools, the latch opened, world time run in 0.05 s waits until the success test
 * holds (or for `seconds`, `untilSolved` false: the resting angle for the certificate).
 */
export async function simulateRelease(instance: Instance<T5Scene>, fulcrum: number, counterweight: number, seconds = SETTLE_S, untilSolved = true): Promise<ReleaseOutcome> {
  const world = await World.create();
  try {
    const env = build(instance, world);
    env.tools.set_fulcrum({ distance_m: fulcrum });
    env.tools.set_counterweight({ distance_m: counterweight });
    env.tools.release({});
    const step = 0.05;
    let at: number | null = null;
    for (let t = step; t <= seconds + 1e-9; t += step) {
      world.advance(step);
      if (at === null && env.solved()) {
        at = t;
        if (untilSolved) break;
      }
    }
    return { solved: at !== null, seconds: at ?? seconds, angleDeg: leverAngleDeg(world), crateY: world.getPose(CRATE).p[1] };
  } finally {
    world.free();
  }
}

/** The counterweight window at `fulcrum`: the places (m) that rest the crate's centre at the band's bottom and top by the balance. */
function window(s: T5Scene, fulcrum: number): [number, number] | null {
  const a = counterweightFor(s, fulcrum, s.bandLow);
  const b = counterweightFor(s, fulcrum, s.bandHigh);
  if (a === null || b === null) return null;
  return a < b ? [a, b] : [b, a];
}

/** Every fulcrum place of the search with its counterweight place for the band's middle and its window's width, by the balance. */
export function balancePlans(s: T5Scene): Array<{ fulcrum: number; counterweight: number; width: number }> {
  const out: Array<{ fulcrum: number; counterweight: number; width: number }> = [];
  const fr = fulcrumRange(s);
  const cr = counterweightRange(s);
  for (let f = Math.ceil(fr[0] / FULCRUM_STEP) * FULCRUM_STEP; f <= fr[1] + 1e-9; f += FULCRUM_STEP) {
    const fulcrum = roundTo(f, 3);
    const c = counterweightFor(s, fulcrum, bandMiddle(s));
    const w = window(s, fulcrum);
    if (c === null || !w || c < cr[0] + CW_MARGIN || c > cr[1] - CW_MARGIN) continue;
    out.push({ fulcrum, counterweight: c, width: w[1] - w[0] });
  }
  return out;
}

/** The fulcrum with the widest counterweight window, and its counterweight place corrected in the engine. */
export async function searchPlan(instance: Instance<T5Scene>): Promise<{ fulcrum: number; counterweight: number; outcome: ReleaseOutcome; balanceY: number }> {
  const s = instance.scene;
  const plans = balancePlans(s);
  if (!plans.length) throw new SpaceActError('invalid-state', `${instance.id}: no fulcrum place lets the counterweight rest the crate in the band`, { instance: instance.id });
  const best = plans.reduce((a, b) => (b.width > a.width ? b : a));
  const mid = bandMiddle(s);
  let c = roundTo(best.counterweight, 4);
  const cr = counterweightRange(s);
  let outcome = await simulateRelease(instance, best.fulcrum, c, SETTLE_S, false);
  for (let round = 0; round < 4 && Math.abs(outcome.crateY - mid) >= 0.001; round++) {
    // The balance's slope dy/dc at this place, by a small difference.
    const h = 0.002;
    const slope = (balanceCrateY(s, best.fulcrum, c + h) - balanceCrateY(s, best.fulcrum, c - h)) / (2 * h);
    c = roundTo(Math.max(cr[0], Math.min(cr[1], c - (outcome.crateY - mid) / slope)), 4);
    outcome = await simulateRelease(instance, best.fulcrum, c, SETTLE_S, false);
  }
  return { fulcrum: best.fulcrum, counterweight: c, outcome, balanceY: balanceCrateY(s, best.fulcrum, c) };
}

/** The reference: the searched fulcrum and counterweight places, the release, and one wait until the crate has rested in the band. */
export async function reference(instance: Instance<T5Scene>): Promise<ReferenceSolution> {
  const p = await searchPlan(instance);
  if (!p.outcome.solved) throw new SpaceActError('invalid-state', `${instance.id}: the searched lever does not rest the crate in the band`, { instance: instance.id });
  // Two seconds past the simulated success: the last creep of a damped lever below the rest
  // speed is slow, and the episode (its world a second older, its wait one call) may reach the
  // half second of rest up to a second later than the solver's 0.05 s steps do.
  const wait = Math.min(WAIT_RANGE[1], Math.ceil((p.outcome.seconds + 2) * 4) / 4);
  return {
    calls: [
      { tool: 'set_fulcrum', args: { distance_m: p.fulcrum } },
      { tool: 'set_counterweight', args: { distance_m: p.counterweight } },
      { tool: 'release', args: {} },
      { tool: 'wait', args: { seconds: wait } },
    ],
    optimal: true,
    unique: false,
    method:
      `fulcrum search every ${FULCRUM_STEP * 100} cm by the moment balance (widest counterweight window), counterweight corrected in the engine: fulcrum ${p.fulcrum} m, counterweight ${p.counterweight} m; ` +
      `crate at rest ${roundTo(p.outcome.crateY, 4)} m (balance ${roundTo(p.balanceY, 4)} m, angle ${roundTo(balanceAngleDeg(instance.scene, p.fulcrum, p.counterweight), 3)}°); ` +
      'placing takes no world time, so no solution is shorter than two placements, a release and a wait',
  };
}
