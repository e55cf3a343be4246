/**
 * T3 shortcut filters and sightless strategies. The filters keep worlds where releasing at once
 * misses, where the windows are narrow against the half period (so no fixed release time hits
 * more than a few in a hundred) but wide enough to hit from the pictures, and — at L7 — where
 * the heavy rod matters: timing one half period ahead with the period the rod's look suggests
 * misses the window. The family's own sightless strategy is the best fixed release time fitted
 * on 400 other instances of the tier.
 */
import { instanceSettings } from '../../levers.ts';
import type { SightlessStrategy } from '../../sightless.ts';
import { priorFittedStrategy } from '../../kits/sightless-prior.ts';
import type { InstanceFilter, ToolCall } from '../../types.ts';
import { analyticWindows, DT, exactPeriod, effectiveLength, fmt, LIGHT_ROD_DENSITY, period, TIERS, T3_LEVERS, WAIT_RANGE, type StepWindow, type T3Scene } from './scene.ts';

/** Span after the first picture over which the filters and the fixed-release fit look at windows, s. */
const FILTER_SPAN_S = 3;
/** No window may open sooner than this after the first picture, s: releasing at once must miss (a band any wider would tell a fixed schedule where windows are not). */
const EARLIEST_WINDOW_S = DT / 2;
/** Narrowest and widest window allowed, s; the widest also as a share of the half period. */
const MIN_WINDOW_S = 0.02;
const MAX_WINDOW_SHARE = 0.055;
/** At L7, how many half-widths of the window one half period of the look's period must miss by. */
const CHANGE_BITE = 1.5;

function windowsOf(s: T3Scene): StepWindow[] {
  return analyticWindows(s, FILTER_SPAN_S);
}

/** Shortcut filters: each names a way an instance could be trivial or unfair. */
export const SHORTCUT_FILTERS: InstanceFilter<T3Scene>[] = [
  {
    name: 'no-release-at-once',
    check(i) {
      const w = windowsOf(i.scene);
      if (!w.length) return 'the drum never passes under the ball';
      return w[0].lo * DT < EARLIEST_WINDOW_S ? 'releasing at once (or nearly) would strike the drum' : null;
    },
  },
  {
    name: 'window-width',
    check(i) {
      const half = period(i.scene) / 2;
      for (const w of windowsOf(i.scene)) {
        const width = (w.hi - w.lo + 1) * DT;
        if (width < MIN_WINDOW_S) return `a window is only ${fmt(width * 1000, 0)} ms wide`;
        if (width > MAX_WINDOW_SHARE * half) return 'a window is wide against the half period: a fixed release time would hit too often';
      }
      return null;
    },
  },
  {
    name: 'heavy-rod-bites',
    check(i) {
      const s = i.scene;
      if (instanceSettings(i, TIERS, T3_LEVERS).rodDensity[0] === LIGHT_ROD_DENSITY) return null;
      // The period a light rod of the same look would give, against the real one, over half a period.
      const looks = exactPeriod(effectiveLength({ ...s, rodDensity: LIGHT_ROD_DENSITY }), s.amplitudeDeg);
      const shift = Math.abs(looks - period(s)) / 2;
      const w = windowsOf(s);
      const halfWidth = Math.max(...w.map((x) => (x.hi - x.lo + 1) * DT)) / 2;
      return shift >= CHANGE_BITE * halfWidth ? null : 'the heavy rod hardly changes the timing';
    },
  },
];

/** Span a fixed release time is chosen in, s after the first picture. */
const FIT_SPAN_S = 6;

/**
 * The release step (after the first picture) that lies in the most windows of `pool`, in the
 * middle of the longest run of it; steps before the shortest wait are left out.
 */
export function bestReleaseStep(pool: StepWindow[][]): { step: number; hits: number } {
  const last = Math.round(FIT_SPAN_S / DT);
  const diff = new Int32Array(last + 2);
  for (const ws of pool) for (const w of ws) {
    diff[Math.min(w.lo, last + 1)]++;
    diff[Math.min(w.hi + 1, last + 1)]--;
  }
  const first = Math.ceil(WAIT_RANGE[0] / DT);
  let run = 0;
  let best = { step: first, hits: -1, len: 0 };
  let cur = { start: -1, hits: -1 };
  for (let t = 0; t <= last; t++) {
    run += diff[t];
    if (t < first) continue;
    if (run !== cur.hits) cur = { start: t, hits: run };
    const len = t - cur.start + 1;
    if (run > best.hits || (run === best.hits && len > best.len)) best = { step: Math.floor((cur.start + t) / 2), hits: run, len };
  }
  return { step: best.step, hits: best.hits };
}

/**
 * The best a model can do without looking at a timing task: the one release time after the
 * first picture that lies in the most release windows of 400 instances the generator draws for
 * the tier (the ideal pendulum's windows, a few milliseconds from the engine's), then a wait for
 * the ball to fall. Nothing a call returns says where the drum is.
 */
const bestFixedRelease = priorFittedStrategy<T3Scene>({
  name: 'best-fixed-release',
  description: 'releases the ball at the one time after the first picture that lies in the most release windows of 400 instances the generator draws for the tier, then waits',
  bound: 0.1,
  choose(pool) {
    const best = bestReleaseStep(pool.map((s) => analyticWindows(s, FIT_SPAN_S)));
    const script: ToolCall[] = [
      { tool: 'wait', args: { seconds: Math.round(best.step * DT * 1e6) / 1e6 } },
      { tool: 'release', args: {} },
      { tool: 'wait', args: { seconds: 1 } },
    ];
    return script;
  },
});

/** T3's own sightless strategies (the shared battery covers memorised, random and probing play). */
export const SIGHTLESS: SightlessStrategy[] = [bestFixedRelease];
