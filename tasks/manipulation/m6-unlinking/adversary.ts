/**
 * M6's own text-only adversary, `pose-prober` (issue 36): what a patient model that never looks
 * at a picture could do with the rules, the tool schemas and the ok / refused outcome of its own
 * calls.
 *
 * It reconstructs the worlds the generator could have drawn: it samples the family's own scene
 * draw for the tier many times (`CANDIDATE_DRAWS`, with its own random stream) and keeps the
 * distinct (slot angle, slot offset, start turn, start place across the bar) — the only numbers
 * its moves depend on. Each candidate predicts the outcome of a call with the family's geometry:
 * the top bar clears the hook's loop while `(|z| + bar/2)/cos ψ + (hook bar/2)·|tan ψ|` stays
 * under the loop's inner half-length, and it can pass the bottom plate only through the slot,
 * with its footprint inside the slot's walls across the whole plate. Every turn it either
 *
 * - sends a *trial* — turn and slide so the slot would be under the bar, then lift — choosing the
 *   (turn, slide) that most surviving candidates predict lets the hook off; or
 * - a *probe* — a turn about the vertical or a slide across the bar — choosing the one whose
 *   predicted outcome splits the surviving candidates most evenly (this identifies the start
 *   turn and place in a few calls);
 *
 * and keeps the candidates whose predictions matched every executed call (when none matches all,
 * those with the fewest mismatches). It trials once a trial is likely enough, or when the action
 * budget is nearly spent.
 *
 * On the old family (slot angles on 5° steps, offsets on 2 mm steps, start turns on 5° steps, start
 * places on 2 mm steps, 60 actions) it solved 20 of 20 L1 and 17 of 20 L7 seeds; with continuous draws, wider
 * ranges and a budget of a few times the reference, it has room for a handful of trials among
 * far more (turn, slide) cells than that.
 */
import { Rng } from '../../../core/rng.ts';
import type { SightlessContext, SightlessStrategy } from '../../sightless.ts';
import type { Tier, ToolCall } from '../../types.ts';
import type { M6Scene } from './scene.ts';

/** How many scene draws the prober samples per tier (distinct candidates are kept). */
export const CANDIDATE_DRAWS = 20000;
/** Candidates a probe or a trial is scored on. */
const SCORERS = 800;
/** Trial proposals scored per turn. */
const PROPOSERS = 40;
/** The lift of a trial, metres: enough to carry the plate through the bar and clear. */
const LIFT = 0.07;
/** The prober gives up when even the best candidates have mismatched this many outcomes. */
const GIVE_UP_MISMATCHES = 5;

/** A way to draw an M6 scene for a tier from a random stream (the family's generator draw). */
export type M6SceneDraw = (tier: Tier, rng: Rng) => M6Scene;

interface Geometry {
  frameBar: number;
  topY: number;
  hookBar: number;
  length: number;
  height: number;
  plateWidth: number;
  slotWidth: number;
}

/** One hypothesis: the hidden numbers and where the hook is (yaw ψ in degrees, y and z in metres). */
interface Candidate {
  g: Geometry;
  a: number;
  off: number;
  /** The slot's wall normal in the hook's (x, z) and its centre line's offset, worked out once. */
  n: [number, number];
  cl: number;
  psi: number;
  y: number;
  z: number;
  mismatches: number;
}

interface EpisodeState {
  key: string;
  seen: number;
  candidates: Candidate[];
}

/** Sampled candidates per scene draw and tier (a draw is sampled once per process). */
const candidateCache = new WeakMap<M6SceneDraw, Map<string, Omit<Candidate, 'mismatches'>[]>>();

const RAD = Math.PI / 180;

function yawOf(q: number[]): number {
  return (2 * Math.atan2(q[1], q[3])) / RAD;
}

function sampled(draw: M6SceneDraw, tier: Tier, draws: number): Omit<Candidate, 'mismatches'>[] {
  const key = `${tier}/${draws}`;
  if (!candidateCache.has(draw)) candidateCache.set(draw, new Map());
  const cache = candidateCache.get(draw)!;
  const hit = cache.get(key);
  if (hit) return hit;
  const seen = new Set<string>();
  const out: Omit<Candidate, 'mismatches'>[] = [];
  for (let k = 0; k < draws; k++) {
    const s = draw(tier, new Rng(`M6-adversary/${tier}/${k}`));
    const c = {
      g: { frameBar: s.frame.bar, topY: s.frame.topY, hookBar: s.hook.bar, length: s.hook.length, height: s.hook.height, plateWidth: s.hook.plateWidth, slotWidth: s.hook.slotWidth },
      a: s.hook.slotAngleDeg,
      off: s.hook.slotOffset,
      n: [-Math.sin(s.hook.slotAngleDeg * RAD), Math.cos(s.hook.slotAngleDeg * RAD)] as [number, number],
      cl: Math.cos(s.hook.slotAngleDeg * RAD) * s.hook.slotOffset,
      psi: yawOf(s.start.q),
      y: s.start.p[1],
      z: s.start.p[2],
    };
    const id = [c.a, c.off, c.psi, c.y, c.z, c.g.slotWidth].map((v) => v.toFixed(6)).join('/');
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(c);
  }
  cache.set(key, out);
  return out;
}

/** Whether the hook at (ψ, y, z) is clear of the frame in candidate `c` (null: free of it, solved). */
function allowed(c: Candidate, psi: number, y: number, z: number): boolean | 'free' {
  const g = c.g;
  const cos = Math.cos(psi * RAD);
  if (Math.abs(cos) < 1e-3) return false;
  const inner = g.length / 2 - g.hookBar;
  const reach = (Math.abs(z) + g.frameBar / 2) / Math.abs(cos) + (g.hookBar / 2) * Math.abs(Math.tan(psi * RAD));
  const plateBottom = y - g.height / 2;
  const plateTop = plateBottom + g.hookBar;
  const barLow = g.topY - g.frameBar / 2;
  const barHigh = g.topY + g.frameBar / 2;
  if (plateBottom >= barHigh + 0.005) return 'free';
  if (plateBottom >= barHigh) return true;
  // The hook's own top bar must stay above the frame's bar.
  if (y + g.height / 2 - g.hookBar <= barHigh) return false;
  if (reach >= inner) return false;
  if (plateTop <= barLow) return true;
  // The bar is within the plate's thickness: it must run inside the slot across the whole plate.
  const n = c.n;
  const cl = c.cl;
  const sin = Math.sin(psi * RAD);
  const delta = Math.abs(Math.asin(Math.max(-1, Math.min(1, Math.sin((psi - c.a) * RAD)))));
  const half = g.frameBar / (2 * Math.max(1e-6, Math.cos(delta)));
  for (const xl of [-g.plateWidth / 2, g.plateWidth / 2]) {
    // The bar's centre line in the hook's frame: −x sin ψ + z cos ψ = −z_hook.
    const zl = (-z + xl * sin) / cos;
    const s = n[0] * xl + n[1] * zl - cl;
    if (Math.abs(s) + half > g.slotWidth / 2) return false;
  }
  return true;
}

interface Motion {
  turn: number;
  dy: number;
  dz: number;
}

function motionOf(call: ToolCall): Motion | null {
  const a = call.args as Record<string, unknown>;
  const num = (k: string): number => (typeof a[k] === 'number' ? (a[k] as number) : 0);
  if (call.tool === 'translate') return { turn: 0, dy: num('dy_m'), dz: num('dz_m') };
  if (call.tool === 'rotate' || call.tool === 'move') {
    if (a.axis !== 'y' && num('angle_deg') !== 0) return null;
    return { turn: num('angle_deg'), dy: call.tool === 'move' ? num('dy_m') : 0, dz: call.tool === 'move' ? num('dz_m') : 0 };
  }
  return null;
}

/** The predicted outcome of a call: the pose after it (and whether it frees the hook), or null if refused. */
function predict(c: Candidate, from: { psi: number; y: number; z: number }, m: Motion): { psi: number; y: number; z: number } | null {
  const steps = Math.max(1, Math.ceil(Math.max(Math.abs(m.turn) / 2, Math.abs(m.dy) / 0.002, Math.abs(m.dz) / 0.002)));
  for (let k = 1; k <= steps; k++) {
    const t = k / steps;
    const ok = allowed(c, from.psi + m.turn * t, from.y + m.dy * t, from.z + m.dz * t);
    if (ok === false) return null;
    if (ok === 'free') break;
  }
  return { psi: from.psi + m.turn, y: from.y + m.dy, z: from.z + m.dz };
}

function stateFor(ctx: SightlessContext, draw: M6SceneDraw, draws: number, prior: EpisodeState | null): EpisodeState {
  let episode = prior;
  const seen = ctx.history.length;
  const key = `${ctx.view.id}/${ctx.seed}`;
  if (!episode || episode.key !== key || episode.seen > seen) {
    episode = { key, seen: 0, candidates: sampled(draw, ctx.view.tier, draws).map((c) => ({ ...c, mismatches: 0 })) };
  }
  for (let t = episode.seen; t < seen; t++) {
    for (const c of episode.candidates) {
      for (const r of ctx.history[t]) {
        if (r.status !== 'ok' && r.status !== 'violation') continue;
        const m = motionOf(r.call);
        if (!m) continue;
        const next = predict(c, c, m);
        if ((next !== null) !== (r.status === 'ok')) c.mismatches++;
        if (r.status === 'ok') {
          c.psi += m.turn;
          c.y += m.dy;
          c.z += m.dz;
        }
      }
    }
  }
  episode.seen = seen;
  return episode;
}

function spread<T>(items: T[], n: number): T[] {
  if (items.length <= n) return items;
  const out: T[] = [];
  for (let k = 0; k < n; k++) out.push(items[Math.floor((k * items.length) / n)]);
  return out;
}

function fold(deg: number): number {
  let d = ((deg % 180) + 180) % 180;
  if (d > 90) d -= 180;
  return d;
}

function r(x: number, step: number): number {
  return Math.round(x / step) * step;
}

/** The pose-identifying prober, drawing candidates with `draw` (the family's scene draw). */
export function poseProber(draw: M6SceneDraw, draws = CANDIDATE_DRAWS): SightlessStrategy {
  // One episode at a time: the state of the episode being played (rebuilt when another starts).
  let episode: EpisodeState | null = null;
  return {
    name: 'pose-prober',
    description:
      "Samples the generator's hooks for the tier; probes with turns and slides whose outcomes split the surviving candidates evenly (identifying the start pose), then tries the turn-slide-lift most survivors predict frees the hook, keeping the candidates whose predictions match every outcome.",
    bound: 0.05,
    adaptive: true,
    next(ctx) {
      const st = (episode = stateFor(ctx, draw, draws, episode));
      let least = Infinity;
      for (const c of st.candidates) least = Math.min(least, c.mismatches);
      if (least > GIVE_UP_MISMATCHES) return null;
      const alive = st.candidates.filter((c) => c.mismatches === least);
      const scorers = spread(alive, SCORERS);
      const used = ctx.history.reduce((n, turn) => n + turn.filter((x) => x.status === 'ok' || x.status === 'violation').length, 0);
      const left = (ctx.view.budgets.actions ?? Infinity) - used;

      // The best trial: turn and slide so the slot is under the bar, then lift.
      let trial: ToolCall[] | null = null;
      let trialScore = -1;
      for (const p of spread(alive, PROPOSERS)) {
        const turn = r(fold(p.a - p.psi), 0.5);
        const dz = r(-p.off * Math.cos(p.a * Math.PI / 180) - p.z, 0.0005);
        const move: Motion = { turn, dy: 0, dz };
        let score = 0;
        for (const c of scorers) {
          const at = predict(c, c, move);
          if (at && predict(c, at, { turn: 0, dy: LIFT, dz: 0 })) score++;
        }
        if (score > trialScore) {
          trialScore = score;
          trial = [
            { tool: 'move', args: { dx_m: 0, dy_m: 0, dz_m: dz, axis: 'y', angle_deg: turn } },
            { tool: 'translate', args: { dy_m: LIFT } },
          ];
        }
      }
      const pTrial = scorers.length ? trialScore / scorers.length : 0;

      // The most even split among turn and slide probes.
      let probe: ToolCall | null = null;
      let split = 0;
      const probes: Motion[] = [];
      for (let d = 5; d <= 90; d += 5) probes.push({ turn: d, dy: 0, dz: 0 }, { turn: -d, dy: 0, dz: 0 });
      for (let d = 0.002; d <= 0.04 + 1e-9; d += 0.002) probes.push({ turn: 0, dy: 0, dz: d }, { turn: 0, dy: 0, dz: -d });
      for (const m of probes) {
        let ok = 0;
        for (const c of scorers) if (predict(c, c, m)) ok++;
        const s = Math.min(ok, scorers.length - ok) / Math.max(1, scorers.length);
        if (s > split) {
          split = s;
          probe = m.turn !== 0 ? { tool: 'rotate', args: { axis: 'y', angle_deg: m.turn } } : { tool: 'translate', args: { dz_m: Number(m.dz.toFixed(4)) } };
        }
      }
      if (!trial) return null;
      if (!probe || split < 0.1 || pTrial >= 0.25 || left <= 2) return trial;
      return [probe];
    },
  };
}
