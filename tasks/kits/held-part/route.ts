/**
 * Progress along a route: the route a family's reference path follows (the guide the planner
 * searches along — a corridor's centre line, a wire, the axis through a sequence of openings),
 * as poses. A part's progress is the arc length, as a fraction of the whole route, of the route
 * pose nearest to it in a pose metric (metres plus a weight times the turn between them, with
 * the family's own measure of turn for a symmetric part): a part at the right place in the
 * wrong orientation is not counted as far along.
 */
import { interpolatePose, qangle, vdist } from '../../../sim/math.ts';
import type { Pose } from '../../../sim/types.ts';

/** Options of {@link Route}. */
export interface RouteOptions {
  /** Metres per radian in the pose metric (e.g. the part's radius). */
  rotationWeight: number;
  /** Turn between two orientations in radians (default the plain angle; a rod ignores its roll and flip). */
  turn?(a: Pose['q'], b: Pose['q']): number;
  /** Spacing of the route's sample poses, metres of the metric (default 0.01). */
  spacing?: number;
}

/** A route of poses with arc length (see the module comment). */
export class Route {
  private readonly samples: Array<{ pose: Pose; s: number }> = [];
  /** Total arc length in the pose metric. */
  readonly length: number;
  private readonly opts: RouteOptions;

  constructor(poses: Pose[], opts: RouteOptions) {
    this.opts = opts;
    const spacing = opts.spacing ?? 0.01;
    let s = 0;
    this.samples.push({ pose: poses[0], s: 0 });
    for (let i = 1; i < poses.length; i++) {
      const d = this.distance(poses[i - 1], poses[i]);
      const n = Math.max(1, Math.ceil(d / spacing));
      for (let k = 1; k <= n; k++) this.samples.push({ pose: interpolatePose(poses[i - 1], poses[i], k / n), s: s + (d * k) / n });
      s += d;
    }
    this.length = s;
  }

  /** The pose metric: metres plus the weight times the turn. */
  distance(a: Pose, b: Pose): number {
    const turn = this.opts.turn ? this.opts.turn(a.q, b.q) : qangle(a.q, b.q);
    return vdist(a.p, b.p) + this.opts.rotationWeight * turn;
  }

  /** Fraction 0..1 of the route at the route pose nearest to `pose`. */
  fraction(pose: Pose): number {
    if (!(this.length > 0)) return 1;
    let best = this.samples[0];
    let bestD = Infinity;
    for (const x of this.samples) {
      const d = this.distance(x.pose, pose);
      if (d < bestD) {
        bestD = d;
        best = x;
      }
    }
    return best.s / this.length;
  }
}
