import type { RulerSpec, Vec3 } from '../../sim/types.ts';

/** Default spacing of minor ticks, metres. */
export const DEFAULT_MINOR = 0.01;
/** Default spacing of labelled major ticks, metres. */
export const DEFAULT_MAJOR = 0.1;

/** One tick of a ruler: distance from the ruler's start and its rank. */
export interface Tick {
  at: number;
  rank: 'major' | 'mid' | 'minor';
  /** Set on major ticks: the distance from the ruler's start as people write it. */
  label?: string;
}

const EPS = 1e-9;

function trimNumber(v: number): string {
  return String(Number(v.toFixed(3)));
}

/**
 * The text of a major tick `k` major steps from the ruler's start: "0", then e.g. "10 cm",
 * "20 cm"; metres when major steps are a metre or more, millimetres below a centimetre.
 */
export function rulerLabel(k: number, major: number): string {
  if (k === 0) return '0';
  const v = k * major;
  if (major >= 1 - EPS) return `${trimNumber(v)} m`;
  if (major >= 0.01 - EPS) return `${trimNumber(v * 100)} cm`;
  return `${trimNumber(v * 1000)} mm`;
}

/**
 * The ticks of a ruler of `length` metres: majors every `major` (labelled), a mid tick halfway
 * between majors where a minor tick falls there, minors every `minor`.
 */
export function rulerTicks(length: number, minor: number, major: number): Tick[] {
  const ticks: Tick[] = [];
  const nMajor = Math.floor(length / major + EPS);
  for (let k = 0; k <= nMajor; k++) {
    ticks.push({ at: k * major, rank: 'major', label: rulerLabel(k, major) });
  }
  const nMinor = Math.floor(length / minor + EPS);
  for (let i = 0; i <= nMinor; i++) {
    const at = i * minor;
    const inMajors = at / major;
    const frac = inMajors - Math.round(inMajors);
    if (Math.abs(frac) * major < minor * 1e-3) continue;
    const half = Math.abs(Math.abs(frac) - 0.5) * major < minor * 1e-3;
    ticks.push({ at, rank: half ? 'mid' : 'minor' });
  }
  return ticks.sort((a, b) => a.at - b.at);
}

/** The ruler's unit direction, length and unit tick direction (perpendicular to the ruler). */
export function rulerAxes(spec: RulerSpec): { dir: Vec3; length: number; tick: Vec3 } {
  const d: Vec3 = [spec.to[0] - spec.from[0], spec.to[1] - spec.from[1], spec.to[2] - spec.from[2]];
  const length = Math.hypot(d[0], d[1], d[2]);
  const dir: Vec3 = [d[0] / length, d[1] / length, d[2] / length];
  const vertical = Math.abs(dir[1]) > 0.9;
  const candidates: Vec3[] = [spec.tickDir ?? (vertical ? [0, 0, 1] : [0, 1, 0]), [0, 1, 0], [0, 0, 1], [1, 0, 0]];
  for (const c of candidates) {
    const along = c[0] * dir[0] + c[1] * dir[1] + c[2] * dir[2];
    const t: Vec3 = [c[0] - along * dir[0], c[1] - along * dir[1], c[2] - along * dir[2]];
    const n = Math.hypot(t[0], t[1], t[2]);
    if (n > 1e-3) return { dir, length, tick: [t[0] / n, t[1] / n, t[2] / n] };
  }
  throw new Error('unreachable: no perpendicular found');
}
