/**
 * V4 shortcut filters and sightless strategies. See README.md for the shortcuts considered.
 */
import { numberGuesses } from '../../kits/sightless-guesses.ts';
import type { SightlessStrategy } from '../../sightless.ts';
import type { Instance, TaskFamily } from '../../types.ts';
import { instanceSettings } from '../../levers.ts';
import { allowedSizes, FRAME_BAR, RANGES, ROUND_STEP_CM, TIERS, V4_LEVERS, type V4Scene } from './scene.ts';
import { endHidden, RulerSight, rulerPartlyHidden, spanLength } from './sight.ts';
import { readingView } from './solver.ts';

type Filter = NonNullable<TaskFamily<V4Scene>['shortcutFilters']>[number];

/**
 * The V4 filters, run on every draw (re-drawn until all pass) and again by `spaceact verify`:
 * - `laid-out`: the draw placed every object (decoys included) without overlap;
 * - `size-is-the-span`: the answer is the distance between the two span points (to 0.05 mm),
 *   and it is one of the allowed sizes: inside the stated range, at least 0.5 cm from its ends,
 *   and more than the tolerance (+1 mm) from its middle and from any multiple of 5 cm, so
 *   neither a round number, nor the middle of the range (the constant a guesser picks), nor a
 *   range end is ever right;
 * - `no-other-size-alike`: no box side, frame side or opening width in the scene is within 1 cm
 *   of the answer, so reading the wrong thing does not pass by luck;
 * - `readable`: the first view, or a view the camera tools reach (azimuth every 30° at 15°, 35°,
 *   60°, and the top view), clearly shows both ends of the size and the ruler piece it is read
 *   against (ray cast);
 * - `first-view-hides-an-end` (L5, L7): the first view shows nothing of one end of the size (no
 *   sample of its faces on a fine lattice), and at L5 misses part of the ruler piece beside the
 *   span too, so the size cannot be read without moving the camera;
 * - `turned` (L7): the size runs 25°–65° off every ruler.
 */
export const SHORTCUT_FILTERS: Filter[] = [
  {
    name: 'laid-out',
    check(instance) {
      const s = instance.scene;
      const want = instanceSettings(instance, TIERS, V4_LEVERS).decoys + (s.kind === 'gap' ? 2 : 1) + (s.hiddenEnd >= 0 ? 1 : 0);
      return s.boxes.length === want ? null : `${s.boxes.length} boxes were placed, ${want} wanted`;
    },
  },
  {
    name: 'size-is-the-span',
    check(instance) {
      const s = instance.scene;
      const len = spanLength(s.span) * 100;
      if (Math.abs(len - s.answerCm) > 0.005) return `the span is ${len.toFixed(3)} cm long, the answer says ${s.answerCm}`;
      if (!allowedSizes(s.kind, s.toleranceCm).includes(s.answerCm)) return `${s.answerCm} cm is not an allowed size (range ${RANGES[s.kind].join('–')}, away from multiples of ${ROUND_STEP_CM} cm)`;
      return null;
    },
  },
  {
    name: 'no-other-size-alike',
    check(instance) {
      const s = instance.scene;
      const sizes: number[] = [];
      for (const b of s.boxes) {
        if (b.role === 'frame') continue;
        // The measured block's own height is the answer to a height question.
        for (const p of b.parts) sizes.push(...p.half.filter((_, a) => !(b.role === 'subject' && a === 1)).map((h) => 200 * h));
      }
      const frame = s.boxes.find((b) => b.role === 'frame');
      if (frame) {
        const opening = 2 * frame.parts[2].p[2] - FRAME_BAR.width;
        sizes.push(opening * 100, s.answerCm + 2 * FRAME_BAR.width * 100);
      }
      const alike = sizes.find((x) => Math.abs(x - s.answerCm) < 1);
      return alike === undefined ? null : `a side of ${alike.toFixed(1)} cm is within 1 cm of the answer ${s.answerCm} cm`;
    },
  },
  {
    name: 'readable',
    check: (instance) => (readingView(instance) ? null : 'no checked view shows both ends and the ruler clearly'),
  },
  {
    name: 'first-view-hides-an-end',
    check(instance) {
      if (!instanceSettings(instance, TIERS, V4_LEVERS).screen) return null;
      const s = instance.scene;
      if (s.hiddenEnd < 0) return 'no screen hides an end';
      const sight = new RulerSight(s, instance.rulers);
      if (!endHidden(sight, instance.camera.initial, s.ends[s.hiddenEnd])) return `end ${s.hiddenEnd + 1} shows in the first view`;
      if (!instanceSettings(instance, TIERS, V4_LEVERS).turned && !rulerPartlyHidden(sight, instance.camera.initial, s.span)) return 'the first view shows the whole ruler piece beside the span';
      return null;
    },
  },
  {
    name: 'turned',
    check(instance: Instance<V4Scene>) {
      if (!instanceSettings(instance, TIERS, V4_LEVERS).turned) return instance.scene.spanTurnDeg === 0 ? null : 'the span is turned at a tier without +rot';
      const t = instance.scene.spanTurnDeg;
      return t >= 25 && t <= 65 ? null : `the span is turned ${t}° from the rulers, not 25°–65°`;
    },
  },
];

/**
 * What a model that reads the rules and guesses a number could do: the middle of the stated
 * range, the size most often right on other seeds, a round number, a number from the text. The
 * bound: a guess is right only within ±tolerance of a size drawn over a range 24 or more
 * tolerance widths (±) wide, so about 1/25–1/45 by luck; 0.1 leaves room for the battery's sampling.
 */
export const SIGHTLESS: SightlessStrategy[] = numberGuesses(0.1, ROUND_STEP_CM);
