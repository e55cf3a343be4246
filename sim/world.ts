/**
 * The physical world: a thin, task-agnostic wrapper over Rapier (`@dimforge/rapier3d-compat`).
 *
 * - Y-up, SI units, a fixed internal time step (default 1/240 s).
 * - **Deliberation-frozen clock**: world time advances only in {@link World.advance} (and in the
 *   calls documented as advancing it: {@link World.settle}, {@link World.loadTest}). Reading
 *   state, sweeping, describing, snapshotting, or wall-clock time between calls advance nothing.
 * - Named bodies, named frames (optionally attached to bodies) and named joints.
 * - **Swept motion** ({@link World.sweep}, {@link World.moveSwept}): continuous collision,
 *   workspace and topology checks along an SE(3) path (see `sim/sweep.ts`).
 * - **Violations and rollback**: {@link World.attempt} snapshots, runs an action and on the first
 *   {@link ViolationError} keeps the violating scene and restores the snapshot exactly.
 * - **State hash** ({@link World.stateHash}) over every body's exact pose and velocity bits,
 *   the clock, frames, joints, extension state and the task's `meta` bag.
 *
 * Bad input to any method throws a {@link SpaceActError} before anything changes.
 */
import { createHash } from 'node:crypto';
import RAPIER from '@dimforge/rapier3d-compat';
import { canonicalJson } from '../core/canonical-json.ts';
import { SpaceActError } from '../core/errors.ts';
import { ViolationError } from './violation.ts';
import { applyMaterial, resolveMaterial } from './materials.ts';
import { clonePose, composePose, inverseTransformPoint, qangle, qconj, qrotate, relativePose, transformPoint, vdist, vscale } from './math.ts';
import { boxCorners, colliderDesc, compileShape, localAabb, shapeAabb, unionAabb, validateShape, type Aabb, type CompiledShape } from './shapes.ts';
import { compileScaled, QUERY_SCALE, QuerySpace, scalePose } from './query-space.ts';
import { sweepPath, type SweepObstacle } from './sweep.ts';
import type { BodyKind, BodySpec, Material, Pose, SceneBody, Vec3, Violation } from './types.ts';
import { IDENTITY_QUAT } from './types.ts';
import * as valid from './validate.ts';

export type { Aabb } from './shapes.ts';

/** Options of {@link World.create}. */
export interface WorldOptions {
  /** Internal fixed step, seconds. Default 1/240. */
  timestep?: number;
  /** m/s². Default `[0, -9.81, 0]`. */
  gravity?: Vec3;
  /** Optional world box; a swept move whose body leaves it is a `workspace` violation. */
  workspace?: { min: Vec3; max: Vec3 };
  /**
   * Rapier's contact natural frequency, Hz. Default 120 (Rapier's own default is 30, whose soft
   * contacts let a harmonic block stack lean by a centimetre and fall short of the analytic
   * critical overhang; at 120 it stands up to 99.5 % and falls from 100.5 %).
   */
  contactNaturalFrequency?: number;
  /** Rapier's length unit: the typical size of a dynamic object in metres (default 1). */
  lengthUnit?: number;
  /** Rapier solver iterations per step (default 4). */
  solverIterations?: number;
  /** Distance under which two shapes count as touching in sweeps and contact queries. Default 1e-4 m. */
  contactTolerance?: number;
  /**
   * Let bodies at rest fall asleep (Rapier's sleeping). Default false: Rapier's threshold
   * (0.4 m/s × lengthUnit for 2 s) froze a block sliding slowly down an incline (1.3 cm instead
   * of 77 cm in 4 s). Scenes with many parts resting for long (a peg puzzle) may turn it on for
   * speed when no slow motion matters.
   */
  allowSleep?: boolean;
}

/** Result of a swept check ({@link World.sweep}, {@link World.moveSwept}). */
export interface SweepResult {
  /** Whether something stopped the move (contact, workspace exit or topology). */
  hit: boolean;
  /** Fraction 0..1 of the path travelled before the stop; 1 if free. */
  toi: number;
  /** Bodies in contact at the stop (collision) or named by the violation. */
  bodies: string[];
  /** Contact point at the stop, if any. */
  point?: Vec3;
  /** The last pose on the path verified collision-free (the target if free). */
  lastFreePose: Pose;
  /** Where the body ends if the move is executed: the target if free, else `lastFreePose`. */
  reached: Pose;
  violation?: Violation;
}

/** Options of {@link World.sweep} and {@link World.moveSwept}. */
export interface SweepOptions {
  /** Bodies the moving body may touch (e.g. the support it rests on, a gripper). */
  exclude?: string[];
  /** Largest rotation per cast segment, degrees (default 5). */
  maxSegmentAngleDeg?: number;
  /**
   * Count what the body touches at its start as ordinary obstacles, so a move that starts in
   * contact stops at once. Default false: lifting off a support or sliding along a neighbour is
   * free, pressing into it is a contact (see `sim/sweep.ts`).
   */
  strictInitialContacts?: boolean;
}

/** A joint between two named bodies. Anchor and axis are given in world coordinates now. */
export interface JointSpec {
  name: string;
  type: 'fixed' | 'revolute' | 'spherical';
  bodyA: string;
  bodyB: string;
  /** World point where the bodies are pinned together. */
  anchor: Vec3;
  /** World axis of a revolute joint. */
  axis?: Vec3;
  /** Whether the two bodies still collide with each other (default true; bricks use false). */
  contacts?: boolean;
  /**
   * Solve the joint in reduced coordinates (a Rapier multibody joint): exactly rigid, where
   * impulse joints in long chains sag (a 30-brick column of fixed impulse joints sinks 4 mm).
   * Multibody joints must form a forest: `bodyB` must be dynamic, must not already have a
   * multibody parent and must not be in `bodyA`'s tree. Default false.
   */
  multibody?: boolean;
}

/** Extension state saved and restored with every snapshot (e.g. the brick registry). */
export interface SnapshotParticipant {
  /** Returns JSON-compatible state; it is deep-copied by the world. */
  save(): unknown;
  /** Replaces the extension's state with a copy of what `save()` returned. */
  load(state: unknown): void;
}

/** Options of {@link World.settle}. */
export interface SettleOptions {
  /** Simulated seconds to settle; default 0.5. */
  seconds?: number;
  /** Largest accepted translation of a body origin, metres; default 0.002. */
  linearTol?: number;
  /** Largest accepted rotation, degrees; default 1. */
  angularTolDeg?: number;
  /** Bodies to watch; default every dynamic body. */
  bodies?: string[];
}

/** Options of {@link World.loadTest}. Exactly one of `mass` and `force` is given. */
export interface LoadTestOptions {
  /** The body the load hangs on. */
  body: string;
  /** World point (now) where the load acts; it moves with the body during the test. */
  point: Vec3;
  /** A hanging mass, kg: the load is `mass × gravity`. */
  mass?: number;
  /** A force, newtons. */
  force?: Vec3;
  /** Simulated seconds the load is applied. */
  seconds: number;
  /** Bodies whose motion decides hold/fail; default every dynamic body. */
  watch?: string[];
  /** Largest accepted displacement of any watched body's bounding-box corner, metres; default 0.002. */
  linearTol?: number;
}

/** Outcome of {@link World.loadTest}. */
export interface LoadTestResult {
  held: boolean;
  /** Largest final displacement of a bounding-box corner of a watched body, metres. */
  maxDisplacement: number;
  /** Watched bodies that moved more than the tolerance, largest first. */
  moved: string[];
  message: string;
}

/** An opaque, exact copy of the world state; see {@link World.snapshot}. */
export interface WorldSnapshot {
  readonly worldId: number;
  /** Size of the Rapier snapshot, bytes. */
  readonly byteLength: number;
}

interface BodyRecord {
  readonly spec: BodySpec;
  readonly kind: BodyKind;
  readonly color: string;
  readonly handle: number;
  readonly colliders: readonly number[];
  readonly shapes: readonly CompiledShape[];
  /** The shapes in query space (scaled by QUERY_SCALE). */
  readonly scaled: CompiledShape[];
  readonly material: Material;
  readonly local: Aabb;
}

interface FrameRecord {
  readonly pose: Pose;
  readonly parent?: string;
}

interface JointRecord {
  readonly spec: JointSpec;
  readonly handle: number;
}

interface SnapshotData extends WorldSnapshot {
  readonly bytes: Uint8Array;
  readonly steps: number;
  readonly meta: string;
  readonly bodies: Map<string, BodyRecord>;
  readonly frames: Map<string, FrameRecord>;
  readonly joints: Map<string, JointRecord>;
  readonly extensions: Map<string, string>;
}

interface ActiveLoad {
  handle: number;
  localPoint: Vec3;
  force: Vec3;
}

const DEFAULT_COLOR = '#9aa0a6';
/** Contact natural frequency used unless the options say otherwise, Hz. */
export const DEFAULT_CONTACT_FREQUENCY = 120;
const WORLD_FRAME = 'world';
const MAX_ADVANCE_SECONDS = 3600;
const MAX_IMPULSE = 1e3;
const MAX_FORCE = 1e5;
/** Most drawn-only shapes per body (a 256 × 256 baseplate has 65 536 studs). */
const MAX_VISUAL_SHAPES = 100000;

let rapierReady: Promise<void> | undefined;
let nextWorldId = 1;

function rv(v: Vec3): RAPIER.Vector {
  return { x: v[0], y: v[1], z: v[2] };
}
function rq(q: readonly number[]): RAPIER.Rotation {
  return { x: q[0], y: q[1], z: q[2], w: q[3] };
}
function tv(v: RAPIER.Vector): Vec3 {
  return [v.x, v.y, v.z];
}

/** The simulated world. Create with {@link World.create}; release with {@link World.free}. */
export class World {
  /** Internal fixed step, seconds. */
  readonly timestep: number;
  /**
   * A JSON bag where tasks keep discrete state (e.g. which puzzle move was made). It is part of
   * every snapshot and of the state hash; keep it JSON (finite numbers, strings, arrays, objects).
   */
  meta: Record<string, unknown> = {};

  private raw: RAPIER.World;
  private readonly id = nextWorldId++;
  private readonly g: Vec3;
  private readonly allowSleep: boolean;
  private readonly workspace?: Aabb;
  /** Distance under which two shapes count as touching (sweeps, contact queries), metres. */
  readonly contactTolerance: number;
  private stepCount = 0;
  private bodies = new Map<string, BodyRecord>();
  private frames = new Map<string, FrameRecord>();
  private joints = new Map<string, JointRecord>();
  private readonly extensions = new Map<string, SnapshotParticipant>();
  private readonly topology = new Map<string, (world: World) => Violation | null>();
  private readonly listeners: Array<(world: World) => void> = [];
  private loads: ActiveLoad[] = [];
  private staticObstacles = new Map<string, SweepObstacle[]>();
  private readonly queries = new QuerySpace();
  private poseOverride: { name: string; pose: Pose } | null = null;
  private stepping = false;
  private freed = false;

  private constructor(raw: RAPIER.World, timestep: number, gravity: Vec3, workspace: Aabb | undefined, contactTolerance: number, allowSleep: boolean) {
    this.raw = raw;
    this.allowSleep = allowSleep;
    this.timestep = timestep;
    this.g = gravity;
    this.workspace = workspace;
    this.contactTolerance = contactTolerance;
  }

  /** Creates a world; the first call in a process initialises Rapier's WASM module. */
  static async create(opts: WorldOptions = {}): Promise<World> {
    const o = valid.plainObject(opts, 'options');
    const timestep = o.timestep === undefined ? 1 / 240 : valid.finiteNumber(o.timestep, 'options.timestep', { above: 0, max: 0.1 });
    const gravity = o.gravity === undefined ? ([0, -9.81, 0] as Vec3) : valid.vec3(o.gravity, 'options.gravity', 1e3);
    let workspace: Aabb | undefined;
    if (o.workspace !== undefined) {
      const w = valid.plainObject(o.workspace, 'options.workspace');
      const min = valid.vec3(w.min, 'options.workspace.min');
      const max = valid.vec3(w.max, 'options.workspace.max');
      for (let i = 0; i < 3; i++) if (!(max[i] > min[i])) valid.invalid(`options.workspace.max[${i}]`, 'must be greater than min', max[i]);
      workspace = { min, max };
    }
    const frequency = o.contactNaturalFrequency === undefined ? undefined : valid.finiteNumber(o.contactNaturalFrequency, 'options.contactNaturalFrequency', { above: 0, max: 1e4 });
    const lengthUnit = o.lengthUnit === undefined ? undefined : valid.finiteNumber(o.lengthUnit, 'options.lengthUnit', { above: 0, max: 1e3 });
    const iterations = o.solverIterations === undefined ? undefined : valid.finiteNumber(o.solverIterations, 'options.solverIterations', { min: 1, max: 100, integer: true });
    const tolerance = o.contactTolerance === undefined ? 1e-4 : valid.finiteNumber(o.contactTolerance, 'options.contactTolerance', { above: 0, max: 0.01 });
    const allowSleep = o.allowSleep === undefined ? false : valid.booleanValue(o.allowSleep, 'options.allowSleep');
    rapierReady ??= RAPIER.init();
    await rapierReady;
    const raw = new RAPIER.World(rv(gravity));
    raw.timestep = timestep;
    if (lengthUnit !== undefined) raw.lengthUnit = lengthUnit;
    raw.integrationParameters.contact_natural_frequency = frequency ?? DEFAULT_CONTACT_FREQUENCY;
    if (iterations !== undefined) raw.numSolverIterations = iterations;
    return new World(raw, timestep, gravity, workspace, tolerance, allowSleep);
  }

  /** Gravity, m/s². */
  get gravity(): Vec3 {
    return [...this.g];
  }

  /** The workspace box, if any. */
  get workspaceBox(): Aabb | undefined {
    return this.workspace ? { min: [...this.workspace.min], max: [...this.workspace.max] } : undefined;
  }

  // ---------------------------------------------------------------- clock

  /** Simulated seconds since creation: `steps × timestep`. */
  get time(): number {
    return this.stepCount * this.timestep;
  }

  /** Number of internal steps taken since creation. */
  get steps(): number {
    return this.stepCount;
  }

  /**
   * Advances world time by `seconds`, rounded to the nearest whole number of steps. The only
   * way time passes (settle and load tests call it). Step listeners run after every step.
   */
  advance(seconds: number): void {
    this.alive();
    const s = valid.finiteNumber(seconds, 'seconds', { min: 0, max: MAX_ADVANCE_SECONDS });
    if (this.stepping) throw new SpaceActError('invalid-state', 'advance() cannot be called from a step listener');
    const n = Math.round(s / this.timestep);
    this.stepping = true;
    try {
      for (let i = 0; i < n; i++) {
        if (this.loads.length) this.applyLoads();
        this.raw.step();
        this.stepCount++;
        for (const fn of this.listeners) fn(this);
      }
    } finally {
      this.stepping = false;
    }
  }

  /**
   * Registers `fn` to run after every internal step (to record strobe samples, or to apply a
   * force as `applyImpulse(name, force × timestep)`). Returns a function that removes it.
   * Listeners are configuration, not state: snapshots do not save them.
   */
  addStepListener(fn: (world: World) => void): () => void {
    this.alive();
    if (typeof fn !== 'function') valid.invalid('listener', 'expected a function', fn);
    this.listeners.push(fn);
    return () => {
      const i = this.listeners.indexOf(fn);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  // ---------------------------------------------------------------- bodies

  /** Adds a body. Throws on a duplicate name or an invalid spec (nothing is added then). */
  addBody(spec: BodySpec): void {
    this.alive();
    const s = this.validateSpec(spec);
    const desc = s.kind === 'dynamic' ? RAPIER.RigidBodyDesc.dynamic() : s.kind === 'static' ? RAPIER.RigidBodyDesc.fixed() : RAPIER.RigidBodyDesc.kinematicPositionBased();
    desc.setTranslation(s.pose.p[0], s.pose.p[1], s.pose.p[2]).setRotation(rq(s.pose.q)).setCanSleep(this.allowSleep);
    if (s.ccd) desc.setCcdEnabled(true);
    const rb = this.raw.createRigidBody(desc);
    const material = resolveMaterial(s.material, 'spec.material');
    const colliders = s.shapes.map((shape) => {
      const cd = applyMaterial(colliderDesc(shape), material);
      if (s.collides === false) cd.setSensor(true);
      return this.raw.createCollider(cd, rb).handle;
    });
    const shapes = s.shapes.map(compileShape);
    this.bodies.set(s.name, {
      spec: s,
      kind: s.kind,
      color: s.color ?? DEFAULT_COLOR,
      handle: rb.handle,
      colliders,
      shapes,
      scaled: compileScaled(s.shapes),
      material,
      local: localAabb(shapes),
    });
  }

  /** Removes a body, its joints and the frames attached to it. */
  removeBody(name: string): void {
    const rec = this.record(name, 'name');
    this.raw.removeRigidBody(this.raw.getRigidBody(rec.handle));
    this.queries.remove(rec.shapes);
    this.bodies.delete(name);
    this.staticObstacles.delete(name);
    for (const [j, jr] of this.joints) if (jr.spec.bodyA === name || jr.spec.bodyB === name) this.joints.delete(j);
    for (const [f, fr] of this.frames) if (fr.parent === name) this.frames.delete(f);
  }

  /** Whether a body of that name exists. */
  hasBody(name: string): boolean {
    return typeof name === 'string' && this.bodies.has(name);
  }

  /** Names of all bodies in creation order. */
  bodyNames(): string[] {
    return [...this.bodies.keys()];
  }

  /** The body's spec as created (creation pose), with its current kind and colour. */
  bodySpec(name: string): BodySpec {
    const rec = this.record(name, 'name');
    return { ...structuredClone(rec.spec), kind: rec.kind, color: rec.color };
  }

  /** Current kind of a body. */
  bodyKind(name: string): BodyKind {
    return this.record(name, 'name').kind;
  }

  /** Current world pose of a body. */
  getPose(name: string): Pose {
    const rec = this.record(name, 'name');
    if (this.poseOverride && this.poseOverride.name === name) return clonePose(this.poseOverride.pose);
    const rb = this.raw.getRigidBody(rec.handle);
    const r = rb.rotation();
    return { p: tv(rb.translation()), q: [r.x, r.y, r.z, r.w] };
  }

  /** Teleports a body (scene setup; no collision check); a moving body ends at rest. */
  setPose(name: string, pose: Pose): void {
    const rec = this.record(name, 'name');
    const p = valid.pose(pose, 'pose');
    this.placeBody(rec, name, p);
  }

  /** Linear (m/s) and angular (rad/s) velocity of a body. */
  getVelocity(name: string): { linear: Vec3; angular: Vec3 } {
    const rb = this.raw.getRigidBody(this.record(name, 'name').handle);
    return { linear: tv(rb.linvel()), angular: tv(rb.angvel()) };
  }

  /** Sets the velocity of a dynamic body. */
  setVelocity(name: string, linear: Vec3, angular: Vec3): void {
    const rec = this.record(name, 'name');
    const l = valid.vec3(linear, 'linear', valid.MAX_SPEED);
    const a = valid.vec3(angular, 'angular', valid.MAX_ANGLE);
    if (rec.kind !== 'dynamic') valid.invalid('name', `'${name}' is ${rec.kind}; only dynamic bodies have a velocity to set`, name);
    const rb = this.raw.getRigidBody(rec.handle);
    rb.setLinvel(rv(l), true);
    rb.setAngvel(rv(a), true);
  }

  /**
   * Changes how a body takes part in the simulation, e.g. grasp (`dynamic → kinematic`) and
   * release (`kinematic → dynamic`). The body keeps its pose and starts at rest.
   */
  setKind(name: string, kind: BodyKind): void {
    const rec = this.record(name, 'name');
    const k = valid.oneOf(kind, 'kind', ['dynamic', 'static', 'kinematic'] as const);
    if (k !== 'static' && rec.spec.shapes.some((s) => s.type === 'mesh')) valid.invalid('kind', `'${name}' has a triangle mesh and must stay static`, k);
    if (k === rec.kind) return;
    if ([...this.joints.values()].some((j) => j.spec.multibody && (j.spec.bodyA === name || j.spec.bodyB === name))) {
      throw new SpaceActError('invalid-state', `'${name}' is part of a multibody joint; remove the joint before changing its kind`, { name });
    }
    const rb = this.raw.getRigidBody(rec.handle);
    const type = k === 'dynamic' ? RAPIER.RigidBodyType.Dynamic : k === 'static' ? RAPIER.RigidBodyType.Fixed : RAPIER.RigidBodyType.KinematicPositionBased;
    rb.setBodyType(type, true);
    rb.setLinvel(rv([0, 0, 0]), true);
    rb.setAngvel(rv([0, 0, 0]), true);
    if (k === 'kinematic') {
      rb.setNextKinematicTranslation(rb.translation());
      rb.setNextKinematicRotation(rb.rotation());
    }
    this.bodies.set(name, { ...rec, kind: k });
    this.staticObstacles.delete(name);
  }

  /** Changes the rendering colour of a body (not part of the physical state). */
  setColor(name: string, color: string): void {
    const rec = this.record(name, 'name');
    const c = valid.cssColor(color, 'color');
    this.bodies.set(name, { ...rec, color: c });
  }

  /** Mass of a body from its colliders' density and volume, kg (defined for every kind of body). */
  mass(name: string): number {
    const rec = this.record(name, 'name');
    let m = 0;
    for (const h of rec.colliders) m += this.raw.getCollider(h).mass();
    return m;
  }

  /** World position of a body's centre of mass. */
  centerOfMass(name: string): Vec3 {
    const rec = this.record(name, 'name');
    return tv(this.raw.getRigidBody(rec.handle).worldCom());
  }

  /** Exact world AABB of a body's shapes now (its colliders; drawn-only `visual` shapes are left out). */
  bodyAabb(name: string): Aabb {
    const rec = this.record(name, 'name');
    const pose = this.getPose(name);
    return unionAabb(rec.shapes.map((sh) => shapeAabb(sh, pose)));
  }

  /** Material of a body's colliders. */
  material(name: string): Material {
    return { ...this.record(name, 'name').material };
  }

  /** Applies an impulse (N·s) to a dynamic body, at its centre of mass or at a world point. */
  applyImpulse(name: string, impulse: Vec3, point?: Vec3): void {
    const rec = this.record(name, 'name');
    const j = valid.vec3(impulse, 'impulse', MAX_IMPULSE);
    const p = point === undefined ? undefined : valid.vec3(point, 'point');
    if (rec.kind !== 'dynamic') valid.invalid('name', `'${name}' is ${rec.kind}; impulses only move dynamic bodies`, name);
    const rb = this.raw.getRigidBody(rec.handle);
    if (p) rb.applyImpulseAtPoint(rv(j), rv(p), true);
    else rb.applyImpulse(rv(j), true);
  }

  // ---------------------------------------------------------------- frames

  /**
   * Defines (or redefines) a named frame: a pose in the world, or relative to `parentBody` so
   * that it moves with that body. The name `world` is reserved for the world frame.
   */
  defineFrame(name: string, pose: Pose, parentBody?: string): void {
    this.alive();
    const n = valid.nonEmptyString(name, 'name', 100);
    if (n === WORLD_FRAME) valid.invalid('name', `'${WORLD_FRAME}' is the reserved world frame`, n);
    const p = valid.pose(pose, 'pose');
    if (parentBody !== undefined) this.record(parentBody, 'parentBody');
    this.frames.set(n, parentBody === undefined ? { pose: p } : { pose: p, parent: parentBody });
  }

  /** Removes a frame. */
  removeFrame(name: string): void {
    this.frame(name);
    this.frames.delete(name);
  }

  /** Whether a frame of that name exists (`world` always does). */
  hasFrame(name: string): boolean {
    return name === WORLD_FRAME || this.frames.has(name);
  }

  /** Names of the defined frames (without `world`). */
  frameNames(): string[] {
    return [...this.frames.keys()];
  }

  /** World pose of a frame now. */
  framePose(name: string): Pose {
    if (name === WORLD_FRAME) return { p: [0, 0, 0], q: [...IDENTITY_QUAT] };
    const f = this.frame(name);
    return f.parent ? composePose(this.getPose(f.parent), f.pose) : clonePose(f.pose);
  }

  /** A pose given in `frame` expressed in the world. */
  toWorld(frame: string, local: Pose): Pose {
    const f = this.framePose(frame);
    return composePose(f, valid.pose(local, 'local'));
  }

  /** A world pose expressed in `frame`. */
  fromWorld(frame: string, worldPose: Pose): Pose {
    const f = this.framePose(frame);
    return relativePose(f, valid.pose(worldPose, 'worldPose'));
  }

  // ---------------------------------------------------------------- joints

  /** Adds a joint pinning two bodies together as they are now. */
  addJoint(spec: JointSpec): void {
    this.alive();
    const s = valid.plainObject(spec, 'joint');
    const name = valid.nonEmptyString(s.name, 'joint.name', 200);
    if (this.joints.has(name)) valid.invalid('joint.name', `a joint named '${name}' already exists`, name);
    const type = valid.oneOf(s.type, 'joint.type', ['fixed', 'revolute', 'spherical'] as const);
    const a = this.record(s.bodyA as string, 'joint.bodyA');
    const b = this.record(s.bodyB as string, 'joint.bodyB');
    if (s.bodyA === s.bodyB) valid.invalid('joint.bodyB', 'a joint needs two different bodies', s.bodyB);
    const anchor = valid.vec3(s.anchor, 'joint.anchor');
    const axis = type === 'revolute' ? valid.direction(s.axis, 'joint.axis') : undefined;
    const pa = this.getPose(s.bodyA as string);
    const pb = this.getPose(s.bodyB as string);
    const a1 = rv(inverseTransformPoint(pa, anchor));
    const a2 = rv(inverseTransformPoint(pb, anchor));
    let data: RAPIER.JointData;
    if (type === 'fixed') data = RAPIER.JointData.fixed(a1, rq(qconj(pa.q)), a2, rq(qconj(pb.q)));
    else if (type === 'spherical') data = RAPIER.JointData.spherical(a1, a2);
    else data = RAPIER.JointData.revoluteWithAxes(a1, a2, rv(qrotate(qconj(pa.q), axis!)), rv(qrotate(qconj(pb.q), axis!)));
    const contacts = s.contacts === undefined ? true : valid.booleanValue(s.contacts, 'joint.contacts');
    const multibody = s.multibody === undefined ? false : valid.booleanValue(s.multibody, 'joint.multibody');
    if (multibody) {
      // Rapier aborts (and corrupts its state) on an invalid multibody insertion: check first.
      const bodyB = s.bodyB as string;
      if (b.kind !== 'dynamic') valid.invalid('joint.bodyB', `a multibody joint's second body must be dynamic ('${bodyB}' is ${b.kind})`, bodyB);
      if (this.multibodyParent(bodyB) !== undefined) valid.invalid('joint.bodyB', `'${bodyB}' already has a multibody parent`, bodyB);
      if (this.multibodyRoot(s.bodyA as string) === bodyB) valid.invalid('joint.bodyB', `a multibody joint from '${String(s.bodyA)}' to '${bodyB}' would close a loop`, bodyB);
    }
    const rbA = this.raw.getRigidBody(a.handle);
    const rbB = this.raw.getRigidBody(b.handle);
    const joint = multibody ? this.raw.createMultibodyJoint(data, rbA, rbB, true) : this.raw.createImpulseJoint(data, rbA, rbB, true);
    if (!contacts) joint.setContactsEnabled(false);
    const clean: JointSpec = { name, type, bodyA: s.bodyA as string, bodyB: s.bodyB as string, anchor, ...(axis ? { axis } : {}), ...(contacts ? {} : { contacts }), ...(multibody ? { multibody } : {}) };
    this.joints.set(name, { spec: clean, handle: joint.handle });
  }

  /** Removes a joint; the bodies are woken so they can move apart. */
  removeJoint(name: string): void {
    const j = this.joints.get(name);
    if (!j) throw new SpaceActError('invalid-argument', `name: there is no joint named '${String(name)}'`, { name });
    if (j.spec.multibody) this.raw.removeMultibodyJoint(this.raw.getMultibodyJoint(j.handle), true);
    else this.raw.removeImpulseJoint(this.raw.getImpulseJoint(j.handle), true);
    this.joints.delete(name);
  }

  /** Whether a joint of that name exists. */
  hasJoint(name: string): boolean {
    return this.joints.has(name);
  }

  /** Joint names in creation order. */
  jointNames(): string[] {
    return [...this.joints.keys()];
  }

  /** A joint's spec as created. */
  jointSpec(name: string): JointSpec {
    const j = this.joints.get(name);
    if (!j) throw new SpaceActError('invalid-argument', `name: there is no joint named '${String(name)}'`, { name });
    return structuredClone(j.spec);
  }

  // ---------------------------------------------------------------- swept motion

  /**
   * Checks moving `name` from its pose to `target` along the SE(3) path (linear position, slerp
   * rotation) without changing anything. Contacts with any body other than the mover and
   * `exclude` stop it, as does leaving the workspace or a topology predicate failing at a
   * sample point. Time does not advance.
   */
  sweep(name: string, target: Pose, opts: SweepOptions = {}): SweepResult {
    const rec = this.record(name, 'name');
    const to = valid.pose(target, 'target');
    const o = valid.plainObject(opts, 'opts');
    const exclude = new Set<string>([name]);
    if (o.exclude !== undefined) valid.arrayOf(o.exclude, 'opts.exclude', 0, 10000).forEach((e, i) => exclude.add(this.nameOf(e, `opts.exclude[${i}]`)));
    const maxDeg = o.maxSegmentAngleDeg === undefined ? 5 : valid.finiteNumber(o.maxSegmentAngleDeg, 'opts.maxSegmentAngleDeg', { min: 0.1, max: 90 });
    if (rec.shapes.some((s) => !s.query)) valid.invalid('name', `'${name}' has a triangle mesh; only convex shapes can be swept`, name);
    const strict = o.strictInitialContacts === undefined ? false : valid.booleanValue(o.strictInitialContacts, 'opts.strictInitialContacts');
    const from = this.getPose(name);
    // The sweep runs in the scaled query space (see sim/query-space.ts); results are scaled back.
    const k = QUERY_SCALE;
    const ws = this.workspace;
    const outcome = sweepPath({
      shapes: rec.scaled,
      from: scalePose(from, k),
      to: scalePose(to, k),
      obstacles: this.obstacles(exclude),
      tolerance: this.contactTolerance * k,
      maxSegmentAngle: (maxDeg * Math.PI) / 180,
      workspace: ws ? { min: vscale(ws.min, k), max: vscale(ws.max, k) } : undefined,
      strictInitialContacts: strict,
      topology: this.topology.size ? (pose) => this.topologyAt(name, scalePose(pose, 1 / k)) : undefined,
      topologyStep: { length: 0.005 * k, angle: (5 * Math.PI) / 180 },
    });
    if (outcome.point) outcome.point = vscale(outcome.point, 1 / k);
    outcome.lastFree = scalePose(outcome.lastFree, 1 / k);
    const pct = Math.round(outcome.toi * 100);
    let violation: Violation | undefined;
    if (outcome.kind === 'collision') {
      const others = outcome.bodies.length ? outcome.bodies.map((b) => `'${b}'`).join(', ') : 'another body';
      violation = { kind: 'collision', bodies: [name, ...outcome.bodies], point: outcome.point, toi: outcome.toi, message: `'${name}' would touch ${others} after ${pct}% of the move; it stops just before the contact.` };
    } else if (outcome.kind === 'workspace') {
      violation = { kind: 'workspace', bodies: [name], toi: outcome.toi, message: `'${name}' would leave the workspace after ${pct}% of the move.` };
    } else if (outcome.kind === 'topology' && outcome.topologyViolation) {
      const v = outcome.topologyViolation;
      violation = { ...v, bodies: v.bodies.includes(name) ? v.bodies : [name, ...v.bodies], toi: outcome.toi };
    }
    const hit = outcome.kind !== 'free';
    return {
      hit,
      toi: outcome.toi,
      bodies: outcome.bodies,
      ...(outcome.point ? { point: outcome.point } : {}),
      lastFreePose: hit ? outcome.lastFree : clonePose(to),
      reached: hit ? clonePose(outcome.lastFree) : clonePose(to),
      ...(violation ? { violation } : {}),
    };
  }

  /**
   * Moves `name` to `target` along the swept path. If the sweep is free the body ends at the
   * target; otherwise it is left at the last collision-free pose and a {@link ViolationError}
   * is thrown (the caller's {@link World.attempt} restores the world). Takes no world time;
   * kinematic bodies end at rest.
   */
  moveSwept(name: string, target: Pose, opts: SweepOptions = {}): SweepResult {
    const result = this.sweep(name, target, opts);
    this.placeBody(this.record(name, 'name'), name, result.reached);
    if (result.violation) throw new ViolationError(result.violation);
    return result;
  }

  /** Bodies whose colliders are within the contact tolerance of `name`'s colliders now. */
  contactsOf(name: string): string[] {
    this.record(name, 'name');
    const out = new Set<string>();
    for (const n of this.bodies.keys()) {
      if (n !== name && !out.has(n) && this.bodies.get(n)!.spec.collides !== false && this.separation(name, n, this.contactTolerance) <= this.contactTolerance) out.add(n);
    }
    return [...out].sort();
  }

  /**
   * Signed distance between two bodies' colliders now, metres (negative: penetration depth),
   * or `Infinity` if farther apart than `maxDistance` (default 1 m).
   */
  distance(nameA: string, nameB: string, maxDistance = 1): number {
    this.record(nameA, 'nameA');
    this.record(nameB, 'nameB');
    const max = valid.finiteNumber(maxDistance, 'maxDistance', { min: 0, max: 1e3 });
    return this.separation(nameA, nameB, max);
  }

  // ---------------------------------------------------------------- topology

  /**
   * Adds a named predicate that a task family keeps true (e.g. "the ring stays on the wire").
   * It returns a violation (kind `topology` is typical) or null. Predicates run along swept
   * moves (at sample poses, with the moving body's pose as seen by `getPose` set to the sample)
   * and in {@link World.checkTopology}. They must only read the world.
   */
  addTopologyPredicate(name: string, predicate: (world: World) => Violation | null): void {
    this.alive();
    const n = valid.nonEmptyString(name, 'name', 100);
    if (typeof predicate !== 'function') valid.invalid('predicate', 'expected a function', predicate);
    this.topology.set(n, predicate);
  }

  /** Removes a topology predicate. */
  removeTopologyPredicate(name: string): void {
    if (!this.topology.delete(name)) throw new SpaceActError('invalid-argument', `name: there is no topology predicate named '${String(name)}'`, { name });
  }

  /** Runs every topology predicate on the current state; the first violation or null. */
  checkTopology(): Violation | null {
    this.alive();
    for (const fn of this.topology.values()) {
      const v = fn(this);
      if (v) return v;
    }
    return null;
  }

  // ---------------------------------------------------------------- statics

  /**
   * Lets the world run for a bounded time and reports a `statics` violation naming every
   * watched body that moved more than the tolerance (largest motion first), or null.
   * Advances world time by `seconds`.
   */
  settle(opts: SettleOptions = {}): Violation | null {
    this.alive();
    const o = valid.plainObject(opts, 'opts');
    const seconds = o.seconds === undefined ? 0.5 : valid.finiteNumber(o.seconds, 'opts.seconds', { min: 0, max: 60 });
    const linearTol = o.linearTol === undefined ? 0.002 : valid.finiteNumber(o.linearTol, 'opts.linearTol', { above: 0, max: 10 });
    const angularTolDeg = o.angularTolDeg === undefined ? 1 : valid.finiteNumber(o.angularTolDeg, 'opts.angularTolDeg', { above: 0, max: 180 });
    const watch = o.bodies === undefined ? this.dynamicBodies() : valid.arrayOf(o.bodies, 'opts.bodies', 0, 10000).map((b, i) => this.nameOf(b, `opts.bodies[${i}]`));
    const before = new Map(watch.map((n) => [n, this.getPose(n)]));
    this.advance(seconds);
    const moved: Array<{ name: string; dist: number; angle: number }> = [];
    for (const [n, p0] of before) {
      const p1 = this.getPose(n);
      const dist = vdist(p0.p, p1.p);
      const angle = (qangle(p0.q, p1.q) * 180) / Math.PI;
      if (dist > linearTol || angle > angularTolDeg) moved.push({ name: n, dist, angle });
    }
    if (!moved.length) return null;
    moved.sort((a, b) => b.dist - a.dist || b.angle - a.angle || (a.name < b.name ? -1 : 1));
    const parts = moved.slice(0, 5).map((m) => `'${m.name}' moved ${(m.dist * 1000).toFixed(1)} mm and turned ${m.angle.toFixed(1)}°`);
    return {
      kind: 'statics',
      bodies: moved.map((m) => m.name),
      message: `Not stable: within ${seconds} s ${parts.join(', ')}${moved.length > 5 ? ` (and ${moved.length - 5} more)` : ''}.`,
    };
  }

  /**
   * Hangs a known mass (or applies a force) at a point of a body for `seconds` and reports
   * whether the watched bodies held still (every bounding-box corner moved at most `linearTol`).
   * Advances world time; the world is left as the test ends (wrap it in snapshot/restore to undo).
   */
  loadTest(opts: LoadTestOptions): LoadTestResult {
    this.alive();
    const o = valid.plainObject(opts, 'opts');
    const body = this.nameOf(o.body, 'opts.body');
    const rec = this.record(body, 'opts.body');
    const point = valid.vec3(o.point, 'opts.point');
    if ((o.mass === undefined) === (o.force === undefined)) valid.invalid('opts.mass', 'give exactly one of mass and force', o.mass);
    const force = o.mass !== undefined ? vscale(this.g, valid.finiteNumber(o.mass, 'opts.mass', { above: 0, max: 1e4 })) : valid.vec3(o.force, 'opts.force', MAX_FORCE);
    const seconds = valid.finiteNumber(o.seconds, 'opts.seconds', { above: 0, max: 60 });
    const linearTol = o.linearTol === undefined ? 0.002 : valid.finiteNumber(o.linearTol, 'opts.linearTol', { above: 0, max: 10 });
    const watch = o.watch === undefined ? this.dynamicBodies() : valid.arrayOf(o.watch, 'opts.watch', 0, 10000).map((b, i) => this.nameOf(b, `opts.watch[${i}]`));
    if (rec.kind !== 'dynamic') valid.invalid('opts.body', `'${body}' is ${rec.kind}; a load on it cannot move anything`, body);
    const before = new Map(watch.map((n) => [n, this.corners(n)]));
    const load: ActiveLoad = { handle: rec.handle, localPoint: inverseTransformPoint(this.getPose(body), point), force };
    this.loads.push(load);
    try {
      this.advance(seconds);
    } finally {
      this.loads = this.loads.filter((l) => l !== load);
      const rb = this.raw.getRigidBody(rec.handle);
      rb.resetForces(true);
      rb.resetTorques(true);
    }
    const moved: Array<{ name: string; d: number }> = [];
    let maxDisplacement = 0;
    for (const [n, c0] of before) {
      const c1 = this.corners(n);
      const d = Math.max(...c0.map((c, i) => vdist(c, c1[i])));
      maxDisplacement = Math.max(maxDisplacement, d);
      if (d > linearTol) moved.push({ name: n, d });
    }
    moved.sort((a, b) => b.d - a.d || (a.name < b.name ? -1 : 1));
    const held = moved.length === 0;
    const magnitude = Math.hypot(force[0], force[1], force[2]);
    const message = held
      ? `Held: a ${magnitude.toFixed(2)} N load on '${body}' for ${seconds} s moved nothing more than ${(linearTol * 1000).toFixed(1)} mm.`
      : `Failed: under a ${magnitude.toFixed(2)} N load on '${body}', ${moved.slice(0, 5).map((m) => `'${m.name}' moved ${(m.d * 1000).toFixed(1)} mm`).join(', ')}.`;
    return { held, maxDisplacement, moved: moved.map((m) => m.name), message };
  }

  // ---------------------------------------------------------------- snapshots and rollback

  /**
   * Registers extension state (such as the brick registry) to save and restore with every
   * snapshot and to include in the state hash.
   */
  registerParticipant(key: string, participant: SnapshotParticipant): void {
    this.alive();
    const k = valid.nonEmptyString(key, 'key', 100);
    if (this.extensions.has(k)) valid.invalid('key', `a participant named '${k}' is already registered`, k);
    this.extensions.set(k, participant);
  }

  /** An exact copy of the state: bodies, velocities, joints, clock, frames, kinds, colours, meta, extensions. Takes no time. */
  snapshot(): WorldSnapshot {
    this.alive();
    const bytes = this.raw.takeSnapshot();
    const data: SnapshotData = {
      worldId: this.id,
      byteLength: bytes.byteLength,
      bytes,
      steps: this.stepCount,
      meta: canonicalJson(this.meta, 'meta'),
      bodies: new Map(this.bodies),
      frames: new Map(this.frames),
      joints: new Map(this.joints),
      extensions: new Map([...this.extensions].map(([k, p]) => [k, canonicalJson(p.save(), k)])),
    };
    return data;
  }

  /** Restores a snapshot of this world exactly (the state hash equals the one at snapshot time). */
  restore(s: WorldSnapshot): void {
    this.alive();
    const data = s as SnapshotData;
    if (!data || data.worldId !== this.id || !(data.bytes instanceof Uint8Array)) {
      throw new SpaceActError('invalid-argument', 'snapshot: not a snapshot of this world', {});
    }
    const raw = RAPIER.World.restoreSnapshot(data.bytes);
    this.raw.free();
    this.raw = raw;
    this.stepCount = data.steps;
    this.meta = JSON.parse(data.meta) as Record<string, unknown>;
    this.bodies = new Map(data.bodies);
    this.frames = new Map(data.frames);
    this.joints = new Map(data.joints);
    for (const [k, p] of this.extensions) {
      const saved = data.extensions.get(k);
      if (saved !== undefined) p.load(JSON.parse(saved));
    }
    this.loads = [];
    this.staticObstacles.clear();
    this.queries.prune(new Set([...this.bodies.values()].map((r) => r.shapes)));
    this.poseOverride = null;
  }

  /**
   * Runs an action under rollback: snapshot, run `fn`, then check the topology predicates. On a
   * {@link ViolationError} (or a failed predicate) capture the violating scene, restore the
   * snapshot and return the violation; on any other error restore and rethrow.
   */
  attempt<T>(fn: () => T): { ok: true; value: T } | { ok: false; violation: Violation; violatingScene: SceneBody[] } {
    const snap = this.snapshot();
    try {
      const value = fn();
      const broken = this.checkTopology();
      if (broken) throw new ViolationError(broken);
      return { ok: true, value };
    } catch (err) {
      if (err instanceof ViolationError) {
        const violatingScene = this.describe();
        this.restore(snap);
        return { ok: false, violation: err.violation, violatingScene };
      }
      this.restore(snap);
      throw err;
    }
  }

  /**
   * Hex SHA-256 over the sorted body names, kinds, exact float bits of poses and velocities,
   * the clock, frames, joints, extension state and the canonical JSON of `meta`. Body specs
   * (shapes, drawn-only `visual` shapes, colours) are not hashed: they are fixed at creation.
   */
  stateHash(): string {
    this.alive();
    const h = createHash('sha256');
    const names = [...this.bodies.keys()].sort();
    const nums = new Float64Array(13);
    for (const n of names) {
      const rec = this.bodies.get(n)!;
      const rb = this.raw.getRigidBody(rec.handle);
      const t = rb.translation();
      const r = rb.rotation();
      const l = rb.linvel();
      const a = rb.angvel();
      nums.set([t.x, t.y, t.z, r.x, r.y, r.z, r.w, l.x, l.y, l.z, a.x, a.y, a.z]);
      h.update(`body:${n}:${rec.kind};`);
      h.update(new Uint8Array(nums.buffer));
    }
    h.update(`clock:${this.stepCount}:`);
    h.update(new Uint8Array(new Float64Array([this.time]).buffer));
    for (const n of [...this.frames.keys()].sort()) h.update(`frame:${n}:${canonicalJson(this.frames.get(n))};`);
    for (const n of [...this.joints.keys()].sort()) h.update(`joint:${canonicalJson(this.joints.get(n)!.spec)};`);
    for (const k of [...this.extensions.keys()].sort()) h.update(`ext:${k}:${canonicalJson(this.extensions.get(k)!.save(), k)};`);
    h.update(`meta:${canonicalJson(this.meta, 'meta')}`);
    return h.digest('hex');
  }

  /** Plain JSON of every body for the renderer (creation order), drawn-only shapes in `visual`. */
  describe(): SceneBody[] {
    this.alive();
    return [...this.bodies.entries()].map(([name, rec]) => {
      const body: SceneBody = {
        name,
        shapes: structuredClone(rec.spec.shapes),
        pose: this.getPose(name),
        color: rec.color,
        opacity: rec.spec.opacity ?? 1,
        visible: rec.spec.visible ?? true,
      };
      if (rec.spec.visual) body.visual = structuredClone(rec.spec.visual);
      return body;
    });
  }

  /** Releases the WASM memory. The world cannot be used afterwards. */
  free(): void {
    if (this.freed) return;
    this.raw.free();
    this.queries.free();
    this.freed = true;
  }

  // ---------------------------------------------------------------- internals

  private alive(): void {
    if (this.freed) throw new SpaceActError('invalid-state', 'this world has been freed');
  }

  private nameOf(value: unknown, path: string): string {
    if (typeof value !== 'string') valid.invalid(path, `expected a body name, got ${typeof value}`, value);
    this.record(value, path);
    return value;
  }

  private record(name: string, path: string): BodyRecord {
    this.alive();
    const rec = typeof name === 'string' ? this.bodies.get(name) : undefined;
    if (!rec) {
      const known = [...this.bodies.keys()];
      throw new SpaceActError('unknown-body', `${path}: there is no body named ${JSON.stringify(String(name))}`, { path, name: String(name), known: known.slice(0, 50) });
    }
    return rec;
  }

  private frame(name: string): FrameRecord {
    this.alive();
    const f = typeof name === 'string' ? this.frames.get(name) : undefined;
    if (!f) throw new SpaceActError('unknown-frame', `frame: there is no frame named ${JSON.stringify(String(name))}`, { name: String(name), known: [WORLD_FRAME, ...this.frames.keys()] });
    return f;
  }

  private validateSpec(spec: BodySpec): BodySpec {
    const s = valid.plainObject(spec, 'spec');
    const name = valid.nonEmptyString(s.name, 'spec.name', 100);
    if (this.bodies.has(name)) valid.invalid('spec.name', `a body named '${name}' already exists`, name);
    const kind = valid.oneOf(s.kind, 'spec.kind', ['dynamic', 'static', 'kinematic'] as const);
    const pose = valid.pose(s.pose, 'spec.pose');
    const shapes = valid.arrayOf(s.shapes, 'spec.shapes', 1, 10000).map((sh, i) => validateShape(sh, `spec.shapes[${i}]`, kind));
    resolveMaterial(s.material, 'spec.material');
    const out: BodySpec = { name, kind, pose, shapes };
    if (s.material !== undefined) out.material = structuredClone(s.material as BodySpec['material']);
    if (s.color !== undefined) out.color = valid.cssColor(s.color, 'spec.color');
    if (s.opacity !== undefined) out.opacity = valid.finiteNumber(s.opacity, 'spec.opacity', { min: 0, max: 1 });
    if (s.visible !== undefined) out.visible = valid.booleanValue(s.visible, 'spec.visible');
    if (s.collides !== undefined) out.collides = valid.booleanValue(s.collides, 'spec.collides');
    if (s.ccd !== undefined) out.ccd = valid.booleanValue(s.ccd, 'spec.ccd');
    if (s.tags !== undefined) out.tags = valid.arrayOf(s.tags, 'spec.tags', 0, 100).map((t, i) => valid.nonEmptyString(t, `spec.tags[${i}]`, 100));
    if (s.visual !== undefined) {
      // Validated as on a static body: a drawn-only mesh needs no mass, whatever the body's kind.
      const visual = valid.arrayOf(s.visual, 'spec.visual', 0, MAX_VISUAL_SHAPES).map((sh, i) => validateShape(sh, `spec.visual[${i}]`, 'static'));
      if (visual.length) out.visual = visual;
    }
    return out;
  }

  private placeBody(rec: BodyRecord, name: string, pose: Pose): void {
    const rb = this.raw.getRigidBody(rec.handle);
    rb.setTranslation(rv(pose.p), true);
    rb.setRotation(rq(pose.q), true);
    if (rec.kind === 'kinematic') {
      rb.setNextKinematicTranslation(rv(pose.p));
      rb.setNextKinematicRotation(rq(pose.q));
    }
    if (rec.kind !== 'static') {
      rb.setLinvel(rv([0, 0, 0]), true);
      rb.setAngvel(rv([0, 0, 0]), true);
    }
    this.raw.propagateModifiedBodyPositionsToColliders();
    this.staticObstacles.delete(name);
  }

  private dynamicBodies(): string[] {
    return [...this.bodies.entries()].filter(([, r]) => r.kind === 'dynamic').map(([n]) => n);
  }

  private corners(name: string): Vec3[] {
    const rec = this.bodies.get(name)!;
    const pose = this.getPose(name);
    const half: Vec3 = [(rec.local.max[0] - rec.local.min[0]) / 2, (rec.local.max[1] - rec.local.min[1]) / 2, (rec.local.max[2] - rec.local.min[2]) / 2];
    const centre: Vec3 = [(rec.local.max[0] + rec.local.min[0]) / 2, (rec.local.max[1] + rec.local.min[1]) / 2, (rec.local.max[2] + rec.local.min[2]) / 2];
    return boxCorners(half, composePose(pose, { p: centre, q: [0, 0, 0, 1] }));
  }

  private applyLoads(): void {
    for (const l of this.loads) {
      const rb = this.raw.getRigidBody(l.handle);
      const r = rb.rotation();
      const p = transformPoint({ p: tv(rb.translation()), q: [r.x, r.y, r.z, r.w] }, l.localPoint);
      // addForceAtPoint accumulates a torque too: both accumulators are reset every step.
      rb.resetForces(false);
      rb.resetTorques(false);
      rb.addForceAtPoint(rv(l.force), rv(p), true);
    }
  }

  /** Query-space colliders of every body not in `exclude`, with their AABBs (static ones cached). */
  private obstacles(exclude: Set<string>): SweepObstacle[] {
    const out: SweepObstacle[] = [];
    for (const [name, rec] of this.bodies) {
      if (exclude.has(name) || rec.spec.collides === false) continue;
      let list = rec.kind === 'static' ? this.staticObstacles.get(name) : undefined;
      if (!list) {
        const e = this.queries.sync(name, rec.shapes, rec.scaled, this.getPose(name));
        list = e.colliders.map((collider, i) => ({ body: name, collider, convex: e.convex[i], aabb: e.aabbs[i] }));
        if (rec.kind === 'static') this.staticObstacles.set(name, list);
      }
      out.push(...list);
    }
    return out;
  }

  /** Smallest signed distance between two bodies (metres), or Infinity beyond `max`. */
  private separation(a: string, b: string, max: number): number {
    const k = QUERY_SCALE;
    const ra = this.bodies.get(a)!;
    const rb = this.bodies.get(b)!;
    const ea = this.queries.sync(a, ra.shapes, ra.scaled, this.getPose(a));
    const eb = this.queries.sync(b, rb.shapes, rb.scaled, this.getPose(b));
    const reach = max * k;
    let best = Infinity;
    ea.shapes.forEach((sa, i) => {
      eb.shapes.forEach((sb, j) => {
        const A = ea.aabbs[i];
        const B = eb.aabbs[j];
        if (A.max[0] + reach < B.min[0] || B.max[0] + reach < A.min[0] || A.max[1] + reach < B.min[1] || B.max[1] + reach < A.min[1] || A.max[2] + reach < B.min[2] || B.max[2] + reach < A.min[2]) return;
        // Ask with whichever side has a convex query shape (a mesh has none).
        const [collider, shape, at] = sa.query ? [eb.colliders[j], sa.query, ea.colliders[i]] : [ea.colliders[i], sb.query, eb.colliders[j]];
        if (!shape) return;
        const c = collider.contactShape(shape, at.translation(), at.rotation(), reach);
        if (c && c.distance / k < best) best = c.distance / k;
      });
    });
    return best <= max ? best : Infinity;
  }

  private multibodyParent(body: string): string | undefined {
    for (const j of this.joints.values()) if (j.spec.multibody && j.spec.bodyB === body) return j.spec.bodyA;
    return undefined;
  }

  private multibodyRoot(body: string): string {
    let at = body;
    for (let parent = this.multibodyParent(at); parent !== undefined; parent = this.multibodyParent(at)) at = parent;
    return at;
  }

  private topologyAt(name: string, pose: Pose): Violation | null {
    this.poseOverride = { name, pose };
    try {
      return this.checkTopology();
    } finally {
      this.poseOverride = null;
    }
  }
}
