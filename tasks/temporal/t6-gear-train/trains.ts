/**
 * T6 train search: every simple gear train a pegboard and a tray allow, from the input peg to the
 * output peg. A train is a path of distinct pegs I = p₀, p₁, …, pₙ₋₁ = O with a distinct tray gear
 * on each, such that consecutive gears mesh (their pegs are exactly as far apart as their pitch
 * radii added) and no two gears that are not consecutive come near each other (pins clear by a
 * margin). Its exact outcome is the rational rotation (−1)^(n−1) · z₀ / zₙ₋₁ of the output per
 * input turn. Used by the generator's filters, the reference solver and the sightless strategy.
 */
import { clear, meshes, pegDistance, trainRatio, type T6Scene } from './scene.ts';

/** One train: the pegs in order (input first) and the tooth count on each. */
export interface Train {
  pegs: string[];
  teeth: number[];
  /** Output rotation per input turn, in turns, in lowest terms. */
  ratio: { num: number; den: number };
}

/** Every train the scene allows (no two with the same pegs and teeth), at most `limit`. */
export function allTrains(s: T6Scene, limit = 20000): Train[] {
  const out: Train[] = [];
  const seen = new Set<string>();
  const pegs = s.pegs;
  const n = pegs.length;
  const inputIdx = pegs.findIndex((p) => p.name === 'I');
  const outputIdx = pegs.findIndex((p) => p.name === 'O');
  const dist = pegs.map((a) => pegs.map((b) => pegDistance(a, b)));
  const used = s.tray.map(() => false);
  const pathPegs: number[] = [];
  const pathTeeth: number[] = [];
  const visit = (p: number, z: number): void => {
    if (out.length >= limit) return;
    pathPegs.push(p);
    pathTeeth.push(z);
    if (p === outputIdx) {
      const key = `${pathPegs.join(',')}|${pathTeeth.join(',')}`;
      if (!seen.has(key)) {
        seen.add(key);
        out.push({ pegs: pathPegs.map((i) => pegs[i].name), teeth: [...pathTeeth], ratio: trainRatio(pathTeeth) });
      }
    } else {
      for (let q = 0; q < n; q++) {
        if (pathPegs.includes(q)) continue;
        const tried = new Set<number>();
        for (let k = 0; k < s.tray.length; k++) {
          const zq = s.tray[k];
          if (used[k] || tried.has(zq)) continue;
          tried.add(zq);
          if (!meshes(dist[p][q], z, zq)) continue;
          // Every earlier gear but the one it meshes with must stay clear of it.
          let ok = true;
          for (let i = 0; i < pathPegs.length - 1 && ok; i++) ok = clear(dist[pathPegs[i]][q], pathTeeth[i], zq);
          if (!ok) continue;
          used[k] = true;
          visit(q, zq);
          used[k] = false;
        }
      }
    }
    pathPegs.pop();
    pathTeeth.pop();
  };
  const tried = new Set<number>();
  for (let k = 0; k < s.tray.length; k++) {
    if (tried.has(s.tray[k])) continue;
    tried.add(s.tray[k]);
    used[k] = true;
    visit(inputIdx, s.tray[k]);
    used[k] = false;
  }
  return out;
}

/** Output rotation of a train for one input turn, degrees. */
export function trainDeg(t: Train): number {
  return (360 * t.ratio.num) / t.ratio.den;
}

/** The trains that turn the output exactly as asked. */
export function solvingTrains(s: T6Scene): Train[] {
  return allTrains(s).filter((t) => t.ratio.num === s.target.num && t.ratio.den === s.target.den);
}
