/**
 * Calibration of the world against analytic mechanics. Each scene builds a fresh {@link World}
 * with default settings (step 1/240 s) and compares a measured quantity with the closed-form
 * value. Used by `test/sim-calibration.test.ts` and by `spaceact calibrate`.
 *
 * Scenes:
 * - **free fall**: drop distance at t = 0.25, 0.5, 0.75, 1 s vs `g t² / 2`. The integrator's
 *   first-order error shrinks like `timestep / t` (measured 0.4 % at 0.25 s, 0.1 % at 1 s).
 * - **incline**: a block on a plane tilted by θ slips iff `tan θ > μ`; checked at `atan μ ± 3°`.
 *   Below: the block must stay (slip < 1 mm). Above: slip distance after 1 s vs
 *   `g (sin θ − μ cos θ) t² / 2`.
 * - **overhang**: four loose blocks of length L stacked as a harmonic overhang (offsets L/2,
 *   L/4, L/6, L/8 from the top), total overhang `L/2 · (1 + 1/2 + 1/3 + 1/4)`. It must stand at
 *   95 % of that overhang and fall at 105 %; the critical overhang found by bisection is compared
 *   with the theory.
 * - **pendulum**: a rigid rod hanging from a revolute joint at its top end, released from 3°.
 *   It is a *physical* pendulum, so the expected period is `T = 2π √(I / (m g d))` with `I` the
 *   moment of inertia about the pivot (`m (ℓ² + w²)/12 + m d²`) and `d = ℓ/2` the pivot-to-centre
 *   distance — not the point-mass formula `2π √(ℓ/g)`, which would be off by 18 %. The
 *   finite-amplitude correction at 3° (θ₀²/16 ≈ 0.02 %) is negligible.
 */
import { qaxisAngle, qrotate, vadd, vscale } from './math.ts';
import type { Vec3 } from './types.ts';
import { World } from './world.ts';

/** One measured-vs-expected line. */
export interface CalibrationResult {
  scene: 'free-fall' | 'incline' | 'overhang' | 'pendulum';
  /** Which case of the scene, in words. */
  case: string;
  /** What was measured, with its unit. */
  quantity: string;
  measured: number;
  expected: number;
  /**
   * |measured − expected| / |expected|; null where the line is a yes/no check (then `expected`
   * is the zero or the threshold the check compares with).
   */
  relError: number | null;
  pass: boolean;
  detail?: string;
}

/** Largest accepted relative error of a calibration quantity. */
export const CALIBRATION_TOLERANCE = 0.02;

const G = 9.81;

function relative(measured: number, expected: number): number {
  return Math.abs(measured - expected) / Math.abs(expected);
}

/** Free fall: drop distance sampled every 0.25 s for 1 s. */
export async function freeFall(): Promise<CalibrationResult[]> {
  const world = await World.create();
  try {
    world.addBody({ name: 'ball', kind: 'dynamic', pose: { p: [0, 10, 0], q: [0, 0, 0, 1] }, shapes: [{ type: 'ball', radius: 0.05 }] });
    const out: CalibrationResult[] = [];
    for (let k = 1; k <= 4; k++) {
      world.advance(0.25);
      const t = world.time;
      const drop = 10 - world.getPose('ball').p[1];
      const expected = (G * t * t) / 2;
      const rel = relative(drop, expected);
      out.push({ scene: 'free-fall', case: `t = ${t.toFixed(2)} s`, quantity: 'drop (m)', measured: drop, expected, relError: rel, pass: rel <= CALIBRATION_TOLERANCE });
    }
    return out;
  } finally {
    world.free();
  }
}

/** Slip distance (m, along the slope) of a block released on a plane tilted by `deg`. */
async function inclineSlip(deg: number, mu: number, seconds: number): Promise<number> {
  const world = await World.create();
  try {
    const q = qaxisAngle([0, 0, 1], (deg * Math.PI) / 180);
    const planeHalf: Vec3 = [2, 0.05, 0.5];
    const blockHalf: Vec3 = [0.05, 0.025, 0.05];
    const up = qrotate(q, [0, 1, 0]);
    const material = { friction: mu, density: 1000, restitution: 0 };
    world.addBody({ name: 'plane', kind: 'static', pose: { p: [0, 0, 0], q }, shapes: [{ type: 'box', half: planeHalf }], material });
    const start = vscale(up, planeHalf[1] + blockHalf[1]);
    world.addBody({ name: 'block', kind: 'dynamic', pose: { p: start, q }, shapes: [{ type: 'box', half: blockHalf }], material });
    world.advance(seconds);
    const p = world.getPose('block').p;
    const downhill = qrotate(q, [-1, 0, 0]);
    return (p[0] - start[0]) * downhill[0] + (p[1] - start[1]) * downhill[1] + (p[2] - start[2]) * downhill[2];
  } finally {
    world.free();
  }
}

/** Incline: stick at `atan μ − 3°`, slip at `atan μ + 3°` with the analytic distance. */
export async function incline(mu = 0.5, seconds = 1): Promise<CalibrationResult[]> {
  const critical = (Math.atan(mu) * 180) / Math.PI;
  const below = critical - 3;
  const above = critical + 3;
  const stick = await inclineSlip(below, mu, seconds);
  const slip = await inclineSlip(above, mu, seconds);
  const th = (above * Math.PI) / 180;
  const expected = (G * (Math.sin(th) - mu * Math.cos(th)) * seconds * seconds) / 2;
  const rel = relative(slip, expected);
  return [
    {
      scene: 'incline',
      case: `μ = ${mu}, θ = atan μ − 3° = ${below.toFixed(2)}°`,
      quantity: `slip in ${seconds} s (m)`,
      measured: stick,
      expected: 0,
      relError: null,
      pass: Math.abs(stick) < 0.001,
      detail: Math.abs(stick) < 0.001 ? 'stays (tan θ < μ)' : 'slipped although tan θ < μ',
    },
    {
      scene: 'incline',
      case: `μ = ${mu}, θ = atan μ + 3° = ${above.toFixed(2)}°`,
      quantity: `slip in ${seconds} s (m)`,
      measured: slip,
      expected,
      relError: rel,
      pass: rel <= CALIBRATION_TOLERANCE,
      detail: slip > 0.001 ? 'slips (tan θ > μ)' : 'stayed although tan θ > μ',
    },
  ];
}

const BLOCK: Vec3 = [0.05, 0.01, 0.025]; // half extents: L = 0.1 m, height 0.02 m
const HARMONIC = [1 / 2, 1 / 4, 1 / 6, 1 / 8];

/** Largest block displacement (m) after 2 s for a harmonic stack scaled by `fraction`. */
async function overhangMotion(fraction: number): Promise<number> {
  const world = await World.create();
  try {
    const L = 2 * BLOCK[0];
    // Table top at y = 0 with its right edge at x = 0.
    world.addBody({ name: 'table', kind: 'static', pose: { p: [-0.5, -0.05, 0], q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half: [0.5, 0.05, 0.5] }] });
    // Right edge of the block k from the bottom: cumulative offsets from the table edge.
    let edge = 0;
    const starts: Vec3[] = [];
    for (let k = 0; k < 4; k++) {
      edge += HARMONIC[3 - k] * L * fraction;
      const p: Vec3 = [edge - BLOCK[0], BLOCK[1] * (2 * k + 1), 0];
      starts.push(p);
      world.addBody({ name: `block${k + 1}`, kind: 'dynamic', pose: { p, q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half: BLOCK }], material: { friction: 0.6 } });
    }
    world.advance(2);
    return Math.max(...starts.map((s, k) => Math.hypot(...(vadd(world.getPose(`block${k + 1}`).p, vscale(s, -1)) as [number, number, number]))));
  } finally {
    world.free();
  }
}

/** Harmonic overhang: stands at 95 %, falls at 105 %, critical overhang by bisection. */
export async function overhang(): Promise<CalibrationResult[]> {
  const L = 2 * BLOCK[0];
  const theory = L * HARMONIC.reduce((a, b) => a + b, 0);
  // A block that tips falls off the edge (metres within 2 s); a standing stack only settles by
  // contact compliance (about 2 mm at the top), so a quarter block length separates the two.
  const fallen = (d: number): boolean => d > L / 4;
  const at95 = await overhangMotion(0.95);
  const at105 = await overhangMotion(1.05);
  let lo = 0.95;
  let hi = 1.05;
  for (let i = 0; i < 7; i++) {
    const mid = (lo + hi) / 2;
    if (fallen(await overhangMotion(mid))) hi = mid;
    else lo = mid;
  }
  const critical = ((lo + hi) / 2) * theory;
  const rel = relative(critical, theory);
  return [
    { scene: 'overhang', case: '4 blocks at 95 % of the harmonic overhang', quantity: 'largest block motion in 2 s (m)', measured: at95, expected: L / 4, relError: null, pass: !fallen(at95), detail: fallen(at95) ? 'fell' : `stands: settles ${(at95 * 1000).toFixed(1)} mm, below the L/4 fall threshold` },
    { scene: 'overhang', case: '4 blocks at 105 % of the harmonic overhang', quantity: 'largest block motion in 2 s (m)', measured: at105, expected: L / 4, relError: null, pass: fallen(at105), detail: fallen(at105) ? 'falls: moves more than the L/4 threshold' : 'stood' },
    { scene: 'overhang', case: `critical overhang, L = ${L} m`, quantity: 'overhang (m)', measured: critical, expected: theory, relError: rel, pass: rel <= CALIBRATION_TOLERANCE, detail: `bisection between 95 % and 105 % to ±${((0.1 / 2 ** 8) * 100).toFixed(2)} %; blocks μ = 0.6` },
  ];
}

/** Physical pendulum (rigid rod on a revolute joint): period vs `2π √(I / (m g d))`. */
export async function pendulum(): Promise<CalibrationResult[]> {
  const world = await World.create();
  try {
    const length = 0.5;
    const width = 0.02;
    const amplitude = (3 * Math.PI) / 180;
    const pivot: Vec3 = [0, 1, 0];
    const q = qaxisAngle([0, 0, 1], amplitude);
    world.addBody({ name: 'pivot', kind: 'static', pose: { p: pivot, q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half: [0.01, 0.01, 0.01] }], collides: false });
    world.addBody({ name: 'rod', kind: 'dynamic', pose: { p: vadd(pivot, qrotate(q, [0, -length / 2, 0])), q }, shapes: [{ type: 'box', half: [width / 2, length / 2, width / 2] }] });
    world.addJoint({ name: 'hinge', type: 'revolute', bodyA: 'pivot', bodyB: 'rod', anchor: pivot, axis: [0, 0, 1] });
    // Upward zero crossings of the swing angle, interpolated between steps.
    const crossings: number[] = [];
    let prev = amplitude;
    let prevTime = 0;
    const stop = world.addStepListener((w) => {
      const c = w.getPose('rod').p;
      const angle = Math.atan2(c[0] - pivot[0], pivot[1] - c[1]);
      if (prev < 0 && angle >= 0) crossings.push(prevTime + ((w.time - prevTime) * -prev) / (angle - prev));
      prev = angle;
      prevTime = w.time;
    });
    world.advance(8);
    stop();
    const periods = crossings.length - 1;
    const measured = (crossings[crossings.length - 1] - crossings[0]) / periods;
    const m = 1; // cancels
    const d = length / 2;
    const inertia = (m * (length * length + width * width)) / 12 + m * d * d;
    const expected = 2 * Math.PI * Math.sqrt(inertia / (m * G * d));
    const rel = relative(measured, expected);
    const pointMass = 2 * Math.PI * Math.sqrt(length / G);
    return [
      {
        scene: 'pendulum',
        case: `rod ℓ = ${length} m on a revolute joint, 3° amplitude`,
        quantity: 'period (s)',
        measured,
        expected,
        relError: rel,
        pass: rel <= CALIBRATION_TOLERANCE,
        detail: `physical-pendulum formula over ${periods} periods (point-mass formula would give ${pointMass.toFixed(3)} s)`,
      },
    ];
  } finally {
    world.free();
  }
}

/** Runs every calibration scene in a fixed order. */
export async function runCalibration(): Promise<CalibrationResult[]> {
  return [...(await freeFall()), ...(await incline()), ...(await overhang()), ...(await pendulum())];
}
