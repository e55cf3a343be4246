/**
 * T6 shortcut filters and sightless strategy. The filters keep instances where the asked
 * rotation is reachable and where every other train the pegs and tray allow ends clearly off the
 * mark (so reading the mark decides), see README.md for the shortcuts considered.
 */
import { priorFittedStrategy } from '../../kits/sightless-prior.ts';
import type { SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter, ToolCall } from '../../types.ts';
import { MIN_SEPARATION_DEG, targetDeg, type T6Scene } from './scene.ts';
import { allTrains, solvingTrains, trainDeg } from './trains.ts';
import { trainCalls } from './solver.ts';

/** Cheap static checks every instance must pass (the generator re-draws until they hold; verify reports them). */
export const SHORTCUT_FILTERS: InstanceFilter<T6Scene>[] = [
  {
    name: 'solvable',
    check(i) {
      return solvingTrains(i.scene).length ? null : 'no gear train turns the output as asked';
    },
  },
  {
    name: 'wrong-trains-miss',
    check(i) {
      const want = targetDeg(i.scene);
      const near = allTrains(i.scene).find((t) => {
        const d = Math.abs(trainDeg(t) - want);
        return d > 1e-9 && d < MIN_SEPARATION_DEG;
      });
      return near ? `a train with another ratio (${near.teeth.join('/')}) ends near the mark` : null;
    },
  },
  {
    name: 'no-single-pair',
    check(i) {
      // From L3 on the asked train is not one pair meshed straight from I to O.
      if (i.tier === 'L1') return null;
      return solvingTrains(i.scene).some((t) => t.teeth.length === 2) ? 'a single pair on I and O solves it' : null;
    },
  },
];

/**
 * The best fixed plan fitted on other seeds: over 400 instances of the tier, the placements
 * (teeth on pegs, in the order of each instance's reference) that solve most of them, played as
 * they are. Peg positions are continuous, so a train meshes only on its own instance.
 */
const bestFixedPlacement = priorFittedStrategy<T6Scene>({
  name: 'best-fixed-placement',
  description: 'plays the one gear train (teeth on pegs) that solves the most of 400 instances the generator draws for the tier',
  bound: 0.1,
  choose(pool) {
    const counts = new Map<string, { calls: ToolCall[]; n: number }>();
    for (const sc of pool) {
      for (const t of solvingTrains(sc)) {
        const calls = trainCalls(t);
        const key = JSON.stringify(calls);
        const c = counts.get(key) ?? { calls, n: 0 };
        c.n++;
        counts.set(key, c);
      }
    }
    let best: { calls: ToolCall[]; n: number } | null = null;
    for (const c of counts.values()) if (!best || c.n > best.n) best = c;
    return best ? best.calls : null;
  },
});

/** T6's own sightless strategies (the shared battery covers memorised, random and probing play). */
export const SIGHTLESS: SightlessStrategy[] = [bestFixedPlacement];
