/**
 * V2 episode: the table scene as static bodies (nothing moves) and the `answer` tool; solved
 * when the committed letter is the mirror image's.
 */
import type { World } from '../../../sim/world.ts';
import { buildLetterQuestion } from '../../kits/part-sight/table-question.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import type { V2Scene } from './scene.ts';

/** Builds the table, the parts, the walls and the letter stands. */
export function build(instance: Instance<V2Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  return buildLetterQuestion(instance, world, () =>
    [
      `Every part is a set of cubes in its own upright grid (x right, y up, z towards the viewer before its turn), turned about the vertical by the given angle. The mirror image is part ${s.answer}.`,
      ...s.parts.map((p) => `${p.letter}: cubes ${p.cells.map((c) => `[${c.join(',')}]`).join(' ')}, turned ${p.yawDeg}°, footprint centre (${(p.at[0] * 100).toFixed(1)}, ${(p.at[1] * 100).toFixed(1)}) cm${p.base ? ', on the step' : ''}`),
    ].join('\n'),
  );
}
