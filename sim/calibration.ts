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
 * - **group turn**, **gear pair**, **prismatic**, **lateral push**: the primitives of issue 14
 *   against hand calculations (see each function).
 */
import { pinGear } from './gears.ts';
import { qaxisAngle, qrotate, vadd, vscale } from './math.ts';
import type { Vec3 } from './types.ts';
import { World } from './world.ts';

/** One measured-vs-expected line. */
export interface CalibrationResult {
  scene: 'free-fall' | 'incline' | 'overhang' | 'pendulum' | 'group-turn' | 'gear-pair' | 'prismatic' | 'lateral-push';
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
/** Length of the calibration's loose blocks, m. */
const BLOCK_LENGTH = 2 * BLOCK[0];
/**
 * Largest block displacement (m) after 2 s for a harmonic stack of `blocks` loose blocks whose
 * overhangs are scaled by `fraction` (blocks `length` long, 2 cm high and 5 cm deep): block k from the top reaches `fraction · L / (2k)` past the
 * one below it (the bottom block past the table edge), so at `fraction` 1 every level's load sits
 * exactly over the far end of what it rests on. A block that tips falls metres in 2 s; a stack
 * that stands only settles by contact compliance (millimetres).
 */
async function harmonicStackMotion(blocks: number, fraction: number, length = BLOCK_LENGTH): Promise<number> {
  const half: Vec3 = [length / 2, BLOCK[1], BLOCK[2]];
  const world = await World.create();
  try {
    // Table top at y = 0 with its right edge at x = 0.
    world.addBody({ name: 'table', kind: 'static', pose: { p: [-0.5, -0.05, 0], q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half: [0.5, 0.05, 0.5] }] });
    // Right end of block k from the bottom: the cumulative offsets from the table edge.
    let edge = 0;
    const starts: Vec3[] = [];
    for (let k = 0; k < blocks; k++) {
      edge += (fraction * length) / (2 * (blocks - k));
      const p: Vec3 = [edge - half[0], half[1] * (2 * k + 1), 0];
      starts.push(p);
      world.addBody({ name: `block${k + 1}`, kind: 'dynamic', pose: { p, q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half }], material: { friction: 0.6 } });
    }
    world.advance(2);
    return Math.max(...starts.map((s, k) => Math.hypot(...(vadd(world.getPose(`block${k + 1}`).p, vscale(s, -1)) as [number, number, number]))));
  } finally {
    world.free();
  }
}


/** Largest block displacement (m) after 2 s for the four-block harmonic stack scaled by `fraction`. */
function overhangMotion(fraction: number): Promise<number> {
  return harmonicStackMotion(4, fraction);
}

/** Harmonic overhang: stands at 95 %, falls at 105 %, critical overhang by bisection. */
export async function overhang(): Promise<CalibrationResult[]> {
  const L = 2 * BLOCK[0];
  const theory = (L / 2) * (1 + 1 / 2 + 1 / 3 + 1 / 4);
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

/**
 * Group turn: four touching 0.1 m cubes filling x, y ∈ [0, 0.2] turned about +Z through the
 * external pivot (−0.05, −0.05) towards a face at x = −0.1. The corner (0, 0.2), at
 * r = √(0.05² + 0.25²) from the pivot and angle α₀ = atan2(0.25, 0.05), reaches it first at
 * φ* = acos(−0.05 / r) − α₀ ≈ 22.62°. The swept group must stop there (arc error at the corner
 * within the contact tolerance, i.e. about 0.023° here).
 */
export async function groupTurn(): Promise<CalibrationResult[]> {
  const world = await World.create({ gravity: [0, 0, 0] });
  try {
    const group: string[] = [];
    for (const x of [0.05, 0.15]) {
      for (const y of [0.05, 0.15]) {
        const name = `cube-${x}-${y}`;
        world.addBody({ name, kind: 'kinematic', pose: { p: [x, y, 0], q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half: [0.05, 0.05, 0.05] }] });
        group.push(name);
      }
    }
    world.addBody({ name: 'fifth', kind: 'static', pose: { p: [-0.2, 0.3, 0], q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half: [0.1, 0.2, 0.1] }] });
    const r = Math.hypot(0.05, 0.25);
    const expected = ((Math.acos(-0.05 / r) - Math.atan2(0.25, 0.05)) * 180) / Math.PI;
    const res = world.sweepGroup(group, { type: 'rotate', pivot: [-0.05, -0.05, 0], axis: [0, 0, 1], angleDeg: 90 });
    const measured = res.toi * 90;
    const rel = relative(measured, expected);
    const arcError = (Math.abs(measured - expected) * Math.PI * r) / 180;
    return [{ scene: 'group-turn', case: '4 touching cubes about an external axis', quantity: 'contact angle (°)', measured, expected, relError: rel, pass: res.hit && res.bodies.join() === 'fifth' && arcError <= world.contactTolerance, detail: `stops ${(arcError * 1e6).toFixed(0)} µm of arc from the first contact (tolerance ${(world.contactTolerance * 1e6).toFixed(0)} µm)` }];
  } finally {
    world.free();
  }
}

/**
 * Gear pair: a 12-pin gear driven by a velocity motor at 90°/s meshing with a 24-pin gear
 * (module 5 mm, `sim/gears.ts`). Over 2.5 s after a 0.5 s spin-up the driven gear must turn by
 * −12/24 of the driver's angle (1 % tolerance, as kinematics demands no slip of meshing teeth).
 */
export async function gearPair(): Promise<CalibrationResult[]> {
  const world = await World.create({ gravity: [0, 0, 0] });
  try {
    const m = 0.005;
    const [za, zb] = [12, 24];
    const [ra, rb] = [(m * za) / 2, (m * zb) / 2];
    world.addBody({ name: 'ground', kind: 'static', pose: { p: [0, 0, 0], q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half: [0.2, 0.01, 0.2] }] });
    world.addBody({ name: 'driver', kind: 'dynamic', pose: { p: [0, 0.1, 0], q: [0, 0, 0, 1] }, shapes: pinGear(za, m, 0), material: { friction: 0 } });
    world.addBody({ name: 'driven', kind: 'dynamic', pose: { p: [ra + rb, 0.1, 0], q: [0, 0, 0, 1] }, shapes: pinGear(zb, m, Math.PI + Math.PI / zb), material: { friction: 0 } });
    world.addJoint({ name: 'axle-a', type: 'revolute', bodyA: 'ground', bodyB: 'driver', anchor: [0, 0.1, 0], axis: [0, 1, 0], contacts: false, motor: { velocity: 90, damping: 200 } });
    world.addJoint({ name: 'axle-b', type: 'revolute', bodyA: 'ground', bodyB: 'driven', anchor: [ra + rb, 0.1, 0], axis: [0, 1, 0], contacts: false });
    const turned = { a: 0, b: 0 };
    let last = { a: 0, b: 0 };
    const wrap = (d: number): number => d - 360 * Math.round(d / 360);
    for (let i = 1; i <= 120; i++) {
      world.advance(1 / 40);
      const now = { a: world.jointPosition('axle-a'), b: world.jointPosition('axle-b') };
      if (i > 20) {
        turned.a += wrap(now.a - last.a);
        turned.b += wrap(now.b - last.b);
      }
      last = now;
    }
    const measured = turned.b / turned.a;
    const expected = -za / zb;
    const rel = relative(measured, expected);
    return [{ scene: 'gear-pair', case: '12 → 24 pins, motor at 90°/s', quantity: 'speed ratio', measured, expected, relError: rel, pass: rel <= 0.01, detail: `driver turned ${turned.a.toFixed(1)}° in 2.5 s; tolerance 1 %` }];
  } finally {
    world.free();
  }
}

/**
 * Prismatic joint: a slider driven at 0.2 m/s along a diagonal rail with limits [−0.05, 0.1] m
 * for 2 s (0.4 m unlimited) must end at the upper limit, then at the lower one when reversed.
 */
export async function prismaticLimits(): Promise<CalibrationResult[]> {
  const world = await World.create({ gravity: [0, 0, 0] });
  try {
    const h = Math.SQRT1_2;
    world.addBody({ name: 'rail', kind: 'static', pose: { p: [0, 0, 0], q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half: [0.01, 0.01, 0.01] }] });
    world.addBody({ name: 'slider', kind: 'dynamic', pose: { p: [0, 0.1, 0], q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half: [0.02, 0.02, 0.02] }] });
    world.addJoint({ name: 'slide', type: 'prismatic', bodyA: 'rail', bodyB: 'slider', anchor: [0, 0.1, 0], axis: [h, 0, h], limits: [-0.05, 0.1], motor: { velocity: 0.2 }, contacts: false });
    world.advance(2);
    const upper = world.jointPosition('slide');
    world.setJointMotor('slide', { velocity: -0.2 });
    world.advance(2);
    const lower = world.jointPosition('slide');
    const line = (c: string, measured: number, expected: number): CalibrationResult => ({ scene: 'prismatic', case: c, quantity: 'displacement (m)', measured, expected, relError: relative(measured, expected), pass: Math.abs(measured - expected) <= 0.001, detail: 'within 1 mm of the limit' });
    return [line('motor at +0.2 m/s for 2 s, limit 0.1 m', upper, 0.1), line('reversed for 2 s, limit −0.05 m', lower, -0.05)];
  } finally {
    world.free();
  }
}

/**
 * Lateral push: a 0.1 × 0.2 × 0.1 m block (μ = 0.9) pushed horizontally at height e by a force
 * ramped to 2 W·c/e over 20 s tips when F·e = W·c (c = 0.05 m, half its width): F* = W·c/e.
 */
export async function lateralPush(): Promise<CalibrationResult[]> {
  const world = await World.create();
  try {
    world.addBody({ name: 'floor', kind: 'static', pose: { p: [0, -0.05, 0], q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half: [1, 0.05, 1] }], material: { friction: 0.9 } });
    world.addBody({ name: 'block', kind: 'dynamic', pose: { p: [0, 0.1, 0], q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half: [0.05, 0.1, 0.05] }], material: { friction: 0.9 } });
    world.advance(0.3);
    const W = world.mass('block') * G;
    const out: CalibrationResult[] = [];
    for (const e of [0.1, 0.15, 0.19]) {
      const snap = world.snapshot();
      const expected = (W * 0.05) / e;
      const r = world.rampLoadTest({ body: 'block', point: [-0.05, e, 0], force: [2 * expected, 0, 0], seconds: 20 });
      const measured = r.failureForce ?? Infinity;
      const rel = relative(measured, expected);
      out.push({ scene: 'lateral-push', case: `push at e = ${e} m`, quantity: 'tipping force (N)', measured, expected, relError: rel, pass: rel <= CALIBRATION_TOLERANCE, detail: 'W·c/e, ramp to 2× over 20 s' });
      world.restore(snap);
    }
    return out;
  } finally {
    world.free();
  }
}

/** Runs every calibration scene in a fixed order. */
export async function runCalibration(): Promise<CalibrationResult[]> {
  return [
    ...(await freeFall()),
    ...(await incline()),
    ...(await overhang()),
    ...(await pendulum()),
    ...(await groupTurn()),
    ...(await gearPair()),
    ...(await prismaticLimits()),
    ...(await lateralPush()),
  ];
}
