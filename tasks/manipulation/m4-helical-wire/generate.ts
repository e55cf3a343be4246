/**
 * M4 generator: a pure function of (family, tier, seed). It draws the wire's course (a riser out
 * of the base, then one bend, two bends in different planes, or turns of a helix, and a straight
 * free end), rounds its corners, sizes the ring for the tier's clearance and threads it on the
 * riser. Every random choice comes from `redrawRng`; numbers are rounded for JSON.
 */
import { roundTo } from '../../../core/determinism.ts';
import type { Rng } from '../../../core/rng.ts';
import { yawQuat } from '../../../sim/math.ts';
import type { RulerSpec, Vec3 } from '../../../sim/types.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { heldPartToolSpecs } from '../../kits/held-part/tools.ts';
import { makeInstance } from '../../instance.ts';
import type { FamilyDescriptor, Instance, Tier } from '../../types.ts';
import { tidyQuat } from '../m1-chiral-peg/scene.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import { BASE_HALF, RING_HALF, RING_PIECES, TIERS, WIRE_RADIUS, WIRE_STEP, type M4Scene } from './scene.ts';
import { m4Tools } from './tools.ts';

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
export function drawScene(tier: Tier, rng: Rng): M4Scene {
  const t = TIERS[tier];
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
function rulesText(s: M4Scene, tier: Tier): string {
  const shape = TIERS[tier].shape;
  const course = shape === 'bend' ? 'rises from a base block and bends over once' : shape === 'twist' ? 'rises from a base block and bends twice, in two different planes' : 'rises from a base block and winds round in a helix';
  return [
    `A stiff wire ${course}, ending in a free end. You hold a ring threaded on it (the orange ring); its hole is only a little wider than the wire, so the ring must be kept square to the wire and centred on it through every bend.`,
    'Goal: work the ring along the wire and off its free end. The episode ends as soon as the ring is off.',
    'The ring can only come off at the free end: a move that would pass the ring through the wire, or lift it off anywhere else, is refused like a collision (a topology rule of the world).',
    "Frame: the red, green and blue arrows beside the base show the working frame's +x, +y and +z axes; +y is straight up." +
      (s.frameYawDeg === 0 ? ' In the first view +x points to the right and +z toward you.' : ' This frame is NOT lined up with the base: it is turned about the vertical; read its directions from the arrows.'),
    "Measuring: a ruler runs along the floor at the base's front edge and another stands at its front-left corner, with ticks every 10 mm and labels every 100 mm; read the wire's course and the ring's size from them.",
    "Tools: translate(dx_m, dy_m, dz_m) moves the ring in a straight line; rotate(axis, angle_deg) turns it about its centre; move(…) does both at once at steady rates — a short screw-like move follows a curving wire. All are relative to where the ring is now.",
    'Every motion is swept along its whole path. If the ring would touch the wire or the base, leave the wire other than at its free end, or leave the workspace, the motion is stopped and rolled back and the rest of that turn is not run.',
    `Budget: ${TIERS[tier].actions} actions in all (every translate, rotate or move counts, refused and rolled-back ones included; looking around with the camera does not); the episode ends when they are spent.`,
  ].join('\n');
}

function draw(family: FamilyDescriptor, seed: number, tier: Tier, attempt: number): Instance<M4Scene> {
  const scene = drawScene(tier, redrawRng('M4', tier, seed, attempt));
  const pts = scene.wire.points;
  // Frame the wire, the base, the arrows and the rulers on the floor.
  const extra: Vec3[] = [[-BASE_HALF[0] - 0.01, 0, BASE_HALF[2] + 0.12], [BASE_HALF[0] + 0.14, 0, BASE_HALF[2] + 0.1], [-BASE_HALF[0], 0, -BASE_HALF[2]]];
  const lo = [0, 1, 2].map((j) => Math.min(...pts.map((p) => p[j]), ...extra.map((p) => p[j])));
  const hi = [0, 1, 2].map((j) => Math.max(...pts.map((p) => p[j]), ...extra.map((p) => p[j])));
  const centre: Vec3 = [(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2];
  const radius = Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) / 2 + 0.04;
  const front = BASE_HALF[2] + 0.004;
  const rulers: RulerSpec[] = [
    { from: [-BASE_HALF[0], 0.002, front], to: [BASE_HALF[0] + 0.1, 0.002, front], tickDir: [0, 0, 1], minor: 0.01, major: 0.1 },
    { from: [-BASE_HALF[0] - 0.004, 0, front], to: [-BASE_HALF[0] - 0.004, roundTo(hi[1] + 0.02, 3), front], tickDir: [-1, 0, 0], minor: 0.01, major: 0.1 },
  ];
  const frame = yawQuat(scene.frameYawDeg);
  return makeInstance(family, tier, seed, {
    title: 'Helical wire',
    rules: rulesText(scene, tier),
    tools: heldPartToolSpecs(m4Tools(frame)),
    camera: {
      initial: { azimuth: 25, elevation: 24, distance: roundTo(radius / Math.sin((20 * Math.PI) / 180), 3), target: [roundTo(centre[0], 3), roundTo(centre[1], 3), roundTo(centre[2], 3)] },
      elevationRange: [-10, 90],
    },
    rulers,
    ground: { y: 0, color: '#6f7782' },
    budgets: { turns: 100, actionsPerTurn: 5, actions: TIERS[tier].actions },
    dynamic: false,
    scoring: 'graded',
    scene,
    reveal: {
      plan: 'Keep the ring square to the wire and centred on it: slide it up the riser, and through each bend or turn use short moves that advance the ring along the wire while turning it to stay square to the wire (for a helix, a screw-like move per part of a turn); at the free end, push it off along the end.',
    },
  });
}

/** The instance of (seed, tier): drawn until every shortcut filter passes. */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier): Instance<M4Scene> {
  return generateFiltered((attempt) => draw(family, seed, tier, attempt), SHORTCUT_FILTERS);
}
