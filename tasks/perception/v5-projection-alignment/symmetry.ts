/**
 * Symmetries of an icon and the pose error they imply (the rotation seed's procedure).
 *
 * A planar rotation or reflection Q is a symmetry when it maps the centred point cloud onto
 * itself: with h the median nearest-neighbour distance of the full set and τ = 3h + 1e-6, in
 * both directions (original → transformed and transformed → original) the 99th percentile of
 * the nearest-neighbour distances must be ≤ τ and the largest ≤ 2τ — first on up to 1500
 * evenly indexed points, then on the full set. Each planar symmetry lifts to a proper 3D
 * rotation S(Q) = diag(Q, det Q): in-plane rotations keep depth, reflections reverse it, and
 * the extruded solid (symmetric in depth) is mapped onto itself either way.
 */
import type { IconSolid } from './extrusion.ts';
import type { Quaternion } from './rotation.ts';

/** One detected planar symmetry. */
export interface PlanarSymmetry {
  kind: 'rotation' | 'reflection';
  /** Rotation angle, or the angle of the mirror line from the +x axis, degrees (rounded to 0.01). */
  angleDeg: number;
}

/** The symmetry group of a solid. */
export interface SymmetryGroup {
  /** Planar symmetries other than the identity. */
  planar: PlanarSymmetry[];
  /** The lifted 3D rotations, identity first. */
  quaternions: Quaternion[];
  /** Order of the in-plane rotation subgroup (1 = none). */
  rotationOrder: number;
  /** Number of mirror lines. */
  mirrors: number;
}

/** Largest in-plane rotation order tested. */
const MAX_ORDER = 12;
/** Sample size of the first test. */
const SAMPLE = 1500;
/** Step of the mirror-line scan, degrees. */
const MIRROR_STEP = 0.25;

/** Half-width of the square the grid covers, units (the solid lies inside the 28-unit sphere). */
const GRID_EXTENT = 32;

/**
 * A uniform grid over the points (cells in one flat index) for nearest-neighbour queries
 * within one cell of the query.
 */
class PointGrid {
  private readonly side: number;
  private readonly start: Int32Array;
  private readonly items: Int32Array;
  constructor(
    private readonly x: Float64Array,
    private readonly y: Float64Array,
    private readonly cell: number,
  ) {
    this.side = Math.ceil((2 * GRID_EXTENT) / cell) + 2;
    const cellOf = new Int32Array(x.length);
    const counts = new Int32Array(this.side * this.side + 1);
    for (let i = 0; i < x.length; i++) {
      cellOf[i] = this.index(x[i], y[i]);
      counts[cellOf[i] + 1]++;
    }
    for (let c = 1; c < counts.length; c++) counts[c] += counts[c - 1];
    this.start = counts.slice();
    this.items = new Int32Array(x.length);
    const fill = counts.slice();
    for (let i = 0; i < x.length; i++) this.items[fill[cellOf[i]]++] = i;
  }

  private coord(t: number): number {
    return Math.min(this.side - 1, Math.max(0, Math.floor((t + GRID_EXTENT) / this.cell) + 1));
  }

  private index(px: number, py: number): number {
    return this.coord(py) * this.side + this.coord(px);
  }

  private scan(c: number, px: number, py: number, skip: number, best: number): number {
    for (let k = this.start[c]; k < this.start[c + 1]; k++) {
      const i = this.items[k];
      if (i === skip) continue;
      const dx = this.x[i] - px;
      const dy = this.y[i] - py;
      const d = dx * dx + dy * dy;
      if (d < best) best = d;
    }
    return best;
  }

  /** Distance to the nearest point other than `skip`, or Infinity if none lies within one cell. */
  nearest(px: number, py: number, skip = -1): number {
    const cx = this.coord(px);
    const cy = this.coord(py);
    let best = this.scan(cy * this.side + cx, px, py, skip, Infinity);
    // A point in the query's own cell closer than the cell's nearest edge cannot be beaten.
    const lx = (px + GRID_EXTENT) / this.cell + 1 - cx;
    const ly = (py + GRID_EXTENT) / this.cell + 1 - cy;
    const margin = Math.min(lx, 1 - lx, ly, 1 - ly) * this.cell;
    if (margin > 0 && best <= margin * margin) return Math.sqrt(best);
    for (let gy = Math.max(0, cy - 1); gy <= Math.min(this.side - 1, cy + 1); gy++) {
      for (let gx = Math.max(0, cx - 1); gx <= Math.min(this.side - 1, cx + 1); gx++) {
        if (gx !== cx || gy !== cy) best = this.scan(gy * this.side + gx, px, py, skip, best);
      }
    }
    return Math.sqrt(best);
  }
}

function evenIndices(n: number, m: number): number[] {
  if (n <= m) return Array.from({ length: n }, (_, i) => i);
  return Array.from({ length: m }, (_, k) => Math.floor((k * (n - 1)) / (m - 1)));
}

function quantile(values: ArrayLike<number>, q: number): number {
  const s = Float64Array.from(values).sort();
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
}

/** A planar linear map [a b; c d]. */
type Planar = [number, number, number, number];

function rotationMap(deg: number): Planar {
  const t = (deg * Math.PI) / 180;
  return [Math.cos(t), -Math.sin(t), Math.sin(t), Math.cos(t)];
}

function reflectionMap(lineDeg: number): Planar {
  const t = (2 * lineDeg * Math.PI) / 180;
  return [Math.cos(t), Math.sin(t), Math.sin(t), -Math.cos(t)];
}

function inverseMap(m: Planar): Planar {
  // Orthogonal: the inverse is the transpose.
  return [m[0], m[2], m[1], m[3]];
}

/** Detects the icon's planar symmetries and lifts them to 3D. */
export function detectSymmetry(solid: IconSolid): SymmetryGroup {
  const { x, y, count } = solid;
  const probe = new PointGrid(x, y, 0.5);
  const all = Array.from({ length: count }, (_, i) => i);
  const nn = new Float64Array(count);
  for (let i = 0; i < count; i++) nn[i] = probe.nearest(x[i], y[i], i);
  const h = quantile(nn, 0.5);
  const tau = 3 * h + 1e-6;
  const grid = new PointGrid(x, y, 2 * tau);

  const distances = (idx: number[], m: Planar): Float64Array => {
    const d = new Float64Array(idx.length);
    idx.forEach((i, k) => {
      d[k] = grid.nearest(m[0] * x[i] + m[1] * y[i], m[2] * x[i] + m[3] * y[i]);
    });
    return d;
  };
  const passes = (idx: number[], m: Planar): { ok: boolean; mean: number } => {
    let ok = true;
    let sum = 0;
    for (const map of [m, inverseMap(m)]) {
      const d = distances(idx, map);
      let max = 0;
      let total = 0;
      for (const v of d) {
        max = Math.max(max, v);
        total += Number.isFinite(v) ? v : 2 * tau;
      }
      if (max > 2 * tau || quantile(d, 0.99) > tau) ok = false;
      sum += total / d.length;
      if (!ok) break;
    }
    return { ok, mean: sum / 2 };
  };
  const sample = evenIndices(count, SAMPLE);
  // A quick screen on 150 points with the same limits, so only promising candidates reach
  // the 1500-point test and the full-set check.
  const coarse = evenIndices(count, 150);
  const verified = (m: Planar): boolean => passes(sample, m).ok && passes(all, m).ok;

  const planar: PlanarSymmetry[] = [];
  const quaternions: Quaternion[] = [[0, 0, 0, 1]];
  let rotationOrder = 1;
  for (let k = 2; k <= MAX_ORDER; k++) {
    for (let j = 1; j < k; j++) {
      if (gcd(j, k) !== 1) continue;
      const deg = (360 * j) / k;
      if (!passes(coarse, rotationMap(deg)).ok || !verified(rotationMap(deg))) continue;
      rotationOrder = Math.max(rotationOrder, k);
      planar.push({ kind: 'rotation', angleDeg: Math.round(deg * 100) / 100 });
      const half = (deg * Math.PI) / 360;
      quaternions.push([0, 0, Math.sin(half), Math.cos(half)]);
    }
  }
  // Mirror lines: scan, keep the best line of each run of passing angles, then verify it.
  const scan: Array<{ deg: number; mean: number; ok: boolean }> = [];
  for (let deg = 0; deg < 180; deg += MIRROR_STEP) {
    const r = passes(coarse, reflectionMap(deg));
    scan.push({ deg, ...r });
  }
  // Runs of consecutive passing angles; a run that reaches 180° continues the one at 0°.
  const runs: number[][] = [];
  for (let i = 0; i < scan.length; i++) {
    if (!scan[i].ok) continue;
    if (i > 0 && scan[i - 1].ok) runs[runs.length - 1].push(i);
    else runs.push([i]);
  }
  if (runs.length > 1 && runs[0][0] === 0 && runs[runs.length - 1].at(-1) === scan.length - 1) runs[0].push(...runs.pop()!);
  let mirrors = 0;
  for (const run of runs) {
    const best = run.map((i) => scan[i]).reduce((m, c) => (c.mean < m.mean ? c : m));
    if (!verified(reflectionMap(best.deg))) continue;
    mirrors++;
    planar.push({ kind: 'reflection', angleDeg: Math.round(best.deg * 100) / 100 });
    const t = (best.deg * Math.PI) / 180;
    quaternions.push([Math.cos(t), Math.sin(t), 0, 0]);
  }
  return { planar, quaternions, rotationOrder, mirrors };
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/**
 * Pose error, degrees: the smallest rotation angle from `q` to any symmetry-equivalent target
 * S (the target pose is the identity). The arccosine input is clipped to [−1, 1].
 */
export function poseErrorDeg(q: readonly number[], group: readonly Quaternion[]): number {
  let best = 0;
  for (const s of group) best = Math.max(best, Math.abs(q[0] * s[0] + q[1] * s[1] + q[2] * s[2] + q[3] * s[3]));
  return (2 * Math.acos(Math.min(1, Math.max(-1, best))) * 180) / Math.PI;
}
