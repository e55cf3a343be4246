/**
 * The tree search of the planner: bidirectional RRT-Connect with local trees, narrow-passage
 * samples and an optional guide path. It knows nothing of the world: configurations and motions
 * are checked through the {@link SearchContext} the planner gives it.
 *
 * Each round grows one tree — the start and goal trees in turn, sometimes a local tree — by one
 * bounded step toward a target, keeping the free part of a blocked step; every other tree then
 * tries to reach the new node (the start and goal trees always, greedily as in RRT-Connect;
 * local trees when they are within the join radius), and a local tree that reaches it is merged.
 * Targets are:
 * - uniform samples (positions in the bounds; orientations uniform, or copied from a node the
 *   trees hold, slightly turned);
 * - the other tree's roots (goal bias);
 * - a Gaussian perturbation of a node drawn by sparse grid cell (EST-like expansion);
 * - points near the guide path, when there is one (the path of a relaxed stage);
 * - bridge-test and Gaussian boundary samples, each of which becomes a local tree.
 */
import { interpolatePose, qangle, qaxisAngle, qmul, qnormalize, vdist } from '../../sim/math.ts';
import type { Pose, Quat, Vec3 } from '../../sim/types.ts';
import type { Aabb } from '../../sim/world.ts';
import type { PlannerRandom } from './random.ts';

/** Which orientations the planner samples. */
export type RotationSampling =
  /** Every orientation (uniform on SO(3)). */
  | 'free'
  /** Only the start orientation (translations only). */
  | 'fixed'
  /** The start orientation turned about these world axes by uniform angles (e.g. `[[0, 1, 0]]` for yaw only). */
  | { about: Vec3[] };

/** Counters shared by every stage of one planning run. */
export interface SearchCounters {
  samples: number;
  stateChecks: number;
  motionChecks: number;
  nodes: number;
  narrowSamples: number;
}

/** Tuning of the search (all shares are probabilities per round). */
export interface SearchSettings {
  stepLength: number;
  /** Radians. */
  stepAngle: number;
  goalBias: number;
  bridge: number;
  gaussian: number;
  perturb: number;
  guide: number;
  reuseOrientation: number;
  growLocal: number;
  sigmaLength: number;
  /** Radians. */
  sigmaAngle: number;
  maxLocalTrees: number;
  joinRadius: number;
}

/** What the search may ask of the world, through the planner. */
export interface SearchContext {
  rng: PlannerRandom;
  counters: SearchCounters;
  settings: SearchSettings;
  bounds: Aabb;
  rotation: RotationSampling;
  /** Pose metric: metres plus a weight times radians. */
  distance(a: Pose, b: Pose): number;
  /** The body may rest here (no contact, in the workspace, topology holds). */
  isFree(pose: Pose): boolean;
  /** The body here overlaps another body (the workspace boundary does not count). */
  hitsBody(pose: Pose): boolean;
  /** Whether the tools' swept legs from `a` to `b` are free; on a hit, the farthest backed-off free pose, if any. */
  motion(a: Pose, b: Pose): { free: true } | { free: false; partial: Pose | null };
  /** Extra goal configurations, drawn now and then. */
  goalRegion?: { sample(rng: PlannerRandom): Pose; every: number; max: number };
  /**
   * A free pose near `pose` found by climbing the clearance (distance to the nearest body) —
   * a retraction toward the middle of a passage — or null.
   */
  retract?(pose: Pose): Pose | null;
}

interface TreeNode {
  pose: Pose;
  parent: number;
}

/**
 * A search tree. Nodes are also filed in a grid over their positions, so a node can be drawn
 * uniformly by occupied cell first: sparsely visited places — the mouth of a passage, the front
 * of a tree creeping through one — are drawn as often as crowded open space.
 */
class Tree {
  readonly nodes: TreeNode[] = [];
  private readonly cells = new Map<string, number[]>();
  private readonly cellKeys: string[] = [];
  constructor(
    readonly kind: 'start' | 'goal' | 'local',
    private readonly cellSize: number,
  ) {}

  /** Adds a node and returns its index. */
  add(pose: Pose, parent: number): number {
    const i = this.nodes.length;
    this.nodes.push({ pose, parent });
    const key = pose.p.map((v) => Math.floor(v / this.cellSize)).join(',');
    let list = this.cells.get(key);
    if (!list) {
      list = [];
      this.cells.set(key, list);
      this.cellKeys.push(key);
    }
    list.push(i);
    return i;
  }

  /** A node drawn uniformly over occupied grid cells, then uniformly within the cell. */
  sparseNode(rng: PlannerRandom): number {
    const list = this.cells.get(this.cellKeys[rng.below(this.cellKeys.length)])!;
    return list[rng.below(list.length)];
  }
}

type StepOutcome = { status: 'reached' | 'advanced'; index: number } | { status: 'trapped' };

/** A path from the start to one of the goal roots. */
export interface SearchPath {
  poses: Pose[];
  /** The goal root the path ends at. */
  goal: Pose;
}

/** A point at fraction `s` of a polyline of poses, by the pose metric. */
export function pointAlong(path: Pose[], s: number, distance: (a: Pose, b: Pose) => number): Pose {
  if (path.length === 1) return path[0];
  const lens = path.slice(1).map((p, i) => distance(path[i], p));
  let rest = s * lens.reduce((t, v) => t + v, 0);
  for (let i = 0; i < lens.length; i++) {
    if (rest <= lens[i] || i === lens.length - 1) return interpolatePose(path[i], path[i + 1], lens[i] > 0 ? Math.min(1, rest / lens[i]) : 1);
    rest -= lens[i];
  }
  return path[path.length - 1];
}

/**
 * Searches for a path from `start` to any of `goals` (all free) until one is found or `budget`
 * more samples are spent. `guides` (an author's route, the path of an easier, relaxed problem)
 * are repaired into milestones first, then draw targets near them.
 */
export function searchForest(ctx: SearchContext, start: Pose, goals: Pose[], guides: Pose[][], budget: number): SearchPath | null {
  const { rng, counters, settings: st, distance } = ctx;
  const limit = counters.samples + budget;
  const cellSize = st.stepLength;
  const startTree = new Tree('start', cellSize);
  startTree.add(start, -1);
  const goalTree = new Tree('goal', cellSize);
  for (const g of goals) goalTree.add(g, -1);
  /** Every tree: the start tree, the goal tree, then local trees oldest first. */
  const forest: Tree[] = [startTree, goalTree];

  /** A node drawn from any tree (the start and goal trees as likely as all local trees together). */
  const anyNode = (): Pose => {
    const k = rng.below(4);
    const locals = forest.length - 2;
    const t = k < 2 || locals === 0 ? forest[k % 2] : forest[2 + rng.below(locals)];
    return t.nodes[t.sparseNode(rng)].pose;
  };
  /** `q` turned about a random allowed axis by a Gaussian angle of deviation `sigma`. */
  const jitter = (q: Quat, sigma: number): Quat => {
    if (ctx.rotation === 'fixed' || sigma === 0) return [...q];
    let axis: Vec3;
    if (ctx.rotation === 'free') {
      axis = [rng.normal(), rng.normal(), rng.normal()];
      const n = Math.hypot(...axis) || 1;
      axis = [axis[0] / n, axis[1] / n, axis[2] / n];
    } else {
      axis = ctx.rotation.about[rng.below(ctx.rotation.about.length)];
    }
    return qnormalize(qmul(qaxisAngle(axis, sigma * rng.normal()), q));
  };
  /**
   * A target orientation: uniform over the allowed rotations, or (share `reuseOrientation`) the
   * orientation of a node the trees already hold, slightly turned — passages are often entered
   * in an orientation some tree already has (the goal's, the start's).
   */
  const sampleOrientation = (): Quat => {
    if (ctx.rotation === 'fixed') return [...start.q];
    if (st.reuseOrientation > 0 && rng.next() < st.reuseOrientation) return jitter(anyNode().q, 0.25 * st.sigmaAngle);
    if (ctx.rotation === 'free') return rng.quaternion();
    let q = start.q;
    for (const axis of ctx.rotation.about) q = qmul(qaxisAngle(axis, rng.range(-Math.PI, Math.PI)), q);
    return qnormalize(q);
  };
  const b = ctx.bounds;
  const sampleUniform = (): Pose => {
    counters.samples++;
    return { p: [rng.range(b.min[0], b.max[0]), rng.range(b.min[1], b.max[1]), rng.range(b.min[2], b.max[2])], q: sampleOrientation() };
  };
  /** A Gaussian step from `pose` (sigmas scaled by `scale`); with `turn` false the orientation is kept. */
  const near = (pose: Pose, scale: number, turn = true): Pose => {
    counters.samples++;
    const sl = st.sigmaLength * scale;
    const p: Vec3 = [pose.p[0] + sl * rng.normal(), pose.p[1] + sl * rng.normal(), pose.p[2] + sl * rng.normal()];
    return { p, q: turn ? jitter(pose.q, st.sigmaAngle * scale) : [...pose.q] };
  };
  /**
   * Bridge test (a free midpoint between two nearby poses that both overlap a body). Half the
   * bridges start near a node the trees hold, in its orientation, and bridge in position only.
   */
  const bridgeSample = (): Pose | null => {
    const anchored = rng.next() < 0.5;
    const a0 = anchored ? near(anyNode(), 2, false) : sampleUniform();
    if (!ctx.hitsBody(a0)) return null;
    const a1 = near(a0, 1, !anchored && rng.next() < 0.5);
    if (!ctx.hitsBody(a1)) return null;
    const m = interpolatePose(a0, a1, 0.5);
    return ctx.isFree(m) ? m : null;
  };
  /** Gaussian boundary sampling: the free one of an overlapping/non-overlapping pair a Gaussian step apart. */
  const gaussianSample = (): Pose | null => {
    const a0 = sampleUniform();
    const a1 = near(a0, 1, rng.next() < 0.5);
    const h0 = ctx.hitsBody(a0);
    const h1 = ctx.hitsBody(a1);
    if (h0 === h1) return null;
    const free = h0 ? a1 : a0;
    return ctx.isFree(free) ? free : null;
  };

  const nearest = (tree: Tree, pose: Pose): number => {
    let best = 0;
    let bestD = Infinity;
    for (let i = 0; i < tree.nodes.length; i++) {
      const d = distance(tree.nodes[i].pose, pose);
      if (d < bestD) {
        bestD = d;
        best = i;
      }
    }
    return best;
  };

  /** One bounded step of `tree` toward `target` (kept in part when blocked). */
  const extend = (tree: Tree, target: Pose, from?: number): StepOutcome => {
    const i = from ?? nearest(tree, target);
    const a = tree.nodes[i].pose;
    const dp = vdist(a.p, target.p);
    const da = qangle(a.q, target.q);
    if (dp < 1e-9 && da < 1e-9) return { status: 'reached', index: i };
    const f = Math.min(1, dp > 0 ? st.stepLength / dp : 1, da > 0 ? st.stepAngle / da : 1);
    const to = f >= 1 ? target : interpolatePose(a, target, f);
    const m = ctx.motion(a, to);
    if (m.free) return { status: f >= 1 ? 'reached' : 'advanced', index: tree.add(to, i) };
    // Keep the free part of a blocked step if it is worth a node (and really is free).
    const part = m.partial;
    if (part && distance(a, part) > 0.2 * Math.min(st.stepLength, distance(a, to)) && ctx.motion(a, part).free) {
      return { status: 'advanced', index: tree.add(part, i) };
    }
    return { status: 'trapped' };
  };

  /** Greedy steps of `tree` toward `target` until it is reached or the tree is stuck. */
  const connect = (tree: Tree, target: Pose): StepOutcome => {
    let at = nearest(tree, target);
    for (let k = 0; k < 1000; k++) {
      const r = extend(tree, target, at);
      if (r.status !== 'advanced') return r;
      at = r.index;
    }
    return { status: 'trapped' };
  };

  /** Root-ward path of node `i` of `tree` (the node first). */
  const toRoot = (tree: Tree, i: number): Pose[] => {
    const out: Pose[] = [];
    for (let k = i; k >= 0; k = tree.nodes[k].parent) out.push(tree.nodes[k].pose);
    return out;
  };

  /**
   * Moves every node of `from` into `into`, re-rooted at `from`'s node `j`, which hangs under
   * `into`'s node `at` (the two hold the same pose).
   */
  const merge = (into: Tree, at: number, from: Tree, j: number): void => {
    const map = new Map<number, number>();
    let parent = at;
    for (let k = j; k >= 0; k = from.nodes[k].parent) {
      parent = into.add(from.nodes[k].pose, parent);
      map.set(k, parent);
    }
    // The rest keep their parents; each is added once its parent is in.
    let pending = from.nodes.map((_, k) => k).filter((k) => !map.has(k));
    while (pending.length) {
      const next: number[] = [];
      for (const k of pending) {
        const p = from.nodes[k].parent;
        if (map.has(p)) map.set(k, into.add(from.nodes[k].pose, map.get(p)!));
        else next.push(k);
      }
      if (next.length === pending.length) break;
      pending = next;
    }
  };

  let found: SearchPath | null = null;
  /** Records the path through the meeting of the start and goal trees. */
  const joined = (t1: Tree, i1: number, t2: Tree, i2: number): void => {
    const [s, si, g, gi] = t1.kind === 'start' ? [t1, i1, t2, i2] : [t2, i2, t1, i1];
    const toGoal = toRoot(g, gi);
    found = { poses: [...toRoot(s, si).reverse(), ...toGoal.slice(1)], goal: toGoal[toGoal.length - 1] };
  };

  /**
   * After node `i` joined `tree`, the other trees try to reach it: the start and goal trees
   * always (RRT-Connect), local trees when they hold a node within the join radius. A local tree
   * that reaches it is merged. True once the start and goal trees meet. With `eager` (a fresh
   * narrow-passage sample) the start and goal trees always try, wherever they are: the greedy
   * attempt alone draws them toward the passage.
   */
  const tryJoin = (tree: Tree, i: number, eager = false): boolean => {
    let cur = tree;
    let at = i;
    for (const other of [...forest]) {
      if (other === cur || !forest.includes(other)) continue;
      const x = cur.nodes[at].pose;
      const main = cur.kind !== 'local' && other.kind !== 'local';
      const pull = eager && other.kind !== 'local';
      if (!main && !pull && distance(other.nodes[nearest(other, x)].pose, x) > st.joinRadius) continue;
      const c = connect(other, x);
      if (c.status !== 'reached') continue;
      if (main) {
        joined(cur, at, other, c.index);
        return true;
      }
      if (other.kind === 'local') {
        merge(cur, at, other, c.index);
        forest.splice(forest.indexOf(other), 1);
      } else {
        // A local tree reached by the start or goal tree becomes part of it.
        merge(other, c.index, cur, at);
        forest.splice(forest.indexOf(cur), 1);
        cur = other;
        at = c.index;
      }
    }
    return false;
  };

  /** Adds a free pose as a new local tree and lets it join; true once the main trees meet. */
  const plant = (pose: Pose): boolean => {
    const t = new Tree('local', cellSize);
    t.add(pose, -1);
    forest.push(t);
    if (tryJoin(t, 0, true)) return true;
    if (forest.length - 2 > st.maxLocalTrees) forest.splice(2, 1);
    return false;
  };

  const region = ctx.goalRegion;
  let regionAdded = 0;
  const guideShare = guides.length ? st.guide : 0;
  /** A free pose at (or retracted from) `pose`, or null. */
  const freeNear = (pose: Pose): Pose | null => (ctx.isFree(pose) ? pose : ctx.retract ? ctx.retract(pose) : null);

  for (const guide of guides) {
    if (!ctx.retract) break;
    // Repair each guide first: poses along it one step apart, each retracted into free space if
    // it is not free, planted in order so each joins the last (a chain through the passage).
    let length = 0;
    for (let i = 1; i < guide.length; i++) length += distance(guide[i - 1], guide[i]);
    const n = Math.min(200, Math.ceil(length / st.stepLength));
    for (let k = 1; k < n && counters.samples < limit; k++) {
      counters.samples++;
      const pose = freeNear(pointAlong(guide, k / n, distance));
      if (pose && plant(pose)) return finish();
    }
  }
  for (let round = 0; counters.samples < limit; round++) {
    if (region && round % region.every === region.every - 1 && regionAdded < region.max) {
      counters.samples++;
      const g = region.sample(rng);
      if (ctx.isFree(g)) {
        goalTree.add(g, -1);
        regionAdded++;
      }
    }
    const locals = forest.length - 2;
    const grow = locals > 0 && rng.next() < st.growLocal ? forest[2 + rng.below(locals)] : forest[round % 2];
    const other = grow === startTree ? goalTree : startTree;
    let u = rng.next();
    let step: StepOutcome;
    if ((u -= guideShare) < 0) {
      // Near the guide path: half become tree targets, half local trees (milestones). Half keep
      // (about) the guide's orientation; the others sample one, since a guide from a smaller part
      // or a probe shows the route better than the turns.
      // The noise is drawn on a log scale from half the sigmas down to 1/64 of them: the guide of
      // a thinner part may be off by a lot in open space and by a hair inside a passage.
      const g = pointAlong(guides[rng.below(guides.length)], rng.next(), distance);
      const scale = 0.5 * 2 ** (-5 * rng.next());
      const target = rng.next() < 0.5 ? near(g, scale) : { p: near(g, scale, false).p, q: sampleOrientation() };
      if (rng.next() < 0.5) step = extend(grow, target);
      else {
        const milestone = freeNear(target);
        if (!milestone) continue;
        if (plant(milestone)) break;
        continue;
      }
    } else if ((u -= st.goalBias) < 0) {
      const roots = other.nodes.filter((n) => n.parent < 0);
      step = extend(grow, roots[rng.below(roots.length)].pose);
    } else if ((u -= st.bridge + st.gaussian) < 0) {
      const narrow = u + st.gaussian < 0 ? bridgeSample() : gaussianSample();
      if (!narrow) continue;
      counters.narrowSamples++;
      if (plant(narrow)) break;
      continue;
    } else if ((u -= st.perturb) < 0) {
      const from = grow.sparseNode(rng);
      step = extend(grow, near(grow.nodes[from].pose, 0.5), from);
    } else {
      step = extend(grow, sampleUniform());
    }
    if (step.status !== 'trapped' && tryJoin(grow, step.index)) break;
  }
  return finish();

  function finish(): SearchPath | null {
    counters.nodes += forest.reduce((n, t) => n + t.nodes.length, 0);
    return found;
  }
}
