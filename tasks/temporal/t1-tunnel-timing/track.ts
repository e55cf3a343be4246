/**
 * T1 world: the tracks, tunnel, gates, pit and balls as Rapier bodies, plus the gates'
 * programmed motion and the ball–gate contact rule.
 *
 * All episode state is in `world.meta.t1` ({@link T1State}); a gate's pose is a pure function of
 * that state and the world clock, so a snapshot rolls back the gates with everything else.
 */
import type { Pose, ShapeSpec, Vec3 } from '../../../sim/types.ts';
import type { World } from '../../../sim/world.ts';
import { BALL_RADIUS, DECOY_Z, floorY, GATE_GAP, GATE_HEIGHT, GATE_THICKNESS, gateLift, PIT_DEPTH, PIT_LENGTH, type GateName, type T1Scene } from './scene.ts';
import { round9, roundTo } from '../../../core/determinism.ts';

/** Half width of the channel the ball rolls in (5 mm play each side). */
const CHANNEL_HALF = 0.025;
const RAIL_HEIGHT = 0.012;
const RAIL_THICK = 0.007;
/** Half width of a track block across the track. */
const BLOCK_HALF_Z = 0.05;
/** The benches stand on the ground here; everything is drawn down to it. */
export const GROUND_Y = -0.14;
const TUNNEL_INNER = 0.066;
const TUNNEL_ROOF = 0.01;
const TUNNEL_WALL = 0.009;
/** Ruler strip in front of the main track: its z range. */
export const STRIP_Z: [number, number] = [BLOCK_HALF_Z + 0.002, BLOCK_HALF_Z + 0.03];
/** Distance under which the ball counts as touching a gate, metres. */
export const TOUCH_TOLERANCE = 2e-4;

/** Body name of the red ball the gates act on. */
export const BALL = 'ball';
/** Body name of the blue ball on the decoy track (L3+). */
export const DECOY_BALL = 'decoy-ball';
/** Body name of a gate. */
export function gateBody(name: GateName): string {
  return `gate-${name}`;
}

const COLORS = {
  block: '#cdbb94',
  rail: '#8c7a58',
  strip: '#f5f2e8',
  tunnel: '#5d6776',
  gate: '#f2b705',
  ball: '#d42a2a',
  decoyBall: '#2d6cd2',
  pit: '#3fae5a',
  decoyPit: '#a4a9ae',
};

/** One gate's record in the episode state. */
export interface GateState {
  /** World time the gate was fired, or null while unused. */
  firedAt: number | null;
  /** Lift (m) the gate jammed at after touching the ball, or null. */
  jammedAt: number | null;
}

/** The family's episode state, kept in `world.meta.t1`. */
export interface T1State {
  gates: Record<string, GateState>;
  /** Set once the ball has touched a gate: the run has failed for good. */
  failure: { gate: GateName; time: number; lift: number } | null;
  /** Gates the ball has fully passed without touching. */
  passed: GateName[];
}

/** The state bag of a T1 world. */
export function t1State(world: World): T1State {
  return world.meta.t1 as T1State;
}

function q(angleZ: number): [number, number, number, number] {
  return [0, 0, round9(Math.sin(angleZ / 2)), round9(Math.cos(angleZ / 2))];
}

function box(half: Vec3, p: Vec3, angleZ = 0): ShapeSpec {
  return { type: 'box', half: half.map(round9) as Vec3, pose: { p: p.map(round9) as Vec3, q: q(angleZ) } };
}

const ORIGIN: Pose = { p: [0, 0, 0], q: [0, 0, 0, 1] };

/**
 * Boxes that follow the main floor from `xa` to `xb`, `bottom`..`top` metres above its surface,
 * split at the kink and tilted with the slope (rails, walls; the ball never rests on them).
 */
function alongFloor(s: T1Scene, xa: number, xb: number, bottom: number, top: number, z: number, halfZ: number): ShapeSpec[] {
  const cuts = s.kinkX !== null && s.kinkX > xa && s.kinkX < xb ? [xa, s.kinkX, xb] : [xa, xb];
  const out: ShapeSpec[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const a = cuts[i];
    const b = cuts[i + 1];
    const ya = floorY(s, a);
    const yb = floorY(s, b);
    const angle = Math.atan2(yb - ya, b - a);
    const len = Math.hypot(b - a, yb - ya);
    const mid = (bottom + top) / 2;
    const nx = -Math.sin(angle) * mid;
    const ny = Math.cos(angle) * mid;
    out.push(box([len / 2, (top - bottom) / 2, halfZ], [(a + b) / 2 + nx, (ya + yb) / 2 + ny, z], angle));
  }
  return out;
}

/** The closed pose of a gate: an upright slab across the channel, its lower edge just above the floor. */
export function gateClosedPose(s: T1Scene, x: number): Pose {
  const floor = Math.max(floorY(s, x - GATE_THICKNESS / 2), floorY(s, x + GATE_THICKNESS / 2));
  return { p: [x, round9(floor + GATE_GAP + GATE_HEIGHT / 2), 0], q: [0, 0, 0, 1] };
}

/** Half extents of a gate slab: a bar across the whole track block, so it shows from every side. */
export const GATE_HALF: Vec3 = [GATE_THICKNESS / 2, GATE_HEIGHT / 2, BLOCK_HALF_Z];

function addTrackBlock(world: World, name: string, s: T1Scene, z: number, from: number, to: number, level: boolean): void {
  // One collider for the whole rolling surface: a ball crossing the seam between two boxes
  // loses several per cent of its speed in Rapier (measured), so the floor is never split.
  let floor: ShapeSpec;
  if (level || s.kinkX === null) {
    floor = box([(to - from) / 2, -GROUND_Y / 2, BLOCK_HALF_Z], [(from + to) / 2, GROUND_Y / 2, z]);
  } else {
    // Level, then a downhill run: the top profile bends down, so the block stays convex.
    const profile: Array<[number, number]> = [
      [from, 0],
      [s.kinkX, 0],
      [to, floorY(s, to)],
      [to, GROUND_Y],
      [from, GROUND_Y],
    ];
    const points: Vec3[] = [];
    for (const [x, y] of profile) for (const dz of [-BLOCK_HALF_Z, BLOCK_HALF_Z]) points.push([round9(x), round9(y), round9(z + dz)]);
    floor = { type: 'hull', points };
  }
  world.addBody({ name, kind: 'static', pose: ORIGIN, shapes: [floor], color: COLORS.block, material: { friction: 0.6 } });
}

function addPit(world: World, name: string, x0: number, top: number, z: number, color: string): void {
  const x1 = x0 + PIT_LENGTH;
  const bottom = top - PIT_DEPTH;
  const wall = 0.012;
  world.addBody({
    name: `${name}-floor`,
    kind: 'static',
    pose: ORIGIN,
    shapes: [box([PIT_LENGTH / 2, (bottom - GROUND_Y) / 2, BLOCK_HALF_Z], [(x0 + x1) / 2, (bottom + GROUND_Y) / 2, z])],
    color,
    material: { friction: 0.8 },
  });
  world.addBody({
    name: `${name}-walls`,
    kind: 'static',
    pose: ORIGIN,
    shapes: [
      box([wall / 2, (top + 0.02 - GROUND_Y) / 2, BLOCK_HALF_Z], [x1 + wall / 2, (top + 0.02 + GROUND_Y) / 2, z]),
      box([PIT_LENGTH / 2, (top - bottom) / 2, wall / 2], [(x0 + x1) / 2, (top + bottom) / 2, z + BLOCK_HALF_Z - wall / 2]),
      box([PIT_LENGTH / 2, (top - bottom) / 2, wall / 2], [(x0 + x1) / 2, (top + bottom) / 2, z - BLOCK_HALF_Z + wall / 2]),
    ],
    color,
  });
}

function addTunnel(world: World, name: string, s: T1Scene, from: number, to: number, z: number, level: boolean): void {
  const top = level ? 0 : Math.max(floorY(s, from), 0);
  const roofY = top + TUNNEL_INNER;
  const shapes: ShapeSpec[] = [box([(to - from) / 2, TUNNEL_ROOF / 2, CHANNEL_HALF + TUNNEL_WALL], [(from + to) / 2, roofY + TUNNEL_ROOF / 2, z])];
  const ls: T1Scene = level ? { ...s, kinkX: null, slopeDeg: 0 } : s;
  for (const side of [-1, 1]) {
    const wz = z + side * (CHANNEL_HALF + TUNNEL_WALL / 2);
    // Walls reach from the floor up to the roof (taller where the floor has dropped).
    const floorLow = floorY(ls, to);
    shapes.push(...alongFloor(ls, from, to, 0, roofY - floorLow, wz, TUNNEL_WALL / 2));
  }
  world.addBody({ name, kind: 'static', pose: ORIGIN, shapes, color: COLORS.tunnel });
}

function addRails(world: World, name: string, s: T1Scene, ranges: Array<[number, number]>, z: number, level: boolean): void {
  const ls: T1Scene = level ? { ...s, kinkX: null, slopeDeg: 0 } : s;
  const shapes: ShapeSpec[] = [];
  for (const [a, b] of ranges) {
    if (b - a < 1e-3) continue;
    for (const side of [-1, 1]) shapes.push(...alongFloor(ls, a, b, 0, RAIL_HEIGHT, z + side * (CHANNEL_HALF + RAIL_THICK / 2), RAIL_THICK / 2));
  }
  world.addBody({ name, kind: 'static', pose: ORIGIN, shapes, color: COLORS.rail });
}

function addBackWall(world: World, name: string, x: number, z: number): void {
  world.addBody({
    name,
    kind: 'static',
    pose: ORIGIN,
    shapes: [box([0.006, 0.025, BLOCK_HALF_Z], [x + 0.006, 0.025, z])],
    color: COLORS.rail,
  });
}

function addBall(world: World, name: string, x: number, y: number, z: number, speed: number, color: string): void {
  world.addBody({
    name,
    kind: 'dynamic',
    pose: { p: [x, round9(y), z], q: [0, 0, 0, 1] },
    shapes: [{ type: 'ball', radius: BALL_RADIUS }],
    material: { density: 1200, friction: 0.6, restitution: 0 },
    color,
  });
  // Already rolling (no slip), so its speed is steady from the first frame.
  world.setVelocity(name, [speed, 0, 0], [0, 0, -speed / BALL_RADIUS]);
}

/** The x where the pit of the main track begins and ends. */
export function pitRange(s: T1Scene): [number, number] {
  return [s.toX, s.toX + PIT_LENGTH];
}

/** Whether the main ball lies in the pit (fallen below the track's end, inside the pit's walls). */
export function ballInPit(s: T1Scene, p: Vec3): boolean {
  const [x0, x1] = pitRange(s);
  const top = floorY(s, s.toX);
  return p[0] > x0 + BALL_RADIUS * 0.5 && p[0] < x1 && p[1] < top - BALL_RADIUS && Math.abs(p[2]) < BLOCK_HALF_Z;
}

/** Clearance kept between a gate slab and the tunnel or rails next to it, along x. */
const GATE_CLEARANCE = 0.003;

/**
 * Adds every body of the scene and initialises `world.meta.t1`. Gates start closed; balls
 * start rolling at their speeds.
 */
export function buildTrack(world: World, s: T1Scene): void {
  const back = s.fromX;
  addTrackBlock(world, 'track', s, 0, back, s.toX, false);
  const first = s.gates[0].x - GATE_THICKNESS / 2 - GATE_CLEARANCE;
  const last = Math.max(s.tunnelToX, ...s.gates.map((g) => g.x + GATE_THICKNESS / 2 + GATE_CLEARANCE));
  addRails(world, 'rails', s, [[back, first], [last, s.toX]], 0, false);
  addTunnel(world, 'tunnel', s, s.tunnelFromX, s.tunnelToX, 0, false);
  addBackWall(world, 'back-wall', back, 0);
  addPit(world, 'pit', s.toX, floorY(s, s.toX), 0, COLORS.pit);
  // The ruler strip: a level bench in front of the track carrying the ruler.
  world.addBody({
    name: 'ruler-strip',
    kind: 'static',
    pose: ORIGIN,
    shapes: [box([(s.toX + PIT_LENGTH - back) / 2, -GROUND_Y / 2, (STRIP_Z[1] - STRIP_Z[0]) / 2], [(back + s.toX + PIT_LENGTH) / 2, GROUND_Y / 2, (STRIP_Z[0] + STRIP_Z[1]) / 2])],
    color: COLORS.strip,
  });
  const state: T1State = { gates: {}, failure: null, passed: [] };
  for (const g of s.gates) {
    world.addBody({
      name: gateBody(g.name),
      kind: 'kinematic',
      pose: gateClosedPose(s, g.x),
      shapes: [{ type: 'box', half: GATE_HALF }],
      color: COLORS.gate,
    });
    state.gates[g.name] = { firedAt: null, jammedAt: null };
  }
  if (s.decoy) {
    const d = s.decoy;
    addTrackBlock(world, 'decoy-track', s, DECOY_Z, d.fromX, d.toX, true);
    addRails(world, 'decoy-rails', s, [[d.fromX, d.tunnelFromX], [d.tunnelToX, d.toX]], DECOY_Z, true);
    addTunnel(world, 'decoy-tunnel', s, d.tunnelFromX, d.tunnelToX, DECOY_Z, true);
    addBackWall(world, 'decoy-back-wall', d.fromX, DECOY_Z);
    addPit(world, 'decoy-pit', d.toX, 0, DECOY_Z, COLORS.decoyPit);
    addBall(world, DECOY_BALL, d.startX, BALL_RADIUS, DECOY_Z, d.speed, COLORS.decoyBall);
  }
  addBall(world, BALL, s.startX, floorY(s, s.startX) + BALL_RADIUS, 0, s.speed, COLORS.ball);
  world.meta.t1 = state;
}

/** A gate's lift (m) at the world's current time, from the state alone. */
export function currentLift(world: World, s: T1Scene, name: GateName): number {
  const g = t1State(world).gates[name];
  if (g.jammedAt !== null) return g.jammedAt;
  return g.firedAt === null ? 0 : gateLift(world.time - g.firedAt + 1e-9, s.openS);
}

/** Places a gate at `lift` metres above its closed pose. */
export function placeGate(world: World, s: T1Scene, name: GateName, lift: number): void {
  const gate = s.gates.find((g) => g.name === name)!;
  const closed = gateClosedPose(s, gate.x);
  world.setPose(gateBody(name), { p: [closed.p[0], closed.p[1] + lift, closed.p[2]], q: closed.q });
}

/**
 * Installs the step listener that drives the gates and enforces the contact rule: after every
 * step each gate is put where its programme says; if the ball is then within
 * {@link TOUCH_TOLERANCE} of a gate, the gate jams at its lift of the step before (so a closing
 * gate never crushes the ball) and the run is marked failed. Also records gates passed.
 */
export function installGateMechanism(world: World, s: T1Scene): () => void {
  return world.addStepListener((w) => {
    const st = t1State(w);
    const ball = w.getPose(BALL).p;
    for (const g of s.gates) {
      const gs = st.gates[g.name];
      const before = w.getPose(gateBody(g.name)).p[1] - gateClosedPose(s, g.x).p[1];
      const lift = currentLift(w, s, g.name);
      if (Math.abs(lift - before) > 1e-7) placeGate(w, s, g.name, lift);
      if (st.failure || gs.jammedAt !== null) continue;
      const near = Math.abs(ball[0] - g.x) < BALL_RADIUS + GATE_THICKNESS / 2 + 0.005;
      if (near && w.distance(BALL, gateBody(g.name), 0.01) <= TOUCH_TOLERANCE) {
        // Read back from a single-precision pose: round off the float noise (to 1 µm).
        const jam = Math.max(0, roundTo(Math.min(lift, before), 6));
        gs.jammedAt = jam;
        placeGate(w, s, g.name, jam);
        st.failure = { gate: g.name, time: round9(w.time), lift: jam };
        continue;
      }
      if (!st.passed.includes(g.name) && ball[0] - BALL_RADIUS > g.x + GATE_THICKNESS / 2 + 1e-3) st.passed.push(g.name);
    }
  });
}
