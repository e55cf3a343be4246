/**
 * V5's reference paths (the rotation seed's search reference): the inverse of the scramble
 * (always a solution), a breadth-first search restricted to 30° rotations, and a pose-guided
 * beam search of width 256 over all 24 actions. Every candidate is replayed with the exact
 * projection IoU; the shortest verified one is the reference.
 */
import { ACTIONS, applyRotation, inverseAction, type Quaternion } from './rotation.ts';
import { actionIndexOf, modelOf, type V5Model } from './model.ts';
import type { V5Scene } from './scene.ts';
import { coarseSilhouette, IOU_SUCCESS, maskIoU } from './projection.ts';

/** Rotations in a row without raising the best IoU that end an episode (stagnation). */
export const STAGNATION_LIMIT = 10;
/** Most rotations an episode may use (the step cap). */
export const STEP_CAP = 48;
/** Width of the pose-guided beam. */
export const BEAM_WIDTH = 256;
/** Deepest beam level tried. */
const BEAM_DEPTH = 40;
/**
 * The searches compute the exact IoU only where the pose error is at most this (degrees):
 * a silhouette within 0.90 IoU of the target sits far closer to a target pose than this.
 */
const CHECK_POSE_DEG = 24;
/** Exact IoU evaluations per beam level, nearest poses first. */
const BEAM_CHECKS = 6;
/**
 * Poses whose coarse IoU is below this are not checked exactly (the coarse grid stays within
 * about 0.04 of the exact IoU near the target).
 */
const COARSE_SCREEN = 0.84;

const coarseTargets = new WeakMap<V5Model, Uint8Array>();

/**
 * Whether a pose passes the exact success test, screened first by pose error and by the
 * coarse IoU; counts exact evaluations in `tally`.
 */
function succeeds(model: V5Model, q: Quaternion, dot: number, tally: { checked: number; screened: number }): boolean {
  if (dot < NEAR_DOT) return false;
  let target = coarseTargets.get(model);
  if (!target) coarseTargets.set(model, (target = coarseSilhouette(model.solid, [0, 0, 0, 1])));
  tally.screened++;
  if (maskIoU(coarseSilhouette(model.solid, q), target) < COARSE_SCREEN) return false;
  tally.checked++;
  return model.iou(q) >= IOU_SUCCESS;
}

/** The outcome of replaying a path from the initial pose. */
export interface Replay {
  /** IoU after each step. */
  ious: number[];
  /** Steps after which the IoU first reached 0.90 (null: never). */
  solvedAt: number | null;
  /** Steps after which the stagnation rule would have ended the episode first (null: never). */
  stagnatedAt: number | null;
}

/**
 * Replays action indices from the model's initial pose, applying the episode's rules: the
 * first step reaching IoU ≥ 0.90 ends it, and so do {@link STAGNATION_LIMIT} steps in a row
 * that do not raise the best IoU so far.
 */
export function replayPath(model: V5Model, path: readonly number[]): Replay {
  let q: Quaternion = model.initial;
  let best = model.iou(q);
  let since = 0;
  const ious: number[] = [];
  for (let k = 0; k < path.length; k++) {
    q = applyRotation(model.actions[path[k]], q);
    const iou = model.iou(q);
    ious.push(iou);
    if (iou >= IOU_SUCCESS) return { ious, solvedAt: k + 1, stagnatedAt: null };
    if (iou > best) {
      best = iou;
      since = 0;
    } else if (++since >= STAGNATION_LIMIT) return { ious, solvedAt: null, stagnatedAt: k + 1 };
  }
  return { ious, solvedAt: null, stagnatedAt: null };
}

/** cos(half the pose-error limit): a pose is near a target when max |⟨q, s⟩| is at least this. */
const NEAR_DOT = Math.cos(((CHECK_POSE_DEG / 2) * Math.PI) / 180);

function nearestDot(q: readonly number[], group: readonly Quaternion[]): number {
  let best = 0;
  for (const s of group) best = Math.max(best, Math.abs(q[0] * s[0] + q[1] * s[1] + q[2] * s[2] + q[3] * s[3]));
  return best;
}

function poseKey(q: readonly number[], digits: number): string {
  // q and −q are the same rotation: fix the sign by the first clearly non-zero component.
  let sign = 1;
  for (const i of [3, 0, 1, 2]) {
    if (Math.abs(q[i]) > 1e-9) {
      sign = q[i] < 0 ? -1 : 1;
      break;
    }
  }
  const k = 10 ** digits;
  return q.map((c) => Math.round(c * sign * k) + 0).join(',');
}

/** Indices of the six 30° actions, and of each action's inverse. */
const THIRTY = ACTIONS.map((a, i) => (a.angle === 30 ? i : -1)).filter((i) => i >= 0);
const INVERSE = ACTIONS.map((a) => {
  const b = inverseAction(a);
  return ACTIONS.findIndex((c) => c.axis === b.axis && c.direction === b.direction && c.angle === b.angle);
});

/** Result of one search. */
export interface SearchResult {
  path: number[] | null;
  /** Poses generated. */
  generated: number;
  /** Coarse IoU screens. */
  screened: number;
  /** Exact IoU evaluations. */
  checked: number;
}

/**
 * Breadth-first search over 30° rotations from the initial pose, never undoing the previous
 * move, to depth `maxDepth`: the first pose (in breadth-first order) whose exact IoU reaches
 * 0.90. Poses reached twice are expanded once.
 */
export function bfs30(model: V5Model, maxDepth: number): SearchResult {
  const group = model.symmetry().quaternions;
  const seen = new Set<string>([poseKey(model.initial, 9)]);
  let frontier: Array<{ q: Quaternion; path: number[] }> = [{ q: model.initial, path: [] }];
  let generated = 0;
  const tally = { checked: 0, screened: 0 };
  for (let depth = 1; depth <= maxDepth && frontier.length; depth++) {
    const next: typeof frontier = [];
    for (const node of frontier) {
      const last = node.path.length ? node.path[node.path.length - 1] : -1;
      for (const a of THIRTY) {
        if (last >= 0 && a === INVERSE[last]) continue;
        const q = applyRotation(model.actions[a], node.q);
        const key = poseKey(q, 9);
        if (seen.has(key)) continue;
        seen.add(key);
        generated++;
        const path = [...node.path, a];
        if (succeeds(model, q, nearestDot(q, group), tally)) return { path, generated, ...tally };
        if (depth < maxDepth) next.push({ q, path });
      }
    }
    frontier = next;
  }
  return { path: null, generated, ...tally };
}

/** The rotation axis (unit, world frame) of the `+` 30° action about each named axis. */
function axesOf(model: V5Model): Array<[number, number, number]> {
  return ['x', 'y', 'z'].map((axis) => {
    const i = ACTIONS.findIndex((a) => a.axis === axis && a.direction === '+' && a.angle === 30);
    const q = model.actions[i];
    const n = Math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
    return [q[0] / n, q[1] / n, q[2] / n];
  });
}

/** Index of the action about `axis` (0–2) in `direction` whose angle is closest to `deg`. */
function closestAction(axis: number, plus: boolean, deg: number): number {
  let best = -1;
  let gap = Infinity;
  ACTIONS.forEach((a, i) => {
    if (a.axis !== ['x', 'y', 'z'][axis] || (a.direction === '+') !== plus) return;
    const d = Math.abs(a.angle - deg);
    if (d < gap) {
      gap = d;
      best = i;
    }
  });
  return best;
}

/**
 * Pose-guided beam search: from every pose in the beam, each of the six axis directions gets
 * its residual — the turn about that axis that brings the pose closest to a symmetry-equivalent
 * target — and the allowed angle closest to it. Children are ranked by pose error, poses
 * closer than 0.01 in quaternion terms kept once (orientation diversity), and the best
 * `width` kept. At each level the nearest few are checked with the exact IoU.
 */
export function beamSearch(model: V5Model, width = BEAM_WIDTH, maxDepth = BEAM_DEPTH): SearchResult {
  const group = model.symmetry().quaternions;
  const axes = axesOf(model);
  interface Node {
    q: Quaternion;
    path: number[];
    dot: number;
  }
  let beam: Node[] = [{ q: model.initial, path: [], dot: nearestDot(model.initial, group) }];
  let generated = 0;
  const tally = { checked: 0, screened: 0 };
  for (let depth = 1; depth <= maxDepth; depth++) {
    const children = new Map<string, Node>();
    for (const node of beam) {
      for (let axis = 0; axis < 3; axis++) {
        const n = axes[axis];
        // Best turn about n toward each target s: the scalar part of rot(n, θ)·r·s⁻¹ is
        // A cos(θ/2) + B sin(θ/2), largest in magnitude at θ/2 = atan(B / A).
        const best = { plus: { reach: -1, deg: 0 }, minus: { reach: -1, deg: 0 } };
        for (const s of group) {
          const r = node.q;
          // m = r ⊗ s* (vector part and scalar part).
          const mw = r[3] * s[3] + r[0] * s[0] + r[1] * s[1] + r[2] * s[2];
          const mx = -r[3] * s[0] + r[0] * s[3] - r[1] * s[2] + r[2] * s[1];
          const my = -r[3] * s[1] + r[0] * s[2] + r[1] * s[3] - r[2] * s[0];
          const mz = -r[3] * s[2] - r[0] * s[1] + r[1] * s[0] + r[2] * s[3];
          const A = mw;
          const B = -(n[0] * mx + n[1] * my + n[2] * mz);
          const half = A === 0 ? Math.sign(B) * (Math.PI / 2) : Math.atan(B / A);
          const deg = (2 * half * 180) / Math.PI;
          const reach = Math.sqrt(A * A + B * B);
          if (deg > 0 && reach > best.plus.reach) best.plus = { reach, deg };
          if (deg < 0 && reach > best.minus.reach) best.minus = { reach, deg: -deg };
        }
        for (const [plus, choice] of [[true, best.plus], [false, best.minus]] as const) {
          if (choice.reach < 0) continue;
          const a = closestAction(axis, plus, choice.deg);
          const q = applyRotation(model.actions[a], node.q);
          const key = poseKey(q, 2);
          const dot = nearestDot(q, group);
          generated++;
          const old = children.get(key);
          if (!old || dot > old.dot) children.set(key, { q, path: [...node.path, a], dot });
        }
      }
    }
    beam = [...children.values()].sort((a, b) => b.dot - a.dot || a.path.length - b.path.length).slice(0, width);
    for (const node of beam.slice(0, BEAM_CHECKS)) {
      if (succeeds(model, node.q, node.dot, tally)) return { path: node.path, generated, ...tally };
    }
  }
  return { path: null, generated, ...tally };
}

/** The reference path and how it was chosen. */
export interface ReferencePath {
  /** Action indices into {@link ACTIONS}. */
  path: number[];
  /** Which search gave it. */
  source: 'inverse' | 'bfs30' | 'beam';
  /** Verified lengths of every candidate (null: none found or not verified). */
  lengths: { inverse: number | null; bfs30: number | null; beam: number | null };
  /** IoU after each step of the chosen path. */
  ious: number[];
}

function verified(model: V5Model, path: number[] | null): number[] | null {
  if (!path) return null;
  const r = replayPath(model, path);
  return r.solvedAt === null ? null : path.slice(0, r.solvedAt);
}

/**
 * The reference of a scene: the inverse scramble, the 30° breadth-first search (to one move
 * less than the inverse needs) and the beam search, each verified by replay; the shortest
 * verified path wins (on a tie the 30° paths first).
 */
export function findReference(scene: V5Scene): ReferencePath {
  const model = modelOf(scene);
  const inverse = verified(
    model,
    scene.scramble
      .map((label) => INVERSE[actionIndexOf(label)])
      .reverse(),
  );
  const limit = (inverse?.length ?? scene.scramble.length + 1) - 1;
  const bfs = limit > 0 ? verified(model, bfs30(model, limit).path) : null;
  const beam = verified(model, beamSearch(model).path);
  const candidates: Array<[ReferencePath['source'], number[] | null]> = [
    ['bfs30', bfs],
    ['inverse', inverse],
    ['beam', beam],
  ];
  let chosen: [ReferencePath['source'], number[]] | null = null;
  for (const [source, path] of candidates) if (path && (!chosen || path.length < chosen[1].length)) chosen = [source, path];
  if (!chosen) throw new Error('no verified reference path (the inverse scramble should always verify)');
  return {
    path: chosen[1],
    source: chosen[0],
    lengths: { inverse: inverse?.length ?? null, bfs30: bfs?.length ?? null, beam: beam?.length ?? null },
    ious: replayPath(model, chosen[1]).ious,
  };
}
