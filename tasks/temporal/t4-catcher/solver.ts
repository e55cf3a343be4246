/**
 * T4 reference solver: where the catcher must stand, found in the real engine. It flies the
 * ball in the family's own world (built as an episode builds it) with the catcher placed at
 * every 2.5 mm over 12 cm around the drag-free estimate, keeps the placements after which the
 * ball comes to rest inside the catcher, and places it at the scanned placement nearest the middle of the longest run of them.
 * The certificate is the landing point: the engine's (the catcher parked out of the way) agrees
 * with the drag-free formula x = v cos θ · t within 2 % (`test/family-t4.test.ts`).
 */
import { SpaceActError } from '../../../core/errors.ts';
import { roundTo } from '../../../core/determinism.ts';
import { World } from '../../../sim/world.ts';
import type { Instance, ReferenceSolution } from '../../types.ts';
import { analyticCatch, build } from './episode.ts';
import { analyticLanding, BALL_RADIUS, flightTime, PLACE_RANGE, WAIT_RANGE, type T4Scene } from './scene.ts';

/** Step of the placement scan, m. */
const SCAN_STEP = 0.0025;
/** Half the span of the scan around the drag-free estimate, m. */
const SCAN_HALF = 0.06;
/** World time an episode runs before its first picture (the launcher's first shot), s. */
const FIRST_SHOT_S = 1;
/** How long a caught ball must stay at rest inside the catcher, s. */
const HOLD_S = 1;
/** Longest a simulated shot is followed after the ball lands, s. */
const SETTLE_S = 2;

/** The landing point in the engine: x of the ball's centre when it first comes down to the shelf's top (the catcher parked). */
export async function simulatedLanding(instance: Instance<T4Scene>): Promise<number> {
  const s = instance.scene;
  const world = await World.create();
  try {
    const env = build(instance, world);
    env.tools.fire({});
    const touch = s.shelfHeight + BALL_RADIUS;
    let prev = world.getPose('ball').p;
    for (let t = 0; t < flightTime(s) + 1; t += world.timestep) {
      world.advance(world.timestep);
      const p = world.getPose('ball').p;
      if (p[1] <= touch + 1e-4) {
        // Between the last two steps, where the centre crossed the touching height.
        const f = prev[1] === p[1] ? 1 : (prev[1] - touch) / (prev[1] - p[1]);
        return prev[0] + Math.max(0, Math.min(1, f)) * (p[0] - prev[0]);
      }
      prev = p;
    }
    throw new SpaceActError('invalid-state', `${instance.id}: the ball never came down to the shelf`, { instance: instance.id });
  } finally {
    world.free();
  }
}

/**
 * One real shot with the catcher at `x`, played as an episode plays it (the first shot's second
 * of world time first, then the placement, the firing and the flight): whether the ball comes
 * to rest inside the catcher and stays there for {@link HOLD_S}, and after how many seconds of
 * world time it first rested there. A ball that pauses on the rim and rolls off is not caught.
 */
export async function simulatedShot(instance: Instance<T4Scene>, x: number): Promise<{ caught: boolean; seconds: number }> {
  const world = await World.create();
  try {
    const env = build(instance, world);
    world.advance(FIRST_SHOT_S);
    env.tools.place_catcher({ distance_m: x });
    env.tools.fire({});
    const step = 0.05;
    const limit = flightTime(instance.scene) + SETTLE_S;
    let first: number | null = null;
    for (let t = step; t <= limit + HOLD_S + 1e-9; t += step) {
      world.advance(step);
      if (!env.solved()) {
        first = null;
        if (t > limit) break;
        continue;
      }
      first ??= t;
      if (t - first >= HOLD_S - 1e-9) return { caught: true, seconds: first };
    }
    return { caught: false, seconds: limit };
  } finally {
    world.free();
  }
}

/** The placements (m, on the scan's grid) after which the ball comes to rest in the catcher, and the longest run of them. */
export async function catchWindow(instance: Instance<T4Scene>): Promise<{ caught: number[]; from: number; to: number; seconds: number }> {
  const centre = analyticCatch(instance.scene);
  const n = Math.round(SCAN_HALF / SCAN_STEP);
  const caught: number[] = [];
  let best: { from: number; to: number } | null = null;
  let run: { from: number; to: number } | null = null;
  let seconds = 0;
  for (let k = -n; k <= n; k++) {
    const x = roundTo(centre + k * SCAN_STEP, 4);
    if (x < PLACE_RANGE[0] || x > PLACE_RANGE[1]) continue;
    const shot = await simulatedShot(instance, x);
    if (shot.caught) {
      caught.push(x);
      seconds = Math.max(seconds, shot.seconds);
      run = run ? { from: run.from, to: x } : { from: x, to: x };
      if (!best || run.to - run.from > best.to - best.from) best = { ...run };
    } else run = null;
  }
  if (!best) throw new SpaceActError('invalid-state', `${instance.id}: no placement near the drag-free estimate catches the ball`, { instance: instance.id });
  return { caught, ...best, seconds };
}

/** The reference: the catcher at the scanned placement nearest the middle of the longest run of catching placements, one firing, one wait until the ball rests. */
export async function reference(instance: Instance<T4Scene>): Promise<ReferenceSolution> {
  const w = await catchWindow(instance);
  // The scanned placement nearest the run's middle: it caught in the scan, and replays the same.
  const mid = (w.from + w.to) / 2;
  const x = w.caught.filter((c) => c >= w.from && c <= w.to).reduce((a, b) => (Math.abs(b - mid) < Math.abs(a - mid) ? b : a));
  const shot = await simulatedShot(instance, x);
  if (!shot.caught) throw new SpaceActError('invalid-state', `${instance.id}: the middle of the catching placements does not catch`, { instance: instance.id });
  const wait = Math.min(WAIT_RANGE[1], Math.ceil((shot.seconds + 0.25) * 4) / 4);
  const landing = await simulatedLanding(instance);
  return {
    calls: [
      { tool: 'place_catcher', args: { distance_m: x } },
      { tool: 'fire', args: {} },
      { tool: 'wait', args: { seconds: wait } },
    ],
    optimal: true,
    unique: false,
    method:
      `placement scan in the engine every ${SCAN_STEP * 1000} mm around the drag-free estimate; catching placements ${roundTo(w.from, 4)}–${roundTo(w.to, 4)} m, middle ${x} m; ` +
      `landing on the shelf: engine ${roundTo(landing, 4)} m, drag-free formula ${roundTo(analyticLanding(instance.scene), 4)} m; ` +
      'firing and placing take no world time, so no solution is shorter than a placement, a firing and a wait',
  };
}
