/**
 * Sampling-based motion planning in SE(3) for one held body among static and resting bodies.
 *
 * **Search** (`search.ts`): RRT-Connect (Kuffner & LaValle 2000) — a tree from the start and one
 * from the goal, each step of one answered by a greedy connection attempt of the other — with
 * local trees (Strandberg 2004) seeded by narrow-passage samples: the bridge test (Hsu et al.
 * 2003: a free midpoint between two overlapping poses) and Gaussian boundary sampling (Boor et
 * al. 1999); with EST-like perturbation of sparsely visited nodes, and orientations reused
 * from nodes the trees hold.
 *
 * **Iterative relaxation** (Bayazit, Xie & Amato 2005; Hsu's dilated free space): a part that
 * must thread an opening a few millimetres wider than itself in six dimensions is rarely found by
 * sampling alone, so the search runs first for an eroded copy of the part (every passage wider
 * by the erosion), then for less eroded ones and finally the part itself, each stage drawing
 * targets and milestones near the previous stage's path. A stage that finds nothing ends the
 * run: if the thinner part cannot pass, neither can the real one.
 *
 * **Collision checking** is the world's own: a configuration is free when the body, placed there,
 * touches nothing (`World.contactsOf`), stays in the workspace and breaks no topology predicate; a
 * motion is free when every swept leg of the tool calls that would perform it is free
 * (`World.sweep`, which samples the topology predicates too). The legs come from the held-part
 * motion model (`motion.ts`): rotate-then-translate, or one combined move.
 *
 * **Path shortening**: random shortcuts between waypoints and between points inside edges (kept
 * when the path gets cheaper in length plus a per-call cost), then a greedy pass that joins each
 * waypoint to the farthest one it reaches.
 *
 * **Certificate**: the path becomes tool calls with rounded arguments, replayed from the start
 * exactly as the tool handlers run them (each call's legs from the pose the world reports, each
 * swept from where the last ended); the result is returned only if that replay is free and ends
 * at the goal. The world is restored to its state before planning.
 *
 * Seeded and deterministic: the same world, body, goal and options give the same path and calls.
 * The budget is a number of samples, never a time.
 */
import { SpaceActError } from '../../core/errors.ts';
import { interpolatePose, qangle, qaxisAngle, qconj, qmul, qnormalize, vdist } from '../../sim/math.ts';
import type { Pose, Quat, ShapeSpec, Vec3 } from '../../sim/types.ts';
import type { Aabb, SweepOptions, World } from '../../sim/world.ts';
import { callLegs, callsBetween, edgeLegs, type HeldPartMotion, type PlannedCall } from './motion.ts';
import { PlannerRandom } from './random.ts';
import { erodeShapes, scaleShapes, thinnestHalfSize } from './relax.ts';
import { pointAlong, searchForest, type RotationSampling, type SearchContext, type SearchCounters, type SearchSettings } from './search.ts';

export type { RotationSampling } from './search.ts';

/** Narrow-passage sampling settings. */
export interface NarrowPassageOptions {
  /** Share of rounds drawing a bridge-test sample (default 0.15). */
  bridge?: number;
  /** Share of rounds drawing a Gaussian boundary sample (default 0.1). */
  gaussian?: number;
  /** Standard deviation of the Gaussian step in position, metres (default: the step length). */
  sigmaLength?: number;
  /** Standard deviation of the Gaussian step in angle, degrees (default: half the step angle). */
  sigmaAngleDeg?: number;
  /** Most local trees kept at once (default 40). */
  maxLocalTrees?: number;
  /** Share of rounds that perturb a sparsely visited node and step toward that (default 0.25). */
  perturb?: number;
  /** Share of rounds aiming near the previous relaxation stage's path (default 0.4). */
  guide?: number;
  /** Share of sampled orientations copied, slightly turned, from nodes the trees hold (default 0.3). */
  reuseOrientation?: number;
  /** Share of rounds that grow a local tree instead of the start or goal tree (default 0.25). */
  growLocal?: number;
  /** Pose-metric distance within which a local tree tries to reach a new node (default three steps). */
  joinRadius?: number;
}

/** Iterative relaxation settings. */
export interface RelaxOptions {
  /**
   * How the part is relaxed: `scale` shrinks it toward its origin (for a part that passes
   * through openings: a smaller part finds the route, larger ones refine the orientation);
   * `erode` thins every shape by a distance (for a part that surrounds an obstacle, such as a
   * ring on a wire, whose hole must not shrink). Default `scale`.
   */
  mode?: 'scale' | 'erode';
  /** Relaxed stages before the real part (default 4). */
  stages?: number;
  /** First stage: the scale factor (default 0.4), or the erosion in metres (default half the part's thinnest half-size). */
  amount?: number;
}

/** Options of {@link planPath}. */
export interface PlanOptions {
  /** Seed of the sampling stream (default 1). */
  seed?: number;
  /** Sample budget over all stages: target configurations drawn, narrow-passage trials included (default 20000). */
  maxSamples?: number;
  /** Largest translation of one tree step, metres (default 0.03). */
  stepLength?: number;
  /** Largest turn of one tree step, degrees (default 15). */
  stepAngleDeg?: number;
  /** Box the body's origin is sampled in (default: the world's workspace). */
  bounds?: Aabb;
  /** Orientations sampled (default `free`). */
  rotation?: RotationSampling;
  /**
   * Goal region: extra goal configurations (e.g. other orientations a symmetric part may end in).
   * `sample` draws from the planner's stream; free samples become further roots of the goal tree,
   * one every `every` rounds (default 50), at most `max` (default 20) per stage.
   */
  goalRegion?: { sample(rng: PlannerRandom): Pose; every?: number; max?: number };
  /** Share of rounds aiming at the other tree's roots (default 0.05). */
  goalBias?: number;
  /** Narrow-passage sampling settings, or `false` for uniform targets only. */
  narrowPassage?: NarrowPassageOptions | false;
  /** Iterative relaxation settings, or `false` to search for the real part only. */
  relax?: RelaxOptions | false;
  /** How the body is moved: the tool-call model whose swept legs are checked (default: combined `move` calls in the world frame). */
  motion?: HeldPartMotion;
  /** Sweep options the tool handlers use (bodies the part may touch, segment angle). */
  sweep?: SweepOptions;
  /** Random shortcut attempts on the found path (default 150). */
  shortcutRounds?: number;
  /** Metres per radian when comparing poses (default: the body's bounding radius). */
  rotationWeight?: number;
  /** How far a blocked step backs off from the contact, metres (default 0.001). */
  backoff?: number;
  /**
   * A route to search near from the first stage on (poses, e.g. along a wire the part must
   * follow): domain knowledge an author may give, as a custom sampler would in OMPL. The planner
   * still finds and checks every motion.
   */
  guide?: Pose[];
  /**
   * Before anything else, find the route of a small ball (the probe) from the start position to
   * the goal position — a three-dimensional search that finds openings in walls cheaply — and
   * use it as the first guide. `probeRadius` defaults to a quarter of the part's thinnest
   * half-size; `share` of the budget (default 0.1) is spent on it. `false` skips it (it is also
   * skipped when a ball at the part's origin would touch something at the start or goal, e.g. a
   * ring around a wire).
   */
  probe?: { probeRadius?: number; share?: number } | false;
}

/** Counters of one planning run. */
export interface PlanStats {
  /** Target configurations drawn (the budget's unit). */
  samples: number;
  /** Configurations checked for collision. */
  stateChecks: number;
  /** Motions checked by sweeping. */
  motionChecks: number;
  /** Nodes grown in all trees of all stages. */
  nodes: number;
  /** Narrow-passage samples found free. */
  narrowSamples: number;
  /** Searches run (relaxed stages, then the real part). */
  stages: number;
  /** Wall-clock seconds spent (reported only; never used to decide anything). */
  seconds: number;
}

/** A path found and certified. */
export interface PlanFound extends PlanStats {
  found: true;
  /** Waypoints from the start pose to the goal pose (after shortening). */
  poses: Pose[];
  /** Tool calls that take the body along the path; replayed free from the start before returning. */
  calls: PlannedCall[];
  /** Waypoints of the path as the search found it, before shortening. */
  rawWaypoints: number;
  /** Metres travelled by the body's origin along the final path. */
  length: number;
  /** Index of the goal pose the path ends at (in `goal` order; region samples follow). */
  goalIndex: number;
  /** Pose the replayed calls end at (the goal, to within argument rounding). */
  reached: Pose;
}

/** No path within the budget (or the start or goal is not free). */
export interface PlanNotFound extends PlanStats {
  found: false;
  /** `no path found …` within the budget, or why the search could not start. */
  reason: string;
  /**
   * Whether the failure proves that no path exists: true only when the start or every goal pose
   * itself touches something. A sampling planner that runs out of samples (or whose path did not
   * replay free) proves nothing — another seed or a larger `maxSamples` may find one — so that
   * case is false, and its `reason` says so.
   */
  proof: boolean;
}

/** Result of {@link planPath}. */
export type PlanResult = PlanFound | PlanNotFound;

/** Share of the budget spent on the real part along an author's route before relaxing. */
const GIVEN_FIRST = 0.3;

const DEFAULTS = {
  seed: 1,
  maxSamples: 20000,
  stepLength: 0.03,
  stepAngleDeg: 15,
  goalBias: 0.05,
  shortcutRounds: 150,
  backoff: 0.001,
  bridge: 0.15,
  gaussian: 0.1,
  perturb: 0.25,
  guide: 0.4,
  reuseOrientation: 0.3,
  growLocal: 0.25,
  maxLocalTrees: 40,
  stages: 4,
  scale: 0.4,
};

/** Angle between two orientations, radians, accurate near zero (where `2·acos` is not). */
function turnBetween(a: Quat, b: Quat): number {
  const r = qmul(qconj(a), b);
  return 2 * Math.atan2(Math.hypot(r[0], r[1], r[2]), Math.abs(r[3]));
}

function inside(box: Aabb, ws: Aabb): boolean {
  for (let i = 0; i < 3; i++) if (box.min[i] < ws.min[i] || box.max[i] > ws.max[i]) return false;
  return true;
}

function checkNumber(v: unknown, name: string, min: number, max: number, integer = false): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
    throw new SpaceActError('invalid-argument', `planPath: ${name} must be ${integer ? 'an integer' : 'a number'} in [${min}, ${max}], got ${JSON.stringify(v)}`, { [name]: v });
  }
  return v;
}

/**
 * Plans a collision-free motion of `body` from its current pose to `goal` (a pose, or several:
 * the path may end at any) and returns the waypoints and the tool calls that perform it, or
 * "no path found" with the samples and time spent. See the module comment. The world is left
 * exactly as it was (snapshot and restore). Bad options throw `SpaceActError` before anything
 * is searched.
 */
export function planPath(world: World, body: string, goal: Pose | Pose[], options: PlanOptions = {}): PlanResult {
  const started = performance.now();
  if (typeof body !== 'string' || !world.hasBody(body)) throw new SpaceActError('unknown-body', `planPath: there is no body named ${JSON.stringify(body)}`, { body });
  if (world.bodyKind(body) === 'static') throw new SpaceActError('invalid-argument', `planPath: '${body}' is static and cannot be moved`, { body });
  const goalList = Array.isArray(goal) ? goal : [goal];
  if (goalList.length === 0) throw new SpaceActError('invalid-argument', 'planPath: give at least one goal pose', {});
  const goals = goalList.map((g, i) => {
    if (!g || !Array.isArray(g.p) || !Array.isArray(g.q) || g.p.length !== 3 || g.q.length !== 4 || ![...g.p, ...g.q].every(Number.isFinite) || Math.hypot(...g.q) < 1e-9) {
      throw new SpaceActError('invalid-argument', `planPath: goal ${i} is not a pose {p: [x, y, z], q: [x, y, z, w]}`, { goal: g });
    }
    return { p: [...g.p] as Vec3, q: qnormalize([...g.q] as Quat) };
  });
  const o = options;
  const seed = checkNumber(o.seed ?? DEFAULTS.seed, 'seed', 0, 2 ** 32 - 1, true);
  const maxSamples = checkNumber(o.maxSamples ?? DEFAULTS.maxSamples, 'maxSamples', 1, 1e8, true);
  const stepLength = checkNumber(o.stepLength ?? DEFAULTS.stepLength, 'stepLength', 1e-4, 10);
  const stepAngle = (checkNumber(o.stepAngleDeg ?? DEFAULTS.stepAngleDeg, 'stepAngleDeg', 0.1, 90) * Math.PI) / 180;
  const shortcutRounds = checkNumber(o.shortcutRounds ?? DEFAULTS.shortcutRounds, 'shortcutRounds', 0, 1e6, true);
  const backoff = checkNumber(o.backoff ?? DEFAULTS.backoff, 'backoff', 0, 1);
  const startBox = world.bodyAabb(body);
  const rho = o.rotationWeight === undefined ? 0.5 * vdist(startBox.min, startBox.max) : checkNumber(o.rotationWeight, 'rotationWeight', 0, 100);
  const np = o.narrowPassage === false ? null : (o.narrowPassage ?? {});
  const share = (v: number | undefined, d: number, name: string): number => (np ? checkNumber(v ?? d, `narrowPassage.${name}`, 0, 1) : 0);
  const settings: SearchSettings = {
    stepLength,
    stepAngle,
    goalBias: checkNumber(o.goalBias ?? DEFAULTS.goalBias, 'goalBias', 0, 1),
    bridge: share(np?.bridge, DEFAULTS.bridge, 'bridge'),
    gaussian: share(np?.gaussian, DEFAULTS.gaussian, 'gaussian'),
    perturb: share(np?.perturb, DEFAULTS.perturb, 'perturb'),
    guide: share(np?.guide, DEFAULTS.guide, 'guide'),
    reuseOrientation: share(np?.reuseOrientation, DEFAULTS.reuseOrientation, 'reuseOrientation'),
    growLocal: share(np?.growLocal, DEFAULTS.growLocal, 'growLocal'),
    sigmaLength: np ? checkNumber(np.sigmaLength ?? stepLength, 'narrowPassage.sigmaLength', 0, 10) : stepLength,
    sigmaAngle: ((np ? checkNumber(np.sigmaAngleDeg ?? (stepAngle * 90) / Math.PI, 'narrowPassage.sigmaAngleDeg', 0, 180) : (stepAngle * 90) / Math.PI) * Math.PI) / 180,
    maxLocalTrees: np ? checkNumber(np.maxLocalTrees ?? DEFAULTS.maxLocalTrees, 'narrowPassage.maxLocalTrees', 0, 10000, true) : 0,
    joinRadius: np ? checkNumber(np.joinRadius ?? 3 * (stepLength + rho * stepAngle), 'narrowPassage.joinRadius', 0, 100) : 0,
  };
  if (settings.goalBias + settings.bridge + settings.gaussian + settings.perturb + settings.guide > 1) {
    throw new SpaceActError('invalid-argument', 'planPath: goalBias and the narrow-passage shares (bridge, gaussian, perturb, guide) add up to more than 1', {});
  }
  const relax = o.relax === false ? null : (o.relax ?? {});
  const stageCount = relax ? checkNumber(relax.stages ?? DEFAULTS.stages, 'relax.stages', 0, 20, true) : 0;
  const shapes = world.bodySpec(body).shapes;
  const relaxMode = relax?.mode ?? 'scale';
  if (relaxMode !== 'scale' && relaxMode !== 'erode') throw new SpaceActError('invalid-argument', `planPath: relax.mode must be 'scale' or 'erode', got ${JSON.stringify(relaxMode)}`, {});
  const amount = !relax
    ? 0
    : relaxMode === 'scale'
      ? checkNumber(relax.amount ?? DEFAULTS.scale, 'relax.amount', 0.01, 1)
      : checkNumber(relax.amount ?? 0.5 * thinnestHalfSize(shapes), 'relax.amount', 0, 10);
  /** How much each stage relaxes the part: 1 (none) for the last, down to the first stage's amount. */
  const relaxation = (k: number, of: number): number => (k >= of ? 0 : (of - k) / of);
  const relaxedShapes = (r: number): ShapeSpec[] => (relaxMode === 'scale' ? scaleShapes(shapes, 1 - r * (1 - amount)) : erodeShapes(shapes, r * amount));
  const describeRelaxed = (r: number): string => (relaxMode === 'scale' ? `scaled to ${((1 - r * (1 - amount)) * 100).toFixed(0)} %` : `eroded by ${(r * amount * 1000).toFixed(2)} mm`);
  const bounds = o.bounds ?? world.workspaceBox;
  if (!bounds) throw new SpaceActError('invalid-argument', 'planPath: give bounds (the world has no workspace to sample in)', {});
  const rotation = o.rotation ?? 'free';
  const motionModel: HeldPartMotion = o.motion ?? { combined: true };
  const sweepOpts: SweepOptions = o.sweep ?? {};
  const mayTouch = new Set(sweepOpts.exclude ?? []);
  for (const n of mayTouch) if (!world.hasBody(n)) throw new SpaceActError('unknown-body', `planPath: sweep.exclude names no body ${JSON.stringify(n)}`, { body: n });
  const region = o.goalRegion;
  if (region && typeof region.sample !== 'function') throw new SpaceActError('invalid-argument', 'planPath: goalRegion.sample must be a function', {});
  const ws = world.workspaceBox;
  const probeOpts = o.probe === false || o.probe === undefined ? {} : o.probe;
  if (probeOpts.probeRadius !== undefined) checkNumber(probeOpts.probeRadius, 'probe.probeRadius', 1e-5, 10);
  if (probeOpts.share !== undefined) checkNumber(probeOpts.share, 'probe.share', 0, 1);
  if (o.guide !== undefined && (!Array.isArray(o.guide) || o.guide.length === 0)) throw new SpaceActError('invalid-argument', 'planPath: guide must be a non-empty list of poses', {});
  const rng = new PlannerRandom(seed);
  const counters: SearchCounters = { samples: 0, stateChecks: 0, motionChecks: 0, nodes: 0, narrowSamples: 0 };
  let stagesRun = 0;
  const finish = <T extends object>(r: T): T & PlanStats => ({ ...r, ...counters, stages: stagesRun, seconds: Math.round(performance.now() - started) / 1000 });

  const distance = (a: Pose, b: Pose): number => vdist(a.p, b.p) + rho * qangle(a.q, b.q);
  /** The body that is searched for now: the part, or an eroded copy of it. */
  let mover = body;
  /** Bodies the mover may touch now (the part itself while an eroded copy stands in for it). */
  let touchable = mayTouch;
  // Planned motions may not start in contact (strict sweeps): the tools' sweeps let a part slide
  // along what it touches, and a waypoint a hair from a wall could count as touching in planning
  // but not in the replay, where rounding moved it by a micrometre. Strict is the safe side.
  const moverSweep = (): SweepOptions => ({ ...sweepOpts, exclude: [...touchable], strictInitialContacts: true });

  /** Bodies that collide (their specs are read once: a spec copy can hold a large mesh). */
  const colliding = new Set(world.bodyNames().filter((n) => world.bodySpec(n).collides !== false));
  /** Bodies the retraction keeps away from: every colliding body but the mover and what it may touch. */
  const retractObstacles = (): string[] => [...colliding].filter((n) => n !== mover && !touchable.has(n) && world.hasBody(n));

  /** Why the mover may not rest at `pose` (touched bodies, workspace, topology), or null. */
  const blockers = (pose: Pose): string[] | null => {
    counters.stateChecks++;
    world.setPose(mover, pose);
    if (ws && !inside(world.bodyAabb(mover), ws)) return ['the workspace boundary'];
    const touching = world.contactsOf(mover).filter((n) => !touchable.has(n));
    if (touching.length) return touching.map((n) => `'${n}'`);
    const broken = world.checkTopology();
    return broken ? [`topology: ${broken.message}`] : null;
  };
  const ctx: SearchContext = {
    rng,
    counters,
    settings,
    bounds,
    rotation,
    distance,
    isFree: (pose) => blockers(pose) === null,
    hitsBody(pose) {
      counters.stateChecks++;
      world.setPose(mover, pose);
      return world.contactsOf(mover).some((n) => !touchable.has(n));
    },
    motion(a, b) {
      counters.motionChecks++;
      const legs = edgeLegs(motionModel, a, b);
      const opts = moverSweep();
      world.setPose(mover, a);
      let from = a;
      for (const leg of legs) {
        const r = world.sweep(mover, leg, opts);
        if (r.hit) {
          const len = distance(from, leg);
          const s = len > 0 ? r.toi - backoff / len : 0;
          return { free: false, partial: s > 0 ? interpolatePose(from, leg, s) : from === a ? null : from };
        }
        world.setPose(mover, leg);
        from = leg;
      }
      return { free: true };
    },
    retract(pose) {
      // Climb the clearance by finite differences in the six pose directions (metric steps),
      // a step at a time, until the pose is free with a small margin.
      const obstacles = retractObstacles();
      const reach = 0.02;
      const clearance = (x: Pose): number => {
        counters.stateChecks++;
        world.setPose(mover, x);
        let c = reach;
        for (const n of obstacles) c = Math.min(c, world.distance(mover, n, reach));
        return c;
      };
      const h = 2e-4;
      const shift = (x: Pose, d: number[]): Pose => {
        const rot: Vec3 = [d[3] / rho, d[4] / rho, d[5] / rho];
        const angle = Math.hypot(...rot);
        const q = angle > 0 ? qnormalize(qmul(qaxisAngle([rot[0] / angle, rot[1] / angle, rot[2] / angle], angle), x.q)) : x.q;
        return { p: [x.p[0] + d[0], x.p[1] + d[1], x.p[2] + d[2]], q };
      };
      const margin = 2 * world.contactTolerance;
      let x = pose;
      let c = clearance(x);
      for (let it = 0; it < 30; it++) {
        if (c > margin && ctx.isFree(x)) return x;
        const g = [0, 1, 2, 3, 4, 5].map((i) => {
          const d = [0, 0, 0, 0, 0, 0];
          d[i] = h;
          return (clearance(shift(x, d)) - c) / h;
        });
        const norm = Math.hypot(...g);
        if (!(norm > 1e-9)) return null;
        const len = Math.min(0.005, Math.max(0.0003, 1.2 * (margin - c)));
        x = shift(x, g.map((v) => (v / norm) * len));
        c = clearance(x);
      }
      return c > margin && ctx.isFree(x) ? x : null;
    },
    ...(region ? { goalRegion: { sample: (r: PlannerRandom) => region.sample(r), every: region.every ?? 50, max: region.max ?? 20 } } : {}),
  };

  const snap = world.snapshot();
  try {
    const start = world.getPose(body);
    const startBlock = blockers(start);
    if (startBlock) return finish({ found: false as const, proof: true, reason: `the start pose is not free (it touches ${startBlock.join(', ')})` });
    const freeGoals = goals.filter((g) => ctx.isFree(g));
    if (!freeGoals.length) return finish({ found: false as const, proof: true, reason: `no goal pose is free (the first touches ${(blockers(goals[0]) ?? []).join(', ')})` });

    let path: Pose[] | null = null;
    let reachedGoal: Pose | null = null;
    /** The author's route, kept as a guide in every stage. */
    const given: Pose[] | null = o.guide ? o.guide.map((g) => ({ p: [...g.p] as Vec3, q: qnormalize([...g.q] as Quat) })) : null;
    // The direct motion first: many scenes need no search.
    for (const g of freeGoals) {
      if (!path && ctx.motion(start, g).free) {
        path = [start, g];
        reachedGoal = g;
      }
    }
    /** Runs one stage for the real part (`delta` 0) or a relaxed copy; the path, or null. */
    const stage = (delta: number, guides: Pose[][], budget: number): ReturnType<typeof searchForest> => {
      stagesRun++;
      if (delta > 0) {
        mover = `${body}#relaxed`;
        world.addBody({ name: mover, kind: 'kinematic', pose: start, shapes: relaxedShapes(delta), visible: false });
        touchable = new Set([...mayTouch, body]);
      }
      try {
        const stageGoals = freeGoals.filter((g) => ctx.isFree(g));
        const result = stageGoals.length ? searchForest(ctx, start, stageGoals, guides, budget) : null;
        // A shortened path is a tighter guide for the next stage.
        if (result && delta > 0) result.poses = shorten(result.poses);
        return result;
      } finally {
        if (delta > 0) world.removeBody(mover);
        mover = body;
        touchable = mayTouch;
      }
    };
    // With a route from the author, the real part is tried along it first (a good route often
    // needs nothing more); relaxation comes after, for what that does not find.
    if (!path && given) {
      const result = stage(0, [given], Math.floor(maxSamples * GIVEN_FIRST));
      if (result) {
        path = result.poses;
        reachedGoal = result.goal;
      }
    }
    if (!path) {
      let guide: Pose[] | null = given ?? (o.probe !== false ? probeRoute(start, freeGoals[0]) : null);
      const levels = amount === (relaxMode === 'scale' ? 1 : 0) ? [0] : Array.from({ length: stageCount + 1 }, (_, k) => relaxation(k, stageCount));
      for (let k = 0; k < levels.length; k++) {
        const delta = levels[k];
        const guides = [guide, given].filter((g, i, all): g is Pose[] => !!g && all.indexOf(g) === i);
        const result = stage(delta, guides, Math.floor((maxSamples - counters.samples) / (levels.length - k)));
        if (!result) {
          return finish({
            found: false as const,
            proof: false,
            reason: `${delta > 0 ? `no path found within ${maxSamples} samples (not even for the part ${describeRelaxed(delta)})` : `no path found within ${maxSamples} samples`}: the sample budget ran out, which does not prove that no path exists`,
          });
        }
        guide = result.poses;
        reachedGoal = result.goal;
        if (delta === 0) path = result.poses;
      }
    }
    const found = path!;
    const rawWaypoints = found.length;
    const certified = certify(shorten(found)) ?? certify(found);
    if (!certified) return finish({ found: false as const, proof: false, reason: 'a path was found but its rounded tool calls did not replay free; try another seed' });
    let length = 0;
    for (let i = 1; i < certified.poses.length; i++) length += vdist(certified.poses[i - 1].p, certified.poses[i].p);
    const goalIndex = Math.max(0, goals.findIndex((g) => reachedGoal && vdist(g.p, reachedGoal.p) < 1e-12 && qangle(g.q, reachedGoal.q) < 1e-12));
    return finish({ found: true as const, poses: certified.poses, calls: certified.calls, rawWaypoints, length, goalIndex, reached: certified.reached });

    /**
     * The route of a small ball from the start position to the goal position (translations
     * only), or null. The ball stands in for the part: every body except the part is an obstacle.
     */
    function probeRoute(from: Pose, to: Pose): Pose[] | null {
      const radius = probeOpts.probeRadius ?? 0.25 * thinnestHalfSize(shapes);
      if (!(radius > 0)) return null;
      const probe = `${body}#probe`;
      world.addBody({ name: probe, kind: 'kinematic', pose: { p: [...from.p], q: [0, 0, 0, 1] }, shapes: [{ type: 'ball', radius }], visible: false });
      mover = probe;
      touchable = new Set([...mayTouch, body]);
      const savedRotation = ctx.rotation;
      ctx.rotation = 'fixed';
      try {
        const a: Pose = { p: [...from.p], q: [0, 0, 0, 1] };
        const b: Pose = { p: [...to.p], q: [0, 0, 0, 1] };
        if (!ctx.isFree(a) || !ctx.isFree(b)) return null;
        stagesRun++;
        if (ctx.motion(a, b).free) return null;
        const found = searchForest(ctx, a, [b], [], Math.floor(maxSamples * (probeOpts.share ?? 0.1)));
        return found ? shorten(found.poses).map((p) => ({ p: p.p, q: [...from.q] as Quat })) : null;
      } finally {
        ctx.rotation = savedRotation;
        world.removeBody(probe);
        mover = body;
        touchable = mayTouch;
      }
    }

    /** Random shortcuts, then a greedy farthest-reachable pass. */
    function shorten(input: Pose[]): Pose[] {
      let p = input.slice();
      const cost = (pts: Pose[]): number => {
        let c = 0;
        for (let i = 1; i < pts.length; i++) c += distance(pts[i - 1], pts[i]) + stepLength * callsBetween(motionModel, pts[i - 1], pts[i]).length;
        return c;
      };
      const pointOn = (x: Pose, y: Pose, s: number): Pose => pointAlong([x, ...edgeLegs(motionModel, x, y)], s, distance);
      for (let k = 0; k < shortcutRounds && p.length > 2; k++) {
        const n = p.length;
        if (rng.next() < 0.5 || n < 4) {
          const i = rng.below(n - 2);
          const j = i + 2 + rng.below(n - i - 2);
          if (ctx.motion(p[i], p[j]).free) p = [...p.slice(0, i + 1), ...p.slice(j)];
        } else {
          const i = rng.below(n - 2);
          const j = i + 1 + rng.below(n - i - 2);
          const pi = pointOn(p[i], p[i + 1], rng.next());
          const pj = pointOn(p[j], p[j + 1], rng.next());
          const candidate = [...p.slice(0, i + 1), pi, pj, ...p.slice(j + 1)];
          if (cost(candidate) < cost(p) - 1e-9 && ctx.motion(pi, pj).free && ctx.motion(p[i], pi).free && ctx.motion(pj, p[j + 1]).free) p = candidate;
        }
      }
      // Greedy pass: from each kept waypoint, reach as far ahead as a direct motion goes. The end
      // is tried first (often free in open scenes), then the next waypoints one by one until two
      // in a row are blocked (a long curved path — a helix — blocks every far shortcut, and
      // checking each of them costs a sweep).
      const out: Pose[] = [p[0]];
      for (let i = 0; i < p.length - 1; ) {
        let best = i + 1;
        if (p.length - 1 > i + 1 && ctx.motion(p[i], p[p.length - 1]).free) best = p.length - 1;
        else {
          let misses = 0;
          for (let j = i + 2; j < p.length - 1 && misses < 2; j++) {
            if (ctx.motion(p[i], p[j]).free) {
              best = j;
              misses = 0;
            } else misses++;
          }
        }
        out.push(p[best]);
        i = best;
      }
      return out;
    }

    /** Rounded calls replayed from the start as the tool handlers run them; null if any leg is blocked. */
    function certify(waypoints: Pose[]): { poses: Pose[]; calls: PlannedCall[]; reached: Pose } | null {
      world.setPose(body, start);
      let at = world.getPose(body);
      const calls: PlannedCall[] = [];
      for (let i = 1; i < waypoints.length; i++) {
        for (const call of callsBetween(motionModel, at, waypoints[i], { round: true })) {
          for (const leg of callLegs(motionModel, at, call)) {
            counters.motionChecks++;
            if (world.sweep(body, leg, sweepOpts).hit) return null;
            world.setPose(body, leg);
          }
          at = world.getPose(body);
          calls.push(call);
        }
      }
      const end = waypoints[waypoints.length - 1];
      // Rounded arguments leave the end within micrometres and microradians of the goal.
      if (vdist(at.p, end.p) > 1e-4 || turnBetween(at.q, end.q) > 1e-4) return null;
      return { poses: waypoints, calls, reached: at };
    }
  } finally {
    world.restore(snap);
  }
}
