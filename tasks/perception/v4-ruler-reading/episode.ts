/**
 * V4 episode: the table and its boxes as static bodies (nothing moves), the `answer` tool that
 * records a size, and the success test: within the tolerance of the true size.
 */
import { SpaceActError } from '../../../core/errors.ts';
import type { World } from '../../../sim/world.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import { COLORS, type V4Scene } from './scene.ts';

/** Builds the table and the boxes; `answer` stores the committed size in `world.meta`. */
export function build(instance: Instance<V4Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  world.addBody({ name: 'table', kind: 'static', pose: s.table.pose, shapes: [{ type: 'box', half: s.table.half }], color: COLORS.table });
  for (const b of s.boxes) {
    world.addBody({
      name: b.name,
      kind: 'static',
      pose: b.pose,
      shapes: b.parts.map((p) => ({ type: 'box' as const, half: p.half, pose: { p: p.p, q: [0, 0, 0, 1] as [number, number, number, number] } })),
      color: b.color,
      tags: [b.role],
    });
  }
  world.meta.answer = null;
  return {
    tools: {
      answer(args) {
        const v = Number(args.size_cm);
        if (!Number.isFinite(v) || v < 0 || v > 100) throw new SpaceActError('invalid-argument', 'size_cm must be a number from 0 to 100', { field: 'size_cm' });
        world.meta.answer = v;
        return `committed ${v} cm`;
      },
    },
    solved() {
      const a = world.meta.answer;
      return typeof a === 'number' && Math.abs(a - s.answerCm) <= s.toleranceCm + 1e-9;
    },
    // All or nothing: credit for coming close would pay a blind guess at the middle of the range.
    // The first view (view rule, AUTHORING step 4a): the table, every box the question names or
    // shows (ends, the measured block or frame, decoys, the screen), less the end block the
    // L5/L7 screen hides on purpose, and every ruler readable.
    viewParts: () => {
      // The hidden end's faces name their box (`box/part/face`); an end block hides whole, a
      // frame's far post hides while the frame shows.
      const endBox = s.hiddenEnd >= 0 ? s.ends[s.hiddenEnd][0]?.split('/')[0] : undefined;
      const hidden = s.boxes.filter((b) => b.name === endBox && b.role === 'end').map((b) => b.name);
      return [
        {
          bodies: [{ name: 'table', minPixels: 20000, mayBeCut: true }, ...s.boxes.map((b) => ({ name: b.name, minPixels: 1500 }))],
          hidden,
          hiddenBecause: 'L5 and L7: a grey board hides one end of what is measured from the first view, so the camera must move',
          // One end, as the tier text says.
          hiddenAtMost: 1,
        },
      ];
    },
    progress: () => 0,
    stateText() {
      const f = (v: readonly number[]): string => `(${v.map((x) => (x * 100).toFixed(1)).join(', ')}) cm`;
      return [
        `${s.kind}: ${s.answerCm} cm (right within ${s.toleranceCm} cm), from ${f(s.span[0])} to ${f(s.span[1])}; the span is turned ${s.spanTurnDeg}° from the nearest ruler.`,
        ...s.boxes.map((b) => `${b.name} (${b.role}, ${b.colorName}) at ${f(b.pose.p)}`),
        ...instance.rulers.map((r, i) => `ruler ${i + 1}: from ${f(r.from)} to ${f(r.to)}`),
      ].join('\n');
    },
  };
}
