/**
 * The world's public data types: options and results of its calls (split from `sim/world.ts`,
 * which re-exports every one of them).
 */
import type { Pose, Vec3, Violation } from './types.ts';

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
  /**
   * Present when the body already overlaps other bodies at its start pose (deeper than the
   * contact tolerance): who, and the deepest penetration found, metres (`Infinity` where the
   * depth could not be measured). See `sim/sweep.ts` for what such a sweep accepts.
   */
  startOverlap?: { bodies: string[]; depth: number };
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

/**
 * How a group of bodies moves as one rigid set ({@link World.sweepGroup}).
 *
 * - `rotate`: a turn by `angleDeg` (right-handed about `axis`, any sign, at most 720°) about the
 *   axis through `pivot`. It is swept as a path of equal turns of at most 90° each about the
 *   pivot (every member's points move on circles about the axis).
 * - `path`: the group's own frame starts at `frame` (a world pose; pick its origin where the
 *   turn should be centred) and passes through `waypoints`, its successive world poses. Between
 *   two waypoints the frame's origin moves on a straight line while its orientation turns at a
 *   constant rate about a fixed axis (slerp along the shorter arc), as in a single-body sweep;
 *   every member keeps its pose relative to the frame.
 */
export type GroupMotion =
  | { type: 'rotate'; pivot: Vec3; axis: Vec3; angleDeg: number }
  | { type: 'path'; frame: Pose; waypoints: Pose[] };

/** Result of a group sweep ({@link World.sweepGroup}, {@link World.moveGroupSwept}). */
export interface GroupSweepResult {
  /** Whether something stopped the group (contact, workspace exit or topology). */
  hit: boolean;
  /**
   * Fraction 0..1 of the motion travelled before the stop; 1 if free. Each segment of the path
   * (each waypoint, each ≤ 90° piece of a turn) counts for an equal share.
   */
  toi: number;
  /** Bodies outside the group touched at the stop (collision) or named by the violation. */
  bodies: string[];
  /** Group members that touch them at the stop (collision only; sorted). */
  movers: string[];
  /** Contact point at the stop, if any. */
  point?: Vec3;
  /** Every member's pose at the last verified collision-free pose of the group (the targets if free). */
  lastFreePoses: Record<string, Pose>;
  /** Where every member ends if the motion is executed: the targets if free, else `lastFreePoses`. */
  reached: Record<string, Pose>;
  violation?: Violation;
}

/**
 * A joint motor: drives a revolute joint's angle (degrees) or a prismatic joint's displacement
 * (metres) along its axis, both measured from the joint's creation pose.
 * - `velocity` only: runs at that speed (deg/s or m/s), pushing with gain `damping`.
 * - `position` (optionally with `velocity`): a spring towards that position with `stiffness`
 *   and `damping`.
 * Rapier's acceleration-based motor model is used (gains act per unit mass, so the same motor
 * drives a light and a heavy body alike); `maxForce` (N or N·m) caps what it may exert.
 */
export interface JointMotor {
  velocity?: number;
  position?: number;
  /** Default 0 for a velocity motor, 1000 for a position motor. */
  stiffness?: number;
  /** Default 100 for a velocity motor, 50 for a position motor. */
  damping?: number;
  /** Default unlimited. */
  maxForce?: number;
}

/** A joint between two named bodies. Anchor and axis are given in world coordinates now. */
export interface JointSpec {
  name: string;
  /**
   * `prismatic`: the bodies slide along `axis` without turning; they must have the same
   * orientation when the joint is made (Rapier's prismatic joint locks the relative rotation of
   * one local frame).
   */
  type: 'fixed' | 'revolute' | 'spherical' | 'prismatic';
  bodyA: string;
  bodyB: string;
  /** World point where the bodies are pinned together. */
  anchor: Vec3;
  /** World axis of a revolute or prismatic joint (turning right-handed about it, sliding along it). */
  axis?: Vec3;
  /**
   * `[min, max]` of a revolute joint's angle (degrees) or a prismatic joint's displacement
   * (metres) from the creation pose; impulse joints only.
   */
  limits?: [number, number];
  /** A motor on a revolute or prismatic impulse joint; see {@link JointMotor}. */
  motor?: JointMotor;
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

/**
 * Options of {@link World.settle}. Motion is measured, as in {@link World.loadTest}, by the
 * largest displacement of a corner of the body's bounding box (so a turn counts by how far it
 * moves the body's points). The window of `seconds` is judged in two halves, because soft
 * contacts let a structure that stands sink by millimetres as it takes its weight (a column of
 * 12 blocks of 1 cm by 4.5 mm within 0.3 s, a harmonic stack of 5 at 95 % of its critical
 * overhang by 3 mm), and a tall thin column keeps rocking by a few millimetres without falling
 * (16 blocks of 1 × 2 × 2 cm: ±3 mm at the top for seconds). A body fails when
 * - it is still moving: in the second half it moves more than `linearTol` *and* more than half
 *   of what it moved in the first half — a fall or a slide keeps going or speeds up, settling
 *   dies down and rocking stays bounded; or
 * - it ends more than `settleTol` from where it started, even at rest.
 * The angle options add the same two tests on the body's rotation.
 */
export interface SettleOptions {
  /** Simulated seconds to settle; default 0.5. */
  seconds?: number;
  /** Corner motion in the second half of the window that is always accepted, metres; default 0.002. */
  linearTol?: number;
  /** Rotation in the second half of the window that is always accepted, degrees; default: no separate rotation test. */
  angularTolDeg?: number;
  /** Largest accepted corner displacement from the start to the end of the window, metres; default 0.02. */
  settleTol?: number;
  /** Largest accepted rotation from the start to the end of the window, degrees; default: no separate rotation test. */
  settleAngleDeg?: number;
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

/**
 * Options of {@link World.rampLoadTest}: a force at `point` on `body` (moving with the body) that
 * grows linearly from zero to `force` over `seconds` — a lateral push ramp, or a payload ramp
 * with a downward force.
 */
export interface RampLoadOptions {
  body: string;
  /** World point (now) where the load acts. */
  point: Vec3;
  /** The force at the end of the ramp, newtons. */
  force: Vec3;
  /** Length of the ramp, simulated seconds. */
  seconds: number;
  /** Bodies whose motion decides when the structure gives way; default the loaded body. */
  watch?: string[];
  /**
   * Displacement of a watched body's bounding-box corner from the start that counts as giving
   * way, metres; default 0.0003 (0.1 mm mistook contact creep for tipping, 1 mm lagged the
   * onset by 3 % of the load on a 10 s ramp).
   */
  linearTol?: number;
}

/** Outcome of {@link World.rampLoadTest}. */
export interface RampLoadResult {
  /** Whether a watched body gave way before the ramp ended. */
  gaveWay: boolean;
  /** Magnitude of the load (N) in the step where it gave way; null if it held to the end. */
  failureForce: number | null;
  /** Simulated seconds from the start of the ramp to the failure (or to the end). */
  seconds: number;
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
