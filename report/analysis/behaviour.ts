/**
 * Behaviour metrics over episodes, as the paper measures trajectories (its §6.5 and Table
 * D.1). Definitions (also in docs/analysis.md):
 *
 * - **actions per response**: calls sent per accepted reply (a *response*; refused and
 *   abandoned turns are not responses).
 * - **calls saved by batching**: 1 − responses ÷ calls that ran in them (status ok, violation
 *   or invalid) — the share of model calls a one-call-per-turn agent would have needed more.
 * - **camera calls per episode**, solved vs unsolved (abandoned episodes left out), and the
 *   **camera share** of the calls that ran.
 * - **repeat collisions**: of the turns with a collision that have a next turn, the share
 *   whose next turn collides too.
 * - **camera after a collision**: of the same turns, the share whose next turn moves the
 *   camera at least once.
 * - **batch before / after a collision**: mean calls sent on the turn that collided and on
 *   the turn after it.
 * - **note updates per response**: the share of responses whose note differs from the last one.
 * - **violations per episode** (all kinds, and per kind) and **collisions per episode**.
 */
import { categoryOf, CATEGORIES as CATEGORY_ORDER, compareFamilies } from '../../core/catalog.ts';
import type { EpisodeTrace } from './trace.ts';

/** The behaviour figures of a group of episodes. Ratios are null when nothing was counted. */
export interface BehaviourMetrics {
  /** `all`, a category letter, a family id, or a run. */
  key: string;
  episodes: number;
  solved: number;
  unsolved: number;
  abandoned: number;
  turns: number;
  responses: number;
  callsSent: number;
  callsRan: number;
  actionsPerResponse: number | null;
  callsSavedByBatching: number | null;
  cameraPerEpisodeSolved: number | null;
  cameraPerEpisodeUnsolved: number | null;
  cameraShareSolved: number | null;
  cameraShareUnsolved: number | null;
  collisionTurns: number;
  /** Collision turns that have a next turn (the denominator of the next three). */
  collisionTurnsWithNext: number;
  repeatCollisionRate: number | null;
  cameraAfterCollisionRate: number | null;
  batchBeforeCollision: number | null;
  batchAfterCollision: number | null;
  noteUpdatesPerResponse: number | null;
  violationsPerEpisode: number | null;
  collisionsPerEpisode: number | null;
  /** Violations per episode by kind (collision, rule, workspace, statics, topology). */
  violationsByKind: Record<string, number>;
}

function ratio(a: number, b: number): number | null {
  return b > 0 ? a / b : null;
}

function meanOf(xs: number[]): number | null {
  return xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null;
}

/** Behaviour figures over `episodes` (unfinished ones are left out), labelled `key`. */
export function behaviourMetrics(key: string, episodes: readonly EpisodeTrace[]): BehaviourMetrics {
  const eps = episodes.filter((e) => e.finished);
  let turns = 0;
  let responses = 0;
  let callsSent = 0;
  let callsRanInResponses = 0;
  let callsRan = 0;
  let noteUpdates = 0;
  let collisionTurns = 0;
  let withNext = 0;
  let repeat = 0;
  let cameraAfter = 0;
  const before: number[] = [];
  const after: number[] = [];
  const camSolved: number[] = [];
  const camUnsolved: number[] = [];
  let ranSolved = 0;
  let camSolvedSum = 0;
  let ranUnsolved = 0;
  let camUnsolvedSum = 0;
  const violations: number[] = [];
  const collisions: number[] = [];
  const kinds: Record<string, number> = {};
  for (const e of eps) {
    let camera = 0;
    let ran = 0;
    let v = 0;
    let c = 0;
    e.turns.forEach((t, i) => {
      turns += 1;
      camera += t.camera;
      ran += t.ran;
      v += t.violations;
      if (t.violationKind) kinds[t.violationKind] = (kinds[t.violationKind] ?? 0) + 1;
      if (t.responded) {
        responses += 1;
        callsSent += t.sent;
        callsRanInResponses += t.ran;
        if (t.noteChanged) noteUpdates += 1;
      }
      if (t.collision) {
        c += 1;
        collisionTurns += 1;
        const next = e.turns[i + 1];
        before.push(t.sent);
        if (next) {
          withNext += 1;
          if (next.collision) repeat += 1;
          if (next.camera > 0) cameraAfter += 1;
          if (next.responded) after.push(next.sent);
        }
      }
    });
    callsRan += ran;
    violations.push(v);
    collisions.push(c);
    if (e.solved) {
      camSolved.push(camera);
      camSolvedSum += camera;
      ranSolved += ran;
    } else if (!e.abandoned) {
      camUnsolved.push(camera);
      camUnsolvedSum += camera;
      ranUnsolved += ran;
    }
  }
  const saved = callsRanInResponses > 0 ? Math.max(0, 1 - responses / callsRanInResponses) : null;
  return {
    key,
    episodes: eps.length,
    solved: eps.filter((e) => e.solved).length,
    unsolved: eps.filter((e) => !e.solved).length,
    abandoned: eps.filter((e) => e.abandoned).length,
    turns,
    responses,
    callsSent,
    callsRan,
    actionsPerResponse: ratio(callsSent, responses),
    callsSavedByBatching: saved,
    cameraPerEpisodeSolved: meanOf(camSolved),
    cameraPerEpisodeUnsolved: meanOf(camUnsolved),
    cameraShareSolved: ratio(camSolvedSum, ranSolved),
    cameraShareUnsolved: ratio(camUnsolvedSum, ranUnsolved),
    collisionTurns,
    collisionTurnsWithNext: withNext,
    repeatCollisionRate: ratio(repeat, withNext),
    cameraAfterCollisionRate: ratio(cameraAfter, withNext),
    batchBeforeCollision: meanOf(before),
    batchAfterCollision: meanOf(after),
    noteUpdatesPerResponse: ratio(noteUpdates, responses),
    violationsPerEpisode: meanOf(violations),
    collisionsPerEpisode: meanOf(collisions),
    violationsByKind: Object.fromEntries(Object.keys(kinds).sort().map((k) => [k, kinds[k] / eps.length])),
  };
}

/** Behaviour figures per category (catalog order) and per family (catalog order). */
export function behaviourByGroup(episodes: readonly EpisodeTrace[]): { byCategory: BehaviourMetrics[]; byFamily: BehaviourMetrics[] } {
  // Groups with no finished episode have nothing to show.
  const done = episodes.filter((e) => e.finished);
  const cats = CATEGORY_ORDER.filter((c) => done.some((e) => categoryOf(e.family) === c));
  const other = done.filter((e) => categoryOf(e.family) === '?');
  const byCategory = cats.map((c) => behaviourMetrics(c, done.filter((e) => categoryOf(e.family) === c)));
  if (other.length) byCategory.push(behaviourMetrics('?', other));
  const fams = [...new Set(done.map((e) => e.family))].sort(compareFamilies);
  return { byCategory, byFamily: fams.map((f) => behaviourMetrics(f, done.filter((e) => e.family === f))) };
}
