/**
 * The generator's random draw of a scene, apart from the rest of `generate.ts` so that the
 * family's sightless adversary (`filters.ts`) can sample it without an import cycle.
 */
import { roundTo } from '../../../core/determinism.ts';
import type { Rng } from '../../../core/rng.ts';
import { yawQuat } from '../../../sim/math.ts';
import type { RulerSpec, Vec3 } from '../../../sim/types.ts';
import type { Tier } from '../../types.ts';
import { tidyQuat } from '../m1-chiral-peg/scene.ts';
import { BASE_HALF, RING_HALF, RING_PIECES, TIERS, WIRE_RADIUS, WIRE_STEP, type M4Scene, type M4TierSettings } from './scene.ts';

function r6(v: Vec3): Vec3 {
  return [roundTo(v[0], 6), roundTo(v[1], 6), roundTo(v[2], 6)];
}

/**
 * Rounds every corner of a polyline with a quadratic Bézier of tangent length `radius·tan(α/2)`
 * (α the turn), sampled every `WIRE_STEP` or so; the ends are kept.
 */
function fillet(points: Vec3[], radius: number): Vec3[] {
  const out: Vec3[] = [points[0]];
  for (let i = 1; i + 1 < points.length; i++) {
    const a = points[i - 1];
    const b = points[i];
    const c = points[i + 1];
    const u1 = unit([b[0] - a[0], b[1] - a[1], b[2] - a[2]]);
    const u2 = unit([c[0] - b[0], c[1] - b[1], c[2] - b[2]]);
    const cos = Math.max(-1, Math.min(1, u1[0] * u2[0] + u1[1] * u2[1] + u1[2] * u2[2]));
    const turn = Math.acos(cos);
    if (turn < 1e-6) {
      out.push(b);
      continue;
    }
    const t = Math.min(radius * Math.tan(turn / 2), 0.45 * Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]), 0.45 * Math.hypot(c[0] - b[0], c[1] - b[1], c[2] - b[2]));
    const p0: Vec3 = [b[0] - u1[0] * t, b[1] - u1[1] * t, b[2] - u1[2] * t];
    const p2: Vec3 = [b[0] + u2[0] * t, b[1] + u2[1] * t, b[2] + u2[2] * t];
    const n = Math.max(2, Math.ceil((turn * t) / WIRE_STEP));
    for (let k = 0; k <= n; k++) {
      const s = k / n;
      out.push([0, 1, 2].map((j) => (1 - s) * (1 - s) * p0[j] + 2 * (1 - s) * s * b[j] + s * s * p2[j]) as Vec3);
    }
  }
  out.push(points[points.length - 1]);
  return out;
}

function unit(a: Vec3): Vec3 {
  const n = Math.hypot(...a);
  return [a[0] / n, a[1] / n, a[2] / n];
}

/** The horizontal unit vector at angle `a` (radians) from +x toward +z. */
function heading(a: number): Vec3 {
  return [Math.cos(a), 0, Math.sin(a)];
}

/** The horizontal direction `d` turned by `a` radians about the vertical. */
function turnBy(d: Vec3, a: number): Vec3 {
  const c = Math.cos(a);
  const s = Math.sin(a);
  return [d[0] * c - d[2] * s, 0, d[0] * s + d[2] * c];
}

/** One draw of the scene for a tier from a random stream (no filters); the generator and the adversary both use it. */
export function drawScene(tier: Tier, rng: Rng, t: M4TierSettings = TIERS[tier]): M4Scene {
  const base = { centre: [0, BASE_HALF[1], 0] as Vec3, half: [...BASE_HALF] as Vec3 };
  const top = 2 * BASE_HALF[1];
  const foot: Vec3 = [0, top - 0.01, 0];
  let course: Vec3[];
  if (t.shape === 'helix') {
    // A riser, a quarter-circle bend into the helix's first heading, turns of a helix round a
    // vertical axis, then a straight end. Every size and the phase are drawn from continuous
    // ranges: on grids (5 mm radius and pitch steps, quarter-turn phases) a prober enumerated
    // the ten thousand possible wires and followed the one whose predicted outcomes matched.
    const radius = rng.range(0.052, 0.072);
    const pitch = rng.range(0.048, 0.068);
    const turns = rng.range(1.4, 2.1);
    const riserTop = top + rng.range(0.035, 0.065);
    const dir = rng.pick([1, -1]);
    const phase = rng.range(0, 2 * Math.PI);
    const cosP = Math.cos(phase);
    const sinP = Math.sin(phase);
    const heading: Vec3 = [-dir * sinP, 0, dir * cosP];
    const bend = rng.range(0.035, 0.045);
    const entry: Vec3 = [heading[0] * bend, riserTop + bend, heading[2] * bend];
    const axis: Vec3 = [entry[0] - radius * cosP, 0, entry[2] - radius * sinP];
    course = [foot, [0, riserTop, 0]];
    const arcSteps = 8;
    for (let k = 1; k <= arcSteps; k++) {
      const a = (k / arcSteps) * (Math.PI / 2);
      course.push([heading[0] * bend * (1 - Math.cos(a)), riserTop + bend * Math.sin(a), heading[2] * bend * (1 - Math.cos(a))]);
    }
    const n = Math.ceil((turns * 2 * Math.PI * radius) / WIRE_STEP);
    for (let k = 1; k <= n; k++) {
      const th = (k / n) * turns * 2 * Math.PI;
      const a = phase + dir * th;
      course.push([axis[0] + radius * Math.cos(a), entry[1] + (pitch * th) / (2 * Math.PI), axis[2] + radius * Math.sin(a)]);
    }
    const last = course[course.length - 1];
    const prev = course[course.length - 2];
    const out = unit([last[0] - prev[0], last[1] - prev[1], last[2] - prev[2]]);
    course.push([last[0] + out[0] * 0.05, last[1] + out[1] * 0.05, last[2] + out[2] * 0.05]);
  } else {
    // Riser height, heading (any way round the vertical), run lengths, the second bend's turn
    // and the bends' radius are drawn from continuous ranges (see the helix above for why).
    const riser = top + rng.range(0.1, 0.16);
    const d1 = heading(rng.range(0, 2 * Math.PI));
    const run1 = rng.range(0.1, 0.15);
    const corner: Vec3 = [d1[0] * run1, riser, d1[2] * run1];
    const rough: Vec3[] = [foot, [0, riser, 0], corner];
    if (t.shape === 'twist') {
      const d2 = turnBy(d1, rng.pick([1, -1]) * rng.range((70 * Math.PI) / 180, (110 * Math.PI) / 180));
      const run2 = rng.range(0.1, 0.14);
      rough.push([corner[0] + d2[0] * run2, riser, corner[2] + d2[2] * run2]);
    }
    course = fillet(rough, rng.range(0.045, 0.06));
  }
  const clearance = t.clearance;
  const ring = { radius: roundTo(WIRE_RADIUS + clearance + RING_HALF, 6), halfThickness: RING_HALF, pieces: RING_PIECES };
  // Threaded on the riser, square to it, 3 cm above the base.
  const startP: Vec3 = [0, roundTo(top + 0.03, 6), 0];
  const frameYawDeg = t.rotatedFrame ? roundTo(rng.pick([1, -1]) * rng.range(30, 60), 3) : 0;
  const spin = yawQuat(rng.range(0, 90));
  return {
    wire: { radius: WIRE_RADIUS, points: course.map(r6) },
    ring,
    base,
    clearance,
    start: { p: startP, q: tidyQuat(spin) },
    frameYawDeg,
  };
}

/**
 * The rules: what the task is, never how this seed's wire was drawn. Sizes (the wire, the ring,
 * the course) are read from the rulers; the working frame's turn from the arrows. Nothing here
 * varies with the seed within a tier (the course type, the turned frame and the action budget
 * are the tier's).
 */
