/**
 * V3 episode: the table scene as static bodies (nothing moves) and the `answer` tool; solved
 * when the committed letter is the copy's.
 */
import type { World } from '../../../sim/world.ts';
import { buildLetterQuestion } from '../../kits/part-sight/table-question.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import type { V3Scene } from './scene.ts';

/** Builds the table, the plinth, the parts, the walls and the letter stands. */
export function build(instance: Instance<V3Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  return buildLetterQuestion(instance, world, () =>
    [
      `Every part is a set of cubes in its own upright grid, turned about the vertical by the given angle. The copy is candidate ${s.answer}; the smallest turn from the reference to it is ${s.turn.angleDeg.toFixed(0)}° about an axis ${s.turn.axisTiltDeg.toFixed(0)}° from the vertical.`,
      ...s.parts.map((p, i) => `${p.letter}${i ? ` (${s.made[i - 1]})` : ' (reference)'}: cubes ${p.cells.map((c) => `[${c.join(',')}]`).join(' ')}, turned ${p.yawDeg}°`),
    ].join('\n'),
  );
}
