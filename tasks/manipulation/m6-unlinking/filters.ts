/**
 * M6 shortcut filters and sightless strategies.
 *
 * Filters:
 * - `straight-line-blocked`: the hook starts turned at least 45° from the lined-up orientation, and
 *   on the straight move to the goal (turning at a steady rate while lifting) it is still so far
 *   off when its plate reaches the bar that a long square bar cannot pass the slot (it would need
 *   a slot as wide as bar / cos Δ + run · sin Δ, the run being the slot's length through the
 *   plate) — so the one-call shortcut, or a lift in the start orientation, is refused.
 * - `bar-clear-of-the-loop`: at the start, and turned to line the slot up, the top bar crosses the
 *   hook's loop clear of its side bars.
 * - `start-linked`: the hook starts round the top bar (the bar's centre line inside its loop).
 *
 * Sightless strategies: the held-part kit's memorised plan, straight line and blind probing, and
 * the family's own `pose-prober` (`adversary.ts`): identifies the start pose with turn and slide
 * probes and tries the turn-slide-lift most of the generator's surviving hooks predict (issue 36).
 */
import { HELD_PART_SIGHTLESS } from '../../kits/held-part/sightless.ts';
import type { SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter } from '../../types.ts';
import { poseProber } from './adversary.ts';
import { drawScene } from './draw.ts';
import { goalPose } from './pieces.ts';
import type { M6Scene } from './scene.ts';

/**
 * Whether a long square bar can pass the slot at `deg` from its direction: it needs a slot as
 * wide as bar / cos Δ + length · sin Δ, the length being the slot's run through the plate.
 */
export function passes(s: M6Scene, deg: number): boolean {
  const d = (deg * Math.PI) / 180;
  const run = s.hook.plateWidth / Math.abs(Math.cos((s.hook.slotAngleDeg * Math.PI) / 180));
  return s.frame.bar / Math.cos(d) + run * Math.sin(d) <= s.hook.slotWidth;
}

/** The hook's turn about y from the lined-up orientation, degrees, folded into [0, 90]. */
export function misalignment(s: M6Scene): number {
  const yaw = (2 * Math.atan2(s.start.q[1], s.start.q[3]) * 180) / Math.PI;
  const d = Math.abs((((yaw - s.hook.slotAngleDeg) % 180) + 180) % 180);
  return Math.min(d, 180 - d);
}

/** Shortcut filters: each names a way an instance could be trivial; failing draws are re-drawn. */
export const SHORTCUT_FILTERS: InstanceFilter<M6Scene>[] = [
  {
    name: 'straight-line-blocked',
    check(inst) {
      const s = inst.scene;
      const start = misalignment(s);
      if (start < 45) return `the hook starts only ${start.toFixed(0)}° from lined up`;
      // The straight move to the goal turns at a steady rate while it lifts: when the plate's top
      // reaches the bar's underside, a fraction t of the lift is done and (1 − t) of the turn is
      // still to come.
      const g = goalPose(s);
      const plateTop = s.start.p[1] - s.hook.height / 2 + s.hook.bar;
      const t = (s.frame.topY - s.frame.bar / 2 - plateTop) / (g.p[1] - s.start.p[1]);
      const left = (1 - Math.max(0, Math.min(1, t))) * start;
      if (left < 1e-6) return 'the straight move is lined up before the plate reaches the bar';
      return passes(s, left) ? `the top bar could pass the slot ${left.toFixed(0)}° off` : null;
    },
  },
  {
    name: 'bar-clear-of-the-loop',
    check(inst) {
      // The top bar crosses the hook's loop obliquely: where it does, along the hook's own z, plus
      // half its footprint there, must stay inside the loop — at the start and when lined up.
      const s = inst.scene;
      const inner = s.hook.length / 2 - s.hook.bar;
      const yaw = (2 * Math.atan2(s.start.q[1], s.start.q[3]) * 180) / Math.PI;
      for (const deg of [yaw, s.hook.slotAngleDeg]) {
        const c = Math.cos((deg * Math.PI) / 180);
        // The loop's side bars are `hook.bar` thick across the hook's x: over that thickness the
        // oblique top bar's crossing moves a further (hook.bar / 2)·tan along the hook's z.
        const slant = (s.hook.bar / 2) * Math.abs(Math.tan((deg * Math.PI) / 180));
        const reach = (Math.abs(s.start.p[2]) + s.frame.bar / 2) / c + slant + 0.003;
        if (reach >= inner) return `at ${deg.toFixed(0)}° the top bar would touch the hook's loop (${(reach * 1000).toFixed(1)} of ${(inner * 1000).toFixed(1)} mm)`;
      }
      return null;
    },
  },
  {
    name: 'start-linked',
    check(inst) {
      const s = inst.scene;
      const inner = s.hook.height / 2 - s.hook.bar;
      const dy = s.frame.topY - s.start.p[1];
      return Math.abs(dy) + s.frame.bar / 2 < inner ? null : "the top bar is not inside the hook's loop";
    },
  },
];

/**
 * M6's sightless strategies: the held-part kit's and the pose-identifying prober (drawing with
 * the generator's own scene draw; called lazily, as generate.ts imports this file).
 */
export const SIGHTLESS: SightlessStrategy[] = [...HELD_PART_SIGHTLESS, poseProber((tier, rng) => drawScene(tier, rng))];
