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
 * Sightless strategies: the held-part kit's memorised plan, straight line and blind probing.
 */
import { HELD_PART_SIGHTLESS } from '../../kits/held-part/sightless.ts';
import type { SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter, ToolCall } from '../../types.ts';
import type { Pose, Vec3 } from '../../../sim/types.ts';
import { qslerp } from '../../../sim/math.ts';
import { callsBetween } from '../../../solvers/se3-planner/motion.ts';
import { lineSearch, nextProbeCalls, stopProbing } from '../../kits/held-part/prober.ts';
import { alongQuat, goalPoses, inFreeSpace, routePoses } from './corridor.ts';
import { M2_TOOLS } from './tools.ts';
import { bendCriticals, type M2Scene } from './scene.ts';

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
];

/** What the corridor prober takes from published examples: the mean sizes of a tier. */
interface MeanSizes {
  radius: number;
  length: number;
  width: number;
}

/** Sizes the old rules stated ("NNN mm long end to end, NN mm thick", "NNN mm wide"), if any. */
function statedSizes(rules: string): Partial<MeanSizes> {
  const len = /(\d+) mm long end to end, (\d+) mm thick/.exec(rules);
  const wide = /(\d+) mm wide/.exec(rules);
  return {
    ...(len ? { length: Number(len[1]) / 1000, radius: Number(len[2]) / 2000 } : {}),
    ...(wide ? { width: Number(wide[1]) / 1000 } : {}),
  };
}

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
    const sizes = { ...mean, ...statedSizes(ctx.view.rules) };
    return nextProbeCalls(ctx, (p) => {
      const T = (v: Vec3): ToolCall => ({ tool: 'translate', args: { dx_m: v[0], dy_m: v[1], dz_m: v[2] } });
      const axes: Vec3[] = [[1, 0, 0], [0, 0, 1], [0, 1, 0]];
      // From the start (the origin of the prober's own coordinates): free distance each way.
      const free: Array<[number, number]> = [];
      let at: Vec3 = [0, 0, 0];
      for (const a of axes) {
        const plus = lineSearch(p, (d) => T([a[0] * d, a[1] * d, a[2] * d]), 0.256, 0.001);
        const minus = lineSearch(p, (d) => T([-a[0] * d, -a[1] * d, -a[2] * d]), 0.5, 0.001);
        // Back to the start along this axis.
        const back = minus - plus;
        if (Math.abs(back) > 1e-6) p.probe(T([a[0] * back, a[1] * back, a[2] * back]), true);
        free.push([plus, minus - plus]);
      }
      at = [0, 0, 0];
      const along = free[0][0] + free[0][1] > free[1][0] + free[1][1] ? 0 : 1;
      const ax = axes[along];
      const sign = free[along][0] > free[along][1] ? 1 : -1;
      const d0: Vec3 = [ax[0] * sign, 0, ax[2] * sign];
      const fwd = sign > 0 ? free[along][0] : free[along][1];
      const backFree = sign > 0 ? free[along][1] : free[along][0];
      const lat = axes[1 - along];
      const latFree = free[1 - along];
      const width = latFree[0] + latFree[1] + 2 * sizes.radius;
      const heightFree = free[2][0] + free[2][1];
      const height = heightFree + 2 * sizes.radius;
      const startY = sizes.radius + free[2][1];
      // The centre line in the prober's coordinates (the rod's start midpoint at (0, startY, 0)).
      const latCentre = (latFree[0] - latFree[1]) / 2;
      const half = sizes.length / 2;
      const p0: Vec3 = [-d0[0] * (half + backFree) + lat[0] * latCentre, height / 2, -d0[2] * (half + backFree) + lat[2] * latCentre];
      const L0 = backFree + sizes.length + fwd - width / 2;
      const p1: Vec3 = [p0[0] + d0[0] * L0, height / 2, p0[2] + d0[2] * L0];
      const start: Pose = { p: [0, startY, 0], q: alongQuat(d0) };
      let pose = start;
      const goTo = (to: Pose, sure: boolean): boolean => {
        for (const c of callsBetween(M2_TOOLS.motion, pose, to)) if (!p.probe(c as ToolCall, sure)) return false;
        pose = to;
        return true;
      };
      const axisLength = sizes.length - 2 * sizes.radius;
      for (const side of [1, -1]) {
        const d1: Vec3 = side > 0 ? [d0[2], 0, -d0[0]] : [-d0[2], 0, d0[0]];
        const far = sizes.length + width + 0.1;
        const p2: Vec3 = [p1[0] + d1[0] * far, height / 2, p1[2] + d1[2] * far];
        const guess: M2Scene = {
          corridor: { width, height, wall: 0.02, points: [p0, p1, p2] },
          rod: { radius: sizes.radius, axisLength, length: sizes.length },
          start,
          criticalAxis: axisLength,
          slack: 0.05,
          tightness: 0.06,
        };
        const route = routePoses(guess).slice(1, 4);
        // Each leg in four parts, so each swept call stays near the rebuilt route.
        const way: Pose[] = [];
        let prev = pose;
        for (const r of route) {
          for (let k = 1; k <= 4; k++) way.push({ p: [0, 1, 2].map((j) => prev.p[j] + ((r.p[j] - prev.p[j]) * k) / 4) as Vec3, q: qslerp(prev.q, r.q, k / 4) });
          prev = r;
        }
        const done: Pose[] = [pose];
        let ok = true;
        for (const w of way) {
          if (!goTo(w, false)) {
            ok = false;
            break;
          }
          done.push(w);
        }
        if (ok) {
          // On along the new stretch until the rod is out (or refused).
          for (let k = 0; k < 40; k++) {
            if (!p.probe(T([d1[0] * 0.1, 0, d1[2] * 0.1]))) break;
            if (/out of the corridor/.test(p.lastMessage())) stopProbing();
          }
          stopProbing();
        }
        // Back along the way it came, then try the other side.
        for (let i = done.length - 2; i >= 0; i--) goTo(done[i], true);
      }
    });
  },
};

/** M2's sightless strategies: the held-part kit's, and the corridor prober. */
export const SIGHTLESS: SightlessStrategy[] = [...HELD_PART_SIGHTLESS, feelTheCorridor as SightlessStrategy];
