/**
 * M2 shortcut filters and sightless strategies.
 *
 * Filters (static checks every instance passes; the generator re-draws until they do):
 * - `tight`: the scene's critical length is the one its geometry gives, and a rod `tightness`
 *   longer exceeds it — so by the bound in `scene.ts` that rod cannot pass: the instance is
 *   tight, not generous.
 * - `straight-line-blocked`: the straight move of the rod's midpoint from its start to the goal
 *   beyond the exit leaves the corridor's free space (the midpoint would enter a wall), so the
 *   one-call shortcut is refused.
 * - `segments-long`: every stretch after the first is longer than the rod plus the corridor's
 *   width, so each bend is passed on its own (the critical length is exact).
 *
 * - `first-view-clear`: the first camera shows the rod at the view rule's size, its upper side,
 *   the frame arrows and two labels of each ruler (sight lines, `view.ts`): not a shortcut, a
 *   picture no candidate camera could frame. A draw is re-drawn when version 5's camera search
 *   could not frame it (kept so every seed keeps its world) or its own first camera is not clear.
 *
 * Sightless strategies: the held-part kit's memorised plan, straight line and blind probing.
 */
import { HELD_PART_SIGHTLESS } from '../../kits/held-part/sightless.ts';
import type { SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter, ToolCall } from '../../types.ts';
import type { Pose, Quat, Vec3 } from '../../../sim/types.ts';
import { qmul, qrotate } from '../../../sim/math.ts';
import { callsBetween } from '../../../solvers/se3-planner/motion.ts';
import { lineSearch, nextProbeCalls, stopProbing } from '../../kits/held-part/prober.ts';
import { alongQuat, goalPoses, inFreeSpace } from './corridor.ts';
import { M2_TOOLS } from './tools.ts';
import { unseenAtVersion5, unseenFrom } from './view.ts';
import { bendCriticals, segmentDirection, segmentSection, type M2Scene } from './scene.ts';

/** Shortcut filters: each names a way an instance could be trivial or loose; failing draws are re-drawn. */
export const SHORTCUT_FILTERS: InstanceFilter<M2Scene>[] = [
  {
    name: 'tight',
    check(instance) {
      const s = instance.scene;
      const critical = Math.min(...bendCriticals(s.corridor, s.rod.radius));
      if (Math.abs(critical - s.criticalAxis) > 1e-5) return `criticalAxis ${s.criticalAxis} does not match the geometry's ${critical.toFixed(6)}`;
      if (s.rod.axisLength >= critical) return 'the rod is not shorter than the critical length';
      const longer = s.rod.axisLength * (1 + s.tightness);
      return longer > critical ? null : `a rod ${(s.tightness * 100).toFixed(0)}% longer (${longer.toFixed(4)} m) would still be under the critical ${critical.toFixed(4)} m`;
    },
  },
  {
    name: 'straight-line-blocked',
    check(instance) {
      const s = instance.scene;
      const a = s.start.p;
      const b = goalPoses(s)[0].p;
      for (let k = 0; k <= 400; k++) {
        const t = k / 400;
        if (!inFreeSpace(s.corridor, [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t])) return null;
      }
      return "the rod's midpoint could move straight from the start to the goal inside the corridor";
    },
  },
  {
    name: 'segments-long',
    check(instance) {
      const s = instance.scene;
      const p = s.corridor.points;
      for (let i = 1; i < p.length - 1; i++) {
        const len = Math.abs(p[i + 1][0] - p[i][0]) + Math.abs(p[i + 1][1] - p[i][1]) + Math.abs(p[i + 1][2] - p[i][2]);
        if (len < s.rod.length + s.corridor.width) return `stretch ${i + 1} is ${len.toFixed(3)} m, shorter than the rod plus the width`;
      }
      return null;
    },
  },
  {
    // Not a shortcut but a picture the generator cannot frame: a long two-bend corridor framed
    // whole can leave the rod too small from every candidate camera (M2-L5-s4: 343 pixels), or
    // a ruler with one label. Such draws are re-drawn (version 5). The draws re-drawn are those
    // version 5's camera search could not frame, so every seed keeps its world (view.ts,
    // `unseenAtVersion5`); and (version 6) a draw whose own first camera is not clear is
    // re-drawn too, so no instance starts from a picture the search knows to be short.
    name: 'first-view-clear',
    check(instance) {
      const rulers = instance.rulers ?? [];
      const before = unseenAtVersion5(instance.scene, rulers);
      if (before.length) return `no candidate camera of version 5 shows everything: ${before.slice(0, 3).map((p) => p.what).join('; ')}`;
      const unseen = unseenFrom(instance.scene, rulers, instance.camera.initial);
      return unseen.length ? `no candidate first camera shows everything: ${unseen.slice(0, 3).map((p) => p.what).join('; ')}` : null;
    },
  },
];

/** A rod pose given by its midpoint and the direction of its axis (roll does not matter for a capsule). */
export interface RodAim {
  p: Vec3;
  u: Vec3;
  /** The axis across the bend's plane: on the way to this aim the rod's tilt along it changes evenly. */
  n: Vec3;
}

function unit(v: Vec3): Vec3 {
  const n = Math.hypot(...v);
  return [v[0] / n, v[1] / n, v[2] / n];
}

/** The shortest turn taking unit vector `a` onto unit vector `b`. */
function shortestTurn(a: Vec3, b: Vec3): Quat {
  const c: Vec3 = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const w = 1 + a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  if (w < 1e-9) return [0, 1, 0, 0];
  const n = Math.hypot(c[0], c[1], c[2], w);
  return [c[0] / n, c[1] / n, c[2] / n, w / n];
}

/**
 * A swing round bend k of a scene, as aims: the sliding-ladder motion. The rod is tilted across
 * the bend's plane as far as the height allows (its projection then is shorter), its leading end
 * kept on the far wall and its trailing end on the outer side wall (both eroded by the radius and
 * a small margin) while its heading turns from the incoming stretch to the outgoing one in
 * `steps` even steps, then it is levelled along the outgoing stretch.
 */
export function swingAims(s: M2Scene, k: number, steps = 6, margin = 0.002): RodAim[] {
  const c = s.corridor;
  const d0 = segmentDirection(c.points, k - 1);
  const d1 = segmentDirection(c.points, k);
  const i0 = d0.findIndex((v) => Math.abs(v) > 0.5);
  const i1 = d1.findIndex((v) => Math.abs(v) > 0.5);
  const across = 3 - i0 - i1;
  const s0 = segmentSection(c, k - 1);
  const s1 = segmentSection(c, k);
  const r = s.rod.radius;
  const p = c.points[k];
  const n: Vec3 = [0, 0, 0];
  n[across] = 1;
  const h = Math.min(s0[across], s1[across]);
  const L = s.rod.axisLength;
  const sin = Math.min(0.9, (Math.max(0, h - 2 * r - 2 * margin) * (1 - s.slack / 2)) / L);
  // The eroded outer corner of the bend, in its plane (the across coordinate stays the centre line's).
  const a = s0[i1] / 2 - r - margin;
  const b = s1[i0] / 2 - r - margin;
  const O: Vec3 = [0, 1, 2].map((j) => p[j] + d0[j] * b - d1[j] * a) as Vec3;
  const aims: RodAim[] = [];
  const at = (phi: number, tilt: number): RodAim => {
    const co = Math.cos(phi);
    const si = Math.sin(phi);
    const st = tilt;
    const ct = Math.sqrt(1 - st * st);
    const l = L * ct;
    const heading: Vec3 = [0, 1, 2].map((j) => d0[j] * co + d1[j] * si) as Vec3;
    return {
      p: [0, 1, 2].map((j) => O[j] - d0[j] * (l / 2) * co + d1[j] * (l / 2) * si) as Vec3,
      u: unit([0, 1, 2].map((j) => heading[j] * ct + n[j] * st) as Vec3),
      n,
    };
  };
  // Tilt in place first (the ends draw in), then close up to the walls; at the end move off
  // the walls first, then level (a tilt and a move at once would swing an end into a wall).
  const first = at(0, 0);
  const last = at(Math.PI / 2, 0);
  aims.push(first);
  aims.push({ ...first, u: at(0, sin).u });
  for (let q = 0; q <= steps; q++) aims.push(at(((Math.PI / 2) * q) / steps, sin));
  aims.push({ ...last, u: at(Math.PI / 2, sin).u });
  aims.push(last);
  return aims;
}

/**
 * The axis a fraction t of the way from a to b, its tilt along n and its heading in the plane
 * across n each changing evenly (a chord or a great circle would tilt the rod further midway).
 */
function evenTurn(a: Vec3, b: Vec3, n: Vec3, t: number): Vec3 {
  const dot = (x: Vec3, y: Vec3): number => x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
  const sa = dot(a, n);
  const sb = dot(b, n);
  const flat = (x: Vec3, sx: number): Vec3 => {
    const f: Vec3 = [x[0] - n[0] * sx, x[1] - n[1] * sx, x[2] - n[2] * sx];
    const l = Math.hypot(...f);
    return l < 1e-9 ? f : [f[0] / l, f[1] / l, f[2] / l];
  };
  const fa = flat(a, sa);
  const fb = flat(b, sb);
  const om = Math.acos(Math.max(-1, Math.min(1, dot(fa, fb))));
  const w: Vec3 =
    om < 1e-9
      ? fa
      : ([0, 1, 2].map((j) => (Math.sin((1 - t) * om) * fa[j] + Math.sin(t * om) * fb[j]) / Math.sin(om)) as Vec3);
  const st = sa + (sb - sa) * t;
  const ct = Math.sqrt(Math.max(0, 1 - st * st));
  return unit([w[0] * ct + n[0] * st, w[1] * ct + n[1] * st, w[2] * ct + n[2] * st]);
}

/**
 * Poses along aims from `from` (a pose whose x axis is `from`'s aim), `parts` per leg: positions
 * in a straight line, the axis turned the shortest way, so the rod never rolls about itself.
 */
export function posesAlong(from: Pose, aims: RodAim[], parts: number): Pose[] {
  const out: Pose[] = [];
  let q = from.q;
  let u = qrotate(q, [1, 0, 0]);
  let p = from.p;
  for (const aim of aims) {
    const p0 = p;
    const u0 = u;
    for (let k = 1; k <= parts; k++) {
      const t = k / parts;
      const v = evenTurn(u0, aim.u, aim.n, t);
      q = qmul(shortestTurn(u, v), q);
      u = v;
      out.push({ p: [p0[0] + (aim.p[0] - p0[0]) * t, p0[1] + (aim.p[1] - p0[1]) * t, p0[2] + (aim.p[2] - p0[2]) * t], q });
    }
    p = aim.p;
  }
  return out;
}

/** What the corridor prober takes from published examples: the mean sizes of a tier. */
interface MeanSizes {
  radius: number;
  length: number;
  width: number;
}

/** Sizes the old rules stated ("NNN mm long end to end, NN mm thick", "NNN mm wide"), if any. */
function statedSizes(rules: string): Partial<MeanSizes> & { height?: number; stated?: boolean } {
  const len = /(\d+) mm long end to end, (\d+) mm thick/.exec(rules);
  const box = /(\d+) mm wide and (\d+) mm high/.exec(rules);
  return {
    ...(len ? { length: Number(len[1]) / 1000, radius: Number(len[2]) / 2000, stated: true } : {}),
    ...(box ? { width: Number(box[1]) / 1000, height: Number(box[2]) / 1000 } : {}),
  };
}

/** How far the rod's far end starts from the closed end, as in every published example (metres). */
const START_GAP_SEEN = 0.02;

/**
 * A feel-your-way prober (issue 36), as a text-only model could play: line searches along ±x,
 * ±z and ±y find which way the first stretch runs, where its closed end and its far wall are and
 * how wide it is; the rod's sizes come from the rules when they state them (the old rules did)
 * or else from published examples; it then rebuilds the first bend for a turn either way, swings
 * the rod along that bend's route (straight in, the tightest 45° pose, straight out), backs off and
 * tries the other way when a call is refused, and carries the rod on until it is out or refused.
 */
export const feelTheCorridor: SightlessStrategy<Partial<Record<string, MeanSizes>>> = {
  name: 'feel-the-corridor',
  description: 'Line searches find the first stretch and its far wall; it rebuilds the bend either way and swings the rod along the rebuilt route, then carries it on until it is out.',
  bound: 0.05,
  fit(training) {
    const sums: Record<string, MeanSizes & { n: number }> = {};
    for (const t of training) {
      const sc = t.instance.scene as M2Scene;
      const m = (sums[t.instance.tier] ??= { radius: 0, length: 0, width: 0, n: 0 });
      m.radius += sc.rod.radius;
      m.length += sc.rod.length;
      m.width += sc.corridor.width;
      m.n++;
    }
    const out: Partial<Record<string, MeanSizes>> = {};
    for (const [tier, m] of Object.entries(sums)) out[tier] = { radius: m.radius / m.n, length: m.length / m.n, width: m.width / m.n };
    return out;
  },
  next(ctx, fitted) {
    const mean = fitted?.[ctx.view.tier];
    if (!mean) return null;
    const sizes: MeanSizes & { height?: number; stated?: boolean } = { ...mean, ...statedSizes(ctx.view.rules) };
    return nextProbeCalls(ctx, (p) => {
      const T = (v: Vec3): ToolCall => ({ tool: 'translate', args: { dx_m: v[0], dy_m: v[1], dz_m: v[2] } });
      const axes: Vec3[] = [[1, 0, 0], [0, 0, 1], [0, 1, 0]];
      const scaled = (a: Vec3, d: number): Vec3 => [a[0] * d, a[1] * d, a[2] * d];
      // Which way the first stretch runs: a 10 cm move along it is done one way (toward the
      // bend) and refused the other (the closed end is 2 cm behind, as in every example); across
      // it both are refused (the rod starts at most 9.5 cm from either side). Each done probe is undone.
      const tryMove = (v: Vec3): boolean => {
        if (!p.probe(T(v))) return false;
        p.probe(T(scaled(v, -1)), true);
        return true;
      };
      let d0: Vec3 | null = null;
      for (const a of axes.slice(0, 2)) {
        if (tryMove(scaled(a, 0.1))) d0 = a;
        else if (tryMove(scaled(a, -0.1))) d0 = scaled(a, -1);
        if (d0) break;
      }
      if (!d0) stopProbing();
      const dir0 = d0 as Vec3;
      const lat: Vec3 = [dir0[2] === 0 ? 0 : 1, 0, dir0[0] === 0 ? 0 : 1];
      // Line searches: forward to the bend's far wall and back; one side and, unless the rules
      // state the width, the other; the floor and, unless stated, the ceiling.
      const there = (a: Vec3, max: number): number => {
        const went = lineSearch(p, (d) => T(scaled(a, d)), max, 0.001);
        if (went > 0) p.probe(T(scaled(a, -went)), true);
        return went;
      };
      const fwd = there(dir0, 0.256);
      const backFree = START_GAP_SEEN;
      const side1 = there(lat, 0.128);
      const width = sizes.stated && sizes.width ? sizes.width : side1 + there(scaled(lat, -1), 0.128) + 2 * sizes.radius;
      const down = there([0, -1, 0], 0.128);
      const height = sizes.stated && sizes.height ? sizes.height : down + there([0, 1, 0], 0.256) + 2 * sizes.radius;
      const startY = sizes.radius + down;
      // The centre line in the prober's coordinates (the rod's start midpoint at (0, startY, 0)).
      const latCentre = side1 - (width - 2 * sizes.radius) / 2;
      const half = sizes.length / 2;
      const p0: Vec3 = [-dir0[0] * (half + backFree) + lat[0] * latCentre, height / 2, -dir0[2] * (half + backFree) + lat[2] * latCentre];
      const L0 = backFree + sizes.length + fwd - width / 2;
      const p1: Vec3 = [p0[0] + dir0[0] * L0, height / 2, p0[2] + dir0[2] * L0];
      const start: Pose = { p: [0, startY, 0], q: alongQuat(dir0) };
      let pose = start;
      const goTo = (to: Pose): boolean => {
        for (const c of callsBetween(M2_TOOLS.motion, pose, to)) if (!p.probe(c as ToolCall, true)) return false;
        pose = to;
        return true;
      };
      const axisLength = sizes.length - 2 * sizes.radius;
      const turnSide = (d: Vec3, side: number): Vec3 => (side > 0 ? [d[2], 0, -d[0]] : [-d[2], 0, d[0]]);
      /** Swings round the bend at `q` from a stretch along `din` into one along `dout`; false (and back where it was) if refused. */
      const swing = (from: Vec3, q: Vec3, din: Vec3, dout: Vec3): boolean => {
        const far = sizes.length + width + 0.1;
        const guess: M2Scene = {
          corridor: { width, height, wall: 0.02, points: [from, q, [q[0] + dout[0] * far, q[1] + dout[1] * far, q[2] + dout[2] * far]] },
          rod: { radius: sizes.radius, axisLength, length: sizes.length },
          start: pose,
          criticalAxis: axisLength,
          slack: 0.05,
          tightness: 0.06,
        };
        const done: Pose[] = [pose];
        for (const w of posesAlong(pose, swingAims(guess, 1), 3)) {
          if (!goTo(w)) {
            for (let i = done.length - 2; i >= 0; i--) goTo(done[i]);
            return false;
          }
          done.push(w);
        }
        return true;
      };
      const sides = (d: Vec3): Vec3[] => [turnSide(d, 1), turnSide(d, -1)];
      let d1: Vec3 | null = null;
      for (const d of sides(dir0)) {
        if (swing(p0, p1, dir0, d)) {
          d1 = d;
          break;
        }
      }
      if (!d1) stopProbing();
      const dir1 = d1 as Vec3;
      const carryOut = (d: Vec3): void => {
        for (let k = 0; k < 40; k++) {
          if (!p.probe(T([d[0] * 0.1, d[1] * 0.1, d[2] * 0.1]))) break;
          if (/out of the corridor/.test(p.lastMessage())) stopProbing();
        }
        stopProbing();
      };
      if (!/two right-angle bends/.test(ctx.view.rules)) carryOut(dir1);
      // The second bend: feel along the new stretch for its far wall.
      const ahead = lineSearch(p, (d) => T([dir1[0] * d, 0, dir1[2] * d]), 0.256, 0.001);
      const upward = /second turning upward/.test(ctx.view.rules);
      const front: Vec3 = [pose.p[0] + dir1[0] * (ahead + half), height / 2, pose.p[2] + dir1[2] * (ahead + half)];
      pose = { p: [pose.p[0] + dir1[0] * ahead, pose.p[1], pose.p[2] + dir1[2] * ahead], q: pose.q };
      // The stretch's centre line runs through the bend point p1 along dir1.
      const depth = upward ? height : width;
      const run1 = (front[0] - p1[0]) * dir1[0] + (front[2] - p1[2]) * dir1[2] - depth / 2;
      const p2: Vec3 = [p1[0] + dir1[0] * run1, height / 2, p1[2] + dir1[2] * run1];
      const thirds: Vec3[] = upward ? [[0, 1, 0]] : sides(dir1);
      for (const d of thirds) {
        if (swing(p1, p2, dir1, d)) carryOut(d);
      }
    });
  },
};

/** M2's sightless strategies: the held-part kit's, and the corridor prober. */
export const SIGHTLESS: SightlessStrategy[] = [...HELD_PART_SIGHTLESS, feelTheCorridor as SightlessStrategy];
