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
import { clonePose, composePose, inverseTransformPoint, qangle, qaxisAngle, qconj, qrotate, relativePose, transformPoint, vscale } from './math.ts';
import { boxCorners, colliderDesc, compileShape, localAabb, rebaseShape, shapeAabb, unionAabb, validateShape, type Aabb, type CompiledShape } from './shapes.ts';
import { compileScaled, QUERY_SCALE, QuerySpace, scalePose } from './query-space.ts';
import { sweepPath, type SweepObstacle } from './sweep.ts';
import { specRadius, verifiedContact } from './verified-contact.ts';
import { applyMotor, jointData, prismaticDisplacement, revoluteAngleDeg, validMotor } from './joints.ts';
import { cornerShift, judgeLoad, judgeRamp, judgeSettle, type BodyMotionSample } from './statics.ts';
import type { BodyKind, BodySpec, Material, Pose, SceneBody, Vec3, Violation } from './types.ts';
import { IDENTITY_QUAT } from './types.ts';
import * as valid from './validate.ts';

export type { Aabb } from './shapes.ts';

export type { WorldOptions, SweepResult, SweepOptions, GroupMotion, GroupSweepResult, JointMotor, JointSpec, SnapshotParticipant, SettleOptions, LoadTestOptions, LoadTestResult, RampLoadOptions, RampLoadResult, WorldSnapshot } from './world-types.ts';
import type { WorldOptions, SweepResult, SweepOptions, GroupMotion, GroupSweepResult, JointMotor, JointSpec, SnapshotParticipant, SettleOptions, LoadTestOptions, LoadTestResult, RampLoadOptions, RampLoadResult, WorldSnapshot } from './world-types.ts';

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
  /** The axis in bodyA's frame and the bodies' relative pose at creation (for {@link World.jointPosition}). */
  readonly localAxis?: Vec3;
  readonly rest?: Pose;
  readonly localAnchorA?: Vec3;
  readonly localAnchorB?: Vec3;
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
/** Absolute accuracy of {@link World.distance} and contact verdicts, metres. */
const SEPARATION_ACCURACY = 1e-8;
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

/** The clock Rapier's stage timers read during a step (see `World.stepRaw`). */
function stoppedClock(): number {
  return 0;
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
  /** Poses seen by `getPose` while topology predicates run at a sample pose of a sweep. */
  private poseOverride: Map<string, Pose> | null = null;
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
        this.stepRaw();
        this.stepCount++;
        for (const fn of this.listeners) fn(this);
      }
    } finally {
      this.stepping = false;
    }
  }

  /**
   * One Rapier step. `RAPIER.World.step` runs the pipeline and then walks every body, collider
   * and joint from JavaScript to map ones the engine made itself (soft bodies tearing); this
   * world never lets the engine make bodies — every body and collider is created, and removed,
   * through the JavaScript sets, which map them at once — so the walk (about a tenth of a
   * dynamic world's step) is skipped and the pipeline is called as `World.step` calls it.
   */
  private stepRaw(): void {
    const r = this.raw;
    // Rapier's step times its stages whether or not its profiler is on: about 34 calls a step
    // from WebAssembly out to `performance.now()`, a tenth to a quarter of a small dynamic
    // world's step. Nothing but those timings reads the clock (SpaceAct never reads them), so
    // the step runs with a clock that costs nothing; the real one is back before any other code
    // runs (the step is synchronous), also when the step throws.
    const clock = performance as { now: () => number };
    const realNow = clock.now;
    clock.now = stoppedClock;
    try {
      r.physicsPipeline.step(r.gravity, r.integrationParameters, r.islands, r.broadPhase, r.narrowPhase, r.bodies, r.colliders, r.softBodies, r.impulseJoints, r.multibodyJoints, r.ccdSolver);
    } finally {
      clock.now = realNow;
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

  /**
   * The bodies as a message names them: each one's spoken name (`BodySpec.spokenName`, else its
   * name) in quotes, each spoken name once, in the order given.
   */
  private spokenList(names: readonly string[]): string {
    const said = names.map((n) => `'${this.bodies.get(n)?.spec.spokenName ?? n}'`);
    return [...new Set(said)].join(', ');
  }

  /** Current kind of a body. */
  bodyKind(name: string): BodyKind {
    return this.record(name, 'name').kind;
  }

  /** Current world pose of a body. */
  getPose(name: string): Pose {
    const rec = this.record(name, 'name');
    const override = this.poseOverride?.get(name);
    if (override) return clonePose(override);
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
    const type = valid.oneOf(s.type, 'joint.type', ['fixed', 'revolute', 'spherical', 'prismatic'] as const);
    const a = this.record(s.bodyA as string, 'joint.bodyA');
    const b = this.record(s.bodyB as string, 'joint.bodyB');
    if (s.bodyA === s.bodyB) valid.invalid('joint.bodyB', 'a joint needs two different bodies', s.bodyB);
    const anchor = valid.vec3(s.anchor, 'joint.anchor');
    const axial = type === 'revolute' || type === 'prismatic';
    const axis = axial ? valid.direction(s.axis, 'joint.axis') : undefined;
    const pa = this.getPose(s.bodyA as string);
    const pb = this.getPose(s.bodyB as string);
    if (type === 'prismatic' && qangle(pa.q, pb.q) > 1e-6) valid.invalid('joint.bodyB', `a prismatic joint needs '${String(s.bodyA)}' and '${String(s.bodyB)}' to have the same orientation now`, s.bodyB);
    const contacts = s.contacts === undefined ? true : valid.booleanValue(s.contacts, 'joint.contacts');
    const multibody = s.multibody === undefined ? false : valid.booleanValue(s.multibody, 'joint.multibody');
    let limits: [number, number] | undefined;
    if (s.limits !== undefined) {
      if (!axial) valid.invalid('joint.limits', `a ${type} joint has no limits; only revolute and prismatic joints do`, s.limits);
      if (multibody) valid.invalid('joint.limits', 'limits are supported on impulse joints only (multibody: false)', s.limits);
      const l = valid.arrayOf(s.limits, 'joint.limits', 2, 2);
      const bound = type === 'revolute' ? 360 : valid.MAX_POSITION;
      limits = [valid.finiteNumber(l[0], 'joint.limits[0]', { min: -bound, max: bound }), valid.finiteNumber(l[1], 'joint.limits[1]', { min: -bound, max: bound })];
      if (!(limits[0] <= 0 && limits[1] >= 0)) valid.invalid('joint.limits', 'the creation pose (0) must lie within [min, max]', s.limits);
    }
    let motor: JointMotor | undefined;
    if (s.motor !== undefined) {
      if (!axial) valid.invalid('joint.motor', `a ${type} joint has no motor; only revolute and prismatic joints do`, s.motor);
      if (multibody) valid.invalid('joint.motor', 'motors are supported on impulse joints only (multibody: false)', s.motor);
      motor = validMotor(s.motor, 'joint.motor', type as 'revolute' | 'prismatic');
    }
    const localAxisA = axis ? qrotate(qconj(pa.q), axis) : undefined;
    const data = jointData(type, pa, pb, anchor, axis);
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
    if (axial && !multibody) {
      const unit = joint as RAPIER.UnitImpulseJoint;
      const k = type === 'revolute' ? Math.PI / 180 : 1;
      if (limits) unit.setLimits(limits[0] * k, limits[1] * k);
      if (motor) applyMotor(unit, motor, k);
    }
    const clean: JointSpec = {
      name,
      type,
      bodyA: s.bodyA as string,
      bodyB: s.bodyB as string,
      anchor,
      ...(axis ? { axis } : {}),
      ...(limits ? { limits } : {}),
      ...(motor ? { motor } : {}),
      ...(contacts ? {} : { contacts }),
      ...(multibody ? { multibody } : {}),
    };
    const extra = axial ? { localAxis: localAxisA, rest: relativePose(pa, pb), localAnchorA: inverseTransformPoint(pa, anchor), localAnchorB: inverseTransformPoint(pb, anchor) } : {};
    this.joints.set(name, { spec: clean, handle: joint.handle, ...extra });
  }

  /**
   * Sets (or with null removes) the motor of a revolute or prismatic impulse joint; see
   * {@link JointMotor}. The bodies are woken.
   */
  setJointMotor(name: string, motor: JointMotor | null): void {
    this.alive();
    const j = this.joint(name);
    if (j.spec.type !== 'revolute' && j.spec.type !== 'prismatic') valid.invalid('name', `'${name}' is a ${j.spec.type} joint; only revolute and prismatic joints have motors`, name);
    if (j.spec.multibody) valid.invalid('name', `'${name}' is a multibody joint; motors are supported on impulse joints only`, name);
    const m = motor === null ? null : validMotor(motor, 'motor', j.spec.type);
    const unit = this.raw.getImpulseJoint(j.handle) as RAPIER.UnitImpulseJoint;
    const k = j.spec.type === 'revolute' ? Math.PI / 180 : 1;
    applyMotor(unit, m ?? { velocity: 0, damping: 0, stiffness: 0 }, k);
    const { motor: _old, ...rest } = j.spec;
    void _old;
    this.joints.set(name, { ...j, spec: m ? { ...rest, motor: m } : rest });
    this.raw.getRigidBody(this.bodies.get(j.spec.bodyA)!.handle).wakeUp();
    this.raw.getRigidBody(this.bodies.get(j.spec.bodyB)!.handle).wakeUp();
  }

  /**
   * A revolute joint's angle (degrees, right-handed about its axis) or a prismatic joint's
   * displacement (metres along its axis) from its creation pose, measured from the bodies' poses.
   */
  jointPosition(name: string): number {
    this.alive();
    const j = this.joint(name);
    if (!j.localAxis || !j.rest || !j.localAnchorA || !j.localAnchorB) valid.invalid('name', `'${name}' is a ${j.spec.type} joint; only revolute and prismatic joints have a position`, name);
    const pa = this.getPose(j.spec.bodyA);
    const pb = this.getPose(j.spec.bodyB);
    if (j.spec.type === 'prismatic') return prismaticDisplacement(pa, pb, j.localAxis, j.localAnchorA, j.localAnchorB);
    return revoluteAngleDeg(pa, pb, j.localAxis, j.rest);
  }

  /** Removes a joint; the bodies are woken so they can move apart. */
  removeJoint(name: string): void {
    const j = this.joint(name);
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
    if (rec.shapes.some((s) => !s.convex)) valid.invalid('name', `'${name}' has a triangle mesh; only convex shapes can be swept`, name);
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
      topology: this.topology.size ? (pose) => this.topologyAt(new Map([[name, scalePose(pose, 1 / k)]])) : undefined,
      topologyStep: { length: 0.005 * k, angle: (5 * Math.PI) / 180 },
    });
    if (outcome.point) outcome.point = vscale(outcome.point, 1 / k);
    outcome.lastFree = scalePose(outcome.lastFree, 1 / k);
    // Result text names the rule and the bodies, never how far the move got: a fraction of the
    // path is a range finder that maps the world without looking (issue 36). Where the contact
    // was is shown only by the rollback image.
    let violation: Violation | undefined;
    if (outcome.kind === 'collision') {
      const others = outcome.bodies.length ? this.spokenList(outcome.bodies) : 'another body';
      violation = { kind: 'collision', bodies: [name, ...outcome.bodies], point: outcome.point, toi: outcome.toi, message: `${this.spokenList([name])} would touch ${others}; the move was undone.` };
    } else if (outcome.kind === 'workspace') {
      violation = { kind: 'workspace', bodies: [name], toi: outcome.toi, message: `${this.spokenList([name])} would leave the workspace; the move was undone.` };
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
      ...(outcome.startOverlap ? { startOverlap: { bodies: outcome.startOverlap.bodies, depth: outcome.startOverlap.depth / k } } : {}),
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

  /**
   * Checks moving several bodies as one rigid set (a puzzle-cube layer turn, a maze cube turned
   * with its ball inside) without changing anything. The group is swept like one compound body
   * on the same core as {@link World.sweep} (`sim/sweep.ts`, the same guarantees: no pose before
   * the stop touches anything, the stop is within the contact tolerance of the first contact):
   * members never stop each other, every other body not in `exclude` does, as do leaving the
   * workspace and a failing topology predicate (sampled with every member at its sample pose).
   *
   * Members may be of any kind and keep their poses relative to each other. **A dynamic body in
   * the group is carried rigidly** as if fixed to the others (a maze ball turns with its cube)
   * and ends at rest when the motion is executed; let it roll afterwards with
   * {@link World.advance} or {@link World.settle}. A dynamic body *not* listed is an obstacle
   * like any other, so a ball left out of a turning maze stops the turn when a wall reaches it.
   * Joints between members and other bodies are not part of the check. Members with a triangle
   * mesh cannot be swept. Time does not advance.
   */
  sweepGroup(bodies: string[], motion: GroupMotion, opts: SweepOptions = {}): GroupSweepResult {
    this.alive();
    const members = valid.arrayOf(bodies, 'bodies', 1, 10000).map((b, i) => this.nameOf(b, `bodies[${i}]`));
    const seen = new Set<string>();
    for (const [i, m] of members.entries()) {
      if (seen.has(m)) valid.invalid(`bodies[${i}]`, `'${m}' is listed twice`, m);
      seen.add(m);
      if (this.bodies.get(m)!.shapes.some((sh) => !sh.convex)) valid.invalid(`bodies[${i}]`, `'${m}' has a triangle mesh; only convex shapes can be swept`, m);
    }
    const { frame, waypoints } = this.groupPath(motion);
    const o = valid.plainObject(opts, 'opts');
    const exclude = new Set<string>(members);
    if (o.exclude !== undefined) valid.arrayOf(o.exclude, 'opts.exclude', 0, 10000).forEach((e, i) => exclude.add(this.nameOf(e, `opts.exclude[${i}]`)));
    const maxDeg = o.maxSegmentAngleDeg === undefined ? 5 : valid.finiteNumber(o.maxSegmentAngleDeg, 'opts.maxSegmentAngleDeg', { min: 0.1, max: 90 });
    const strict = o.strictInitialContacts === undefined ? false : valid.booleanValue(o.strictInitialContacts, 'opts.strictInitialContacts');

    const k = QUERY_SCALE;
    // Each member's pose in the group frame; its shapes rebased into that frame (query space).
    const relative = new Map(members.map((m) => [m, relativePose(frame, this.getPose(m))]));
    const shapes: CompiledShape[] = [];
    const owners: string[] = [];
    for (const m of members) {
      const rec = this.bodies.get(m)!;
      if (rec.spec.collides === false) continue;
      const offset = scalePose(relative.get(m)!, k);
      for (const sh of rec.scaled) {
        shapes.push(rebaseShape(sh, offset));
        owners.push(m);
      }
    }
    const posesAt = (framePose: Pose): Record<string, Pose> => Object.fromEntries(members.map((m) => [m, composePose(framePose, relative.get(m)!)]));
    const obstacles = this.obstacles(exclude);
    const ws = this.workspace;
    const n = waypoints.length;
    let start = frame;
    for (let j = 0; j < n; j++) {
      const outcome = sweepPath({
        shapes,
        from: scalePose(start, k),
        to: scalePose(waypoints[j], k),
        obstacles,
        tolerance: this.contactTolerance * k,
        maxSegmentAngle: (maxDeg * Math.PI) / 180,
        workspace: ws ? { min: vscale(ws.min, k), max: vscale(ws.max, k) } : undefined,
        strictInitialContacts: strict,
        topology: this.topology.size ? (pose) => this.topologyAt(new Map(Object.entries(posesAt(scalePose(pose, 1 / k))))) : undefined,
        topologyStep: { length: 0.005 * k, angle: (5 * Math.PI) / 180 },
      });
      if (outcome.kind === 'free') {
        start = waypoints[j];
        continue;
      }
      const toi = (j + outcome.toi) / n;
      const point = outcome.point ? vscale(outcome.point, 1 / k) : undefined;
      const lastFree = posesAt(scalePose(outcome.lastFree, 1 / k));
      const movers = [...new Set((outcome.movers ?? []).map((i) => owners[i]))].sort();
      const who = members.length <= 4 ? this.spokenList(members) : `the group of ${members.length} bodies`;
      let violation: Violation;
      if (outcome.kind === 'collision') {
        const others = outcome.bodies.length ? this.spokenList(outcome.bodies) : 'another body';
        violation = { kind: 'collision', bodies: [...(movers.length ? movers : members), ...outcome.bodies], point, toi, message: `Moving ${who} together: they would touch ${others}; the motion was undone.` };
      } else if (outcome.kind === 'workspace') {
        violation = { kind: 'workspace', bodies: [...members], toi, message: `Moving ${who} together would leave the workspace; the motion was undone.` };
      } else {
        const v = outcome.topologyViolation!;
        violation = { ...v, toi };
      }
      return { hit: true, toi, bodies: outcome.bodies, movers, ...(point ? { point } : {}), lastFreePoses: lastFree, reached: structuredClone(lastFree), violation };
    }
    const end = posesAt(waypoints[n - 1]);
    return { hit: false, toi: 1, bodies: [], movers: [], lastFreePoses: end, reached: structuredClone(end) };
  }

  /**
   * Moves several bodies as one rigid set along the swept motion ({@link World.sweepGroup}).
   * Free: every member ends at its target. Otherwise every member is left at the group's last
   * collision-free pose and a {@link ViolationError} is thrown (the caller's
   * {@link World.attempt} restores the world). Takes no world time; moved bodies end at rest.
   */
  moveGroupSwept(bodies: string[], motion: GroupMotion, opts: SweepOptions = {}): GroupSweepResult {
    const result = this.sweepGroup(bodies, motion, opts);
    for (const [m, pose] of Object.entries(result.reached)) this.placeBody(this.bodies.get(m)!, m, pose);
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
   * Lets the world run for `seconds` and reports a `statics` violation naming every watched body
   * that did not come to rest (largest motion first), or null; see {@link SettleOptions} for how
   * settling into contact is told apart from moving. Advances world time by `seconds`.
   */
  settle(opts: SettleOptions = {}): Violation | null {
    this.alive();
    const o = valid.plainObject(opts, 'opts');
    const seconds = o.seconds === undefined ? 0.5 : valid.finiteNumber(o.seconds, 'opts.seconds', { min: 0, max: 60 });
    const linearTol = o.linearTol === undefined ? 0.002 : valid.finiteNumber(o.linearTol, 'opts.linearTol', { above: 0, max: 10 });
    const angularTolDeg = o.angularTolDeg === undefined ? Infinity : valid.finiteNumber(o.angularTolDeg, 'opts.angularTolDeg', { above: 0, max: 180 });
    const settleTol = o.settleTol === undefined ? 0.02 : valid.finiteNumber(o.settleTol, 'opts.settleTol', { above: 0, max: 10 });
    const settleAngleDeg = o.settleAngleDeg === undefined ? Infinity : valid.finiteNumber(o.settleAngleDeg, 'opts.settleAngleDeg', { above: 0, max: 180 });
    const watch = o.bodies === undefined ? this.dynamicBodies() : valid.arrayOf(o.bodies, 'opts.bodies', 0, 10000).map((b, i) => this.nameOf(b, `opts.bodies[${i}]`));
    const snap = (): Map<string, BodyMotionSample> => new Map(watch.map((n) => [n, { pose: this.getPose(n), corners: this.corners(n) }]));
    const start = snap();
    const steps = Math.round(seconds / this.timestep);
    const half = Math.floor(steps / 2);
    this.advance(half * this.timestep);
    const rested = snap();
    this.advance((steps - half) * this.timestep);
    return judgeSettle(watch, start, rested, snap(), { seconds, linearTol, angularTolDeg, settleTol, settleAngleDeg }, (n) => this.spokenList([n]));
  }

  /**
   * Hangs a known mass (or applies a force) at a point of a body for `seconds` and reports
   * whether the watched bodies held still (every bounding-box corner moved at most `linearTol`).
   * Advances world time; the world is left as the test ends (wrap it in snapshot/restore to undo).
   */
  loadTest(opts: LoadTestOptions): LoadTestResult {
    const { body, rec, point, force, seconds, linearTol, watch } = this.loadTestPlan(opts);
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
    return judgeLoad(body, force, seconds, linearTol, before, new Map([...before.keys()].map((n) => [n, this.corners(n)])));
  }

  /**
   * Ramps a load from zero to `force` over `seconds` and reports the load at which a watched
   * body first moved more than `linearTol` (a bounding-box corner, from where it was when the
   * ramp began): the tipping or breaking load of a structure, found the way a person pushing
   * harder and harder would. A slow ramp measures a static threshold: a lateral push at height
   * `e` on a block of weight `W` whose tipping edge is `c` from its centre of mass (horizontally)
   * gives way at `W·c/e` (measured 1.2 % high for a ramp to 2 W·c/e over 20 s). Advances world time until
   * the failure or the end of the ramp; the world is left as the test ends.
   */
  rampLoadTest(opts: RampLoadOptions): RampLoadResult {
    this.alive();
    const o = valid.plainObject(opts, 'opts');
    const body = this.nameOf(o.body, 'opts.body');
    const rec = this.record(body, 'opts.body');
    const point = valid.vec3(o.point, 'opts.point');
    const force = valid.vec3(o.force, 'opts.force', MAX_FORCE);
    const magnitude = Math.hypot(force[0], force[1], force[2]);
    if (!(magnitude > 0)) valid.invalid('opts.force', 'the ramp needs a non-zero final force', o.force);
    const seconds = valid.finiteNumber(o.seconds, 'opts.seconds', { above: 0, max: 60 });
    const linearTol = o.linearTol === undefined ? 0.0003 : valid.finiteNumber(o.linearTol, 'opts.linearTol', { above: 0, max: 10 });
    const watch = o.watch === undefined ? [body] : valid.arrayOf(o.watch, 'opts.watch', 1, 10000).map((b, i) => this.nameOf(b, `opts.watch[${i}]`));
    if (rec.kind !== 'dynamic') valid.invalid('opts.body', `'${body}' is ${rec.kind}; a load on it cannot move anything`, body);
    if (this.stepping) throw new SpaceActError('invalid-state', 'rampLoadTest() cannot be called from a step listener');
    const before = new Map(watch.map((n) => [n, this.corners(n)]));
    const load: ActiveLoad = { handle: rec.handle, localPoint: inverseTransformPoint(this.getPose(body), point), force: [0, 0, 0] };
    const steps = Math.max(1, Math.round(seconds / this.timestep));
    const displacement = (n: string): number => cornerShift(before.get(n)!, this.corners(n));
    let failedAt: number | null = null;
    this.loads.push(load);
    try {
      for (let i = 1; i <= steps && failedAt === null; i++) {
        // The force during step i: the ramp's value at the end of that step.
        load.force = vscale(force, i / steps);
        this.advance(this.timestep);
        if (watch.some((n) => displacement(n) > linearTol)) failedAt = i;
      }
    } finally {
      this.loads = this.loads.filter((l) => l !== load);
      const rb = this.raw.getRigidBody(rec.handle);
      rb.resetForces(true);
      rb.resetTorques(true);
    }
    return judgeRamp(body, magnitude, seconds, linearTol, failedAt === null ? null : { step: failedAt, steps, timestep: this.timestep }, watch.map((n) => ({ name: n, d: displacement(n) })));
  }

  /**
   * Validates load-test options exactly as {@link World.loadTest} does, without running anything:
   * for callers (the brick system) that must refuse bad input before they change state.
   */
  validateLoadTest(opts: LoadTestOptions): void {
    this.loadTestPlan(opts);
  }

  private loadTestPlan(opts: LoadTestOptions): { body: string; rec: BodyRecord; point: Vec3; force: Vec3; seconds: number; linearTol: number; watch: string[] } {
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
    return { body, rec, point, force, seconds, linearTol, watch };
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
    const p = participant as Partial<SnapshotParticipant> | null;
    if (!p || typeof p !== 'object' || typeof p.save !== 'function' || typeof p.load !== 'function') valid.invalid('participant', 'expected { save(), load(state) }', participant);
    this.extensions.set(k, participant);
  }

  /** Removes a registered participant (undoing a registration whose owner then failed to set up). */
  unregisterParticipant(key: string): void {
    this.alive();
    if (typeof key !== 'string' || !this.extensions.delete(key)) throw new SpaceActError('invalid-argument', `key: there is no participant named ${JSON.stringify(String(key))}`, { key: String(key) });
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
   *
   * `captureScene: false` skips describing the violating scene (`violatingScene` is null): a
   * caller that will not draw it saves copying every body's shapes.
   */
  attempt<T>(fn: () => T, opts: { captureScene?: boolean } = {}): { ok: true; value: T } | { ok: false; violation: Violation; violatingScene: SceneBody[] | null } {
    if (typeof fn !== 'function') valid.invalid('fn', 'expected a function', fn);
    const snap = this.snapshot();
    try {
      const value = fn();
      const broken = this.checkTopology();
      if (broken) throw new ViolationError(broken);
      return { ok: true, value };
    } catch (err) {
      if (err instanceof ViolationError) {
        const violatingScene = opts.captureScene === false ? null : this.describe();
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
    if (s.spokenName !== undefined) out.spokenName = valid.nonEmptyString(s.spokenName, 'spec.spokenName', 60);
    if (s.drawnAs !== undefined) out.drawnAs = valid.nonEmptyString(s.drawnAs, 'spec.drawnAs', 100);
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
    this.refreshContacts(rec);
    this.staticObstacles.delete(name);
  }

  /**
   * Makes the next step recompute every contact pair of the body's colliders from scratch.
   *
   * Why: Rapier (parry's `try_update_contacts`) recycles a pair's contact points when the
   * pair's relative pose has changed little by its thresholds, and the points are anchored in
   * each body's frame; it cannot tell a teleport from a step. A dynamic 2×1 block slid one 5 cm
   * cell beside its former diagonal neighbour (6 mm apart) kept contacts from before the move,
   * which the solver read as a deep overlap: it shoved the neighbour 16 mm (37 mm seen in a
   * sliding-block tray). A change of solver groups is one Rapier never recycles across; setting
   * them to another value and back changes nothing else (`test/sim-world.test.ts`).
   */
  private refreshContacts(rec: BodyRecord): void {
    for (const h of rec.colliders) {
      const c = this.raw.getCollider(h);
      const groups = c.solverGroups();
      c.setSolverGroups(groups ^ 1);
      c.setSolverGroups(groups);
    }
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
    // addForceAtPoint accumulates a torque too: both accumulators are reset every step, once per
    // loaded body, so that several loads on one body (payloads) add up.
    for (const handle of new Set(this.loads.map((l) => l.handle))) {
      const rb = this.raw.getRigidBody(handle);
      rb.resetForces(false);
      rb.resetTorques(false);
    }
    for (const l of this.loads) {
      const rb = this.raw.getRigidBody(l.handle);
      const r = rb.rotation();
      const p = transformPoint({ p: tv(rb.translation()), q: [r.x, r.y, r.z, r.w] }, l.localPoint);
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
        list = e.shapes.map((sh, i) => ({ body: name, convex: e.convex[i], aabb: e.aabbs[i], spec: sh.spec, pose: e.poses[i] }));
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
        // Ask with whichever side is convex (two meshes never meet: meshes are static); the
        // answer is f64 GJK, or EPA for an overlap's depth (sim/verified-contact.ts).
        const [other, self, compiled] = sa.convex ? [{ e: eb, i: j }, { e: ea, i }, sa] : [{ e: ea, i }, { e: eb, i: j }, sb];
        if (!compiled.convex) return;
        const geometry = { spec: other.e.shapes[other.i].spec, pose: other.e.poses[other.i], aabb: other.e.aabbs[other.i] };
        const at = self.e.poses[self.i];
        const c = verifiedContact(geometry, { spec: compiled.spec, radius: specRadius(compiled.spec) }, at.p, at.q, reach, { accuracy: SEPARATION_ACCURACY * k, depth: true });
        if (!c) return;
        const d = c.distance / k;
        if (d < best) best = d;
      });
    });
    return best <= max ? best : Infinity;
  }

  /** The group frame's start pose and waypoints of a validated {@link GroupMotion}. */
  private groupPath(motion: GroupMotion): { frame: Pose; waypoints: Pose[] } {
    const m = valid.plainObject(motion, 'motion');
    const type = valid.oneOf(m.type, 'motion.type', ['rotate', 'path'] as const);
    if (type === 'rotate') {
      const pivot = valid.vec3(m.pivot, 'motion.pivot');
      const axis = valid.direction(m.axis, 'motion.axis');
      const deg = valid.finiteNumber(m.angleDeg, 'motion.angleDeg', { min: -720, max: 720 });
      // Pieces of at most 90°: slerp takes the shorter arc, so one piece must stay below 180°.
      const pieces = Math.max(1, Math.ceil(Math.abs(deg) / 90));
      const rad = (deg * Math.PI) / 180;
      const waypoints = Array.from({ length: pieces }, (_, i) => ({ p: [...pivot] as Vec3, q: qaxisAngle(axis, (rad * (i + 1)) / pieces) }));
      return { frame: { p: pivot, q: [0, 0, 0, 1] }, waypoints };
    }
    const frame = valid.pose(m.frame, 'motion.frame');
    const waypoints = valid.arrayOf(m.waypoints, 'motion.waypoints', 1, 1000).map((w, i) => valid.pose(w, `motion.waypoints[${i}]`));
    return { frame, waypoints };
  }

  private joint(name: string): JointRecord {
    const j = typeof name === 'string' ? this.joints.get(name) : undefined;
    if (!j) throw new SpaceActError('invalid-argument', `name: there is no joint named '${String(name)}'`, { name: String(name) });
    return j;
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

  private topologyAt(poses: Map<string, Pose>): Violation | null {
    this.poseOverride = poses;
    try {
      return this.checkTopology();
    } finally {
      this.poseOverride = null;
    }
  }
}
