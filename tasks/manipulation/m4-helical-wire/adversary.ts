/**
 * M4's own text-only adversary, `wire-candidate-prober` (issue 36): what a patient model that
 * never looks at a picture could do with the rules, the tool schemas and the ok / refused outcome
 * of its own calls — never the percentages (there are none) and never an image.
 *
 * It reconstructs the worlds the generator could have drawn: it samples the family's own scene
 * draw for the tier many times (`CANDIDATE_DRAWS`, with its own random stream), keeps the distinct
 * wires (with their working-frame turns), and then plays them like a particle filter. Each turn it
 * asks a dozen surviving candidates where a 12 mm advance along their own wire would take the ring
 * (centred on the wire and square to it), picks the advance that most surviving candidates predict
 * is accepted, sends a chain of such advances, and keeps only the candidates whose predicted
 * outcome of every executed call (accepted or refused) matches what happened. Predictions use the
 * family's geometry: the ring as a square-section torus against the wire's centre line (within the
 * wire's radius), the base block, the workspace, and the topology rule of `wire.ts` sampled along
 * the motion as the engine sweeps it (linear position, slerped turn, the tools' own `callLegs`).
 * When no candidate matches every outcome it follows those with the fewest mismatches, and gives
 * up after a few.
 *
 * On the old family (wires on coarse grids: riser heights, run lengths, helix radius and pitch on
 * 5–10 mm steps, eight or four headings, quarter-turn phases, frame turns on 15° steps) about ten
 * thousand wires covered every draw and this agent solved 20 of 20 L1 and 7 of 8 L7 seeds; with the
 * course drawn continuously no sampled candidate is within the ring's few millimetres of
 * clearance of the real wire for long, and the action budget ends the episode.
 */
import { Rng } from '../../../core/rng.ts';
import { interpolatePose, qaxisAngle, qmul, qnormalize, qrotate, vdist, yawQuat } from '../../../sim/math.ts';
import type { Pose, Quat, Vec3 } from '../../../sim/types.ts';
import { callLegs, callsBetween, type HeldPartMotion } from '../../../solvers/se3-planner/motion.ts';
import type { SightlessContext, SightlessStrategy } from '../../sightless.ts';
import type { Tier, ToolCall } from '../../types.ts';
import { BASE_HALF, WORKSPACE, type M4Scene } from './scene.ts';
import { m4Tools } from './tools.ts';
import { goalPose, offWireAllowed } from './wire.ts';

/**
 * How many scene draws the prober samples per tier (distinct wires are kept). The figures in the
 * README were measured with 12,000; the battery uses 6,000 so the check-suite's quick battery
 * stays affordable (on version 2 no sampled wire is the real one either way).
 */
export const CANDIDATE_DRAWS = 6000;
/** How far each advance moves the ring along a candidate's wire, metres (shorter ones where a candidate predicts its own longer advance refused). */
const STEPS = [0.012, 0.006, 0.003];
/** Proposals tried per turn, and candidates each proposal is scored on. */
const PROPOSERS = 12;
const SCORERS = 300;
/** The prober gives up when even the best candidates have mismatched this many outcomes. */
const GIVE_UP_MISMATCHES = 6;

/** A way to draw an M4 scene for a tier from a random stream (the family's generator draw). */
export type M4SceneDraw = (tier: Tier, rng: Rng) => M4Scene;

interface Candidate {
  scene: M4Scene;
  motion: HeldPartMotion;
  /** Cumulative arc length at each wire point. */
  arc: number[];
  pose: Pose;
  mismatches: number;
  /** Turns of the history folded into `pose` and `mismatches` so far. */
  folded: number;
}

interface EpisodeState {
  key: string;
  seen: number;
  candidates: Candidate[];
}

/** Sampled candidates per scene draw and tier (a draw is sampled once per process). */
const candidateCache = new WeakMap<M4SceneDraw, Map<string, M4Scene[]>>();

function sub(a: Vec3, b: Vec3): Vec3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}
function dot(a: Vec3, b: Vec3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
function unit(a: Vec3): Vec3 {
  const n = Math.hypot(a[0], a[1], a[2]);
  return [a[0] / n, a[1] / n, a[2] / n];
}

/** The distinct scenes the generator draws for `tier`, sampled `CANDIDATE_DRAWS` times. */
function sampledScenes(draw: M4SceneDraw, tier: Tier, draws: number): M4Scene[] {
  const key = `${tier}/${draws}`;
  if (!candidateCache.has(draw)) candidateCache.set(draw, new Map());
  const cache = candidateCache.get(draw)!;
  const hit = cache.get(key);
  if (hit) return hit;
  const seen = new Set<string>();
  const out: M4Scene[] = [];
  for (let k = 0; k < draws; k++) {
    const s = draw(tier, new Rng(`M4-adversary/${tier}/${k}`));
    const pts = s.wire.points;
    const id = JSON.stringify([pts.length, pts[1], pts[Math.floor(pts.length / 2)], pts[pts.length - 1], s.frameYawDeg]);
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(s);
  }
  cache.set(key, out);
  return out;
}

function makeCandidate(scene: M4Scene): Candidate {
  const pts = scene.wire.points;
  const arc = [0];
  for (let i = 1; i < pts.length; i++) arc.push(arc[i - 1] + vdist(pts[i - 1], pts[i]));
  return { scene, motion: m4Tools(yawQuat(scene.frameYawDeg)).motion, arc, pose: { p: [...scene.start.p], q: [...scene.start.q] }, mismatches: 0, folded: 0 };
}

/** Whether the ring at `pose` touches the wire (torus of square section against the centre line within the wire's radius). */
function hitsWire(s: M4Scene, pose: Pose, near: number[]): boolean {
  // Scalars, not Vec3 arrays: this runs for every sample of every candidate's predicted motion
  // (the same arithmetic, in the same order, as with the vector helpers).
  const c = pose.p;
  const n = qrotate(pose.q, [0, 1, 0]);
  const R = s.ring.radius;
  const h = s.ring.halfThickness;
  const wr = s.wire.radius;
  const reach = R + h + wr + 0.001;
  const pts = s.wire.points;
  for (const i of near) {
    const a = pts[i];
    const e = pts[i + 1];
    const d0 = e[0] - a[0];
    const d1 = e[1] - a[1];
    const d2 = e[2] - a[2];
    const ac0 = a[0] - c[0];
    const ac1 = a[1] - c[1];
    const ac2 = a[2] - c[2];
    const dd = d0 * d0 + d1 * d1 + d2 * d2;
    const b = ac0 * d0 + ac1 * d1 + ac2 * d2;
    const cc = ac0 * ac0 + ac1 * ac1 + ac2 * ac2 - reach * reach;
    const disc = b * b - dd * cc;
    if (disc < 0) continue;
    const r = Math.sqrt(disc);
    const t0 = Math.max(0, (-b - r) / dd);
    const t1 = Math.min(1, (-b + r) / dd);
    if (t0 > t1) continue;
    const len = Math.sqrt(dd);
    const k = Math.max(1, Math.ceil(((t1 - t0) * len) / 0.0015));
    for (let j = 0; j <= k; j++) {
      const t = t0 + ((t1 - t0) * j) / k;
      const v0 = ac0 + d0 * t;
      const v1 = ac1 + d1 * t;
      const v2 = ac2 + d2 * t;
      const y = v0 * n[0] + v1 * n[1] + v2 * n[2];
      const rho = Math.hypot(v0 - y * n[0], v1 - y * n[1], v2 - y * n[2]);
      const dy = Math.max(Math.abs(y) - h, 0);
      const dr = Math.max(R - h - rho, rho - R - h, 0);
      if (dy * dy + dr * dr < wr * wr) return true;
    }
  }
  return false;
}

/** Whether the ring at `pose` touches the base block or leaves the workspace. */
function hitsBaseOrLeaves(s: M4Scene, pose: Pose): boolean {
  const ext = s.ring.radius + s.ring.halfThickness;
  for (let j = 0; j < 3; j++) if (pose.p[j] - ext < WORKSPACE.min[j] - 1e-9 || pose.p[j] + ext > WORKSPACE.max[j] + 1e-9) return true;
  const h = s.ring.halfThickness * Math.SQRT2;
  // Well above the base (or beside it) the ring cannot touch it.
  if (pose.p[1] - ext - h > 2 * BASE_HALF[1] || Math.abs(pose.p[0]) - ext - h > BASE_HALF[0] || Math.abs(pose.p[2]) - ext - h > BASE_HALF[2]) return false;
  for (let k = 0; k < 24; k++) {
    const a = (2 * Math.PI * k) / 24;
    const w = qrotate(pose.q, [s.ring.radius * Math.cos(a), 0, s.ring.radius * Math.sin(a)]);
    const x = pose.p[0] + w[0];
    const y = pose.p[1] + w[1];
    const z = pose.p[2] + w[2];
    if (Math.abs(x) < BASE_HALF[0] + h && y < 2 * BASE_HALF[1] + h && Math.abs(z) < BASE_HALF[2] + h) return true;
  }
  return false;
}

/** Whether the ring is allowed at `pose` in candidate `s` (no contact, on the wire or free at its end). */
/** Whether the wire's centre line crosses the ring's disc an odd number of times (as `wire.ts` `linked`, over the nearby stretches only: no other can cross the disc). */
function linkedNear(s: M4Scene, pose: Pose, near: number[]): boolean {
  const axis = qrotate(pose.q, [0, 1, 0]);
  const c = pose.p;
  const pts = s.wire.points;
  let n = 0;
  for (const i of near) {
    const da = dot(sub(pts[i], c), axis);
    const db = dot(sub(pts[i + 1], c), axis);
    if ((da > 0 && db > 0) || (da < 0 && db < 0) || da === db) continue;
    if (db === 0) continue;
    const t = da / (da - db);
    const x: Vec3 = [pts[i][0] + t * (pts[i + 1][0] - pts[i][0]), pts[i][1] + t * (pts[i + 1][1] - pts[i][1]), pts[i][2] + t * (pts[i + 1][2] - pts[i][2])];
    if (vdist(x, c) < s.ring.radius) n++;
  }
  return n % 2 === 1;
}

function poseAllowed(s: M4Scene, pose: Pose, near: number[]): boolean {
  if (hitsBaseOrLeaves(s, pose) || hitsWire(s, pose, near)) return false;
  return linkedNear(s, pose, near) || offWireAllowed(s, pose);
}

/** The wire's stretches that come within `radius` of `p` (the only ones a motion inside that ball can meet). */
function stretchesNear(s: M4Scene, p: Vec3, radius: number): number[] {
  const pts = s.wire.points;
  const out: number[] = [];
  for (let i = 0; i + 1 < pts.length; i++) {
    const a = pts[i];
    const b = pts[i + 1];
    const mid: Vec3 = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];
    if (vdist(mid, p) - vdist(a, b) / 2 <= radius) out.push(i);
  }
  return out;
}

/** The predicted outcome of one call from the candidate's pose: the pose after it, or null if refused. */
function predict(c: Candidate, from: Pose, call: ToolCall): Pose | null {
  let legs: Pose[];
  try {
    legs = callLegs(c.motion, from, call);
  } catch {
    return null;
  }
  let at = from;
  const R = c.scene.ring.radius + c.scene.ring.halfThickness;
  let reach = 0;
  for (const leg of legs) reach = Math.max(reach, vdist(from.p, leg.p));
  const near = stretchesNear(c.scene, from.p, reach + R + c.scene.wire.radius + 0.002);
  for (const leg of legs) {
    const dq = Math.abs(at.q[0] * leg.q[0] + at.q[1] * leg.q[1] + at.q[2] * leg.q[2] + at.q[3] * leg.q[3]);
    const turn = 2 * Math.acos(Math.min(1, dq));
    const n = Math.max(1, Math.ceil(Math.max(vdist(at.p, leg.p), turn * R) / 0.002));
    for (let k = 1; k <= n; k++) if (!poseAllowed(c.scene, interpolatePose(at, leg, k / n), near)) return null;
    at = leg;
  }
  return at;
}

/** The pose `STEP` further along the candidate's wire from where its ring is (or the goal past the free end), square to the wire, keeping the ring's spin. */
function advance(c: Candidate, from: Pose, step: number): Pose {
  const pts = c.scene.wire.points;
  // Nearest point of the centre line to the ring's centre.
  let best = Infinity;
  let sAt = 0;
  for (let i = 0; i + 1 < pts.length; i++) {
    const d = sub(pts[i + 1], pts[i]);
    const dd = dot(d, d);
    const t = Math.max(0, Math.min(1, dot(sub(from.p, pts[i]), d) / dd));
    const x: Vec3 = [pts[i][0] + d[0] * t, pts[i][1] + d[1] * t, pts[i][2] + d[2] * t];
    const e = vdist(x, from.p);
    if (e < best - 1e-12) {
      best = e;
      sAt = c.arc[i] + t * Math.sqrt(dd);
    }
  }
  const total = c.arc[c.arc.length - 1];
  const target = sAt + step;
  if (target >= total) return goalPose(c.scene);
  const at = (s: number): Vec3 => {
    s = Math.max(0, Math.min(total, s));
    let i = 0;
    while (i + 2 < c.arc.length && c.arc[i + 1] < s) i++;
    const t = (s - c.arc[i]) / Math.max(1e-12, c.arc[i + 1] - c.arc[i]);
    return [pts[i][0] + (pts[i + 1][0] - pts[i][0]) * t, pts[i][1] + (pts[i + 1][1] - pts[i][1]) * t, pts[i][2] + (pts[i + 1][2] - pts[i][2]) * t];
  };
  const p = at(target);
  const tangent = unit(sub(at(target + 0.006), at(target - 0.006)));
  const axis = qrotate(from.q, [0, 1, 0]);
  // The shortest turn taking the ring's axis onto the tangent (either way through the hole).
  const t = dot(axis, tangent) < 0 ? ([-tangent[0], -tangent[1], -tangent[2]] as Vec3) : tangent;
  const cross: Vec3 = [axis[1] * t[2] - axis[2] * t[1], axis[2] * t[0] - axis[0] * t[2], axis[0] * t[1] - axis[1] * t[0]];
  const sn = Math.hypot(...cross);
  const q: Quat = sn < 1e-12 ? [...from.q] : qnormalize(qmul(qaxisAngle(unit(cross), Math.atan2(sn, dot(axis, t))), from.q));
  return { p, q };
}

/**
 * A chain of up to `count` advances along candidate `c`'s wire from its pose, each the longest
 * of `STEPS` the candidate predicts accepted; it ends where the candidate predicts every step
 * refused (empty when even the first is).
 */
function chainOf(c: Candidate, count: number): ToolCall[] {
  const calls: ToolCall[] = [];
  let pose = c.pose;
  while (calls.length < count) {
    let moved = false;
    for (const step of STEPS) {
      const made = callsBetween(c.motion, pose, advance(c, pose, step), { round: true }) as ToolCall[];
      if (!made.length) continue;
      let at: Pose | null = pose;
      for (const call of made) at = at && predict(c, at, call);
      if (!at) continue;
      calls.push(...made);
      pose = at;
      moved = true;
      break;
    }
    if (!moved) break;
  }
  return calls.slice(0, count);
}

/** Folds the outcomes of the turns `c` has not seen yet into its pose and mismatch count. */
function foldInto(c: Candidate, history: SightlessContext['history']): void {
  let pose = c.pose;
  for (let t = c.folded; t < history.length; t++) {
    for (const r of history[t]) {
      if (r.status !== 'ok' && r.status !== 'violation') continue;
      const predicted = predict(c, pose, r.call);
      if ((predicted !== null) !== (r.status === 'ok')) c.mismatches++;
      if (r.status === 'ok') {
        // The ring really moved: follow the call in this candidate's frame.
        try {
          const legs = callLegs(c.motion, pose, r.call);
          pose = legs[legs.length - 1];
        } catch {
          // an invalid call moved nothing
        }
      }
    }
  }
  c.pose = pose;
  c.folded = history.length;
}

/**
 * The candidates with the fewest mismatches over the whole history, and that count. Folding is
 * lazy but exact: a count only grows as turns are folded in, so a candidate whose partial count
 * already exceeds the least full count can never be among the fewest and is left unfolded (most
 * of the sampled wires, after the first refusals). The result is what folding every candidate
 * would give, in the same order.
 */
function fewestMismatches(st: EpisodeState, history: SightlessContext['history']): { least: number; alive: Candidate[] } {
  for (;;) {
    let least = Infinity;
    for (const c of st.candidates) least = Math.min(least, c.mismatches);
    let folded = false;
    for (const c of st.candidates) {
      if (c.mismatches === least && c.folded < history.length) {
        foldInto(c, history);
        folded = true;
      }
    }
    if (!folded) return { least, alive: st.candidates.filter((c) => c.mismatches === least) };
  }
}

function stateFor(ctx: SightlessContext, draw: M4SceneDraw, draws: number, prior: EpisodeState | null): EpisodeState {
  let episode = prior;
  const seen = ctx.history.length;
  const key = `${ctx.view.id}/${ctx.seed}`;
  if (!episode || episode.key !== key || episode.seen > seen) {
    episode = { key, seen: 0, candidates: sampledScenes(draw, ctx.view.tier, draws).map(makeCandidate) };
  }
  episode.seen = seen;
  return episode;
}

/** Evenly spaced picks of at most `n` items. */
function spread<T>(items: T[], n: number): T[] {
  if (items.length <= n) return items;
  const out: T[] = [];
  for (let k = 0; k < n; k++) out.push(items[Math.floor((k * items.length) / n)]);
  return out;
}

/** The candidate-enumerating prober, drawing candidates with `draw` (the family's scene draw). */
export function wireCandidateProber(draw: M4SceneDraw, draws = CANDIDATE_DRAWS): SightlessStrategy {
  // One episode at a time: the state of the episode being played (rebuilt when another starts).
  let episode: EpisodeState | null = null;
  return {
    name: 'wire-candidate-prober',
    description:
      "Samples the generator's wires for the tier, then moves the ring 12 mm at a time along the advance most surviving candidates predict is accepted, keeping the candidates whose predicted outcome (accepted or refused) of every call matches.",
    bound: 0.05,
    adaptive: true,
    next(ctx) {
      const st = (episode = stateFor(ctx, draw, draws, episode));
      const { least, alive } = fewestMismatches(st, ctx.history);
      if (least > GIVE_UP_MISMATCHES) return null;
      const scorers = spread(alive, SCORERS);
      let bestCalls: ToolCall[] | null = null;
      let bestScore = -1;
      for (const proposer of spread(alive, PROPOSERS)) {
        const calls = chainOf(proposer, Math.max(1, ctx.actionCap));
        if (!calls.length) continue;
        let score = 0;
        for (const c of scorers) if (predict(c, c.pose, calls[0])) score++;
        if (score > bestScore) {
          bestScore = score;
          bestCalls = calls;
        }
      }
      return bestCalls;
    },
  };
}
