/**
 * Physics-world benchmarks, each against a baseline measured in the same run:
 *
 * - **stepping**: `World.advance` on a 50-body pile vs a raw Rapier loop stepping an identical
 *   world (same colliders, materials and integration settings). Target ratio ≥ 0.9.
 * - **sweep**: a swept 6-DoF check of a held bar moving 1 m while turning 90° through a scene of
 *   50 bodies. Target ≤ 2 ms.
 * - **group sweep**: four touching cubes turned 90° about an external axis, as a ratio to one cube
 *   turned by the same motion and to the bar's 6-DoF sweep in the same run.
 * - **snapshot / restore** of that scene and of a 50-brick wall (with the brick registry), next to
 *   Rapier's own `takeSnapshot` / `restoreSnapshot`.
 * - **bricks**: placing a brick and the statics LP of a 50-brick wall.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import { BRICK_WORLD_OPTIONS, BrickSystem } from '../sim/bricks.ts';
import { applyMaterial, resolveMaterial } from '../sim/materials.ts';
import { qaxisAngle } from '../sim/math.ts';
import { colliderDesc } from '../sim/shapes.ts';
import type { BodySpec, Pose, ShapeSpec } from '../sim/types.ts';
import { DEFAULT_CONTACT_FREQUENCY, World } from '../sim/world.ts';
import { Rng } from '../core/rng.ts';

const TIMESTEP = 1 / 240;
const GRAVITY = { x: 0, y: -9.81, z: 0 };

/** A floor, four walls and 50 mixed dynamic bodies dropped into the pen. */
function pileScene(): BodySpec[] {
  const rng = new Rng('bench/sim');
  const rand = (): number => rng.next();
  const I: Pose['q'] = [0, 0, 0, 1];
  const specs: BodySpec[] = [
    { name: 'floor', kind: 'static', pose: { p: [0, -0.05, 0], q: I }, shapes: [{ type: 'box', half: [1, 0.05, 1] }] },
    { name: 'wall-e', kind: 'static', pose: { p: [0.55, 0.25, 0], q: I }, shapes: [{ type: 'box', half: [0.05, 0.25, 0.6] }] },
    { name: 'wall-w', kind: 'static', pose: { p: [-0.55, 0.25, 0], q: I }, shapes: [{ type: 'box', half: [0.05, 0.25, 0.6] }] },
    { name: 'wall-n', kind: 'static', pose: { p: [0, 0.25, 0.55], q: I }, shapes: [{ type: 'box', half: [0.6, 0.25, 0.05] }] },
    { name: 'wall-s', kind: 'static', pose: { p: [0, 0.25, -0.55], q: I }, shapes: [{ type: 'box', half: [0.6, 0.25, 0.05] }] },
  ];
  for (let i = 0; i < 50; i++) {
    const s = 0.03 + 0.03 * rand();
    const shape: ShapeSpec =
      i % 4 === 0
        ? { type: 'cylinder', radius: s, halfHeight: s }
        : i % 4 === 1
          ? { type: 'ball', radius: s }
          : i % 4 === 2
            ? { type: 'hull', points: [[-s, 0, -s], [s, 0, -s], [0, 0, s], [0, 1.5 * s, 0], [0.3 * s, 0.5 * s, 0.6 * s]] }
            : { type: 'box', half: [s, 0.7 * s, 0.9 * s] };
    const p: Pose['p'] = [-0.4 + 0.8 * rand(), 0.1 + 0.15 * Math.floor(i / 10) + 0.05 * rand(), -0.4 + 0.8 * rand()];
    specs.push({ name: `body-${i}`, kind: 'dynamic', pose: { p, q: qaxisAngle([0, 1, 0], rand() * 3) }, shapes: [shape], material: { friction: 0.5 } });
  }
  return specs;
}

/** The same scene in a bare Rapier world, set up like `World` does. */
function rawWorld(specs: BodySpec[]): RAPIER.World {
  const w = new RAPIER.World(GRAVITY);
  w.timestep = TIMESTEP;
  w.integrationParameters.contact_natural_frequency = DEFAULT_CONTACT_FREQUENCY;
  for (const s of specs) {
    const desc = s.kind === 'dynamic' ? RAPIER.RigidBodyDesc.dynamic() : RAPIER.RigidBodyDesc.fixed();
    const rb = w.createRigidBody(desc.setTranslation(...s.pose.p).setRotation({ x: s.pose.q[0], y: s.pose.q[1], z: s.pose.q[2], w: s.pose.q[3] }).setCanSleep(false));
    const m = resolveMaterial(s.material, 'material');
    for (const shape of s.shapes) w.createCollider(applyMaterial(colliderDesc(shape), m), rb);
  }
  return w;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function percentile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

function round(x: number, digits = 3): number {
  return Number(x.toPrecision(digits));
}

/** Steps per second of the wrapper and of a raw Rapier loop on the same 50-body pile. */
async function stepping(): Promise<Record<string, unknown>> {
  const specs = pileScene();
  const steps = 480;
  const wrapperRates: number[] = [];
  const rawRates: number[] = [];
  // Alternate the two so drift in machine load hits both alike; the first round warms up.
  for (let round_ = 0; round_ < 6; round_++) {
    const world = await World.create({ timestep: TIMESTEP });
    for (const s of specs) world.addBody(s);
    let t = performance.now();
    world.advance(steps * TIMESTEP);
    const wrapper = steps / ((performance.now() - t) / 1000);
    world.free();
    const raw = rawWorld(specs);
    t = performance.now();
    for (let i = 0; i < steps; i++) raw.step();
    const bare = steps / ((performance.now() - t) / 1000);
    raw.free();
    if (round_ > 0) {
      wrapperRates.push(wrapper);
      rawRates.push(bare);
    }
  }
  const ratio = median(wrapperRates.map((w, i) => w / rawRates[i]));
  return {
    bodies: specs.length,
    stepsPerRun: steps,
    wrapperStepsPerSecond: round(median(wrapperRates)),
    rawStepsPerSecond: round(median(rawRates)),
    ratio: round(ratio),
    target: '>= 0.9',
    pass: ratio >= 0.9,
  };
}

/** A swept 6-DoF check: a held bar moves 1 m and turns 90° through the settled pile. */
async function sweep(): Promise<Record<string, unknown>> {
  const world = await World.create({ timestep: TIMESTEP });
  try {
    for (const s of pileScene()) world.addBody(s);
    world.advance(1);
    // A 0.2 m bar crossing the pen diagonally (1 m) above the pile, and one diving into it.
    const d = Math.SQRT1_2 / 2;
    world.addBody({ name: 'held', kind: 'kinematic', pose: { p: [-d, 0.4, -d], q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half: [0.1, 0.02, 0.02] }] });
    const free: Pose = { p: [d, 0.4, d], q: qaxisAngle([0, 1, 0], Math.PI / 2) };
    const blocked: Pose = { p: [d, 0.4 - 1 / Math.SQRT2, d - 1 / Math.SQRT2], q: qaxisAngle([0, 1, 0], Math.PI / 2) };
    if (world.sweep('held', free).hit) throw new Error('bench scene: the free sweep is blocked');
    const times = { free: [] as number[], blocked: [] as number[] };
    let hitBodies: string[] = [];
    let hitToi = 0;
    for (let i = 0; i < 220; i++) {
      for (const [key, target] of [['free', free], ['blocked', blocked]] as const) {
        const t = performance.now();
        const r = world.sweep('held', target);
        const ms = performance.now() - t;
        if (key === 'blocked') [hitToi, hitBodies] = [r.toi, r.bodies];
        if (i >= 20) times[key].push(ms);
      }
    }
    const med = median(times.free);
    return {
      bodies: world.bodyNames().length,
      move: '1 m with a 90° turn of a 0.2 m bar, 5° segments; blocked: 1 m diving into the pile',
      freeMedianMs: round(med),
      freeP90Ms: round(percentile(times.free, 0.9)),
      blockedMedianMs: round(median(times.blocked)),
      blockedToi: round(hitToi, 4),
      blockedBy: hitBodies,
      target: '<= 2 ms',
      pass: med <= 2,
    };
  } finally {
    world.free();
  }
}

/**
 * Group motion: four touching 5 cm cubes turned 90° about an external axis above the pile
 * (`World.sweepGroup`), next to one of those cubes turned alone by the same motion and to the
 * single-body 6-DoF sweep of the held bar, all in the same run.
 */
async function groupSweep(): Promise<Record<string, unknown>> {
  const world = await World.create({ timestep: TIMESTEP });
  try {
    for (const s of pileScene()) world.addBody(s);
    world.advance(1);
    const cubes: string[] = [];
    for (const [i, x] of [-0.05, 0.05].entries()) {
      for (const [j, z] of [-0.05, 0.05].entries()) {
        const name = `cube-${i}${j}`;
        world.addBody({ name, kind: 'kinematic', pose: { p: [x, 0.45, z], q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half: [0.05, 0.05, 0.05] }] });
        cubes.push(name);
      }
    }
    const d = Math.SQRT1_2 / 2;
    world.addBody({ name: 'held', kind: 'kinematic', pose: { p: [-d, 0.3, -d], q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half: [0.1, 0.02, 0.02] }] });
    const barTarget: Pose = { p: [d, 0.3, d], q: qaxisAngle([0, 1, 0], Math.PI / 2) };
    // About the horizontal axis through (0.2, 0.45, 0), the cubes swing up and over it, above the pile.
    const turn = { type: 'rotate' as const, pivot: [0.2, 0.45, 0] as [number, number, number], axis: [0, 0, 1] as [number, number, number], angleDeg: -90 };
    if (world.sweepGroup(cubes, turn, { exclude: ['held'] }).hit) throw new Error('bench scene: the group turn is blocked');
    const times = { group: [] as number[], single: [] as number[], bar: [] as number[] };
    for (let i = 0; i < 120; i++) {
      let t = performance.now();
      world.sweepGroup(cubes, turn, { exclude: ['held'] });
      const group = performance.now() - t;
      t = performance.now();
      world.sweepGroup([cubes[0]], turn, { exclude: ['held', ...cubes.slice(1)] });
      const single = performance.now() - t;
      t = performance.now();
      world.sweep('held', barTarget, { exclude: cubes });
      const bar = performance.now() - t;
      if (i >= 20) {
        times.group.push(group);
        times.single.push(single);
        times.bar.push(bar);
      }
    }
    const [g, one, bar] = [median(times.group), median(times.single), median(times.bar)];
    return {
      move: 'four touching 5 cm cubes turned 90° about an external axis, 5° segments',
      groupMedianMs: round(g),
      oneCubeSameMotionMedianMs: round(one),
      barSweepMedianMs: round(bar),
      groupOverOneCube: round(g / one),
      groupOverBarSweep: round(g / bar),
    };
  } finally {
    world.free();
  }
}

/** Snapshot/restore of the pile and of a 50-brick wall, next to Rapier's own calls. */
async function snapshots(): Promise<Record<string, unknown>> {
  const measure = (world: World): Record<string, number> => {
    const take: number[] = [];
    const back: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 60; i++) {
      let t = performance.now();
      const s = world.snapshot();
      take.push(performance.now() - t);
      bytes = s.byteLength;
      t = performance.now();
      world.restore(s);
      back.push(performance.now() - t);
    }
    return { bytes, snapshotMedianMs: round(median(take.slice(10))), restoreMedianMs: round(median(back.slice(10))) };
  };
  const pile = await World.create({ timestep: TIMESTEP });
  const specs = pileScene();
  for (const s of specs) pile.addBody(s);
  pile.advance(1);
  const pileFigures = measure(pile);
  pile.free();
  const raw = rawWorld(specs);
  for (let i = 0; i < 240; i++) raw.step();
  const rawTake: number[] = [];
  const rawBack: number[] = [];
  for (let i = 0; i < 60; i++) {
    let t = performance.now();
    const bytes = raw.takeSnapshot();
    rawTake.push(performance.now() - t);
    t = performance.now();
    RAPIER.World.restoreSnapshot(bytes).free();
    rawBack.push(performance.now() - t);
  }
  raw.free();
  const { world, wall } = await brickWall();
  const brickFigures = measure(world);
  world.free();
  return {
    pile: { bodies: specs.length, ...pileFigures },
    rawRapierPile: { takeMedianMs: round(median(rawTake.slice(10))), restoreMedianMs: round(median(rawBack.slice(10))) },
    brickWall: { bricks: wall.bricks, connections: wall.connections, ...brickFigures },
  };
}

/** A 50-brick running-bond wall (10 long, 5 high) on a baseplate. */
async function brickWall(): Promise<{ world: World; bricks: BrickSystem; wall: { bricks: number; connections: number; placeMedianMs: number } }> {
  const world = await World.create(BRICK_WORLD_OPTIONS);
  const bricks = new BrickSystem(world);
  bricks.addBaseplate({ name: 'base', size: [32, 32], cell: [0, 0] });
  const place: number[] = [];
  let k = 0;
  for (let layer = 0; layer < 5; layer++) {
    for (let i = 0; i < 10; i++) {
      const t = performance.now();
      bricks.place({ name: `b${k++}`, size: [2, 4], cell: [2 + i * 2 + (layer % 2), 4], rot: 0 });
      place.push(performance.now() - t);
    }
  }
  return { world, bricks, wall: { bricks: k, connections: bricks.connections().length, placeMedianMs: round(median(place)) } };
}

/** Statics LP and placement of the 50-brick wall. */
async function brickFigures(): Promise<Record<string, unknown>> {
  const { world, bricks, wall } = await brickWall();
  try {
    const lp: number[] = [];
    for (let i = 0; i < 8; i++) lp.push(bricks.analyze().millis);
    const settle = performance.now();
    const v = world.settle({ seconds: 1 });
    return {
      ...wall,
      staticsLpMedianMs: round(median(lp)),
      settleOneSecondMs: round(performance.now() - settle),
      settledStill: v === null,
    };
  } finally {
    world.free();
  }
}

/** Runs every sim benchmark and returns the figures. */
export async function benchSim(): Promise<Record<string, unknown>> {
  return {
    stepping: await stepping(),
    sweep: await sweep(),
    groupSweep: await groupSweep(),
    snapshots: await snapshots(),
    bricks: await brickFigures(),
  };
}
